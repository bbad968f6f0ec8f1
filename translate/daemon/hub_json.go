package daemon

import (
	"fmt"
	"io"
	"net"

	"github.com/hivebridge/hivebridge/internal/allowlist"

	"github.com/hivebridge/hivebridge/protocols/hub"
)

// serveHub runs one Hub session on a connection. At shutdown its input
// ends, so a search in progress is stopped and answered with its done.
func (s *Server) serveHub(raw net.Conn) {
	defer s.active.Done()
	defer raw.Close()
	defer s.recoverSession("hub-tcp", s.log.With().Str("remote", raw.RemoteAddr().String()).Logger())
	refuse := func(w io.Writer, msg string) {
		fmt.Fprintln(w, hub.Error{Message: msg}.Line().String())
	}
	ls, ok := s.admitLine(raw, "hub-tcp", refuse)
	if !ok {
		return
	}
	defer ls.end()
	id := s.nextID.Add(1)
	log := s.log.With().Uint64("session", id).Str("protocol", "hub-tcp").Logger()
	name := "hivebridge"
	if !s.native {
		name += " via " + s.backendID
	}
	searcher, options := s.newSessionSearcher()
	var settings []hub.Setting
	for _, o := range options {
		if st, ok := hub.SettingOf(o); ok {
			settings = append(settings, st)
		}
	}
	cfg := hub.Config{
		ID:            hub.ID{Name: name, Version: s.cfg.Version},
		Expansions:    s.expansions,
		Searcher:      searcher,
		Settings:      settings,
		Interruptible: s.interruptible,
		Fallback:      s.fallback,
		MaxLine:       s.cfg.MaxLine,
		Log:           log,
	}
	if s.archive != nil {
		games := s.positionLog("hub-tcp", HubGUI)
		defer games.closed()
		cfg.Games = hubGames{games}
	}
	session := hub.NewSession(cfg)
	log.Info().Str("remote", raw.RemoteAddr().String()).Msg("session started")
	err := session.Run(s.hardStop, ls.in, ls.conn)
	s.sayWhyEnded(ls.conn, refuse)
	log.Info().AnErr("end", err).Msg("session ended")
}

// serveJSON answers a Choose-Turn JSON controller on a connection. At
// shutdown its search is cancelled, so the request in hand is answered at
// once.
func (s *Server) serveJSON(conn net.Conn) {
	defer s.active.Done()
	defer conn.Close()
	defer s.recoverSession("hivejson", s.log.With().Str("remote", conn.RemoteAddr().String()).Logger())
	if !s.allowed(conn.RemoteAddr()) {
		s.jsonServer.Refuse(conn, allowlist.Refusal(conn.RemoteAddr().String()))
		return
	}
	if err := s.admit(); err != nil {
		s.jsonServer.Refuse(conn, err)
		return
	}
	defer s.sessions.Add(-1)
	gauge := s.metrics.sessions.WithLabelValues("hivejson")
	gauge.Inc()
	defer gauge.Dec()
	defer s.track(&sessionConn{interrupt: func() {}, close: func() { conn.Close() }})()
	s.jsonServer.ServeConn(s.drain, conn)
}

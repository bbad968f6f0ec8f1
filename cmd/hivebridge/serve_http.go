package main

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hivebridge/hivebridge/cmd/hivebridge/web"
)

// httpHandler serves the viewer page at / and its files under /assets/,
// open to all (they hold no secret), and /uhp (WebSocket), /healthz and
// /metrics behind the token when there is one.
func (s *server) httpHandler() http.Handler {
	private := http.NewServeMux()
	private.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if why := s.archiveHealth(r.Context()); why != "" {
			// Games go on without the archive: degraded, still ready.
			fmt.Fprintln(w, "degraded: "+why)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	private.Handle("/metrics", promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{}))
	private.HandleFunc("/uhp", s.serveWebSocket)
	s.archiveRoutes(private)
	mux := http.NewServeMux()
	page := web.Handler()
	mux.Handle("GET /{$}", page)
	mux.Handle("GET "+web.AssetPrefix, page)
	mux.Handle("/", s.requireToken(private))
	return s.allowFrom(mux)
}

// allowFrom refuses, with 403, requests from clients --allow-from does not
// list.
func (s *server) allowFrom(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.allow.AllowsHostPort(r.RemoteAddr) {
			s.metrics.refused.WithLabelValues("allow_from").Inc()
			http.Error(w, notAllowed(r.RemoteAddr).Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// requireToken refuses requests without the bearer token, when the server
// has one: "Authorization: Bearer TOKEN", or ?token=TOKEN for browsers,
// which cannot set headers on a WebSocket.
func (s *server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.token != "" {
			given := r.URL.Query().Get("token")
			if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
				given = strings.TrimSpace(auth)
			}
			if subtle.ConstantTimeCompare([]byte(given), []byte(s.token)) != 1 {
				s.metrics.refused.WithLabelValues("token").Inc()
				w.Header().Set("WWW-Authenticate", `Bearer realm="hivebridge"`)
				http.Error(w, "missing or bad bearer token", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// checkOrigin lets a browser page connect only from the server's own host
// or an allowed origin; clients that send no Origin are not browsers.
func (s *server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, allowed := range s.cfg.origins {
		if strings.EqualFold(strings.TrimRight(allowed, "/"), origin) {
			return true
		}
	}
	s.metrics.refused.WithLabelValues("origin").Inc()
	return false
}

// serveWebSocket runs one UHP session on a WebSocket: one command per text
// message, the answer up to ok in one text message, the info answer on
// connect. What a command flushes while it runs (the lines of
// ReportIntermediateBestMoves, perft's depths) goes out at once as a
// message of its own, so that a viewer sees the engine think; the rest of
// the answer, ending with ok, is the last message. One goroutine reads,
// answers and writes (a searcher's reports reach the connection only while
// that goroutine waits for the search), so the connection has a single
// writer.
func (s *server) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	upgrader := websocket.Upgrader{CheckOrigin: s.checkOrigin, ReadBufferSize: 1024, WriteBufferSize: 1024}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered with the HTTP error
	}
	s.active.Add(1)
	defer s.active.Done()
	defer conn.Close()
	send := func(text string) error {
		conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		return conn.WriteMessage(websocket.TextMessage, []byte(text))
	}
	closeWith := func(code int, reason string) {
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	}
	if err := s.admit(); err != nil {
		send("err " + err.Error() + "\nok\n")
		closeWith(websocket.CloseTryAgainLater, "session limit")
		return
	}
	defer s.sessions.Add(-1)
	gauge := s.metrics.sessions.WithLabelValues("uhp-ws")
	gauge.Inc()
	defer gauge.Dec()
	defer s.track(&sessionConn{
		interrupt: func() { conn.SetReadDeadline(time.Now()) },
		close:     func() { conn.Close() },
	})()
	conn.SetReadLimit(int64(s.cfg.maxLine))

	engine, log := s.newSession("uhp-ws")
	defer engine.Close()
	log.Info().Str("remote", r.RemoteAddr).Msg("session started")
	answer := &liveAnswer{send: send}
	engine.Handle(s.hardStop, "info", answer)
	if answer.Flush() != nil {
		return
	}
	for {
		conn.SetReadDeadline(time.Now().Add(s.cfg.idle))
		kind, data, err := conn.ReadMessage()
		if err != nil {
			var ne net.Error
			switch {
			case s.draining.Load():
				closeWith(websocket.CloseGoingAway, "server shutting down")
			case errors.As(err, &ne) && ne.Timeout():
				s.metrics.refused.WithLabelValues("idle").Inc()
				send(fmt.Sprintf("err No command for %s: the session is closed.\nok\n", s.cfg.idle))
				closeWith(websocket.CloseNormalClosure, "idle")
			case errors.Is(err, websocket.ErrReadLimit):
				s.metrics.refused.WithLabelValues("too_long").Inc()
			}
			log.Info().AnErr("end", err).Msg("session ended")
			return
		}
		command := strings.TrimRight(string(data), "\r\n")
		switch {
		case kind != websocket.TextMessage:
			answer.WriteString("err Send each command as a text message.\nok\n")
		case strings.ContainsAny(command, "\r\n"):
			answer.WriteString("err Send one command per message.\nok\n")
		default:
			if quit := engine.Handle(s.hardStop, command, answer); quit {
				closeWith(websocket.CloseNormalClosure, "exit")
				return
			}
		}
		if answer.Flush() != nil {
			return
		}
	}
}

// liveAnswer gathers a UHP answer for a WebSocket. The engine session
// calls Flush when it prints a line the viewer should see before the
// command ends; each Flush sends what has gathered since the last as one
// text message, and nothing when nothing has.
type liveAnswer struct {
	buf  bytes.Buffer
	send func(string) error
	err  error // the first failed send: the connection is gone
}

func (a *liveAnswer) Write(p []byte) (int, error) { return a.buf.Write(p) }

func (a *liveAnswer) WriteString(s string) (int, error) { return a.buf.WriteString(s) }

// Flush sends the lines gathered so far as one message.
func (a *liveAnswer) Flush() error {
	if a.err == nil && a.buf.Len() > 0 {
		a.err = a.send(a.buf.String())
	}
	a.buf.Reset()
	return a.err
}

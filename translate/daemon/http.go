package daemon

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	stdlog "log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/internal/allowlist"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// newHTTPServer returns the daemon's HTTP server. Its connections have
// deadlines for their headers and for idling between requests (a
// keep-alive connection would otherwise hold a file descriptor for good),
// and at most --max-http-conns are open at once besides WebSocket
// sessions, which --max-sessions bounds once they are upgraded: one more
// is closed as soon as it is accepted.
func (s *Server) newHTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.httpHandler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		ConnState: func(c net.Conn, state http.ConnState) {
			switch state {
			case http.StateNew:
				if s.httpConns.Add(1) > int64(s.cfg.MaxHTTPConns) {
					s.metrics.refused.WithLabelValues("max_http_conns").Inc()
					c.Close() // net/http then reports it closed, and it is given back below
				}
			case http.StateHijacked, http.StateClosed:
				s.httpConns.Add(-1)
			}
		},
		// The server's own complaints (a TLS handshake on the plain
		// port, a header too large) go to the daemon's log.
		ErrorLog: stdlog.New(s.log.With().Str("component", "http").Logger(), "", 0),
	}
}

// httpHandler serves the viewer page at / and its files under /assets/,
// open to all (they hold no secret), and /uhp (WebSocket), /healthz,
// /metrics, the archive (archiveRoutes) and its opening explorer
// (explorerRoutes), POST /records (recordsRoutes), POST /analysis
// (analysisRoutes) and
// the match tests (testsRoutes) behind the token when there is one.
func (s *Server) httpHandler() http.Handler {
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
	s.archiveRoutes(private)
	s.explorerRoutes(private)
	s.recordsRoutes(private)
	s.analysisRoutes(private)
	s.testsRoutes(private)
	mux := http.NewServeMux()
	if s.cfg.Page != nil {
		mux.Handle("GET /{$}", s.cfg.Page)
		mux.Handle("GET "+s.cfg.PagePrefix, s.cfg.Page)
	}
	// /uhp checks the token itself: a browser, which cannot set a
	// WebSocket's headers, sends it as its first message rather than in
	// the address, where proxies would log it.
	mux.HandleFunc("/uhp", s.serveWebSocket)
	mux.Handle("/", s.requireToken(private))
	return s.allowFrom(s.requireHost(mux))
}

// requireHost refuses, with 421 Misdirected Request, a request whose Host
// the daemon does not serve (see hostAllowed).
func (s *Server) requireHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			s.metrics.refused.WithLabelValues("host").Inc()
			http.Error(w, fmt.Sprintf("this daemon does not answer for the host %q: start it with --public-host to serve that name", r.Host), http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowFrom refuses, with 403, requests from clients --allow-from does not
// list.
func (s *Server) allowFrom(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.allow.AllowsHostPort(r.RemoteAddr) {
			s.metrics.refused.WithLabelValues("allow_from").Inc()
			http.Error(w, allowlist.Refusal(r.RemoteAddr).Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken is the token a request presents in its Authorization header
// ("Bearer TOKEN", the scheme in any case: RFC 7235, 2.1) or, for clients
// that can set no header, in ?token=TOKEN; "" when it presents none.
func bearerToken(r *http.Request) string {
	given := r.URL.Query().Get("token")
	if scheme, auth, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " "); ok && strings.EqualFold(scheme, "bearer") {
		given = strings.TrimSpace(auth)
	}
	return given
}

// tokenIs reports, in constant time, whether given is the daemon's token.
func (s *Server) tokenIs(given string) bool {
	return subtle.ConstantTimeCompare([]byte(given), []byte(s.token)) == 1
}

// requireToken refuses requests without the bearer token, when the server
// has one: "Authorization: Bearer TOKEN", or ?token=TOKEN for clients that
// can set no header.
func (s *Server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.token != "" && !s.tokenIs(bearerToken(r)) {
			s.refuseToken(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuseToken answers a request whose token is missing or wrong with 401,
// counted and logged.
func (s *Server) refuseToken(w http.ResponseWriter, r *http.Request) {
	s.metrics.refused.WithLabelValues("token").Inc()
	s.metrics.failedLogins.WithLabelValues("http").Inc()
	s.logins.failed(r.RemoteAddr, "http", "missing or bad bearer token on "+r.URL.Path)
	w.Header().Set("WWW-Authenticate", `Bearer realm="hivebridge"`)
	http.Error(w, "missing or bad bearer token", http.StatusUnauthorized)
}

// authenticateWS reads the first message of a WebSocket session that came
// without a token, when the daemon has one: it must be "auth TOKEN". Until
// then the session holds no slot, counts against --max-unauthenticated and
// has --auth-timeout in all. It reports whether the token is right, having
// told the client why not otherwise.
func (s *Server) authenticateWS(conn *websocket.Conn, remote string, send func(string) error) bool {
	refuse := func(msg string) bool {
		send("err " + msg + "\nok\n")
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "authentication"), time.Now().Add(time.Second))
		return false
	}
	if n := s.unauthenticated.Add(1); n > int64(s.cfg.MaxUnauthenticated) {
		s.unauthenticated.Add(-1)
		s.metrics.refused.WithLabelValues("max_unauthenticated").Inc()
		return refuse(fmt.Sprintf("Too many connections are waiting to log in (%d); try again later.", s.cfg.MaxUnauthenticated))
	}
	defer s.unauthenticated.Add(-1)
	defer s.track(&sessionConn{
		interrupt: func() { conn.SetReadDeadline(time.Now()) },
		close:     func() { conn.Close() },
	})()
	conn.SetReadDeadline(time.Now().Add(s.cfg.AuthTimeout))
	kind, data, err := conn.ReadMessage()
	conn.SetReadDeadline(time.Time{})
	if s.draining.Load() {
		return refuse("The server is shutting down.")
	}
	word, token, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
	var msg string
	switch {
	case err != nil:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return false // the client left, or sent too much: nothing to answer
		}
		msg = fmt.Sprintf("No auth message within %s: the session is closed.", s.cfg.AuthTimeout)
	case kind != websocket.TextMessage || !strings.EqualFold(word, "auth"):
		msg = "Authentication required: send 'auth <token>' as the first message."
	case !s.tokenIs(strings.TrimSpace(token)):
		msg = "Bad token."
	default:
		return true
	}
	s.metrics.refused.WithLabelValues("token").Inc()
	s.metrics.failedLogins.WithLabelValues("uhp-ws").Inc()
	s.logins.failed(remote, "uhp-ws", msg)
	return refuse(msg)
}

// checkOrigin lets a browser page connect only from the server's own host
// or an allowed origin; clients that send no Origin are not browsers.
func (s *Server) checkOrigin(r *http.Request) bool {
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
	for _, allowed := range s.cfg.Origins {
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
// the answer, ending with ok, is the last message. One goroutine answers
// and writes (a searcher's reports reach the connection only while that
// goroutine waits for the search), so the connection has a single writer;
// another reads, so that a client that leaves in the middle of a search
// cancels it at once rather than holding an engine of the pool to its end.
func (s *Server) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	// A token presented in the request is checked before the upgrade;
	// without one, the first message must carry it (authenticateWS).
	given := bearerToken(r)
	if s.token != "" && given != "" && !s.tokenIs(given) {
		s.refuseToken(w, r)
		return
	}
	upgrader := websocket.Upgrader{CheckOrigin: s.checkOrigin, ReadBufferSize: 1024, WriteBufferSize: 1024}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered with the HTTP error
	}
	defer conn.Close()
	if !s.enter() {
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"), time.Now().Add(time.Second))
		return
	}
	defer s.active.Done()
	defer s.recoverSession("uhp-ws", s.log.With().Str("remote", r.RemoteAddr).Logger())
	send := func(text string) error {
		conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		// A text message must be UTF-8 (RFC 6455, 5.6): nothing a
		// client sent is ever echoed back unchecked.
		return conn.WriteMessage(websocket.TextMessage, []byte(strings.ToValidUTF8(text, "\uFFFD")))
	}
	closeWith := func(code int, reason string) {
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	}
	conn.SetReadLimit(int64(s.cfg.MaxLine))
	if s.token != "" && given == "" && !s.authenticateWS(conn, r.RemoteAddr, send) {
		return
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

	engine, log := s.newSession("uhp-ws")
	defer engine.Close()
	log.Info().Str("remote", r.RemoteAddr).Msg("session started")
	answer := &liveAnswer{send: send}
	engine.Handle(s.hardStop, "info", answer)
	if answer.Flush() != nil {
		return
	}
	// The session's commands run under ctx, which the reader cancels when
	// the connection ends.
	ctx, leave := context.WithCancel(s.hardStop)
	defer leave()
	done := make(chan struct{})
	defer close(done)
	// At shutdown the read is interrupted, but the command in progress is
	// answered as it would have been: only the client's leaving cancels.
	messages := readMessages(conn, engine.Ahead, func() {
		if !s.draining.Load() {
			leave()
		}
	}, done)
	idle := time.NewTimer(s.cfg.IdleTimeout)
	defer idle.Stop()
	for {
		var msg wsMessage
		select {
		case msg = <-messages:
		case <-idle.C:
			s.metrics.refused.WithLabelValues("idle").Inc()
			send(fmt.Sprintf("err No command for %s: the session is closed.\nok\n", s.cfg.IdleTimeout))
			closeWith(websocket.CloseNormalClosure, "idle")
			log.Info().Msg("session ended: idle")
			return
		}
		if msg.err != nil {
			switch {
			case s.draining.Load():
				closeWith(websocket.CloseGoingAway, "server shutting down")
			case errors.Is(msg.err, websocket.ErrReadLimit):
				s.metrics.refused.WithLabelValues("too_long").Inc()
			}
			log.Info().AnErr("end", msg.err).Msg("session ended")
			return
		}
		command := strings.TrimRight(string(msg.data), "\r\n")
		switch {
		case msg.kind != websocket.TextMessage:
			answer.WriteString("err Send each command as a text message.\nok\n")
		case !utf8.ValidString(command):
			answer.WriteString("err The command is not valid UTF-8.\nok\n")
		case strings.ContainsAny(command, "\r\n"):
			answer.WriteString("err Send one command per message.\nok\n")
		default:
			if quit := engine.HandleAhead(ctx, msg.n, command, answer); quit {
				closeWith(websocket.CloseNormalClosure, "exit")
				return
			}
		}
		if answer.Flush() != nil {
			return
		}
		if ctx.Err() != nil {
			log.Info().Msg("session ended: the client left during a command")
			return
		}
		idle.Reset(s.cfg.IdleTimeout)
	}
}

// wsMessage is one message a WebSocket client sent, numbered by the
// session's Ahead, or the error that ended its connection.
type wsMessage struct {
	kind int
	data []byte
	n    uint64
	err  error
}

// wsQueue is how many messages a client may send ahead of the answers:
// beyond it the reader waits, holding at most wsQueue * --max-line bytes.
const wsQueue = 16

// readMessages reads conn's messages on a goroutine of its own until the
// connection ends, telling ahead of each as it comes (so that a stop
// message stops the search in progress at once): then it calls leave,
// which cancels the command in progress at once, and sends the error as
// the last message. It gives up a send when done is closed (the session is
// over).
func readMessages(conn *websocket.Conn, ahead func(string) uint64, leave func(), done <-chan struct{}) <-chan wsMessage {
	messages := make(chan wsMessage, wsQueue)
	go func() {
		for {
			kind, data, err := conn.ReadMessage()
			var n uint64
			switch {
			case err != nil:
				leave()
			case kind == websocket.TextMessage:
				n = ahead(strings.TrimRight(string(data), "\r\n"))
			default:
				n = ahead("")
			}
			select {
			case messages <- wsMessage{kind: kind, data: data, n: n, err: err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return messages
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

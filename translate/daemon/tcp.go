package daemon

import (
	"bufio"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hivebridge/hivebridge/internal/accept"
	"github.com/hivebridge/hivebridge/internal/allowlist"
)

// writeTimeout bounds every write to a client: one that stops reading is
// dropped rather than left to block its session forever.
const writeTimeout = 30 * time.Second

// accept serves each connection of a TCP listener with serve, on its own
// goroutine, until the listener is closed. A temporary failure (out of
// file descriptors, a connection aborted before it was accepted) is waited
// out, from 5 ms doubling to a second, as net/http's server does: it must
// not end the daemon. Any other error is returned.
func (s *Server) accept(l net.Listener, serve func(net.Conn)) error {
	var wait time.Duration
	for {
		conn, err := l.Accept()
		if err != nil {
			if s.draining.Load() {
				return nil
			}
			if accept.Temporary(err) {
				wait = min(max(2*wait, 5*time.Millisecond), time.Second)
				s.metrics.acceptErrors.Inc()
				s.log.Warn().Err(err).Dur("retry_in", wait).Msg("accept failed: waiting before the next")
				time.Sleep(wait)
				continue
			}
			return err
		}
		wait = 0
		if !s.enter() {
			conn.Close() // accepted as the daemon began to stop
			return nil
		}
		go serve(conn)
	}
}

// deadlineConn bounds each read by the idle timeout, or by an absolute
// deadline while one is set, and each write by writeTimeout, and (with
// endOnDrain) ends reading at once when the server drains.
type deadlineConn struct {
	net.Conn
	idle     time.Duration
	draining *atomic.Bool
	// endOnDrain makes the input end when the server drains: a Hub
	// session then stops its search and answers with its done. A UHP
	// session, whose search must not be cut short by the shutdown,
	// ends instead when its command is answered (uhp.Config.Drain).
	endOnDrain bool
	idled      atomic.Bool // the last read failed for want of input
	// until, while not zero, is the deadline of every read instead of
	// the idle timeout's, which each read would push back: a client
	// trickling a byte at a time cannot hold on past it.
	until time.Time
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	if c.endOnDrain && c.draining.Load() {
		return 0, io.EOF
	}
	deadline := c.until
	if deadline.IsZero() {
		deadline = time.Now().Add(c.idle)
	}
	c.Conn.SetReadDeadline(deadline)
	n, err := c.Conn.Read(p)
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() {
		if c.endOnDrain && c.draining.Load() {
			return n, io.EOF
		}
		c.idled.Store(true)
	}
	return n, err
}

func (c *deadlineConn) Write(p []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.Conn.Write(p)
}

// lineSession is a connection of a line protocol (UHP or Hub) that has
// been admitted: its token checked, a session slot taken, tracked for
// shutdown.
type lineSession struct {
	conn *deadlineConn
	in   *bufio.Reader
	end  func() // gives the slot back and forgets the connection
}

// admitLine admits a line-protocol connection, or refuses it with refuse
// (the protocol's error line) and returns false. With a token, the client
// presents it first, before it holds a session slot: unauthenticated
// connections have a small limit of their own (--max-unauthenticated) and
// an absolute deadline (--auth-timeout), and their line is read only up to
// --max-line, so that clients without the token can take neither memory
// nor the slots of those who have it.
func (s *Server) admitLine(raw net.Conn, protocol string, refuse func(w io.Writer, msg string)) (*lineSession, bool) {
	endOnDrain := protocol != "uhp-tcp"
	conn := &deadlineConn{Conn: raw, idle: s.cfg.IdleTimeout, draining: &s.draining, endOnDrain: endOnDrain}
	if !s.allowed(raw.RemoteAddr()) {
		refuse(conn, allowlist.Refusal(raw.RemoteAddr().String()).Error())
		return nil, false
	}
	if s.draining.Load() {
		refuse(conn, "The server is shutting down.")
		return nil, false
	}
	in := bufio.NewReaderSize(conn, 4096)
	if s.token != "" {
		if msg := s.authenticate(conn, in, protocol); msg != "" {
			if msg != "-" {
				refuse(conn, msg)
			}
			return nil, false
		}
	}
	if err := s.admit(); err != nil {
		refuse(conn, err.Error())
		return nil, false
	}
	gauge := s.metrics.sessions.WithLabelValues(protocol)
	gauge.Inc()
	interrupt := func() { raw.SetReadDeadline(time.Now()) }
	if !endOnDrain {
		interrupt = func() {} // it ends by uhp.Config.Drain
	}
	forget := s.track(&sessionConn{interrupt: interrupt, close: func() { raw.Close() }})
	return &lineSession{conn: conn, in: in, end: func() {
		forget()
		gauge.Dec()
		s.sessions.Add(-1)
	}}, true
}

// readAuthLine reads the first line of a client that has not presented
// the token, up to limit bytes: unlike a session's command line, one
// longer than that is not read on to its end, so a client without the
// token is refused as soon as it has sent too much.
func readAuthLine(in *bufio.Reader, limit int) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, isPrefix, err := in.ReadLine()
		b = append(b, chunk...)
		if len(b) > limit {
			return "", true, nil
		}
		if err != nil || !isPrefix {
			return string(b), false, err
		}
	}
}

// authenticate reads a TCP client's "auth TOKEN" line and checks it. It
// returns "" when the token is right, "-" when the client left without a
// word, and otherwise the refusal to send.
func (s *Server) authenticate(conn *deadlineConn, in *bufio.Reader, protocol string) string {
	if n := s.unauthenticated.Add(1); n > int64(s.cfg.MaxUnauthenticated) {
		s.unauthenticated.Add(-1)
		s.metrics.refused.WithLabelValues("max_unauthenticated").Inc()
		return fmt.Sprintf("Too many connections are waiting to log in (%d); try again later.", s.cfg.MaxUnauthenticated)
	}
	defer s.unauthenticated.Add(-1)
	untrack := s.track(&sessionConn{
		interrupt: func() { conn.Conn.SetReadDeadline(time.Now()) },
		close:     func() { conn.Conn.Close() },
	})
	defer untrack()
	conn.until = time.Now().Add(s.cfg.AuthTimeout)
	line, tooLong, err := readAuthLine(in, s.cfg.MaxLine)
	conn.until = time.Time{}
	conn.idled.Store(false)
	if s.draining.Load() {
		return "The server is shutting down." // not a failed login
	}
	word, token, _ := strings.Cut(strings.TrimSpace(line), " ")
	msg := ""
	switch {
	case tooLong:
		msg = fmt.Sprintf("The auth line is longer than %d bytes.", s.cfg.MaxLine)
	case err != nil && line == "":
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() || s.draining.Load() {
			return "-" // the client left without a word: nothing to answer
		}
		msg = fmt.Sprintf("No auth line within %s: the connection is closed.", s.cfg.AuthTimeout)
	case err != nil:
		msg = fmt.Sprintf("No complete auth line within %s: the connection is closed.", s.cfg.AuthTimeout)
	case !strings.EqualFold(word, "auth"):
		msg = "Authentication required: send 'auth <token>' as the first line."
	case subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.token)) != 1:
		msg = "Bad token."
	default:
		return ""
	}
	s.metrics.refused.WithLabelValues("token").Inc()
	s.metrics.failedLogins.WithLabelValues(protocol).Inc()
	s.logins.failed(conn.RemoteAddr().String(), protocol, msg)
	return msg
}

// serveTCP runs one UHP session on a connection.
func (s *Server) serveTCP(raw net.Conn) {
	defer s.active.Done()
	defer raw.Close()
	defer s.recoverSession("uhp-tcp", s.log.With().Str("remote", raw.RemoteAddr().String()).Logger())
	refuse := func(w io.Writer, msg string) { fmt.Fprintf(w, "err %s\nok\n", msg) }
	ls, ok := s.admitLine(raw, "uhp-tcp", refuse)
	if !ok {
		return
	}
	defer ls.end()
	engine, log := s.newSession("uhp-tcp")
	log.Info().Str("remote", raw.RemoteAddr().String()).Msg("session started")
	err := engine.Run(s.hardStop, ls.in, ls.conn)
	s.sayWhyEnded(ls.conn, refuse)
	log.Info().AnErr("end", err).Msg("session ended")
}

// sayWhyEnded tells a line-protocol client why the daemon ended its
// session, when it did: it sent nothing for the idle timeout, or the
// daemon is shutting down.
func (s *Server) sayWhyEnded(conn *deadlineConn, refuse func(w io.Writer, msg string)) {
	switch {
	case s.draining.Load():
		refuse(conn, "The server is shutting down: the session is closed.")
	case conn.idled.Load():
		refuse(conn, fmt.Sprintf("No command for %s: the session is closed.", s.cfg.IdleTimeout))
		s.metrics.refused.WithLabelValues("idle").Inc()
	}
}

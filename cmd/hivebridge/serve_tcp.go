package main

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
)

// writeTimeout bounds every write to a client: one that stops reading is
// dropped rather than left to block its session forever.
const writeTimeout = 30 * time.Second

// accept serves each connection of a TCP listener with serve, on its own
// goroutine, until the listener is closed.
func (s *server) accept(l net.Listener, serve func(net.Conn)) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			if s.draining.Load() {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			return err
		}
		s.active.Add(1)
		go serve(conn)
	}
}

// deadlineConn bounds each read by the idle timeout and each write by
// writeTimeout, and ends reading at once when the server drains.
type deadlineConn struct {
	net.Conn
	idle     time.Duration
	draining *atomic.Bool
	idled    atomic.Bool // the last read failed for want of input
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	if c.draining.Load() {
		return 0, io.EOF
	}
	c.Conn.SetReadDeadline(time.Now().Add(c.idle))
	n, err := c.Conn.Read(p)
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() {
		if c.draining.Load() {
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
// been admitted: a session slot taken, tracked for shutdown, its token
// checked.
type lineSession struct {
	conn *deadlineConn
	in   *bufio.Reader
	end  func() // gives the slot back and forgets the connection
}

// admitLine admits a line-protocol connection, or refuses it with refuse
// (the protocol's error line) and returns false.
func (s *server) admitLine(raw net.Conn, protocol string, refuse func(w io.Writer, msg string)) (*lineSession, bool) {
	conn := &deadlineConn{Conn: raw, idle: s.cfg.idle, draining: &s.draining}
	if !s.allowed(raw.RemoteAddr()) {
		refuse(conn, notAllowed(raw.RemoteAddr().String()).Error())
		return nil, false
	}
	if err := s.admit(); err != nil {
		refuse(conn, err.Error())
		return nil, false
	}
	gauge := s.metrics.sessions.WithLabelValues(protocol)
	gauge.Inc()
	forget := s.track(&sessionConn{
		interrupt: func() { raw.SetReadDeadline(time.Now()) },
		close:     func() { raw.Close() },
	})
	ls := &lineSession{conn: conn, in: bufio.NewReaderSize(conn, 4096), end: func() {
		forget()
		gauge.Dec()
		s.sessions.Add(-1)
	}}
	if s.token != "" {
		line, err := ls.in.ReadString('\n')
		word, token, _ := strings.Cut(strings.TrimSpace(line), " ")
		msg := ""
		switch {
		case err != nil && line == "":
			msg = "-" // the client left without a word: nothing to answer
		case !strings.EqualFold(word, "auth"):
			msg = "Authentication required: send 'auth <token>' as the first line."
		case subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.token)) != 1:
			msg = "Bad token."
		}
		if msg != "" {
			if msg != "-" {
				s.metrics.refused.WithLabelValues("token").Inc()
				refuse(conn, msg)
			}
			ls.end()
			return nil, false
		}
	}
	return ls, true
}

// serveTCP runs one UHP session on a connection.
func (s *server) serveTCP(raw net.Conn) {
	defer s.active.Done()
	defer raw.Close()
	refuse := func(w io.Writer, msg string) { fmt.Fprintf(w, "err %s\nok\n", msg) }
	ls, ok := s.admitLine(raw, "uhp-tcp", refuse)
	if !ok {
		return
	}
	defer ls.end()
	engine, log := s.newSession("uhp-tcp")
	log.Info().Str("remote", raw.RemoteAddr().String()).Msg("session started")
	err := engine.Run(s.hardStop, ls.in, ls.conn)
	if ls.conn.idled.Load() {
		refuse(ls.conn, fmt.Sprintf("No command for %s: the session is closed.", s.cfg.idle))
		s.metrics.refused.WithLabelValues("idle").Inc()
	}
	log.Info().AnErr("end", err).Msg("session ended")
}

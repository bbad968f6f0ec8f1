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

// acceptTCP serves UHP sessions on a TCP listener until it is closed.
func (s *server) acceptTCP(l net.Listener) error {
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
		go s.serveTCP(conn)
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

// serveTCP runs one UHP session on a connection.
func (s *server) serveTCP(raw net.Conn) {
	defer s.active.Done()
	defer raw.Close()
	conn := &deadlineConn{Conn: raw, idle: s.cfg.idle, draining: &s.draining}
	refuse := func(msg string) { fmt.Fprintf(conn, "err %s\nok\n", msg) }
	if err := s.admit(); err != nil {
		refuse(err.Error())
		return
	}
	defer s.sessions.Add(-1)
	gauge := s.metrics.sessions.WithLabelValues("uhp-tcp")
	gauge.Inc()
	defer gauge.Dec()
	defer s.track(&sessionConn{
		interrupt: func() { raw.SetReadDeadline(time.Now()) },
		close:     func() { raw.Close() },
	})()

	in := bufio.NewReaderSize(conn, 4096)
	if s.token != "" {
		line, err := in.ReadString('\n')
		word, token, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch {
		case err != nil && line == "":
			return
		case !strings.EqualFold(word, "auth"):
			s.metrics.refused.WithLabelValues("token").Inc()
			refuse("Authentication required: send 'auth <token>' as the first line.")
			return
		case subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.token)) != 1:
			s.metrics.refused.WithLabelValues("token").Inc()
			refuse("Bad token.")
			return
		}
	}
	engine, log := s.newSession("uhp-tcp")
	log.Info().Str("remote", raw.RemoteAddr().String()).Msg("session started")
	err := engine.Run(s.hardStop, in, conn)
	if conn.idled.Load() {
		refuse(fmt.Sprintf("No command for %s: the session is closed.", s.cfg.idle))
		s.metrics.refused.WithLabelValues("idle").Inc()
	}
	log.Info().AnErr("end", err).Msg("session ended")
}

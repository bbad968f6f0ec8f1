package daemon

import (
	"context"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// The daemon's defences against what its clients send: labels that do not
// grow with their input, a panic that ends one session only, Host names
// that a rebinding DNS cannot forge, failed logins logged without letting
// a flood of them fill the log, and searches bounded in time and depth.

// uhpCommands are the command words counted by name in
// hivebridge_commands_total; any other word is counted as "other", so
// that the series do not grow with what clients send (a label of invalid
// UTF-8 would even panic in the Prometheus client).
var uhpCommands = map[string]bool{
	"info": true, "help": true, "newgame": true, "play": true, "pass": true, "validmoves": true,
	"bestmove": true, "undo": true, "options": true, "perft": true, "history": true, "stop": true,
}

// commandLabel is the label of a UHP command word in the metrics.
func commandLabel(word string) string {
	if uhpCommands[word] {
		return word
	}
	return "other"
}

// recoverSession ends a session whose code panicked, and only that
// session: the panic is logged with its stack and counted, and the
// session's deferred clean-up runs as it unwinds. Deferred first in
// every session's goroutine, so that it runs last.
func (s *Server) recoverSession(protocol string, log zerolog.Logger) {
	if v := recover(); v != nil {
		s.metrics.panics.WithLabelValues(protocol).Inc()
		log.Error().Interface("panic", v).Str("stack", string(debug.Stack())).Msg("session ended by a panic")
	}
}

// loopbackHost reports whether host (a Host header's name, without the
// port) names this machine's loopback interface: localhost (RFC 6761
// reserves it and its subdomains for loopback) or a loopback address.
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// hostAllowed reports whether a request's Host is one the daemon serves:
// a loopback name or address, or one of --public-host. A page of another
// domain that a rebinding DNS points at 127.0.0.1 still sends its own
// name, and is refused: otherwise it would be same-origin with the daemon
// and could play on /uhp and read /games without a token.
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if loopbackHost(host) {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	for _, p := range s.cfg.PublicHosts {
		if strings.EqualFold(strings.Trim(p, "[]"), host) {
			return true
		}
	}
	return false
}

// loginLog logs failed logins, at most one line a period: every failure is
// counted in the metrics, but a flood of them must not flood the log too.
type loginLog struct {
	log    zerolog.Logger
	period time.Duration

	mu         sync.Mutex
	last       time.Time
	suppressed int
}

// failed logs one failed login from remote, or counts it as suppressed
// when a line was written less than a period ago.
func (l *loginLog) failed(remote, protocol, why string) {
	l.mu.Lock()
	now := time.Now()
	if now.Sub(l.last) < l.period {
		l.suppressed++
		l.mu.Unlock()
		return
	}
	suppressed := l.suppressed
	l.last, l.suppressed = now, 0
	l.mu.Unlock()
	l.log.Warn().Str("remote", remote).Str("protocol", protocol).Str("why", why).
		Int("not_logged_since_last", suppressed).Msg("failed login")
}

// capped bounds every search of a searcher by the daemon's limits: a
// search asked for longer than maxTime is given maxTime, one asked for
// more than maxDepth plies is given maxDepth, and whatever it was asked
// (a depth alone, or no bound: a Hub search until stopped), it is stopped
// capGrace after maxTime and answers with the best move it has (a backend
// that cannot be interrupted answers an error). Without it one
// client's "bestmove time 99999:00:00" or "bestmove depth 200" would hold
// an engine of the pool for good.
type capped struct {
	engine.Searcher
	maxTime  time.Duration
	maxDepth int
}

// capLimit applies the daemon's bounds to a search's limit. A depth
// search stays a depth search (a UHP engine asked for a time as well would
// be sent the time alone): the context's deadline bounds its time.
func capLimit(limit engine.Limit, maxTime time.Duration, maxDepth int) engine.Limit {
	if limit.Time > maxTime {
		limit.Time = maxTime
	}
	if limit.Depth > maxDepth {
		limit.Depth = maxDepth
	}
	return limit
}

// capGrace is how long past maxTime a search's context lasts: a backend
// stopped at its time answers with what it has found.
const capGrace = time.Second

func (c capped) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	limit = capLimit(limit, c.maxTime, c.maxDepth)
	ctx, cancel := context.WithTimeout(ctx, c.maxTime+capGrace)
	defer cancel()
	return c.Searcher.BestMove(ctx, g, limit, report)
}

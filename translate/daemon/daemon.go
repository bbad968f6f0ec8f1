// Package daemon is hivebridge's server: many sessions at once, each with
// its own game, over UHP on TCP and WebSocket, Hub on TCP and the
// Choose-Turn JSON API on TCP, sharing a pool of backend engines, keeping
// their games in the archive, and defending itself against what its
// clients send (see guard.go). The command hivebridge serve only reads
// its flags into a Config and runs New, Serve and Close.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/allowlist"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/pairing"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// Config sets up a daemon: what the flags of hivebridge serve say, with
// the same names (see its --help for what each means).
type Config struct {
	// Version is hivebridge's, for the id lines and greetings.
	Version string
	// Log receives the daemon's diagnostics.
	Log zerolog.Logger
	// The listeners' addresses; an empty one is not opened, and one
	// without a host binds the loopback interface (see Loopback).
	UHPAddr, HubAddr, JSONAddr, HTTPAddr string
	// Backend is the backend spec (translate.ParseSpec), EngineOptions
	// its options, Name=Value.
	Backend       string
	EngineOptions []string
	// Token, if not empty, is what every client must present.
	Token string
	// Origins are the WebSocket Origins allowed besides the daemon's
	// own; AllowFrom the client addresses and networks answered (all when
	// empty); PublicHosts the Host names answered besides loopback ones.
	Origins, AllowFrom, PublicHosts []string
	// FrameLength is what a JSON frame's length counts.
	FrameLength hivejson.FrameLength
	// The limits on clients.
	MaxSessions, MaxUnauthenticated, MaxHTTPConns, MaxLine int
	AuthTimeout, IdleTimeout                               time.Duration
	MaxSearchTime                                          time.Duration
	MaxSearchDepth                                         int
	// The pool of backend engines, and what a session may set of them.
	PoolSize, PoolQueue, PoolHashMB                    int
	PoolWait                                           time.Duration
	SessionMaxThreads, SessionMaxHash, SessionMaxPerft int
	// Pairing of the viewers who start remote games.
	PairViewers        bool
	PairWait, MoveWait time.Duration
	// Grace is how long commands in progress may run on at shutdown.
	Grace time.Duration
	// DB is the archive (archive.Open's spec); ArchiveBacklog and
	// ArchiveRetention its limits. ArchiveJournal is the directory of its
	// end journal (archive.KeeperConfig.Journal): "" for the default
	// (archive.DefaultJournal), "none" for none.
	DB               string
	ArchiveBacklog   int
	ArchiveRetention time.Duration
	ArchiveJournal   string
	// Page, if set, serves the viewer page at GET / and its files at
	// GET PagePrefix..., open to all (they hold no secret).
	Page       http.Handler
	PagePrefix string
}

// Loopback makes an address without a host bind the loopback interface:
// ":7777" alone means 127.0.0.1:7777.
func Loopback(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// Server is the daemon: its listeners, its sessions and the engines they
// share.
type Server struct {
	cfg      Config
	log      zerolog.Logger
	token    string
	allow    allowlist.List // the clients answered
	pool     *translate.Pool
	searcher engine.Searcher // the pool's, counted in the metrics
	// sessionOptions are the options of the pool's engines each UHP or
	// Hub session may set for its own searches.
	sessionOptions translate.SessionOptions
	backendKind    string
	expansions     core.GameType
	// interruptible and backendID describe the backend to the Hub and
	// JSON front ends.
	interruptible bool
	backendID     string
	native        bool
	// fallback answers a Hub stop that comes before a backend that cannot
	// be interrupted has reported a move (nil for the native backend).
	fallback     engine.Searcher
	fallbackPool *translate.Pool // fallback's engines, when there is one
	jsonServer   *hivejson.Server
	pairing      pairing.Pairing // nil without --pair-viewers
	tests        *referee.Tests  // a PostgreSQL archive's match tests; nil for any other
	metrics      *metrics
	archive      *serverArchive // nil with --db none
	logins       *loginLog
	analyses     analysisRuns // POST /analysis's, one a client

	unauthenticated atomic.Int64 // TCP connections yet to present the token
	httpConns       atomic.Int64 // HTTP connections not yet WebSocket sessions

	listeners []listener
	httpSrv   *http.Server
	// serveErr has one place for each listener (three TCP, one HTTP), so
	// that none is left blocked on it once Serve has stopped reading.
	serveErr  chan error
	closeOnce sync.Once

	sessions atomic.Int64 // open sessions
	nextID   atomic.Uint64
	draining atomic.Bool
	active   sync.WaitGroup // session goroutines
	connsMu  sync.Mutex
	conns    map[*sessionConn]struct{}
	hardStop context.Context // cancelled when the grace period ends
	cancel   context.CancelFunc
	// drain is cancelled when shutdown begins: the Hub and JSON sessions,
	// whose searches can answer at once, end with it.
	drain       context.Context
	cancelDrain context.CancelFunc
}

// sessionConn is what shutdown needs of a live connection.
type sessionConn struct {
	interrupt func() // make its pending read return at once
	close     func() // close it outright
}

// New checks cfg, starts the backend's first engine (failing fast on a bad
// backend or option), opens the archive and the listeners, and returns the
// daemon, ready to Serve. On an error everything it had started is
// stopped again.
func New(cfg Config) (_ *Server, err error) {
	if cfg.UHPAddr == "" && cfg.HTTPAddr == "" && cfg.HubAddr == "" && cfg.JSONAddr == "" {
		return nil, errors.New("serve needs at least one listener: --uhp, --http, --hub or --hivejson")
	}
	if err := checkLimits(cfg); err != nil {
		return nil, err
	}
	if cfg.Token != "" && cfg.JSONAddr != "" {
		return nil, errors.New("--hivejson with --token-file: the Choose-Turn JSON protocol has no way to present a token; serve it without one, on loopback")
	}
	s := &Server{cfg: cfg, log: cfg.Log, token: cfg.Token, conns: map[*sessionConn]struct{}{}, metrics: newMetrics(), serveErr: make(chan error, 4)}
	s.logins = &loginLog{log: s.log, period: time.Second}
	// From here every failure closes what was opened: an engine process
	// must not outlive a daemon that failed to start.
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.allow, err = allowlist.Parse(cfg.AllowFrom); err != nil {
		return nil, fmt.Errorf("--allow-from: %w", err)
	}
	spec, err := translate.ParseSpec(cfg.Backend)
	if err != nil {
		return nil, err
	}
	engineOptions := cfg.EngineOptions
	if spec.Kind == "native" {
		engineOptions = append([]string{"HashMB=" + strconv.Itoa(cfg.PoolHashMB)}, engineOptions...)
	}
	engineCfg := translate.Config{Log: s.log, EngineOptions: engineOptions, OnRestart: s.metrics.engineRestarts.Inc}
	open := func(ctx context.Context) (translate.Engine, error) {
		return translate.Open(ctx, cfg.Backend, engineCfg)
	}
	s.hardStop, s.cancel = context.WithCancel(context.Background())
	s.drain, s.cancelDrain = context.WithCancel(s.hardStop)
	first, err := open(s.hardStop)
	if err != nil {
		return nil, err
	}
	s.pool = translate.NewPool(open, translate.PoolConfig{Limit: cfg.PoolSize, Queue: cfg.PoolQueue, Wait: cfg.PoolWait})
	s.sessionOptions = s.pool.SessionOptions(first, map[string]int{"Threads": cfg.SessionMaxThreads, "HashMB": cfg.SessionMaxHash, "MultiPV": sessionMaxMultiPV})
	s.pool.Add(first)
	s.backendKind = spec.Kind
	s.searcher = s.meter(s.pool.Searcher(), spec.Kind)
	s.expansions = first.Info().Expansions
	s.interruptible = translate.Interruptible(first)
	s.backendID = first.Info().ID
	_, s.native = first.(*translate.Native)
	if !s.native && cfg.HubAddr != "" {
		s.fallbackPool = translate.NewPool(func(context.Context) (translate.Engine, error) {
			n := translate.NewNative()
			return n, translate.ApplyOptions(n, []string{"HashMB=1"})
		}, translate.PoolConfig{Limit: runtime.NumCPU(), Queue: cfg.PoolQueue, Wait: cfg.PoolWait})
		s.fallback = s.meter(s.fallbackPool.Searcher(), "native")
	}
	if cfg.JSONAddr != "" {
		s.jsonServer = hivejson.NewServer(hivejson.ServerConfig{
			Greeting:    Greeting(cfg.Version, s.backendID, s.native),
			Searcher:    s.searcher,
			DefaultTime: 5 * time.Second,
			MaxTime:     cfg.MaxSearchTime,
			IdleTimeout: cfg.IdleTimeout,
			MaxFrame:    cfg.MaxLine,
			FrameLength: cfg.FrameLength,
			Log:         s.log.With().Str("protocol", "hivejson").Logger(),
			Watch:       s.watchJSON,
		})
	}

	if err := s.openArchive(s.hardStop); err != nil {
		return nil, err
	}
	if err := s.openPairing(s.hardStop); err != nil {
		return nil, err
	}
	if err := s.openTests(s.hardStop); err != nil {
		return nil, err
	}
	for _, lc := range []struct {
		name, addr string
		serve      func(net.Conn)
	}{
		{"uhp", cfg.UHPAddr, s.serveTCP},
		{"hub", cfg.HubAddr, s.serveHub},
		{"hivejson", cfg.JSONAddr, s.serveJSON},
		{"http", cfg.HTTPAddr, nil},
	} {
		if lc.addr == "" {
			continue
		}
		l, err := net.Listen("tcp", Loopback(lc.addr))
		if err != nil {
			return nil, err
		}
		s.warnIfExposed(l.Addr())
		s.listeners = append(s.listeners, listener{name: lc.name, l: l, serve: lc.serve})
	}
	return s, nil
}

// Greeting is hivebridge's answer to a Choose-Turn controller's
// Greetings, as an AI module answered by the backend named backendID.
func Greeting(version, backendID string, native bool) hivejson.GreetingsResponse {
	name := "hivebridge v" + version
	if !native {
		name += " via " + backendID
	}
	return hivejson.GreetingsResponse{
		Name:        "hivebridge",
		Version:     version,
		LongName:    name,
		Description: "Any Hive engine as an AI module; this one answered by " + backendID,
		Author:      "hivebridge authors",
		ProjectURL:  "https://github.com/hivebridge/hivebridge",
		Language:    "Go",
	}
}

// listener is one of the daemon's listeners and what serves its
// connections (nil for HTTP, which net/http serves).
type listener struct {
	name  string
	l     net.Listener
	serve func(net.Conn)
}

// Addrs are the addresses the daemon listens on, by protocol: "uhp",
// "hub", "hivejson", "http".
func (s *Server) Addrs() map[string]net.Addr {
	addrs := map[string]net.Addr{}
	for _, l := range s.listeners {
		addrs[l.name] = l.l.Addr()
	}
	return addrs
}

// Archived reports whether the daemon keeps its games (it was not given
// --db none).
func (s *Server) Archived() bool { return s.archive != nil }

// Serve answers clients until ctx is done, then shuts down: it stops
// accepting, lets commands in progress finish for the grace period,
// closes every session and stops every engine, and returns nil. A
// listener that fails for good (not a temporary accept error, which accept
// waits out) shuts it down too, and is returned, so that a supervisor
// starts the daemon again. Call it once; Close after it.
func (s *Server) Serve(ctx context.Context) error {
	for _, l := range s.listeners {
		if l.serve == nil {
			s.httpSrv = s.newHTTPServer()
			s.log.Info().Str("addr", l.l.Addr().String()).Msg("serving HTTP and WebSocket")
			go func() {
				if err := s.httpSrv.Serve(l.l); !errors.Is(err, http.ErrServerClosed) {
					s.serveErr <- err
				}
			}()
			continue
		}
		s.log.Info().Str("addr", l.l.Addr().String()).Str("protocol", l.name).Msg("serving over TCP")
		go func() { s.serveErr <- s.accept(l.l, l.serve) }()
	}
	var failed error
	select {
	case <-ctx.Done():
	case err := <-s.serveErr:
		if err != nil && !s.draining.Load() {
			s.log.Error().Err(err).Msg("listener failed: shutting down")
			failed = fmt.Errorf("listener failed: %w", err)
		}
	}
	s.shutdown()
	return failed
}

// Close stops whatever the daemon still runs: its listeners, the engines
// of its pools, the archive (writing what it holds) and the pairing relay.
// It is safe to call more than once, and after a failed New.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		for _, l := range s.listeners {
			l.l.Close()
		}
		if s.cancel != nil {
			defer s.cancel()
		}
		if s.pool != nil {
			s.pool.Close(time.Second)
		}
		if s.fallbackPool != nil {
			s.fallbackPool.Close(time.Second)
		}
		if s.pairing != nil {
			s.pairing.Close()
		}
		if s.tests != nil {
			s.tests.Close()
		}
		if s.archive != nil {
			s.archive.close()
		}
	})
	return nil
}

// checkLimits refuses, before anything starts, the limits that would make
// the daemon refuse or drop everyone: zero or negative ones.
func checkLimits(cfg Config) error {
	for _, c := range []struct {
		flag string
		bad  bool
		got  any
	}{
		{"max-sessions", cfg.MaxSessions < 1, cfg.MaxSessions},
		{"max-unauthenticated", cfg.MaxUnauthenticated < 1, cfg.MaxUnauthenticated},
		{"max-http-conns", cfg.MaxHTTPConns < 1, cfg.MaxHTTPConns},
		{"max-line", cfg.MaxLine < 64, cfg.MaxLine},
		{"idle-timeout", cfg.IdleTimeout <= 0, cfg.IdleTimeout},
		{"auth-timeout", cfg.AuthTimeout <= 0, cfg.AuthTimeout},
		{"max-search-time", cfg.MaxSearchTime <= 0, cfg.MaxSearchTime},
		{"max-search-depth", cfg.MaxSearchDepth < 1, cfg.MaxSearchDepth},
		{"pool-size", cfg.PoolSize < 1, cfg.PoolSize},
		{"pool-hash-mb", cfg.PoolHashMB < 1, cfg.PoolHashMB},
		{"session-max-threads", cfg.SessionMaxThreads < 1, cfg.SessionMaxThreads},
		{"session-max-hash", cfg.SessionMaxHash < 1, cfg.SessionMaxHash},
		{"session-max-perft", cfg.SessionMaxPerft < 1, cfg.SessionMaxPerft},
		{"archive-retention", cfg.ArchiveRetention < 0, cfg.ArchiveRetention},
	} {
		if c.bad {
			min := "more than 0"
			if c.flag == "max-line" {
				min = "at least 64"
			}
			return fmt.Errorf("--%s %v: want %s", c.flag, c.got, min)
		}
	}
	return nil
}

// warnIfExposed warns when a listener answers beyond this machine without
// a token: anyone who reaches it can use the daemon's engines.
func (s *Server) warnIfExposed(addr net.Addr) {
	if s.token != "" {
		return
	}
	if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		s.log.Warn().Str("addr", addr.String()).Msg("listening beyond loopback without --token-file: anyone who reaches this address can use the daemon")
	}
}

// shutdown stops accepting, lets commands in progress finish for the grace
// period, closes every session and stops every engine.
func (s *Server) shutdown() {
	s.log.Info().Dur("grace", s.cfg.Grace).Msg("shutting down")
	s.connsMu.Lock()
	s.draining.Store(true) // under connsMu: no session enters after it (see enter)
	s.connsMu.Unlock()
	s.cancelDrain()
	for _, l := range s.listeners {
		l.l.Close()
	}
	if s.httpSrv != nil {
		s.httpSrv.SetKeepAlivesEnabled(false)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		s.httpSrv.Shutdown(ctx) // hijacked WebSocket connections are ours to close
		cancel()
	}
	s.connsMu.Lock()
	for c := range s.conns {
		c.interrupt() // a session waiting for a command ends now
	}
	s.connsMu.Unlock()
	done := make(chan struct{})
	go func() {
		s.active.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(s.cfg.Grace):
		s.log.Warn().Msg("grace period over: cancelling the searches still running")
		s.cancel()
		s.connsMu.Lock()
		for c := range s.conns {
			c.close()
		}
		s.connsMu.Unlock()
		<-done
	}
	s.pool.Close(time.Second)
	s.log.Info().Msg("stopped")
}

// enter counts a session goroutine in s.active, unless the daemon has
// begun to stop: a WaitGroup's Add must not race with its Wait, which
// shutdown begins once draining is set, under the same lock.
func (s *Server) enter() bool {
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	if s.draining.Load() {
		return false
	}
	s.active.Add(1)
	return true
}

// track registers a live connection for shutdown; the returned func
// forgets it.
func (s *Server) track(c *sessionConn) func() {
	s.connsMu.Lock()
	s.conns[c] = struct{}{}
	s.connsMu.Unlock()
	return func() {
		s.connsMu.Lock()
		delete(s.conns, c)
		s.connsMu.Unlock()
	}
}

// allowed reports whether --allow-from lets the client at remote in,
// counting a refusal.
func (s *Server) allowed(remote net.Addr) bool {
	if s.allow.Allows(remote) {
		return true
	}
	s.metrics.refused.WithLabelValues("allow_from").Inc()
	return false
}

// meter bounds a searcher's searches by --max-search-time and
// --max-search-depth and counts them in the metrics.
func (s *Server) meter(searcher engine.Searcher, backend string) engine.Searcher {
	return metered{Searcher: capped{Searcher: searcher, maxTime: s.cfg.MaxSearchTime, maxDepth: s.cfg.MaxSearchDepth}, backend: backend, m: s.metrics}
}

// perftSlot holds an engine of the pool while a UHP session's perft
// counts, for --max-search-time at most: perft is the rules' own work, not
// a backend's, but it takes a core as a search does, so it shares the
// cores the pool bounds rather than adding to them.
func (s *Server) perftSlot(ctx context.Context) (context.Context, func(), error) {
	e, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.MaxSearchTime)
	return ctx, func() {
		cancel()
		s.pool.Release(e, false)
	}, nil
}

// admit takes a session slot, or says why not.
func (s *Server) admit() error {
	if s.draining.Load() {
		return errors.New("The server is shutting down.")
	}
	if n := s.sessions.Add(1); n > int64(s.cfg.MaxSessions) {
		s.sessions.Add(-1)
		s.metrics.refused.WithLabelValues("max_sessions").Inc()
		return fmt.Errorf("The server has reached its limit of %d sessions; try again later.", s.cfg.MaxSessions)
	}
	return nil
}

// sessionMaxMultiPV bounds the lines a session's searches may ask for
// (the MultiPV option): enough for any analysis board, and each search is
// bounded in time whatever it asks.
const sessionMaxMultiPV = 32

// newSessionSearcher returns the searcher of one session, counted in the
// metrics, with the options the session may set for its searches.
func (s *Server) newSessionSearcher() (engine.Searcher, []*engine.Option) {
	searcher, options := s.sessionOptions.New()
	return s.meter(searcher, s.backendKind), options
}

// newSession returns a UHP session for one connection.
func (s *Server) newSession(protocol string) (*uhp.Session, zerolog.Logger) {
	id := s.nextID.Add(1)
	log := s.log.With().Uint64("session", id).Str("protocol", protocol).Logger()
	searcher, options := s.newSessionSearcher()
	cfg := uhp.Config{
		ID:         "hivebridge v" + s.cfg.Version,
		Expansions: s.expansions,
		Searcher:   searcher,
		Options:    options,
		Log:        log,
		MaxLine:    s.cfg.MaxLine,
		// perft is the rules' own work, not the pool's: without a bound a
		// single client could hold every core for hours.
		MaxPerftDepth: s.cfg.SessionMaxPerft,
		PerftThreads:  s.cfg.SessionMaxThreads,
		PerftSlot:     s.perftSlot,
		// A TCP client that leaves wants nothing more: its search or
		// perft stops at once and gives its engine back to the pool.
		CancelOnEnd: protocol == "uhp-tcp",
		Drain:       s.drain.Done(),
		OnCommand: func(command string, took time.Duration, err error) {
			s.metrics.commands.WithLabelValues(protocol, commandLabel(command)).Inc()
			s.metrics.latency.WithLabelValues(protocol).Observe(took.Seconds())
		},
	}
	if s.archive != nil {
		games := &gameLog{s: s, source: protocol}
		cfg.Record, cfg.BeforeCommand = games.event, games.settle
	}
	if s.pairing != nil {
		cfg.Matchmaker = s.pairing.Match
	}
	return uhp.NewSession(cfg), log
}

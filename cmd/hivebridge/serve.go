package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/allowlist"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/pgpair"
)

// serveConfig holds the flags of hivebridge serve.
type serveConfig struct {
	uhpAddr, hubAddr, jsonAddr, httpAddr string
	backend                              backendFlags
	tokenFile                            string
	origins                              []string
	allowFrom                            []string
	frameLength                          string
	maxSessions                          int
	maxUnauthenticated                   int
	authTimeout                          time.Duration
	maxHTTPConns                         int
	publicHosts                          []string
	maxSearchTime                        time.Duration
	maxSearchDepth                       int
	maxLine                              int
	idle                                 time.Duration
	poolLimit, poolQueue                 int
	poolHashMB                           int
	sessionMaxThreads, sessionMaxHash    int
	sessionMaxPerft                      int
	poolWait                             time.Duration
	pairViewers                          bool
	pairWait, moveWait                   time.Duration
	grace                                time.Duration
	db                                   string
	archiveBacklog                       int
	archiveRetention                     time.Duration
}

// NewCmdServe returns the serve command: the daemon.
func NewCmdServe() *cobra.Command {
	var cfg serveConfig
	cmd := &cobra.Command{
		Use:   "serve [--uhp ADDR] [--http ADDR] [--backend SPEC] ...",
		Short: "Serve many sessions at once over TCP and WebSocket",
		Long: `Runs hivebridge as a daemon: many sessions at once, each with its own game.

  --uhp ADDR       UHP over TCP, one session per connection, one command per line
  --hub ADDR       Hub over TCP, one session per connection
  --hivejson ADDR  the Choose-Turn JSON API: hivebridge as an AI module, its
                   frame lengths in UTF-16 units (--frame-length utf16, the
                   original's count) or UTF-8 bytes (--frame-length utf8)
  --http ADDR      UHP over WebSocket at /uhp (one command per text message,
                   the whole answer up to ok in one message), /healthz and
                   /metrics

Every listener binds the loopback address unless ADDR names another (":7777"
alone means 127.0.0.1:7777; write 0.0.0.0:7777 to listen on every address).
With --token-file, every client must present the token: a WebSocket client as
"Authorization: Bearer TOKEN" (or ?token=TOKEN), a TCP client as its first
line, "auth TOKEN" (UHP and Hub; the JSON API has no way to carry one, and
--hivejson cannot be served with a token). --allow-from lists the IP
addresses and networks every listener answers (--allow-from
127.0.0.1,10.0.0.0/8,::1); a client from anywhere else is refused with the
protocol's error (err in UHP, error in Hub, an error frame in the JSON API,
403 over HTTP) and counted in hivebridge_refusals_total{reason="allow_from"}.

Sessions share the backend's engines through a pool of --pool-size engines; a
search waits for a free one in a queue of --pool-queue, for --pool-wait at
most. The native engines of the pool have tables of --pool-hash-mb each, so
that the daemon's memory is bounded by the pool, not by its sessions. A UHP or
Hub session may set the Threads and HashMB of the engines that serve its own
searches (options set Threads 2; set-param name=threads value=2), up to
--session-max-threads and --session-max-hash (or the pool's own value, if
higher); anything above is refused with an error. A backend that declares no
such option offers none. A UHP session's perft counts on --session-max-threads
threads, to --session-max-perft plies at most.

SIGTERM or SIGINT stops accepting, lets the commands in progress finish for
--grace, closes every session and stops every engine, then exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runServer(ctx, cmd, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.uhpAddr, "uhp", "", "serve UHP over TCP on this address")
	f.StringVar(&cfg.hubAddr, "hub", "", "serve Hub over TCP on this address")
	f.StringVar(&cfg.jsonAddr, "hivejson", "", "serve the Choose-Turn JSON protocol on this address")
	f.StringVar(&cfg.httpAddr, "http", "", "serve WebSocket (/uhp), /healthz and /metrics on this address")
	cfg.backend.register(cmd)
	f.StringVar(&cfg.tokenFile, "token-file", "", "require the bearer token in this file on every listener")
	f.StringSliceVar(&cfg.origins, "allow-origin", nil, "WebSocket Origins allowed besides the server's own host (repeatable)")
	f.StringVar(&cfg.frameLength, "frame-length", "utf16", "what a JSON frame's length counts: utf16 (UTF-16 code units, the original's) or utf8 (UTF-8 bytes)")
	f.StringSliceVar(&cfg.allowFrom, "allow-from", nil, "answer only clients at these IP addresses or networks (CIDR) on every listener, e.g. 127.0.0.1,10.0.0.0/8; default everyone who reaches a listener")
	f.IntVar(&cfg.maxSessions, "max-sessions", 2000, "the most sessions at once (at least 1); more are refused with an error")
	f.IntVar(&cfg.maxUnauthenticated, "max-unauthenticated", 32, "with --token-file, the most TCP connections at once that have not yet presented the token; they hold no session slot")
	f.DurationVar(&cfg.authTimeout, "auth-timeout", 10*time.Second, "with --token-file, how long in all a TCP client has to send its auth line")
	f.IntVar(&cfg.maxHTTPConns, "max-http-conns", 1024, "the most HTTP connections at once besides WebSocket sessions (which count against --max-sessions); more are closed at once")
	f.StringSliceVar(&cfg.publicHosts, "public-host", nil, "host names or addresses the HTTP listener answers besides loopback ones (localhost, 127.0.0.1, ::1), e.g. hive.example.org; any other Host header is refused, against DNS rebinding")
	f.DurationVar(&cfg.maxSearchTime, "max-search-time", 5*time.Minute, "the longest search any client may ask for; a longer one, one by depth alone or one until stopped ends at this time with the best move found")
	f.IntVar(&cfg.maxSearchDepth, "max-search-depth", 40, "the deepest search, in plies, any client may ask for; a deeper one searches to this depth")
	f.IntVar(&cfg.maxLine, "max-line", 64*1024, "the longest command line or WebSocket message, in bytes")
	f.DurationVar(&cfg.idle, "idle-timeout", 10*time.Minute, "close a session that sends nothing for this long (more than 0)")
	f.IntVar(&cfg.poolLimit, "pool-size", runtime.NumCPU(), "the most backend engines at once")
	f.IntVar(&cfg.poolQueue, "pool-queue", 4096, "the most searches waiting for an engine")
	f.IntVar(&cfg.poolHashMB, "pool-hash-mb", 16, "the table size of each native engine of the pool, in MiB (before --engine-option)")
	f.IntVar(&cfg.sessionMaxThreads, "session-max-threads", 1, "the most Threads a session may set for its searches")
	f.IntVar(&cfg.sessionMaxHash, "session-max-hash", 16, "the most HashMB a session may set for its searches")
	f.IntVar(&cfg.sessionMaxPerft, "session-max-perft", 4, "the deepest perft a UHP session may ask for, counted on --session-max-threads threads while holding an engine of the pool, and stopped at --max-search-time")
	f.DurationVar(&cfg.poolWait, "pool-wait", 30*time.Second, "how long a search may wait for an engine")
	f.BoolVar(&cfg.pairViewers, "pair-viewers", false, "pair the viewers who start remote games (newgame remote) to play each other")
	f.DurationVar(&cfg.pairWait, "pair-wait", 30*time.Second, "how long a remote game waits for a partner before the backend plays")
	f.DurationVar(&cfg.moveWait, "move-wait", 15*time.Minute, "how long a paired player may think before forfeiting")
	f.DurationVar(&cfg.grace, "grace", 10*time.Second, "how long commands in progress may run on at shutdown")
	registerDB(cmd, &cfg.db)
	f.IntVar(&cfg.archiveBacklog, "archive-backlog", 10000, "the most ended games held while the archive is unavailable, to write once it is back; more are lost (and counted)")
	f.DurationVar(&cfg.archiveRetention, "archive-retention", 0, "delete the archived games that are over (finished or interrupted) and started longer ago than this (e.g. 2160h for 90 days), checked every 5s; 0 keeps every game")
	return cmd
}

// loopback makes an address without a host bind the loopback interface.
func loopback(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// server is the daemon: its listeners, its sessions and the engines they
// share.
type server struct {
	cfg      serveConfig
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
	fallback   engine.Searcher
	jsonServer *hivejson.Server
	pairing    *translate.Pairing
	metrics    *metrics
	archive    *serverArchive  // nil with --db none
	shared     *pgpair.Pairing // pairs viewers across the daemons of a PostgreSQL archive
	logins     *loginLog

	unauthenticated atomic.Int64 // TCP connections yet to present the token
	httpConns       atomic.Int64 // HTTP connections not yet WebSocket sessions

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

func runServer(ctx context.Context, cmd *cobra.Command, cfg serveConfig) error {
	if cfg.uhpAddr == "" && cfg.httpAddr == "" && cfg.hubAddr == "" && cfg.jsonAddr == "" {
		return errors.New("serve needs at least one listener: --uhp, --http, --hub or --hivejson")
	}
	if err := checkLimits(cfg); err != nil {
		return err
	}
	s := &server{cfg: cfg, log: logger(cmd), conns: map[*sessionConn]struct{}{}, metrics: newMetrics()}
	s.logins = &loginLog{log: s.log, period: time.Second}
	var err error
	if s.allow, err = allowlist.Parse(cfg.allowFrom); err != nil {
		return fmt.Errorf("--allow-from: %w", err)
	}
	frameLength, err := hivejson.ParseFrameLength(cfg.frameLength)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	if cfg.tokenFile != "" {
		b, err := os.ReadFile(cfg.tokenFile)
		if err != nil {
			return fmt.Errorf("--token-file: %w", err)
		}
		if s.token = strings.TrimSpace(string(b)); s.token == "" {
			return fmt.Errorf("--token-file %s is empty", cfg.tokenFile)
		}
		if cfg.jsonAddr != "" {
			return errors.New("--hivejson with --token-file: the Choose-Turn JSON protocol has no way to present a token; serve it without one, on loopback")
		}
	}
	spec, err := translate.ParseSpec(cfg.backend.spec)
	if err != nil {
		return err
	}
	engineOptions := cfg.backend.options
	if spec.Kind == "native" {
		engineOptions = append([]string{"HashMB=" + strconv.Itoa(cfg.poolHashMB)}, engineOptions...)
	}
	engineCfg := translate.Config{Log: s.log, EngineOptions: engineOptions, OnRestart: s.metrics.engineRestarts.Inc}
	open := func(ctx context.Context) (translate.Engine, error) {
		return translate.Open(ctx, cfg.backend.spec, engineCfg)
	}
	first, err := open(ctx) // fails fast on a bad backend or option
	if err != nil {
		return err
	}
	s.pool = translate.NewPool(open, translate.PoolConfig{Limit: cfg.poolLimit, Queue: cfg.poolQueue, Wait: cfg.poolWait})
	s.sessionOptions = s.pool.SessionOptions(first, map[string]int{"Threads": cfg.sessionMaxThreads, "HashMB": cfg.sessionMaxHash})
	s.pool.Add(first)
	// From here every return stops the pool's engines, the first among
	// them: an engine process must not outlive a daemon that failed to
	// start.
	defer s.pool.Close(time.Second)
	s.backendKind = spec.Kind
	s.searcher = s.meter(s.pool.Searcher(), spec.Kind)
	s.expansions = first.Info().Expansions
	s.interruptible = translate.Interruptible(first)
	s.backendID = first.Info().ID
	_, s.native = first.(*translate.Native)
	if !s.native && cfg.hubAddr != "" {
		fallback := translate.NewPool(func(context.Context) (translate.Engine, error) {
			n := translate.NewNative()
			return n, translate.ApplyOptions(n, []string{"HashMB=1"})
		}, translate.PoolConfig{Limit: runtime.NumCPU(), Queue: cfg.poolQueue, Wait: cfg.poolWait})
		defer fallback.Close(time.Second)
		s.fallback = s.meter(fallback.Searcher(), "native")
	}
	if cfg.jsonAddr != "" {
		name := "hivebridge v" + version
		if !s.native {
			name += " via " + s.backendID
		}
		s.jsonServer = hivejson.NewServer(hivejson.ServerConfig{
			Greeting: hivejson.GreetingsResponse{
				Name:        "hivebridge",
				Version:     version,
				LongName:    name,
				Description: "Any Hive engine as an AI module; this one answered by " + s.backendID,
				Author:      "hivebridge authors",
				ProjectURL:  "https://github.com/hivebridge/hivebridge",
				Language:    "Go",
			},
			Searcher:    s.searcher,
			DefaultTime: 5 * time.Second,
			MaxTime:     cfg.maxSearchTime,
			IdleTimeout: cfg.idle,
			MaxFrame:    cfg.maxLine,
			FrameLength: frameLength,
			Log:         s.log.With().Str("protocol", "hivejson").Logger(),
			Watch:       s.watchJSON,
		})
	}
	if cfg.pairViewers {
		s.pairing = translate.NewPairing(cfg.pairWait, cfg.moveWait)
	}
	s.hardStop, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	defer s.cancel()
	if err := s.openArchive(s.hardStop); err != nil {
		return err
	}
	if s.archive != nil {
		defer s.archive.close()
	}
	if err := s.sharePairing(s.hardStop); err != nil {
		return err
	}
	if s.shared != nil {
		defer s.shared.Close()
	}
	s.drain, s.cancelDrain = context.WithCancel(s.hardStop)
	defer s.cancelDrain()

	var (
		listeners []net.Listener
		httpSrv   *http.Server
		// One place for each listener (three TCP, one HTTP), so that
		// none is left blocked on it once serve has stopped reading.
		serveErr = make(chan error, 4)
	)
	// A listener that fails to open stops serve: those opened before it
	// are closed, and their goroutines end.
	fail := func(err error) error {
		for _, l := range listeners {
			l.Close()
		}
		return err
	}
	for _, lc := range []struct {
		name, addr string
		serve      func(net.Conn)
	}{
		{"uhp", cfg.uhpAddr, s.serveTCP},
		{"hub", cfg.hubAddr, s.serveHub},
		{"hivejson", cfg.jsonAddr, s.serveJSON},
	} {
		if lc.addr == "" {
			continue
		}
		l, err := net.Listen("tcp", loopback(lc.addr))
		if err != nil {
			return fail(err)
		}
		s.warnIfExposed(l.Addr())
		listeners = append(listeners, l)
		s.log.Info().Str("addr", l.Addr().String()).Str("protocol", lc.name).Msg("serving over TCP")
		fmt.Fprintf(cmd.OutOrStdout(), "%s listening on %s\n", lc.name, l.Addr())
		go func() { serveErr <- s.accept(l, lc.serve) }()
	}
	if cfg.httpAddr != "" {
		l, err := net.Listen("tcp", loopback(cfg.httpAddr))
		if err != nil {
			return fail(err)
		}
		s.warnIfExposed(l.Addr())
		httpSrv = s.newHTTPServer()
		s.log.Info().Str("addr", l.Addr().String()).Msg("serving HTTP and WebSocket")
		fmt.Fprintf(cmd.OutOrStdout(), "http listening on %s\n", l.Addr())
		go func() {
			if err := httpSrv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
				serveErr <- err
			}
		}()
	}

	// A listener that fails for good (not a temporary accept error, which
	// accept waits out) stops the daemon with that error, so that it
	// exits non-zero and a supervisor starts it again.
	var failed error
	select {
	case <-ctx.Done():
	case err := <-serveErr:
		if err != nil && !s.draining.Load() {
			s.log.Error().Err(err).Msg("listener failed: shutting down")
			failed = fmt.Errorf("listener failed: %w", err)
		}
	}
	s.shutdown(listeners, httpSrv)
	return failed
}

// checkLimits refuses, before anything starts, the limits that would make
// the daemon refuse or drop everyone: zero or negative ones.
func checkLimits(cfg serveConfig) error {
	for _, c := range []struct {
		flag string
		bad  bool
		got  any
	}{
		{"max-sessions", cfg.maxSessions < 1, cfg.maxSessions},
		{"max-unauthenticated", cfg.maxUnauthenticated < 1, cfg.maxUnauthenticated},
		{"max-http-conns", cfg.maxHTTPConns < 1, cfg.maxHTTPConns},
		{"max-line", cfg.maxLine < 64, cfg.maxLine},
		{"idle-timeout", cfg.idle <= 0, cfg.idle},
		{"auth-timeout", cfg.authTimeout <= 0, cfg.authTimeout},
		{"max-search-time", cfg.maxSearchTime <= 0, cfg.maxSearchTime},
		{"max-search-depth", cfg.maxSearchDepth < 1, cfg.maxSearchDepth},
		{"pool-size", cfg.poolLimit < 1, cfg.poolLimit},
		{"pool-hash-mb", cfg.poolHashMB < 1, cfg.poolHashMB},
		{"session-max-threads", cfg.sessionMaxThreads < 1, cfg.sessionMaxThreads},
		{"session-max-hash", cfg.sessionMaxHash < 1, cfg.sessionMaxHash},
		{"session-max-perft", cfg.sessionMaxPerft < 1, cfg.sessionMaxPerft},
		{"archive-retention", cfg.archiveRetention < 0, cfg.archiveRetention},
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
func (s *server) warnIfExposed(addr net.Addr) {
	if s.token != "" {
		return
	}
	if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		s.log.Warn().Str("addr", addr.String()).Msg("listening beyond loopback without --token-file: anyone who reaches this address can use the daemon")
	}
}

// shutdown stops accepting, lets commands in progress finish for the grace
// period, closes every session and stops every engine.
func (s *server) shutdown(listeners []net.Listener, httpSrv *http.Server) {
	s.log.Info().Dur("grace", s.cfg.grace).Msg("shutting down")
	s.draining.Store(true)
	s.cancelDrain()
	for _, l := range listeners {
		l.Close()
	}
	if httpSrv != nil {
		httpSrv.SetKeepAlivesEnabled(false)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		httpSrv.Shutdown(ctx) // hijacked WebSocket connections are ours to close
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
	case <-time.After(s.cfg.grace):
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

// track registers a live connection for shutdown; the returned func
// forgets it.
func (s *server) track(c *sessionConn) func() {
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
func (s *server) allowed(remote net.Addr) bool {
	if s.allow.Allows(remote) {
		return true
	}
	s.metrics.refused.WithLabelValues("allow_from").Inc()
	return false
}

// meter bounds a searcher's searches by --max-search-time and
// --max-search-depth and counts them in the metrics.
func (s *server) meter(searcher engine.Searcher, backend string) engine.Searcher {
	return metered{Searcher: capped{Searcher: searcher, maxTime: s.cfg.maxSearchTime, maxDepth: s.cfg.maxSearchDepth}, backend: backend, m: s.metrics}
}

// perftSlot holds an engine of the pool while a UHP session's perft
// counts, for --max-search-time at most: perft is the rules' own work, not
// a backend's, but it takes a core as a search does, so it shares the
// cores the pool bounds rather than adding to them.
func (s *server) perftSlot(ctx context.Context) (context.Context, func(), error) {
	e, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.maxSearchTime)
	return ctx, func() {
		cancel()
		s.pool.Release(e, false)
	}, nil
}

// admit takes a session slot, or says why not.
func (s *server) admit() error {
	if s.draining.Load() {
		return errors.New("The server is shutting down.")
	}
	if n := s.sessions.Add(1); n > int64(s.cfg.maxSessions) {
		s.sessions.Add(-1)
		s.metrics.refused.WithLabelValues("max_sessions").Inc()
		return fmt.Errorf("The server has reached its limit of %d sessions; try again later.", s.cfg.maxSessions)
	}
	return nil
}

// newSessionSearcher returns the searcher of one session, counted in the
// metrics, with the options the session may set for its searches.
func (s *server) newSessionSearcher() (engine.Searcher, []*engine.Option) {
	searcher, options := s.sessionOptions.New()
	return s.meter(searcher, s.backendKind), options
}

// newSession returns a UHP session for one connection.
func (s *server) newSession(protocol string) (*uhp.Engine, zerolog.Logger) {
	id := s.nextID.Add(1)
	log := s.log.With().Uint64("session", id).Str("protocol", protocol).Logger()
	searcher, options := s.newSessionSearcher()
	cfg := uhp.Config{
		ID:         "hivebridge v" + version,
		Expansions: s.expansions,
		Searcher:   searcher,
		Options:    options,
		Log:        log,
		MaxLine:    s.cfg.maxLine,
		// perft is the rules' own work, not the pool's: without a bound a
		// single client could hold every core for hours.
		MaxPerftDepth: s.cfg.sessionMaxPerft,
		PerftThreads:  s.cfg.sessionMaxThreads,
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
	if s.shared != nil {
		cfg.Matchmaker = s.shared.Match
	}
	return uhp.NewEngine(cfg), log
}

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/cmd/hivebridge/web"
	"github.com/hivebridge/hivebridge/translate/daemon"
)

// serveConfig holds the flags of hivebridge serve.
type serveConfig struct {
	uhpAddr, hubAddr, jsonAddr, httpAddr string
	backend                              backendFlags
	tokenFile                            string
	origins                              []string
	clients                              clientFlags
	maxSessions                          int
	maxUnauthenticated                   int
	authTimeout                          time.Duration
	maxHTTPConns                         int
	publicHosts                          []string
	maxSearchTime                        time.Duration
	maxSearchDepth                       int
	maxLine                              int
	pool                                 poolFlags
	poolHashMB                           int
	sessionMaxThreads, sessionMaxHash    int
	sessionMaxPerft                      int
	pairViewers                          bool
	pairWait, moveWait                   time.Duration
	grace                                time.Duration
	db                                   string
	archiveBacklog                       int
	archiveJournal                       string
	archiveRetention                     time.Duration
}

// NewCmdServe returns the serve command: the daemon. runF runs it with the
// configuration the flags give; nil runs the daemon itself (runServe), and
// a test passes its own to check the flags without starting anything.
func NewCmdServe(runF func(ctx context.Context, cmd *cobra.Command, cfg daemon.Config) error) *cobra.Command {
	if runF == nil {
		runF = runServe
	}
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
With --token-file, every client must present the token: an HTTP client as
"Authorization: Bearer TOKEN" (or ?token=TOKEN); a WebSocket client so, or,
as browsers do (they can set no header, and an address is logged by
proxies), as its first message, "auth TOKEN"; a TCP client as its first
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
		RunE: serving(func(cmd *cobra.Command) (daemon.Config, error) { return cfg.daemonConfig(cmd) }, runF),
	}
	f := cmd.Flags()
	f.StringVar(&cfg.uhpAddr, "uhp", "", "serve UHP over TCP on this address")
	f.StringVar(&cfg.hubAddr, "hub", "", "serve Hub over TCP on this address")
	f.StringVar(&cfg.jsonAddr, "hivejson", "", "serve the Choose-Turn JSON protocol on this address")
	f.StringVar(&cfg.httpAddr, "http", "", "serve WebSocket (/uhp), /healthz and /metrics on this address")
	cfg.backend.register(cmd)
	f.StringVar(&cfg.tokenFile, "token-file", "", "require the bearer token in this file on every listener")
	f.StringSliceVar(&cfg.origins, "allow-origin", nil, "WebSocket Origins allowed besides the server's own host (repeatable)")
	cfg.clients.register(cmd, "session")
	f.IntVar(&cfg.maxSessions, "max-sessions", 2000, "the most sessions at once (at least 1); more are refused with an error")
	f.IntVar(&cfg.maxUnauthenticated, "max-unauthenticated", 32, "with --token-file, the most TCP and WebSocket connections at once that have not yet presented the token; they hold no session slot")
	f.DurationVar(&cfg.authTimeout, "auth-timeout", 10*time.Second, "with --token-file, how long in all a TCP or WebSocket client has to send its auth line or message")
	f.IntVar(&cfg.maxHTTPConns, "max-http-conns", 1024, "the most HTTP connections at once besides WebSocket sessions (which count against --max-sessions); more are closed at once")
	f.StringSliceVar(&cfg.publicHosts, "public-host", nil, "host names or addresses the HTTP listener answers besides loopback ones (localhost, 127.0.0.1, ::1), e.g. hive.example.org; any other Host header is refused, against DNS rebinding")
	f.DurationVar(&cfg.maxSearchTime, "max-search-time", 5*time.Minute, "the longest search any client may ask for; a longer one, one by depth alone or one until stopped ends at this time with the best move found")
	f.IntVar(&cfg.maxSearchDepth, "max-search-depth", 40, "the deepest search, in plies, any client may ask for; a deeper one searches to this depth")
	f.IntVar(&cfg.maxLine, "max-line", 64*1024, "the longest command line or WebSocket message, in bytes")
	cfg.pool.register(cmd, "search", "searches")
	f.IntVar(&cfg.poolHashMB, "pool-hash-mb", 16, "the table size of each native engine of the pool, in MiB (before --engine-option)")
	f.IntVar(&cfg.sessionMaxThreads, "session-max-threads", 1, "the most Threads a session may set for its searches")
	f.IntVar(&cfg.sessionMaxHash, "session-max-hash", 16, "the most HashMB a session may set for its searches")
	f.IntVar(&cfg.sessionMaxPerft, "session-max-perft", 4, "the deepest perft a UHP session may ask for, counted on --session-max-threads threads while holding an engine of the pool, and stopped at --max-search-time")
	f.BoolVar(&cfg.pairViewers, "pair-viewers", false, "pair the viewers who start remote games (newgame remote) to play each other")
	f.DurationVar(&cfg.pairWait, "pair-wait", 30*time.Second, "how long a remote game waits for a partner before the backend plays")
	f.DurationVar(&cfg.moveWait, "move-wait", 15*time.Minute, "how long a paired player may think before forfeiting")
	f.DurationVar(&cfg.grace, "grace", 10*time.Second, "how long commands in progress may run on at shutdown")
	registerDB(cmd, &cfg.db)
	f.IntVar(&cfg.archiveBacklog, "archive-backlog", 10000, "the most ended games held while the archive is unavailable, to write once it is back; more are lost (and counted)")
	f.StringVar(&cfg.archiveJournal, "archive-journal", "", "the directory of the end journal, where a game's end not yet committed is kept when a session's next command comes (default: beside the SQLite file, or by the PostgreSQL URL's hash beside the default archive; none for no journal: that command waits for the commit)")
	f.DurationVar(&cfg.archiveRetention, "archive-retention", 0, "delete the archived games that are over (finished or interrupted) and started longer ago than this (e.g. 2160h for 90 days), checked every 5s; 0 keeps every game")
	return cmd
}

// daemonConfig turns the flags into the daemon's configuration, reading
// the token file.
func (cfg serveConfig) daemonConfig(cmd *cobra.Command) (daemon.Config, error) {
	frameLength, err := cfg.clients.frame()
	if err != nil {
		return daemon.Config{}, err
	}
	token := ""
	if cfg.tokenFile != "" {
		b, err := os.ReadFile(cfg.tokenFile)
		if err != nil {
			return daemon.Config{}, fmt.Errorf("--token-file: %w", err)
		}
		if token = strings.TrimSpace(string(b)); token == "" {
			return daemon.Config{}, fmt.Errorf("--token-file %s is empty", cfg.tokenFile)
		}
	}
	return daemon.Config{
		Version:            version,
		Log:                logger(cmd),
		UHPAddr:            cfg.uhpAddr,
		HubAddr:            cfg.hubAddr,
		JSONAddr:           cfg.jsonAddr,
		HTTPAddr:           cfg.httpAddr,
		Backend:            cfg.backend.spec,
		EngineOptions:      cfg.backend.options,
		Token:              token,
		Origins:            cfg.origins,
		AllowFrom:          cfg.clients.allowFrom,
		PublicHosts:        cfg.publicHosts,
		FrameLength:        frameLength,
		MaxSessions:        cfg.maxSessions,
		MaxUnauthenticated: cfg.maxUnauthenticated,
		MaxHTTPConns:       cfg.maxHTTPConns,
		MaxLine:            cfg.maxLine,
		AuthTimeout:        cfg.authTimeout,
		IdleTimeout:        cfg.clients.idle,
		MaxSearchTime:      cfg.maxSearchTime,
		MaxSearchDepth:     cfg.maxSearchDepth,
		PoolSize:           cfg.pool.size,
		PoolQueue:          cfg.pool.queue,
		PoolHashMB:         cfg.poolHashMB,
		PoolWait:           cfg.pool.wait,
		SessionMaxThreads:  cfg.sessionMaxThreads,
		SessionMaxHash:     cfg.sessionMaxHash,
		SessionMaxPerft:    cfg.sessionMaxPerft,
		PairViewers:        cfg.pairViewers,
		PairWait:           cfg.pairWait,
		MoveWait:           cfg.moveWait,
		Grace:              cfg.grace,
		DB:                 cfg.db,
		ArchiveBacklog:     cfg.archiveBacklog,
		ArchiveJournal:     cfg.archiveJournal,
		ArchiveRetention:   cfg.archiveRetention,
		Page:               web.Handler(),
		PagePrefix:         web.AssetPrefix,
	}, nil
}

// runServe runs the daemon until ctx is done, printing the address of each
// listener ("uhp listening on 127.0.0.1:7777") once it listens.
//
// A daemon that keeps its games runs one more Go processor than the
// machine's CPUs (unless GOMAXPROCS is set): the archive's writer commits a
// batch of moves in one burst of tens of milliseconds of CPU (group
// commit), and with a processor for each CPU that burst holds one of them
// whole, leaving the sessions the rest. With one more, the kernel shares
// the CPUs between the writer's thread and the sessions' in slices of a
// few milliseconds. scripts/archive-load.sh, 10,000 sessions, SQLite, on
// 2 cores: the p99 after the ramp 0.92 to 1.33 ms against 1.87 to
// 3.76 ms with two processors; --db none unchanged (2026-11-27). The
// setting is the process's: it is put back when the daemon stops.
func runServe(ctx context.Context, cmd *cobra.Command, cfg daemon.Config) error {
	s, err := daemon.New(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	if s.Archived() && os.Getenv("GOMAXPROCS") == "" {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1))
	}
	printAddrs(cmd.OutOrStdout(), s)
	return s.Serve(ctx)
}

// printAddrs prints the daemon's listeners, in a fixed order.
func printAddrs(w io.Writer, s *daemon.Server) {
	addrs := s.Addrs()
	names := make([]string, 0, len(addrs))
	for name := range addrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "%s listening on %s\n", name, addrs[name])
	}
}

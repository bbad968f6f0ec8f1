package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/internal/allowlist"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/daemon"
)

// hivejsonConfig holds the flags of hivebridge hivejson.
type hivejsonConfig struct {
	listen      string
	backend     backendFlags
	defaultTime time.Duration
	maxTime     time.Duration
	maxSessions int
	maxFrame    int
	clients     clientFlags
	pool        poolFlags
	grace       time.Duration
}

// hivejsonSetup is what the hivejson command runs: its flags checked and
// read.
type hivejsonSetup struct {
	listen  string
	backend backendFlags
	pool    translate.PoolConfig
	grace   time.Duration
	allow   allowlist.List
	// server is the JSON server's configuration but for what the run fills
	// in: the Greeting and Searcher of the backend once open, the Admit of
	// allow, and the Log.
	server hivejson.ServerConfig
}

// NewCmdHivejson returns the hivejson command: hivebridge as a Choose-Turn
// JSON AI module. runF runs it with the setup the flags give; nil serves
// (runHivejson), and a test passes its own to check the flags without
// listening or starting a backend.
func NewCmdHivejson(runF func(ctx context.Context, cmd *cobra.Command, setup hivejsonSetup) error) *cobra.Command {
	if runF == nil {
		runF = runHivejson
	}
	var cfg hivejsonConfig
	cmd := &cobra.Command{
		Use:   "hivejson --listen ADDR [--backend SPEC] [--default-time D]",
		Short: "Serve as a Choose-Turn JSON AI module over TCP",
		Long: `Runs hivebridge as an AI module of the Choose-Turn JSON API (the Hive API
0.1.0 of the original Node game core): game controllers connect over TCP, greet
it, and ask it to choose turns. Each Choose Turn is answered with a turn the
request offered, chosen by the backend within the request's response_deadline,
or within --default-time when the deadline is null, as it is in practice.

Many controllers may connect at once, --max-sessions at most; they share the
backend's engines through a pool of --pool-size engines. A connection that
sends no whole frame for --idle-timeout is closed, and a frame longer than
--max-frame is refused with an error frame.

A frame's length counts UTF-16 code units, as the original's does
(--frame-length utf16, the default); a controller on a newer version of the
framing library counts UTF-8 bytes (--frame-length utf8). The two agree on
ASCII text; a frame with other text that does not parse at its length as
counted is answered with an error frame that names the setting to use.

The JSON API has no way to carry a token, so the module guards itself by
address: ADDR binds the loopback address unless it names another (":7000"
alone means 127.0.0.1:7000), and --allow-from lists the clients answered,
as IP addresses and networks (--allow-from 127.0.0.1,10.0.0.0/8,::1); any
other is answered with an error frame and closed. Give 0.0.0.0:PORT with an
--allow-from list to serve other machines.

SIGTERM or SIGINT stops accepting, answers the requests in hand at once, and
exits 0.`,
		Args: cobra.NoArgs,
		RunE: serving(func(*cobra.Command) (hivejsonSetup, error) { return cfg.setup() }, runF),
	}
	f := cmd.Flags()
	f.StringVar(&cfg.listen, "listen", "", "listen for controllers on this address (required)")
	cmd.MarkFlagRequired("listen")
	cfg.backend.register(cmd)
	f.DurationVar(&cfg.defaultTime, "default-time", hivejson.DefaultThinkTime, "how long to think when a request sets no response_deadline")
	f.DurationVar(&cfg.maxTime, "max-search-time", 5*time.Minute, "the longest any request may think, whatever its response_deadline")
	f.IntVar(&cfg.maxSessions, "max-sessions", 2000, "the most controller connections at once; more are answered with an error frame")
	f.IntVar(&cfg.maxFrame, "max-frame", hivejson.DefaultMaxLen, "the longest frame accepted, in the units of --frame-length")
	cfg.clients.register(cmd, "connection")
	cfg.pool.register(cmd, "request", "requests")
	f.DurationVar(&cfg.grace, "grace", 10*time.Second, "how long engines still searching at shutdown may take to come back")
	return cmd
}

// setup checks the flags and reads them, refusing before anything starts
// the values that would make the module refuse or drop every controller.
func (cfg hivejsonConfig) setup() (hivejsonSetup, error) {
	switch {
	case cfg.defaultTime <= 0:
		return hivejsonSetup{}, fmt.Errorf("--default-time %s: want a positive duration", cfg.defaultTime)
	case cfg.clients.idle <= 0:
		return hivejsonSetup{}, fmt.Errorf("--idle-timeout %s: want a positive duration", cfg.clients.idle)
	case cfg.maxSessions < 1:
		return hivejsonSetup{}, fmt.Errorf("--max-sessions %d: want at least 1", cfg.maxSessions)
	case cfg.maxFrame < 1:
		return hivejsonSetup{}, fmt.Errorf("--max-frame %d: want at least 1", cfg.maxFrame)
	case cfg.pool.size < 1:
		return hivejsonSetup{}, fmt.Errorf("--pool-size %d: want at least 1", cfg.pool.size)
	case cfg.pool.queue < 0:
		return hivejsonSetup{}, fmt.Errorf("--pool-queue %d: want 0 or more", cfg.pool.queue)
	case cfg.maxTime <= 0:
		return hivejsonSetup{}, fmt.Errorf("--max-search-time %s: want a positive duration", cfg.maxTime)
	case cfg.pool.wait <= 0:
		return hivejsonSetup{}, fmt.Errorf("--pool-wait %s: want a positive duration", cfg.pool.wait)
	}
	allow, err := cfg.clients.allowList()
	if err != nil {
		return hivejsonSetup{}, err
	}
	frameLength, err := cfg.clients.frame()
	if err != nil {
		return hivejsonSetup{}, err
	}
	return hivejsonSetup{
		listen:  cfg.listen,
		backend: cfg.backend,
		pool:    cfg.pool.config(),
		grace:   cfg.grace,
		allow:   allow,
		server: hivejson.ServerConfig{
			DefaultTime: cfg.defaultTime,
			MaxTime:     cfg.maxTime,
			IdleTimeout: cfg.clients.idle,
			MaxFrame:    cfg.maxFrame,
			FrameLength: frameLength,
			MaxConns:    cfg.maxSessions,
		},
	}, nil
}

// runHivejson serves controllers until ctx is done.
func runHivejson(ctx context.Context, cmd *cobra.Command, setup hivejsonSetup) error {
	l, err := net.Listen("tcp", daemon.Loopback(setup.listen))
	if err != nil {
		return fmt.Errorf("--listen %s: %w", setup.listen, err)
	}
	defer l.Close()
	log := logger(cmd)
	engineCfg := translate.Config{Log: log, EngineOptions: setup.backend.options}
	open := func(ctx context.Context) (translate.Engine, error) {
		return translate.Open(ctx, setup.backend.spec, engineCfg)
	}
	first, err := open(ctx) // fails fast on a bad backend or option
	if err != nil {
		return err
	}
	info := first.Info()
	pool := translate.NewPool(open, setup.pool)
	pool.Add(first)
	defer pool.Close(setup.grace)

	_, native := first.(*translate.Native)
	srvCfg := setup.server
	srvCfg.Greeting = daemon.Greeting(version, info.ID, native)
	srvCfg.Searcher = pool.Searcher()
	srvCfg.Admit = allowFrom(setup.allow)
	srvCfg.Log = log
	srv := hivejson.NewServer(srvCfg)
	log.Info().Str("addr", l.Addr().String()).Str("backend", info.ID).Stringer("allow_from", setup.allow).Msg("serving the Choose-Turn JSON API")
	fmt.Fprintf(cmd.OutOrStdout(), "hivejson listening on %s\n", l.Addr())
	if err := srv.Serve(ctx, l); err != nil {
		return err
	}
	log.Info().Msg("stopped")
	return nil
}

// allowFrom is the Admit of a JSON server that answers only the clients
// allow lists.
func allowFrom(allow allowlist.List) func(net.Conn) error {
	return func(conn net.Conn) error {
		if !allow.Allows(conn.RemoteAddr()) {
			return allowlist.Refusal(conn.RemoteAddr().String())
		}
		return nil
	}
}

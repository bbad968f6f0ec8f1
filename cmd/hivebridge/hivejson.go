package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/internal/allowlist"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/translate"
)

// hivejsonConfig holds the flags of hivebridge hivejson.
type hivejsonConfig struct {
	listen      string
	backend     backendFlags
	defaultTime time.Duration
	maxTime     time.Duration
	idle        time.Duration
	maxSessions int
	maxFrame    int
	frameLength string
	allowFrom   []string
	poolLimit   int
	poolQueue   int
	poolWait    time.Duration
	grace       time.Duration
}

// NewCmdHivejson returns the hivejson command: hivebridge as a Choose-Turn
// JSON AI module.
func NewCmdHivejson() *cobra.Command {
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
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runHivejson(ctx, cmd, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.listen, "listen", "", "listen for controllers on this address (required)")
	cmd.MarkFlagRequired("listen")
	cfg.backend.register(cmd)
	f.DurationVar(&cfg.defaultTime, "default-time", hivejson.DefaultThinkTime, "how long to think when a request sets no response_deadline")
	f.DurationVar(&cfg.maxTime, "max-search-time", 5*time.Minute, "the longest any request may think, whatever its response_deadline")
	f.DurationVar(&cfg.idle, "idle-timeout", hivejson.DefaultIdleTimeout, "close a connection that sends nothing for this long")
	f.IntVar(&cfg.maxSessions, "max-sessions", 2000, "the most controller connections at once; more are answered with an error frame")
	f.IntVar(&cfg.maxFrame, "max-frame", hivejson.DefaultMaxLen, "the longest frame accepted, in the units of --frame-length")
	f.StringVar(&cfg.frameLength, "frame-length", "utf16", "what a frame's length counts: utf16 (UTF-16 code units, the original's) or utf8 (UTF-8 bytes)")
	f.StringSliceVar(&cfg.allowFrom, "allow-from", nil, "answer only clients at these IP addresses or networks (CIDR), e.g. 127.0.0.1,10.0.0.0/8; default everyone who reaches the listener")
	f.IntVar(&cfg.poolLimit, "pool-size", runtime.NumCPU(), "the most backend engines at once")
	f.IntVar(&cfg.poolQueue, "pool-queue", 4096, "the most requests waiting for an engine")
	f.DurationVar(&cfg.poolWait, "pool-wait", 30*time.Second, "how long a request may wait for a free engine")
	f.DurationVar(&cfg.grace, "grace", 10*time.Second, "how long engines still searching at shutdown may take to come back")
	return cmd
}

// runHivejson serves controllers until ctx is done.
func runHivejson(ctx context.Context, cmd *cobra.Command, cfg hivejsonConfig) error {
	switch {
	case cfg.defaultTime <= 0:
		return fmt.Errorf("--default-time %s: want a positive duration", cfg.defaultTime)
	case cfg.idle <= 0:
		return fmt.Errorf("--idle-timeout %s: want a positive duration", cfg.idle)
	case cfg.maxSessions < 1:
		return fmt.Errorf("--max-sessions %d: want at least 1", cfg.maxSessions)
	case cfg.maxFrame < 1:
		return fmt.Errorf("--max-frame %d: want at least 1", cfg.maxFrame)
	case cfg.poolLimit < 1:
		return fmt.Errorf("--pool-size %d: want at least 1", cfg.poolLimit)
	case cfg.poolQueue < 0:
		return fmt.Errorf("--pool-queue %d: want 0 or more", cfg.poolQueue)
	case cfg.maxTime <= 0:
		return fmt.Errorf("--max-search-time %s: want a positive duration", cfg.maxTime)
	case cfg.idle <= 0:
		return fmt.Errorf("--idle-timeout %s: want a positive duration", cfg.idle)
	case cfg.poolWait <= 0:
		return fmt.Errorf("--pool-wait %s: want a positive duration", cfg.poolWait)
	}
	allow, err := allowlist.Parse(cfg.allowFrom)
	if err != nil {
		return fmt.Errorf("--allow-from: %w", err)
	}
	frameLength, err := hivejson.ParseFrameLength(cfg.frameLength)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	l, err := net.Listen("tcp", loopback(cfg.listen))
	if err != nil {
		return fmt.Errorf("--listen %s: %w", cfg.listen, err)
	}
	defer l.Close()
	log := logger(cmd)
	engineCfg := translate.Config{Log: log, EngineOptions: cfg.backend.options}
	open := func(ctx context.Context) (translate.Engine, error) {
		return translate.Open(ctx, cfg.backend.spec, engineCfg)
	}
	first, err := open(ctx) // fails fast on a bad backend or option
	if err != nil {
		return err
	}
	info := first.Info()
	pool := translate.NewPool(open, translate.PoolConfig{Limit: cfg.poolLimit, Queue: cfg.poolQueue, Wait: cfg.poolWait})
	pool.Add(first)
	defer pool.Close(cfg.grace)

	longName := "hivebridge v" + version
	if _, native := first.(*translate.Native); !native {
		longName += " via " + info.ID
	}
	srv := hivejson.NewServer(hivejson.ServerConfig{
		Greeting: hivejson.GreetingsResponse{
			Name:        "hivebridge",
			Version:     version,
			LongName:    longName,
			Description: "Any Hive engine as an AI module; this one answered by " + info.ID,
			Author:      "hivebridge authors",
			ProjectURL:  "https://github.com/hivebridge/hivebridge",
			Language:    "Go",
		},
		Searcher:    pool.Searcher(),
		DefaultTime: cfg.defaultTime,
		MaxTime:     cfg.maxTime,
		IdleTimeout: cfg.idle,
		MaxFrame:    cfg.maxFrame,
		FrameLength: frameLength,
		MaxConns:    cfg.maxSessions,
		Admit:       allowFrom(allow),
		Log:         log,
	})
	log.Info().Str("addr", l.Addr().String()).Str("backend", info.ID).Stringer("allow_from", allow).Msg("serving the Choose-Turn JSON API")
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
			return notAllowed(conn.RemoteAddr().String())
		}
		return nil
	}
}

// notAllowed is the refusal of a client whose address --allow-from does
// not list.
func notAllowed(remote string) error {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	return fmt.Errorf("Connections from %s are not allowed (--allow-from).", remote)
}

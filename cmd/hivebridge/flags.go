package main

import (
	"context"
	"fmt"
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

// The flags several commands share are a type each, registered by one
// method, so that a flag has the same name, default and meaning on every
// command that takes it, and a new command gets the whole group at once.

// backendFlags are the flags of every front-end command that choose and
// set up its backend.
type backendFlags struct {
	spec    string
	options []string
}

func (b *backendFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&b.spec, "backend", "native", `the engine that chooses the moves: native, "uhp:<program> [args...]", "hub:<program> [args...]" or hivejson://host:port[?frame-length=utf8]`)
	cmd.Flags().StringArrayVar(&b.options, "engine-option", nil, "set a backend option, Name=Value (repeatable); checked against the options the backend declares")
}

// open starts the backend.
func (b *backendFlags) open(ctx context.Context, cmd *cobra.Command) (translate.Engine, error) {
	return translate.Open(ctx, b.spec, translate.Config{Log: logger(cmd), EngineOptions: b.options})
}

// poolFlags are the flags of a command whose clients share the backend's
// engines through a pool (serve, hivejson): how many engines, and how many
// searches may wait for one, for how long.
type poolFlags struct {
	size  int
	queue int
	wait  time.Duration
}

// register adds the pool flags to cmd. waiter and waiters are what waits
// for an engine, one and many, in the command's own words ("search",
// "searches"; "request", "requests"): the daemon's sessions ask for
// searches, a JSON module's controllers send requests.
func (p *poolFlags) register(cmd *cobra.Command, waiter, waiters string) {
	f := cmd.Flags()
	f.IntVar(&p.size, "pool-size", runtime.NumCPU(), "the most backend engines at once")
	f.IntVar(&p.queue, "pool-queue", 4096, "the most "+waiters+" waiting for an engine")
	f.DurationVar(&p.wait, "pool-wait", 30*time.Second, "how long a "+waiter+" may wait for an engine")
}

// config is the pool's configuration.
func (p poolFlags) config() translate.PoolConfig {
	return translate.PoolConfig{Limit: p.size, Queue: p.queue, Wait: p.wait}
}

// clientFlags are the flags of a command that answers network clients
// (serve, hivejson): whom it answers, how long it keeps one that says
// nothing, and how it counts the length of a client's Choose-Turn JSON
// frame, which both may serve.
type clientFlags struct {
	allowFrom   []string
	idle        time.Duration
	frameLength string
}

// register adds the client flags to cmd. client is what a client holds
// while connected, in the command's own words ("session", "connection").
func (c *clientFlags) register(cmd *cobra.Command, client string) {
	f := cmd.Flags()
	f.StringSliceVar(&c.allowFrom, "allow-from", nil, "answer only clients at these IP addresses or networks (CIDR) on every listener, e.g. 127.0.0.1,10.0.0.0/8; default everyone who reaches a listener")
	f.DurationVar(&c.idle, "idle-timeout", 10*time.Minute, "close a "+client+" that sends nothing for this long (more than 0)")
	f.StringVar(&c.frameLength, "frame-length", "utf16", "what a JSON frame's length counts: utf16 (UTF-16 code units, the original's) or utf8 (UTF-8 bytes)")
}

// frame reads --frame-length.
func (c clientFlags) frame() (hivejson.FrameLength, error) {
	fl, err := hivejson.ParseFrameLength(c.frameLength)
	if err != nil {
		return 0, fmt.Errorf("--%w", err)
	}
	return fl, nil
}

// allowList reads --allow-from.
func (c clientFlags) allowList() (allowlist.List, error) {
	allow, err := allowlist.Parse(c.allowFrom)
	if err != nil {
		return allowlist.List{}, fmt.Errorf("--allow-from: %w", err)
	}
	return allow, nil
}

// serving is the RunE of a command that serves until stopped (serve,
// hivejson): it reads its configuration from the flags with read, then runs
// it with run under a context that SIGTERM or SIGINT cancels, so that the
// server stops accepting and shuts down in good order.
func serving[C any](read func(cmd *cobra.Command) (C, error), run func(ctx context.Context, cmd *cobra.Command, cfg C) error) func(cmd *cobra.Command, args []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		cfg, err := read(cmd)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return run(ctx, cmd, cfg)
	}
}

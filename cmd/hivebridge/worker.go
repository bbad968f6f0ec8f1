package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// workerFlags are the worker command's flags.
type workerFlags struct {
	db          string
	engines     []string
	name        string
	concurrency int
	lease, poll time.Duration
	exitIdle    bool
}

// workerConfig is what the worker command runs: the database of the tests
// and the worker's configuration (its archive opened when it runs).
type workerConfig struct {
	db     string
	worker referee.WorkerConfig
}

// NewCmdWorker returns the worker command: a machine's player of the game
// pairs of the distributed tests in a PostgreSQL database. runF runs it
// with the configuration the flags give; nil plays (runWorker), and a test
// passes its own to check the flags.
func NewCmdWorker(runF func(cmd *cobra.Command, cfg workerConfig) error) *cobra.Command {
	if runF == nil {
		runF = runWorker
	}
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker --db postgres://... [--engine NAME=SPEC ...] [flags]",
		Short: "Play the game pairs of the distributed tests of a PostgreSQL database",
		Long: `Plays the game pairs of the open tests that "hivebridge match --distributed"
keeps in a PostgreSQL database (--db, the archive's), any number of workers on
any number of machines: each claims a pair, plays its two games, keeps them in
the archive and reports them, which counts them in the test and runs its SPRT.

A claim is a lease of --lease, renewed every quarter of it while the pair is
played: a worker that dies loses its pair once its lease runs out, and another
worker plays the pair again; a worker's report counts only while its lease
holds the pair, so every pair counts once. Ctrl-C gives the pairs in play back
at once.

The test's engines are played with the test's specs, or with this machine's
own: --engine NAME=SPEC (repeatable) plays the engine the test names NAME
(match --white-name or --black-name, else its spec) with SPEC. A test whose
engines this machine cannot start is passed over.

A line a game and a pair goes to standard error.`,
		Example: `  hivebridge worker --db postgres://hive@db.example/hive
  hivebridge worker --db postgres://hive@db.example/hive --engine new=uhp:/opt/new/engine --concurrency 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := f.config(cmd)
			if err != nil {
				return err
			}
			return runF(cmd, workerConfig{db: f.db, worker: cfg})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "the PostgreSQL database of the tests and the archive, a postgres:// URL")
	fl.StringArrayVar(&f.engines, "engine", nil, "play the test's engine named NAME with this machine's SPEC: NAME=SPEC (repeatable)")
	fl.StringVar(&f.name, "name", "", "the worker's name in the tests (default: the host name and process id)")
	fl.IntVar(&f.concurrency, "concurrency", 1, "the number of game pairs played at once")
	fl.DurationVar(&f.lease, "lease", time.Minute, "how long a claimed pair stays this worker's without a renewal: a dead worker's pairs are played again that long after its last")
	fl.DurationVar(&f.poll, "poll", 2*time.Second, "how long to wait before looking again when there is no pair to claim")
	fl.BoolVar(&f.exitIdle, "exit-idle", false, "exit once no test is open, rather than wait for one")
	return cmd
}

// config checks the flags and turns them into the worker's configuration
// (its archive and engines' log set when it runs).
func (f *workerFlags) config(cmd *cobra.Command) (referee.WorkerConfig, error) {
	cfg := referee.WorkerConfig{Name: f.name, Engines: map[string]string{}, Concurrency: f.concurrency,
		Lease: f.lease, Poll: f.poll, ExitIdle: f.exitIdle, Log: logger(cmd), Engine: translate.Config{Log: logger(cmd)}}
	if !archive.IsPostgres(f.db) {
		return cfg, errors.New("--db: a worker plays the tests of a PostgreSQL database: give a postgres:// URL")
	}
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = host + "-" + strconv.Itoa(os.Getpid())
	}
	for _, text := range f.engines {
		name, spec, ok := strings.Cut(text, "=")
		if !ok || name == "" || spec == "" {
			return cfg, fmt.Errorf("--engine %q: want NAME=SPEC", text)
		}
		if _, err := translate.ParseSpec(spec); err != nil {
			return cfg, fmt.Errorf("--engine %q: %w", text, err)
		}
		cfg.Engines[name] = spec
	}
	switch {
	case f.concurrency < 1:
		return cfg, fmt.Errorf("--concurrency must be at least 1, not %d", f.concurrency)
	case f.lease < time.Second/10 || f.poll <= 0:
		return cfg, errors.New("--lease must be 100ms or more, and --poll positive")
	}
	return cfg, nil
}

// runWorker opens the archive and the tests of db and plays until Ctrl-C
// (or, with --exit-idle, until no test is open), a line a game and a pair
// on standard error.
func runWorker(cmd *cobra.Command, run workerConfig) error {
	db, cfg := run.db, run.worker
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A database that does not answer is an error soon, not a hang.
	openCtx, opened := context.WithTimeout(ctx, 30*time.Second)
	store, err := archive.Open(openCtx, db, "worker")
	if err != nil {
		opened()
		return err
	}
	defer store.Close()
	tests, err := referee.OpenTests(openCtx, db, cfg.Log)
	opened()
	if err != nil {
		return err
	}
	defer tests.Close()
	lines := &lineWriter{w: cmd.ErrOrStderr()}
	cfg.Archive = store
	cfg.OnGame = func(l *referee.Lease, g referee.GameRecord) {
		white := "B"
		if g.AWhite {
			white = "A"
		}
		lines.printf("test %d pair %d: game %d (%s White) %s, %s, %d plies, %s",
			l.Test, l.Pair, g.Index, white, resultName(g), g.Reason, g.Plies, g.Elapsed.Round(time.Millisecond))
	}
	cfg.OnPair = func(r referee.PairReport) {
		if r.Err != nil {
			lines.printf("test %d pair %d: not counted: %v", r.Lease.Test, r.Lease.Pair, r.Err)
			return
		}
		points := 0.0
		for _, g := range r.Games {
			points += g.AScore()
		}
		t := r.Counted.Stats.Total
		lines.printf("test %d pair %d: counted, A %g of 2; the test %s, pairs done: %d, A +%d -%d =%d",
			r.Lease.Test, r.Lease.Pair, points, r.Counted.State, r.Counted.PairsDone, t.Wins, t.Losses, t.Draws)
	}
	lines.printf("worker %s playing the tests of %s", cfg.Name, archive.Redact(db))
	return referee.RunWorker(ctx, tests, cfg)
}

// lineWriter writes whole lines from the pairs' goroutines, one at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

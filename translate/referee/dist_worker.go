package referee

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// WorkerConfig sets up a worker: a machine's player of the game pairs of
// every open test (RunWorker).
type WorkerConfig struct {
	// Name names the worker in the pairs it claims and reports (match
	// --status counts the games of each).
	Name string
	// Engines are this machine's own specs of a test's engines, by the
	// engine's name in the test (TestSettings.EngineName): an engine
	// named here is played with this spec rather than the test's.
	Engines map[string]string
	// Concurrency is the number of pairs played at once (at least 1).
	Concurrency int
	// Lease is how long a claim holds a pair without being renewed: a
	// worker that dies loses its pairs that long after its last renewal,
	// and other workers play them again. Renewed every quarter of it.
	Lease time.Duration
	// Poll is how long the worker waits before it looks again for a pair
	// when it found none to claim, or could not reach the database.
	Poll time.Duration
	// ExitIdle stops the worker once no test is open, rather than
	// waiting for one.
	ExitIdle bool
	// Engine sets up the backends: the log and the timeouts.
	Engine translate.Config
	// Archive keeps every game (the tests' own database); required.
	Archive archive.Store
	Log     zerolog.Logger
	// OnGame, if set, is told of each game the worker finishes, and
	// OnPair of each pair's report, counted or refused; both from the
	// goroutines of the pairs, concurrently when Concurrency is above 1.
	OnGame func(l *Lease, g GameRecord)
	OnPair func(PairReport)
}

// PairReport is a pair a worker played and reported.
type PairReport struct {
	Lease *Lease
	Games []GameRecord
	// Counted is the test after the report; Err, when not nil, why the
	// pair was not counted (ErrLeaseLost, ErrTestClosed, or a failure to
	// reach the database).
	Counted Counted
	Err     error
}

func (c WorkerConfig) check() error {
	switch {
	case c.Concurrency < 1:
		return fmt.Errorf("the concurrency must be at least 1, not %d", c.Concurrency)
	case c.Lease <= 0 || c.Poll <= 0:
		return errors.New("the lease and the poll must be positive durations")
	case c.Archive == nil:
		return errors.New("a worker keeps its games in the archive: it needs one")
	}
	return nil
}

// worker is RunWorker's state, shared by its concurrent pairs.
type worker struct {
	cfg   WorkerConfig
	tests *Tests

	mu       sync.Mutex
	prepared map[int64]*Config // each test's, readied once (Prepare)
	cannot   map[int64]error   // the tests this machine cannot play, and why
}

// RunWorker plays the pairs of open tests, Concurrency at a time, until
// ctx ends (or, with ExitIdle, no test is open): each claimed, played with
// a heartbeat that keeps its lease, and reported. A test whose engines
// this machine cannot start is passed over, its pair given back. When ctx
// ends, the pairs in play are abandoned and given back at once, for other
// workers to play.
func RunWorker(ctx context.Context, tests *Tests, cfg WorkerConfig) error {
	if err := cfg.check(); err != nil {
		return err
	}
	cfg.Engine = cfg.Engine.WithDefaults()
	w := &worker{cfg: cfg, tests: tests, prepared: map[int64]*Config{}, cannot: map[int64]error{}}
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(ctx)
		}()
	}
	wg.Wait()
	return nil
}

// loop claims and plays pairs one after the other.
func (w *worker) loop(ctx context.Context) {
	for ctx.Err() == nil {
		l, err := w.tests.Claim(ctx, w.cfg.Name, w.cfg.Lease, w.skipped())
		switch {
		case err != nil && ctx.Err() == nil:
			w.cfg.Log.Warn().Err(err).Msg("worker: claiming a pair failed; trying again")
		case l != nil:
			w.play(ctx, l)
			continue
		case w.cfg.ExitIdle:
			if open, err := w.tests.CountOpen(ctx); err == nil && open == 0 {
				return
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(w.cfg.Poll):
		}
	}
}

// skipped lists the tests this machine cannot play.
func (w *worker) skipped() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]int64, 0, len(w.cannot))
	for id := range w.cannot {
		ids = append(ids, id)
	}
	return ids
}

// prepare returns the test's configuration on this machine, readied once:
// its engines mapped to this machine's specs, each opened once. A test it
// cannot ready is remembered, and passed over from then on. The lock is
// held while the engines are opened, so that the pairs claimed meanwhile
// wait for them rather than open them again.
func (w *worker) prepare(ctx context.Context, l *Lease) (*Config, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if cfg := w.prepared[l.Test]; cfg != nil {
		return cfg, nil
	}
	cfg, err := l.Settings.Config(l.Games, w.cfg.Engine)
	if err == nil {
		if spec, ok := w.cfg.Engines[l.Settings.EngineName(true)]; ok {
			cfg.White = spec
		}
		if spec, ok := w.cfg.Engines[l.Settings.EngineName(false)]; ok {
			cfg.Black = spec
		}
		err = cfg.Prepare(ctx)
	}
	if err != nil {
		if ctx.Err() == nil {
			w.cannot[l.Test] = err
		}
		return nil, err
	}
	w.prepared[l.Test] = &cfg
	return &cfg, nil
}

// play plays the lease's pair and reports it, or gives it back when it
// cannot be played here or the worker stops. The lease is renewed from the
// claim on, while the test's engines are first opened too.
func (w *worker) play(ctx context.Context, l *Lease) {
	log := w.cfg.Log.With().Int64("test", l.Test).Int("pair", l.Pair).Logger()
	pairCtx, cancel := context.WithCancel(ctx)
	beats := make(chan error, 1)
	go func() { beats <- w.heartbeat(pairCtx, l, cancel) }()
	games, ids, err := w.playPair(pairCtx, l, log)
	cancel()
	lost := <-beats
	switch {
	case errors.Is(lost, ErrTestClosed):
		log.Info().Msg("worker: the test closed while the pair was played; the pair is abandoned")
		return
	case lost != nil:
		log.Warn().Err(lost).Msg("worker: the pair was abandoned")
		return
	case err != nil:
		if ctx.Err() == nil {
			log.Warn().Err(err).Msg("worker: giving the pair back")
		}
		w.release(l, log)
		return
	}
	c, err := w.report(ctx, l, games, ids)
	if w.cfg.OnPair != nil {
		w.cfg.OnPair(PairReport{Lease: l, Games: games, Counted: c, Err: err})
	}
}

// errStopped is why a pair whose games ctx stopped is given back.
var errStopped = errors.New("the worker stops")

// playPair plays the two games of the lease's pair, each kept in the
// archive, and returns them with their archive ids; an error when the pair
// is to be given back: this machine cannot play the test (which is then
// passed over), the archive lacks a game, or ctx ended.
func (w *worker) playPair(ctx context.Context, l *Lease, log zerolog.Logger) ([]GameRecord, []int64, error) {
	cfg, err := w.prepare(ctx, l)
	if err != nil {
		return nil, nil, fmt.Errorf("this machine cannot play the test, which it passes over: %w", err)
	}
	start, err := cfg.PairOpening(l.Pair)
	if err != nil {
		w.mu.Lock()
		w.cannot[l.Test] = err
		w.mu.Unlock()
		return nil, nil, fmt.Errorf("no opening for the pair; passing the test over: %w", err)
	}
	if l.Claims > 1 {
		sweepOrphans(ctx, w.cfg.Archive, log)
	}
	games := make([]GameRecord, 0, 2)
	ids := make([]int64, 0, 2)
	for i := 2 * l.Pair; i < 2*l.Pair+2; i++ {
		rec, id, finished := playArchived(ctx, *cfg, w.cfg.Archive, log, i, start)
		switch {
		case !finished:
			return nil, nil, errStopped
		case id == 0:
			return nil, nil, fmt.Errorf("the archive lacks game %d, to be played again", i)
		}
		if w.cfg.OnGame != nil {
			w.cfg.OnGame(l, rec)
		}
		games, ids = append(games, rec), append(ids, id)
	}
	return games, ids, nil
}

// heartbeat renews the lease every quarter of its time until ctx ends, and
// returns nil then; it ends the pair (stop) and returns why when the lease
// is lost, the test closed, or no renewal has reached the database for the
// lease's whole time (another worker may hold the pair by then).
func (w *worker) heartbeat(ctx context.Context, l *Lease, stop context.CancelFunc) error {
	tick := time.NewTicker(w.cfg.Lease / 4)
	defer tick.Stop()
	renewed := time.Now()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		err := w.tests.Heartbeat(ctx, l, w.cfg.Lease)
		switch {
		case err == nil:
			renewed = time.Now()
		case errors.Is(err, ErrLeaseLost), errors.Is(err, ErrTestClosed):
			stop()
			return err
		case ctx.Err() != nil:
			return nil
		case time.Since(renewed) >= w.cfg.Lease:
			stop()
			return fmt.Errorf("no renewal of the lease reached the database for %s: %w", w.cfg.Lease, err)
		default:
			w.cfg.Log.Warn().Err(err).Int64("test", l.Test).Int("pair", l.Pair).Msg("worker: renewing the lease failed; trying again")
		}
	}
}

// report reports the pair, again after a failure to reach the database,
// for as long as the lease would hold the pair: a report whose answer was
// lost and that was counted is taken again as counted (Report).
func (w *worker) report(ctx context.Context, l *Lease, games []GameRecord, ids []int64) (Counted, error) {
	deadline := time.Now().Add(w.cfg.Lease)
	for {
		c, err := w.tests.Report(ctx, l, games, ids)
		if err == nil || errors.Is(err, ErrLeaseLost) || errors.Is(err, ErrTestClosed) || ctx.Err() != nil || time.Now().After(deadline) {
			return c, err
		}
		w.cfg.Log.Warn().Err(err).Int64("test", l.Test).Int("pair", l.Pair).Msg("worker: reporting the pair failed; trying again")
		select {
		case <-ctx.Done():
			return c, ctx.Err()
		case <-time.After(min(w.cfg.Poll, time.Until(deadline))):
		}
	}
}

// release gives the pair back, within a deadline of its own: the worker
// may be stopping, its context ended.
func (w *worker) release(l *Lease, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	if err := w.tests.Release(ctx, l); err != nil {
		log.Warn().Err(err).Msg("worker: giving the pair back failed; its lease will run out")
	}
}

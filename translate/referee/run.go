package referee

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is reported after each finished game, from one goroutine at a
// time, in the order the games finish.
type Progress struct {
	Game     GameRecord // the game just finished
	Done     int        // games finished so far
	Total    int        // games in the match
	InFlight int        // games being played now
	Stats    Stats      // engine A's results so far
	SPRT     *SPRTState // the test's state, when there is one
}

// Result is the outcome of a match.
type Result struct {
	Games   []GameRecord // the finished games, in game order
	Stats   Stats        // engine A's results
	SPRT    *SPRTState   // the test's state at the end, when there is one
	Stopped string       // why the match ended before all its games ("" when it did not)
	Elapsed time.Duration
}

// outcome is what a worker hands the collector: a finished game, or none
// when the match was stopped while it was being played.
type outcome struct {
	rec      GameRecord
	finished bool
}

// Run plays the match and returns every finished game with engine A's
// statistics. progress, if not nil, is called after each game. The match
// stops early when ctx ends (the games in flight are abandoned and ctx's
// error returned with what was finished) or when the SPRT accepts a
// hypothesis. Every engine it starts is closed before it returns.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (Result, error) {
	start := time.Now()
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	cfg.Engine = cfg.Engine.WithDefaults()
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	starts, err := cfg.openings()
	if err != nil {
		return Result{}, err
	}
	if err := cfg.preflight(ctx, starts); err != nil {
		return Result{}, err
	}

	matchCtx, stop := context.WithCancel(ctx)
	defer stop()
	var res Result
	pairs := pairing{}
	var sprt *SPRTState
	if cfg.SPRT != nil {
		sprt = &SPRTState{Test: *cfg.SPRT}
	}
	// count takes a finished game into the result, the statistics and
	// the test, and sets res.Stopped when the match stops there.
	count := func(rec GameRecord) {
		res.Games = append(res.Games, rec)
		res.Stats.Add(rec)
		pairs.add(rec, &res.Stats.Pairs)
		if rec.Ending == ByRefusal {
			res.Stopped = fmt.Sprintf("game %d void, not scored: %s", rec.Index, rec.Reason)
		}
		if sprt != nil && res.Stopped == "" {
			sprt.Update(res.Stats)
			if sprt.Verdict != SPRTContinue {
				res.Stopped = "SPRT: " + sprt.Verdict.String()
			}
		}
	}
	// The games of an earlier run come first, in the order they finished
	// then: the test goes on from where it stood.
	done := make([]bool, cfg.Games)
	for _, rec := range cfg.Resumed {
		done[rec.Index] = true
		if res.Stopped == "" {
			count(rec)
		}
	}
	var todo []int
	for i := range cfg.Games {
		if !done[i] && res.Stopped == "" {
			todo = append(todo, i)
		}
	}

	jobs := make(chan int)
	results := make(chan outcome)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the feeder: one game number per free worker
		defer wg.Done()
		defer close(jobs)
		for _, i := range todo {
			select {
			case jobs <- i:
			case <-matchCtx.Done():
				return
			}
		}
	}()
	workers := min(cfg.Concurrency, len(todo))
	var running atomic.Int32 // games being played, for Progress only
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				running.Add(1)
				rec, finished := cfg.playGame(matchCtx, i, starts[i/2])
				running.Add(-1)
				results <- outcome{rec, finished}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	for o := range results { // read to the end, so no worker is left blocked
		if !o.finished || res.Stopped != "" {
			continue
		}
		count(o.rec)
		if res.Stopped != "" {
			stop()
		}
		if progress != nil {
			p := Progress{Game: o.rec, Done: len(res.Games), Total: cfg.Games, InFlight: int(running.Load()), Stats: res.Stats}
			if sprt != nil {
				s := *sprt
				p.SPRT = &s
			}
			progress(p)
		}
	}
	sort.Slice(res.Games, func(i, j int) bool { return res.Games[i].Index < res.Games[j].Index })
	res.SPRT = sprt
	res.Elapsed = time.Since(start)
	if err := ctx.Err(); err != nil && res.Stopped == "" {
		res.Stopped = "interrupted"
		return res, err
	}
	return res, nil
}

package dataset

import (
	"context"
	"errors"
	"hash/fnv"
	"io"

	"github.com/hivebridge/hivebridge/core"
)

// Config is a labelling run: the settings of its labels, its workers (at
// least 1, each with a searcher of its own) and, if not nil, a function
// told of the counts so far after each game written.
type Config struct {
	Settings Settings
	Workers  int
	Progress func(Stats)
}

// Games is where a run's games come from: Next returns io.EOF after the
// last (MatchReader is one).
type Games interface {
	Next() (Source, error)
}

// LabelAll labels the games of src that done does not hold and writes
// their records to w in src's order, whatever the number of workers. done
// are the games the file held already (Resume returns them): a game of
// the same number is passed over, and so is a game whose moves one of
// done or an earlier game of src played already (the two games of a pair
// of a match between one engine at one depth are one game). Stopped by
// ctx, it writes the games labelled before the first unfinished one and
// returns ctx's error: the file can be resumed from there.
func LabelAll(parent context.Context, cfg Config, src Games, w *Writer, done []*Game) (Stats, error) {
	var total Stats
	workers := max(cfg.Workers, 1)
	labellers := make([]*Labeller, workers)
	for i := range labellers {
		var err error
		if labellers[i], err = NewLabeller(cfg.Settings); err != nil {
			return total, err
		}
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()

	type job struct {
		seq int
		src Source
	}
	type result struct {
		seq   int
		game  *Game
		stats Stats
		err   error
	}
	jobs := make(chan job, workers)
	results := make(chan result, workers)
	feedErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		feedErr <- feed(ctx, src, done, func(seq int, s Source) bool {
			select {
			case jobs <- job{seq, s}:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	finished := make(chan struct{})
	for _, l := range labellers {
		go func() {
			defer func() { finished <- struct{}{} }()
			for j := range jobs {
				g, st, err := l.Label(ctx, j.src.Number, j.src.Game, j.src.Result)
				select {
				case results <- result{j.seq, g, st, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		for range labellers {
			<-finished
		}
		close(results)
	}()

	// Write in order: a result waits in pending until those before it
	// are written.
	pending := map[int]result{}
	next := 0
	var firstErr error
	for r := range results {
		if firstErr != nil {
			continue // draining
		}
		pending[r.seq] = r
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if p.err == nil {
				p.err = w.Write(p.game)
			}
			if p.err != nil {
				firstErr = p.err
				cancel()
				break
			}
			total.Add(p.stats)
			if cfg.Progress != nil {
				cfg.Progress(total)
			}
		}
	}
	if err := <-feedErr; firstErr == nil {
		firstErr = err
	}
	if firstErr == nil {
		firstErr = parent.Err() // stopped while no game was being labelled
	}
	return total, firstErr
}

// feed hands each game of src to send, numbered in order, passing over
// those done holds and those whose moves were played before; it stops when
// send reports false, and returns src's error (nil at its end, or when
// stopped).
func feed(ctx context.Context, src Games, done []*Game, send func(int, Source) bool) error {
	numbers := make(map[int]bool, len(done))
	played := make(map[uint64]bool, len(done))
	for _, g := range done {
		numbers[g.Number] = true
		played[movesKey(g.Type, g.Moves)] = true
	}
	for seq := 0; ; {
		s, err := src.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		case ctx.Err() != nil:
			return nil
		}
		if numbers[s.Number] {
			continue
		}
		key := movesKey(s.Game.Type(), s.Game.History())
		if played[key] {
			continue
		}
		played[key] = true
		if !send(seq, s) {
			return nil
		}
		seq++
	}
}

// movesKey identifies a game by its type and moves.
func movesKey(t core.GameType, moves []core.Move) uint64 {
	h := fnv.New64a()
	b := make([]byte, 0, 1+2*len(moves))
	b = append(b, byte(t))
	for _, m := range moves {
		b = append(b, byte(m), byte(m>>8))
	}
	h.Write(b)
	return h.Sum64()
}

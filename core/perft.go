package core

import (
	"context"
	"sync"
	"sync/atomic"
)

// Perft counts the positions reached after exactly depth plies, the standard
// check of a move generator against published counts. A finished game has no
// children. The last ply is counted, not played ("bulk counting").
func (g *Game) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var l MoveList
	if depth == 1 {
		return uint64(g.countMoves(&l))
	}
	g.GenerateMoves(&l)
	var nodes uint64
	for _, m := range l.moves[:l.n] {
		g.Play(m)
		nodes += g.Perft(depth - 1)
		g.Undo()
	}
	return nodes
}

// PerftParallel counts like Perft with the work spread over threads
// goroutines, each on its own copy of the game: the tree is cut into the
// subtrees below every sequence of the first few plies, enough of them to
// keep every thread busy to the end, and the threads take them in turn.
func (g *Game) PerftParallel(depth, threads int) uint64 {
	if threads <= 1 || depth < 3 {
		return g.Perft(depth)
	}
	prefixes, split := g.split(depth, 32*threads)
	var (
		next   atomic.Int64
		total  atomic.Uint64
		worker sync.WaitGroup
	)
	for range threads {
		worker.Add(1)
		go func() {
			defer worker.Done()
			c := g.Clone()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(prefixes) {
					return
				}
				for _, m := range prefixes[i] {
					c.Play(m)
				}
				total.Add(c.Perft(depth - split))
				for range prefixes[i] {
					c.Undo()
				}
			}
		}()
	}
	worker.Wait()
	return total.Load()
}

// prefixes appends to out every sequence of n legal moves from the current
// position that does not pass through a finished game.
func (g *Game) prefixes(n int, path []Move, out [][]Move) [][]Move {
	if n == 0 {
		return append(out, append([]Move(nil), path...))
	}
	var l MoveList
	g.GenerateMoves(&l)
	for _, m := range l.moves[:l.n] {
		g.Play(m)
		out = g.prefixes(n-1, append(path, m), out)
		g.Undo()
	}
	return out
}

// split cuts the tree of a perft of depth plies (at least 2) into the
// subtrees below every sequence of the first few plies: as few plies as
// give at least want subtrees, and at most depth-1. It returns the
// sequences and their length.
func (g *Game) split(depth, want int) ([][]Move, int) {
	var prefixes [][]Move
	split := 1
	for ; split < depth-1; split++ {
		prefixes = g.prefixes(split, nil, prefixes[:0])
		if len(prefixes) >= want {
			return prefixes, split
		}
	}
	return g.prefixes(split, nil, prefixes[:0]), split
}

// stopDepth is the depth of the subtrees PerftContext counts without
// looking at its context: perft 3 of a crowded Base+MLP middlegame takes
// about ten milliseconds (ten times that under the race detector), so a
// cancellation is seen well within a second, while the looks, one for each
// such subtree rather than one for each node, cost nothing measurable.
const stopDepth = 3

// PerftContext counts like PerftParallel, and stops within about a second
// of ctx being done, returning ctx.Err(): a perft deep enough to run for
// hours must end when whoever asked for it has gone. The tree is cut into
// subtrees (at least 64 for each thread) even on one thread, and ctx is
// looked at before each subtree and again before each perft of stopDepth
// plies within it; Perft's own recursion below that is left as it is. A
// count that finishes is returned with a nil error even if ctx is done by
// then.
func (g *Game) PerftContext(ctx context.Context, depth, threads int) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if depth < 3 {
		return g.Perft(depth), nil
	}
	threads = max(threads, 1)
	prefixes, split := g.split(depth, 64*threads)
	var (
		next    atomic.Int64
		total   atomic.Uint64
		stopped atomic.Bool
		workers sync.WaitGroup
	)
	done := ctx.Done()
	for range threads {
		workers.Go(func() {
			c := g.Clone()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(prefixes) {
					return
				}
				if isDone(done) {
					stopped.Store(true)
					return
				}
				for _, m := range prefixes[i] {
					c.Play(m)
				}
				n, ok := c.perftUntil(depth-split, done)
				for range prefixes[i] {
					c.Undo()
				}
				if !ok {
					stopped.Store(true)
					return
				}
				total.Add(n)
			}
		})
	}
	workers.Wait()
	if stopped.Load() {
		return 0, ctx.Err()
	}
	return total.Load(), nil
}

// perftUntil counts like Perft, but looks at done before each subtree of
// more than stopDepth plies' children, and gives up (false) once it is
// closed.
func (g *Game) perftUntil(depth int, done <-chan struct{}) (uint64, bool) {
	if depth <= stopDepth {
		return g.Perft(depth), true
	}
	var l MoveList
	g.GenerateMoves(&l)
	var nodes uint64
	for _, m := range l.moves[:l.n] {
		if isDone(done) {
			return 0, false
		}
		g.Play(m)
		n, ok := g.perftUntil(depth-1, done)
		g.Undo()
		if !ok {
			return 0, false
		}
		nodes += n
	}
	return nodes, true
}

// isDone reports whether done is closed; a nil done (a context that is
// never done) never is.
func isDone(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

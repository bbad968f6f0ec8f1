package core

import (
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
	var prefixes [][]Move
	split := 1
	for ; split < depth-1; split++ {
		prefixes = g.prefixes(split, nil, prefixes[:0])
		if len(prefixes) >= 32*threads {
			break
		}
	}
	if split == depth-1 {
		prefixes = g.prefixes(split, nil, prefixes[:0])
	}
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

package core_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// midgamePositions returns n games of Base+MLP, each played from the start
// by uniformly random legal moves (fixed seed) to a position 24 to 40 plies
// in that is still in progress: many pieces on the board, stacks, Pillbug
// throws available, as in real middlegames.
func midgamePositions(tb testing.TB, n int) []*core.Game {
	tb.Helper()
	rng := rand.New(rand.NewPCG(2026, 11))
	var games []*core.Game
	var l core.MoveList
	for len(games) < n {
		g := core.NewGame(core.WithMosquito | core.WithLadybug | core.WithPillbug)
		plies := 24 + rng.IntN(17)
		for g.Ply() < plies && !g.Over() {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		if !g.Over() {
			games = append(games, g)
		}
	}
	return games
}

// BenchmarkPerftStartMLP6 is the speed target: perft 6 from the start of
// Base+MLP (192,353,904 leaves), one thread, leaves counted in bulk.
func BenchmarkPerftStartMLP6(b *testing.B) {
	g := core.NewGame(core.WithMosquito | core.WithLadybug | core.WithPillbug)
	b.ReportAllocs()
	for b.Loop() {
		if n := g.Perft(6); n != 192353904 {
			b.Fatalf("perft 6 = %d", n)
		}
	}
}

// BenchmarkPerftMidgame runs perft 3 from midgame positions.
func BenchmarkPerftMidgame(b *testing.B) {
	games := midgamePositions(b, 16)
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		for _, g := range games {
			nodes += g.Perft(3)
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkGenerateMovesMidgame measures move generation alone on
// midgame positions.
func BenchmarkGenerateMovesMidgame(b *testing.B) {
	games := midgamePositions(b, 64)
	var l core.MoveList
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range games {
			g.GenerateMoves(&l)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(games)), "ns/position")
}

// BenchmarkPlayUndo measures making and taking back every legal move of
// midgame positions.
func BenchmarkPlayUndo(b *testing.B) {
	games := midgamePositions(b, 64)
	lists := make([]core.MoveList, len(games))
	for i, g := range games {
		g.GenerateMoves(&lists[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, g := range games {
			for _, m := range lists[i].Moves() {
				g.Play(m)
				g.Undo()
			}
		}
	}
}

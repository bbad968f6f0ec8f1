package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// BenchmarkEvaluateChild times what the search pays to evaluate a child
// of a position it has evaluated: a move pushed and played, the
// accumulators brought up to date, the dense counts and the head, the move
// taken back. Midgame Base+MLP positions, a random network.
func BenchmarkEvaluateChild(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	net := randomNet(rng)
	games := randomGames(rng, 16, core.AllExpansions)
	type pos struct {
		g     *core.Game
		a     *Accumulators
		moves []core.Move
	}
	var ps []pos
	var l core.MoveList
	for _, g := range games {
		a := NewAccumulators(net, 8)
		a.Reset(g)
		a.Evaluate(g)
		g.GenerateMoves(&l)
		ps = append(ps, pos{g, a, append([]core.Move(nil), l.Moves()...)})
	}
	sum, evals := 0, 0
	for b.Loop() {
		for _, p := range ps {
			for _, m := range p.moves {
				p.a.Push(p.g, m)
				p.g.Play(m)
				sum += p.a.Evaluate(p.g)
				p.a.Pop()
				p.g.Undo()
				evals++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(evals), "ns/eval")
	_ = sum
}

// BenchmarkHead times the head alone on the accumulators of midgame
// positions.
func BenchmarkHead(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	net := randomNet(rng)
	type in struct {
		us, them       accRow
		me             core.Color
		movable, stuck uint32
	}
	var ins []in
	for _, g := range randomGames(rng, 64, core.AllExpansions) {
		a := NewAccumulators(net, 1)
		a.Reset(g)
		x := in{me: g.ToMove()}
		x.us, x.them = a.frames[0].acc[x.me], a.frames[0].acc[x.me.Other()]
		x.movable, x.stuck = mobility(g)
		ins = append(ins, x)
	}
	sum := 0
	for b.Loop() {
		for i := range ins {
			x := &ins[i]
			sum += net.output(&x.us, &x.them, x.me, x.movable, x.stuck)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ins)), "ns/head")
	_ = sum
}

package ai_test

import (
	"context"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

const mlp = core.WithMosquito | core.WithLadybug | core.WithPillbug

// BenchmarkSearchMidgame searches midgame Base+MLP positions (30 to 40
// plies of random play, fixed seed) to depth 4 with a fresh table each
// time, on one thread, and reports the search speed.
func BenchmarkSearchMidgame(b *testing.B) {
	games := randomPositions(b, mlp, 8, 30, 40, 2026)
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range games {
			nodes += ai.New(1, 4).Search(context.Background(), g, ai.Limits{Depth: 4}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkEvaluate evaluates midgame positions of every game type.
func BenchmarkEvaluate(b *testing.B) {
	var games []*core.Game
	for t := core.GameType(0); t < core.AllGameTypes; t++ {
		games = append(games, randomPositions(b, t, 8, 20, 50, 4)...)
	}
	sum := 0
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range games {
			sum += ai.Evaluate(g)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(games)), "ns/eval")
	_ = sum
}

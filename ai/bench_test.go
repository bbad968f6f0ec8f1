package ai_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

const mlp = core.WithMosquito | core.WithLadybug | core.WithPillbug

// BenchmarkSearchMidgame searches midgame Base+MLP positions (30 to 40
// plies of random play, fixed seed) to depth 4 with a fresh table each
// time, on one thread, and reports the search speed: nodes per second of
// wall time, and per second of the process's CPU time, which is the figure
// that means something on a machine shared with other work.
func BenchmarkSearchMidgame(b *testing.B) {
	games := randomPositions(b, mlp, 8, 30, 40, 2026)
	var nodes uint64
	cpu0 := cpuTime()
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range games {
			nodes += ai.New(1, 4).Search(context.Background(), g, ai.Limits{Depth: 4}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	}
}

// BenchmarkTimeToDepth searches the positions of BenchmarkSearchMidgame to
// depth 7 with a 64 MB table, on one and on two threads, and reports the
// mean time per position (wall and CPU): the figure that says whether the
// search reaches its depth sooner, whatever it counts as a node. The
// 2-thread speed-up is the ratio of the two wall times.
func BenchmarkTimeToDepth(b *testing.B) {
	games := randomPositions(b, mlp, 8, 30, 40, 2026)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				for _, g := range games {
					ai.New(threads, 64).Search(context.Background(), g, ai.Limits{Depth: 7}, nil)
				}
			}
			n := float64(b.N * len(games))
			b.ReportMetric(b.Elapsed().Seconds()*1000/n, "ms/position")
			b.ReportMetric((cpuTime()-cpu0).Seconds()*1000/n, "cpu-ms/position")
		})
	}
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

package ai_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

const mlp = core.WithMosquito | core.WithLadybug | core.WithPillbug

// BenchmarkSearchMidgame searches midgame Base+MLP positions (30 to 40
// plies of random play, fixed seed) to depth 4 with an emptied table and
// history each time (Clear, what a new game does), on one thread, and
// reports the search speed: nodes per second of wall time, and per second
// of the process's CPU time, which is the figure that means something on a
// machine shared with other work. One Searcher serves every search, as one
// serves a whole session: a new Searcher per search would measure the
// allocation of its table and scratch space (and the garbage collector)
// more than the search. It runs once with each static evaluation
// (eval=linear, eval=nnue), so that their speeds stand side by side; the
// two search different trees, since they score positions differently.
func BenchmarkSearchMidgame(b *testing.B) {
	games := randomPositions(b, mlp, 8, 30, 40, 2026)
	for _, eval := range []string{ai.EvalLinear, ai.EvalNNUE} {
		b.Run("eval="+eval, func(b *testing.B) {
			s := ai.New(1, 4)
			if err := s.SetEval(eval); err != nil {
				b.Fatal(err)
			}
			var nodes uint64
			cpu0 := cpuTime()
			b.ReportAllocs()
			for b.Loop() {
				for _, g := range games {
					s.Clear()
					nodes += s.Search(context.Background(), g, ai.Limits{Depth: 4}, nil).Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
			}
		})
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

// BenchmarkDeadline searches the positions of BenchmarkSearchMidgame (and
// those a few plies on) with 20 ms each, one thread, and reports by how
// much the searches overran that time: the mean and the worst. A timing
// figure to watch, not a test: on a loaded machine the operating system
// decides more of it than the searcher does.
func BenchmarkDeadline(b *testing.B) {
	games := randomPositions(b, mlp, 32, 20, 50, 2027)
	const limit = 20 * time.Millisecond
	s := ai.New(1, 16)
	var total, worst time.Duration
	n := 0
	for b.Loop() {
		for _, g := range games {
			start := time.Now()
			s.Search(context.Background(), g, ai.Limits{Time: limit}, nil)
			over := max(time.Since(start)-limit, 0)
			total += over
			worst = max(worst, over)
			n++
		}
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "ms-over-mean")
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms-over-worst")
}

// BenchmarkTimeLimit searches positions of every game type (10 to 60 plies
// of random play, fixed seed) with a time limit of 1 ms and of 100 ms, on
// one thread and on two, and reports the slowest return (a search should
// return within its limit plus 50 ms: a 100 ms search within 150 ms), the
// mean depth reached and the mean nodes searched. These are figures to
// watch, not a test (it was one that only logged them): a wall-clock
// assertion fails on a loaded machine, where the operating system, not the
// searcher, decides when a thread runs.
func BenchmarkTimeLimit(b *testing.B) {
	var games []*core.Game
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		games = append(games, randomPositions(b, gt, 2, 10, 60, 17)...)
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			s := ai.New(threads, 32)
			for _, limit := range []time.Duration{time.Millisecond, 100 * time.Millisecond} {
				b.Run(fmt.Sprintf("limit=%v", limit), func(b *testing.B) {
					var worst time.Duration
					var depths, nodes uint64
					searches := 0
					for b.Loop() {
						for _, g := range games {
							start := time.Now()
							info := s.Search(context.Background(), g, ai.Limits{Time: limit}, nil)
							worst = max(worst, time.Since(start))
							depths += uint64(info.Depth)
							nodes += info.Nodes
							searches++
						}
					}
					b.ReportMetric(float64(worst.Microseconds())/1000, "ms-slowest")
					b.ReportMetric(float64(depths)/float64(searches), "depth/search")
					b.ReportMetric(float64(nodes)/float64(searches), "nodes/search")
				})
			}
		})
	}
}

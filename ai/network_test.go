package ai_test

import (
	"context"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
)

// TestNetworkScoresLeaves checks that a searcher set to the network
// scores with it: a depth-1 search's score is the best over the moves of
// minus the network's score of the position each leads to (as a fresh
// set of accumulators computes it), or of a win when the opponent can then
// close the last cell around a Queen, for positions of every game type.
func TestNetworkScoresLeaves(t *testing.T) {
	net := nnue.Default()
	s := ai.New(1, 1)
	if err := s.SetEval(ai.EvalNNUE); err != nil {
		t.Fatal(err)
	}
	a := nnue.NewAccumulators(net, 1)
	var l core.MoveList
	checked := 0
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for _, g := range randomPositions(t, gt, 3, 10, 50, 31) {
			g.GenerateMoves(&l)
			if l.Len() < 2 {
				continue
			}
			want := -ai.MateScore
			for _, m := range l.Moves() {
				g.Play(m)
				var score int
				switch {
				case g.Over():
					score = 0
					if g.Result() == winFor(g.ToMove().Other()) {
						score = ai.MateScore - 1
					} else if g.Result() != core.Draw {
						score = -ai.MateScore + 1
					}
				case ai.WinsNow(g):
					score = -(ai.MateScore - 2)
				default:
					a.Reset(g)
					score = -min(max(a.Evaluate(g), -20000), 20000)
				}
				want = max(want, score)
				g.Undo()
			}
			s.Clear()
			if got := s.Search(context.Background(), g, ai.Limits{Depth: 1}, nil).Score; got != want {
				t.Errorf("type %d ply %d: depth-1 score %d, the network's best %d", gt, g.Ply(), got, want)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d positions", checked)
	}
}

// TestNetworkSearchThreads searches midgame positions with the network on
// two threads, deep enough that the helper thread plays thousands of
// moves on its own accumulators: every search must return a legal move,
// and none must find its accumulators out of step with its game (which
// panics). Under the race detector, it checks that the threads share the
// network read-only.
func TestNetworkSearchThreads(t *testing.T) {
	s := ai.New(2, 4)
	if err := s.SetEval(ai.EvalNNUE); err != nil {
		t.Fatal(err)
	}
	depth := 5
	if testing.Short() || raceDetector {
		depth = 3
	}
	for _, g := range randomPositions(t, mlp, 4, 20, 40, 32) {
		info := s.Search(context.Background(), g, ai.Limits{Depth: depth, MultiPV: 2}, nil)
		if !g.Legal(info.Move) {
			t.Fatalf("ply %d: illegal move %v", g.Ply(), info.Move)
		}
	}
	if err := s.SetEval("quadratic"); err == nil {
		t.Error("an unknown evaluation was accepted")
	}
	if err := s.SetEval(ai.EvalLinear); err != nil {
		t.Error(err)
	}
}

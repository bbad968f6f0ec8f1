package ai_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// TestEvaluateIsWeightedFeatures checks that Evaluate, which sums as it
// goes for speed, is the dot product of Extract's features and Weights,
// which the tuner fits: over every position of random games of every game
// type, and with both colours to move.
func TestEvaluateIsWeightedFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	w := ai.Weights()
	var l core.MoveList
	var f ai.Features
	for i := 0; i < 200; i++ {
		g := core.NewGame(core.GameType(i) % core.AllGameTypes)
		for !g.Over() && g.Ply() < 90 {
			ai.Extract(g, &f)
			want := 0
			for j, x := range f {
				want += x * int(w[j])
			}
			if got := ai.Evaluate(g); got != want {
				t.Fatalf("game %d ply %d: Evaluate %d, features·weights %d", i, g.Ply(), got, want)
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
}

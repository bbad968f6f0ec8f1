package texel

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// TestFitRecoversWeights fits weights to positions whose results were
// drawn from known weights (only the Ant's mobility and the Queen's fifth
// neighbour matter): the fit must cut the error and move both weights
// towards their true values from a start far off.
func TestFitRecoversWeights(t *testing.T) {
	const k = 0.01
	rng := rand.New(rand.NewPCG(1, 1))
	var truth Weights
	truth[ai.FeatMobile+int(core.Ant)] = 60
	truth[ai.FeatQueenDanger1+4] = -200
	var samples []Sample
	for range 4000 {
		var s Sample
		s.F[ai.FeatMobile+int(core.Ant)] = rng.IntN(7) - 3
		s.F[ai.FeatQueenDanger1+4] = rng.IntN(3) - 1
		s.F[ai.FeatTempo] = 1
		if rng.Float64() < sigmoid(k*dot(&s.F, &truth)) {
			s.Result = 1
		}
		samples = append(samples, s)
	}
	var w Weights
	before := Error(samples, &w, k)
	Fit(samples, &w, k, 0, 1500, nil)
	if after := Error(samples, &w, k); after >= before {
		t.Fatalf("error %f -> %f: the fit did not improve", before, after)
	}
	ant, danger := w[ai.FeatMobile+int(core.Ant)], w[ai.FeatQueenDanger1+4]
	if ant < 40 || ant > 80 || danger > -140 || danger < -260 {
		t.Errorf("fitted Ant mobility %.1f (true 60), fifth Queen neighbour %.1f (true -200)", ant, danger)
	}
}

// TestCollectLabels replays a finished game and labels each position for
// its side to move: the winner's positions 1, the loser's 0.
func TestCollectLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var l core.MoveList
	for {
		g := core.NewGame(0)
		for !g.Over() {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		if g.Result() != core.WhiteWins {
			continue
		}
		samples := Collect(nil, g, g.Result(), 0)
		if len(samples) < 10 {
			t.Fatalf("%d samples from a game of %d plies", len(samples), g.Ply())
		}
		for i, s := range samples {
			if s.F[ai.FeatTempo] != 1 {
				t.Fatalf("sample %d: tempo feature %d", i, s.F[ai.FeatTempo])
			}
		}
		whites := 0
		for _, s := range samples {
			if s.Result == 1 {
				whites++
			}
		}
		if d := 2*whites - len(samples); d < -1 || d > 1 {
			t.Errorf("%d of %d samples labelled won: want White's half", whites, len(samples))
		}
		return
	}
}

package analysis_test

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate/analysis"
	"github.com/hivebridge/hivebridge/translate/records"
)

// TestFitRecoversAKnownCurve draws results from a curve chosen here, wins,
// draws and losses, and fits them: the fit lands within three of its
// standard errors of the curve they were drawn from.
func TestFitRecoversAKnownCurve(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	const k, c = 0.0075, 20.0
	var samples []analysis.Sample
	for range 20000 {
		centi := rng.IntN(1201) - 600
		p := 1 / (1 + math.Exp(-k*(float64(centi)-c)))
		// Draws, up to one game in five where the game is even, and
		// wins with the chance that keeps the expected score p: w + d/2.
		d := 0.4 * min(p, 1-p)
		result := 0.0
		switch u := rng.Float64(); {
		case u < d:
			result = 0.5
		case u < d+p-d/2:
			result = 1
		}
		samples = append(samples, analysis.Sample{Centi: centi, Result: result, Weight: 1})
	}
	f, err := analysis.Fit(samples)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("drawn from K %g, C %g; fitted %v", k, c, f)
	if math.Abs(f.K-k) > 3*f.KErr || math.Abs(f.C-c) > 3*f.CErr {
		t.Errorf("fitted %v, drawn from K %g, C %g", f, k, c)
	}
	if f.Samples != len(samples) || f.KErr <= 0 || f.CErr <= 0 || f.LogLikelihood >= 0 {
		t.Errorf("fit %+v", f)
	}
}

// TestFitRefusesWhatIsNoCurve: no samples, one result only, and results
// that fall as scores rise are errors, not curves.
func TestFitRefusesWhatIsNoCurve(t *testing.T) {
	for name, samples := range map[string][]analysis.Sample{
		"none":          nil,
		"one score":     {{Centi: 10, Result: 1, Weight: 1}, {Centi: 10, Result: 0, Weight: 1}},
		"upside down":   {{-100, 1, 1}, {100, 0, 1}, {-50, 1, 1}, {50, 0.5, 1}, {0, 1, 1}, {10, 0, 1}},
		"all separated": {{Centi: -100, Result: 0, Weight: 1}, {Centi: 100, Result: 1, Weight: 1}},
	} {
		if f, err := analysis.Fit(samples); err == nil {
			t.Errorf("%s: fitted %v, want an error", name, f)
		}
	}
}

// TestFittedCurveFromTheSample refits the curve to the sample of the
// self-play games it was fitted to that testdata keeps (every fifth of the
// 500, from the first, with their scores and results as match --pgn wrote
// them): it lands near the constants, within three of the errors a fifth
// of the games leaves.
func TestFittedCurveFromTheSample(t *testing.T) {
	data, err := os.ReadFile("testdata/selfplay-sample.pgn")
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := records.Read("selfplay-sample.pgn", data)
	if len(errs) > 0 || len(recs) != 100 {
		t.Fatalf("%d games, errors %v", len(recs), errs)
	}
	f, err := analysis.Fit(analysis.Samples(recs))
	if err != nil {
		t.Fatal(err)
	}
	want := analysis.Fitted()
	t.Logf("the sample: %v; the constants: %+v", f, want)
	if math.Abs(f.Weight-100) > 1e-9 || math.Abs(f.K-want.K) > 3*f.KErr || math.Abs(f.C-want.C) > 3*f.CErr {
		t.Errorf("the sample fits %v, far from the constants %+v", f, want)
	}
}

// TestFitAgreesWithTheScript: the sample's positions, weights and fit are
// those scripts/fit-curve.py, a separate reading and fit in Python, gives
// ("3694 positions of weight 100: K 0.013257817, C 2.983626609").
func TestFitAgreesWithTheScript(t *testing.T) {
	data, err := os.ReadFile("testdata/selfplay-sample.pgn")
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := records.Read("selfplay-sample.pgn", data)
	samples := analysis.Samples(recs)
	f, err := analysis.Fit(samples)
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 3694 || math.Abs(f.K-0.013257817) > 1e-9 || math.Abs(f.C-2.983626609) > 1e-6 {
		t.Errorf("%d positions, %v; the script gives 3694, K 0.013257817, C 2.983626609", len(samples), f)
	}
}

// TestSamplesReadMatchComments reads the comments match --pgn writes: the
// mover's score in pieces, and the result from the mover's side; forced
// results, moves without a score and unfinished games are left out.
func TestSamplesReadMatchComments(t *testing.T) {
	r, err := records.New(0, []string{"wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ"})
	if err != nil {
		t.Fatal(err)
	}
	r.Result = "BlackWins"
	r.Comments = []string{"", "-0.25@4 0.010s", "W3@3 0.001s", "1.50@5 0.020s", "@2"}
	unfinished := r
	unfinished.Result = ""
	got := analysis.Samples([]records.Record{r, unfinished})
	want := []analysis.Sample{{Centi: -25, Result: 1, Weight: 0.5}, {Centi: 150, Result: 1, Weight: 0.5}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("samples %v, want %v", got, want)
	}
}

// TestExpected: the curve's value at its centre is one half, a forced win
// is 1 and a forced loss 0 whatever the curve, and no score has none.
func TestExpected(t *testing.T) {
	c := analysis.Curve{K: 0.01, C: 30}
	for _, tc := range []struct {
		s    engine.Score
		want float64
		ok   bool
	}{
		{engine.EvalScore(30), 0.5, true}, {engine.EvalScore(130), 1 / (1 + math.Exp(-1)), true},
		{engine.WinIn(3), 1, true}, {engine.LossIn(0), 0, true}, {engine.Score{}, 0, false},
	} {
		if got, ok := c.Expected(tc.s); ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Expected(%+v) = %v, %v; want %v, %v", tc.s, got, ok, tc.want, tc.ok)
		}
	}
}

package referee_test

import (
	"math"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/translate/referee"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestEloAndLOS checks the formulas against values computed by hand:
//
//	60 wins, 20 losses, 20 draws: score (60 + 10)/100 = 0.7, Elo
//	-400·log10(1/0.7 - 1) = 147.19; per-game variance
//	0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.16, standard error √(0.16/100) = 0.04,
//	95% scores 0.7 ± 1.96·0.04 = [0.6216, 0.7784], Elo [86.2, 218.2],
//	half-width 66.01; LOS ½(1 + erf(40/√160)) = 0.999996.
func TestEloAndLOS(t *testing.T) {
	s := referee.Score{Wins: 60, Losses: 20, Draws: 20}
	if s.Games() != 100 || s.Points() != 70 || s.Ratio() != 0.7 {
		t.Fatalf("games %d points %g ratio %g", s.Games(), s.Points(), s.Ratio())
	}
	elo, margin := s.Elo()
	if !near(elo, 147.19, 0.01) || !near(margin, 66.01, 0.01) {
		t.Errorf("Elo = %.3f ± %.3f, want 147.19 ± 66.01", elo, margin)
	}
	if los := s.LOS(); !near(los, 0.999996, 1e-6) {
		t.Errorf("LOS = %.7f, want 0.999996", los)
	}

	for _, tc := range []struct {
		s       referee.Score
		los     float64
		elo     float64
		margin  float64 // NaN: undefined; Inf: the interval reaches 0 or 1
		comment string
	}{
		{referee.Score{Wins: 30, Losses: 30, Draws: 40}, 0.5, 0, 53.16, "wins = losses: LOS exactly ½, Elo 0; variance 0.3·¼·2 = 0.15"},
		{referee.Score{Draws: 7}, 0.5, 0, math.NaN(), "all draws: no interval"},
		{referee.Score{Wins: 30, Losses: 25, Draws: 45}, 0.749908, 17.39, 50.88, "½(1+erf(5/√110)); score 0.525"},
		{referee.Score{Wins: 10, Losses: 1}, 0.996672, 400, math.Inf(1), "10 of 11: the interval passes 1"},
		{referee.Score{}, 0.5, 0, math.NaN(), "no game"},
	} {
		elo, margin := tc.s.Elo()
		if los := tc.s.LOS(); !near(los, tc.los, 1e-3) {
			t.Errorf("%s: LOS = %.6f, want %.6f", tc.comment, los, tc.los)
		}
		if !near(elo, tc.elo, 0.1) && !(tc.elo == 400 && near(elo, 400, 0.5)) {
			t.Errorf("%s: Elo = %.3f, want %.3f", tc.comment, elo, tc.elo)
		}
		switch {
		case math.IsNaN(tc.margin):
			if !math.IsNaN(margin) {
				t.Errorf("%s: margin = %v, want NaN", tc.comment, margin)
			}
		case math.IsInf(tc.margin, 1):
			if !math.IsInf(margin, 1) {
				t.Errorf("%s: margin = %v, want +Inf", tc.comment, margin)
			}
		case !near(margin, tc.margin, 0.1):
			t.Errorf("%s: margin = %.3f, want %.3f", tc.comment, margin, tc.margin)
		}
	}

	// -400·log10(1/s - 1) at a few scores.
	for score, want := range map[float64]float64{0.5: 0, 0.75: 190.85, 0.25: -190.85, 0.9: 381.70} {
		if got := referee.EloDiff(score); !near(got, want, 0.01) {
			t.Errorf("EloDiff(%g) = %.3f, want %.2f", score, got, want)
		}
	}
	if got := referee.EloDiff(0.5); math.Signbit(got) {
		t.Errorf("EloDiff(0.5) = -0, which prints as -0.0")
	}
	if !math.IsInf(referee.EloDiff(1), 1) || !math.IsInf(referee.EloDiff(0), -1) {
		t.Errorf("EloDiff(1), EloDiff(0) = %v, %v; want +Inf, -Inf", referee.EloDiff(1), referee.EloDiff(0))
	}
}

// TestSPRT checks the log-likelihood ratio against values computed by
// hand and, as a cross-check, against the exact trinomial GSPRT (the
// constrained maximum-likelihood ratio, solved numerically): 4307 wins,
// 4063 losses and 8620 draws for elo0=0, elo1=3 give 2.992 by the
// approximation (2.991 exact); 30/25/45 for 0,10 gives 0.1872 (0.1865).
func TestSPRT(t *testing.T) {
	test, err := referee.ParseSPRT("0,3")
	if err != nil {
		t.Fatal(err)
	}
	if test.Alpha != 0.05 || test.Beta != 0.05 {
		t.Fatalf("alpha, beta = %g, %g; want 0.05", test.Alpha, test.Beta)
	}
	lower, upper := test.Bounds()
	if !near(lower, -math.Log(19), 1e-9) || !near(upper, math.Log(19), 1e-9) {
		t.Errorf("Bounds = %.4f, %.4f; want ∓2.9444 (ln 19)", lower, upper)
	}
	if llr := test.LLR(referee.Score{Wins: 4307, Losses: 4063, Draws: 8620}); !near(llr, 2.9922, 1e-3) {
		t.Errorf("LLR(4307/4063/8620, 0..3) = %.4f, want 2.9922", llr)
	}
	test10, _ := referee.ParseSPRT(" 0 , 10 ")
	if llr := test10.LLR(referee.Score{Wins: 30, Losses: 25, Draws: 45}); !near(llr, 0.18717, 1e-4) {
		t.Errorf("LLR(30/25/45, 0..10) = %.5f, want 0.18717", llr)
	}
	// Equal wins and losses: the mean is ½, below the midpoint of s0 and
	// s1, so the evidence is for H0; with 0 and 400 that is
	// N·(s1-½)·(½-s1)/(2·¼) = -0.3347·N.
	test400, _ := referee.ParseSPRT("0,400")
	if llr := test400.LLR(referee.Score{Wins: 5, Losses: 5}); !near(llr, -3.347, 1e-3) {
		t.Errorf("LLR(5/5/0, 0..400) = %.4f, want -3.347", llr)
	}
	// Until A has both won and lost the test waits.
	for _, s := range []referee.Score{{}, {Wins: 50}, {Losses: 3, Draws: 9}, {Draws: 10}} {
		if llr := test.LLR(s); llr != 0 {
			t.Errorf("LLR(%+v) = %g, want 0", s, llr)
		}
	}

	// The state: H0 once below the lower bound, H1 above the upper, and
	// the verdict stands (the trinomial model, whose LLR this is).
	test400.Model, test10.Model = referee.SPRTTrinomial, referee.SPRTTrinomial
	st := referee.SPRTState{Test: test400}
	st.Update(referee.Stats{Total: referee.Score{Wins: 4, Losses: 4}})
	if st.Verdict != referee.SPRTContinue || !near(st.LLR, -2.678, 1e-3) {
		t.Errorf("after 4/4: %+v, want no verdict at LLR -2.678", st)
	}
	st.Update(referee.Stats{Total: referee.Score{Wins: 5, Losses: 5}})
	if st.Verdict != referee.SPRTH0 || st.Verdict.String() != "H0 accepted" {
		t.Errorf("after 5/5: %+v, want H0", st)
	}
	st.Update(referee.Stats{Total: referee.Score{Wins: 500, Losses: 5}})
	if st.Verdict != referee.SPRTH0 {
		t.Errorf("the verdict changed: %+v", st)
	}
	st = referee.SPRTState{Test: test10}
	st.Update(referee.Stats{Total: referee.Score{Wins: 40, Losses: 2, Draws: 3}})
	if st.Verdict != referee.SPRTH1 || st.LLR < st.Upper {
		t.Errorf("after 40/2/3: %+v, want H1", st)
	}

	// The pentanomial models decide by the pairs, and report the
	// trinomial LLR beside: fishtest's test 698432f5 (normalized Elo 0..2)
	// ended at LLR 2.98 with pairs [99, 3323, 8399, 3606, 109].
	normalized, err := referee.ParseSPRT("0,2,normalized")
	if err != nil || normalized.Model != referee.SPRTNormalized {
		t.Fatalf("ParseSPRT(0,2,normalized) = %+v, %v", normalized, err)
	}
	pairs := referee.PairCounts{LL: 99, LD: 3323, DD: 8399, WD: 3606, WW: 109}
	st = referee.SPRTState{Test: normalized}
	total := referee.Score{Wins: 3606 + 2*109, Losses: 2*99 + 3323, Draws: 3323 + 2*8399 + 3606}
	st.Update(referee.Stats{Total: total, Pairs: pairs})
	if st.Verdict != referee.SPRTH1 || !near(st.LLR, 2.98, 0.005) || st.Trinomial != normalized.LLR(total) {
		t.Errorf("normalized on fishtest's pairs: %+v, want H1 at LLR 2.98", st)
	}
	if logistic, _ := referee.ParseSPRT("0,2"); logistic.Model != referee.SPRTLogistic {
		t.Errorf("the default model is %v, want logistic", logistic.Model)
	}

	for in, want := range map[string]string{
		"10":               "want elo0,elo1",
		"0,5,bayes":        `unknown model "bayes"`,
		"0,5,normalized,x": "want elo0,elo1",
		"a,b":              "want two numbers",
		"10,0":             "must be less than",
		"5,5":              "must be less than",
		"0,5000":           "within ±1000",
	} {
		if _, err := referee.ParseSPRT(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSPRT(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

// TestMatchStatsAdd counts a game for engine A on its colour.
func TestMatchStatsAdd(t *testing.T) {
	var st referee.Stats
	for _, g := range []referee.GameRecord{
		{AWhite: true, Result: core.WhiteWins},  // A wins as White
		{AWhite: false, Result: core.WhiteWins}, // A loses as Black
		{AWhite: false, Result: core.BlackWins}, // A wins as Black
		{AWhite: true, Result: core.Draw},
	} {
		st.Add(g)
	}
	want := referee.Stats{
		AsWhite: referee.Score{Wins: 1, Draws: 1},
		AsBlack: referee.Score{Wins: 1, Losses: 1},
		Total:   referee.Score{Wins: 2, Losses: 1, Draws: 1},
	}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
}

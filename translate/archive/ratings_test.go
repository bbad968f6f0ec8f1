package archive

import (
	"math"
	"testing"
)

func games(white, black, result string, n int) []Outcome {
	out := make([]Outcome, n)
	for i := range out {
		out[i] = Outcome{White: white, Black: black, Result: result}
	}
	return out
}

func concat(parts ...[]Outcome) []Outcome {
	var out []Outcome
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestRatingsHandComputed: when every pair's share of wins is exactly the
// Bradley–Terry model's for strengths 9:3:1, those strengths are the
// maximum of the likelihood (each player's expected score equals its
// score), so the Elo differences are 400·log10 of the ratios: A−C =
// 400·log10 9 = 381.70 and B−C = 190.85, centred on their mean.
func TestRatingsHandComputed(t *testing.T) {
	outcomes := concat(
		games("A", "B", "WhiteWins", 2), games("B", "A", "BlackWins", 1), games("B", "A", "WhiteWins", 1), // A 3 : B 1
		games("B", "C", "WhiteWins", 3), games("C", "B", "WhiteWins", 1), // B 3 : C 1
		games("A", "C", "WhiteWins", 5), games("C", "A", "BlackWins", 4), games("C", "A", "WhiteWins", 1), // A 9 : C 1
		games(Viewer, "A", "BlackWins", 5), // people are not rated
	)
	r := Ratings(outcomes)
	want := map[string]float64{"A": 190.849, "B": 0, "C": -190.849}
	if len(r) != 3 {
		t.Fatalf("%+v, want A, B and C", r)
	}
	for i, name := range []string{"A", "B", "C"} {
		if r[i].Player != name || !near(r[i].Elo, want[name], 0.01) || !(r[i].Low < r[i].Elo && r[i].Elo < r[i].High) {
			t.Errorf("rank %d: %+v, want %s at %.3f", i, r[i], name, want[name])
		}
	}
	if r[0].Games != 14 || r[0].Score != 12 {
		t.Errorf("A: %d games, score %v, want 14 and 12", r[0].Games, r[0].Score)
	}
}

// TestRatingsInterval: A wins 3 of 4 against B. The difference is
// 400·log10 3 = 190.85, so each is 95.42 from the centre; the Fisher
// information of the difference is n·p·(1−p) = 4·¾·¼ = 0.75, its standard
// deviation 1/√0.75 = 1.1547 nats, half that for each centred rating:
// 0.57735 nats = 100.30 Elo, and the 95% interval ±1.96 of it = ±196.59.
func TestRatingsInterval(t *testing.T) {
	r := Ratings(concat(games("A", "B", "WhiteWins", 2), games("B", "A", "BlackWins", 1), games("A", "B", "BlackWins", 1)))
	if len(r) != 2 || r[0].Player != "A" || !near(r[0].Elo, 95.424, 0.01) || !near(r[1].Elo, -95.424, 0.01) {
		t.Fatalf("%+v", r)
	}
	if !near(r[0].High-r[0].Elo, 196.59, 0.05) || !near(r[0].Elo-r[0].Low, 196.59, 0.05) {
		t.Errorf("A's interval %.2f..%.2f, want ±196.59 around %.2f", r[0].Low, r[0].High, r[0].Elo)
	}
}

// TestRatingsDrawsAndPerfectScores: draws are half a win each; a player
// who won every game has no finite rating and is rated apart.
func TestRatingsDrawsAndPerfectScores(t *testing.T) {
	r := Ratings(concat(
		games("A", "B", "WhiteWins", 1), games("A", "B", "Draw", 2), games("B", "A", "WhiteWins", 1),
		games("D", "A", "WhiteWins", 3),
	))
	if len(r) != 3 || r[0].Player != "D" || !math.IsInf(r[0].Elo, 1) || r[0].Note == "" {
		t.Fatalf("%+v, want D first, unbounded", r)
	}
	for _, x := range r[1:] {
		if !near(x.Elo, 0, 1e-6) {
			t.Errorf("%+v: A and B scored evenly between themselves", x)
		}
	}
}

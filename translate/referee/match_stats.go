package referee

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The statistics of a match are engine A's, in the logistic (Elo) model
// that chess engine testers share, so that a Hive engine author reads them
// as they would read cutechess-cli's: a score s is worth an Elo difference
// of -400·log10(1/s - 1).

// Score counts one engine's wins, losses and draws.
type Score struct {
	Wins, Losses, Draws int
}

// Games is the number of games counted.
func (s Score) Games() int { return s.Wins + s.Losses + s.Draws }

// Points is a win's point plus half a point a draw.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Ratio is the points per game, 0 to 1 (NaN with no game).
func (s Score) Ratio() float64 { return s.Points() / float64(s.Games()) }

// variance is the variance of one game's result (1, ½ or 0) in the
// trinomial model with the observed frequencies: each outcome weighted by
// its frequency, its distance from the mean squared.
func (s Score) variance() float64 {
	n := float64(s.Games())
	mean := s.Ratio()
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	return w*(1-mean)*(1-mean) + d*(0.5-mean)*(0.5-mean) + l*mean*mean
}

// EloDiff is the Elo difference that the logistic model gives a score:
// ±Inf for a score of 1 or 0.
func EloDiff(score float64) float64 {
	if score == 0.5 {
		return 0 // not -0, which would print as "-0.0"
	}
	return -400 * math.Log10(1/score-1)
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// Elo returns the Elo difference of the score and the half-width of its 95%
// interval: the score's normal interval (mean ± 1.96 standard errors, from
// the trinomial variance) mapped through EloDiff, its width halved, as
// cutechess-cli reports it. The margin is NaN when every game had the same
// result (the variance gives no interval) and Inf when the interval reaches
// a score of 0 or 1.
func (s Score) Elo() (diff, margin float64) {
	n := s.Games()
	if n == 0 {
		return 0, math.NaN()
	}
	mean := s.Ratio()
	diff = EloDiff(mean)
	v := s.variance()
	if v == 0 {
		return diff, math.NaN()
	}
	dev := z95 * math.Sqrt(v/float64(n))
	lo, hi := mean-dev, mean+dev
	if lo <= 0 || hi >= 1 {
		return diff, math.Inf(1)
	}
	return diff, (EloDiff(hi) - EloDiff(lo)) / 2
}

// LOS is the likelihood of superiority: the probability that the engine is
// the stronger, from its wins and losses alone (draws say nothing about
// it), 0.5·(1 + erf((W-L)/√(2(W+L)))). It is ½ with no decisive game.
func (s Score) LOS() float64 {
	decisive := float64(s.Wins + s.Losses)
	if decisive == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(s.Wins-s.Losses)/math.Sqrt(2*decisive)))
}

// Stats are engine A's results in a match, by colour and in all, and by
// game pair.
type Stats struct {
	AsWhite, AsBlack, Total Score
	// Pairs count the pairs both of whose games have finished (see
	// pairing); a match counts them as its games come in.
	Pairs PairCounts
}

// Add counts a finished game; a void one counts in no score.
func (st *Stats) Add(r GameRecord) {
	if r.Void() {
		return
	}
	side := &st.AsBlack
	if r.AWhite {
		side = &st.AsWhite
	}
	for _, s := range []*Score{side, &st.Total} {
		switch r.AScore() {
		case 1:
			s.Wins++
		case 0:
			s.Losses++
		default:
			s.Draws++
		}
	}
}

// SPRT is a sequential probability ratio test of engine A's strength: H0,
// A is Elo0 stronger than B, against H1, A is Elo1 stronger, with error
// rates Alpha (accepting H1 when H0 holds) and Beta (the other way), in
// the Model's statistics. The match stops once it accepts one.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       SPRTModel
}

// SPRTModel is what a test's Elo means and what it counts.
type SPRTModel int

// The models. The first two test game pairs (the pentanomial model), whose
// two games from one opening cancel most of the opening's luck: the
// variance of a pair is what fishtest and fastchess measure, and a test
// decides sooner for it.
const (
	// SPRTLogistic tests logistic Elo on game pairs (fishtest's
	// LLR_logistic, fastchess's model=logistic).
	SPRTLogistic SPRTModel = iota
	// SPRTNormalized tests normalized Elo (nElo: the score's distance from
	// ½ in per-game standard deviations, times 800/ln 10) on game pairs:
	// fishtest's and fastchess's default, whose bounds mean the same at
	// any draw rate.
	SPRTNormalized
	// SPRTTrinomial tests logistic Elo on single games in the normal
	// approximation (LLR), as hivebridge did before it counted pairs.
	SPRTTrinomial
)

func (m SPRTModel) String() string {
	switch m {
	case SPRTNormalized:
		return "normalized"
	case SPRTTrinomial:
		return "trinomial"
	}
	return "logistic"
}

// Describe says what the model tests, for reports.
func (m SPRTModel) Describe() string {
	switch m {
	case SPRTNormalized:
		return "normalized Elo on game pairs"
	case SPRTTrinomial:
		return "Elo on single games"
	}
	return "Elo on game pairs"
}

// ParseSPRT reads "elo0,elo1[,model]", model logistic (the default),
// normalized or trinomial, with alpha and beta 0.05.
func ParseSPRT(s string) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) < 2 || len(parts) > 3 {
		return SPRT{}, fmt.Errorf("SPRT %q: want elo0,elo1 or elo0,elo1,model", s)
	}
	elo0, err0 := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
	elo1, err1 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
	if err0 != nil || err1 != nil {
		return SPRT{}, fmt.Errorf("SPRT %q: want two numbers, elo0,elo1", s)
	}
	t := SPRT{Elo0: elo0, Elo1: elo1, Alpha: 0.05, Beta: 0.05}
	if len(parts) == 3 {
		name := strings.TrimSpace(parts[2])
		for _, m := range []SPRTModel{SPRTLogistic, SPRTNormalized, SPRTTrinomial} {
			if strings.EqualFold(name, m.String()) {
				t.Model = m
				return t, t.check()
			}
		}
		return SPRT{}, fmt.Errorf("SPRT %q: unknown model %q: want logistic, normalized or trinomial", s, name)
	}
	return t, t.check()
}

func (t SPRT) check() error {
	switch {
	case !(t.Elo0 < t.Elo1):
		return fmt.Errorf("SPRT: elo0 (%g) must be less than elo1 (%g)", t.Elo0, t.Elo1)
	case math.Abs(t.Elo0) >= 1000 || math.Abs(t.Elo1) >= 1000:
		return fmt.Errorf("SPRT: the Elo bounds must lie within ±1000")
	case !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("SPRT: alpha and beta must lie between 0 and 0.5")
	}
	return nil
}

// Bounds are Wald's stopping bounds on the log-likelihood ratio:
// ln(β/(1-α)) below which H0 is accepted and ln((1-β)/α) above which H1 is.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of H1 against H0 after the games of s, in
// the normal approximation of the trinomial generalized SPRT (Van den
// Bergh's, the one fishtest's logistic test and its followers use): with
// the observed mean score m, per-game variance σ² and the scores s0, s1
// that Elo0 and Elo1 predict,
//
//	LLR = N·(s1-s0)·(2m - s0 - s1) / (2σ²).
//
// It is 0 until A has both won and lost a game: before that the variance
// of so few results is tiny or nil and would let two or three games decide
// the test (cutechess-cli likewise waits for every kind of result). A
// match that A wins or loses entirely thus runs all its games.
func (t SPRT) LLR(s Score) float64 {
	if s.Wins == 0 || s.Losses == 0 {
		return 0
	}
	n := s.Games()
	v := s.variance()
	s0, s1 := scoreOf(t.Elo0), scoreOf(t.Elo1)
	return float64(n) * (s1 - s0) * (2*s.Ratio() - s0 - s1) / (2 * v)
}

// scoreOf is the expected score of an Elo difference, the inverse of
// EloDiff.
func scoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// SPRTVerdict is the state of a test: going on, or a hypothesis accepted.
type SPRTVerdict int

// The verdicts.
const (
	SPRTContinue SPRTVerdict = iota
	SPRTH0                   // H0 accepted: A is not Elo1 stronger
	SPRTH1                   // H1 accepted: A is not merely Elo0 stronger
)

func (v SPRTVerdict) String() string {
	switch v {
	case SPRTH0:
		return "H0 accepted"
	case SPRTH1:
		return "H1 accepted"
	}
	return "no verdict yet"
}

// SPRTState is a test after some games.
type SPRTState struct {
	Test SPRT
	// LLR is the test's, in its Model, which decides; Trinomial is the
	// single games' LLR of the same Elo bounds (SPRT.LLR), beside it.
	LLR, Trinomial float64
	Lower, Upper   float64
	Verdict        SPRTVerdict
}

// Update recomputes the state from engine A's results; once a hypothesis
// is accepted the verdict stands.
func (st *SPRTState) Update(s Stats) {
	if st.Verdict != SPRTContinue {
		return
	}
	st.Lower, st.Upper = st.Test.Bounds()
	st.Trinomial = st.Test.LLR(s.Total)
	penta := s.Pairs.Pentanomial()
	switch st.Test.Model {
	case SPRTLogistic:
		st.LLR = llrLogistic(penta[:], st.Test.Elo0, st.Test.Elo1)
	case SPRTNormalized:
		st.LLR = llrNormalized(penta[:], st.Test.Elo0, st.Test.Elo1)
	default:
		st.LLR = st.Trinomial
	}
	switch {
	case st.LLR >= st.Upper:
		st.Verdict = SPRTH1
	case st.LLR <= st.Lower:
		st.Verdict = SPRTH0
	}
}

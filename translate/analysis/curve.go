package analysis

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate/records"
)

// Curve turns a score into an expected score (a win 1, a draw one half, a
// loss 0) for the side to move: E(s) = 1/(1+exp(-K*(s-C))), s in hundredths
// of a piece, the logistic curve chess engines fit to their games (lichess's
// winning chances are one). K is how fast a lead turns into wins, and C the
// score at which the side to move is even: not 0 when the searcher's scores
// lean to one side.
type Curve struct {
	K float64 `json:"k"`
	C float64 `json:"c"`
}

// The curve of the native searcher, fitted by maximum likelihood (Fit, on
// Samples) to the scored moves of 500 self-play games, engine A searching
// 5 plies and B 4, from random openings of 8 plies, made by
//
//	hivebridge match --white native --black native --white-tc depth=5 --black-tc depth=4 \
//	  --games 500 --random-plies 8 --gametype Base+MLP --seed 27 --db none --pgn selfplay.pgn
//	hivebridge analyze --fit selfplay.pgn
//
// (7.5 minutes on one core; A scored 73.1%, 43 games were drawn): 19,421
// positions of weight 500 gave K 0.014278 ± 0.001445 and C 2.7 ± 7.5, mean
// log-likelihood -0.5157. A lead of one piece is then worth 0.80. C is not
// told apart from 0, but is kept as fitted. testdata/selfplay-sample.pgn
// keeps every fifth of the games, from the first. Those games were played
// with the linear evaluation, the native engine's default then: the
// curve is the linear evaluation's, and a build whose native engine plays
// the network by default replays them only with --white-option
// Eval=linear --black-option Eval=linear (the same match without them
// gives the network's games, to fit its curve).
const (
	fittedK = 0.014278
	fittedC = 2.7
)

// Fitted returns the curve fitted to the native searcher's self-play games
// (see fittedK).
func Fitted() Curve { return Curve{K: fittedK, C: fittedC} }

// Expected returns the expected score of the side to move in a position
// scored s by its searcher: the curve's for an evaluation, 1 for a forced
// win and 0 for a forced loss; false when s is no score.
func (c Curve) Expected(s engine.Score) (float64, bool) {
	switch s.Kind {
	case engine.Win:
		return 1, true
	case engine.Loss:
		return 0, true
	case engine.Eval:
		return 1 / (1 + math.Exp(-c.K*(float64(s.Centi)-c.C))), true
	}
	return 0, false
}

// Sample is one position of a finished game: the score its side to move
// was given, in hundredths of a piece, and what that side scored in the
// end (1, 0.5 or 0), with the weight the fit gives it.
type Sample struct {
	Centi  int
	Result float64
	Weight float64
}

// Samples returns the positions of finished games whose moves carry the
// comments match --pgn writes ("0.35@7 0.982s": the mover's score in pieces
// at depth 7, and its time), one a scored move: the score of the position
// the move was played from, for the player who moved. Forced results
// (W3@3) are left out, as they say nothing of the curve, and so are moves
// without a score (a random opening's) and games without a result.
//
// Each game weighs one, shared by its positions: a game has one result,
// and its positions are not so many independent trials of it. Counted one
// a position, the few games that drag on for hundreds of plies (a lead the
// searcher cannot turn into a win, drawn by repetition or the move cap)
// would outweigh a hundred short ones, and they pulled the curve of the
// 500 games to half its slope.
func Samples(recs []records.Record) []Sample {
	var out []Sample
	for _, r := range recs {
		first := len(out)
		var white float64
		switch r.Result {
		case "WhiteWins":
			white = 1
		case "BlackWins":
			white = 0
		case "Draw":
			white = 0.5
		default:
			continue
		}
		for i, comment := range r.Comments {
			score, _, found := strings.Cut(comment, "@")
			if !found {
				continue
			}
			pieces, err := strconv.ParseFloat(score, 64)
			if err != nil || math.IsNaN(pieces) || math.IsInf(pieces, 0) {
				continue
			}
			result := white
			if i%2 == 1 { // records start from the empty board: White moves first
				result = 1 - white
			}
			out = append(out, Sample{Centi: int(math.Round(pieces * 100)), Result: result})
		}
		for i := first; i < len(out); i++ {
			out[i].Weight = 1 / float64(len(out)-first)
		}
	}
	return out
}

// Fitting is a curve fitted to samples, with what the fit says of it.
type Fitting struct {
	Curve
	// Samples is how many positions it was fitted to, and Weight their
	// total weight (the number of games, for Samples').
	Samples int
	Weight  float64
	// KErr and CErr are the standard errors of K and C from the weighted
	// likelihood's curvature, which takes the weights for independent
	// trials: a game's positions, sharing its weight of one, are nearly
	// one trial, but not quite, so the true errors are somewhat larger.
	KErr, CErr float64
	// LogLikelihood is the weighted mean log-likelihood of a result.
	LogLikelihood float64
}

func (f Fitting) String() string {
	return fmt.Sprintf("K %.6f ± %.6f, C %.1f ± %.1f hundredths, over %d positions of weight %.0f, mean log-likelihood %.4f",
		f.K, f.KErr, f.C, f.CErr, f.Samples, f.Weight, f.LogLikelihood)
}

// Fit fits a Curve to samples by maximum likelihood: each result y (a draw
// counted as half a win) has the likelihood E^y (1-E)^(1-y), raised to
// the sample's weight, and the curve
// is written as a logistic regression, E = 1/(1+exp(-(a*s+b))), whose
// log-likelihood is concave in (a, b), so Newton's method finds its one
// maximum; K = a and C = -b/a.
func Fit(samples []Sample) (Fitting, error) {
	var a, b float64
	for range 100 {
		var ga, gb, haa, hab, hbb float64 // gradient and minus the Hessian
		for _, s := range samples {
			x := float64(s.Centi)
			p := 1 / (1 + math.Exp(-(a*x + b)))
			w := s.Weight * p * (1 - p)
			ga += s.Weight * (s.Result - p) * x
			gb += s.Weight * (s.Result - p)
			haa += w * x * x
			hab += w * x
			hbb += w
		}
		det := haa*hbb - hab*hab
		if !(det > 0) {
			return Fitting{}, errors.New("the samples cannot be fitted: they need scores of both signs, and results that are neither all wins nor all losses")
		}
		da, db := (hbb*ga-hab*gb)/det, (haa*gb-hab*ga)/det
		a, b = a+da, b+db
		if math.Abs(da) <= 1e-10*math.Abs(a) && math.Abs(db) <= 1e-10*math.Max(1, math.Abs(b)) {
			if a <= 0 {
				return Fitting{}, fmt.Errorf("the samples' results fall as their scores rise (slope %g): they cannot be a searcher's scores and results", a)
			}
			// The covariance of (a, b) is the inverse of minus the
			// Hessian; C's error follows by the delta method.
			vaa, vab, vbb := hbb/det, -hab/det, haa/det
			dca, dcb := b/(a*a), -1/a
			f := Fitting{Curve: Curve{K: a, C: -b / a}, Samples: len(samples), KErr: math.Sqrt(vaa),
				CErr: math.Sqrt(dca*dca*vaa + 2*dca*dcb*vab + dcb*dcb*vbb)}
			for _, s := range samples {
				p := 1 / (1 + math.Exp(-(a*float64(s.Centi) + b)))
				f.LogLikelihood += s.Weight * (s.Result*math.Log(p) + (1-s.Result)*math.Log(1-p))
				f.Weight += s.Weight
			}
			f.LogLikelihood /= f.Weight
			return f, nil
		}
	}
	return Fitting{}, errors.New("the fit did not converge in 100 steps: the samples may separate wins from losses perfectly")
}

// Package texel fits the native evaluation's weights to game results (the
// "Texel" method): each position of a set of finished games is labelled
// with its game's result from the side to move's point of view (1 won, ½
// drawn, 0 lost), and the weights are moved to minimise the mean squared
// difference between those labels and the logistic of the evaluation. The
// evaluation being linear in its features, a position is stored as its
// feature vector, and one pass over them gives the error and its gradient.
package texel

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"strings"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// Sample is one labelled position.
type Sample struct {
	F      ai.Features
	Result float64 // for the side to move: 1 won, 0.5 drawn, 0 lost
}

// Collect replays a finished game from its start and appends a sample for
// every position from ply skip on, the side to move labelled with result,
// leaving out the positions a static evaluation cannot judge: those where
// a Queen has five neighbours (the next move may end the game) and the
// finished one.
func Collect(dst []Sample, g *core.Game, result core.Result, skip int) []Sample {
	moves := g.History()
	r := core.NewGame(g.Type(), core.RepetitionDraw(g.RepetitionDrawOn()))
	for _, m := range moves {
		if r.Over() {
			break
		}
		if r.Ply() >= skip && !queenAtRisk(r) {
			s := Sample{Result: label(result, r.ToMove())}
			ai.Extract(r, &s.F)
			dst = append(dst, s)
		}
		r.Play(m)
	}
	return dst
}

// queenAtRisk reports whether either Queen has five occupied neighbours.
func queenAtRisk(g *core.Game) bool {
	for c := core.White; c <= core.Black; c++ {
		if q := g.Position(core.Piece(c) * core.PiecesPerColor); q != core.NoCell && bits.OnesCount8(g.Neighbors(q)) >= 5 {
			return true
		}
	}
	return false
}

// label returns the result of a game for the player c.
func label(r core.Result, c core.Color) float64 {
	switch {
	case r == core.Draw:
		return 0.5
	case (r == core.WhiteWins) == (c == core.White):
		return 1
	}
	return 0
}

// Weights are real-valued weights during the fit.
type Weights [ai.NumFeatures]float64

// FromEngine returns the engine's current weights.
func FromEngine() Weights {
	var w Weights
	for i, x := range ai.Weights() {
		w[i] = float64(x)
	}
	return w
}

// Error returns the mean squared error of w over samples, the evaluation
// mapped to an expected result by 1/(1+exp(-k*eval)).
func Error(samples []Sample, w *Weights, k float64) float64 {
	sum := 0.0
	for i := range samples {
		d := sigmoid(k*dot(&samples[i].F, w)) - samples[i].Result
		sum += d * d
	}
	return sum / float64(len(samples))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func dot(f *ai.Features, w *Weights) float64 {
	s := 0.0
	for i, x := range f {
		s += float64(x) * w[i]
	}
	return s
}

// FitK returns the scale k that minimises the error of w, found by a
// golden-section search: it fixes what a unit of evaluation means in
// expected result before the weights move.
func FitK(samples []Sample, w *Weights) float64 {
	lo, hi := 1e-4, 0.1
	phi := (math.Sqrt(5) - 1) / 2
	for range 60 {
		a := hi - phi*(hi-lo)
		b := lo + phi*(hi-lo)
		if Error(samples, w, a) < Error(samples, w, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// Fit moves w by Adam gradient descent on the error plus l2 times the
// squared distance from the starting weights, k fixed, for the given
// number of full passes over samples, and reports progress to log (which
// may be nil) every hundred passes. The pull towards the start keeps the
// weights of rare features (a Mosquito stuck, a Queen with one neighbour)
// from wandering off on a few games' noise. The Tempo weight is fitted like
// any other.
func Fit(samples []Sample, w *Weights, k, l2 float64, passes int, log io.Writer) {
	w0 := *w
	const (
		rate  = 0.5
		beta1 = 0.9
		beta2 = 0.999
		eps   = 1e-8
	)
	var m, v, grad Weights
	n := float64(len(samples))
	for t := 1; t <= passes; t++ {
		grad = Weights{}
		for i := range samples {
			s := &samples[i]
			p := sigmoid(k * dot(&s.F, w))
			// d/dw of (p - r)^2 = 2 (p - r) p (1 - p) k f
			c := 2 * (p - s.Result) * p * (1 - p) * k / n
			for j, x := range s.F {
				if x != 0 {
					grad[j] += c * float64(x)
				}
			}
		}
		for j := range w {
			grad[j] += 2 * l2 * (w[j] - w0[j])
			m[j] = beta1*m[j] + (1-beta1)*grad[j]
			v[j] = beta2*v[j] + (1-beta2)*grad[j]*grad[j]
			mh := m[j] / (1 - math.Pow(beta1, float64(t)))
			vh := v[j] / (1 - math.Pow(beta2, float64(t)))
			w[j] -= rate * mh / (math.Sqrt(vh) + eps)
		}
		if log != nil && t%100 == 0 {
			fmt.Fprintf(log, "pass %d: error %.6f\n", t, Error(samples, w, k))
		}
	}
}

// WriteGo writes w, rounded, as the Go source of the ai package's
// weights.go, with source saying where the weights came from.
func WriteGo(out io.Writer, w *Weights, source string) error {
	r := func(lo, hi int) string {
		var b strings.Builder
		for i := lo; i < hi; i++ {
			if i > lo {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d", int16(math.Round(max(min(w[i], 30000), -30000))))
		}
		return b.String()
	}
	_, err := fmt.Fprintf(out, `// Code generated by hivebridge tune; DO NOT EDIT.
// %s

package ai

// Weights returns the evaluation's weight of each feature (see the Feat
// constants), fitted by hivebridge tune.
func Weights() [NumFeatures]int16 {
	return [NumFeatures]int16{
		%s, // QueenDanger1..5
		%s, // OwnFreeNeighbor
		%s, // Mobile Q S B G A M L P
		%s, // Stuck Q S B G A M L P
		%s, // Hand Q S B G A M L P
		%s, // QueenOnTop
		%s, // QueenPlaced
		%s, // Tempo
	}
}
`, source,
		r(ai.FeatQueenDanger1, ai.FeatQueenDanger1+5),
		r(ai.FeatOwnFreeNeighbor, ai.FeatOwnFreeNeighbor+1),
		r(ai.FeatMobile, ai.FeatMobile+8),
		r(ai.FeatStuck, ai.FeatStuck+8),
		r(ai.FeatHand, ai.FeatHand+8),
		r(ai.FeatQueenOnTop, ai.FeatQueenOnTop+1),
		r(ai.FeatQueenPlaced, ai.FeatQueenPlaced+1),
		r(ai.FeatTempo, ai.FeatTempo+1))
	return err
}

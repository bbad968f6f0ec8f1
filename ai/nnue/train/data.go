package train

import (
	"errors"
	"hash/fnv"
	"math"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
)

// Source yields labelled positions: yield is called with a game set at
// each position (read it during the call only: the game may be played on
// afterwards), the position's search score in the native evaluation's
// units from the side to move's point of view, and the result of the game
// it comes from for the side to move (1 won, 0.5 drawn, 0 lost). It stops
// when yield returns false and returns the first error of reading the
// positions.
type Source func(yield func(g *core.Game, score int, result float64) bool) error

// Set is the positions a fit learns from, each turned into the inputs the
// network reads, split into a training part and a validation part.
type Set struct {
	Train, Valid []Sample
	// features holds the inputs of every sample (see Sample).
	features []nnue.Feature
	// Skipped counts the positions left out: finished games, and scores
	// of a forced result, which the evaluation never has to give.
	Skipped int
}

// Sample is one labelled position as the fit reads it: the inputs of both
// perspectives (the side to move's first), the dense counts, the score and
// the result.
type Sample struct {
	at     uint32   // the first of its inputs in Set.features
	n      [2]uint8 // the inputs of the side to move, then of the other
	dense  [nnue.NumDense]int8
	Score  float32
	Result float32
}

// validOpening is how many plies of a game name it for the split: the
// positions of one game from that ply on, and of the games that began
// alike (a match plays each opening twice, and a deterministic engine may
// play it the same way both times), fall on the same side, so that
// validation does not measure how well the network remembers near-copies
// of what it was trained on. A position before that ply is named by all
// its moves: the same position reached the same way in several games falls
// on one side too.
const validOpening = 12

// Collect reads the positions of src, leaving out those of finished games
// and those whose score is a forced result, and puts a position into the
// validation part when the hash of its game's first moves (see
// validOpening) falls within validShare (0 to 1) of all hashes.
func Collect(src Source, validShare float64) (*Set, error) {
	if validShare < 0 || validShare >= 1 {
		return nil, errors.New("train: the validation share must be in [0, 1)")
	}
	s := &Set{}
	limit := uint64(validShare * math.MaxUint64)
	err := src(func(g *core.Game, score int, result float64) bool {
		if g.Over() || score <= -ai.MateScore+ai.MaxPly || score >= ai.MateScore-ai.MaxPly {
			s.Skipped++
			return true
		}
		x := Sample{at: uint32(len(s.features)), Score: float32(score), Result: float32(result)}
		me := g.ToMove()
		for i, c := range [2]core.Color{me, me.Other()} {
			before := len(s.features)
			s.features = nnue.AppendFeatures(s.features, g, c)
			x.n[i] = uint8(len(s.features) - before)
		}
		nnue.Dense(g, &x.dense)
		if openingHash(g) < limit {
			s.Valid = append(s.Valid, x)
		} else {
			s.Train = append(s.Train, x)
		}
		return true
	})
	return s, err
}

// openingHash returns a hash of the game type and the first validOpening
// moves of g (all of them if fewer were played).
func openingHash(g *core.Game) uint64 {
	h := fnv.New64a()
	moves := g.History()
	moves = moves[:min(len(moves), validOpening)]
	b := []byte{byte(g.Type())}
	for _, m := range moves {
		b = append(b, byte(m), byte(m>>8))
	}
	h.Write(b)
	return h.Sum64()
}

// inputs returns the inputs of x, the side to move's first.
func (s *Set) inputs(x *Sample) [2][]nnue.Feature {
	mid := int(x.at) + int(x.n[0])
	return [2][]nnue.Feature{s.features[x.at:mid], s.features[mid : mid+int(x.n[1])]}
}

// FitK returns the scale k of the sigmoid that best turns the samples'
// scores into their results (least squares of sigmoid(k·score) against
// the result, as Texel's method fits it): the score a search gives is
// worth that much of a win. The blend of score and result, and the scale
// of the network's output, use it.
func FitK(samples []Sample) float64 {
	errAt := func(lk float64) float64 {
		k := math.Exp(lk)
		e := 0.0
		for i := range samples {
			d := sigmoid(k*float64(samples[i].Score)) - float64(samples[i].Result)
			e += d * d
		}
		return e
	}
	// Golden-section search over log k: the error is unimodal in k
	// for any sensible data, from 1/100,000 to 1/10 of a win a unit.
	lo, hi := math.Log(1e-5), math.Log(0.1)
	const phi = 0.6180339887498949
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	ea, eb := errAt(a), errAt(b)
	for range 60 {
		if ea < eb {
			hi, b, eb = b, a, ea
			a = hi - phi*(hi-lo)
			ea = errAt(a)
		} else {
			lo, a, ea = a, b, eb
			b = lo + phi*(hi-lo)
			eb = errAt(b)
		}
	}
	return math.Exp((lo + hi) / 2)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

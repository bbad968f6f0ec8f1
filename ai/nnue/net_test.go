package nnue

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// reference is the quantised network's output written plainly, one
// integer at a time from the weights as the file holds them: what the
// lanes of Net must compute.
func reference(w *Weights, us, them [Hidden]int16, dense *[NumDense]int8) int {
	var x [L1Inputs]int64
	for i := range Hidden {
		x[i] = min(max(int64(us[i]), 0), QA)
		x[Hidden+i] = min(max(int64(them[i]), 0), QA)
	}
	out := int64(w.OutBias)
	for j := range L1Size {
		s := int64(w.L1Bias[j])
		for i, v := range x {
			s += v * int64(w.L1[i][j])
		}
		out += min(max(int64(math.Floor(float64(s)/QB+0.5)), 0), QA) * int64(w.Out[j])
	}
	for i, c := range dense {
		out += int64(c) * (QA / DenseOne) * int64(w.Skip[i])
	}
	return int(math.Floor(float64(out*int64(w.Scale))/(QA*QO) + 0.5))
}

// TestOutputMatchesReference evaluates the positions of random games with
// random weights through the accumulators and compares each score with
// the plain computation from the accumulators' values and the weights.
func TestOutputMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for round := range 4 {
		w := randomWeights(rng)
		if round%2 == 1 {
			// Small weights, so that fewer values clip at QA.
			for i := range w.FT {
				for j := range w.FT[i] {
					w.FT[i][j] /= 16
				}
			}
		}
		net := NewNet(w)
		a := NewAccumulators(net, 1)
		for _, g := range randomGames(rng, 50, core.AllExpansions) {
			a.Reset(g)
			got := a.Evaluate(g)
			var dense [NumDense]int8
			Dense(g, &dense)
			me := g.ToMove()
			f := &a.frames[0]
			want := reference(w, unpackAcc(&f.acc[me]), unpackAcc(&f.acc[me.Other()]), &dense)
			if got != want {
				t.Fatalf("round %d: score %d, plainly %d", round, got, want)
			}
		}
	}
}

// TestLanes checks addLanes, subLanes and clip against int16 arithmetic
// lane by lane, on random words and on the lanes' edge values.
func TestLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	edges := []uint16{0, 1, 0x7FFF, 0x8000, 0xFFFF, 127, 128, 129, 0xFF80}
	word := func() uint64 {
		var w uint64
		for k := range 4 {
			v := uint16(rng.Uint32())
			if rng.IntN(2) == 0 {
				v = edges[rng.IntN(len(edges))]
			}
			w |= uint64(v) << (16 * k)
		}
		return w
	}
	for range 100000 {
		a, b := word(), word()
		sum, diff, c := addLanes(a, b), subLanes(a, b), clip(a)
		for k := range 4 {
			x, y := int16(a>>(16*k)), int16(b>>(16*k))
			if got := int16(sum >> (16 * k)); got != x+y {
				t.Fatalf("%d + %d: %d", x, y, got)
			}
			if got := int16(diff >> (16 * k)); got != x-y {
				t.Fatalf("%d - %d: %d", x, y, got)
			}
			if got, want := int16(c>>(16*k)), min(max(x, 0), QA); got != want {
				t.Fatalf("clip(%d): %d, want %d", x, got, want)
			}
		}
	}
}

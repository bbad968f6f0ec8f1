package nnue

import (
	"math/bits"

	"github.com/hivebridge/hivebridge/core"
)

// The network's sizes and its quantisation (see the package comment).
const (
	// Hidden is the width of each perspective's accumulator.
	Hidden = 32
	// L1Size is the width of the head's hidden layer.
	L1Size = 4
	// L1Inputs is the width of the head's hidden layer's input: both
	// accumulators. (The dense counts go straight to the output.)
	L1Inputs = 2 * Hidden

	// QA is the integer that stands for 1.0 in the accumulators and in
	// the activations of the head: the clipped ReLU clips to [0, QA].
	QA = 512
	// QB is the integer that stands for 1.0 in the weights of the head's
	// hidden layer (int16, so those weights lie within ±32767/QB).
	QB = 512
	// QO is the integer that stands for 1.0 in the weights of the output
	// layer and of the dense path (int32).
	QO = 1 << 14
	// FTLimit bounds the feature transformer's weights and biases, so
	// that 28 inputs and the bias sum within an int16 at QA to one:
	// 29 × 2 × 512 = 29,696. (A piece that moved a neuron by twice the
	// whole range of its clipped ReLU would be more than any needs.)
	FTLimit = 2
	// L1Limit bounds the weights of the head's hidden layer: int16 at QB.
	L1Limit = 32767.0 / QB
)

// Weights are a quantised network's parameters as its file holds them
// and the trainer makes them; NewNet readies them for the search. Parse
// reads them from the bytes Marshal writes.
type Weights struct {
	// FT is the feature transformer: one row of Hidden weights per
	// input (at QA to one), shared by both perspectives, whose inputs
	// are already their own (own and enemy pieces, offsets to their own
	// Queen). FTBias starts every accumulator.
	FT     [NumFeatures][Hidden]int16
	FTBias [Hidden]int16
	// L1 is the head's hidden layer by input (at QB to one; the
	// activations at QA); L1Bias is at QA·QB.
	L1     [L1Inputs][L1Size]int16
	L1Bias [L1Size]int32
	// Out weighs the hidden layer's activations, Skip the dense counts,
	// which go to the output straight (both at QO to one, their inputs
	// at QA); OutBias is at QA·QO.
	Out     [L1Size]int32
	Skip    [NumDense]int32
	OutBias int32
	// Scale is the native evaluation's units per unit of the output
	// logit: the inverse of the sigmoid's scale that training fitted to
	// the search scores it learnt from.
	Scale int32
	// Note says where the weights came from (samples, epochs, losses).
	Note string
}

// Net is a network ready to evaluate: the weights laid out for the
// arithmetic the search does, shared read-only by any number of threads
// (each with its own Accumulators).
//
// Go has no vector instructions to ask for, so the network does several
// small numbers' arithmetic in one 64-bit word instead (SWAR): a row of
// the feature transformer is Hidden/4 words of four int16 lanes, added
// and subtracted lane by lane with the carries kept in their lanes (see
// addLanes), which is exact int16 arithmetic; a row of the head's hidden
// layer is L1Size/2 words of two 32-bit halves, so that one
// multiplication by an activation gives two products (see l1Row).
type Net struct {
	ft     [NumFeatures]accRow
	ftBias accRow
	l1     [L1Inputs]l1Row
	l1Bias [L1Size]int64
	out    [L1Size]int64
	// mobile and stuck are the dense path's weights by piece, as the side
	// to move sees it (mobile[me][p]: what piece p adds when it can
	// move): the dense counts weigh each piece alike, so the output adds
	// up its pieces' weights over the bits of a set, as the linear
	// evaluation does, rather than counting them first.
	mobile, stuck [2][core.NumPieces]int64
	outBias,
	scale int64
	note string
}

// accRow is Hidden int16 values, four to a word, lane k of word i being
// value 4i+k.
type accRow [Hidden / 4]uint64

// l1Row is the head's hidden-layer weights of one input, two to a word:
// word j is lo + hi·2^32 (two's complement, modulo 2^64) for the weights
// lo of neuron 2j and hi of neuron 2j+1. Multiplication and addition
// modulo 2^64 are linear, so the sum over the inputs of each activation
// times the word is LO + HI·2^32, LO and HI being the two neurons' sums;
// LO is the low half read as an int32 (|LO| is at most L1Inputs·QA·2^15
// = 2^30, inside an int32), and HI what remains, shifted down (see
// halves).
type l1Row [L1Size / 2]uint64

// NewNet readies w for evaluation.
func NewNet(w *Weights) *Net {
	n := &Net{note: w.Note, outBias: int64(w.OutBias), scale: int64(w.Scale)}
	for i := range w.FT {
		n.ft[i] = packAcc(&w.FT[i])
	}
	n.ftBias = packAcc(&w.FTBias)
	for i := range w.L1 {
		for j := range L1Size / 2 {
			n.l1[i][j] = uint64(int64(w.L1[i][2*j]) + int64(w.L1[i][2*j+1])<<32)
		}
	}
	for j := range L1Size {
		n.l1Bias[j] = int64(w.L1Bias[j])
		n.out[j] = int64(w.Out[j])
	}
	for me := core.White; me <= core.Black; me++ {
		for p := core.Piece(0); p < core.NumPieces; p++ {
			i := int(p.Bug())
			if p.Color() != me {
				i += 2 * int(core.NumBugs)
			}
			n.mobile[me][p] = int64(w.Skip[i]) * (QA / DenseOne)
			n.stuck[me][p] = int64(w.Skip[i+int(core.NumBugs)]) * (QA / DenseOne)
		}
	}
	return n
}

// Note says where the network's weights came from.
func (n *Net) Note() string { return n.note }

// packAcc packs Hidden int16 values into lanes.
func packAcc(v *[Hidden]int16) accRow {
	var r accRow
	for i, x := range v {
		r[i/4] |= uint64(uint16(x)) << (16 * (i % 4))
	}
	return r
}

// unpackAcc returns the Hidden int16 values of a row.
func unpackAcc(r *accRow) [Hidden]int16 {
	var v [Hidden]int16
	for i := range v {
		v[i] = int16(r[i/4] >> (16 * (i % 4)))
	}
	return v
}

// lanesHigh has the top bit of each of a word's four 16-bit lanes.
const lanesHigh = 0x8000_8000_8000_8000

// addLanes adds the four int16 lanes of b to those of a, each wrapping
// within its lane as int16 addition does: the lanes are added without
// their top bits, so no carry crosses into the next lane, and the top
// bits are put back by their sum's last bit (exclusive or).
func addLanes(a, b uint64) uint64 {
	return ((a &^ lanesHigh) + (b &^ lanesHigh)) ^ ((a ^ b) & lanesHigh)
}

// subLanes subtracts the four int16 lanes of b from those of a, each
// wrapping within its lane: each lane of a is lent its top bit first, so
// no borrow crosses into the next lane, and the top bits are set right
// after.
func subLanes(a, b uint64) uint64 {
	return ((a | lanesHigh) - (b &^ lanesHigh)) ^ ((a ^ ^b) & lanesHigh)
}

// output returns the network's output from the two accumulators (the side
// to move's first) and the side to move me's view of the pieces that can
// move and that are stuck (see mobility), in the native evaluation's
// units.
func (n *Net) output(us, them *accRow, me core.Color, movable, stuck uint32) int {
	var q sums
	q = n.addAccumulator(q, us, 0)
	q = n.addAccumulator(q, them, Hidden)
	out := n.outBias
	mobile, still := &n.mobile[me&1], &n.stuck[me&1]
	for ; movable != 0; movable &= movable - 1 {
		out += mobile[bits.TrailingZeros32(movable)&31]
	}
	for ; stuck != 0; stuck &= stuck - 1 {
		out += still[bits.TrailingZeros32(stuck)&31]
	}
	for j, w := range (l1Row{q.a, q.b}) {
		lo, hi := halves(w)
		out += n.activation(lo, 2*j) + n.activation(hi, 2*j+1)
	}
	return int(roundDiv(out*n.scale, QA*QO))
}

// halves returns the two sums of a word of the head's sums (see l1Row).
func halves(w uint64) (lo, hi int64) {
	lo = int64(int32(uint32(w)))
	return lo, int64(w-uint64(lo)) >> 32
}

// activation returns neuron j's share of the output given the sum v of its
// inputs times its weights: its activation, clipped to [0, QA], times its
// output weight.
func (n *Net) activation(v int64, j int) int64 {
	return min(max(roundDiv(v+n.l1Bias[j&(L1Size-1)], QB), 0), QA) * n.out[j&(L1Size-1)]
}

// roundDiv returns v/d rounded to the nearest integer (halves up), for d a
// power of two: integer division would truncate towards zero, and the
// hidden layer's activations would all come out a little low, a bias the
// output layer adds up.
func roundDiv(v, d int64) int64 { return (v + d/2) >> bits.TrailingZeros64(uint64(d)) }

// addAccumulator adds to the head's sums q the rows of an accumulator's
// values, the head's inputs from offset on, each clipped to [0, QA]. It
// goes through every value in straight-line code, four lanes clipped at
// once (see clip), where skipping the zeros would branch or scan bits at a
// cost above what a zero's row costs (a fifth of the values, in the
// positions of games); its sums stay in registers (a small struct is kept
// in registers, where an array is kept in memory).
func (n *Net) addAccumulator(q sums, acc *accRow, offset int) sums {
	rows := (*[Hidden]l1Row)(n.l1[offset : offset+Hidden])
	for i, w := range acc {
		c := clip(w)
		r := (*[4]l1Row)(rows[4*i : 4*i+4])
		q = q.plus(c&0xFFFF, &r[0])
		q = q.plus(c>>16&0xFFFF, &r[1])
		q = q.plus(c>>32&0xFFFF, &r[2])
		q = q.plus(c>>48, &r[3])
	}
	return q
}

// clip returns the four int16 lanes of w each clipped to [0, QA]. A lane
// whose sign bit is set is cleared (the sign, moved to the lane's lowest
// bit and times 0xFFFF, masks the whole lane); of those left, which lie in
// [0, 32767], a lane plus 32768-QA-1 reaches its top bit exactly when it
// is above QA, and is then replaced by QA.
func clip(w uint64) uint64 {
	const (
		ones  = 0x0001_0001_0001_0001
		above = (0x8000 - QA - 1) * ones
	)
	x := w &^ ((w & lanesHigh >> 15) * 0xFFFF)
	big := ((x + above) & lanesHigh >> 15) * 0xFFFF
	return x&^big | QA*ones&big
}

// sums is the head's sums, the L1Size/2 words of l1Row (see there).
type sums struct{ a, b uint64 }

// plus returns q plus x times the words of r.
func (q sums) plus(x uint64, r *l1Row) sums {
	return sums{q.a + x*r[0], q.b + x*r[1]}
}

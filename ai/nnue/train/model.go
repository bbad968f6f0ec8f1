package train

import (
	"math"
	"math/rand/v2"

	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
)

// Sizes of the network, nnue's.
const (
	hidden = nnue.Hidden
	l1Size = nnue.L1Size
	nDense = nnue.NumDense
)

// Model is the network in float32, as training moves it: the same layers
// as nnue.Net (see package nnue), with values in units of one where the
// network's are quantised. Its output is a logit: the expected score of the
// side to move is its logistic.
type Model struct {
	FT      [nnue.NumFeatures][hidden]float32
	FTBias  [hidden]float32
	L1      [nnue.L1Inputs][l1Size]float32
	L1Bias  [l1Size]float32
	Out     [l1Size]float32
	Skip    [nDense]float32
	OutBias float32
}

// NewModel returns a model of random weights from seed: the feature
// transformer's small enough that the 28 inputs of a position sum well
// inside the clipped ReLU's [0, 1], the head's scaled to their inputs'
// number (He's initialisation), the output's and the dense path's at zero.
func NewModel(seed uint64) *Model {
	rng := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	m := new(Model)
	for i := range m.FT {
		for j := range m.FT[i] {
			m.FT[i][j] = float32(rng.NormFloat64() * 0.05)
		}
	}
	for j := range m.FTBias {
		m.FTBias[j] = 0.5
	}
	for i := range m.L1 {
		for j := range m.L1[i] {
			m.L1[i][j] = float32(rng.NormFloat64() * math.Sqrt(2.0/nnue.L1Inputs))
		}
	}
	for j := range m.Out {
		m.Out[j] = float32(rng.NormFloat64() * math.Sqrt(1.0/l1Size))
	}
	return m
}

// pass is the forward pass of one sample, kept for the backward pass.
type pass struct {
	idx [2][]int           // the inputs of each perspective, side to move first
	acc [2][hidden]float32 // the accumulators before the clipped ReLU
	x   [nnue.L1Inputs]float32
	pre [l1Size]float32 // the hidden layer before its clipped ReLU
	h   [l1Size]float32
	d   [nDense]float32
	z   float32 // the output logit
	// room is idx's storage: a perspective has an input per piece.
	room [2][core.NumPieces]int
}

// crelu is the clipped ReLU.
func crelu(v float32) float32 { return min(max(v, 0), 1) }

// forward computes the output of the model for the inputs in (the side
// to move's first) turned by symmetry s, and the dense counts, into p.
func (m *Model) forward(in [2][]nnue.Feature, dense *[nDense]int8, s core.Symmetry, p *pass) float32 {
	for side := range 2 {
		p.idx[side] = p.room[side][:0]
		acc := &p.acc[side]
		*acc = m.FTBias
		for _, f := range in[side] {
			i := f.Index(s)
			p.idx[side] = append(p.idx[side], i)
			row := &m.FT[i]
			for j := range acc {
				acc[j] += row[j]
			}
		}
		for j, a := range acc {
			p.x[side*hidden+j] = crelu(a)
		}
	}
	p.pre = m.L1Bias
	for i, v := range p.x {
		if v == 0 {
			continue
		}
		row := &m.L1[i]
		for j := range p.pre {
			p.pre[j] += v * row[j]
		}
	}
	z := m.OutBias
	for j, v := range p.pre {
		p.h[j] = crelu(v)
		z += p.h[j] * m.Out[j]
	}
	for i, c := range dense {
		p.d[i] = float32(c) / nnue.DenseOne
		z += p.d[i] * m.Skip[i]
	}
	p.z = z
	return z
}

// Evaluate returns the model's score of g, from the side to move's point
// of view, in the native evaluation's units for a fit whose sigmoid scale
// was k: what the quantised network approximates.
func (m *Model) Evaluate(g *core.Game, k float64) float64 {
	me := g.ToMove()
	in := [2][]nnue.Feature{nnue.AppendFeatures(nil, g, me), nnue.AppendFeatures(nil, g, me.Other())}
	var dense [nDense]int8
	nnue.Dense(g, &dense)
	var p pass
	return float64(m.forward(in, &dense, 0, &p)) / k
}

// grads are the gradients of the loss by the model's weights, summed over
// a batch; the feature transformer's only for the inputs the batch had
// (rows), the others staying zero.
type grads struct {
	Model
	rows    []int
	touched [nnue.NumFeatures]bool
}

// backward adds to g the gradient of the loss by the weights, given its
// gradient dz by the output of the pass p.
func (m *Model) backward(p *pass, dz float32, g *grads) {
	g.OutBias += dz
	for i, d := range p.d {
		g.Skip[i] += dz * d
	}
	var dpre [l1Size]float32
	for j, h := range p.h {
		g.Out[j] += dz * h
		if p.pre[j] > 0 && p.pre[j] < 1 {
			dpre[j] = dz * m.Out[j]
		}
	}
	for j, d := range dpre {
		g.L1Bias[j] += d
	}
	var dx [nnue.L1Inputs]float32
	for i, v := range p.x {
		row := &m.L1[i]
		grow := &g.L1[i]
		s := float32(0)
		for j, d := range dpre {
			grow[j] += v * d
			s += row[j] * d
		}
		dx[i] = s
	}
	for side := range 2 {
		var da [hidden]float32
		nonzero := false
		for j, a := range p.acc[side] {
			if a > 0 && a < 1 {
				da[j] = dx[side*hidden+j]
				nonzero = nonzero || da[j] != 0
			}
		}
		if !nonzero {
			continue
		}
		for j, d := range da {
			g.FTBias[j] += d
		}
		for _, i := range p.idx[side] {
			if !g.touched[i] {
				g.touched[i] = true
				g.rows = append(g.rows, i)
			}
			row := &g.FT[i]
			for j, d := range da {
				row[j] += d
			}
		}
	}
}

// clear zeroes g for the next batch.
func (g *grads) clear() {
	for _, i := range g.rows {
		g.FT[i] = [hidden]float32{}
		g.touched[i] = false
	}
	g.rows = g.rows[:0]
	g.FTBias = [hidden]float32{}
	g.L1 = [nnue.L1Inputs][l1Size]float32{}
	g.L1Bias = [l1Size]float32{}
	g.Out = [l1Size]float32{}
	g.Skip = [nDense]float32{}
	g.OutBias = 0
}

// Quantise returns the weights of the network that m is, for a fit whose
// sigmoid scale was k (see FitK): each layer rounded to its integer scale
// (nnue's QA, QB, QO) and clipped to what its integers hold.
func (m *Model) Quantise(k float64, note string) *nnue.Weights {
	w := &nnue.Weights{Note: note, Scale: int32(math.Round(1 / k))}
	round := func(v float64, limit float64) float64 { return math.Round(min(max(v, -limit), limit)) }
	const ftLimit = nnue.FTLimit * nnue.QA
	for i := range m.FT {
		for j, v := range m.FT[i] {
			w.FT[i][j] = int16(round(float64(v)*nnue.QA, ftLimit))
		}
	}
	for j, v := range m.FTBias {
		w.FTBias[j] = int16(round(float64(v)*nnue.QA, ftLimit))
	}
	for i := range m.L1 {
		for j, v := range m.L1[i] {
			w.L1[i][j] = int16(round(float64(v)*nnue.QB, math.MaxInt16))
		}
	}
	const big = math.MaxInt32
	for j := range l1Size {
		w.L1Bias[j] = int32(round(float64(m.L1Bias[j])*nnue.QA*nnue.QB, big))
		w.Out[j] = int32(round(float64(m.Out[j])*nnue.QO, big))
	}
	for i, v := range m.Skip {
		w.Skip[i] = int32(round(float64(v)*nnue.QO, big))
	}
	w.OutBias = int32(round(float64(m.OutBias)*nnue.QA*nnue.QO, big))
	return w
}

// clip keeps the weights within what their quantised integers hold: the
// feature transformer within ±FTLimit (so that the accumulators never
// overflow), the head's hidden layer within ±L1Limit (int8).
func (m *Model) clip(rows []int) {
	const ft = nnue.FTLimit
	for _, i := range rows {
		for j, v := range m.FT[i] {
			m.FT[i][j] = min(max(v, -ft), ft)
		}
	}
	for j, v := range m.FTBias {
		m.FTBias[j] = min(max(v, -ft), ft)
	}
	const l1 = nnue.L1Limit
	for i := range m.L1 {
		for j, v := range m.L1[i] {
			m.L1[i][j] = min(max(v, -l1), l1)
		}
	}
}

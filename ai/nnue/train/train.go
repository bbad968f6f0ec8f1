// Package train fits the learned evaluation (package nnue) to labelled
// positions: it reads them from a Source into the network's inputs
// (Collect), fits the scale that turns search scores into expected results
// (FitK, Texel's way), and trains the network in float32 by Adam on a blend
// of the two labels, each position seen in a random one of its twelve
// images (turned and mirrored: Hive has no orientation), with a part of the
// games kept aside to measure the fit on positions it never saw. The best
// epoch by that measure is quantised to the weights the search reads
// (Model.Quantise, nnue.Weights.Marshal), and the losses of every epoch can
// be drawn as an SVG plot (WriteSVG).
//
// The loss is nnue-pytorch's: the squared difference between the logistic
// of the network's output and the target λ·sigmoid(k·score) + (1-λ)·result,
// where the score is a search's, the result the game's, and k the fitted
// scale. The search's score is the sharper label of the two (a position's
// value as a deeper look sees it) and the result the truer one (who won);
// λ trades them.
package train

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/hivebridge/hivebridge/core"
)

// Config is what a fit does.
type Config struct {
	Epochs    int
	BatchSize int
	// Rate is Adam's learning rate at the first epoch; each epoch after
	// multiplies it by Decay.
	Rate, Decay float64
	// Lambda is the weight of the search score in the target, 1-Lambda
	// the game result's.
	Lambda float64
	Seed   uint64
	// Log, if not nil, gets a line per epoch.
	Log io.Writer
}

// Epoch is the outcome of one epoch: the mean loss over the training
// positions as the epoch went, and over the validation positions after it.
type Epoch struct {
	Train, Valid float64
}

// Result is the outcome of a fit: the sigmoid's scale, the losses of every
// epoch, the epoch whose model is kept (the one with the least validation
// loss, or the last without validation positions) and that model.
type Result struct {
	K      float64
	Epochs []Epoch
	Best   int
	Model  *Model
}

// Fit trains a new model on set by cfg.
func Fit(set *Set, cfg Config) (*Result, error) {
	if len(set.Train) == 0 {
		return nil, errors.New("train: no training positions")
	}
	if cfg.Epochs < 1 || cfg.BatchSize < 1 || cfg.Rate <= 0 || cfg.Lambda < 0 || cfg.Lambda > 1 {
		return nil, fmt.Errorf("train: epochs %d, batch %d, rate %g, lambda %g: each out of range", cfg.Epochs, cfg.BatchSize, cfg.Rate, cfg.Lambda)
	}
	k := FitK(set.Train)
	t := &trainer{set: set, cfg: cfg, k: k, model: NewModel(cfg.Seed), rng: rand.New(rand.NewPCG(cfg.Seed, 28))}
	t.adam = new(adam)
	res := &Result{K: k, Best: -1}
	bestLoss := math.Inf(1)
	var best Model
	rate := cfg.Rate
	order := make([]int, len(set.Train))
	for i := range order {
		order[i] = i
	}
	for e := range cfg.Epochs {
		t.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		ep := Epoch{Train: t.epoch(order, rate), Valid: math.NaN()}
		if len(set.Valid) > 0 {
			ep.Valid = t.model.Loss(set, set.Valid, k, cfg.Lambda)
		}
		res.Epochs = append(res.Epochs, ep)
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "epoch %d: train loss %.6f, validation loss %.6f, rate %.2g\n", e+1, ep.Train, ep.Valid, rate)
		}
		score := ep.Valid
		if len(set.Valid) == 0 {
			score = ep.Train
		}
		if score < bestLoss {
			bestLoss, res.Best, best = score, e, *t.model
		}
		rate *= cfg.Decay
	}
	res.Model = &best
	return res, nil
}

// target returns the label of x: the blend of its score, through the
// sigmoid of scale k, and its result.
func target(x *Sample, k, lambda float64) float64 {
	return lambda*sigmoid(k*float64(x.Score)) + (1-lambda)*float64(x.Result)
}

// Loss returns the mean loss of m over the samples of set (each as it
// stands, not turned).
func (m *Model) Loss(set *Set, samples []Sample, k, lambda float64) float64 {
	var p pass
	sum := 0.0
	for i := range samples {
		x := &samples[i]
		d := sigmoid(float64(m.forward(set.inputs(x), &x.dense, 0, &p))) - target(x, k, lambda)
		sum += d * d
	}
	return sum / float64(len(samples))
}

// trainer is one fit's state.
type trainer struct {
	set   *Set
	cfg   Config
	k     float64
	model *Model
	adam  *adam
	rng   *rand.Rand
	g     grads
	p     pass
}

// epoch trains on the training samples in the given order, batch by batch,
// and returns their mean loss.
func (t *trainer) epoch(order []int, rate float64) float64 {
	sum := 0.0
	for start := 0; start < len(order); start += t.cfg.BatchSize {
		batch := order[start:min(start+t.cfg.BatchSize, len(order))]
		t.g.clear()
		for _, i := range batch {
			x := &t.set.Train[i]
			s := core.Symmetry(t.rng.IntN(core.NumSymmetries))
			z := float64(t.model.forward(t.set.inputs(x), &x.dense, s, &t.p))
			y := sigmoid(z)
			d := y - target(x, t.k, t.cfg.Lambda)
			sum += d * d
			// d(loss)/dz of (y - t)², the batch's mean.
			dz := 2 * d * y * (1 - y) / float64(len(batch))
			t.model.backward(&t.p, float32(dz), &t.g)
		}
		t.adam.step(t.model, &t.g, rate)
		t.model.clip(t.g.rows)
	}
	return sum / float64(len(order))
}

// adam is the Adam optimiser's state: the moving means of each weight's
// gradient and of its square. The feature transformer's rows are moved
// only when a batch has their inputs (the lazy variant), since a batch
// touches a few hundred of its thousands of rows.
type adam struct {
	m, v  Model
	steps int
}

const (
	beta1   = 0.9
	beta2   = 0.999
	epsilon = 1e-8
)

// step moves the model's weights by the gradients g at the given rate.
func (a *adam) step(model *Model, g *grads, rate float64) {
	a.steps++
	c1 := 1 - math.Pow(beta1, float64(a.steps))
	c2 := 1 - math.Pow(beta2, float64(a.steps))
	lr := float32(rate * math.Sqrt(c2) / c1)
	upd := func(w, m, v *float32, grad float32) {
		*m = beta1**m + (1-beta1)*grad
		*v = beta2**v + (1-beta2)*grad*grad
		*w -= lr * *m / (float32(math.Sqrt(float64(*v))) + epsilon)
	}
	for _, i := range g.rows {
		for j := range model.FT[i] {
			upd(&model.FT[i][j], &a.m.FT[i][j], &a.v.FT[i][j], g.FT[i][j])
		}
	}
	for j := range model.FTBias {
		upd(&model.FTBias[j], &a.m.FTBias[j], &a.v.FTBias[j], g.FTBias[j])
	}
	for i := range model.L1 {
		for j := range model.L1[i] {
			upd(&model.L1[i][j], &a.m.L1[i][j], &a.v.L1[i][j], g.L1[i][j])
		}
	}
	for j := range model.L1Bias {
		upd(&model.L1Bias[j], &a.m.L1Bias[j], &a.v.L1Bias[j], g.L1Bias[j])
		upd(&model.Out[j], &a.m.Out[j], &a.v.Out[j], g.Out[j])
	}
	for i := range model.Skip {
		upd(&model.Skip[i], &a.m.Skip[i], &a.v.Skip[i], g.Skip[i])
	}
	upd(&model.OutBias, &a.m.OutBias, &a.v.OutBias, g.OutBias)
}

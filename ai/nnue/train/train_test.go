package train

import (
	"bytes"
	"context"
	"encoding/xml"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
)

// selfPlay plays n games of the native searcher against itself at depth,
// each from an opening of a few random moves (seeded), up to maxPlies; a
// game still going then counts as a draw.
func selfPlay(tb testing.TB, n, depth, maxPlies int, seed uint64) []Game {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	s := ai.New(1, 4)
	var l core.MoveList
	var games []Game
	for range n {
		g := core.NewGame(core.AllExpansions)
		for range 4 + rng.IntN(4) {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		s.Clear()
		for !g.Over() && g.Ply() < maxPlies {
			g.Play(s.Search(context.Background(), g, ai.Limits{Depth: depth}, nil).Move)
		}
		r := g.Result()
		if r == core.InProgress {
			r = core.Draw
		}
		games = append(games, Game{Game: g, Result: r})
	}
	return games
}

// testSet collects the positions of a few self-play games, labelled by a
// depth-1 search, a fifth of the games for validation.
func testSet(tb testing.TB, games int) *Set {
	tb.Helper()
	set, err := Collect(Label(selfPlay(tb, games, 1, 160, 7), 1, 4), 0.2)
	if err != nil {
		tb.Fatal(err)
	}
	if len(set.Train) < 200 || len(set.Valid) < 20 {
		tb.Fatalf("%d training and %d validation positions", len(set.Train), len(set.Valid))
	}
	return set
}

// TestFitLearns fits a network to self-play positions for a few epochs:
// on the games kept aside, its loss must end below the loss of the best
// constant guess (the training targets' mean), which a network that learnt
// nothing of the positions cannot beat, and below its first epoch's.
func TestFitLearns(t *testing.T) {
	set := testSet(t, 24)
	res, err := Fit(set, Config{Epochs: 8, BatchSize: 64, Rate: 3e-3, Decay: 0.9, Lambda: 0.75, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for i := range set.Train {
		mean += target(&set.Train[i], res.K, 0.75)
	}
	mean /= float64(len(set.Train))
	constant := 0.0
	for i := range set.Valid {
		d := mean - target(&set.Valid[i], res.K, 0.75)
		constant += d * d
	}
	constant /= float64(len(set.Valid))
	best := res.Epochs[res.Best].Valid
	t.Logf("k %.5f; %d training, %d validation positions; validation loss: constant %.5f, epoch 1 %.5f, best (epoch %d) %.5f",
		res.K, len(set.Train), len(set.Valid), constant, res.Epochs[0].Valid, res.Best+1, best)
	if best >= constant*0.9 {
		t.Errorf("validation loss %.5f, the constant guess's %.5f", best, constant)
	}
	if best >= res.Epochs[0].Valid {
		t.Errorf("validation loss %.5f, first epoch's %.5f", best, res.Epochs[0].Valid)
	}
	if got := res.Model.Loss(set, set.Valid, res.K, 0.75); got != best {
		t.Errorf("the model kept has validation loss %.6f, its epoch's %.6f", got, best)
	}
}

// TestGradients checks the backward pass against finite differences of
// the loss: for a sample and a few weights of each layer, the gradient
// backward finds must be the loss's change per unit of the weight.
func TestGradients(t *testing.T) {
	set := testSet(t, 6)
	m := NewModel(3)
	// Move the output layer off zero, so that every layer's gradient is.
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range m.Skip {
		m.Skip[i] = float32(rng.NormFloat64() * 0.3)
	}
	const k, lambda = 0.004, 0.6
	checked := 0
	for si := 0; si < len(set.Train) && checked < 40; si += 17 {
		x := &set.Train[si]
		in := set.inputs(x)
		loss := func() float64 {
			var p pass
			d := sigmoid(float64(m.forward(in, &x.dense, 0, &p))) - target(x, k, lambda)
			return d * d
		}
		var p pass
		y := sigmoid(float64(m.forward(in, &x.dense, 0, &p)))
		var g grads
		m.backward(&p, float32(2*(y-target(x, k, lambda))*y*(1-y)), &g)
		ft := p.idx[0][0]
		for _, w := range []struct {
			name string
			ptr  *float32
			grad float32
		}{
			{"FT", &m.FT[ft][3], g.FT[ft][3]},
			{"FTBias", &m.FTBias[5], g.FTBias[5]},
			{"L1", &m.L1[2][1], g.L1[2][1]},
			{"L1Bias", &m.L1Bias[3], g.L1Bias[3]},
			{"Out", &m.Out[2], g.Out[2]},
			{"Skip", &m.Skip[1], g.Skip[1]},
			{"OutBias", &m.OutBias, g.OutBias},
		} {
			const h = 1e-3
			old := *w.ptr
			*w.ptr = old + h
			up := loss()
			*w.ptr = old - h
			down := loss()
			*w.ptr = old
			num := (up - down) / (2 * h)
			if math.Abs(num-float64(w.grad)) > 1e-4+0.05*math.Abs(num) {
				t.Errorf("sample %d, %s: backward %.6g, finite difference %.6g", si, w.name, w.grad, num)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d gradients checked", checked)
	}
}

// TestQuantisedMatchesFloat compares the quantised network, as the search
// evaluates it through its accumulators, with the float model it came
// from, over the positions of self-play games, for a model fitted a few
// epochs and for a fresh random one. The two outputs, as logits (a score
// times the fit's k), must lie within 0.02 of each other at worst and
// 0.006 on average: at the k of the embedded network's search scores
// (1/183 a unit), under 4 and 1.1 units of the native evaluation. (The
// layers round to their integer scales, 1/512 for the feature
// transformer's and the head's weights and activations; a few hundred such
// terms add up to a few thousandths.)
func TestQuantisedMatchesFloat(t *testing.T) {
	set := testSet(t, 10)
	res, err := Fit(set, Config{Epochs: 3, BatchSize: 64, Rate: 3e-3, Decay: 1, Lambda: 0.75, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	games := selfPlay(t, 6, 1, 120, 11)
	for _, c := range []struct {
		name  string
		model *Model
	}{{"fitted", res.Model}, {"random", NewModel(5)}} {
		w := c.model.Quantise(res.K, "")
		net := nnue.NewNet(w)
		a := nnue.NewAccumulators(net, 8)
		worst, mean, n := 0.0, 0.0, 0
		for _, gm := range games {
			g := core.NewGame(gm.Game.Type())
			a.Reset(g)
			for _, m := range gm.Game.History() {
				a.Push(g, m)
				g.Play(m)
				if g.Over() {
					break
				}
				// Both in logits: the quantised score over its
				// scale, the float one times k.
				d := math.Abs(float64(a.Evaluate(g))/float64(w.Scale) - c.model.Evaluate(g, res.K)*res.K)
				worst = max(worst, d)
				mean += d
				n++
			}
		}
		mean /= float64(n)
		t.Logf("%s: %d positions, k %.5f (scale %d): |quantised - float| in logits mean %.4f, worst %.4f; in units %.2f, %.2f",
			c.name, n, res.K, w.Scale, mean, worst, mean*float64(w.Scale), worst*float64(w.Scale))
		if worst > 0.02 || mean > 0.006 {
			t.Errorf("%s: quantised and float logits differ by %.4f on average, %.4f at worst", c.name, mean, worst)
		}
	}
}

// TestFitK draws results from known odds, sigmoid(k·score) for k =
// 1/250, and finds k again within 10%.
func TestFitK(t *testing.T) {
	const k = 1.0 / 250
	rng := rand.New(rand.NewPCG(4, 4))
	var samples []Sample
	for range 20000 {
		score := rng.NormFloat64() * 400
		r := float32(0)
		if rng.Float64() < sigmoid(k*score) {
			r = 1
		}
		samples = append(samples, Sample{Score: float32(score), Result: r})
	}
	if got := FitK(samples); math.Abs(got-k)/k > 0.1 {
		t.Errorf("k %.6f, want %.6f", got, k)
	}
}

// TestCollectSplitsByGame checks the split: positions whose games began
// alike (the same first validOpening moves, or all their moves for an
// earlier position) fall on one side, so that every position of a game
// from its validOpening-th ply on is on one side (each position carries
// its game's number and ply as its score); the share kept for validation
// is about the one asked; finished positions and forced scores are left
// out.
func TestCollectSplitsByGame(t *testing.T) {
	games := selfPlay(t, 40, 1, 60, 9)
	yielded := 0
	src := func(yield func(*core.Game, int, float64) bool) error {
		for i, gm := range games {
			g := core.NewGame(gm.Game.Type())
			for _, m := range gm.Game.History() {
				yielded++
				if !yield(g, 100*i+g.Ply(), 0.5) {
					return nil
				}
				g.Play(m)
			}
			yielded += 3
			yield(g, 100*i+g.Ply(), 0.5)   // left out if the game is over
			yield(g, ai.MateScore-3, 1.0)  // a forced result: left out
			yield(g, -ai.MateScore+3, 0.0) // likewise
		}
		return nil
	}
	set, err := Collect(src, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	total := len(set.Train) + len(set.Valid)
	if total+set.Skipped != yielded {
		t.Fatalf("%d positions in, %d kept and %d skipped", yielded, total, set.Skipped)
	}
	over := 0
	for _, gm := range games {
		if gm.Game.Over() {
			over++
		}
	}
	if set.Skipped != 2*len(games)+over {
		t.Errorf("%d skipped, want %d", set.Skipped, 2*len(games)+over)
	}
	side := map[int]bool{} // each game's side, from its validOpening-th ply on
	for part, samples := range [][]Sample{set.Train, set.Valid} {
		for _, x := range samples {
			game, ply := int(x.Score)/100, int(x.Score)%100
			if ply < validOpening {
				continue
			}
			if v, seen := side[game]; seen && v != (part == 1) {
				t.Fatalf("game %d has positions on both sides", game)
			}
			side[game] = part == 1
		}
	}
	valid := 0
	for _, v := range side {
		if v {
			valid++
		}
	}
	if len(side) < 30 || valid < 4 || valid > 20 {
		t.Errorf("%d of %d games for validation, asked 30%%", valid, len(side))
	}
}

// TestWriteSVG checks that the plot is well-formed XML with one line per
// loss, a point per epoch, and that a validation loss of NaN (no
// validation positions) draws no line.
func TestWriteSVG(t *testing.T) {
	epochs := []Epoch{{0.08, 0.09}, {0.07, 0.085}, {0.065, 0.086}}
	var b bytes.Buffer
	if err := WriteSVG(&b, epochs, 1, "a <test> & more"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Polylines []struct {
			Class  string `xml:"class,attr"`
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
		Texts []string `xml:"text"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	if len(doc.Polylines) != 2 {
		t.Fatalf("%d lines", len(doc.Polylines))
	}
	for _, p := range doc.Polylines {
		if n := len(strings.Fields(p.Points)); n != len(epochs) {
			t.Errorf("%s: %d points for %d epochs", p.Class, n, len(epochs))
		}
	}
	if doc.Texts[0] != "a <test> & more" {
		t.Errorf("title %q", doc.Texts[0])
	}
	b.Reset()
	if err := WriteSVG(&b, []Epoch{{0.1, math.NaN()}, {0.09, math.NaN()}}, 1, "no validation"); err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(b.String(), "<polyline"); c != 1 {
		t.Errorf("%d lines without validation losses", c)
	}
}

package translate_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate"
)

// TestNativeMultiPV: with MultiPV=3 the native engine reports each
// completed depth as three reports, lines 3, 2 and 1 in that order, so
// that the last is the best: distinct legal moves, legal lines, scores
// that do not rise from line 1 to 3, and line 1's move the answer; with
// the default of 1 every report is of one line (MultiPV 0), as ever.
func TestNativeMultiPV(t *testing.T) {
	g := midGame(t)
	search := func(options ...string) ([]engine.Progress, core.Move) {
		t.Helper()
		return nativeSearch(t, g, 3, options...)
	}
	reports, m := search("MultiPV=3")
	if len(reports) != 9 {
		t.Fatalf("%d reports, want 3 lines for each of 3 depths: %+v", len(reports), reports)
	}
	for d := 1; d <= 3; d++ {
		lines := reports[3*(d-1) : 3*d]
		seen := map[core.Move]bool{}
		for i, p := range lines {
			if want := 3 - i; p.MultiPV != want || p.Depth != d || p.Best() != (want == 1) {
				t.Errorf("depth %d, report %d: line %d of depth %d (best %v), want line %d", d, i, p.MultiPV, p.Depth, p.Best(), want)
			}
			if seen[p.Move] || len(p.PV) == 0 || p.PV[0] != p.Move {
				t.Errorf("depth %d, line %d: move %v repeated or PV %v", d, p.MultiPV, p.Move, p.PV)
			}
			seen[p.Move] = true
			c := g.Clone()
			for _, pm := range p.PV {
				if err := c.RuleBroken(pm); err != nil {
					t.Fatalf("depth %d, line %d: illegal PV: %v", d, p.MultiPV, err)
				}
				c.Play(pm)
			}
			if i > 0 && p.Score.Pieces() < lines[i-1].Score.Pieces() {
				t.Errorf("depth %d: line %d scores %v, below line %d's %v", d, p.MultiPV, p.Score, lines[i-1].MultiPV, lines[i-1].Score)
			}
		}
	}
	if last := reports[len(reports)-1]; last.Move != m {
		t.Errorf("answered %v, not line 1's %v", m, last.Move)
	}
	single, m1 := search()
	for _, p := range single {
		if p.MultiPV != 0 {
			t.Errorf("a single-line search reported line %d", p.MultiPV)
		}
	}
	if m1 != m {
		t.Errorf("the single-line search answered %v, line 1 was %v", m1, m)
	}
}

// TestNativeInfinite: the zero limit searches until its context is
// cancelled, reporting each depth as it completes, and then answers at
// once with a legal move.
func TestNativeInfinite(t *testing.T) {
	g := midGame(t)
	e := translate.NewNative()
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := e.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	deepest := 0
	deep := make(chan struct{})
	var once sync.Once
	type answer struct {
		m   core.Move
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		m, err := e.BestMove(ctx, engine.Limit{}, func(p engine.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if p.Depth < deepest {
				t.Errorf("depth %d reported after %d", p.Depth, deepest)
			}
			deepest = p.Depth
			if deepest >= 4 {
				once.Do(func() { close(deep) })
			}
		})
		answered <- answer{m, err}
	}()
	select {
	case <-deep:
	case a := <-answered:
		t.Fatalf("the search answered %v, %v before it was stopped, at depth %d", a.m, a.err, deepest)
	case <-time.After(30 * time.Second):
		t.Fatal("depth 4 not reported within 30s")
	}
	cancel()
	select {
	case a := <-answered:
		if a.err != nil || !g.Legal(a.m) {
			t.Errorf("stopped, it answered %v, %v", a.m, a.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the search went on after its context was cancelled")
	}
}

// TestNativeEvalDefault: the native engine plays the learned network by
// default, and says so: its Eval option reads nnue, and its depth-4
// search reports, depth by depth, the nodes, scores and lines of a
// searcher of the ai package set to the network, not those of one left at
// the ai package's own default, the linear evaluation. Eval=linear gives
// the linear searcher's.
func TestNativeEvalDefault(t *testing.T) {
	ctx := context.Background()
	g := midGame(t)
	const depth = 4
	engineReports := func(options ...string) []engine.Progress {
		t.Helper()
		reports, _ := nativeSearch(t, g, depth, options...)
		return reports
	}
	searcherReports := func(eval string) []engine.Progress {
		t.Helper()
		s := ai.New(1, 64)
		if eval != "" {
			if err := s.SetEval(eval); err != nil {
				t.Fatal(err)
			}
		}
		var reports []engine.Progress
		s.Search(ctx, g.Clone(), ai.Limits{Depth: depth}, func(info ai.Info) { reports = append(reports, translate.ProgressOf(info)) })
		return reports
	}
	same := func(a, b []engine.Progress) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i].Depth != b[i].Depth || a[i].Nodes != b[i].Nodes || a[i].Score != b[i].Score || !slices.Equal(a[i].PV, b[i].PV) {
				return false
			}
		}
		return true
	}

	e := translate.NewNative()
	for _, o := range e.Options() {
		if o.Name == "Eval" && (o.Default != ai.EvalNNUE || o.Value() != ai.EvalNNUE) {
			t.Errorf("option Eval: default %q, value %q; want nnue", o.Default, o.Value())
		}
	}
	e.Close()
	linear, network := searcherReports(""), searcherReports(ai.EvalNNUE)
	if same(linear, network) {
		t.Fatal("the two evaluations search this position alike: the test cannot tell them apart")
	}
	if got := engineReports(); !same(got, network) {
		t.Errorf("the native engine by default searched\n%+v\nnot as the network does\n%+v", got, network)
	}
	if got := engineReports("Eval=linear"); !same(got, linear) {
		t.Errorf("the native engine with Eval=linear searched\n%+v\nnot as the linear evaluation does\n%+v", got, linear)
	}
}

// nativeSearch searches g to depth with a native engine given options,
// and returns its reports and its move.
func nativeSearch(t *testing.T, g *core.Game, depth int, options ...string) ([]engine.Progress, core.Move) {
	t.Helper()
	ctx := context.Background()
	e := translate.NewNative()
	defer e.Close()
	if err := translate.ApplyOptions(e, options); err != nil {
		t.Fatal(err)
	}
	if err := e.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var reports []engine.Progress
	m, err := e.BestMove(ctx, engine.Limit{Depth: depth}, func(p engine.Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	return reports, m
}

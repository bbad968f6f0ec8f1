package translate_test

import (
	"context"
	"sync"
	"testing"
	"time"

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
	ctx := context.Background()
	g := midGame(t)
	search := func(options ...string) ([]engine.Progress, core.Move) {
		t.Helper()
		e := translate.NewNative()
		defer e.Close()
		if err := translate.ApplyOptions(e, options); err != nil {
			t.Fatal(err)
		}
		if err := e.NewGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		var reports []engine.Progress
		m, err := e.BestMove(ctx, engine.Limit{Depth: 3}, func(p engine.Progress) { reports = append(reports, p) })
		if err != nil {
			t.Fatal(err)
		}
		return reports, m
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

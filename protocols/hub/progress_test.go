package hub_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

// TestInfoOfProgress checks the info line written for a search report, as
// hub-hive.md gives it (info depth=D score=S nodes=N time=T nps=K
// pv="m1;m2;m3"), and that it reads back as the same report.
func TestInfoOfProgress(t *testing.T) {
	g := core.NewGame(core.Base)
	var l core.MoveList
	g.GenerateMoves(&l)
	first := l.At(0)
	c := g.Clone()
	c.Play(first)
	c.GenerateMoves(&l)
	reply := l.At(0)
	p := engine.Progress{
		Move: first, Depth: 5, SelDepth: 9, Score: engine.EvalScore(-125),
		Nodes: 2500000, Elapsed: 1250 * time.Millisecond, PV: []core.Move{first, reply},
	}
	line := hub.InfoOf(p, g).Line().String()
	want := `info depth=5 score=-1.25 nodes=2500000 time=1.25 nps=2 pv="wS1;bS1 wS1-" sel-depth=9`
	if line != want {
		t.Fatalf("InfoOf = %s\nwant      %s", line, want)
	}
	parsed, err := hub.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	info, err := hub.ParseInfo(parsed)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := info.Progress(g)
	p.SelDepth, p.NPS = 0, 2000000 // sel-depth is hivebridge's own field; nps is read back from what was written
	if !ok || !reflect.DeepEqual(got, p) {
		t.Errorf("read back %+v, %v; want %+v", got, ok, p)
	}

	// Forced results are 1000 minus the plies, both ways.
	for _, s := range []engine.Score{engine.WinIn(7), engine.LossIn(12)} {
		if back := hub.ScoreOf(s).Engine(); back != s {
			t.Errorf("ScoreOf(%+v) reads back as %+v", s, back)
		}
	}
	// A report without a line gives the move alone as pv; an info line
	// without a pv is no report of a move.
	if got := hub.InfoOf(engine.Progress{Move: first}, g).Line().String(); got != "info time=0 pv=wS1" {
		t.Errorf("InfoOf(move alone) = %s", got)
	}
	if _, ok := (hub.Info{Has: hub.InfoDepth, Depth: 3}).Progress(g); ok {
		t.Error("an info line without pv read as a report of a move")
	}
}

// TestInfoOfMultiPV: a report of line K of a MultiPV search is written
// with hivebridge's field multipv=K after sel-depth, reads back as line K,
// and a multipv= that is no line number is ignored, as Hub has a GUI
// ignore what it cannot read.
func TestInfoOfMultiPV(t *testing.T) {
	g := core.NewGame(core.Base)
	var l core.MoveList
	g.GenerateMoves(&l)
	p := engine.Progress{Move: l.At(2), Depth: 4, SelDepth: 6, Score: engine.EvalScore(30), PV: []core.Move{l.At(2)}, MultiPV: 3}
	line := hub.InfoOf(p, g).Line().String()
	if want := `info depth=4 score=0.3 time=0 pv=wG1 sel-depth=6 multipv=3`; line != want {
		t.Fatalf("InfoOf = %s\nwant      %s", line, want)
	}
	read := func(line string) engine.Progress {
		t.Helper()
		parsed, err := hub.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		info, err := hub.ParseInfo(parsed)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := info.Progress(g)
		if !ok {
			t.Fatalf("%s read as no report", line)
		}
		return got
	}
	p.SelDepth = 0
	if got := read(line); !reflect.DeepEqual(got, p) || got.Best() {
		t.Errorf("read back %+v (best %v), want %+v", got, got.Best(), p)
	}
	for _, line := range []string{`info depth=4 pv=wG1 multipv=0`, `info depth=4 pv=wG1 multipv=x`, `info depth=4 pv=wG1`} {
		if got := read(line); got.MultiPV != 0 || !got.Best() {
			t.Errorf("%s read as line %d", line, got.MultiPV)
		}
	}
}

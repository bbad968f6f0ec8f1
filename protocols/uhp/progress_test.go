package uhp_test

import (
	"reflect"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// TestFormatScore checks the scores of intermediate best moves: pieces with
// two decimals, as the reference engine prints them ("27856.04"), and a
// forced result as 1000 minus its plies.
func TestFormatScore(t *testing.T) {
	for _, tc := range []struct {
		s    engine.Score
		want string
	}{
		{engine.EvalScore(2785604), "27856.04"},
		{engine.EvalScore(-150), "-1.50"},
		{engine.EvalScore(0), "0.00"},
		{engine.EvalScore(7), "0.07"},
		{engine.WinIn(1), "999.00"},
		{engine.LossIn(4), "-996.00"},
		{engine.Score{}, "0.00"},
	} {
		if got := uhp.FormatScore(tc.s); got != tc.want {
			t.Errorf("FormatScore(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestParseProgress reads what engines print before their answer: the
// reference engine's reports (from its spec example, with and without a
// line), .NET's infinities for proved results, and bare moves.
func TestParseProgress(t *testing.T) {
	g := load(t, "Base;InProgress;White[2];wS1;bS1 wS1-")
	move := func(s string, g *core.Game) core.Move {
		m, err := uhp.ParseMove(s, g)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	wQ := move("wQ -wS1", g)
	after := g.Clone()
	after.Play(wQ)
	bQ := move("bQ bS1-", after)
	for _, tc := range []struct {
		line string
		want engine.Progress
	}{
		{"wQ -wS1", engine.Progress{Move: wQ}},
		{"wQ -wS1;3;27856.04;wQ -wS1", engine.Progress{Move: wQ, Depth: 3, Score: engine.EvalScore(2785604), PV: []core.Move{wQ}}},
		{"wQ -wS1;2;-1.5;wQ -wS1;bQ bS1-", engine.Progress{Move: wQ, Depth: 2, Score: engine.EvalScore(-150), PV: []core.Move{wQ, bQ}}},
		{"wQ -wS1;4;0.00", engine.Progress{Move: wQ, Depth: 4, Score: engine.EvalScore(0)}},
		{"wQ -wS1;5;∞;wQ -wS1", engine.Progress{Move: wQ, Depth: 5, Score: engine.WinIn(0), PV: []core.Move{wQ}}},
		{"wQ -wS1;5;-Infinity", engine.Progress{Move: wQ, Depth: 5, Score: engine.LossIn(0)}},
		// A line that goes wrong is cut there.
		{"wQ -wS1;2;0.10;wQ -wS1;wA1 -wQ;bQ bS1-", engine.Progress{Move: wQ, Depth: 2, Score: engine.EvalScore(10), PV: []core.Move{wQ}}},
	} {
		got, err := uhp.ParseProgress(tc.line, g)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseProgress(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "ok", "wQ -wS1;3", "wQ -wS1;x;1.0", "wQ -wS1;-1;1.0", "wQ -wS1;3;abc", "wQ -wS1;3;NaN", "wZ1;1;1.0"} {
		if p, err := uhp.ParseProgress(bad, g); err == nil {
			t.Errorf("ParseProgress(%q) = %+v, want an error", bad, p)
		}
	}
}

// FuzzParseProgress feeds any text as an intermediate best move of the
// fuzzing positions: an error or a report whose move and line are legal,
// never a panic, and g left as it was.
func FuzzParseProgress(f *testing.F) {
	for _, s := range []string{"wS1", "wS1;1;0.50;wS1", "bA1 wB1\\;1;999.00;bA1 wB1\\", "wQ -wS1;5;∞", "x;;;", ";", "wS1;99999999999999999999;1", "wS1;1;0.50;wS1;multipv=2", "wS1;1;0.50;multipv=0", "wS1;2;1;multipv=99999999999999999999"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, line string, which uint8) {
		g := load(t, fuzzPositions[int(which)%len(fuzzPositions)])
		before := g.Hash()
		p, err := uhp.ParseProgress(line, g)
		if g.Hash() != before {
			t.Fatalf("ParseProgress changed the game")
		}
		if err != nil {
			return
		}
		if err := g.RuleBroken(p.Move); err != nil {
			t.Fatalf("the reported move is not legal: %v", err)
		}
		c := g.Clone()
		for i, m := range p.PV {
			if err := c.RuleBroken(m); err != nil {
				t.Fatalf("PV move %d is not legal: %v", i, err)
			}
			c.Play(m)
		}
	})
}

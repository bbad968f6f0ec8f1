package referee

import (
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// adjudicate plays the first legal move of each position of a Base game and
// hands the adjudicator each score in turn, as the referee's loop does;
// it returns the ply at which the game was adjudicated (0: never) and how.
func adjudicate(t *testing.T, rules Adjudication, scores []Eval) (ply int, result core.Result, reason string) {
	t.Helper()
	g := core.NewGame(core.Base)
	var l core.MoveList
	a := adjudicator{rules: rules}
	for _, e := range scores {
		mover := g.ToMove()
		g.GenerateMoves(&l)
		g.Play(l.At(0))
		if result, reason, over := a.see(mover, e, g); over {
			return g.MovesPlayed(), result, reason
		}
	}
	return 0, core.InProgress, ""
}

func evals(centis ...int) []Eval {
	out := make([]Eval, len(centis))
	for i, c := range centis {
		out[i] = Eval{Depth: 5, Score: engine.EvalScore(c)}
	}
	return out
}

// TestAdjudicateDraw: cutechess's -draw movenumber=3 movecount=2 score=20:
// four plies in a row within 0.20 of zero, from move 3 on; a score outside
// the margin, or a move without a score, starts the count again.
func TestAdjudicateDraw(t *testing.T) {
	rule := Adjudication{Draw: &DrawRule{MoveNumber: 3, MoveCount: 2, Score: 20}}
	if ply, result, reason := adjudicate(t, rule, evals(5, -5, 20, -20, 0, 0)); ply != 6 || result != core.Draw || !strings.HasPrefix(reason, "adjudicated a draw: both engines scored within 0.20 pieces for 2 moves each") {
		t.Errorf("adjudicated at ply %d: %v, %q; want a draw at ply 6 (move 3)", ply, result, reason)
	}
	// Within the margin from the start, but move 3 comes only at ply 6.
	if ply, _, _ := adjudicate(t, rule, evals(0, 0, 0, 0, 0, 0, 0)); ply != 6 {
		t.Errorf("adjudicated at ply %d, want 6", ply)
	}
	if ply, _, _ := adjudicate(t, rule, evals(0, 0, 0, 21, 0, 0, 0, 0)); ply != 8 {
		t.Errorf("after a score of 0.21 at ply 4, adjudicated at ply %d, want 8", ply)
	}
	unscored := evals(0, 0, 0, 0, 0, 0, 0)
	unscored[3] = Eval{}
	if ply, _, _ := adjudicate(t, rule, unscored); ply != 0 {
		t.Errorf("after a move without a score at ply 4, adjudicated at ply %d, want not yet", ply)
	}
}

// TestAdjudicateResign: -resign movecount=2 score=300, two-sided: White
// scores itself lost by 3 pieces on two moves in a row and Black itself won
// by as much on its two: White loses at White's second such move. Black
// alone thinking so ends nothing, nor does White alone.
func TestAdjudicateResign(t *testing.T) {
	rule := Adjudication{Resign: &ResignRule{MoveCount: 2, Score: 300}}
	ply, result, reason := adjudicate(t, rule, evals(0, 300, -300, 400, -350))
	if ply != 5 || result != core.BlackWins || reason != "adjudicated a loss for white: both engines scored it lost by 3.00 pieces or more for 2 moves each" {
		t.Errorf("adjudicated at ply %d: %v, %q; want Black to win at ply 5", ply, result, reason)
	}
	if ply, _, _ := adjudicate(t, rule, evals(0, 500, 0, 500, 0, 500, 0)); ply != 0 {
		t.Errorf("one-sided: adjudicated at ply %d", ply)
	}
	if ply, _, _ := adjudicate(t, rule, evals(-500, 0, -500, 0, -500, 0)); ply != 0 {
		t.Errorf("one-sided: adjudicated at ply %d", ply)
	}
	// A forced loss is beyond any margin.
	forced := []Eval{{Depth: 3, Score: engine.WinIn(5)}, {Depth: 3, Score: engine.LossIn(4)}, {Depth: 3, Score: engine.WinIn(3)}, {Depth: 3, Score: engine.LossIn(2)}}
	if ply, result, _ := adjudicate(t, rule, forced); ply != 4 || result != core.WhiteWins {
		t.Errorf("forced results: adjudicated at ply %d: %v, want White to win at ply 4", ply, result)
	}
}

func TestParseAdjudicationRules(t *testing.T) {
	d, err := ParseDrawRule("movenumber=40, movecount=8,score=10")
	if err != nil || *d != (DrawRule{MoveNumber: 40, MoveCount: 8, Score: 10}) {
		t.Errorf("ParseDrawRule = %+v, %v", d, err)
	}
	r, err := ParseResignRule("score=400,movecount=3")
	if err != nil || *r != (ResignRule{MoveCount: 3, Score: 400}) {
		t.Errorf("ParseResignRule = %+v, %v", r, err)
	}
	for in, want := range map[string]string{
		"movenumber=40,movecount=8":           "score= is missing",
		"movenumber=40,movecount=8,score=-1":  "want a whole number from 0",
		"movenumber=4,movenumber=8,score=1":   "each once",
		"movenumber=4,movecount=8,score=1,x=": "each once",
	} {
		if _, err := ParseDrawRule(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDrawRule(%q) = %v, want an error saying %q", in, err, want)
		}
	}
	if _, err := ParseResignRule("movecount=0,score=300"); err == nil {
		t.Error("a resign rule of 0 moves is taken")
	}
}

// TestLagReserve: twice the largest lag of the last eight answers is kept
// back; a lag forgotten after eight more answers is no longer; an answer
// earlier than its time is no lag.
func TestLagReserve(t *testing.T) {
	var l lag
	if l.reserve() != 0 {
		t.Fatalf("a fresh lag reserves %v", l.reserve())
	}
	l.add(30 * time.Millisecond)
	l.add(-5 * time.Millisecond)
	l.add(4 * time.Millisecond)
	if l.reserve() != 60*time.Millisecond {
		t.Errorf("reserve %v, want 60ms", l.reserve())
	}
	for range 7 {
		l.add(2 * time.Millisecond)
	}
	if l.reserve() != 8*time.Millisecond {
		t.Errorf("after eight more answers the reserve is %v, want 8ms", l.reserve())
	}
}

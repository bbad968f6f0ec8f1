package bot

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate"
)

// The site's history is replayed in the site's spelling, first move
// alone; a history that differs from the one followed is followed from
// where the two part, the engine then given the whole game.
func TestFollowHistory(t *testing.T) {
	ctx := context.Background()
	parse := func(s string) []hivegame.HistoryMove {
		t.Helper()
		e, err := hivegame.ParseHistory(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	gs := &gameState{game: newCoreGame(core.Base), engine: translate.NewNative()}
	if err := gs.engine.NewGame(ctx, gs.game); err != nil {
		t.Fatal(err)
	}
	gs.inStep = true
	if err := gs.follow(ctx, parse(`wS1 ;bG1 -wS1;wA1 wS1/;`)); err != nil {
		t.Fatal(err)
	}
	if gs.game.MovesPlayed() != 3 || !gs.inStep {
		t.Fatalf("after three plies: %d played, in step %v", gs.game.MovesPlayed(), gs.inStep)
	}
	// The engine was told the moves: it searches the same position.
	if m, err := gs.engine.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || !gs.game.Legal(m) {
		t.Fatalf("the engine's move %v, %v, is not legal in the game followed", m, err)
	}
	// The site's history parts from the one followed at ply 2.
	if err := gs.follow(ctx, parse(`wS1 ;bG1 -wS1;wQ wS1/;bQ /bG1;`)); err != nil {
		t.Fatal(err)
	}
	if gs.game.MovesPlayed() != 4 || gs.inStep {
		t.Errorf("after parting: %d played, in step %v; want 4, not in step", gs.game.MovesPlayed(), gs.inStep)
	}
	if text, err := siteText(gs.game.History()[0], newCoreGame(core.Base)); err != nil || text != "wS1" {
		t.Errorf("the first move is written %q, %v; want the piece alone", text, err)
	}
	// A move the rules refuse, or a pass the player did not have to make,
	// is an error.
	for _, bad := range []string{`wS1 ;bG1 -wS1;wQ wS1/;bQ /bG1;wA1 bQ-;`, `wS1 ;pass ;`} {
		gs := &gameState{game: newCoreGame(core.Base)}
		if err := gs.follow(ctx, parse(bad)); err == nil {
			t.Errorf("%s followed without an error", bad)
		}
	}
}

// The quick move is the native engine's: a search with its evaluation
// (translate.DefaultEval), which in the first position of a seeded
// random walk where the two evaluations choose apart at depth 3 is the
// move of that evaluation's searcher, not of the other's.
func TestQuickMoveUsesTheEnginesEvaluation(t *testing.T) {
	ctx := context.Background()
	best := func(g *core.Game, eval string) core.Move {
		s := ai.New(1, 1)
		if err := s.SetEval(eval); err != nil {
			t.Fatal(err)
		}
		return s.Search(ctx, g.Clone(), ai.Limits{Depth: 3}, nil).Move
	}
	other := ai.EvalLinear
	if translate.DefaultEval == ai.EvalLinear {
		other = ai.EvalNNUE
	}
	rng := rand.New(rand.NewPCG(3, 3))
	g := newCoreGame(core.AllExpansions)
	var l core.MoveList
	for g.Ply() < 40 && !g.Over() {
		g.GenerateMoves(&l)
		g.Play(l.At(rng.IntN(l.Len())))
		want := best(g, translate.DefaultEval)
		if want == best(g, other) {
			continue
		}
		if got := quickMove(ctx, g, time.Now().Add(time.Minute), 3, nil); got != want {
			t.Errorf("ply %d: quick move %v, the %s searcher's %v", g.Ply(), got, translate.DefaultEval, want)
		}
		return
	}
	t.Fatal("no position of the walk where the evaluations choose apart")
}

package translate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// An engine given a game set up from a position undoes the moves played
// since, and no more: undo past the set-up position is refused, and the
// game is left as it was.
func TestUndoStopsAtSetUp(t *testing.T) {
	ctx := context.Background()
	e := translate.NewNative()
	defer e.Close()
	g, err := core.NewGameAt(midGame(t).CurrentPosition())
	if err != nil {
		t.Fatal(err)
	}
	start := g.Hash()
	var l core.MoveList
	for range 2 {
		g.GenerateMoves(&l)
		g.Play(l.At(0))
	}
	if err := e.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := e.Undo(ctx, 3); err == nil || err.Error() != "cannot undo more moves than were played" {
		t.Errorf("Undo(3) of a game set up 2 moves ago = %v, want a refusal", err)
	}
	if err := e.Undo(ctx, 2); err != nil {
		t.Fatalf("Undo(2): %v", err)
	}
	if err := e.Undo(ctx, 1); err == nil {
		t.Errorf("Undo(1) at the set-up position succeeded")
	}
	// The engine's game is the set-up position: its move is legal there.
	m, err := e.BestMove(ctx, engine.Limit{Depth: 1}, nil)
	at, _ := core.NewGameAt(g.StartPosition())
	if err != nil || !at.Legal(m) || at.Hash() != start {
		t.Errorf("BestMove after undoing to the set-up position = %v, %v", m, err)
	}
}

// A UHP engine cannot be given a game set up from a position (UHP has no
// set-up form; newgame takes a GameString, the moves from the empty
// board): the search fails with uhp.ErrSetUp and sends the engine nothing,
// and the engine, still in step with its last game, searches the next
// game it can be given.
func TestUHPEngineRefusesSetUp(t *testing.T) {
	p, _ := startFake(t, "good")
	ctx := context.Background()
	g := uhptest.Load(t, midgame)
	set, err := core.NewGameAt(g.CurrentPosition())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.NewGame(ctx, set); err != nil {
		t.Fatal(err)
	}
	m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil)
	if !errors.Is(err, uhp.ErrSetUp) || !strings.Contains(err.Error(), "engine fake good cannot be given this game") {
		t.Fatalf("BestMove of a set-up game = %v, %v; want uhp.ErrSetUp naming the engine", m, err)
	}
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove of the same position played = %v, %v; want %v", m, err, firstLegal(g))
	}
}

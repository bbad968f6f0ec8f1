package translate_test

import (
	"context"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
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

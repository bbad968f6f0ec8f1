package core

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestCopyToIsAnIndependentCopy copies positions of random games into a
// game holding another one, and checks that the copy equals the original
// field by field, that moves played and undone on either leave the other
// as it was, and that copying into a game that already has the room
// allocates nothing.
func TestCopyToIsAnIndependentCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	var l MoveList
	playRandom := func(g *Game, plies int) {
		for i := 0; i < plies && !g.Over(); i++ {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	var dst *Game
	for game := range 200 {
		g := NewGame(GameType(game) % AllGameTypes)
		playRandom(g, rng.IntN(60))
		if game%7 == 0 {
			dst = nil // a nil destination gets a new game
		}
		dst = g.CopyTo(dst)
		if !reflect.DeepEqual(*dst, *g) {
			t.Fatalf("game %d: the copy differs from the original", game)
		}
		before := g.Clone()
		playRandom(dst, 20)
		for dst.MovesPlayed() > 0 {
			dst.Undo()
		}
		if !reflect.DeepEqual(*g, *before) {
			t.Fatalf("game %d: moves on the copy changed the original", game)
		}
		copied := g.CopyTo(dst)
		playRandom(g, 10)
		if !reflect.DeepEqual(*copied, *before) {
			t.Fatalf("game %d: moves on the original changed the copy", game)
		}
		after := g.Clone()
		playRandom(copied, 10)
		if !reflect.DeepEqual(*g, *after) {
			t.Fatalf("game %d: moves on the copy changed the original's history", game)
		}
		if allocs := testing.AllocsPerRun(10, func() { g.CopyTo(dst) }); allocs != 0 {
			t.Fatalf("game %d: CopyTo into a game with room allocated %v times", game, allocs)
		}
	}
}

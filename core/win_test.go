package core

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCanPlaceAtMatchesPlacementCells checks the one-cell placement test
// that HasWinningMove uses (a placement onto the enemy Queen's last cell
// wins when a Beetle of the player covers that Queen) against the
// placement cells of move generation, for every cell next to the hive (and
// the origin) of every position of random games.
func TestCanPlaceAtMatchesPlacementCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	var l MoveList
	checked := 0
	for game := 0; game < 100; game++ {
		g := NewGame(GameType(game) % AllGameTypes)
		for !g.Over() && g.Ply() < 80 {
			me := g.ToMove()
			var cells [NumPieces * NumDirections]Cell
			want := cells[:g.placementCells(me, &cells)]
			around := []Cell{Origin}
			for p := Piece(0); p < NumPieces; p++ {
				if c := g.pos[p]; c != NoCell {
					for d := Direction(0); d < NumDirections; d++ {
						around = append(around, c, c.Neighbor(d))
					}
				}
			}
			for _, c := range around {
				if got := g.canPlaceAt(me, c); got != slices.Contains(want, c) {
					t.Fatalf("game %d ply %d: canPlaceAt(%d) = %v, placement cells %v", game, g.Ply(), c, got, want)
				}
				checked++
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d cells checked", checked)
	}
}

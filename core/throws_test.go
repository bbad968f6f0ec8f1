package core_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// TestThrowsAndOwnMoves checks, over seeded random games with the Pillbug,
// that the throws and the pieces' own moves together are exactly the legal
// moves, that every throw is made by the side to move's Pillbug or a
// Mosquito touching it, next to the thrower, and that throws do happen.
func TestThrowsAndOwnMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var all, own core.MoveList
	sawThrowOnly := 0
	for _, gt := range []core.GameType{core.WithPillbug, core.AllExpansions} {
		for range 20 {
			g := core.NewGame(gt)
			for g.Ply() < 150 && !g.Over() {
				g.GenerateMoves(&all)
				g.GenerateOwnMoves(&own)
				union := map[core.Move]bool{}
				for _, m := range own.Moves() {
					union[m] = true
				}
				for _, th := range g.Throws(nil) {
					if th.User.Color() != g.ToMove() || (th.User.Bug() != core.Pillbug && th.User.Bug() != core.Mosquito) {
						t.Fatalf("throw by %s at ply %d", th.User, g.Ply())
					}
					if _, next := g.Position(th.User).DirectionTo(th.To); !next {
						t.Fatalf("throw of %s lands away from %s", th.Piece, th.User)
					}
					m := core.MakeMove(th.Piece, th.To)
					if !union[m] {
						sawThrowOnly++
					}
					union[m] = true
				}
				want := all.Len()
				if want == 1 && all.At(0) == core.Pass {
					want = 0
				}
				if len(union) != want {
					t.Fatalf("ply %d: own moves and throws give %d moves, GenerateMoves %d", g.Ply(), len(union), want)
				}
				for _, m := range all.Moves() {
					if m != core.Pass && !union[m] {
						t.Fatalf("ply %d: %v neither an own move nor a throw", g.Ply(), m)
					}
				}
				g.Play(all.At(rng.IntN(all.Len())))
			}
		}
	}
	if sawThrowOnly == 0 {
		t.Fatal("no move was possible by a throw alone: the test saw no throws")
	}
}

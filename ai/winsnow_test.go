package ai_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// TestWinsNowMatchesPlay checks the search's shortcut for "the side to
// move can win at once", which plays only the moves that can close the
// enemy Queen's last cell, against playing every legal move, over every
// position of random games of every game type (Pillbug throws of a Queen
// included).
func TestWinsNowMatchesPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	var l core.MoveList
	wins := 0
	for game := 0; game < 160; game++ {
		g := core.NewGame(core.GameType(game%int(core.AllGameTypes)), core.RepetitionDraw(false))
		for !g.Over() && g.Ply() < 150 {
			want := len(winningMoves(g)) > 0
			if got := ai.WinsNow(g); got != want {
				t.Fatalf("game %d: winsNow %v, playing every move %v in %s", game, got, want, describeGame(g))
			}
			if want {
				wins++
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	if wins < 20 {
		t.Fatalf("only %d positions with a winning move: the test proves little", wins)
	}
}

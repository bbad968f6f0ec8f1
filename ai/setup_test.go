package ai_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// TestSearchSetUpMatchesPlay searches positions of seeded random games of
// all eight game types twice, each time with a new one-thread Searcher to
// a fixed depth: once in the game as played, once in a game set up at the
// same position with core.NewGameAt. The two searches must agree in
// everything that does not depend on the clock: move, score, depth,
// selective depth, nodes and principal variation. Repetition draws are
// off in both, since the played game remembers positions from before the
// set-up one's start.
func TestSearchSetUpMatchesPlay(t *testing.T) {
	perType, depth := 8, 3
	if testing.Short() || raceDetector {
		perType = 2
	}
	compared := 0
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		rng := rand.New(rand.NewPCG(uint64(gt)+300, 3))
		var l core.MoveList
		for game := 0; game < perType; game++ {
			g := core.NewGame(gt, core.RepetitionDraw(false))
			target := 8 + rng.IntN(60)
			for g.Ply() < target && !g.Over() {
				g.GenerateMoves(&l)
				g.Play(l.At(rng.IntN(l.Len())))
			}
			if g.Over() {
				continue
			}
			s, err := core.NewGameAt(g.CurrentPosition(), core.RepetitionDraw(false))
			if err != nil {
				t.Fatalf("type %d ply %d: NewGameAt: %v", gt, g.Ply(), err)
			}
			played := ai.New(1, 1).Search(context.Background(), g, ai.Limits{Depth: depth}, nil)
			setUp := ai.New(1, 1).Search(context.Background(), s, ai.Limits{Depth: depth}, nil)
			if played.Move != setUp.Move || played.Score != setUp.Score || played.Depth != setUp.Depth ||
				played.SelDepth != setUp.SelDepth || played.Nodes != setUp.Nodes || !slices.Equal(played.PV, setUp.PV) {
				t.Errorf("type %d ply %d: searched as played %s score %d depth %d/%d nodes %d pv %v;\n set up %s score %d depth %d/%d nodes %d pv %v\n%s",
					gt, g.Ply(), describe(g, played.Move), played.Score, played.Depth, played.SelDepth, played.Nodes, played.PV,
					describe(s, setUp.Move), setUp.Score, setUp.Depth, setUp.SelDepth, setUp.Nodes, setUp.PV, describeGame(g))
			}
			compared++
		}
	}
	if compared < 8 {
		t.Errorf("only %d positions compared", compared)
	}
}

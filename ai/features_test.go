package ai_test

import (
	"math/bits"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// splits reports, by brute force, whether lifting the piece on cell x off
// the board would leave the other occupied cells in more than one group.
func splits(g *core.Game, x core.Cell) bool {
	var cells []core.Cell
	for on := g.OnBoard(); on != 0; on &= on - 1 {
		if c := g.Position(core.Piece(bits.TrailingZeros32(on))); c != x {
			cells = append(cells, c)
		}
	}
	seen := map[core.Cell]bool{cells[0]: true}
	queue := []core.Cell{cells[0]}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for d := core.Direction(0); d < core.NumDirections; d++ {
			n := c.Neighbor(d)
			if n != x && g.Height(n) > 0 && !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	for _, c := range cells {
		if !seen[c] {
			return true
		}
	}
	return false
}

// TestMobility checks core's Mobility, which the evaluation is built on,
// against brute force and against move generation: pinned pieces are
// exactly the ground pieces whose removal splits the hive, no pinned or
// covered piece ever moves, every piece that moves by itself is counted
// movable, and for the bugs whose first step decides (Queen, Beetle,
// Grasshopper, Ant) every movable piece has a move.
func TestMobility(t *testing.T) {
	exact := uint32(0)
	for _, b := range []core.Bug{core.Queen, core.Beetle, core.Grasshopper, core.Ant} {
		for c := core.White; c <= core.Black; c++ {
			for n := 1; n <= core.BugCount(b); n++ {
				p, _ := core.MakePiece(c, b, n)
				exact |= 1 << p
			}
		}
	}
	var l core.MoveList
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for _, g := range randomPositions(t, gt, 100, 4, 70, 21) {
			movable, pinned, covered := g.Mobility()
			if g.Pinned() != pinned {
				t.Fatalf("Pinned() %b, Mobility pinned %b", g.Pinned(), pinned)
			}
			for on := g.OnBoard(); on != 0; on &= on - 1 {
				p := core.Piece(bits.TrailingZeros32(on))
				c := g.Position(p)
				wantCovered := g.Top(c) != p
				wantPinned := !wantCovered && g.Height(c) == 1 && bits.OnesCount32(g.OnBoard()) > 2 && splits(g, c)
				if wantCovered != (covered&(1<<p) != 0) || wantPinned != (pinned&(1<<p) != 0) {
					t.Fatalf("%v in %s: covered %v pinned %v, want %v %v", p, describeGame(g), covered&(1<<p) != 0, pinned&(1<<p) != 0, wantCovered, wantPinned)
				}
			}
			g.GenerateMoves(&l)
			var moved uint32
			for _, m := range l.Moves() {
				if m != core.Pass && !g.InHand(m.Piece()) {
					moved |= 1 << m.Piece()
				}
			}
			if moved&(pinned|covered) != 0 {
				t.Fatalf("pinned or covered pieces %b move in %s", moved&(pinned|covered), describeGame(g))
			}
			me := g.ToMove()
			own := sideMask(me)
			if gt&core.WithPillbug != 0 {
				continue // throws move pieces that cannot move themselves
			}
			if moved&^movable != 0 {
				t.Fatalf("pieces %b move but are not movable in %s", moved&^movable, describeGame(g))
			}
			if g.Position(core.Piece(me)*core.PiecesPerColor) == core.NoCell {
				continue // nothing may move yet
			}
			if lm := g.LastMoved(); lm != core.NoPiece {
				own &^= 1 << lm
			}
			if miss := movable & exact & own &^ moved; miss != 0 {
				t.Fatalf("pieces %b are movable but have no move in %s", miss, describeGame(g))
			}
		}
	}
}

func sideMask(c core.Color) uint32 {
	return (1<<core.PiecesPerColor - 1) << (core.PiecesPerColor * uint32(c))
}

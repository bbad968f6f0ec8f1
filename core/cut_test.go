package core

import (
	"math/rand/v2"
	"testing"
)

// TestCutPiecesMatchesArticulation checks the shortcuts of cutPieces (no
// hole; holes, single cells or larger, found by flooding) against the
// articulation-point search over every position of many random games of
// every game type, holes included: the two must name the same pieces
// everywhere.
func TestCutPiecesMatchesArticulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	var l MoveList
	withHoles, withLargerHoles := 0, 0
	for game := 0; game < 400; game++ {
		g := NewGame(GameType(game) % AllGameTypes)
		for !g.Over() && g.Ply() < 120 {
			if got, want := g.findCutPieces(), g.articulationPieces(); got != want {
				t.Fatalf("game %d ply %d: cutPieces %032b, articulation search %032b", game, g.Ply(), got, want)
			}
			if g.hasHole() {
				withHoles++
			}
			if g.hasMultiCellHole() {
				withLargerHoles++
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	if withHoles < 1000 || withLargerHoles < 1000 {
		t.Fatalf("only %d positions with a single-cell hole and %d with a larger one: the shortcut for holes was hardly tested", withHoles, withLargerHoles)
	}
}

// hasHole reports whether the hive encloses an empty cell closed on all
// six sides (the commonest hole).
func (g *Game) hasHole() bool {
	for p := Piece(0); p < NumPieces; p++ {
		if c := g.pos[p]; c != NoCell {
			for d := Direction(0); d < NumDirections; d++ {
				if x := c.Neighbor(d); g.height[x] == 0 && g.occ[x] == 63 {
					return true
				}
			}
		}
	}
	return false
}

// countEulerAndRuns counts over the whole hive what the Game keeps up to
// date move by move: V - E + T of the occupied cells, and the top pieces
// of the cells whose occupied neighbours form two runs or more.
func (g *Game) countEulerAndRuns() (int, uint32) {
	v, e2, t3 := 0, 0, 0
	var runs uint32
	for c := Cell(0); c < gridCells; c++ {
		if g.height[c] == 0 {
			continue
		}
		v++
		n, pairs := 0, 0
		for d := Direction(0); d < NumDirections; d++ {
			if g.height[c.Neighbor(d)] != 0 {
				n++
				if g.height[c.Neighbor(d.Clockwise())] != 0 {
					pairs++
				}
			}
		}
		e2 += n
		t3 += pairs
		if n < NumDirections && n-pairs >= 2 {
			runs |= 1 << g.top[c]
		}
	}
	return v - e2/2 + t3/3, runs
}

// TestBugFamilies checks Mobility's sets of pieces by bug family against
// the pieces' bugs: each piece is in exactly the family of its bug.
func TestBugFamilies(t *testing.T) {
	for p := Piece(0); p < NumPieces; p++ {
		var want uint32
		switch p.Bug() {
		case Queen, Spider, Ant, Pillbug:
			want = slidingBugs
		case Grasshopper, Ladybug:
			want = jumpingBugs
		case Beetle:
			want = beetleBugs
		case Mosquito:
			want = mosquitoBugs
		}
		for _, family := range []uint32{slidingBugs, jumpingBugs, beetleBugs, mosquitoBugs} {
			if in := family&(1<<p) != 0; in != (family == want) {
				t.Errorf("%v: in family %#x: %v", p, family, in)
			}
		}
	}
}

// TestSlidable checks the constant slidable against slideDirections.
func TestSlidable(t *testing.T) {
	for occ := uint8(0); occ < 64; occ++ {
		if got, want := canSlide(occ), slideDirections(occ) != 0; got != want {
			t.Errorf("neighbours %06b: canSlide %v, slideDirections %06b", occ, got, slideDirections(occ))
		}
	}
}

// TestMultiRunMasks checks the constant multiRunMasks against a count of
// the runs of each set of occupied neighbours, walking round the cell.
func TestMultiRunMasks(t *testing.T) {
	for occ := 0; occ < 64; occ++ {
		runs := 0
		for d := 0; d < NumDirections; d++ {
			if occ&(1<<d) != 0 && occ&(1<<((d+5)%6)) == 0 {
				runs++ // a run starts at d
			}
		}
		if got := multiRunMasks>>occ&1 == 1; got != (runs >= 2) {
			t.Errorf("neighbours %06b: %d runs, multiRunMasks says two or more: %v", occ, runs, got)
		}
	}
}

// countTops returns the pieces on top of their cells, and of those the
// ones on a stack, looked up cell by cell.
func (g *Game) countTops() (tops, stacked uint32) {
	for c := Cell(0); c < gridCells; c++ {
		if g.height[c] > 0 {
			tops |= 1 << g.top[c]
		}
		if g.height[c] > 1 {
			stacked |= 1 << g.top[c]
		}
	}
	return tops, stacked
}

// TestCutPiecesMemo plays and takes back moves of random games, asking
// for the cut set before and after each, and checks that the memo of
// cutPieces always answers what a fresh computation does: Play must
// forget it and Undo bring back the parent's, passes included.
func TestCutPiecesMemo(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	var l MoveList
	check := func(g *Game, game int, when string) {
		t.Helper()
		if got, want := g.cutPieces(), g.findCutPieces(); got != want {
			t.Fatalf("game %d ply %d %s: memo %032b, computed %032b", game, g.Ply(), when, got, want)
		}
		if euler, runs := g.countEulerAndRuns(); g.euler != euler || g.runs != runs {
			t.Fatalf("game %d ply %d %s: kept V-E+T %d and runs %032b, counted %d and %032b", game, g.Ply(), when, g.euler, g.runs, euler, runs)
		}
		if tops, stacked := g.countTops(); g.tops != tops || g.stacked != stacked {
			t.Fatalf("game %d ply %d %s: kept tops %032b and stacked %032b, counted %032b and %032b", game, g.Ply(), when, g.tops, g.stacked, tops, stacked)
		}
	}
	for game := 0; game < 100; game++ {
		g := NewGame(GameType(game) % AllGameTypes)
		for !g.Over() && g.Ply() < 100 {
			check(g, game, "before the moves")
			g.GenerateMoves(&l)
			for i := 0; i < 3 && i < l.Len(); i++ {
				g.Play(l.At(rng.IntN(l.Len())))
				if rng.IntN(2) == 0 {
					check(g, game, "after a move")
				}
				if !g.Over() {
					g.Play(Pass)
					check(g, game, "after a pass")
					g.Undo()
				}
				g.Undo()
				check(g, game, "after taking the move back")
			}
			g.Play(l.At(rng.IntN(l.Len())))
		}
		// A game set up at the last position builds it by other means.
		s, err := NewGameAt(g.CurrentPosition())
		if err != nil {
			t.Fatal(err)
		}
		check(s, game, "set up")
	}
}

// hasMultiCellHole reports whether the hive encloses an empty region of
// two or more cells and no larger than maxHoleCells.
func (g *Game) hasMultiCellHole() bool {
	seen := map[Cell]bool{}
	for p := Piece(0); p < NumPieces; p++ {
		c := g.pos[p]
		if c == NoCell {
			continue
		}
		for d := Direction(0); d < NumDirections; d++ {
			x := c.Neighbor(d)
			if g.height[x] != 0 || seen[x] {
				continue
			}
			region := []Cell{x}
			seen[x] = true
			for i := 0; i < len(region) && len(region) <= 2*maxHoleCells; i++ {
				for e := Direction(0); e < NumDirections; e++ {
					if y := region[i].Neighbor(e); g.height[y] == 0 && !seen[y] {
						seen[y] = true
						region = append(region, y)
					}
				}
			}
			if n := len(region); n >= 2 && n <= maxHoleCells {
				return true
			}
		}
	}
	return false
}

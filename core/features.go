package core

import "math/bits"

// This file exposes, read-only, the facts about a position that an
// evaluation needs at every leaf of a search. They come from the state that
// Play keeps up to date (neighbour masks, stack heights), so that an
// evaluation can weigh mobility without generating every move, which costs
// ten times more. Like GenerateMoves, they may use the game's scratch
// space: do not call them on one Game from two goroutines at once.

// Neighbors returns one bit per occupied neighbour of cell c, bit d for
// direction d. Its population count is how surrounded a Queen on c is.
func (g *Game) Neighbors(c Cell) uint8 { return g.occ[c] }

// Hand returns the pieces colour c still has to place, one bit per slot:
// bit i stands for piece Piece(c)*PiecesPerColor + i.
func (g *Game) Hand(c Color) uint16 { return g.inHand[c] }

// Pinned returns, one bit per piece, the pieces on the ground that may not
// leave their cell because the hive would split in two (One Hive). A piece
// on top of a stack is never pinned: its cell stays occupied when it leaves.
func (g *Game) Pinned() uint32 { return g.cutPieces() &^ g.stacked }

// Mobility classifies the pieces on the board, one bit per piece, in one
// pass: pinned (on the ground, and its cell an articulation point of the
// hive), covered (something stands on it), and movable (neither, and with
// at least one first step open to its bug). The first step makes the test
// exact for the Queen, Beetle, Grasshopper, Ant and Pillbug's own move; a
// Spider, Ladybug or Mosquito that can start a move is counted movable even
// when every path dies before its end, and Pillbug throws are not counted.
// The test ignores whose turn it is, the piece moved last turn and the rule
// that no piece moves before its Queen is placed: it measures the position,
// not the next move.
func (g *Game) Mobility() (movable, pinned, covered uint32) {
	pinned = g.Pinned()
	covered = g.onBoard &^ g.tops
	free := g.tops &^ pinned
	// The free pieces are tested bug family by bug family, each with its
	// own loop: one loop over them all branched on each piece's bug, which
	// the processor mostly failed to predict. A piece on the ground with
	// no neighbour is the only piece on the board, and cannot move.
	for s := free & g.stacked; s != 0; s &= s - 1 {
		c := g.pos[bits.TrailingZeros32(s)]
		if g.canClimb(c, g.height[c]-1) {
			movable |= s & -s
		}
	}
	ground := free &^ g.stacked
	for s := ground & slidingBugs; s != 0; s &= s - 1 {
		if canSlide(g.occ[g.pos[bits.TrailingZeros32(s)]]) {
			movable |= s & -s
		}
	}
	for s := ground & jumpingBugs; s != 0; s &= s - 1 {
		// A Grasshopper always has a neighbour to jump over, and a
		// Ladybug next to a stack can nearly always climb it.
		if g.occ[g.pos[bits.TrailingZeros32(s)]] != 0 {
			movable |= s & -s
		}
	}
	for s := ground & beetleBugs; s != 0; s &= s - 1 {
		if g.canClimb(g.pos[bits.TrailingZeros32(s)], 0) {
			movable |= s & -s
		}
	}
	for s := ground & mosquitoBugs; s != 0; s &= s - 1 {
		if g.mosquitoCanStart(g.pos[bits.TrailingZeros32(s)]) {
			movable |= s & -s
		}
	}
	return movable, pinned, covered
}

// The pieces of both colours by how Mobility tests them: the bugs that
// slide (Queen, Spiders, Ants, Pillbug), that jump or climb over others
// (Grasshoppers, Ladybug), the Beetles and the Mosquito. TestBugFamilies
// holds them to the pieces' bugs.
const (
	slidingBugs  = 0x2707 | 0x2707<<PiecesPerColor
	jumpingBugs  = 0x10E0 | 0x10E0<<PiecesPerColor
	beetleBugs   = 0x0018 | 0x0018<<PiecesPerColor
	mosquitoBugs = 0x0800 | 0x0800<<PiecesPerColor
)

// mosquitoCanStart reports whether a Mosquito on the ground on c has a
// first step open to a bug it touches (see Mobility).
func (g *Game) mosquitoCanStart(c Cell) bool {
	var touched uint16
	for d := Direction(0); d < NumDirections; d++ {
		if t := g.top[c.Neighbor(d)]; t != NoPiece {
			touched |= 1 << t.Bug()
		}
	}
	switch {
	case touched&(1<<Grasshopper|1<<Ladybug) != 0:
		return true
	case touched&(1<<Beetle) != 0:
		return g.canClimb(c, 0)
	case touched&(1<<Queen|1<<Spider|1<<Ant|1<<Pillbug) != 0:
		return canSlide(g.occ[c])
	}
	return false // it touches only Mosquitoes, or nothing
}

// slidable has bit occ set when a piece on the ground whose occupied
// neighbours are occ can slide somewhere (slideDirections(occ) != 0),
// which TestSlidable checks.
const slidable uint64 = 0x131f13ff575ffffe

// canSlide reports whether a piece on the ground whose occupied neighbours
// are occ can slide one step: one lookup in place of slideDirections.
func canSlide(occ uint8) bool { return slidable>>(occ&63)&1 != 0 }

// canClimb reports whether a Beetle standing on c above level pieces can
// take one step in some direction.
func (g *Game) canClimb(c Cell, level uint8) bool {
	for d := Direction(0); d < NumDirections; d++ {
		h := g.height[c.Neighbor(d)]
		if level == 0 && h == 0 {
			left := g.height[c.Neighbor(d.CounterClockwise())]
			right := g.height[c.Neighbor(d.Clockwise())]
			if (left == 0) != (right == 0) {
				return true
			}
		} else if !g.gateBlocks(c, d, level, h) {
			return true
		}
	}
	return false
}

// cutPieces returns the top pieces of the cells whose removal would split
// the hive (see findCutPieces), computed once per position: the Game
// keeps the last answer until the board changes.
func (g *Game) cutPieces() uint32 {
	if !g.cutKnown {
		g.cut, g.cutKnown = g.findCutPieces(), true
	}
	return g.cut
}

// findCutPieces returns the same set as articulationPieces, the top pieces of
// the cells whose removal would split the hive, usually without a graph
// search. On the hexagonal grid the occupied cells, their adjacencies and
// their triangles of mutually adjacent cells form a planar complex, whose
// Euler characteristic V - E + T is the number of connected pieces of hive
// (one) minus the number of holes, the enclosed empty regions. Removing a
// cell whose occupied neighbours form k separate runs around it raises that
// characteristic by k-1 and merges the k empty gaps between the runs into
// one region, so the hive falls apart exactly when two of the gaps belonged
// to the same region. With no hole, every gap lies in the one outer region,
// and a cell is a cut exactly when k >= 2. V - E + T and the cells with two
// runs or more are kept up to date by every move (see Game.euler), so this
// costs nothing unless the hive has holes. A hive with holes (two
// positions in five of the midgame benchmark's searches) needs to know
// which gaps share a region: see cutPiecesWithHoles. It matters because an
// evaluation asks for this at every leaf of a search.
func (g *Game) findCutPieces() uint32 {
	if bits.OnesCount32(g.onBoard) < 3 {
		return 0
	}
	if holes := 1 - g.euler; holes != 0 {
		return g.cutPiecesWithHoles(holes, g.runs)
	}
	return g.runs
}

// maxHoleCells is the largest hole cutPiecesWithHoles measures: a flood
// of the empty cells that grows past it is taken for the outer region,
// which the count of holes then checks. So is one that reaches an empty
// cell with openCell or fewer occupied neighbours: the cells of a small
// hole are hemmed in on three sides or more, and most of the cells around
// a hive are not, so the outer region is told apart in a step or two.
const (
	maxHoleCells = 12
	openCell     = 2
)

// cutPiecesWithHoles returns what findCutPieces does, for a hive with
// holes, given the cells with two or more runs of neighbours (candidates:
// no other cell can be a cut). Removing a cell whose neighbours form k
// runs, with gaps lying in r distinct empty regions, leaves k-r+1 pieces of
// hive (the Euler characteristic rises by k-1 while r regions merge into
// one), so the cell is a cut exactly when two of its gaps share a region.
//
// The regions are found by flooding the empty cells next to the hive, each
// flood stopped once it grows past maxHoleCells cells, meets a cell of a
// stopped flood or one open on four sides or more (see openCell): a flood
// that ends by itself has found a whole hole, one that was stopped is
// labelled outer. When as many holes were found
// as the Euler count says there are, every stopped flood was indeed the
// outer region (an unbounded region is the only one left), and the cells
// left unlabelled once all holes are found are outer too. Holes are
// nearly always single cells closed on all six sides, each a flood of one
// cell. A hole larger than maxHoleCells, or with an open cell, leaves the
// count short, and the articulation-point search decides.
func (g *Game) cutPiecesWithHoles(holes int, candidates uint32) uint32 {
	if holes < 0 || holes > 62 {
		return g.articulationPieces() // not a real hive's: let the search decide
	}
	// Labels: outer, then outer+1+i for the i-th hole found.
	r := regions{outer: g.gen.newEpochs(uint32(holes) + 1), holes: holes}
	// A hole mostly outlives the move that follows (moves happen at the
	// hive's edge), so a cell of each hole found last time is flooded
	// first: when every hole is found there, nothing else is flooded.
	hints := g.gen.holeHints
	for _, x := range hints[:min(holes, len(hints))] {
		if g.height[x] == 0 {
			g.labelFrom(&r, x)
		}
	}
	// The gaps of the candidates first: they are all that the answer
	// reads. The rest of the hive's edge is looked at only for holes
	// that no candidate touches, and only until every hole is found.
	for cand := candidates; cand != 0 && r.found < holes; cand &= cand - 1 {
		g.labelAround(&r, g.pos[bits.TrailingZeros32(cand)])
	}
	for rest := g.onBoard; rest != 0 && r.found < holes; rest &= rest - 1 {
		p := Piece(bits.TrailingZeros32(rest))
		if c := g.pos[p]; g.top[c] == p && candidates&(1<<p) == 0 {
			g.labelAround(&r, c)
		}
	}
	if r.found != holes {
		return g.articulationPieces()
	}
	// A candidate next to no hole has all its gaps, two or more, in the
	// outer region: a cut. The others are looked at gap by gap.
	mark := &g.gen.mark
	cut := candidates &^ r.touching
	for candidates &= r.touching; candidates != 0; candidates &= candidates - 1 {
		p := Piece(bits.TrailingZeros32(candidates))
		c := g.pos[p]
		occ := g.occ[c]
		// Each gap starts at an empty neighbour d whose neighbour d-1 is
		// occupied; its cells are neighbours of each other, so the first
		// names the gap's region.
		var seen uint64
		for s := ^occ & (occ<<1 | occ>>5) & 63; s != 0; s &= s - 1 {
			x := c.Neighbor(Direction(bits.TrailingZeros8(s)))
			label := r.outer // unlabelled once every hole was found: outside
			if m := mark[x]; m > r.outer && m <= r.outer+uint32(holes) {
				label = m
			}
			bit := uint64(1) << (label - r.outer)
			if seen&bit != 0 {
				cut |= 1 << p
				break
			}
			seen |= bit
		}
	}
	return cut
}

// regions is the state of cutPiecesWithHoles' labelling of the empty
// cells: the outer label (holes are labelled after it), how many holes
// the Euler count says there are, and how many have been found.
type regions struct {
	outer        uint32
	holes, found int
	// touching has the top pieces of the cells next to a hole found.
	touching uint32
}

// labelAround labels the empty neighbours of the occupied cell c with
// their regions, flooding from each one not labelled yet (see
// cutPiecesWithHoles).
func (g *Game) labelAround(r *regions, c Cell) {
	for empty := ^g.occ[c] & 63; empty != 0 && r.found < r.holes; empty &= empty - 1 {
		g.labelFrom(r, c.Neighbor(Direction(bits.TrailingZeros8(empty))))
	}
}

// labelFrom labels the region of the empty cell x, unless it is labelled
// already: a hole if a flood from x ends by itself, and outer if it is
// stopped (see cutPiecesWithHoles). A hole's x is kept as a hint for the
// positions that follow.
func (g *Game) labelFrom(r *regions, x Cell) {
	mark := &g.gen.mark
	if m := mark[x]; m >= r.outer && m <= r.outer+uint32(r.holes) {
		return // labelled already
	}
	if bits.OnesCount8(g.occ[x]) <= openCell {
		mark[x] = r.outer // looks outside
		return
	}
	label := r.outer + 1 + uint32(r.found)
	mark[x] = label
	var touch uint32 // the top pieces next to the flood
	var flood [maxHoleCells]Cell
	flood[0] = x
	n := 1
	for i := 0; i < n; i++ {
		f := flood[i]
		for d := Direction(0); d < NumDirections; d++ {
			y := f.Neighbor(d)
			if g.height[y] != 0 {
				touch |= 1 << (g.top[y] & 31)
				continue
			}
			if mark[y] == label {
				continue
			}
			if mark[y] == r.outer || n == maxHoleCells || bits.OnesCount8(g.occ[y]) <= openCell {
				for _, f := range flood[:n] {
					mark[f] = r.outer
				}
				return
			}
			mark[y] = label
			flood[n] = y
			n++
		}
	}
	if r.found < len(g.gen.holeHints) {
		g.gen.holeHints[r.found] = x
	}
	r.found++
	r.touching |= touch
}

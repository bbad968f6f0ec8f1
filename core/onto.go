package core

import "math/bits"

// GenerateAttacks fills l with the moves that close in on the Queen on q,
// Hive's captures: those that take one more of the cells around it, or
// climb onto it (see closesIn), in GenerateMoves' order. The quiescence
// search looks at these alone, in the full list's order, and this gives
// them without listing the hundred others: the placements are found by
// testing the target cells alone, a piece that cannot go as far as a
// target (see reachOf) is passed over, and so is a piece on the ground
// next to the Queen (which frees one of its cells by leaving) unless it
// may climb; only the throwers next to a target are used.
func (g *Game) GenerateAttacks(l *MoveList, q Cell) {
	if g.result != InProgress || q == NoCell {
		l.n = 0
		return
	}
	targets := [1 + NumDirections]Cell{q}
	nt := 1
	for empty := ^g.occ[q] & 63; empty != 0; empty &= empty - 1 {
		targets[nt] = q.Neighbor(Direction(bits.TrailingZeros8(empty)))
		nt++
	}
	g.generateOnto(l, targets[:nt], g.groundedNextTo(q))
	kept := 0
	for _, m := range l.moves[:l.n] {
		if g.closesIn(m, q) {
			l.moves[kept] = m
			kept++
		}
	}
	l.n = kept
}

// closesIn reports whether m takes one more cell next to the Queen on q,
// or climbs onto it: a piece arriving there from further off, from the
// hand, or from the top of a stack, whose cell it leaves occupied. (The
// Queen on q itself, moved or thrown, leaves q for a cell next to it, and
// so closes in on nothing.)
func (g *Game) closesIn(m Move, q Cell) bool {
	p, to := m.Piece(), m.To()
	if to == q {
		return true
	}
	if !to.Adjacent(q) || g.height[to] > 0 {
		return false
	}
	from := g.pos[p]
	if from == NoCell || g.height[from] > 1 {
		return true
	}
	return !from.Adjacent(q) && from != q
}

// groundedNextTo returns, one bit per piece, the side to move's pieces on
// the ground next to q that cannot climb (neither a Beetle nor a
// Mosquito): every move of theirs leaves one cell next to q as it takes
// another, so none closes in.
func (g *Game) groundedNextTo(q Cell) uint32 {
	base := Piece(g.ToMove()) * PiecesPerColor
	var grounded uint32
	for d := Direction(0); d < NumDirections; d++ {
		n := q.Neighbor(d)
		if p := g.top[n]; g.height[n] == 1 && p-base < PiecesPerColor && p.Bug() != Beetle && p.Bug() != Mosquito {
			grounded |= 1 << p
		}
	}
	return grounded
}

// generateOnto fills l with the moves of GenerateMoves' list that end on
// one of the cells of targets, in the same order, and never a Pass,
// leaving out the moves of the pieces in skip (one bit per piece) but not
// their throws.
func (g *Game) generateOnto(l *MoveList, targets []Cell, skip uint32) {
	l.n = 0
	me := g.ToMove()
	g.genPlacementsOnto(l, me, targets)
	if g.pos[queenOf(me)] == NoCell {
		return
	}
	pinned := g.cutPieces()
	generated := g.genPiecesOnto(l, me, pinned, targets, skip)
	if g.gameType&WithPillbug != 0 {
		g.eachThrow(me, pinned, targets, func(X Piece) {
			g.markOwnMoves(l, X, generated)
		}, func(_, X Piece, to Cell) {
			if isTarget(to, targets) {
				g.addDest(l, X, to)
			}
		})
	}
}

func isTarget(c Cell, targets []Cell) bool {
	for _, t := range targets {
		if t == c {
			return true
		}
	}
	return false
}

// genPlacementsOnto adds the placements onto targets in genPlacements'
// order: by piece, then by the order in which placementCells finds the
// cells, which is that of the first of the player's stacks (by piece, then
// by direction) next to each cell.
func (g *Game) genPlacementsOnto(l *MoveList, me Color, targets []Cell) {
	slots := g.placeable(me)
	if slots == 0 {
		return
	}
	base := Piece(me) * PiecesPerColor
	var cells [NumPieces * NumDirections]Cell
	var n int
	if g.onBoard>>(PiecesPerColor*uint(me))&(1<<PiecesPerColor-1) == 0 {
		// The first piece of the game or of the player: placementCells'
		// other orders; the cells are few.
		for _, c := range cells[:g.placementCells(me, &cells)] {
			if isTarget(c, targets) {
				cells[n] = c
				n++
			}
		}
	} else {
		var rank [NumPieces * NumDirections]int
		for _, t := range targets {
			if !g.canPlaceAt(me, t) {
				continue
			}
			r := 1 << 30
			for e := Direction(0); e < NumDirections; e++ {
				if p := g.top[t.Neighbor(e)]; p-base < PiecesPerColor {
					r = min(r, int(p)*NumDirections+int(e.Opposite()))
				}
			}
			i := n
			for ; i > 0 && rank[i-1] > r; i-- {
				cells[i], rank[i] = cells[i-1], rank[i-1]
			}
			cells[i], rank[i] = t, r
			n++
		}
	}
	for ; slots != 0; slots &= slots - 1 {
		p := base + Piece(bits.TrailingZeros16(slots))
		for _, c := range cells[:n] {
			l.add(MakeMove(p, c))
		}
	}
}

// genPiecesOnto is genPieces keeping only the moves onto targets, and
// passing over the pieces in skip. A piece that cannot go further than
// reachOf says and has no target that near has none, and is passed over
// too. The throws of a piece passed over get no
// marks of its own moves (see markOwnMoves): it has none onto a target,
// or (in skip) none that its caller keeps.
func (g *Game) genPiecesOnto(l *MoveList, me Color, pinned uint32, targets []Cell, skip uint32) uint32 {
	var generated uint32
	for free := g.movers(me, pinned) &^ skip; free != 0; free &= free - 1 {
		p := Piece(bits.TrailingZeros32(free))
		c := g.pos[p]
		h := g.height[c]
		if reach := reachOf(p, h); reach > 0 && !anyWithin(c, targets, reach) {
			continue
		}
		first := l.n
		if h == 1 && p.Bug() == Ant {
			// The Ant's walk stops once it has reached every target.
			g.pickUp(p, c, h)
			g.antSearch(l, p, c, targets)
			g.putBack(p, c, h)
		} else {
			g.genPiece(l, p, c, h)
		}
		kept := first
		for _, m := range l.moves[first:l.n] {
			if isTarget(m.To(), targets) {
				l.moves[kept] = m
				kept++
			}
		}
		l.n = kept
		g.gen.first[p], g.gen.end[p] = uint16(first), uint16(kept)
		generated |= 1 << p
	}
	return generated
}

// reachOf returns how many steps from its cell piece p, at height h, can
// end its move at most, or 0 when its moves may end anywhere (an Ant, a
// Grasshopper, a Mosquito on the ground): one for a piece that moves one
// step only (see stepsOnce), three for a Spider or a Ladybug.
func reachOf(p Piece, h uint8) int {
	if stepsOnce(p, h) {
		return 1
	}
	switch p.Bug() {
	case Spider, Ladybug:
		return 3
	}
	return 0
}

// anyWithin reports whether one of targets is at most n steps from c.
func anyWithin(c Cell, targets []Cell, n int) bool {
	for _, t := range targets {
		if c.within(t, n) {
			return true
		}
	}
	return false
}

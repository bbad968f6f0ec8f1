package core

import "math/bits"

// GenerateMovesOnto fills l with the moves of GenerateMoves' list that end
// on one of the cells of targets, in the same order, and never a Pass. A
// search that looks only at the moves onto a few cells (the quiescence
// search's attacks on a Queen) needs their order to be the full list's,
// and this gives it without listing the hundred others: the placements are
// found by testing the targets alone, a piece that moves one step only is
// looked at only next to a target, and the throws only onto targets.
func (g *Game) GenerateMovesOnto(l *MoveList, targets []Cell) {
	l.n = 0
	if g.result != InProgress {
		return
	}
	me := g.ToMove()
	g.genPlacementsOnto(l, me, targets)
	if g.pos[queenOf(me)] == NoCell {
		return
	}
	pinned := g.cutPieces()
	generated := g.genPiecesOnto(l, me, pinned, targets)
	if g.gameType&WithPillbug != 0 {
		g.eachThrow(me, pinned, func(X Piece) {
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

// genPiecesOnto is genPieces keeping only the moves onto targets. A piece
// that moves one step only (one on a stack, a Queen, Beetle or Pillbug)
// and is next to no target has none, and is passed over: its throws need
// no marks of its own moves (see markOwnMoves), since it has none onto a
// target.
func (g *Game) genPiecesOnto(l *MoveList, me Color, pinned uint32, targets []Cell) uint32 {
	var generated uint32
	for free := g.movers(me, pinned); free != 0; free &= free - 1 {
		p := Piece(bits.TrailingZeros32(free))
		c := g.pos[p]
		h := g.height[c]
		if stepsOnce(p, h) {
			near := false
			for _, t := range targets {
				near = near || c.Adjacent(t)
			}
			if !near {
				continue
			}
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

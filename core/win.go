package core

import "math/bits"

// HasWinningMove reports whether the side to move has a move that wins the
// game at once, with l as scratch space. It is what a search asks at its
// leaves, where playing every legal move to see would cost more than the
// rest of the leaf: only a move onto the last empty cell around the enemy
// Queen can surround it (a move empties at most one cell and fills one), or
// a Pillbug's throw of that Queen into a hole. So only those moves are
// generated, and of the pieces only those that could make one: not a
// piece on the ground next to the enemy Queen (leaving opens a cell next
// to it), nor one further from the target cell than it can go (see
// reachOf). Each candidate is then
// played, so that a move that also surrounds its own Queen (a draw) is not
// counted as a win.
func (g *Game) HasWinningMove(l *MoveList) bool {
	if g.result != InProgress {
		return false
	}
	me := g.ToMove()
	queen := queenOf(me.Other())
	q := g.pos[queen]
	if q == NoCell {
		return false
	}
	occ := g.occ[q]
	last := NoCell // the Queen's one empty neighbour, if it has just one
	if bits.OnesCount8(occ) == NumDirections-1 {
		last = q.Neighbor(Direction(bits.TrailingZeros8(^occ & 63)))
	}
	throws := g.gameType&WithPillbug != 0
	if last == NoCell && !throws {
		return false
	}
	l.n = 0
	if last != NoCell {
		base := Piece(me) * PiecesPerColor
		if g.canPlaceAt(me, last) {
			for slots := g.placeable(me); slots != 0; slots &= slots - 1 {
				l.add(MakeMove(base+Piece(bits.TrailingZeros16(slots)), last))
			}
		}
	}
	if g.pos[queenOf(me)] != NoCell {
		pinned := g.cutPieces()
		if last != NoCell {
			g.genMovesOnto(l, me, pinned, q, last)
		}
		if throws {
			g.eachThrow(me, pinned, []Cell{last, q}, nil, func(_, X Piece, to Cell) {
				if to == last || X == queen {
					l.add(MakeMove(X, to))
				}
			})
		}
	}
	won := WhiteWins
	if me == Black {
		won = BlackWins
	}
	for _, m := range l.moves[:l.n] {
		g.Play(m)
		r := g.result
		g.Undo()
		if r == won {
			return true
		}
	}
	return false
}

// canPlaceAt reports whether the side to move may place a piece on cell c
// (see placementCells), whether or not it has one it may place now.
func (g *Game) canPlaceAt(me Color, c Cell) bool {
	if g.height[c] != 0 {
		return false
	}
	if g.onBoard == 0 {
		return c == Origin
	}
	if g.onBoard>>(PiecesPerColor*uint(me))&(1<<PiecesPerColor-1) == 0 {
		return g.occ[c] != 0 // a player's first piece: anywhere next to the hive
	}
	return g.touchesColor(c, Piece(me)*PiecesPerColor) && !g.touchesColor(c, Piece(me.Other())*PiecesPerColor)
}

// genMovesOnto adds the moves of the side to move's pieces by themselves
// that end on cell to, next to the enemy Queen on q, leaving out the
// pieces that cannot make one (see HasWinningMove).
func (g *Game) genMovesOnto(l *MoveList, me Color, pinned uint32, q, to Cell) {
	for free := g.movers(me, pinned); free != 0; free &= free - 1 {
		p := Piece(bits.TrailingZeros32(free))
		c := g.pos[p]
		h := g.height[c]
		if reach := reachOf(p, h); h == 1 && c.Adjacent(q) || reach > 0 && !c.within(to, reach) {
			continue
		}
		if h == 1 && p.Bug() == Ant {
			if g.antReaches(l, p, c, to) {
				l.add(MakeMove(p, to))
			}
			continue
		}
		first := l.n
		g.genPiece(l, p, c, h)
		// Keep only the move onto to (genPiece lists each cell once).
		end := l.n
		l.n = first
		for _, m := range l.moves[first:end] {
			if m.To() == to {
				l.add(m)
				break
			}
		}
	}
}

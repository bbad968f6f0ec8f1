package core

// IsLegal reports whether m is in GenerateMoves' list, with l as scratch
// space (its contents are lost). It generates only what could contain m:
// for a placement, the one cell's test; for a piece on the board, that
// piece's own moves, then its throws. A search asks this of the moves it
// tries before generating the rest (the table's move, the killers), which
// refute most positions: at a node cut by one of them, checking the move
// costs a fraction of listing and ordering a hundred.
func (g *Game) IsLegal(m Move, l *MoveList) bool {
	if g.result != InProgress || m == NoMove {
		return false
	}
	if m == Pass {
		g.GenerateMoves(l)
		return l.n == 1 && l.moves[0] == Pass
	}
	p, to := m.Piece(), m.To()
	if m > Pass || !g.InPlay(p) {
		return false // not a move of this encoding or this game type
	}
	me := g.ToMove()
	from := g.pos[p]
	if from == NoCell {
		return p.Color() == me && g.placeable(me)&(1<<(p%PiecesPerColor)) != 0 && g.canPlaceAt(me, to)
	}
	if g.pos[queenOf(me)] == NoCell {
		return false // nothing moves before its player's Queen is placed
	}
	pinned := g.cutPieces()
	if p.Color() == me && p != g.lastMoved && g.top[from] == p {
		if h := g.height[from]; h > 1 || pinned&(1<<p) == 0 {
			l.n = 0
			g.genPiece(l, p, from, h)
			if l.Contains(m) {
				return true
			}
		}
	}
	if g.gameType&WithPillbug == 0 || g.height[from] != 1 {
		return false
	}
	thrown := false
	g.eachThrow(me, pinned, nil, func(_, X Piece, z Cell) {
		thrown = thrown || X == p && z == to
	})
	return thrown
}

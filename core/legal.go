package core

// LegalWithScratch reports whether m is in GenerateMoves' list, with l as
// scratch space (its contents are lost), so that the search's hot path
// allocates nothing (Legal is the same answer with a list of its own, and
// RuleBroken says which rule a move breaks). It generates only what could
// contain m: for a placement, the one cell's test; for a piece on the
// board, that piece's own moves, then its throws. A search asks this of the moves it
// tries before generating the rest (the table's move, the killers), which
// refute most positions: at a node cut by one of them, checking the move
// costs a fraction of listing and ordering a hundred.
func (g *Game) LegalWithScratch(m Move, l *MoveList) bool {
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
	h := g.height[from]
	if h == 1 && g.isCut(p) {
		return false // pinned: it may neither move nor be thrown
	}
	if p.Color() == me && p != g.lastMoved && g.top[from] == p {
		if h == 1 && p.Bug() == Ant {
			if l.n = 0; g.antReaches(l, p, from, to) {
				return true
			}
		} else {
			l.n = 0
			g.genPiece(l, p, from, h)
			if l.Contains(m) {
				return true
			}
		}
	}
	if g.gameType&WithPillbug == 0 || h != 1 {
		return false
	}
	// Only p's throws matter: every other piece counts as pinned.
	thrown := false
	g.eachThrow(me, ^uint32(1<<p), []Cell{to}, nil, func(_, X Piece, z Cell) {
		thrown = thrown || z == to
	})
	return thrown
}

// isCut reports whether piece p, on top of its cell, is a cut piece (see
// cutPieces). A cell with fewer than two runs of neighbours never is, which
// the Game knows without looking for holes in the hive.
func (g *Game) isCut(p Piece) bool {
	return g.runs&(1<<p) != 0 && g.cutPieces()&(1<<p) != 0
}

// antReaches reports whether the Ant p on cell c (alone there) can slide
// to cell to: genAnt's search, stopped as soon as it reaches to, which
// saves half of it on average (an Ant has the most moves of any piece).
// The search's queue is l beyond its moves, which it leaves as they were.
func (g *Game) antReaches(l *MoveList, p Piece, c, to Cell) bool {
	if to == c {
		return false
	}
	g.pickUp(p, c, 1)
	first := l.n
	g.antSearch(l, p, c, []Cell{to})
	l.n = first
	g.putBack(p, c, 1)
	return g.gen.mark[to] == g.gen.epoch
}

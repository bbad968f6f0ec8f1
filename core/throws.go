package core

import "math/bits"

// Throw is one use of the Pillbug's special ability: the piece that uses it
// (a Pillbug, or a Mosquito touching one), the piece thrown and where it
// lands. Protocols that spell a throw differently from a walk need it; as a
// Move, a throw is just its piece and destination.
type Throw struct {
	User, Piece Piece
	To          Cell
}

// Throws appends to dst every throw the side to move may make now, each
// thrower separately, including those that land where the piece could also
// walk: the Move of each is in GenerateMoves' list.
func (g *Game) Throws(dst []Throw) []Throw {
	me := g.ToMove()
	if g.result != InProgress || g.gameType&WithPillbug == 0 || g.pos[queenOf(me)] == NoCell {
		return dst
	}
	g.eachThrow(me, g.cutPieces(), nil, nil, func(user, X Piece, to Cell) {
		dst = append(dst, Throw{User: user, Piece: X, To: to})
	})
	return dst
}

// genThrows adds the Pillbug's special ability: the Pillbug of the side to
// move, or its Mosquito while touching a Pillbug, both uncovered on the
// ground, lifts an adjacent piece of either colour onto itself and sets it
// down on an empty cell next to itself. The thrown piece must sit alone on
// its cell, must not be the piece moved last turn, must not split the hive,
// and passes no gate of two stacks of height two or more, up or down. A
// throw to a cell the piece can also reach by itself, or by the other
// thrower, is the same move and listed once.
func (g *Game) genThrows(l *MoveList, me Color, pinned, generated uint32) {
	g.eachThrow(me, pinned, nil, func(X Piece) {
		g.markOwnMoves(l, X, generated)
	}, func(_, X Piece, to Cell) {
		g.addDest(l, X, to)
	})
}

// markOwnMoves starts a fresh set of marks with X's cell and, if X is in
// generated, the cells its own moves in l reach, so that a throw of X
// there is not listed again.
func (g *Game) markOwnMoves(l *MoveList, X Piece, generated uint32) {
	g.gen.newEpoch()
	g.gen.mark[g.pos[X]] = g.gen.epoch
	if generated&(1<<X) != 0 {
		for _, m := range l.moves[g.gen.first[X]:g.gen.end[X]] {
			g.gen.mark[m.To()] = g.gen.epoch
		}
	}
}

// eachThrow calls begin with each piece that can be thrown, then each with
// every throw of it: the thrower, the piece and where it lands. The piece is
// lifted off the board while its throws are found. With near, only the
// throwers next to one of its cells are used: a caller that wants only
// the throws landing on (or lifting a piece from) a few cells says so,
// and the other throwers' pieces are never lifted.
func (g *Game) eachThrow(me Color, pinned uint32, near []Cell, begin func(X Piece), each func(user, X Piece, to Cell)) {
	var (
		throwers [2]Cell
		users    [2]Piece
	)
	nt := 0
	base := Piece(me) * PiecesPerColor
	// A Pillbug or Mosquito that was itself thrown last turn cannot use
	// the ability now (it may not move at all this turn).
	pill := base + Piece(bugFirstSlot[Pillbug])
	if c := g.pos[pill]; c != NoCell && g.height[c] == 1 && pill != g.lastMoved {
		throwers[nt], users[nt] = c, pill
		nt++
	}
	if g.gameType&WithMosquito != 0 {
		mosq := base + Piece(bugFirstSlot[Mosquito])
		if c := g.pos[mosq]; c != NoCell && g.height[c] == 1 && mosq != g.lastMoved && g.touchesBug(c, Pillbug) {
			throwers[nt], users[nt] = c, mosq
			nt++
		}
	}
	if near != nil {
		kept := 0
		for i, t := range throwers[:nt] {
			if anyWithin(t, near, 1) {
				throwers[kept], users[kept] = t, users[i]
				kept++
			}
		}
		nt = kept
	}
	var targets uint32
	for _, t := range throwers[:nt] {
		for d := Direction(0); d < NumDirections; d++ {
			x := t.Neighbor(d)
			if g.height[x] != 1 {
				continue
			}
			if X := g.top[x]; X != g.lastMoved && pinned&(1<<X) == 0 {
				targets |= 1 << X
			}
		}
	}
	for ; targets != 0; targets &= targets - 1 {
		X := Piece(bits.TrailingZeros32(targets))
		x := g.pos[X]
		if begin != nil {
			begin(X)
		}
		g.height[x] = 0
		g.vacate(x)
		for i, t := range throwers[:nt] {
			up, adjacent := t.DirectionTo(x)
			if !adjacent || g.gateBlocks(t, up, 1, 0) {
				continue
			}
			for d := Direction(0); d < NumDirections; d++ {
				if z := t.Neighbor(d); z != x && g.height[z] == 0 && !g.gateBlocks(t, d, 1, 0) {
					each(users[i], X, z)
				}
			}
		}
		g.height[x] = 1
		g.occupy(x)
	}
}

// touchesBug reports whether a stack next to c has a piece of bug b on top.
func (g *Game) touchesBug(c Cell, b Bug) bool {
	for d := Direction(0); d < NumDirections; d++ {
		if t := g.top[c.Neighbor(d)]; t != NoPiece && t.Bug() == b {
			return true
		}
	}
	return false
}

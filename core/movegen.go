package core

import (
	"math"
	"math/bits"
)

// maxMoves bounds the moves of one position. Each of a player's 14 pieces
// can reach at most the empty cells around a hive of 27 others (fewer than
// 2*27+6 on the ground, plus the 27 stack tops for a climber), placements
// happen only while pieces remain in hand, and Pillbug throws add at most
// 2*6*6; 1024 is far beyond what any position reaches.
const maxMoves = 1024

// MoveList holds the legal moves of a position. It is a fixed array so that
// generating moves never allocates; keep one per search depth.
type MoveList struct {
	n     int
	moves [maxMoves]Move
}

// Len returns the number of moves in the list.
func (l *MoveList) Len() int { return l.n }

// At returns the i-th move.
func (l *MoveList) At(i int) Move { return l.moves[i] }

// Moves returns the moves as a slice that shares the list's storage.
func (l *MoveList) Moves() []Move { return l.moves[:l.n] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.moves[:l.n] {
		if x == m {
			return true
		}
	}
	return false
}

func (l *MoveList) add(m Move) {
	l.moves[l.n] = m
	l.n++
}

// generator is the scratch space of move generation, kept in the Game so
// that generating moves allocates nothing.
type generator struct {
	// mark[c] == epoch means cell c is already a destination of the piece
	// being generated; a new epoch forgets every mark at once.
	mark  [gridCells]uint32
	epoch uint32
	// first and end delimit, in the move list, the moves each piece made
	// by itself, so that a Pillbug throw of the same piece to the same
	// cell is not listed twice.
	first, end [NumPieces]uint16
	// disc and low are the DFS discovery times and low links of the
	// articulation-point search, indexed by the top piece of each cell.
	disc, low [32]uint8
	// holeHints are cells of the holes cutPiecesWithHoles found last,
	// any cells at first: see there.
	holeHints [4]Cell
}

// newEpoch starts a fresh set of marks.
func (s *generator) newEpoch() { s.newEpochs(1) }

// newEpochs starts n fresh sets of marks, numbered from the one returned.
// When the counter would wrap, every mark is cleared first, so an old mark
// can never pass for a new one.
func (s *generator) newEpochs(n uint32) uint32 {
	if s.epoch > math.MaxUint32-n {
		s.mark = [gridCells]uint32{}
		s.epoch = 0
	}
	first := s.epoch + 1
	s.epoch += n
	return first
}

// GenerateMoves fills l with every legal move of the side to move: each
// (piece, destination) once, a lone Pass when nothing else is legal, and
// nothing at all once the game is over.
func (g *Game) GenerateMoves(l *MoveList) {
	g.generate(l, true)
	if l.n == 0 && g.result == InProgress {
		l.add(Pass)
	}
}

// generate fills l with the placements and the moves of the pieces on the
// board, their throws too when withThrows is set.
func (g *Game) generate(l *MoveList, withThrows bool) {
	l.n = 0
	if g.result != InProgress {
		return
	}
	me := g.ToMove()
	g.genPlacements(l, me)
	if g.pos[queenOf(me)] != NoCell {
		g.genMovements(l, me, withThrows)
	}
}

// GenerateOwnMoves fills l with the legal moves of the side to move other
// than throws: placements and each piece's own movement, and no Pass.
func (g *Game) GenerateOwnMoves(l *MoveList) { g.generate(l, false) }

// Legal reports whether m is a legal move now: LegalWithScratch with a
// list of its own. RuleBroken says why a move is not.
func (g *Game) Legal(m Move) bool {
	var l MoveList
	return g.LegalWithScratch(m, &l)
}

// notFirstSlot has the slots that follow another slot of the same bug, and
// thirdSlot the third slot of the bugs that come three to a player: with
// them, the lowest-numbered piece in hand of every bug is found at once.
const (
	notFirstSlot uint16 = 1<<2 | 1<<4 | 1<<6 | 1<<7 | 1<<9 | 1<<10
	thirdSlot    uint16 = 1<<7 | 1<<10
)

// placeable returns the slots of the pieces the side to move may place now,
// one bit per slot: the lowest-numbered piece in hand of each bug, no Queen
// on a player's first turn (the tournament opening), and only the Queen from
// the fourth turn on of a player who has not placed it yet. "From the fourth
// turn on", not only on it: a player who had nowhere to place the Queen on
// the fourth turn passed, and places it as soon as there is room, so that
// no player ever has four pieces on the board without their Queen (the
// reference engine lets another bug come in on the fifth turn then; the
// difference shows only after such a pass, which perft never reaches).
func (g *Game) placeable(me Color) uint16 {
	hand := g.inHand[me]
	lowest := hand &^ (hand<<1&notFirstSlot | hand<<2&thirdSlot)
	switch ownTurn := g.ply / 2; {
	case ownTurn == 0 && !g.queenFirst:
		return lowest &^ 1
	case ownTurn >= 3 && hand&1 != 0:
		return 1
	}
	return lowest
}

// placementCells fills cells with every cell where the side to move may
// place a piece: the origin for the first piece of the game, any cell
// touching the hive for a player's first piece, and later any empty cell
// touching one of the player's own stacks and none of the opponent's (the
// colour of a stack is the colour of its top piece).
func (g *Game) placementCells(me Color, cells *[NumPieces * NumDirections]Cell) int {
	if g.onBoard == 0 {
		cells[0] = Origin
		return 1
	}
	blocked := g.gen.newEpochs(2)
	seen := blocked + 1
	mark := &g.gen.mark
	n := 0
	own := g.onBoard >> (PiecesPerColor * uint(me)) & (1<<PiecesPerColor - 1)
	if own == 0 {
		for all := g.onBoard; all != 0; all &= all - 1 {
			c := g.pos[bits.TrailingZeros32(all)]
			for empty := ^g.occ[c] & 63; empty != 0; empty &= empty - 1 {
				x := c.Neighbor(Direction(bits.TrailingZeros8(empty)))
				if mark[x] != seen {
					mark[x] = seen
					cells[n] = x
					n++
				}
			}
		}
		return n
	}
	oppBase := Piece(me.Other()) * PiecesPerColor
	for opp := g.onBoard >> (PiecesPerColor * uint(me.Other())) & (1<<PiecesPerColor - 1); opp != 0; opp &= opp - 1 {
		p := oppBase + Piece(bits.TrailingZeros32(opp))
		if c := g.pos[p]; g.top[c] == p {
			for d := Direction(0); d < NumDirections; d++ {
				mark[c.Neighbor(d)] = blocked
			}
		}
	}
	base := Piece(me) * PiecesPerColor
	for ; own != 0; own &= own - 1 {
		p := base + Piece(bits.TrailingZeros32(own))
		c := g.pos[p]
		if g.top[c] != p {
			continue
		}
		for d := Direction(0); d < NumDirections; d++ {
			x := c.Neighbor(d)
			if g.height[x] == 0 && mark[x] != blocked && mark[x] != seen {
				mark[x] = seen
				cells[n] = x
				n++
			}
		}
	}
	return n
}

// touchesColor reports whether a neighbour of c has a top piece of the
// colour whose first piece is base.
func (g *Game) touchesColor(c Cell, base Piece) bool {
	for d := Direction(0); d < NumDirections; d++ {
		if g.top[c.Neighbor(d)]-base < PiecesPerColor {
			return true
		}
	}
	return false
}

func (g *Game) genPlacements(l *MoveList, me Color) {
	slots := g.placeable(me)
	if slots == 0 {
		return
	}
	var cells [NumPieces * NumDirections]Cell
	nc := g.placementCells(me, &cells)
	base := Piece(me) * PiecesPerColor
	for ; slots != 0; slots &= slots - 1 {
		p := base + Piece(bits.TrailingZeros16(slots))
		for _, c := range cells[:nc] {
			l.add(MakeMove(p, c))
		}
	}
}

// countMoves returns the number of moves GenerateMoves would list, without
// writing out the placements: they are every placeable piece on every
// placement cell, so their count is a product. This is what makes perft's
// last ply cheap. l is scratch space for the moves of pieces on the board.
func (g *Game) countMoves(l *MoveList) int {
	if g.result != InProgress {
		return 0
	}
	me := g.ToMove()
	n := 0
	if slots := g.placeable(me); slots != 0 {
		var cells [NumPieces * NumDirections]Cell
		n = bits.OnesCount16(slots) * g.placementCells(me, &cells)
	}
	if g.pos[queenOf(me)] != NoCell {
		l.n = 0
		g.genMovements(l, me, true)
		n += l.n
	}
	if n == 0 {
		return 1 // pass
	}
	return n
}

// genMovements adds the moves of the pieces on the board: each uncovered
// piece of the side to move that would not split the hive and did not move
// last turn, then, when withThrows is set, the throws of its Pillbug (and of
// a Mosquito touching one).
func (g *Game) genMovements(l *MoveList, me Color, withThrows bool) {
	pinned := g.cutPieces()
	generated := g.genPieces(l, me, pinned)
	if withThrows && g.gameType&WithPillbug != 0 {
		g.genThrows(l, me, pinned, generated)
	}
}

// movers returns, one bit per piece, the pieces of side me that may move by
// themselves: each on top of its stack, not the piece moved last, and not
// pinned to the ground (pinned: see cutPieces).
func (g *Game) movers(me Color, pinned uint32) uint32 {
	base := Piece(me) * PiecesPerColor
	var free uint32
	for own := g.onBoard >> (PiecesPerColor * uint(me)) & (1<<PiecesPerColor - 1); own != 0; own &= own - 1 {
		p := base + Piece(bits.TrailingZeros32(own))
		c := g.pos[p]
		if g.top[c] != p || p == g.lastMoved || g.height[c] == 1 && pinned&(1<<p) != 0 {
			continue
		}
		free |= 1 << p
	}
	return free
}

// stepsOnce reports whether piece p, at height h, moves one cell at a time
// (a Queen, Beetle or Pillbug, or any piece on top of the hive): such a
// piece reaches only the cells next to it.
func stepsOnce(p Piece, h uint8) bool {
	b := p.Bug()
	return h > 1 || b == Queen || b == Beetle || b == Pillbug
}

// genPieces adds the moves of the side to move's pieces by themselves and
// returns, one bit per piece, those whose moves it listed.
func (g *Game) genPieces(l *MoveList, me Color, pinned uint32) uint32 {
	var generated uint32
	for free := g.movers(me, pinned); free != 0; free &= free - 1 {
		p := Piece(bits.TrailingZeros32(free))
		c := g.pos[p]
		h := g.height[c]
		first := l.n
		g.genPiece(l, p, c, h)
		g.gen.first[p], g.gen.end[p] = uint16(first), uint16(l.n)
		generated |= 1 << p
	}
	return generated
}

// genPiece adds the moves of piece p, the top of cell c of height h. The
// piece is lifted off the board while its moves are traced, so that it
// neither blocks nor supports its own path.
func (g *Game) genPiece(l *MoveList, p Piece, c Cell, h uint8) {
	g.pickUp(p, c, h)
	bug := p.Bug()
	switch {
	case h > 1:
		// Only a Beetle, or a Mosquito that climbed as one, is ever on top
		// of the hive, and from there both move as a Beetle.
		g.genBeetle(l, p, c)
	case bug == Mosquito:
		g.genMosquito(l, p, c)
	default:
		g.genBug(l, p, c, bug)
	}
	g.putBack(p, c, h)
}

// pickUp lifts piece p, the top of cell c of height h, off the board while
// its moves are traced, and starts a fresh set of marks with c marked, so
// that a move back to c is never listed; putBack undoes it.
func (g *Game) pickUp(p Piece, c Cell, h uint8) {
	g.height[c] = h - 1
	if h == 1 {
		g.vacate(c)
	}
	g.top[c] = g.under[p]
	g.gen.newEpoch()
	g.gen.mark[c] = g.gen.epoch
}

// putBack puts piece p back on cell c after pickUp.
func (g *Game) putBack(p Piece, c Cell, h uint8) {
	g.height[c] = h
	if h == 1 {
		g.occupy(c)
	}
	g.top[c] = p
}

func (g *Game) genBug(l *MoveList, p Piece, c Cell, bug Bug) {
	switch bug {
	case Queen, Pillbug:
		g.addSlides(l, p, c)
	case Spider:
		g.genSpider(l, p, c)
	case Beetle:
		g.genBeetle(l, p, c)
	case Grasshopper:
		g.genGrasshopper(l, p, c)
	case Ant:
		g.genAnt(l, p, c)
	case Ladybug:
		g.genLadybug(l, p, c)
	}
}

// genMosquito moves a Mosquito on the ground as any bug it touches: the
// bug on top of each neighbouring stack, never another Mosquito. An Ant
// reaches every cell that a Queen, Pillbug or Spider reaches, and a Beetle
// every cell a Queen or Pillbug reaches, so those are skipped when covered.
func (g *Game) genMosquito(l *MoveList, p Piece, c Cell) {
	var touched uint16
	for d := Direction(0); d < NumDirections; d++ {
		if t := g.top[c.Neighbor(d)]; t != NoPiece {
			touched |= 1 << t.Bug()
		}
	}
	if touched&(1<<Ant) != 0 {
		g.genAnt(l, p, c) // first: its search walks the list it fills
	} else {
		if touched&(1<<Spider) != 0 {
			g.genSpider(l, p, c)
		}
		if touched&(1<<Beetle) == 0 && touched&(1<<Queen|1<<Pillbug) != 0 {
			g.addSlides(l, p, c)
		}
	}
	if touched&(1<<Beetle) != 0 {
		g.genBeetle(l, p, c)
	}
	if touched&(1<<Grasshopper) != 0 {
		g.genGrasshopper(l, p, c)
	}
	if touched&(1<<Ladybug) != 0 {
		g.genLadybug(l, p, c)
	}
}

// addDest adds the move of p to c unless p already has it.
func (g *Game) addDest(l *MoveList, p Piece, c Cell) {
	if g.gen.mark[c] != g.gen.epoch {
		g.gen.mark[c] = g.gen.epoch
		l.add(MakeMove(p, c))
	}
}

// occupancy returns one bit per occupied neighbour of c, bit d for
// direction d.
func (g *Game) occupancy(c Cell) uint8 { return g.occ[c] }

// slideDirections returns the directions in which a piece on the ground
// can slide from a cell whose occupied neighbours are occ: the target must
// be empty and exactly one of the two cells flanking the step occupied.
// Both occupied is a gate too narrow to pass (Freedom to Move); neither
// would take the piece out of contact with the hive during the move (One
// Hive).
func slideDirections(occ uint8) uint8 {
	prev := (occ<<1 | occ>>5) & 63 // bit d: neighbour d-1 is occupied
	next := (occ>>1 | occ<<5) & 63 // bit d: neighbour d+1 is occupied
	return ^occ & (prev ^ next) & 63
}

// addSlides adds every one-step slide of p from c.
func (g *Game) addSlides(l *MoveList, p Piece, c Cell) {
	for dirs := slideDirections(g.occupancy(c)); dirs != 0; dirs &= dirs - 1 {
		g.addDest(l, p, c.Neighbor(Direction(bits.TrailingZeros8(dirs))))
	}
}

// genAnt adds every cell p can reach by any number of slides: a breadth-
// first search that uses the move list itself as its queue.
func (g *Game) genAnt(l *MoveList, p Piece, c Cell) { g.antSearch(l, p, c, nil) }

// antSearch is genAnt's search (the Ant lifted off c), stopped once it has
// reached every cell of stops that a slide can end on (none for nil stops:
// the whole search). A slide can end on an empty cell exactly when the
// same slide can leave it, so a cell that canSlide rules out is never
// reached and never waited for. It keeps the marks, the epoch and the
// list's length in locals, which the compiler does not do for addSlides'
// (the list might alias the game): an Ant's walk is the longest loop of
// move generation.
func (g *Game) antSearch(l *MoveList, p Piece, c Cell, stops []Cell) {
	mark, epoch := &g.gen.mark, g.gen.epoch
	left := 0 // the cells of stops that may be reached and are not yet
	for _, t := range stops {
		if t != c && g.height[t] == 0 && canSlide(g.occ[t]) {
			left++
		}
	}
	if stops != nil && left == 0 {
		return
	}
	n := l.n
	x := c
	for i := l.n; ; i++ {
		for dirs := slideDirections(g.occ[x]); dirs != 0; dirs &= dirs - 1 {
			y := x.Neighbor(Direction(bits.TrailingZeros8(dirs)))
			if mark[y] != epoch {
				mark[y] = epoch
				l.moves[n] = MakeMove(p, y)
				n++
				if left > 0 && isTarget(y, stops) {
					left--
				}
			}
		}
		if i == n || (stops != nil && left == 0) {
			break
		}
		x = l.moves[i].To()
	}
	l.n = n
}

// genSpider adds the cells p reaches in exactly three slides without
// visiting any cell twice.
func (g *Game) genSpider(l *MoveList, p Piece, c Cell) {
	for d1 := slideDirections(g.occupancy(c)); d1 != 0; d1 &= d1 - 1 {
		a := c.Neighbor(Direction(bits.TrailingZeros8(d1)))
		for d2 := slideDirections(g.occupancy(a)); d2 != 0; d2 &= d2 - 1 {
			b := a.Neighbor(Direction(bits.TrailingZeros8(d2)))
			if b == c {
				continue
			}
			for d3 := slideDirections(g.occupancy(b)); d3 != 0; d3 &= d3 - 1 {
				if e := b.Neighbor(Direction(bits.TrailingZeros8(d3))); e != a {
					g.addDest(l, p, e) // e == c is marked already
				}
			}
		}
	}
}

// gateBlocks reports whether the step from cell c in direction d is
// blocked for a piece that leaves c at height from (pieces beneath it) and
// arrives at height to: the two flanking stacks must not both be higher
// than both ends of the step (Freedom to Move, with stack heights).
func (g *Game) gateBlocks(c Cell, d Direction, from, to uint8) bool {
	left := g.height[c.Neighbor(d.CounterClockwise())]
	right := g.height[c.Neighbor(d.Clockwise())]
	return min(left, right) > max(from, to)
}

// genBeetle adds the steps of a Beetle from c: one cell in any direction,
// climbing up or down, through no gate higher than both ends; on the
// ground, a slide.
func (g *Game) genBeetle(l *MoveList, p Piece, c Cell) {
	level := g.height[c]
	for d := Direction(0); d < NumDirections; d++ {
		to := c.Neighbor(d)
		h := g.height[to]
		if level == 0 && h == 0 {
			left := g.height[c.Neighbor(d.CounterClockwise())]
			right := g.height[c.Neighbor(d.Clockwise())]
			if (left == 0) == (right == 0) {
				continue
			}
		} else if g.gateBlocks(c, d, level, h) {
			continue
		}
		g.addDest(l, p, to)
	}
}

// genGrasshopper adds the jumps of p: in a straight line over one or more
// pieces to the first empty cell.
func (g *Game) genGrasshopper(l *MoveList, p Piece, c Cell) {
	for d := Direction(0); d < NumDirections; d++ {
		x := c.Neighbor(d)
		if g.height[x] == 0 {
			continue
		}
		for g.height[x] != 0 {
			x = x.Neighbor(d)
		}
		g.addDest(l, p, x)
	}
}

// genLadybug adds the moves of p: two steps on top of the hive, then one
// step down into an empty cell, each step through no gate higher than both
// of its ends.
func (g *Game) genLadybug(l *MoveList, p Piece, c Cell) {
	// The steps go over occupied cells, then down into an empty one: the
	// neighbour masks list those directions without looking at the others.
	for s1 := g.occ[c]; s1 != 0; s1 &= s1 - 1 {
		d1 := Direction(bits.TrailingZeros8(s1))
		a := c.Neighbor(d1)
		ha := g.height[a]
		if g.gateBlocks(c, d1, 0, ha) {
			continue
		}
		for s2 := g.occ[a]; s2 != 0; s2 &= s2 - 1 {
			d2 := Direction(bits.TrailingZeros8(s2))
			b := a.Neighbor(d2)
			hb := g.height[b]
			if g.gateBlocks(a, d2, ha, hb) {
				continue
			}
			for s3 := ^g.occ[b] & 63; s3 != 0; s3 &= s3 - 1 {
				if d3 := Direction(bits.TrailingZeros8(s3)); !g.gateBlocks(b, d3, hb, 0) {
					g.addDest(l, p, b.Neighbor(d3)) // c is marked already
				}
			}
		}
	}
}

// articulationPieces returns, one bit per piece, the top pieces of the
// cells whose removal would split the hive in two: the articulation points
// of the graph of occupied cells, found by an iterative Tarjan search.
func (g *Game) articulationPieces() uint32 {
	if bits.OnesCount32(g.onBoard) < 3 {
		return 0
	}
	// disc and low are indexed by piece; masking the index with 31 lets
	// the compiler drop the bounds checks.
	disc, low := &g.gen.disc, &g.gen.low
	*disc = [32]uint8{}
	type frame struct {
		cell Cell
		rest uint8 // occupied neighbours not yet looked at
		id   Piece // the top piece, which names the cell
	}
	var stack [32]frame
	root := g.pos[bits.TrailingZeros32(g.onBoard)]
	rootID := g.top[root]
	disc[rootID&31], low[rootID&31] = 1, 1
	stack[0] = frame{root, g.occ[root], rootID}
	clock := uint8(1)
	rootChildren := 0
	var cut uint32
	sp := 0
	for {
		f := &stack[sp&31]
		if f.rest != 0 {
			n := f.cell.Neighbor(Direction(bits.TrailingZeros8(f.rest)))
			f.rest &= f.rest - 1
			nid := g.top[n]
			if disc[nid&31] == 0 {
				clock++
				disc[nid&31], low[nid&31] = clock, clock
				sp++
				stack[sp&31] = frame{n, g.occ[n], nid}
			} else if (sp == 0 || nid != stack[(sp-1)&31].id) && disc[nid&31] < low[f.id&31] {
				low[f.id&31] = disc[nid&31]
			}
			continue
		}
		if sp == 0 {
			break
		}
		sp--
		parent := stack[sp&31].id
		if low[f.id&31] < low[parent&31] {
			low[parent&31] = low[f.id&31]
		}
		if sp == 0 {
			rootChildren++
		} else if low[f.id&31] >= disc[parent&31] {
			cut |= 1 << parent
		}
	}
	if rootChildren > 1 {
		cut |= 1 << rootID
	}
	return cut
}

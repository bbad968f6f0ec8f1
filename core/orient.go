package core

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Hive has no fixed orientation and no fixed origin: the same opening is
// played turned six ways, mirrored, and anywhere on the table. An opening
// explorer has to see these as one position, so Orient finds, of the twelve
// images of a position under the symmetries of the hexagonal grid (each
// moved so that its first cell in reading order is at 0,0), the canonical
// one: the least of their descriptions. Its key is a hash of that
// description, and the symmetry that produced it says how a move played on
// the board is written in the canonical frame and back.
//
// What counts as the same position is what Game.PositionKey counts: for each
// cell, the colour and bug of each piece of its stack, bottom to top; the
// side to move; and here the game type, whose hand differs. The pieces'
// numbers are left out: UHP numbers a bug's copies in the order they enter
// play, so a board where wA1 and wA2 have traded cells is, to a player, the
// same board, with the same future, and an explorer that told the two apart
// would split one opening's games between positions nobody can tell apart.
// For the same reason a move is written by the cells it goes from and to
// (a placement by its colour and bug), never by a piece's number.

// Symmetry is one of the twelve symmetries of the hexagonal grid that keep
// a cell in place: a reflection in the line through East and SouthEast's
// bisector (q and r swapped) when it is 6 or more, then a rotation by s%6
// sixths of a turn clockwise.
type Symmetry uint8

// NumSymmetries is the number of symmetries of the hexagonal grid about a
// cell: six rotations, each with or without a reflection.
const NumSymmetries = 12

// Axial returns the image of the axial offset (q, r). A clockwise sixth of
// a turn takes the cube coordinates (x, y, z) = (q, -q-r, r) to
// (-z, -x, -y): East (1, 0) to SouthEast (0, 1).
func (s Symmetry) Axial(q, r int) (int, int) {
	if s >= 6 {
		q, r = r, q
	}
	for range s % 6 {
		q, r = -r, q+r
	}
	return q, r
}

// Inverse returns the symmetry that undoes s: a reflection followed by a
// rotation is its own inverse, a rotation is undone by the rest of a turn.
func (s Symmetry) Inverse() Symmetry {
	if s >= 6 {
		return s
	}
	return (6 - s) % 6
}

// Orientation is a position's canonical frame (see Orient): its key and
// the symmetries and translation that carry the board onto its canonical
// form.
type Orientation struct {
	key  uint64
	form [formMax]byte
	size int
	// syms has bit s set for each symmetry s that carries the board onto
	// its canonical form: more than one when the position is symmetric
	// itself (the empty board, a lone piece, two Queens in a line).
	syms uint16
	sym  Symmetry // the first of syms
	// A board cell's canonical offset is sym(its offset from ref) - shift.
	ref   Cell
	shift axialCell
	// cells are the occupied cells and at their offsets from ref.
	n     int
	cells [NumPieces]Cell
	at    [NumPieces]axialCell
}

// formMax bounds the bytes of a canonical form: two of header, three a
// stack and one a piece.
const formMax = 2 + 4*NumPieces

// Key returns the orientation-free key: equal for a position and its
// images under the twelve symmetries and any translation, and (but for
// hash collisions, about one in 2^64 for a pair) different for positions
// that are not such images.
func (o *Orientation) Key() uint64 { return o.key }

// Form returns the canonical form that Key hashes: equal exactly for
// positions that are images of each other. It is what tests count
// collisions against.
func (o *Orientation) Form() []byte { return o.form[:o.size] }

// Symmetry returns a symmetry that carries the board onto its canonical
// form; Symmetric tells whether there are others.
func (o *Orientation) Symmetry() Symmetry { return o.sym }

// Symmetric reports whether the position is its own image under a
// symmetry other than the identity, so that moves that differ on the
// board may be one move in the canonical frame.
func (o *Orientation) Symmetric() bool { return bits.OnesCount16(o.syms) > 1 }

// Orient returns the canonical frame of g's position.
func Orient(g *Game) Orientation {
	o := Orientation{ref: Origin}
	g.measure(&o)
	var (
		best  [formMax]byte
		cand  [formMax]byte
		shift axialCell
	)
	for s := Symmetry(0); s < NumSymmetries; s++ {
		n, sh := g.describe(&o, s, &cand)
		switch c := bytes.Compare(cand[:n], best[:o.size]); {
		case o.syms == 0 || c < 0:
			best, o.size, o.syms, o.sym, shift = cand, n, 1<<s, s, sh
		case c == 0:
			o.syms |= 1 << s
		}
	}
	o.form, o.shift = best, shift
	o.key = formKey(o.Form())
	return o
}

// measure finds the axial offset of every occupied cell from the first,
// by a breadth-first walk over the hive: the wrapping grid alone cannot
// tell how far apart two cells of a long hive are, the walk does.
func (g *Game) measure(o *Orientation) {
	var seen uint32 // by the top pieces
	for all := g.onBoard; all != 0; all &= all - 1 {
		p := Piece(bits.TrailingZeros32(all))
		c := g.pos[p]
		if g.top[c] != p || seen&(1<<p) != 0 {
			continue
		}
		if o.n == 0 {
			o.ref = c
		} else {
			// A hive in pieces cannot arise in play; its parts are
			// measured from the ref as the grid's index gives them.
			o.at[o.n] = offset(o.ref, c)
		}
		o.cells[o.n] = c
		seen |= 1 << p
		o.n++
		for i := o.n - 1; i < o.n; i++ {
			for d := Direction(0); d < NumDirections; d++ {
				nb := o.cells[i].Neighbor(d)
				t := g.top[nb]
				if t == NoPiece || seen&(1<<t) != 0 {
					continue
				}
				dq, dr := d.Axial()
				o.cells[o.n], o.at[o.n] = nb, axialCell{o.at[i].q + dq, o.at[i].r + dr}
				seen |= 1 << t
				o.n++
			}
		}
	}
}

// offset returns the axial offset from c to t as their index difference
// gives it (both coordinates in [-16, 15]): on the wrapping grid, the
// nearest of the images of t, which is t itself for cells of one hive.
func offset(c, t Cell) axialCell {
	d := int((t - c) & cellMask)
	dq, dr := d&(gridWidth-1), d/gridWidth
	if dq >= gridWidth/2 {
		dq -= gridWidth
		dr++
	}
	dr &= gridWidth - 1
	if dr >= gridWidth/2 {
		dr -= gridWidth
	}
	return axialCell{dq, dr}
}

// describe writes into out the description of the board's image under s,
// moved so that its first cell in reading order (row, then column) is at
// 0,0: the game type and side to move, then each stack in reading order
// as its offset and height and its pieces' colour and bug, bottom to top.
// It returns the description's length and the translation it applied.
func (g *Game) describe(o *Orientation, s Symmetry, out *[formMax]byte) (int, axialCell) {
	var (
		img   [NumPieces]axialCell
		order [NumPieces]uint8
	)
	for i := range o.n {
		q, r := s.Axial(o.at[i].q, o.at[i].r)
		img[i] = axialCell{q, r}
		order[i] = uint8(i)
	}
	before := func(a, b axialCell) bool { return a.r < b.r || a.r == b.r && a.q < b.q }
	for i := 1; i < o.n; i++ { // insertion sort: at most 28 cells
		for j := i; j > 0 && before(img[order[j]], img[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var shift axialCell
	if o.n > 0 {
		shift = img[order[0]]
	}
	out[0], out[1] = byte(g.gameType), byte(g.ToMove())
	n := 2
	for _, i := range order[:o.n] {
		c := o.cells[i]
		h := int(g.height[c])
		out[n], out[n+1], out[n+2] = byte(int8(img[i].q-shift.q)), byte(int8(img[i].r-shift.r)), byte(h)
		n += 3
		p := g.top[c]
		for k := h - 1; k >= 0; k-- {
			out[n+k] = byte(p.Color())<<3 | byte(p.Bug())
			p = g.under[p]
		}
		n += h
	}
	return n, shift
}

// formKey hashes a canonical form eight bytes at a time through the
// splitmix64 finaliser, seeded by its length: fixed, so that keys stored
// in an archive stay valid from one run and one machine to the next.
func formKey(b []byte) uint64 {
	h := uint64(len(b))
	for len(b) >= 8 {
		h = mix(h ^ binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var tail [8]byte
	copy(tail[:], b)
	return mix(h ^ binary.LittleEndian.Uint64(tail[:]) ^ 0xff)
}

// OrientedMove is a move written in the canonical frame of the position
// it is played from: a pass, a placement (colour, bug and cell) or a
// movement (the cell it leaves, whose top piece moves, and the cell it
// reaches). Cells are offsets in the canonical form's frame, each
// coordinate in 7 bits biased by 64. It fits in 31 bits, so a database
// keeps it in an integer column.
type OrientedMove uint32

// OrientedPass is the pass in every frame.
const OrientedPass OrientedMove = 1

const (
	orientedPlace OrientedMove = 1 << 29
	orientedMove  OrientedMove = 1 << 30
	coordBias                  = 64
)

func packCell(a axialCell) OrientedMove {
	return OrientedMove(a.q+coordBias) | OrientedMove(a.r+coordBias)<<7
}

func unpackCell(m OrientedMove) axialCell {
	return axialCell{int(m&127) - coordBias, int(m>>7&127) - coordBias}
}

// Valid reports whether m is a move Orientation.Board can read: a pass,
// or a placement (four bits of colour and bug, two coordinates) or a
// movement (four coordinates) with nothing in its unused bits.
func (m OrientedMove) Valid() bool {
	return m == OrientedPass || m&^(1<<18-1) == orientedPlace || m&^(1<<28-1) == orientedMove
}

// canonical returns the canonical offset of the board cell at offset a
// from ref under symmetry s.
func (o *Orientation) canonical(s Symmetry, a axialCell) axialCell {
	q, r := s.Axial(a.q, a.r)
	return axialCell{q - o.shift.q, r - o.shift.r}
}

// offsetOf returns the offset from ref of board cell c, occupied or next
// to an occupied cell; false for a cell away from the hive.
func (o *Orientation) offsetOf(c Cell) (axialCell, bool) {
	for i := range o.n {
		if o.cells[i] == c {
			return o.at[i], true
		}
	}
	for i := range o.n {
		if d, ok := o.cells[i].DirectionTo(c); ok {
			dq, dr := d.Axial()
			return axialCell{o.at[i].q + dq, o.at[i].r + dr}, true
		}
	}
	return axialCell{}, false
}

// Canonical returns move m of g (whose frame o is) in the canonical frame,
// or false when m's cells are away from the hive (no move of the rules is).
// Where the position is its own image under some symmetries, m's images
// under them are moves to one position: of those, the least is given, so
// that they count as one move.
func (o *Orientation) Canonical(g *Game, m Move) (OrientedMove, bool) {
	if m == Pass {
		return OrientedPass, true
	}
	p, to := m.Piece(), m.To()
	if p >= NumPieces {
		return 0, false
	}
	var dst, src axialCell
	if o.n > 0 {
		var ok bool
		if dst, ok = o.offsetOf(to); !ok {
			return 0, false
		}
	}
	from := g.pos[p]
	if from != NoCell {
		var ok bool
		if src, ok = o.offsetOf(from); !ok || g.top[from] != p {
			return 0, false
		}
	}
	best := OrientedMove(0)
	for syms := o.syms; syms != 0; syms &= syms - 1 {
		s := Symmetry(bits.TrailingZeros16(syms))
		var om OrientedMove
		if from == NoCell {
			om = orientedPlace | OrientedMove(byte(p.Color())<<3|byte(p.Bug()))<<14 | packCell(o.canonical(s, dst))
		} else {
			om = orientedMove | packCell(o.canonical(s, src))<<14 | packCell(o.canonical(s, dst))
		}
		if best == 0 || om < best {
			best = om
		}
	}
	return best, true
}

// Board returns the move of g (whose frame o is) that om writes in the
// canonical frame: for a movement, the top piece of the cell it leaves;
// for a placement, the lowest-numbered piece of its colour and bug still
// in hand. It returns false when om is not valid, names no piece here (an
// empty cell, a bug not in the game or all placed), or is not what
// Canonical writes of the move it reads as (a coordinate out of the
// hive's range that the wrapping grid would fold onto a cell of it, or a
// move of a symmetric position written other than as the least of its
// images). The move is not checked against the rules: a position's moves
// depend also on the piece moved last, which the key leaves out.
func (o *Orientation) Board(g *Game, om OrientedMove) (Move, bool) {
	m, ok := o.read(g, om)
	if !ok {
		return NoMove, false
	}
	if back, ok := o.Canonical(g, m); !ok || back != om {
		return NoMove, false
	}
	return m, true
}

// read is Board without the check that om is what Canonical writes.
func (o *Orientation) read(g *Game, om OrientedMove) (Move, bool) {
	if !om.Valid() {
		return NoMove, false
	}
	if om == OrientedPass {
		return Pass, true
	}
	inv := o.sym.Inverse()
	board := func(a axialCell) Cell {
		q, r := inv.Axial(a.q+o.shift.q, a.r+o.shift.r)
		return o.ref.Step(q, r)
	}
	to := board(unpackCell(om))
	if om&orientedPlace != 0 {
		kind := byte(om >> 14 & 15)
		c, b := Color(kind>>3), Bug(kind&7)
		if !g.gameType.Has(b) {
			return NoMove, false
		}
		for n := 1; n <= BugCount(b); n++ {
			if p, ok := MakePiece(c, b, n); ok && g.pos[p] == NoCell {
				return MakeMove(p, to), true
			}
		}
		return NoMove, false
	}
	p := g.top[board(unpackCell(om>>14))]
	if p == NoPiece {
		return NoMove, false
	}
	return MakeMove(p, to), true
}

package core

// The board is a helical grid of 1024 cells, 32 to a row, that wraps around
// on itself: a cell's neighbour is one addition and one mask away, with no
// edge to test. A hive holds at most 28 pieces, so two cells of one hive (or
// an empty cell next to it) differ by at most 29 in each axial coordinate;
// dq + 32*dr is then never a multiple of 1024 unless dq = dr = 0, so no two
// such cells share an index and the wrap can never fold the hive onto itself.
const (
	gridWidth = 32
	gridCells = 1024
	cellMask  = gridCells - 1
)

// Cell is one hexagon of the grid. Only the relations between cells carry
// meaning (a hive may drift anywhere on the wrapping grid); a protocol that
// needs absolute coordinates measures them by walking from a reference piece.
type Cell uint16

// NoCell is the position of a piece that is still in its player's hand.
const NoCell Cell = 0xFFFF

// Origin is the cell where the first piece of a game is placed.
const Origin Cell = 16*gridWidth + 16

// Direction names one of the six neighbours of a pointy-top hexagon, in
// clockwise order as seen on screen, so that d-1 and d+1 are the two cells
// that flank the step from a cell to its neighbour d (the "gate").
type Direction uint8

// The six directions, clockwise from the right-hand neighbour.
const (
	East Direction = iota
	SouthEast
	SouthWest
	West
	NorthWest
	NorthEast
)

// NumDirections is the number of neighbours of a cell.
const NumDirections = 6

// Neighbor returns the adjacent cell in direction d: the index offset of
// each direction, modulo 1024, is E +1, SE +32, SW +31, W -1, NW -32,
// NE -31 (axial coordinates are (q, r) with q growing to the east and r
// growing to the south-east). The offsets are a constant array that the
// compiler keeps in read-only data; indexing it (d&7 spares the bounds
// check) costs less than unpacking a packed constant by shifts, which
// matters in a function that move generation and the evaluation call more
// than anything else (a tenth of perft's time).
func (c Cell) Neighbor(d Direction) Cell {
	return (c + [8]Cell{1, 32, 31, 1023, 992, 993}[d&7]) & cellMask
}

// Opposite returns the direction pointing back along d.
func (d Direction) Opposite() Direction { return (d + 3) % 6 }

// Clockwise returns the next direction clockwise from d.
func (d Direction) Clockwise() Direction { return (d + 1) % 6 }

// CounterClockwise returns the next direction counter-clockwise from d.
func (d Direction) CounterClockwise() Direction { return (d + 5) % 6 }

// CellAt returns the cell at axial offset (q, r) from the origin.
func CellAt(q, r int) Cell {
	return Cell((int(Origin) + q + gridWidth*r) & cellMask)
}

// Step returns the cell reached from c by moving dq east and dr south-east.
func (c Cell) Step(dq, dr int) Cell {
	return Cell((int(c) + dq + gridWidth*dr) & cellMask)
}

// Adjacent reports whether n is one of the six neighbours of c. Their
// index difference modulo 1024 is then one of the six offsets of Neighbor,
// and within a hive no other pair of cells has one of those differences
// (see the grid's comment), so one subtraction answers what a loop over
// the directions would: the search asks it of every move it tries.
// NoCell is nobody's neighbour.
func (c Cell) Adjacent(n Cell) bool {
	if c|n >= gridCells {
		return false
	}
	switch (n - c) & cellMask {
	case 1, 32, 31, 1023, 992, 993:
		return true
	}
	return false
}

// within reports whether t is at most n steps from c, for n up to 14. The
// offset from c to t is read back from their index difference as the one
// with both axial coordinates in [-16, 15], which is the true offset
// whenever the two cells lie that close in each coordinate, as two cells
// at most 14 steps apart do: so within never answers false for a cell
// that is near. (For cells 17 steps apart or more, which a hive of 28
// pieces rarely spans, it may answer true: a caller uses it to pass over
// work that cannot reach t, never to decide a rule.)
func (c Cell) within(t Cell, n int) bool {
	if c|t >= gridCells {
		return false
	}
	d := offset(c, t)
	return max(abs(d.q), abs(d.r), abs(d.q+d.r)) <= n
}

// Offset returns the axial offset (dq east, dr south-east) from c to t,
// read back from their index difference with both coordinates in [-16,
// 15]: the true offset for two cells of one hive, and for any two cells
// less than 16 steps apart on each axis. An evaluation that places pieces
// relative to a Queen reads it, where a walk from cell to cell would cost
// a loop.
func (c Cell) Offset(t Cell) (dq, dr int) {
	o := offset(c, t)
	return o.q, o.r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// DirectionTo returns the direction from c to an adjacent cell n, and false
// when the two cells are not neighbours.
func (c Cell) DirectionTo(n Cell) (Direction, bool) {
	for d := Direction(0); d < NumDirections; d++ {
		if c.Neighbor(d) == n {
			return d, true
		}
	}
	return 0, false
}

// Axial returns the axial offset (dq east, dr south-east) of one step in
// direction d: what a protocol with absolute coordinates adds to a
// neighbour's position to find a cell's.
func (d Direction) Axial() (dq, dr int) {
	switch d {
	case East:
		return 1, 0
	case SouthEast:
		return 0, 1
	case SouthWest:
		return -1, 1
	case West:
		return -1, 0
	case NorthWest:
		return 0, -1
	}
	return 1, -1 // NorthEast
}

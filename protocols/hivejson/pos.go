package hivejson

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// Pos is a cell of the wire's board, written "row,col". The wire doc:
//
//	"row,col" (first number is the row), doubled coordinates on flat-topped
//	hexes, row+col even, col grows right, row grows down. Neighbours of
//	(row,col) clockwise from north: (row-2,col) (row-1,col+1) (row+1,col+1)
//	(row+2,col) (row+1,col-1) (row-1,col-1). The first piece of a game is
//	always at "0,0".
//
// The core draws pointy-topped hexes in axial coordinates (q to the east,
// r to the south-east). A flat-topped board is a pointy-topped one turned by
// 30 degrees, and "a hex board is the same board under any rotation that
// keeps the cyclic order of the six directions", so hivebridge turns the
// core's board 30 degrees anticlockwise: the core's six directions, clockwise
// from East, become the wire's clockwise from north-east,
//
//	core  East   SouthEast  SouthWest  West      NorthWest  NorthEast
//	wire  NE     SE         S          SW        NW         N
//	      (-1,+1) (+1,+1)   (+2,0)     (+1,-1)   (-1,-1)    (-2,0)
//
// that is row = r - q and col = q + r, and back q = (col-row)/2,
// r = (col+row)/2. The core's board has no absolute coordinates (a hive
// drifts on its wrapping grid), so the axial position of every piece is
// measured by following the game from its first piece, which stands at
// "0,0" (see tracker), never by decoding cell indices.
type Pos struct{ Row, Col int }

// maxCoord bounds the coordinates ParsePos accepts. A hive of 28 pieces
// spans at most 29 cells; the bound only keeps arithmetic from overflowing.
const maxCoord = 1 << 20

// ParsePos reads "row,col": two decimal integers, each with an optional
// minus sign, separated by a comma, with row+col even.
func ParsePos(s string) (Pos, error) {
	rs, cs, ok := strings.Cut(s, ",")
	if !ok {
		return Pos{}, fmt.Errorf("position %q is not \"row,col\"", s)
	}
	row, err1 := parseCoord(rs)
	col, err2 := parseCoord(cs)
	if err1 != nil || err2 != nil {
		return Pos{}, fmt.Errorf("position %q is not \"row,col\" with whole numbers", s)
	}
	if (row+col)%2 != 0 {
		return Pos{}, fmt.Errorf("position %q has an odd row+col, which no hexagon has in doubled coordinates", s)
	}
	return Pos{row, col}, nil
}

// parseCoord reads an optional minus sign and decimal digits, nothing else
// (strconv.Atoi would also take a plus sign).
func parseCoord(s string) (int, error) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 7 {
		return 0, strconv.ErrSyntax
	}
	for i := 0; i < len(digits); i++ {
		if !isDigit(digits[i]) {
			return 0, strconv.ErrSyntax
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxCoord || n < -maxCoord {
		return 0, strconv.ErrRange
	}
	return n, nil
}

// String writes the position as the wire does, "row,col".
func (p Pos) String() string { return strconv.Itoa(p.Row) + "," + strconv.Itoa(p.Col) }

// less orders positions by row, then column: the order of the lists
// hivebridge writes.
func (p Pos) less(o Pos) bool { return p.Row < o.Row || p.Row == o.Row && p.Col < o.Col }

// axial is a position in the core's axial coordinates, relative to the
// first piece of the game.
type axial struct{ q, r int }

func (p Pos) axial() axial { return axial{(p.Col - p.Row) / 2, (p.Col + p.Row) / 2} }

func (a axial) pos() Pos { return Pos{Row: a.r - a.q, Col: a.q + a.r} }

// axialStep returns the axial offset of one step of the core's direction d.
func axialStep(d core.Direction) axial {
	dq, dr := d.Axial()
	return axial{dq, dr}
}

func (a axial) add(b axial) axial { return axial{a.q + b.q, a.r + b.r} }

// direction returns the core direction of the step from a to its neighbour
// b, and false if b is not a neighbour of a.
func (a axial) direction(b axial) (core.Direction, bool) {
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if a.add(axialStep(d)) == b {
			return d, true
		}
	}
	return 0, false
}

// The piece types as the wire names them (core/domain/piece.js types_enum),
// in the wire doc's order, which is the order of piece_types lists.
const (
	NameQueen       = "Queen Bee"
	NameBeetle      = "Beetle"
	NameGrasshopper = "Grasshopper"
	NameSpider      = "Spider"
	NameAnt         = "Soldier Ant"
	NameMosquito    = "Mosquito"
	NameLadybug     = "Ladybug"
	NamePillbug     = "Pillbug"
)

// wireBugOrder lists the core's bugs in the wire doc's order: Queen Bee,
// Beetle, Grasshopper, Spider, Soldier Ant, Mosquito, Ladybug, Pillbug.
const wireBugOrder = "\x00\x02\x03\x01\x04\x05\x06\x07"

// BugName returns the wire's name of a bug, "" for no bug.
func BugName(b core.Bug) string {
	switch b {
	case core.Queen:
		return NameQueen
	case core.Beetle:
		return NameBeetle
	case core.Grasshopper:
		return NameGrasshopper
	case core.Spider:
		return NameSpider
	case core.Ant:
		return NameAnt
	case core.Mosquito:
		return NameMosquito
	case core.Ladybug:
		return NameLadybug
	case core.Pillbug:
		return NamePillbug
	}
	return ""
}

// ParseBug returns the bug a wire name stands for. Names are exact.
func ParseBug(name string) (core.Bug, bool) {
	switch name {
	case NameQueen:
		return core.Queen, true
	case NameBeetle:
		return core.Beetle, true
	case NameGrasshopper:
		return core.Grasshopper, true
	case NameSpider:
		return core.Spider, true
	case NameAnt:
		return core.Ant, true
	case NameMosquito:
		return core.Mosquito, true
	case NameLadybug:
		return core.Ladybug, true
	case NamePillbug:
		return core.Pillbug, true
	}
	return 0, false
}

// parseColor returns the colour a wire name stands for.
func parseColor(name string) (core.Color, bool) {
	switch name {
	case ColorWhite:
		return core.White, true
	case ColorBlack:
		return core.Black, true
	}
	return 0, false
}

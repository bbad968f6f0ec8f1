package dataset

import (
	"fmt"

	"github.com/hivebridge/hivebridge/core"
)

// A move is stored in two bytes as UHP spells it, a piece placed relative to
// another, so that the file depends on the notation, not on how core numbers
// its cells (see the package comment for the bits).
const (
	passCode  uint16 = 0xFFFF
	noRef            = 31 // the reference of the first move of a game
	onTop            = 6  // the relation of a move onto the reference's stack
	pieceBits        = 5
	pieceMask        = 1<<pieceBits - 1
)

// encodeMove returns the code of m, a legal move of g in its present
// position.
func encodeMove(g *core.Game, m core.Move) (uint16, error) {
	if m == core.Pass {
		return passCode, nil
	}
	p, to := m.Piece(), m.To()
	if m == core.NoMove || p >= core.NumPieces {
		return 0, fmt.Errorf("no move to encode (%#x)", uint16(m))
	}
	code := func(ref core.Piece, rel int) uint16 {
		return uint16(p) | uint16(ref)<<pieceBits | uint16(rel)<<(2*pieceBits)
	}
	if g.OnBoard() == 0 {
		return code(noRef, 0), nil
	}
	if t := topWithout(g, to, p); t != core.NoPiece {
		return code(t, onTop), nil
	}
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if ref := topWithout(g, to.Neighbor(d), p); ref != core.NoPiece {
			// The destination is ref's neighbour in the opposite direction.
			return code(ref, int(d.Opposite())), nil
		}
	}
	return 0, fmt.Errorf("move %s to a cell next to no piece", p)
}

// topWithout returns the top piece of cell c with piece p lifted off it.
func topWithout(g *core.Game, c core.Cell, p core.Piece) core.Piece {
	t := g.Top(c)
	if t == p {
		t = g.Under(p)
	}
	return t
}

// decodeMove returns the move of code in g's present position, checked
// against the rules.
func decodeMove(g *core.Game, code uint16, scratch *core.MoveList) (core.Move, error) {
	var m core.Move
	if code == passCode {
		m = core.Pass
	} else {
		p := core.Piece(code & pieceMask)
		ref := core.Piece(code >> pieceBits & pieceMask)
		rel := int(code >> (2 * pieceBits))
		switch {
		case p >= core.NumPieces:
			return core.NoMove, fmt.Errorf("move code %#04x: no piece %d", code, p)
		case ref == noRef && rel == 0:
			if g.OnBoard() != 0 {
				return core.NoMove, fmt.Errorf("move code %#04x: a move with no reference after the first", code)
			}
			m = core.MakeMove(p, core.Origin)
		case ref >= core.NumPieces || rel > onTop:
			return core.NoMove, fmt.Errorf("move code %#04x: no reference %d or relation %d", code, ref, rel)
		default:
			at := g.Position(ref)
			if at == core.NoCell {
				return core.NoMove, fmt.Errorf("move code %#04x: reference %s is not on the board", code, ref)
			}
			if rel != onTop {
				at = at.Neighbor(core.Direction(rel))
			}
			m = core.MakeMove(p, at)
		}
	}
	if !g.LegalWithScratch(m, scratch) {
		return core.NoMove, fmt.Errorf("move code %#04x: not a legal move at ply %d", code, g.Ply())
	}
	return m, nil
}

package uhp

import (
	"fmt"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// ParsePiece reads a piece's short name: "the piece's color w for white or b
// for black, followed by a single letter representation of the piece's bug
// type, and a number when a player has multiple bugs of that type". Either
// case is accepted, and so is a number 1 on a bug a player has only one of
// (wQ1), as some engines write it. The names are core's (core.ParsePiece),
// which the Hub dialect reads too.
func ParsePiece(s string) (core.Piece, error) { return core.ParsePiece(s) }

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// The relative position of a MoveString: "bS1 wS1/" is to the top right of
// wS1, "bS1 wS1-" to its right, "bS1 wS1\" to its bottom right, "bS1 /wS1"
// to its bottom left, "bS1 -wS1" to its left and "bS1 \wS1" to its top left;
// "wB1 wS1" is on top of wS1.
func sideOf(mark byte, before bool) (core.Direction, bool) {
	switch {
	case mark == '-' && !before:
		return core.East, true
	case mark == '/' && !before:
		return core.NorthEast, true
	case mark == '\\' && !before:
		return core.SouthEast, true
	case mark == '/' && before:
		return core.SouthWest, true
	case mark == '-' && before:
		return core.West, true
	case mark == '\\' && before:
		return core.NorthWest, true
	}
	return 0, false
}

func isMark(c byte) bool { return c == '-' || c == '/' || c == '\\' }

// ParseMove reads a MoveString in the position of game g. It accepts every
// way engines spell a move, since "it is possible that two different
// MoveStrings can describe the same actual move": any piece next to the
// destination as the reference, a covered piece as the reference (its cell
// is what counts), the moving piece itself as the reference of a one-step
// move, names in either case, and any blanks between the two parts. It
// checks only the syntax and that the reference stands on the board;
// whether the move is legal is for core.Game.RuleBroken to say.
func ParseMove(s string, g *core.Game) (core.Move, error) {
	parts := strings.Fields(s)
	switch len(parts) {
	case 0:
		return core.NoMove, fmt.Errorf("empty move")
	case 1, 2:
	default:
		return core.NoMove, fmt.Errorf("%q is not a move: want a piece and a position, as bS1 wS1-", s)
	}
	if len(parts) == 1 && engine.EqualFold(parts[0], "pass") {
		return core.Pass, nil
	}
	p, err := ParsePiece(parts[0])
	if err != nil {
		return core.NoMove, err
	}
	if len(parts) == 1 {
		if g.OnBoard() != 0 {
			return core.NoMove, fmt.Errorf("%q needs a position: only the first piece of the game is played without one", s)
		}
		return core.MakeMove(p, core.Origin), nil
	}
	pos := parts[1]
	var dir core.Direction
	beside := false
	switch {
	case len(pos) > 0 && isMark(pos[0]):
		dir, beside = sideOf(pos[0], true)
		pos = pos[1:]
		if len(pos) > 0 && isMark(pos[len(pos)-1]) {
			return core.NoMove, fmt.Errorf("%q is not a position: a direction mark goes before or after the piece, not both", parts[1])
		}
	case len(pos) > 0 && isMark(pos[len(pos)-1]):
		dir, beside = sideOf(pos[len(pos)-1], false)
		pos = pos[:len(pos)-1]
	}
	ref, err := ParsePiece(pos)
	if err != nil {
		return core.NoMove, fmt.Errorf("%q is not a position: %w", parts[1], err)
	}
	at := g.Position(ref)
	if at == core.NoCell {
		return core.NoMove, fmt.Errorf("%q is not a position: %s is not on the board", parts[1], ref)
	}
	if !beside {
		if ref == p {
			return core.NoMove, fmt.Errorf("%q moves %s onto itself", s, p)
		}
		return core.MakeMove(p, at), nil
	}
	return core.MakeMove(p, at.Neighbor(dir)), nil
}

// FormatMove writes m, a move of game g in its current position, in
// hivebridge's one canonical spelling, the reference engine's: the bare
// piece for the first move of a game, the covered piece for a move onto a
// stack, and otherwise the top piece of the first occupied neighbour of the
// destination, looking clockwise from the top left, with the moving piece
// itself lifted off first (so that a Beetle stepping down is placed relative
// to the piece it leaves).
func FormatMove(m core.Move, g *core.Game) string {
	if m == core.Pass {
		return "pass"
	}
	if m == core.NoMove || m.Piece() >= core.NumPieces {
		return "?"
	}
	p, to := m.Piece(), m.To()
	name := p.String()
	if g.OnBoard() == 0 {
		return name
	}
	if t := topWithout(g, to, p); t != core.NoPiece {
		return name + " " + t.String()
	}
	d := core.NorthWest
	for i := 0; i < core.NumDirections; i, d = i+1, d.Clockwise() {
		ref := topWithout(g, to.Neighbor(d), p)
		if ref == core.NoPiece {
			continue
		}
		// The destination lies in the opposite direction from ref.
		switch d.Opposite() {
		case core.East:
			return name + " " + ref.String() + "-"
		case core.NorthEast:
			return name + " " + ref.String() + "/"
		case core.SouthEast:
			return name + " " + ref.String() + "\\"
		case core.West:
			return name + " -" + ref.String()
		case core.SouthWest:
			return name + " /" + ref.String()
		default:
			return name + " \\" + ref.String()
		}
	}
	return name
}

// topWithout returns the top piece of cell c as it is with piece p lifted
// off the board.
func topWithout(g *core.Game, c core.Cell, p core.Piece) core.Piece {
	t := g.Top(c)
	if t == p {
		t = g.Under(p)
	}
	return t
}

package hub

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// Set-up positions: the board= form of pos, whose format the package
// documentation gives (doc.go, "Set-up positions").

// Board is the board= form of a position: the stacks, whose turn it is, and
// the piece moved last.
type Board struct {
	Stacks    []core.Stack
	Turn      core.Turn
	LastMoved core.Piece // core.NoPiece: none given
}

// maxBoardDigits bounds the digits of a board coordinate: enough for any
// hive, and far from overflowing anything.
const maxBoardDigits = 6

// ParseBoard reads the value of board=: stacks separated by ';', each
// q,r:<piece>/<piece>/... from the bottom up. The empty value is the empty
// board. Only the syntax is checked, and that each piece name is a piece;
// whether the board can be played is core.NewGameAt's to say (see Load).
func ParseBoard(s string) ([]core.Stack, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ";")
	stacks := make([]core.Stack, 0, len(parts))
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("stack %d of the board is empty", i+1)
		}
		cell, pieces, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("stack %d of the board, '%s', is not q,r:<pieces>", i+1, part)
		}
		cell = strings.TrimSpace(cell)
		qs, rs, ok := strings.Cut(cell, ",")
		q, err1 := parseBoardCoord(strings.TrimSpace(qs))
		r, err2 := parseBoardCoord(strings.TrimSpace(rs))
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("stack %d of the board, '%s': '%s' is not q,r with whole numbers of up to %d digits", i+1, part, cell, maxBoardDigits)
		}
		st := core.Stack{Q: q, R: r}
		for _, name := range strings.Split(pieces, "/") {
			p, err := core.ParsePiece(strings.TrimSpace(name))
			if err != nil {
				return nil, fmt.Errorf("stack %d of the board, '%s': %w", i+1, part, err)
			}
			st.Pieces = append(st.Pieces, p)
		}
		stacks = append(stacks, st)
	}
	return stacks, nil
}

// parseBoardCoord reads an optional minus sign and decimal digits.
func parseBoardCoord(s string) (int, error) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > maxBoardDigits {
		return 0, strconv.ErrSyntax
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.Atoi(s)
}

// FormatBoard writes the value of board=, which ParseBoard reads back.
func FormatBoard(stacks []core.Stack) string {
	var b strings.Builder
	for i, s := range stacks {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.Itoa(s.Q))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(s.R))
		b.WriteByte(':')
		for j, p := range s.Pieces {
			if j > 0 {
				b.WriteByte('/')
			}
			b.WriteString(p.String())
		}
	}
	return b.String()
}

// parseBoardArgs reads board=, turn= and last= of a pos line, or returns
// nil when the line has none of them.
func parseBoardArgs(l Line) (*Board, error) {
	board, hasBoard, err := single(l, "board")
	if err != nil {
		return nil, err
	}
	turn, hasTurn, err := single(l, "turn")
	if err != nil {
		return nil, err
	}
	last, hasLast, err := single(l, "last")
	if err != nil {
		return nil, err
	}
	if !hasBoard {
		if hasTurn || hasLast {
			return nil, errors.New("pos: turn= and last= describe a board=, and there is none")
		}
		return nil, nil
	}
	if !hasTurn {
		return nil, errors.New("pos: board= needs turn=, the side to move and its turn number, as White[5]")
	}
	b := &Board{LastMoved: core.NoPiece}
	if b.Stacks, err = ParseBoard(board); err != nil {
		return nil, fmt.Errorf("pos: board=: %w", err)
	}
	if b.Turn, err = core.ParseTurn(turn); err != nil {
		return nil, fmt.Errorf("pos: turn=: %w", err)
	}
	if hasLast {
		if b.LastMoved, err = core.ParsePiece(strings.TrimSpace(last)); err != nil {
			return nil, fmt.Errorf("pos: last=: %w", err)
		}
	}
	return b, nil
}

// args returns the arguments board=, turn= and last= of b.
func (b *Board) args() []Arg {
	args := []Arg{Pair("board", FormatBoard(b.Stacks)), Pair("turn", b.Turn.String())}
	if b.LastMoved != core.NoPiece {
		args = append(args, Pair("last", b.LastMoved.String()))
	}
	return args
}

// position returns the core position of b in a game of type t.
func (b *Board) position(t core.GameType) core.Position {
	return core.Position{Type: t, Stacks: b.Stacks, ToMove: b.Turn.Color, Turn: b.Turn.Number, LastMoved: b.LastMoved}
}

// boardOf returns the board= form of the position g started from.
func boardOf(g *core.Game) *Board {
	start := g.StartPosition()
	return &Board{Stacks: start.Stacks, Turn: core.Turn{Color: start.ToMove, Number: start.Turn}, LastMoved: start.LastMoved}
}

// startOf returns a copy of g taken back to its start position.
func startOf(g *core.Game) *core.Game {
	start := g.Clone()
	for start.MovesPlayed() > 0 {
		start.Undo()
	}
	return start
}

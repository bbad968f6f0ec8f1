package uhp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// The early draft of UHP writes a move as the piece and its absolute
// position in cube coordinates, "WS1[0,0,0]", "BS1[1,-1,0]": an upper-case
// colour letter, [x,y,z] with x+y+z = 0 and the first piece at the origin,
// and for a piece on top of a stack its height as a fourth number,
// "WB1[1,-1,0,1]". A pass is "PASS". The core board has no absolute
// coordinates (the hive may drift anywhere on its wrapping grid), so a
// Layout measures them from the first piece, move by move.

// axial is a hexagon's position in axial coordinates: q to the east, r to
// the south-east; in cube coordinates x = q, z = r and y = -q-r.
type axial struct{ q, r int }

// axialStep returns the axial offset of one step in direction d.
func axialStep(d core.Direction) axial {
	dq, dr := d.Axial()
	return axial{dq, dr}
}

func (a axial) add(b axial) axial { return axial{a.q + b.q, a.r + b.r} }

func (a axial) distance(b axial) int {
	dq, dr := a.q-b.q, a.r-b.r
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Layout is the absolute position of every piece of a game, for the early
// draft's notation. It follows its game: moves are played and taken back
// through it, each a step of its own, so that a session keeps one Layout
// for its game and never replays the game to write or read a move; a game
// of n moves loads in O(n).
type Layout struct {
	game *core.Game
	at   [core.NumPieces]axial
	// steps holds, for each move of the game, what Undo restores: the
	// piece moved (NoPiece for a pass) and where it stood before.
	steps []step
	// history holds, for each move of the game, the history command's
	// entry: where the piece stood before, " > ", and the move.
	history []string
}

type step struct {
	piece core.Piece
	was   axial
}

// LayoutOf measures the absolute positions of the pieces of g by replaying
// its moves once from the first piece, which stands at the origin. The
// Layout then follows g: play and take back its moves through it.
func LayoutOf(g *core.Game) *Layout {
	l := &Layout{game: core.NewGame(g.Type(), core.RepetitionDraw(g.RepetitionDrawOn()))}
	for _, m := range g.History() {
		l.Play(m)
	}
	l.game = g
	return l
}

// LoadEarly plays the moves of gs, written in the early draft's notation,
// from the start of a game of its type, each read against the positions
// the moves before it reached and checked against the rules, and returns
// the game with its Layout. Like Load, it recomputes the state and turn.
func (gs GameString) LoadEarly(opts ...core.GameOption) (*core.Game, *Layout, error) {
	g := core.NewGame(gs.Type, opts...)
	l := LayoutOf(g)
	if err := gs.playEach(l.ParseMove, l.PlayChecked); err != nil {
		return nil, nil, err
	}
	return g, l, nil
}

// Fork returns a Layout of a copy of the game, on which to play a line
// ahead without touching this one; the moves played before the fork cannot
// be taken back on it, nor does its history hold them.
func (l *Layout) Fork() *Layout { return &Layout{game: l.game.Clone(), at: l.at} }

// Play plays m, a legal move of the layout's game, on the game, and
// measures where the piece goes.
func (l *Layout) Play(m core.Move) {
	entry, st := "PASS", step{piece: core.NoPiece}
	if m != core.Pass {
		p := m.Piece()
		was := FormatEarlyPiece(p) + "[]"
		if !l.game.InHand(p) {
			was = formatEarlyPosition(p, l.at[p], l.game.Level(p))
		}
		to := l.locate(m)
		entry = was + " > " + formatEarlyPosition(p, to, l.game.Height(m.To()))
		st = step{piece: p, was: l.at[p]}
		l.at[p] = to
	}
	l.steps = append(l.steps, st)
	l.history = append(l.history, entry)
	l.game.Play(m)
}

// PlayChecked plays m if it is legal, and otherwise says why not.
func (l *Layout) PlayChecked(m core.Move) error {
	if err := l.game.RuleBroken(m); err != nil {
		return err
	}
	l.Play(m)
	return nil
}

// Undo takes back the last move of the layout's game, which must have one
// played through the layout.
func (l *Layout) Undo() {
	n := len(l.steps) - 1
	if st := l.steps[n]; st.piece != core.NoPiece {
		l.at[st.piece] = st.was
	}
	l.steps, l.history = l.steps[:n], l.history[:n]
	l.game.Undo()
}

// locate returns the absolute position of the destination of m, a legal
// move in the layout's current game: the origin for the first piece, the
// position of the stack it climbs, or a step from a neighbouring piece.
func (l *Layout) locate(m core.Move) axial {
	g, to := l.game, m.To()
	if g.OnBoard() == 0 {
		return axial{}
	}
	if t := g.Top(to); t != core.NoPiece {
		return l.at[t]
	}
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if t := g.Top(to.Neighbor(d)); t != core.NoPiece {
			return l.at[t].add(axialStep(d.Opposite()))
		}
	}
	return axial{} // unreachable for a legal move: it touches the hive
}

// FormatEarlyPiece writes a piece name as the early draft does, with an
// upper-case colour letter: WQ, BS1.
func FormatEarlyPiece(p core.Piece) string {
	s := []byte(p.String())
	s[0] = upper(s[0])
	return string(s)
}

func formatEarlyPosition(p core.Piece, a axial, level int) string {
	s := FormatEarlyPiece(p) + "[" + strconv.Itoa(a.q) + "," + strconv.Itoa(-a.q-a.r) + "," + strconv.Itoa(a.r)
	if level > 0 {
		s += "," + strconv.Itoa(level)
	}
	return s + "]"
}

// FormatMove writes m, a legal move of the layout's game, in the early
// draft's notation.
func (l *Layout) FormatMove(m core.Move) string {
	if m == core.Pass {
		return "PASS"
	}
	return formatEarlyPosition(m.Piece(), l.locate(m), l.game.Height(m.To()))
}

// ParseMove reads a move in the early draft's notation: PASS, or a piece
// and its cube position, in either case. The height, if given, must be the
// height the piece would stand at.
func (l *Layout) ParseMove(s string) (core.Move, error) {
	s = strings.TrimSpace(s)
	if engine.EqualFold(s, "pass") {
		return core.Pass, nil
	}
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") {
		return core.NoMove, fmt.Errorf("%q is not a move: want a piece and a position, as WS1[0,0,0]", s)
	}
	p, err := ParsePiece(strings.TrimSpace(s[:open]))
	if err != nil {
		return core.NoMove, err
	}
	parts := strings.Split(s[open+1:len(s)-1], ",")
	if len(parts) != 3 && len(parts) != 4 {
		return core.NoMove, fmt.Errorf("%q is not a position: want [x,y,z] or [x,y,z,height]", s[open:])
	}
	var n [4]int
	for i, part := range parts {
		if n[i], err = strconv.Atoi(strings.TrimSpace(part)); err != nil {
			return core.NoMove, fmt.Errorf("%q is not a position: %q is not a whole number", s[open:], part)
		}
	}
	if n[0]+n[1]+n[2] != 0 {
		return core.NoMove, fmt.Errorf("%q is not a position: x+y+z must be 0", s[open:])
	}
	target := axial{n[0], n[2]}
	to, err := l.cellAt(target)
	if err != nil {
		return core.NoMove, err
	}
	if len(parts) == 4 {
		want := l.game.Height(to)
		if n[3] != want {
			return core.NoMove, fmt.Errorf("%q gives height %d but the piece would stand at height %d", s, n[3], want)
		}
	}
	return core.MakeMove(p, to), nil
}

// cellAt finds the board cell at an absolute position, measured from the
// nearest piece; a position far from every piece is no legal destination.
func (l *Layout) cellAt(target axial) (core.Cell, error) {
	g := l.game
	if g.OnBoard() == 0 {
		if target != (axial{}) {
			return core.NoCell, fmt.Errorf("the first piece goes at the origin [0,0,0]")
		}
		return core.Origin, nil
	}
	best, bestDist := core.NoPiece, 0
	for p := core.Piece(0); p < core.NumPieces; p++ {
		if g.InHand(p) {
			continue
		}
		if d := l.at[p].distance(target); best == core.NoPiece || d < bestDist {
			best, bestDist = p, d
		}
	}
	if bestDist > 2 {
		return core.NoCell, fmt.Errorf("[%d,%d,%d] is not next to the hive", target.q, -target.q-target.r, target.r)
	}
	from := l.at[best]
	return g.Position(best).Step(target.q-from.q, target.r-from.r), nil
}

// History writes the early draft's history: for each move, the piece as it
// stood before ("WS1[]" for a piece in hand), " > ", and the move, joined
// by semicolons.
func (l *Layout) History() string { return strings.Join(l.history, ";") }

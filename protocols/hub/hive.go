package hub

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// This file fixes the Hive contents of Hub lines, after hub-hive.md: moves,
// move lists, positions and scores.

// Moves.
//
// hub-hive.md: "A move is a UHP MoveString (docs/specs/uhp.txt), quoted when it
// contains a space: move="bG1 -wS1", move=wS1, move=pass." A MoveString is
// relative to the pieces on the board ("bG1 -wS1" is left of wS1), so the
// text of a move means nothing without its position: messages carry moves
// as text, and ReadMove and WriteMove turn them into core moves in a game.

// normalizeMove checks the text of one MoveString as far as that can be
// done without a position (it is not empty and is not a list) and returns
// it with its blanks collapsed to one space, as UHP reads the moves of a
// GameString (and parseGameString, with this, those of game=).
func normalizeMove(s string) (string, error) {
	m := strings.Join(strings.Fields(s), " ")
	if m == "" {
		return "", errors.New("empty move")
	}
	if strings.Contains(m, ";") {
		return "", fmt.Errorf("'%s' is a list of moves where one move is wanted", m)
	}
	return m, nil
}

// ParseMoveList reads a move list: "UHP MoveStrings separated by ; inside
// one quoted value: moves="wS1;bG1 -wS1;wA1 wS1/"". An empty value is the
// empty list. Blanks around each move are dropped and blanks inside one
// collapse to a single space; an empty move (";;", or a ';' at either end)
// is an error that gives its number, counted from 1.
func ParseMoveList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ";")
	moves := make([]string, 0, len(parts))
	for i, p := range parts {
		m := strings.Join(strings.Fields(p), " ")
		if m == "" {
			return nil, fmt.Errorf("move %d of the list is empty", i+1)
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// FormatMoveList writes a move list: the moves joined by ';'.
func FormatMoveList(moves []string) string { return strings.Join(moves, ";") }

// WriteMove spells m, a move of g in its current position, as a MoveString
// in hivebridge's canonical spelling (uhp.FormatMove, the reference
// engine's).
func WriteMove(m core.Move, g *core.Game) string { return uhp.FormatMove(m, g) }

// ReadMove reads a MoveString in g's current position and checks that the
// move is legal there. Any spelling an engine uses is accepted
// (uhp.ParseMove): moves are compared by what they do, never by their text.
// The error is the reason the text is no move, or the *core.RuleError of
// the rule the move breaks.
func ReadMove(s string, g *core.Game) (core.Move, error) {
	m, err := uhp.ParseMove(s, g)
	if err != nil {
		return core.NoMove, err
	}
	if err := g.RuleBroken(m); err != nil {
		return core.NoMove, err
	}
	return m, nil
}

// WriteMoves spells a line of play from g's current position (a principal
// variation, or the history of a game): each move in the position the ones
// before it lead to. g is not changed; the moves must be legal.
func WriteMoves(g *core.Game, moves []core.Move) []string {
	if len(moves) == 0 {
		return nil
	}
	c := g.Clone()
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = uhp.FormatMove(m, c)
		c.Play(m)
	}
	return out
}

// ReadMoves reads a line of play from g's current position, each move in
// the position the ones before it lead to, checking every one. g is not
// changed. The error is a *MoveError that gives the first move that is
// unreadable or illegal.
func ReadMoves(g *core.Game, texts []string) ([]core.Move, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	c := g.Clone()
	moves := make([]core.Move, len(texts))
	for i, t := range texts {
		m, err := playText(c, i, t)
		if err != nil {
			return nil, err
		}
		moves[i] = m
	}
	return moves, nil
}

// playText reads text, the move of index i (from 0) of a list, in g and
// plays it if it is legal.
func playText(g *core.Game, i int, text string) (core.Move, error) {
	m, err := uhp.ParseMove(text, g)
	if err != nil {
		return core.NoMove, &MoveError{Index: i + 1, Text: text, Err: err}
	}
	if err := g.PlayChecked(m); err != nil {
		return core.NoMove, &MoveError{Index: i + 1, Text: text, Illegal: true, Err: err}
	}
	return m, nil
}

// MoveError names the move of a list that could not be played. Its text
// is hub-hive.md's: "an illegal one gets error message="illegal move 3
// (bG1 -wS1): ..."".
type MoveError struct {
	Index   int    // the move's number in the list, from 1
	Text    string // the move as the line spells it
	Illegal bool   // the text is a move, but the rules forbid it; else it is no move at all
	Err     error  // why: a *core.RuleError when Illegal
}

func (e *MoveError) Error() string {
	what := "bad move"
	if e.Illegal {
		what = "illegal move"
	}
	return fmt.Sprintf("%s %d (%s): %v", what, e.Index, e.Text, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// Positions.

// Pos is the command pos: the position of the next search. hub-hive.md: "A
// position is given by a game type and the moves from the start, because
// UHP MoveStrings are relative and a Hive position cannot be read without
// its history:
//
//	pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"
//	pos game="Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"
//
// game= takes a whole UHP GameString; variant= + moves= is the same
// information split. variant defaults to the engine's variant parameter."
//
// Variant and Moves hold the position in both forms; AsGame says the line
// used game=, whose GameStateString and TurnString are kept in State and
// Turn so that the line is written back as it came. Load, like UHP's
// reference engine, recomputes state and turn from the moves rather than
// trusting them (hub-hive.md's own example says White[3] after three moves,
// when Black is to play).
//
// Board, when not nil, is hivebridge's board= form (see Set-up positions in
// the package documentation): the moves are then played from that board
// rather than from the empty one.
type Pos struct {
	Variant        core.GameType
	DefaultVariant bool     // neither variant= nor game=: the engine's variant parameter applies
	Board          *Board   // board=, turn= and last=: the position the moves start from
	Moves          []string // UHP MoveStrings from the start of the game (the board, if any), nil for none
	AsGame         bool     // written as game=<GameString>
	State          core.GameState
	Turn           core.Turn
}

// PosOf returns the position of g in the form variant=... moves=..., each
// move in the canonical spelling, after board=... turn=... [last=...] for
// a game set up from a position. The variant is always written: the peer's
// default may not be g's.
func PosOf(g *core.Game) Pos {
	p := Pos{Variant: g.Type(), Moves: WriteMoves(startOf(g), g.History())}
	if g.SetUp() {
		p.Board = boardOf(g)
	}
	return p
}

// GamePosOf returns the position of g in the form game=<GameString>, or,
// for a game set up from a position, which has no GameString (see
// ErrSetUp), in the board= form of PosOf.
func GamePosOf(g *core.Game) Pos {
	p := PosOf(g)
	if !g.SetUp() {
		p.AsGame, p.State, p.Turn = true, core.StateOf(g), core.Turn{Color: g.ToMove(), Number: g.TurnNumber()}
	}
	return p
}

// GameString returns the position as a UHP GameString. For a position in
// the variant=/moves= form, the state and turn are those of a game in
// progress after the moves, which Load is the one to check. A position
// with a board has none: ErrSetUp.
func (p Pos) GameString() (string, error) {
	if p.Board != nil {
		return "", ErrSetUp
	}
	state, turn := p.State, p.Turn
	if !p.AsGame {
		state = core.StateInProgress
		if len(p.Moves) == 0 {
			state = core.StateNotStarted
		}
		turn = core.Turn{Color: core.Color(len(p.Moves) & 1), Number: len(p.Moves)/2 + 1}
	}
	return formatGameString(p.Variant, state, turn, p.Moves), nil
}

// Line writes the command: pos game="<GameString>" when AsGame, and
// otherwise pos [variant=<GameTypeString>] [board=<stacks> turn=<TurnString>
// [last=<piece>]] [moves="<m1>;<m2>;..."], with no moves= when there are
// none.
func (p Pos) Line() Line {
	if gs, err := p.GameString(); err == nil && p.AsGame {
		return NewLine(CmdPos, Pair("game", gs))
	}
	var args []Arg
	if !p.DefaultVariant {
		args = append(args, Pair("variant", p.Variant.Name()))
	}
	if p.Board != nil {
		args = append(args, p.Board.args()...)
	}
	if len(p.Moves) > 0 {
		args = append(args, Pair("moves", FormatMoveList(p.Moves)))
	}
	return NewLine(CmdPos, args...)
}

// ParsePos reads the command pos. It checks the syntax of the game type,
// of the GameString, of the board and of the move list; whether the board
// and the moves can be played is for Load to say. game= with any other
// form is an error, and so is Hub's own pos=, a draughts position that
// cannot describe a Hive game: ignoring it, as an unknown argument, would
// search the wrong position.
func ParsePos(l Line) (Pos, error) {
	if err := expect(l, CmdPos); err != nil {
		return Pos{}, err
	}
	game, hasGame, err := single(l, "game")
	if err != nil {
		return Pos{}, err
	}
	variant, hasVariant, err := single(l, "variant")
	if err != nil {
		return Pos{}, err
	}
	moves, hasMoves, err := single(l, "moves")
	if err != nil {
		return Pos{}, err
	}
	if l.Has("pos") {
		return Pos{}, errors.New("pos: pos= is a draughts position; a Hive position is variant=<GameType> moves=\"<m1>;<m2>;...\", or game=<GameString>, or variant= board=<stacks> turn=<TurnString>")
	}
	board, err := parseBoardArgs(l)
	if err != nil {
		return Pos{}, err
	}
	if hasGame {
		if hasVariant || hasMoves || board != nil {
			return Pos{}, errors.New("pos: give either game=<GameString> or variant= and moves= (and board=), not both")
		}
		p, err := parseGameString(game)
		if err != nil {
			return Pos{}, fmt.Errorf("pos: game=: %w", err)
		}
		return p, nil
	}
	p := Pos{Board: board}
	if hasVariant {
		if p.Variant, err = core.ParseGameType(variant); err != nil {
			return Pos{}, fmt.Errorf("pos: variant=: %w", err)
		}
	} else {
		p.DefaultVariant = true
	}
	if p.Moves, err = ParseMoveList(moves); err != nil {
		return Pos{}, fmt.Errorf("pos: moves=: %w", err)
	}
	return p, nil
}

// Load plays the position's moves from the start of its game type, or of
// defaultVariant when the line named none, or from its board, checking
// every one. The error is a *MoveError naming the first move that is
// unreadable or illegal, or, for a board that play cannot reach, "board=: "
// and the *core.SetUpError that says why; after either the caller keeps its
// previous position (hub-hive.md: "the previous position is kept").
func (p Pos) Load(defaultVariant core.GameType, opts ...core.GameOption) (*core.Game, error) {
	t := p.Variant
	if p.DefaultVariant {
		t = defaultVariant
	}
	if t >= core.AllGameTypes {
		return nil, fmt.Errorf("game type %d does not exist", t)
	}
	g := core.NewGame(t, opts...)
	if p.Board != nil {
		var err error
		if g, err = core.NewGameAt(p.Board.position(t), opts...); err != nil {
			return nil, fmt.Errorf("board=: %w", err)
		}
	}
	for i, text := range p.Moves {
		if _, err := playText(g, i, text); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Scores.

// Score is a search score. hub-hive.md: "score is from the side to move's
// point of view, a real number in the engine's own units (hivebridge:
// pieces' worth, as Hub uses men). A forced win in N plies is
// score=1000-N, a forced loss -(1000-N), so that a GUI that expects a real
// number always gets one."
type Score float64

// WinScore is the score of a game won on the spot; a win in N plies scores
// WinScore-N.
const WinScore Score = 1000

// MaxForcedPlies bounds the N of a forced result: a score is read as one
// only when it is a whole number within MaxForcedPlies of ±WinScore. The
// spec fixes no bound; 500 plies is far beyond any search, and evaluations
// in pieces' worth never come near 500.
const MaxForcedPlies = 500

// WinIn returns the score of a forced win in plies plies.
func WinIn(plies int) Score { return WinScore - Score(plies) }

// LossIn returns the score of a forced loss in plies plies.
func LossIn(plies int) Score { return -WinIn(plies) }

// Forced reports whether s is a forced result and, if so, in how many
// plies; the sign of s says whether it is a win or a loss.
func (s Score) Forced() (plies int, ok bool) {
	a := math.Abs(float64(s))
	n := float64(WinScore) - a
	if n < 0 || n > MaxForcedPlies || n != math.Trunc(n) {
		return 0, false
	}
	return int(n), true
}

// String writes the score as a plain decimal number, with as many digits
// as it takes to read back the same float64 and no exponent.
func (s Score) String() string { return formatReal(float64(s)) }

// ParseScore reads a score: a decimal real number.
func ParseScore(s string) (Score, error) {
	f, err := parseReal(s)
	return Score(f), err
}

// ScoreOf writes a score of the engine contract in the dialect's terms:
// an evaluation in pieces, a forced result as WinIn or LossIn.
func ScoreOf(s engine.Score) Score { return Score(s.Pieces()) }

// Engine reads s as a score of the engine contract: a forced result where
// Forced says so, an evaluation in hundredths of a piece otherwise.
func (s Score) Engine() engine.Score {
	if plies, ok := s.Forced(); ok {
		if s > 0 {
			return engine.WinIn(plies)
		}
		return engine.LossIn(plies)
	}
	return engine.EvalScore(int(math.Round(float64(s) * 100)))
}

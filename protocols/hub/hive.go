package hub

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// This file fixes the Hive contents of Hub lines, after hub-hive.md: moves,
// move lists, positions and scores.

// Moves.
//
// hub-hive.md: "A move is a UHP MoveString (specs/uhp.txt), quoted when it
// contains a space: move="bG1 -wS1", move=wS1, move=pass." A MoveString is
// relative to the pieces on the board ("bG1 -wS1" is left of wS1), so the
// text of a move means nothing without its position: messages carry moves
// as text, and ReadMove and WriteMove turn them into core moves in a game.

// normalizeMove checks the text of one MoveString as far as that can be
// done without a position (it is not empty and is not a list) and returns
// it with its blanks collapsed to one space, as uhp.ParseGameString does.
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
	if err := g.CheckMove(m); err != nil {
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
	State          uhp.GameState
	Turn           uhp.Turn
}

// PosOf returns the position of g in the form variant=... moves=..., each
// move in the canonical spelling, after board=... turn=... [last=...] for
// a game set up from a position. The variant is always written: the peer's
// default may not be g's.
func PosOf(g *core.Game) Pos {
	if g.SetUp() {
		return Pos{Variant: g.Type(), Board: boardOf(g), Moves: WriteMoves(startOf(g), g.History())}
	}
	gs, _ := uhp.Describe(g) // a game from the empty board always has one
	return Pos{Variant: gs.Type, Moves: gs.Moves}
}

// GamePosOf returns the position of g in the form game=<GameString>, or,
// for a game set up from a position, which has no GameString (see
// uhp.ErrSetUp), in the board= form of PosOf.
func GamePosOf(g *core.Game) Pos {
	gs, err := uhp.Describe(g)
	if err != nil {
		return PosOf(g)
	}
	return Pos{Variant: gs.Type, Moves: gs.Moves, AsGame: true, State: gs.State, Turn: gs.Turn}
}

// GameString returns the position as a UHP GameString. For a position in
// the variant=/moves= form, the state and turn are those of a game in
// progress after the moves, which Load is the one to check. A position
// with a board has none: uhp.ErrSetUp.
func (p Pos) GameString() (uhp.GameString, error) {
	if p.Board != nil {
		return uhp.GameString{}, uhp.ErrSetUp
	}
	gs := uhp.GameString{Type: p.Variant, State: p.State, Turn: p.Turn, Moves: p.Moves}
	if !p.AsGame {
		gs.State = uhp.InProgress
		if len(p.Moves) == 0 {
			gs.State = uhp.NotStarted
		}
		gs.Turn = uhp.Turn{Color: core.Color(len(p.Moves) & 1), Number: len(p.Moves)/2 + 1}
	}
	return gs, nil
}

// Line writes the command: pos game="<GameString>" when AsGame, and
// otherwise pos [variant=<GameTypeString>] [board=<stacks> turn=<TurnString>
// [last=<piece>]] [moves="<m1>;<m2>;..."], with no moves= when there are
// none.
func (p Pos) Line() Line {
	if gs, err := p.GameString(); err == nil && p.AsGame {
		return New(CmdPos, Pair("game", gs.String()))
	}
	var args []Arg
	if !p.DefaultVariant {
		args = append(args, Pair("variant", uhp.FormatGameType(p.Variant)))
	}
	if p.Board != nil {
		args = append(args, p.Board.args()...)
	}
	if len(p.Moves) > 0 {
		args = append(args, Pair("moves", FormatMoveList(p.Moves)))
	}
	return New(CmdPos, args...)
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
		gs, err := uhp.ParseGameString(game)
		if err != nil {
			return Pos{}, fmt.Errorf("pos: game=: %w", err)
		}
		return Pos{Variant: gs.Type, Moves: gs.Moves, AsGame: true, State: gs.State, Turn: gs.Turn}, nil
	}
	p := Pos{Board: board}
	if hasVariant {
		if p.Variant, err = uhp.ParseGameType(variant); err != nil {
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

// formatReal writes f as a plain decimal number that reads back as f.
func formatReal(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// parseReal reads a real number written in decimal, with an optional sign,
// fraction and exponent (-0.01, 291.587, 1e3). Hexadecimal, digit
// separators, infinities and NaN, which strconv also reads, are no numbers
// a Hub peer writes.
func parseReal(s string) (float64, error) {
	if !isDecimal(s) {
		return 0, fmt.Errorf("'%s' is not a number", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("'%s' is out of range", s)
	}
	return f, nil
}

// isDecimal reports whether s is [+-]digits[.digits][(e|E)[+-]digits],
// with digits on at least one side of the point.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
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

// InfoOf writes a report of a search of g as an info line, with every
// field the report has: depth, score, nodes, time, nps (in millions of
// nodes a second, as Scan gives it; from nodes and time when the report
// has no speed) and the principal variation, spelled from g (the move
// alone when the report has no line).
func InfoOf(p engine.Progress, g *core.Game) Info {
	i := Info{Has: InfoTime | InfoPV, Time: p.Elapsed.Round(time.Millisecond)}
	if p.Depth > 0 {
		i.Has |= InfoDepth
		i.Depth = p.Depth
	}
	if p.SelDepth > 0 {
		i.Extra = append(i.Extra, Pair("sel-depth", strconv.Itoa(p.SelDepth)))
	}
	if p.Score.Kind != engine.NoScore {
		i.Has |= InfoScore
		i.Score = ScoreOf(p.Score)
	}
	if p.Nodes > 0 {
		i.Has |= InfoNodes
		i.Nodes = p.Nodes
	}
	nps := float64(p.NPS)
	if nps == 0 && p.Nodes > 0 && p.Elapsed > 0 {
		nps = float64(p.Nodes) / p.Elapsed.Seconds()
	}
	if nps > 0 {
		i.Has |= InfoNPS
		i.NPS = math.Round(nps/1e3) / 1e3
	}
	pv := p.PV
	if len(pv) == 0 || pv[0] != p.Move {
		pv = []core.Move{p.Move}
	}
	c := g.Clone()
	for _, m := range pv {
		if !c.Legal(m) {
			break
		}
		i.PV = append(i.PV, WriteMove(m, c))
		c.Play(m)
	}
	return i
}

// Progress reads an info line of a search of g as a report of the engine
// contract. Its first PV move is the best move so far; an info line
// without a PV reports no move, which ok false says. Moves of the PV that
// do not read as legal moves cut it there.
func (i Info) Progress(g *core.Game) (p engine.Progress, ok bool) {
	if i.Has&InfoPV == 0 || len(i.PV) == 0 {
		return engine.Progress{}, false
	}
	c := g.Clone()
	for _, text := range i.PV {
		m, err := ReadMove(text, c)
		if err != nil || !c.Legal(m) {
			break
		}
		p.PV = append(p.PV, m)
		c.Play(m)
	}
	if len(p.PV) == 0 {
		return engine.Progress{}, false
	}
	p.Move = p.PV[0]
	if i.Has&InfoDepth != 0 {
		p.Depth = i.Depth
	}
	if i.Has&InfoScore != 0 {
		p.Score = i.Score.Engine()
	}
	if i.Has&InfoNodes != 0 {
		p.Nodes = i.Nodes
	}
	if i.Has&InfoTime != 0 {
		p.Elapsed = i.Time
	}
	if i.Has&InfoNPS != 0 {
		p.NPS = uint64(i.NPS * 1e6)
	}
	return p, true
}

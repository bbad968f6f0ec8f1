// Package uhp speaks the Universal Hive Protocol: its codecs (GameTypeString,
// GameStateString, TurnString, GameString and MoveString, read and written
// here as pure functions of strings and core values) and, built on them, the
// sessions that use them.
package uhp

import (
	"fmt"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// FormatGameType writes a GameTypeString: "All GameTypeStrings start with
// Base, and if there are any expansion pieces, a single + and any
// combination of: M for Mosquito, L for Ladybug, P for Pillbug." The letters
// are written in the order M, L, P, as the spec lists every type. The names
// are core's (core.GameType.Name), which the Hub dialect writes too.
func FormatGameType(t core.GameType) string { return t.Name() }

// ParseGameType reads a GameTypeString. The expansion letters may come in
// any order and either case ("Base+PLM" is Base+MLP), each at most once.
// See core.ParseGameType, which the Hub dialect reads them with too.
func ParseGameType(s string) (core.GameType, error) { return core.ParseGameType(s) }

// GameState is a GameStateString: whether the game is in progress or not.
// It is core's GameState, which the Hub dialect's game= reads alike.
type GameState = core.GameState

// The GameStateString values (see core.GameState).
const (
	NotStarted = core.StateNotStarted // "The game has not started, no moves have been made."
	InProgress = core.StateInProgress // "The game is in progress, at least one move has been made."
	Draw       = core.StateDraw       // "The game is over, the result is a draw."
	WhiteWins  = core.StateWhiteWins  // "The game is over, the white side has won."
	BlackWins  = core.StateBlackWins  // "The game is over, the black side has won."
)

// ParseGameState reads a GameStateString, in any case (see
// core.ParseGameState).
func ParseGameState(s string) (GameState, error) { return core.ParseGameState(s) }

// StateOf returns the GameState of a game (see core.StateOf).
func StateOf(g *core.Game) GameState { return core.StateOf(g) }

// Turn is a TurnString: "which side's turn it is, as well as the turn
// number", which "starts at 1" and grows after each side has played. It is
// core's Turn, which the Hub dialect's turn= spells alike.
type Turn = core.Turn

// ParseTurn reads a TurnString such as White[1] or Black[12] (see
// core.ParseTurn).
func ParseTurn(s string) (Turn, error) { return core.ParseTurn(s) }

// TurnOf returns the TurnString of a game.
func TurnOf(g *core.Game) Turn {
	return Turn{Color: g.ToMove(), Number: g.TurnNumber()}
}

// GameString is a parsed GameString: "GameTypeString;GameStateString;
// TurnString" followed by "a semi-colon separated list of MoveStrings for
// every move that has occurred so far in the game". The moves stay text:
// what they mean depends on the position each is played in (see Load).
type GameString struct {
	Type  core.GameType
	State GameState
	Turn  Turn
	Moves []string
}

// String writes the GameString, with no trailing semicolon.
func (gs GameString) String() string {
	var b strings.Builder
	b.WriteString(FormatGameType(gs.Type))
	b.WriteByte(';')
	b.WriteString(gs.State.String())
	b.WriteByte(';')
	b.WriteString(gs.Turn.String())
	for _, m := range gs.Moves {
		b.WriteByte(';')
		b.WriteString(m)
	}
	return b.String()
}

// ParseGameString reads a GameString. It checks the syntax of every field;
// each MoveString is trimmed of surrounding blanks and must not be empty.
func ParseGameString(s string) (GameString, error) {
	fields := strings.Split(strings.TrimSpace(s), ";")
	if len(fields) < 3 {
		return GameString{}, fmt.Errorf("bad GameString %q: want GameType;GameState;Turn followed by the moves", s)
	}
	var gs GameString
	var err error
	if gs.Type, err = ParseGameType(fields[0]); err != nil {
		return GameString{}, err
	}
	if gs.State, err = ParseGameState(fields[1]); err != nil {
		return GameString{}, err
	}
	if gs.Turn, err = ParseTurn(fields[2]); err != nil {
		return GameString{}, err
	}
	for i, m := range fields[3:] {
		m = strings.Join(strings.Fields(m), " ")
		if m == "" {
			return GameString{}, fmt.Errorf("bad GameString: move %d is empty", i+1)
		}
		gs.Moves = append(gs.Moves, m)
	}
	return gs, nil
}

// Load plays the GameString's moves from the start of its game type,
// checking each against the rules. The state and turn it declares are not
// compared with the game reached: like the reference engine, hivebridge
// recomputes them, so that a viewer unaware of a rule (the repetition draw,
// say) can still hand over its game.
func (gs GameString) Load(opts ...core.GameOption) (*core.Game, error) {
	g := core.NewGame(gs.Type, opts...)
	read := func(text string) (core.Move, error) { return ParseMove(text, g) }
	if err := gs.playEach(read, g.PlayChecked); err != nil {
		return nil, err
	}
	return g, nil
}

// ErrSetUp is why a game set up from a position (core.NewGameAt) has no
// GameString: UHP has no set-up form, a GameString is "every move that has
// occurred so far in the game" from the empty board, and a set-up game has
// no such moves. A UHP engine cannot be given such a game (newgame takes
// only a GameString), and a UHP viewer cannot be shown it.
const ErrSetUp engine.Error = "the game was set up from a position, and UHP has no way to describe it: a GameString holds only moves from the empty board"

// playEach reads each move of gs with read and plays it with play; the
// first move that does not read or play is a *LoadError.
func (gs GameString) playEach(read func(string) (core.Move, error), play func(core.Move) error) error {
	for i, text := range gs.Moves {
		m, err := read(text)
		if err != nil {
			return &LoadError{Index: i + 1, Text: text, Unparsable: true, Err: err}
		}
		if err := play(m); err != nil {
			return &LoadError{Index: i + 1, Text: text, Err: err}
		}
	}
	return nil
}

// Describe returns the GameString of a game, writing each move in the
// canonical spelling of FormatMove, or ErrSetUp for a game that did not
// start from the empty board.
func Describe(g *core.Game) (GameString, error) {
	if g.SetUp() {
		return GameString{}, ErrSetUp
	}
	gs := GameString{Type: g.Type(), State: StateOf(g), Turn: TurnOf(g)}
	replay := core.NewGame(g.Type(), core.RepetitionDraw(g.RepetitionDrawOn()))
	for _, m := range g.History() {
		gs.Moves = append(gs.Moves, FormatMove(m, replay))
		replay.Play(m)
	}
	return gs, nil
}

// LoadError tells which move of a GameString could not be read, or was
// read but breaks the rules.
type LoadError struct {
	Index      int    // the move's number, from 1
	Text       string // the move as the GameString spells it
	Unparsable bool   // the text is no move at all
	Err        error  // what is wrong with it
}

func (e *LoadError) Error() string { return fmt.Sprintf("move %d %q: %v", e.Index, e.Text, e.Err) }

func (e *LoadError) Unwrap() error { return e.Err }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// lowerASCII lower-cases the ASCII letters of s, and only those.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

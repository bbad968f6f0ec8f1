package hub

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// This file reads and writes the game= form of pos, a whole UHP
// GameString (hub-hive.md). Its GameTypeString and TurnString are core's
// names (core.ParseGameType, core.ParseTurn) and its moves stay text, as
// every move list of the dialect does; what is left, the GameStateString
// and the framing, is read here rather than by UHP's GameString codec:
// Hub may take only UHP's MoveString codec (docs/architecture.md). What
// it reads and the errors it gives are UHP's, word for word, so that a
// GameString reads alike whichever protocol carries it.

// GameState is the GameStateString of a game= position: whether the game
// had started and, if it is over, how it ended.
type GameState uint8

// The GameStateString values.
const (
	NotStarted GameState = iota // "The game has not started, no moves have been made."
	InProgress                  // "The game is in progress, at least one move has been made."
	Draw                        // "The game is over, the result is a draw."
	WhiteWins                   // "The game is over, the white side has won."
	BlackWins                   // "The game is over, the black side has won."
)

// gameStateNames are the GameStateStrings, in the order of the values.
var gameStateNames = [...]string{"NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins"}

func (s GameState) String() string {
	if int(s) < len(gameStateNames) {
		return gameStateNames[s]
	}
	return "GameState(" + strconv.Itoa(int(s)) + ")"
}

// parseGameState reads a GameStateString, in any case.
func parseGameState(s string) (GameState, error) {
	s = strings.TrimSpace(s)
	for st, name := range gameStateNames {
		if engine.EqualFold(s, name) {
			return GameState(st), nil
		}
	}
	return 0, fmt.Errorf("unknown game state %q: want NotStarted, InProgress, Draw, WhiteWins or BlackWins", s)
}

// stateOf returns the GameState of a game: NotStarted before its first
// move, and otherwise its result, which core names as the GameStateStrings
// do (core.Result.String).
func stateOf(g *core.Game) GameState {
	if g.Result() == core.InProgress && g.Ply() == 0 {
		return NotStarted
	}
	st, _ := parseGameState(g.Result().String())
	return st
}

// ErrSetUp is why a position with a board has no GameString: a GameString
// holds only the moves from the empty board.
const ErrSetUp = engine.Error("the game was set up from a position, and UHP has no way to describe it: a GameString holds only moves from the empty board")

// formatGameString writes a GameString: "GameTypeString;GameStateString;
// TurnString" followed by the moves, each after a ';', with no trailing
// one.
func formatGameString(t core.GameType, state GameState, turn core.Turn, moves []string) string {
	return strings.Join(append([]string{t.Name(), state.String(), turn.String()}, moves...), ";")
}

// parseGameString reads a GameString into a position in the game= form.
// It checks the syntax of every field; each MoveString is read as
// normalizeMove reads one: its blanks collapsed to one space, and not
// empty.
func parseGameString(s string) (Pos, error) {
	fields := strings.Split(strings.TrimSpace(s), ";")
	if len(fields) < 3 {
		return Pos{}, fmt.Errorf("bad GameString %q: want GameType;GameState;Turn followed by the moves", s)
	}
	p := Pos{AsGame: true}
	var err error
	if p.Variant, err = core.ParseGameType(fields[0]); err != nil {
		return Pos{}, err
	}
	if p.State, err = parseGameState(fields[1]); err != nil {
		return Pos{}, err
	}
	if p.Turn, err = core.ParseTurn(fields[2]); err != nil {
		return Pos{}, err
	}
	for i, text := range fields[3:] {
		// A field holds no ';', so the only fault normalizeMove can find
		// in it is that it is empty.
		m, err := normalizeMove(text)
		if err != nil {
			return Pos{}, fmt.Errorf("bad GameString: move %d is empty", i+1)
		}
		p.Moves = append(p.Moves, m)
	}
	return p, nil
}

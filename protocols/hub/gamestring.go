package hub

import (
	"fmt"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// This file reads and writes the game= form of pos, a whole UHP
// GameString (hub-hive.md). Its GameTypeString, GameStateString and
// TurnString are core's names (core.ParseGameType, core.ParseGameState,
// core.ParseTurn) and its moves stay text, as every move list of the
// dialect does; what is left, the framing, is read here rather than by
// UHP's GameString codec: Hub may take only UHP's MoveString codec
// (docs/architecture.md). What it reads and the errors it gives are UHP's,
// word for word, so that a GameString reads alike whichever protocol
// carries it.

// ErrSetUp is why a position with a board has no GameString: a GameString
// holds only the moves from the empty board.
const ErrSetUp = engine.Error("the game was set up from a position, and UHP has no way to describe it: a GameString holds only moves from the empty board")

// formatGameString writes a GameString: "GameTypeString;GameStateString;
// TurnString" followed by the moves, each after a ';', with no trailing
// one.
func formatGameString(t core.GameType, state core.GameState, turn core.Turn, moves []string) string {
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
	if p.State, err = core.ParseGameState(fields[1]); err != nil {
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

package uhp

import (
	"errors"

	"github.com/hivebridge/hivebridge/core"
)

// A session tells its Config.Record hook of each change to its game, so
// that a daemon can keep every game it serves. The hook runs on the
// session's goroutine after the change and before its answer is written:
// what the viewer is told has been played is what the hook was told first.

// GameEventKind says what changed.
type GameEventKind int

// The changes to a session's game.
const (
	GameBegun   GameEventKind = iota // a new game, maybe with moves (newgame GameString)
	MovePlayed                       // one move, by the viewer or the opponent
	MovesUndone                      // Undone moves taken back
	GameEnded                        // by the rules, a forfeit, a timeout or the viewer leaving
)

// The players' names in events: a viewer plays the moves it sends, the
// backend the moves it chose (a bestmove answer played as it stood, or
// its replies in a remote game), a paired viewer the moves of the person
// at another session.
const (
	PlayerViewer       = "viewer"
	PlayerBackend      = "backend"
	PlayerPairedViewer = "paired viewer"
)

// GameEvent is one change to a session's game.
type GameEvent struct {
	Kind GameEventKind
	// Game is the GameString after the change.
	Game GameString
	// GameBegun: who plays each side; empty when the moves decide (a
	// viewer who may ask the backend for some moves).
	White, Black string
	// GameBegun: the moves it starts with were the viewer's.
	// MovePlayed: the move as spelled, and who played it.
	Move, By string
	// MovesUndone: how many.
	Undone int
	// GameEnded: how ("state", "forfeit", "timeout", "disconnect",
	// "abandoned") and why.
	How, Reason string
}

// KeptElsewhere is implemented by an Opponent whose game is recorded by
// the other player's session: a game between two viewers is kept once.
type KeptElsewhere interface{ KeptElsewhere() bool }

// HowEnded is implemented by an opponent's error that says how it ends
// the game ("timeout", "disconnect"); other errors are a forfeit.
type HowEnded interface{ HowEnded() string }

// record tells the hook of a change to the game, unless the game is kept
// elsewhere.
func (e *Session) record(ev GameEvent) {
	if e.cfg.Record == nil || e.game == nil || e.unrecorded {
		return
	}
	ev.Game = GameString{Type: e.game.Type(), State: e.state(), Turn: TurnOf(e.game), Moves: e.spellings}
	e.cfg.Record(ev)
}

// recordBegun records a new game; remote says who plays which side.
func (e *Session) recordBegun() {
	e.bestFor = -1
	e.unrecorded = false
	ev := GameEvent{Kind: GameBegun}
	if e.remote != nil {
		if k, ok := e.remote.opponent.(KeptElsewhere); ok && k.KeptElsewhere() {
			e.unrecorded = true
			return
		}
		other := PlayerBackend
		if _, backend := e.remote.opponent.(backendOpponent); !backend {
			other = PlayerPairedViewer
		}
		ev.White, ev.Black = PlayerViewer, other
		if e.remote.viewer == core.Black {
			ev.White, ev.Black = other, PlayerViewer
		}
	}
	e.record(ev)
}

// recordPlayed records the last move played, by by, and the end of the
// game if it ended the game.
func (e *Session) recordPlayed(by string) {
	e.record(GameEvent{Kind: MovePlayed, Move: e.spellings[len(e.spellings)-1], By: by})
	if e.game.Over() {
		e.record(GameEvent{Kind: GameEnded, How: "state"})
	}
}

// viewerMoveBy says who chose a move the viewer played: the backend when
// it is the move the last bestmove answered in this very position.
func (e *Session) viewerMoveBy(m core.Move) string {
	if e.remote == nil && e.bestFor == e.game.MovesPlayed()-1 && e.best == m {
		return PlayerBackend
	}
	return PlayerViewer
}

// recordLeft ends a game still in progress when the viewer leaves it: for
// another game, or out of the session.
func (e *Session) recordLeft(how, reason string) {
	if e.game != nil && !e.over() {
		e.record(GameEvent{Kind: GameEnded, How: how, Reason: reason})
	}
}

// endHow is how an opponent's failure to move ends the game.
func endHow(err error) string {
	var h HowEnded
	if errors.As(err, &h) {
		return h.HowEnded()
	}
	return "forfeit"
}

package uhp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// Remote play, as the UHP remote-play proposal (UHP 2.0) describes it:
//
//	"newgame remote": the viewer "can only make 1 ply, which the engine will
//	then automatically reply to, resulting in two new GameStrings (state
//	after ply 1, state after ply 2) and a MoveString (the ply made by the
//	engine)."
//
//	"play forfeit [reason]": "This will immediately end the game for the
//	current player and result in a win for the other player."
//
// Here the other player is the session's searcher, the backend.

// remoteGame is the viewer's side of a remote game.
type remoteGame struct {
	viewer core.Color
}

// forfeit records a player who gave up, and why.
type forfeit struct {
	loser  core.Color
	reason string
}

// state is the GameState of the session's game, a forfeit included.
func (e *Engine) state() GameState {
	if e.forfeited != nil {
		if e.forfeited.loser == core.White {
			return BlackWins
		}
		return WhiteWins
	}
	return StateOf(e.game)
}

// over reports whether the session's game has ended, by the rules or by a
// forfeit.
func (e *Engine) over() bool { return e.forfeited != nil || e.game.Over() }

// newRemoteGame answers "newgame remote [GameType] [White|Black]": a game
// against the backend, the viewer playing the colour named (White when none
// is). When the backend has White it moves at once, and the GameString
// returned holds its move.
func (e *Engine) newRemoteGame(ctx context.Context, args []string, w io.Writer) error {
	t, viewer := core.Base, core.White
	for i, arg := range args {
		switch {
		case equalFold(arg, "White"):
			viewer = core.White
		case equalFold(arg, "Black"):
			viewer = core.Black
		case i == 0:
			var err error
			if t, err = ParseGameType(arg); err != nil {
				return fmt.Errorf("Unable to parse '%s' as a GameTypeString: %v.", arg, err)
			}
		default:
			return fmt.Errorf("Unable to start a remote game: %q is neither a GameTypeString nor White or Black.", arg)
		}
	}
	if t&^e.cfg.Expansions != 0 {
		return fmt.Errorf("This engine does not support %s games.", FormatGameType(t))
	}
	if e.cfg.Searcher == nil {
		return errors.New("No searcher is configured to play against.")
	}
	e.game = core.NewGame(t, core.RepetitionDraw(e.repetitionDraw.Value() == "True"))
	e.spellings, e.forfeited = nil, nil
	e.remote = &remoteGame{viewer: viewer}
	if viewer == core.Black {
		m, err := e.remoteMove(ctx)
		if err != nil {
			e.forfeited = &forfeit{loser: core.White, reason: err.Error()}
			writeLines(w, e.gameString())
			return fmt.Errorf("The remote player could not move and forfeits: %v", err)
		}
		e.playRemote(m)
	}
	writeLines(w, e.gameString())
	return nil
}

// remoteMove asks the backend for its move, within the DefaultBestMoveTime
// option's time, and asks once more if the first answer fails (a backend
// that crashed has been started again by then).
func (e *Engine) remoteMove(ctx context.Context) (core.Move, error) {
	secs, _ := strconv.ParseFloat(e.defaultTime.Value(), 64)
	limit := Limit{Time: time.Duration(secs * float64(time.Second))}
	var err error
	for range 2 {
		var m core.Move
		if m, err = e.cfg.Searcher.BestMove(ctx, e.game, limit, nil); err == nil {
			if err = e.game.CheckMove(m); err == nil {
				return m, nil
			}
		}
		e.cfg.Log.Warn().Err(err).Msg("remote player failed to move")
		if ctx.Err() != nil {
			break
		}
	}
	return core.NoMove, err
}

// playRemote plays the backend's move, spelled canonically.
func (e *Engine) playRemote(m core.Move) string {
	text := e.writeMoves([]core.Move{m})[0]
	e.game.Play(m)
	e.spellings = append(e.spellings, text)
	return text
}

// remoteReply prints the backend's reply to the viewer's move and the
// GameString after it. A backend that cannot move forfeits the game.
func (e *Engine) remoteReply(ctx context.Context, w io.Writer) error {
	m, err := e.remoteMove(ctx)
	if err != nil {
		e.forfeited = &forfeit{loser: e.game.ToMove(), reason: err.Error()}
		writeLines(w, e.gameString())
		return fmt.Errorf("The remote player could not move and forfeits: %v", err)
	}
	writeLines(w, e.playRemote(m), e.gameString())
	return nil
}

// forfeit answers "play forfeit [reason]": the player to move gives up and
// the other wins.
func (e *Engine) forfeit(reason string, w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	if e.over() {
		return errGameOver
	}
	e.forfeited = &forfeit{loser: e.game.ToMove(), reason: reason}
	e.cfg.Log.Info().Str("loser", e.game.ToMove().String()).Str("reason", reason).Msg("forfeit")
	writeLines(w, e.gameString())
	return nil
}

package uhp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
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
	viewer   core.Color
	opponent Opponent
}

// Opponent is the other player of a remote game: the session's backend,
// or a person the server paired the viewer with.
type Opponent interface {
	// BestMove waits for the opponent's move in the game.
	engine.Searcher
	// Moved tells the opponent the viewer's move, once played (the last
	// move of the game too, so that the opponent sees how it ended).
	Moved(m core.Move)
	// Leave tells the opponent that the viewer's side has left the game:
	// a forfeit, a new game, or the end of the session.
	Leave(why Leaving)
}

// Leaving is why a viewer's side left a remote game: how the game ended,
// in the archive's words, and the words the other player is told.
type Leaving struct {
	How    string // LeftForfeit, LeftSession or LeftNewGame
	Reason string // "forfeited: <the viewer's reason>", "left the session", "started a new game"
}

// How a viewer's side leaves a remote game, as the archive names the end
// it makes.
const (
	LeftForfeit = "forfeit"    // play forfeit
	LeftSession = "disconnect" // the session ended
	LeftNewGame = "abandoned"  // newgame over the remote game
)

// Matchmaker finds a person to play a remote game against: it returns the
// opponent and the viewer's colour (the one asked for when named is true,
// either otherwise), or a nil Opponent when nobody came in time, and the
// backend plays instead.
type Matchmaker func(ctx context.Context, t core.GameType, want core.Color, named bool) (Opponent, core.Color, error)

// backendOpponent is the backend as a remote opponent: it needs telling
// nothing, since it is handed the whole game at each search.
type backendOpponent struct{ engine.Searcher }

func (backendOpponent) Moved(core.Move) {}
func (backendOpponent) Leave(Leaving)   {}

// forfeit records a player who gave up, and why.
type forfeit struct {
	loser  core.Color
	reason string
}

// state is the GameState of the session's game, a forfeit included.
func (e *Session) state() GameState {
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
func (e *Session) over() bool { return e.forfeited != nil || e.game.Over() }

// newRemoteGame answers "newgame remote [GameType] [White|Black]": a game
// against the backend, the viewer playing the colour named (White when none
// is). When the backend has White it moves at once, and the GameString
// returned holds its move.
func (e *Session) newRemoteGame(ctx context.Context, args []string, w io.Writer) error {
	t, viewer, named := core.Base, core.White, false
	for i, arg := range args {
		switch {
		case engine.EqualFold(arg, "White"):
			viewer, named = core.White, true
		case engine.EqualFold(arg, "Black"):
			viewer, named = core.Black, true
		case i == 0:
			var err error
			if t, err = ParseGameType(arg); err != nil {
				return fmt.Errorf("Unable to parse '%s' as a GameTypeString: %w.", arg, err)
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
	e.recordLeft("abandoned", "the viewer started a new game")
	e.leaveRemote(Leaving{How: LeftNewGame, Reason: "started a new game"})
	var opponent Opponent = backendOpponent{e.cfg.Searcher}
	if e.cfg.Matchmaker != nil {
		person, color, err := e.cfg.Matchmaker(ctx, t, viewer, named)
		if err != nil {
			return fmt.Errorf("Unable to start a remote game: %w.", err)
		}
		if person != nil {
			opponent, viewer = person, color
		}
	}
	e.setGame(core.NewGame(t, core.RepetitionDraw(e.repetitionDraw.Value() == "True")), nil)
	e.spellings, e.forfeited = nil, nil
	e.remote = &remoteGame{viewer: viewer, opponent: opponent}
	e.recordBegun()
	if viewer == core.Black {
		m, err := e.remoteMove(ctx)
		if err != nil {
			e.forfeited = &forfeit{loser: core.White, reason: err.Error()}
			e.record(GameEvent{Kind: GameEnded, How: endHow(err), Reason: err.Error()})
			writeLines(w, e.gameString())
			return fmt.Errorf("The remote player could not move and forfeits: %w", err)
		}
		e.playRemote(m)
	}
	writeLines(w, e.gameString())
	return nil
}

// remoteMove asks the opponent for its move: a backend within the
// DefaultBestMoveTime option's time, asked once more if the first answer
// fails (a backend that crashed has been started again by then); a person
// as long as the server lets them think.
func (e *Session) remoteMove(ctx context.Context) (core.Move, error) {
	secs, _ := strconv.ParseFloat(e.defaultTime.Value(), 64)
	limit := engine.Limit{Time: time.Duration(secs * float64(time.Second))}
	tries := 1
	if _, backend := e.remote.opponent.(backendOpponent); backend {
		tries = 2
	}
	var err error
	for range tries {
		var m core.Move
		if m, err = e.remote.opponent.BestMove(ctx, e.game, limit, nil); err == nil {
			if err = e.game.RuleBroken(m); err == nil {
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

// leaveRemote ends the session's part in a remote game, if it has one.
func (e *Session) leaveRemote(why Leaving) {
	if e.remote != nil {
		e.remote.opponent.Leave(why)
		e.remote = nil
	}
}

// Close leaves a remote game in progress, so that a person playing the
// session's viewer learns that the viewer is gone.
func (e *Session) Close() {
	e.recordLeft("disconnect", "the viewer left the session")
	e.leaveRemote(Leaving{How: LeftSession, Reason: "left the session"})
}

// playRemote plays the backend's move, spelled canonically.
func (e *Session) playRemote(m core.Move) string {
	text := e.writeMoves([]core.Move{m})[0]
	e.playMove(m)
	e.spellings = append(e.spellings, text)
	by := PlayerBackend
	if _, backend := e.remote.opponent.(backendOpponent); !backend {
		by = PlayerPairedViewer
	}
	e.recordPlayed(by)
	return text
}

// remoteReply prints the backend's reply to the viewer's move and the
// GameString after it. A backend that cannot move forfeits the game.
func (e *Session) remoteReply(ctx context.Context, w io.Writer) error {
	m, err := e.remoteMove(ctx)
	if err != nil {
		e.forfeited = &forfeit{loser: e.game.ToMove(), reason: err.Error()}
		e.record(GameEvent{Kind: GameEnded, How: endHow(err), Reason: err.Error()})
		writeLines(w, e.gameString())
		return fmt.Errorf("The remote player could not move and forfeits: %w", err)
	}
	writeLines(w, e.playRemote(m), e.gameString())
	return nil
}

// forfeit answers "play forfeit [reason]": the player to move gives up and
// the other wins.
func (e *Session) forfeit(reason string, w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	if e.over() {
		return errGameOver
	}
	e.forfeited = &forfeit{loser: e.game.ToMove(), reason: reason}
	e.record(GameEvent{Kind: GameEnded, How: "forfeit", Reason: e.game.ToMove().String() + " forfeited: " + reason})
	e.cfg.Log.Info().Str("loser", e.game.ToMove().String()).Str("reason", reason).Msg("forfeit")
	if e.remote != nil {
		e.remote.opponent.Leave(Leaving{How: LeftForfeit, Reason: "forfeited: " + reason})
	}
	writeLines(w, e.gameString())
	return nil
}

package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// gameState is what the bot keeps of one game between its turns: the
// game as the site's history has it, replayed by hivebridge's rules, and
// the engine that plays it, kept from turn to turn so that what it learnt
// (a UHP engine's hash, its game) lasts. The account's goroutine owns it,
// and lends it to the goroutine of a turn while one is in flight (busy).
type gameState struct {
	id  string
	me  core.Color
	log zerolog.Logger
	// names are each colour's player, as the archive names them.
	names [2]string

	// game is the site's history replayed, entries that history as the
	// site spells it, so that a new history is compared by its text.
	game    *core.Game
	entries []hivegame.HistoryMove
	// broken says why the game cannot be played (a history the rules
	// cannot replay); the bot then resigns or aborts it where it may.
	broken error
	gaveUp bool

	// engine is the game's engine, nil while it is being opened (opening
	// then says when it has) and after a failure; inStep says its game is
	// game, so that the opponent's moves are played on it rather than the
	// whole game given again.
	engine  translate.Engine
	inStep  bool
	opening chan opened
	// refused are the moves the site refused, by ply: not sent again in
	// the same position.
	refused map[int][]core.Move

	rec  *archive.Recorder // nil without an archive
	busy bool              // a turn in flight holds the game
	over bool              // a turn found the game over
}

// newCoreGame is a new game of hivebridge's rules for a game of the site.
// The site forbids the Queen on a player's first move in every game from a
// challenge (tournament_queen_rule), as core does by default. Repetition
// draws are the site's to declare: its engine counts a position reached by
// rotation as the same and core does not, so core's counting is off and
// the game goes on until the site says it is over.
func newCoreGame(t core.GameType) *core.Game {
	return core.NewGame(t, core.QueenOnFirstTurn(false), core.RepetitionDraw(false))
}

// takeUp starts keeping a game the site listed: its history replayed,
// its players named, its engine starting, its archive record begun.
func (a *account) takeUp(ctx context.Context, row hivegame.Game) *gameState {
	c, _ := row.ColorOf(a.me)
	me := core.White
	if c == hivegame.Black {
		me = core.Black
	}
	gs := &gameState{
		id: row.Nanoid, me: me,
		log:     a.log.With().Str("game", row.Nanoid).Logger(),
		refused: map[int][]core.Move{},
	}
	opponent := row.WhiteID
	if gs.me == core.White {
		opponent = row.BlackID
	}
	name := a.names[strings.ToLower(opponent)]
	if name == "" {
		name = opponent // the site's user id: no challenge named the player
	}
	gs.names[gs.me] = a.cfg.Name
	gs.names[gs.me.Other()] = fmt.Sprintf("%s (%s/game/%s)", name, a.site, row.Nanoid)

	t, err := uhp.ParseGameType(row.GameType)
	if err != nil {
		gs.broken = fmt.Errorf("game type %q: %w", row.GameType, err)
		t = core.Base
	}
	gs.game = newCoreGame(t)
	if gs.broken == nil {
		gs.broken = gs.followRow(context.Background(), row)
	}
	if gs.broken != nil {
		a.count(errHistory)
		gs.log.Error().Err(gs.broken).Str("history", row.History).Msg("the game cannot be replayed")
	}
	if gs.broken == nil {
		a.startOpening(ctx, gs)
	}
	if k := a.b.deps.Archive; k != nil {
		d, _ := uhp.Describe(gs.game) // a game from moves always has a GameString
		gs.rec = k.Begin("hivegame.com", uhp.FormatGameType(t), d.String(), d.Moves, "hivegame.com",
			archive.Players{White: gs.names[core.White], Black: gs.names[core.Black]})
	}
	a.games[gs.id] = gs
	a.b.m.gamesStarted.WithLabelValues(a.cfg.Name).Inc()
	a.b.m.playing.WithLabelValues(a.cfg.Name).Inc()
	gs.log.Info().Str("color", gs.me.String()).Str("opponent", gs.names[gs.me.Other()]).
		Str("type", row.GameType).Str("time_mode", row.TimeMode).Int("turn", row.Turn).Msg("game taken up")
	return gs
}

// followRow brings the game in step with a row the site answered.
func (gs *gameState) followRow(ctx context.Context, row hivegame.Game) error {
	entries, err := row.Moves()
	if err != nil {
		return err
	}
	return gs.follow(ctx, entries)
}

// follow brings the game in step with the site's history. The plies the
// two share (by the site's text) are kept; any the site does not have are
// taken back (a resynchronisation must not assume the site only ever adds
// moves), and the site's new ones played, on the engine too while it is in
// step, and recorded in the archive.
func (gs *gameState) follow(ctx context.Context, entries []hivegame.HistoryMove) error {
	shared := 0
	for shared < len(gs.entries) && shared < len(entries) && gs.entries[shared] == entries[shared] {
		shared++
	}
	if back := len(gs.entries) - shared; back > 0 {
		for range back {
			gs.game.Undo()
		}
		gs.entries = gs.entries[:shared]
		gs.inStep = false
		if gs.rec != nil {
			gs.rec.Undone(back, gs.gameString())
		}
	}
	for _, e := range entries[shared:] {
		m, err := siteMove(e, gs.game)
		if err != nil {
			return fmt.Errorf("ply %d of the site's history, %q: %w", len(gs.entries), e.Piece+" "+e.Destination, err)
		}
		text := uhp.FormatMove(m, gs.game)
		by := gs.names[gs.game.ToMove()]
		gs.game.Play(m)
		gs.entries = append(gs.entries, e)
		if gs.engine != nil && gs.inStep && gs.engine.Play(ctx, m) != nil {
			gs.inStep = false // given the whole game at its next search
		}
		if gs.rec != nil {
			gs.rec.Played(text, by)
		}
	}
	return nil
}

// siteMove reads one ply of the site's history in g, checked against the
// rules. The site writes moves in UHP's notation, against a neighbour of
// its own choosing; the first move is the piece alone, and a pass is the
// site's own, made for a player left without a move.
func siteMove(e hivegame.HistoryMove, g *core.Game) (core.Move, error) {
	if e.Pass {
		if err := g.RuleBroken(core.Pass); err != nil {
			return core.NoMove, err
		}
		return core.Pass, nil
	}
	text := e.Piece
	if g.MovesPlayed() > 0 {
		text += " " + e.Destination
	}
	m, err := uhp.ParseMove(text, g)
	if err != nil {
		return core.NoMove, err
	}
	if err := g.RuleBroken(m); err != nil {
		return core.NoMove, err
	}
	return m, nil
}

// gameString is the game's GameString, for the archive.
func (gs *gameState) gameString() string {
	d, _ := uhp.Describe(gs.game)
	return d.String()
}

// siteColor is a colour as the site's types name it.
func siteColor(c core.Color) hivegame.Color {
	if c == core.White {
		return hivegame.White
	}
	return hivegame.Black
}

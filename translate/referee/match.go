package referee

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// DefaultMaxPlies is the move cap when Config.MaxPlies is 0: 200 turns
// of each side. Two engines that shuffle pieces without repeating a
// position would otherwise play for ever.
const DefaultMaxPlies = 400

// Config describes a match between two engines, A and B. A (White) plays
// White in the even-numbered games and Black in the odd ones; B (Black) the
// other way round. Games 2k and 2k+1 start from the same opening, so each
// opening is played from both sides.
type Config struct {
	// White and Black are the backend specs of engines A and B, in the
	// syntax of Open. The names say who is White in game 0; the colours
	// alternate from game to game.
	White, Black string
	// WhiteOptions and BlackOptions are "Name=Value" engine options of A
	// and B, checked against what each declares.
	WhiteOptions, BlackOptions []string
	// WhiteName and BlackName, when set, name A and B in the archive (a
	// tournament's entrants); else an engine is named by its id and spec.
	WhiteName, BlackName string
	// Games is the number of games to play (at least 1).
	Games int
	// GameType is the game type of random openings and of the empty
	// opening; an openings file gives each opening its own.
	GameType core.GameType
	// TC is the time control of both engines; WhiteTC and BlackTC, when
	// not nil, replace it for A and B respectively (so A at depth 3 can
	// meet B at depth 1), whichever colour each plays.
	TC               TimeControl
	WhiteTC, BlackTC *TimeControl
	// TimeMargin is how far past its clock an engine may answer before it
	// loses on time (cutechess-cli's and fastchess's timemargin): the time
	// an answer takes on its way back on a machine that runs more games
	// than it has cores is no search's, and a clock a few tens of
	// milliseconds from empty cannot hold it. The overrun is still charged:
	// the clock goes below zero, and the engine's next share is the
	// increment's. 0 forfeits at the first millisecond over.
	TimeMargin time.Duration
	// Openings, if any, are the start positions, used in turn: opening k
	// starts games 2k and 2k+1, cycling when there are fewer openings than
	// game pairs. With none, RandomPlies random legal plies from Seed
	// start each pair (0: every game starts empty).
	Openings    []uhp.GameString
	RandomPlies int
	Seed        uint64
	// Concurrency is the number of games played at once, each with its
	// own engines (at least 1).
	Concurrency int
	// MaxPlies is the move cap: a game that reaches this many plies
	// (opening included) is adjudicated a draw. 0 means DefaultMaxPlies.
	MaxPlies int
	// SPRT, when not nil, stops the match as soon as the test accepts
	// one of its hypotheses.
	SPRT *SPRT
	// Disagreement is how a game ended by a rules disagreement is scored
	// (the zero value: a draw).
	Disagreement DisagreementPolicy
	// Adjudication ends games early on the engines' agreeing scores;
	// without rules (the zero value) every game is played out.
	Adjudication Adjudication
	// Engine sets up the backends: the log and the timeouts. Its
	// EngineOptions are ignored: WhiteOptions and BlackOptions apply.
	Engine translate.Config
	// OnMove, if set, is told of every move the engines play, from the
	// goroutines of the games, concurrently when Concurrency is above 1.
	OnMove func(MoveReport)
	// Archive, if set, keeps every game as it is played.
	Archive *archive.Keeper
	// Resumed are the games an earlier run of this match finished (read
	// back from its record): they are not played again, and are counted
	// first, in order, so that the statistics and the SPRT go on from
	// where they stood.
	Resumed []GameRecord
}

// TCOf returns the time control of engine A (engineA true) or B.
func (cfg *Config) TCOf(engineA bool) TimeControl {
	switch {
	case engineA && cfg.WhiteTC != nil:
		return *cfg.WhiteTC
	case !engineA && cfg.BlackTC != nil:
		return *cfg.BlackTC
	}
	return cfg.TC
}

// check reports a configuration that cannot run.
func (cfg *Config) check() error {
	switch {
	case cfg.Games < 1:
		return fmt.Errorf("the number of games must be at least 1, not %d", cfg.Games)
	case cfg.Concurrency < 1:
		return fmt.Errorf("the concurrency must be at least 1, not %d", cfg.Concurrency)
	case cfg.RandomPlies < 0:
		return fmt.Errorf("the number of random plies must be 0 or more, not %d", cfg.RandomPlies)
	case cfg.MaxPlies < 0:
		return fmt.Errorf("the move cap must be 0 (the default) or more, not %d", cfg.MaxPlies)
	case cfg.TimeMargin < 0:
		return fmt.Errorf("the time margin must be 0 or more, not %s", cfg.TimeMargin)
	case len(cfg.Openings) > 0 && cfg.RandomPlies > 0:
		return errors.New("openings and random plies exclude each other")
	}
	for _, side := range []struct {
		name, spec string
		tc         TimeControl
	}{{"A", cfg.White, cfg.TCOf(true)}, {"B", cfg.Black, cfg.TCOf(false)}} {
		if !side.tc.valid() {
			return fmt.Errorf("engine %s has no valid time control (%s)", side.name, side.tc)
		}
		if sp, err := translate.ParseSpec(side.spec); err == nil && sp.Kind == "uhp" {
			if why := side.tc.uhpProblem(); why != "" {
				return fmt.Errorf("engine %s (%s) cannot be given %s fairly: %s", side.name, side.spec, side.tc, why)
			}
		}
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.check(); err != nil {
			return err
		}
	}
	seen := map[int]bool{}
	for _, r := range cfg.Resumed {
		if r.Index < 0 || r.Index >= cfg.Games || seen[r.Index] {
			return fmt.Errorf("resumed game %d: not a game of this match of %d games, or counted twice", r.Index, cfg.Games)
		}
		seen[r.Index] = true
	}
	return nil
}

// preflight opens each engine once before the match, so that a bad spec, a
// bad option or a game type an engine does not play stops the match at once
// with one clear error rather than forfeiting every game.
func (cfg *Config) preflight(ctx context.Context, starts []*core.Game) error {
	for _, side := range []struct {
		name, spec string
		options    []string
	}{{"A", cfg.White, cfg.WhiteOptions}, {"B", cfg.Black, cfg.BlackOptions}} {
		e, err := cfg.open(ctx, side.spec, side.options, side.name)
		if err != nil {
			return fmt.Errorf("engine %s: %w", side.name, err)
		}
		expansions := e.Info().Expansions
		id := e.Info().ID
		e.Close()
		for _, g := range starts {
			if g.Type()&^expansions != 0 {
				return fmt.Errorf("engine %s (%s) does not play %s games", side.name, id, uhp.FormatGameType(g.Type()))
			}
		}
	}
	return nil
}

// open starts one engine with its options.
func (cfg *Config) open(ctx context.Context, spec string, options []string, label string) (translate.Engine, error) {
	c := cfg.Engine
	c.EngineOptions = options
	c.Log = c.Log.With().Str("match_engine", label).Logger()
	return translate.Open(ctx, spec, c)
}

package referee

import (
	"context"
	"fmt"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/translate"
)

// Engines that state their own verdict of the game (translate.StateReporter:
// a UHP engine does, in the GameString of every answer to play and newgame)
// are heard after every move. Where a verdict differs from the referee's,
// the game ends there as a rules disagreement rather than going on until
// the engine that thinks the game over is asked for a move and fails: a
// forfeit would blame the engine for a difference of rules, and a strength
// figure with such games in it is wrong.

// DisagreementPolicy is how a game ended by a rules disagreement is scored.
type DisagreementPolicy uint8

// The policies.
const (
	// DisagreementDraw scores the game a draw, the default: neither the
	// referee's rules nor the engine's are taken as the truth.
	DisagreementDraw DisagreementPolicy = iota
	// DisagreementVoid leaves the game out of the score, the Elo and the
	// SPRT; it is still recorded and counted among the endings.
	DisagreementVoid
	// DisagreementReferee takes the referee's rules as the truth: a game
	// they say is over gets their result; one they say goes on is lost by
	// the engine that declared it over (a draw if both did).
	DisagreementReferee
)

// ParseDisagreementPolicy reads "draw", "void" or "referee".
func ParseDisagreementPolicy(s string) (DisagreementPolicy, error) {
	for p := DisagreementDraw; p <= DisagreementReferee; p++ {
		if strings.EqualFold(strings.TrimSpace(s), p.String()) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown disagreement policy %q: want void, draw or referee", s)
}

func (p DisagreementPolicy) String() string {
	switch p {
	case DisagreementVoid:
		return "void"
	case DisagreementReferee:
		return "referee"
	}
	return "draw"
}

// Verdict is what one engine said of the position.
type Verdict struct {
	Stated bool        // its backend states verdicts (see translate.StateReporter)
	Result core.Result // its verdict, when Stated
}

func (v Verdict) String() string {
	if !v.Stated {
		return "states none"
	}
	return v.Result.String()
}

// differs reports whether the engine stated a verdict other than r.
func (v Verdict) differs(r core.Result) bool { return v.Stated && v.Result != r }

// Disagreement is a game ended because an engine's verdict of the position
// differed from the referee's. The position is the record's GameString.
type Disagreement struct {
	Ply     int         // plies played (opening included) when the verdicts differed
	Referee core.Result // the referee's verdict
	Engines [2]Verdict  // the verdicts of the engines playing White and Black
}

// Scored returns the game's result under policy p: core.InProgress for a
// void game.
func (d Disagreement) Scored(p DisagreementPolicy) core.Result {
	switch p {
	case DisagreementVoid:
		return core.InProgress
	case DisagreementReferee:
		if d.Referee != core.InProgress {
			return d.Referee
		}
		white, black := d.Engines[core.White].differs(d.Referee), d.Engines[core.Black].differs(d.Referee)
		switch {
		case white && !black:
			return core.BlackWins
		case black && !white:
			return core.WhiteWins
		}
	}
	return core.Draw
}

// reason says how the game ended, for GameRecord.Reason; the part before
// the colon names the kind of ending.
func (d Disagreement) reason(p DisagreementPolicy) string {
	scored := "void"
	if r := d.Scored(p); r != core.InProgress {
		scored = "scored " + r.String()
	}
	return fmt.Sprintf("rules disagreement: at ply %d the referee says %s, white's engine %s, black's engine %s; %s (disagreement policy %s)",
		d.Ply, d.Referee, d.Engines[core.White], d.Engines[core.Black], scored, p)
}

// hearVerdicts brings every engine that states a verdict in step with g
// and compares its verdict with the referee's. It returns the disagreement
// if there is one, or the forfeit of an engine that could not be brought
// in step (after action, "newgame" or "play <move>").
func hearVerdicts(ctx context.Context, engines [2]translate.Engine, g *core.Game, action string) (*Disagreement, *forfeit) {
	d := Disagreement{Ply: g.MovesPlayed(), Referee: g.Result()}
	differ := false
	for c, e := range engines {
		reporter, ok := e.(translate.StateReporter)
		if !ok {
			continue
		}
		verdict, stated, err := reporter.SyncState(ctx)
		if err != nil {
			return nil, failure(core.Color(c), action, err)
		}
		d.Engines[c] = Verdict{Stated: stated, Result: verdict}
		differ = differ || d.Engines[c].differs(d.Referee)
	}
	if !differ {
		return nil, nil
	}
	return &d, nil
}

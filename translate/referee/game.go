package referee

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// forfeit is an engine's failure that loses it the game, unless it is a
// refusal of hivebridge's command, which voids the game.
type forfeit struct {
	color core.Color
	why   string
	void  bool
}

// failure is the forfeit of the engine of colour c that failed with err
// on what, a refusal of hivebridge's command voiding the game.
func failure(c core.Color, what string, err error) *forfeit {
	if errors.As(err, new(*translate.RefusedError)) {
		return &forfeit{color: c, why: fmt.Sprintf("void: %s refused hivebridge's command on %s, which may be hivebridge's doing as much as the engine's: %v", colourName(c), what, err), void: true}
	}
	return &forfeit{color: c, why: fmt.Sprintf("%s forfeits on %s: %v", colourName(c), what, err)}
}

// playGame plays game i of the match from start. finished is false when the
// match was stopped before the game ended: its record means nothing.
func (cfg *Config) playGame(ctx context.Context, i int, start *core.Game) (rec GameRecord, finished bool) {
	began := time.Now()
	aWhite := i%2 == 0
	g := start.Clone()
	g.SetRepetitionDraw(true)
	rec = GameRecord{Index: i, AWhite: aWhite, Opening: gameString(start)}
	var kept gameArchive
	end := func(result core.Result, ending Ending, reason string) (GameRecord, bool) {
		if ctx.Err() != nil {
			kept.ended(g, core.InProgress, ByRules, "")
			return rec, false // an engine failing because the match stopped is no forfeit
		}
		kept.ended(g, result, ending, reason)
		// The GameString's state is the referee's verdict of the board
		// as played: InProgress after a forfeit, an adjudication or most
		// disagreements; Result is what the game scores.
		rec.GameString = gameString(g)
		rec.Result, rec.Ending, rec.Reason, rec.Plies, rec.Elapsed = result, ending, reason, g.MovesPlayed(), time.Since(began)
		return rec, true
	}
	lose := func(f forfeit) (GameRecord, bool) {
		if f.void {
			return end(core.InProgress, ByRefusal, f.why)
		}
		winner := core.WhiteWins
		if f.color == core.White {
			winner = core.BlackWins
		}
		return end(winner, ByForfeit, f.why)
	}
	// hear hears the engines after action ("newgame" or "play <move>")
	// and ends the game (ended true) if a verdict differs from the
	// referee's, or an engine cannot be brought in step, a forfeit.
	hear := func(engines [2]translate.Engine, action string) (_ GameRecord, finished, ended bool) {
		d, f := hearVerdicts(ctx, engines, g, action)
		switch {
		case f != nil:
			rec, finished := lose(*f)
			return rec, finished, true
		case d != nil:
			rec.Disagree = d
			rec, finished := end(d.Scored(cfg.Disagreement), ByDisagreement, d.reason(cfg.Disagreement))
			return rec, finished, true
		}
		return rec, false, false
	}

	// engines[c] is the engine playing colour c; tcs[c] its time control.
	var engines [2]translate.Engine
	var tcs [2]TimeControl
	sides := [2]struct {
		spec    string
		options []string
		label   string
		a       bool
		name    string
	}{{cfg.White, cfg.WhiteOptions, "A", true, cfg.WhiteName}, {cfg.Black, cfg.BlackOptions, "B", false, cfg.BlackName}}
	if !aWhite {
		sides[0], sides[1] = sides[1], sides[0]
	}
	defer func() {
		for _, e := range engines {
			if e != nil {
				e.Close()
			}
		}
	}()
	for c := core.White; c <= core.Black; c++ {
		s := sides[c]
		e, err := cfg.open(ctx, s.spec, s.options, fmt.Sprintf("%s game %d", s.label, i))
		if err != nil {
			return lose(*failure(c, "start", err))
		}
		engines[c], tcs[c] = e, cfg.TCOf(s.a)
	}
	for c, e := range engines {
		if err := e.NewGame(ctx, g); err != nil {
			return lose(*failure(core.Color(c), "newgame", err))
		}
	}
	kept = cfg.beginArchive(g, engines, [2]string{sides[0].spec, sides[1].spec}, [2]string{sides[0].name, sides[1].name})
	if rec, finished, ended := hear(engines, "newgame"); ended {
		return rec, finished
	}
	clocks := [2]time.Duration{tcs[0].Clock, tcs[1].Clock}
	var lags [2]lag
	adjudge := adjudicator{rules: cfg.Adjudication}
	for !g.Over() {
		if g.MovesPlayed() >= cfg.MaxPlies {
			return end(core.Draw, ByMoveCap, fmt.Sprintf("move cap (%d plies)", cfg.MaxPlies))
		}
		me := g.ToMove()
		m, eval, f := cfg.askMove(ctx, engines[me], tcs[me], &clocks[me], &lags[me], me, g)
		if f != nil {
			return lose(*f)
		}
		answered := time.Now()
		rec.Evals = append(rec.Evals, eval)
		if cfg.OnMove != nil {
			cfg.OnMove(MoveReport{Game: i, A: sides[me].a, Ply: g.MovesPlayed() + 1, Eval: eval})
		}
		text := uhp.FormatMove(m, g)
		// The engine checked the move already; the referee's game is
		// the canonical one, so it checks again.
		if err := g.PlayChecked(m); err != nil {
			return lose(forfeit{color: me, why: fmt.Sprintf("%s forfeits: illegal move %s: %v", colourName(me), text, err)})
		}
		kept.played(g, me)
		for c, e := range engines {
			if err := e.Play(ctx, m); err != nil {
				return lose(*failure(core.Color(c), "play "+text, err))
			}
		}
		// Before the next engine is asked for a move, and before the
		// referee's own verdict ends the game: both engines must see it
		// as the referee does.
		if rec, finished, ended := hear(engines, "play "+text); ended {
			return rec, finished
		}
		if result, reason, over := adjudge.see(me, eval, g); over && !g.Over() {
			return end(result, ByAdjudication, reason)
		}
		if !g.Over() {
			rec.Evals[len(rec.Evals)-1].Overhead = time.Since(answered)
		}
	}
	return end(g.Result(), ByRules, endReason(g))
}

// askMove asks the engine of colour me for its move within its time
// control, charging its clock if it has one, and returns with the move what
// the engine last said of it. On a clock the engine is given a share of
// what its clock holds beyond the lag its answers have shown (lag).
func (cfg *Config) askMove(ctx context.Context, e translate.Engine, tc TimeControl, clock *time.Duration, lagged *lag, me core.Color, g *core.Game) (core.Move, Eval, *forfeit) {
	limit := engine.Limit{Depth: tc.Depth, Time: tc.MoveTime}
	moveCtx := ctx
	if tc.Clock > 0 {
		limit = engine.Limit{Time: tc.allocation(*clock - lagged.reserve())}
		// The engine has lost once its clock and the margin are out: no
		// point waiting.
		var cancel context.CancelFunc
		moveCtx, cancel = context.WithTimeout(ctx, *clock+cfg.TimeMargin)
		defer cancel()
	}
	asked := time.Now()
	var last engine.Progress
	m, err := e.BestMove(moveCtx, limit, func(p engine.Progress) {
		if p.Best() { // an engine's other lines (MultiPV) score other moves
			last = p
		}
	})
	took := time.Since(asked)
	if tc.Clock > 0 {
		lagged.add(took - limit.Time)
		if took > *clock+cfg.TimeMargin {
			why := fmt.Sprintf("%s loses on time: took %s with %s on its clock", colourName(me), took.Round(time.Millisecond), clock.Round(time.Millisecond))
			if cfg.TimeMargin > 0 {
				why += fmt.Sprintf(" and a margin of %s", cfg.TimeMargin)
			}
			return core.NoMove, Eval{}, &forfeit{color: me, why: why}
		}
		*clock += tc.Inc - took
	}
	if err != nil {
		return core.NoMove, Eval{}, failure(me, "bestmove ("+describeLimit(limit)+")", err)
	}
	eval := Eval{Took: took}
	if last.Move == m {
		eval.Depth, eval.Score = last.Depth, last.Score
	}
	return m, eval, nil
}

func describeLimit(l engine.Limit) string {
	if l.Time > 0 {
		return "time " + l.Time.String()
	}
	return "depth " + strconv.Itoa(l.Depth)
}

// endReason says how a game that is over ended by the rules.
func endReason(g *core.Game) string {
	surrounded := func(c core.Color) bool {
		cell := g.Position(core.Piece(c) * core.PiecesPerColor)
		return cell != core.NoCell && g.Neighbors(cell) == 0x3F
	}
	w, b := surrounded(core.White), surrounded(core.Black)
	switch {
	case w && b:
		return "both queens surrounded"
	case w:
		return "white queen surrounded"
	case b:
		return "black queen surrounded"
	case g.Result() == core.Draw:
		return "threefold repetition"
	}
	return "game over"
}

// side names a colour in a reason: "white" or "black".
func colourName(c core.Color) string { return strings.ToLower(c.String()) }

// gameString writes the GameString of a game of the match. Its games start
// from openings, which are GameStrings or random moves from the empty
// board, so every one has a GameString; were one set up from a position,
// the record would say why it has none (uhp.ErrSetUp) rather than lie.
func gameString(g *core.Game) string {
	gs, err := uhp.Describe(g)
	if err != nil {
		return err.Error()
	}
	return gs.String()
}

package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// playTurns plays the account's turn in a game, and the next one too when
// the site passes for the opponent (it hands the turn straight back, and
// the bot's clock runs: no reason to wait for the next poll).
func (a *account) playTurns(ctx context.Context, gs *gameState, row hivegame.Game) {
	for a.playTurn(ctx, gs, row) {
		var err error
		if row, err = a.readGame(ctx, gs.id); err != nil {
			return
		}
		if row.IsFinished() {
			gs.over = true
			return
		}
		if !row.IsTurnOf(a.me) {
			return
		}
	}
}

// playTurn plays one move in a game whose row says the account is to move,
// and reports whether the account is to move again at once (the site
// passed for the opponent).
func (a *account) playTurn(ctx context.Context, gs *gameState, row hivegame.Game) (again bool) {
	seen := time.Now()
	if gs.broken == nil {
		gs.broken = gs.followRow(ctx, row)
		if gs.broken != nil {
			a.count(errHistory)
			gs.log.Error().Err(gs.broken).Str("history", row.History).Msg("the site's history cannot be replayed")
		}
	}
	if gs.broken != nil {
		a.giveUp(ctx, gs, row, gs.broken.Error())
		return false
	}
	if row.IsFinished() {
		gs.over = true
		return false
	}
	if gs.game.ToMove() != gs.me {
		gs.log.Error().Int("turn", row.Turn).Str("history", row.History).Msg("the site says the bot is to move where its history says the opponent is")
		return false
	}
	tc, err := row.TimeControl()
	if err != nil {
		gs.log.Warn().Err(err).Msg("unknown time control: each move gets move_time")
	}
	p := planMove(tc, row.TimeLeft(siteColor(gs.me), a.b.deps.Now()), seen, a.cfg.MoveTime, a.cfg.Depth, a.b.cfg.NetworkMargin, a.b.cfg.FallbackTime)

	ply := gs.game.MovesPlayed()
	thinking := time.Now()
	m, fallback := a.choose(ctx, gs, p)
	think := time.Since(thinking)
	if m == core.NoMove {
		if ctx.Err() == nil {
			a.count(errStuck)
			a.giveUp(ctx, gs, row, "no move the site would take: only a pass, which the site makes by itself, or every move refused")
		}
		return false
	}
	posting := time.Now()
	if !a.post(ctx, gs, m, p) {
		return false
	}
	used := time.Since(seen)
	by := "backend"
	if fallback {
		by = "fallback"
	}
	name := a.cfg.Name
	a.b.m.moves.WithLabelValues(name, by).Inc()
	a.b.m.timeGiven.WithLabelValues(name).Add(p.given.Seconds())
	a.b.m.timeUsed.WithLabelValues(name).Add(used.Seconds())
	a.b.m.timeRatio.WithLabelValues(name).Observe(used.Seconds() / p.given.Seconds())
	a.b.m.overhead.WithLabelValues(name).Observe((used - think).Seconds())
	if a.b.deps.OnMove != nil {
		a.b.deps.OnMove(MoveReport{Account: name, Game: gs.id, Ply: ply, Fallback: fallback, Given: p.given, Used: used, Think: think, Post: time.Since(posting)})
	}
	gs.log.Debug().Int("ply", ply).Str("by", by).Dur("given", p.given).Dur("used", used).Msg("move played")
	if gs.game.Over() {
		gs.over = true
		return false
	}
	return gs.game.ToMove() == gs.me
}

// choose chooses the move: the backend's, by its deadline, or else the
// native searcher's quick move (fallback true). A move the site refused
// in this position before is not chosen again.
func (a *account) choose(ctx context.Context, gs *gameState, p plan) (m core.Move, fallback bool) {
	refused := gs.refused[gs.game.MovesPlayed()]
	if p.limit.Time > 0 {
		m, err := a.ask(ctx, gs, p)
		switch {
		case err == nil && !slices.Contains(refused, m):
			return m, false
		case errors.Is(err, errTooLittleTime), errors.Is(err, errStarting):
			gs.log.Debug().Err(err).Dur("time", p.limit.Time).Msg("the native searcher moves")
		case err != nil && ctx.Err() == nil:
			a.count(errEngine)
			gs.log.Warn().Err(err).Msg("the backend failed: the native searcher moves, and the engine starts afresh at the next turn")
		}
	}
	if ctx.Err() != nil {
		return core.NoMove, false
	}
	// Quick: FallbackTime at most, even when a backend that failed at
	// once left more.
	by := p.fallbackBy
	if soon := time.Now().Add(a.b.cfg.FallbackTime); soon.Before(by) {
		by = soon
	}
	return quickMove(ctx, gs.game, by, a.cfg.Depth, refused), true
}

// siteText writes m, a move of g, as the site's play endpoint reads it:
// UHP's notation, the first move of the game the piece alone.
func siteText(m core.Move, g *core.Game) (string, error) {
	piece, destination, _ := strings.Cut(uhp.FormatMove(m, g), " ")
	return hivegame.FormatMove(g.MovesPlayed(), piece, destination)
}

// post posts the move m and brings the game in step with the site's
// answer, and reports whether the site took it. A move is never posted a
// second time before the site's state says the first did not take: when
// the answer is lost (no answer, a 5xx, a refused token), the game is read
// again, and only if it still stands where the move was chosen is the
// move sent again, after a wait. A move the site refuses (a handled
// failure: illegal by its rules, not the bot's turn, the game over) is
// noted, so as not to be sent again in this position, and the game read
// again. Retries end with the clock (p.flag, give or take the network
// margin), and after a few request timeouts anyway; the next poll then
// finds the game as it stands.
func (a *account) post(ctx context.Context, gs *gameState, m core.Move, p plan) bool {
	ply := gs.game.MovesPlayed()
	text, err := siteText(m, gs.game)
	if err != nil {
		gs.log.Error().Err(err).Msg("the move cannot be written for the site")
		gs.refused[ply] = append(gs.refused[ply], m)
		return false
	}
	deadline := p.seen.Add(p.given + 4*a.b.cfg.RequestTimeout)
	if !p.flag.IsZero() {
		// Past the flag the game is lost and retries are vain; but one
		// request is always made, as the bot's clock may be ahead of
		// the site's.
		flag := p.flag.Add(a.b.cfg.NetworkMargin)
		if once := time.Now().Add(a.b.cfg.RequestTimeout); flag.Before(once) {
			flag = once
		}
		if flag.Before(deadline) {
			deadline = flag
		}
	}
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	taken := func() bool { return len(gs.entries) > ply && gs.game.History()[ply] == m }
	wait := min(a.b.cfg.PollInterval, 250*time.Millisecond)
	for {
		var history string
		err := a.request(pctx, "play", func(ctx context.Context) (err error) {
			history, err = a.client.Play(ctx, gs.id, text)
			return err
		})
		if err == nil {
			entries, perr := hivegame.ParseHistory(history)
			if perr == nil {
				perr = gs.follow(ctx, entries)
			}
			if perr == nil && taken() {
				delete(gs.refused, ply)
				return true
			}
			gs.log.Warn().AnErr("history", perr).Msg("the site's answer to the move does not show it: reading the game")
		} else if refusal(err) {
			a.count(errRefused)
			gs.log.Warn().Err(err).Str("move", text).Msg("the site refused the move: reading the game")
			gs.refused[ply] = append(gs.refused[ply], m)
		} else {
			a.count(errLost)
			gs.log.Warn().Err(err).Str("move", text).Msg("no answer to the move: reading the game before anything is sent again")
		}
		row, rerr := a.readGame(pctx, gs.id)
		if rerr != nil {
			return false
		}
		if ferr := gs.followRow(ctx, row); ferr != nil {
			gs.log.Warn().Err(ferr).Msg("the site's history cannot be replayed")
			return false
		}
		if row.IsFinished() {
			gs.over = true
		}
		if taken() || refusal(err) || len(gs.entries) != ply || row.IsFinished() || !row.IsTurnOf(a.me) {
			return taken()
		}
		if !sleep(pctx, max(wait, retryAfter(err))) {
			return false
		}
		wait = min(2*wait, a.b.cfg.MaxBackoff)
	}
}

// refusal reports whether the site answered a request with a handled
// failure (HTTP 200, success false: the move is illegal by its rules, the
// game over, not the bot's turn) or a framework's refusal of the body:
// either way the request was read, and sending it again changes nothing.
func refusal(err error) bool {
	var ae *hivegame.APIError
	return errors.As(err, &ae) && !ae.Temporary() && !ae.Auth()
}

// readGame reads a game, trying again after failures that may pass (no
// answer, 429, 5xx, a token to renew) until ctx ends.
func (a *account) readGame(ctx context.Context, id string) (hivegame.Game, error) {
	wait := min(a.b.cfg.PollInterval, 250*time.Millisecond)
	for {
		var row hivegame.Game
		err := a.request(ctx, "game", func(ctx context.Context) (err error) {
			row, err = a.client.Game(ctx, id)
			return err
		})
		if err == nil {
			return row, nil
		}
		var ae *hivegame.APIError
		if errors.As(err, &ae) && !ae.Temporary() && !ae.TokenRejected() {
			return row, err
		}
		if !sleep(ctx, max(wait, retryAfter(err))) {
			return row, err
		}
		wait = min(2*wait, a.b.cfg.MaxBackoff)
	}
}

// giveUp ends a game the bot cannot play, once, where the site lets it:
// abort before White's first move is answered (the game is then deleted),
// resign from turn 2 on. Between the two the site allows neither, and the
// game waits for the opponent or the clock.
func (a *account) giveUp(ctx context.Context, gs *gameState, row hivegame.Game, why string) {
	if gs.gaveUp {
		return
	}
	control := ""
	switch {
	case row.Turn < 2 && row.GameStatus == "NotStarted" && row.TournamentID == nil:
		control = hivegame.ControlAbort
	case row.Turn >= 2 || row.GameStatus == "InProgress":
		control = hivegame.ControlResign
	default:
		gs.log.Error().Str("why", why).Msg("the bot cannot play this game, and the site lets it neither abort nor resign now")
		return
	}
	gs.log.Error().Str("why", why).Str("control", control).Msg("the bot cannot play this game: giving it up")
	err := a.request(ctx, "control", func(ctx context.Context) error {
		_, err := a.client.Control(ctx, gs.id, control)
		return err
	})
	if err != nil {
		gs.log.Error().Err(err).Str("control", control).Msg("the site did not take the control")
		return
	}
	gs.gaveUp, gs.over = true, true
}

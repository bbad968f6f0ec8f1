package bot

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// account plays for one bot account. Its goroutine (run) polls the site
// and owns the account's state below; each turn in flight runs in a
// goroutine of its own, which borrows its game's state (gameState.busy)
// and hands it back on done.
type account struct {
	b      *Bot
	cfg    Account
	client *hivegame.Client
	log    zerolog.Logger
	site   string // host and path of the site, for the games' links

	me     string            // the account's user id, once known
	names  map[string]string // usernames by user id, as challenges tell them
	games  map[string]*gameState
	judged map[string]bool // challenges the policy refused, logged once
	// ownOpen are the account's own open challenges at the last poll: one
	// gone means a game may have started that the account has not seen.
	ownOpen   map[string]bool
	issued    int
	lastSweep time.Time

	done  chan *gameState // turns hand their games back here
	turns sync.WaitGroup

	mu      sync.Mutex // guards the health fields, read by Health
	healthy bool
	failing error
}

// run polls until ctx ends, then stops (see stop).
func (a *account) run(ctx context.Context) {
	defer a.stop()
	timer := time.NewTimer(0)
	defer timer.Stop()
	failures := 0
	for {
		select {
		case <-ctx.Done():
			return
		case gs := <-a.done:
			a.turnDone(ctx, gs)
			continue
		case <-timer.C:
		}
		err := a.poll(ctx)
		if ctx.Err() != nil {
			return
		}
		a.setHealth(err)
		if err == nil {
			failures = 0
			timer.Reset(a.b.cfg.PollInterval)
			continue
		}
		failures++
		wait := a.backoff(failures, err)
		a.log.Warn().Err(err).Dur("retry_in", wait).Msg("polling the site failed")
		timer.Reset(wait)
	}
}

// backoff is the wait before the next poll after failures failures in a
// row: PollInterval doubled for each, up to MaxBackoff, and at least what a
// Retry-After asked.
func (a *account) backoff(failures int, err error) time.Duration {
	wait := a.b.cfg.PollInterval
	for i := 1; i < failures && wait < a.b.cfg.MaxBackoff; i++ {
		wait *= 2
	}
	return max(min(wait, a.b.cfg.MaxBackoff), retryAfter(err))
}

// retryAfter is the wait an answer asked for with Retry-After, zero when
// none did.
func retryAfter(err error) time.Duration {
	var ae *hivegame.APIError
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}

// poll learns the account's id once, then looks at its games (all of them
// every SweepInterval, else those where it is to move) and its challenges.
func (a *account) poll(ctx context.Context) error {
	if a.me == "" {
		var id string
		err := a.request(ctx, "identity", func(ctx context.Context) (err error) {
			id, err = a.client.Identity(ctx)
			return err
		})
		if err != nil {
			return err
		}
		a.me = id
		a.log.Info().Str("user_id", id).Msg("logged in")
	}
	var err error
	if time.Since(a.lastSweep) >= a.b.cfg.SweepInterval {
		err = a.sweep(ctx)
	} else {
		err = a.pending(ctx)
	}
	if err != nil {
		return err
	}
	return a.challenges(ctx)
}

// pending starts a turn in each game where the account is to move.
func (a *account) pending(ctx context.Context) error {
	var rows []hivegame.Game
	err := a.request(ctx, "pending", func(ctx context.Context) (err error) {
		rows, err = a.client.Pending(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for _, row := range rows {
		a.consider(ctx, row)
	}
	return nil
}

// sweep lists every game of the account: it takes up those it did not
// know (a game started from its own challenge, or going on from before the
// bot started), starts a turn where it is to move, and ends those no
// longer listed.
func (a *account) sweep(ctx context.Context) error {
	var rows []hivegame.Game
	err := a.request(ctx, "ongoing", func(ctx context.Context) (err error) {
		rows, err = a.client.Ongoing(ctx)
		return err
	})
	if err != nil {
		return err
	}
	a.lastSweep = time.Now()
	listed := map[string]bool{}
	for _, row := range rows {
		listed[row.Nanoid] = true
		a.consider(ctx, row)
	}
	for id, gs := range a.games {
		if !listed[id] && !gs.busy {
			a.closeGame(ctx, gs)
		}
	}
	return nil
}

// consider takes up a game the site listed, if new, and starts a turn in
// it if the account is to move and none is in flight.
func (a *account) consider(ctx context.Context, row hivegame.Game) {
	if row.IsFinished() {
		return
	}
	gs := a.games[row.Nanoid]
	if gs == nil {
		if _, plays := row.ColorOf(a.me); !plays {
			return
		}
		gs = a.takeUp(ctx, row)
	}
	if !gs.busy && row.IsTurnOf(a.me) {
		a.startTurn(ctx, gs, row)
	}
}

// startTurn lends gs to a goroutine that plays the account's turn in it.
func (a *account) startTurn(ctx context.Context, gs *gameState, row hivegame.Game) {
	gs.busy = true
	a.turns.Add(1)
	go func() {
		defer a.turns.Done()
		a.playTurns(ctx, gs, row)
		select {
		case a.done <- gs:
		case <-ctx.Done():
		}
	}()
}

// turnDone takes back a game from its turn, and ends it if the turn found
// it over.
func (a *account) turnDone(ctx context.Context, gs *gameState) {
	gs.busy = false
	if gs.over {
		a.closeGame(ctx, gs)
	}
}

// closeGame reads a game no longer listed (or seen to be over) once more,
// to record how it ended, and forgets it; a game the site has deleted
// (aborted) ends without a result. A game the site cannot be asked about
// now is tried again at the next sweep.
func (a *account) closeGame(ctx context.Context, gs *gameState) {
	var row hivegame.Game
	err := a.request(ctx, "game", func(ctx context.Context) (err error) {
		row, err = a.client.Game(ctx, gs.id)
		return err
	})
	var ae *hivegame.APIError
	switch {
	case err == nil && !row.IsFinished():
		gs.over = false // listed again by the next sweep, if it goes on
		return
	case err == nil:
		if ferr := gs.followRow(ctx, row); ferr != nil {
			gs.log.Warn().Err(ferr).Msg("the game's last moves cannot be replayed")
		}
		a.end(gs, &row)
	case errors.As(err, &ae) && ae.Status == 200:
		a.end(gs, nil) // not found: aborted, or deleted unstarted
	default:
		return
	}
	delete(a.games, gs.id)
}

// stop ends the account's play: it waits for the turns in flight (ctx has
// ended them), closes every engine and marks every game going on as
// interrupted in the archive.
func (a *account) stop() {
	a.turns.Wait()
	for id, gs := range a.games {
		a.retire(gs)
		gs.interrupted()
		a.b.m.playing.WithLabelValues(a.cfg.Name).Dec()
		delete(a.games, id)
	}
}

// request makes one request to the site with the request timeout (or
// ctx's sooner deadline), timing it and counting its failure.
func (a *account) request(ctx context.Context, op string, f func(ctx context.Context) error) error {
	rctx, cancel := context.WithTimeout(ctx, a.b.cfg.RequestTimeout)
	defer cancel()
	start := time.Now()
	err := f(rctx)
	a.b.m.api.WithLabelValues(a.cfg.Name, op).Observe(time.Since(start).Seconds())
	if err != nil && ctx.Err() == nil {
		a.count(errorKind(err))
	}
	return err
}

// errorKind is the metrics' kind of a failed request.
func errorKind(err error) string {
	var ae *hivegame.APIError
	switch {
	case !errors.As(err, &ae):
		return errNetwork
	case ae.Temporary():
		return errAPITransient
	case ae.Auth():
		return errAuth
	}
	return errAPI
}

func (a *account) count(kind string) {
	a.b.m.errors.WithLabelValues(a.cfg.Name, kind).Inc()
}

func (a *account) setHealth(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err == nil {
		a.healthy, a.failing = true, nil
		return
	}
	a.failing = err
}

func (a *account) health() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.failing != nil:
		return "polling fails: " + a.failing.Error()
	case !a.healthy:
		return "not polled the site yet"
	}
	return ""
}

// sleep waits d, or less if ctx ends first, and reports whether it waited
// all of it.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

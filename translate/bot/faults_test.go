package bot

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/hivegametest"
)

// A token that expires in the middle of a game (the site's clock jumps past
// its exp and the minute of leeway, while the bot's own still thinks it
// fresh) is refused with 401 ExpiredSignature; the bot logs in again and
// plays on, each move posted once.
func TestTokenExpiresMidGame(t *testing.T) {
	w := newWorld(t, 10*time.Minute)
	bot := w.account("tokbot")
	w.human("dave")
	id := w.challenge("dave", "tokbot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorBlack})
	w.start(fastConfig(bot), Deps{})
	w.waitGame(id)
	w.playHuman("dave", id, core.Base, 2)
	w.waitFor("a few moves", 10*time.Second, func() bool { return w.game(id).Turn >= 6 })
	before := w.site.TokensIssued()
	w.advance(12 * time.Minute)
	w.waitFor("the game to go on", 10*time.Second, func() bool { return w.game(id).Turn >= 14 })
	if after := w.site.TokensIssued(); after <= before {
		t.Errorf("tokens issued: %d before the expiry, %d after; want a new login", before, after)
	}
	g := w.finishOrResign(id, 20, "dave", 10*time.Second)
	if got, want := w.site.PlayAttempts(id), botPlays(g, "tokbot"); got != want {
		t.Errorf("%d plays posted for %d moves of the bot's taken", got, want)
	}
}

// The site failing for a while (500s on the polls, 429s with Retry-After,
// a request that hangs until the bot gives up on it, a play among them)
// slows the bot down but loses it nothing: the game goes on, and no move
// is posted twice.
func TestSiteFaults(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("faultbot")
	w.human("erin")
	id := w.challenge("erin", "faultbot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorBlack})
	cfg := fastConfig(bot)
	cfg.RequestTimeout = 300 * time.Millisecond
	r := w.start(cfg, Deps{})
	w.waitGame(id)
	w.playHuman("erin", id, core.Base, 3)
	w.waitFor("a few moves", 10*time.Second, func() bool { return w.game(id).Turn >= 4 })

	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultServerError, Count: 3, PathPrefix: "/api/v1/bot/games/pending"})
	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultTooManyRequests, Count: 2, PathPrefix: "/api/v1/bot/challenges/", RetryAfter: 500 * time.Millisecond})
	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultHang, Count: 1, PathPrefix: "/api/v1/bot/games/play"})
	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultServerError, Count: 1, PathPrefix: "/api/v1/bot/games/play"})
	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultHang, Count: 1, PathPrefix: "/api/v1/bot/game/"})
	w.waitFor("the game to go on past the faults", 15*time.Second, func() bool { return w.game(id).Turn >= 14 })
	g := w.finishOrResign(id, 16, "erin", 10*time.Second)

	// A hung or failed play never reached the handler: only the moves
	// the site took were posted to it.
	if got, want := w.site.PlayAttempts(id), botPlays(g, "faultbot"); got != want {
		t.Errorf("%d plays posted for %d moves of the bot's taken", got, want)
	}
	for kind, least := range map[string]float64{errAPITransient: 5, errNetwork: 2, errLost: 2} {
		if n := metric(t, r.reg, "hivebridge_bot_errors_total", map[string]string{"kind": kind}); n < least {
			t.Errorf("errors of kind %s: %v, want at least %v", kind, n, least)
		}
	}
}

// A move whose answer is lost (the site took it, then the connection
// closed without an answer) is checked against the game before anything
// is sent again, and found taken: never posted twice.
func TestLostAnswerNotPostedTwice(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("lostbot")
	w.human("fay")
	id := w.challenge("fay", "lostbot", hivegametest.ChallengeSpec{GameType: core.AllExpansions, Color: hivegametest.ColorBlack})
	r := w.start(fastConfig(bot), Deps{})
	w.waitGame(id)
	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultLoseAnswer, Count: 3, PathPrefix: "/api/v1/bot/games/play"})
	w.playHuman("fay", id, core.AllExpansions, 4)
	g := w.finishOrResign(id, 16, "fay", 10*time.Second)
	if got, want := w.site.PlayAttempts(id), botPlays(g, "lostbot"); got != want {
		t.Errorf("%d plays posted for %d moves of the bot's taken", got, want)
	}
	if n := metric(t, r.reg, "hivebridge_bot_errors_total", map[string]string{"kind": errLost}); n != 3 {
		t.Errorf("%v answers lost counted, want 3", n)
	}
}

// A move the site refuses (here: the person resigned while the bot was
// thinking, so the game is over when the move arrives) is not sent again:
// the bot reads the game, sees it over, and archives how it ended.
func TestRefusedMoveResynchronises(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("slowbot")
	w.human("gus")
	id := w.challenge("gus", "slowbot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorBlack})
	bot.MoveTime = 1500 * time.Millisecond // more than a second: flaky is no interruptible engine
	c := newControl("")
	keeper, games := newArchive(t)
	r := w.start(fastConfig(bot), Deps{Archive: keeper, Open: c.open})
	w.waitGame(id)
	w.playHuman("gus", id, core.Base, 5)
	w.waitFor("a few moves", 10*time.Second, func() bool { return w.game(id).Turn >= 4 })
	c.mode.Store("wait")
	select {
	case <-c.thinking:
	case <-time.After(5 * time.Second):
		t.Fatalf("the bot did not search: %+v", w.game(id))
	}
	if err := w.site.Resign("gus", id); err != nil {
		t.Fatal(err)
	}
	close(c.resume)
	w.waitFor("the bot to see the game over", 5*time.Second, func() bool {
		return metric(t, r.reg, "hivebridge_bot_games_ended_total", map[string]string{"result": "win"}) == 1
	})
	if n := metric(t, r.reg, "hivebridge_bot_errors_total", map[string]string{"kind": errRefused}); n != 1 {
		t.Errorf("%v refusals counted, want 1", n)
	}
	g := w.game(id)
	if got, want := w.site.PlayAttempts(id), botPlays(g, "slowbot")+1; got != want {
		t.Errorf("%d plays posted, want %d (the moves taken and the one refused, once)", got, want)
	}
	r.stop()
	archived := games()
	if len(archived) != 1 || archived[0].How != "resignation" || archived[0].Result != "WhiteWins" {
		t.Errorf("archived %+v, want one game the bot, White, won by resignation", archived)
	}
}

// A bot stopped in the middle of a game (its context cancelled) closes its
// engines and returns; another started later takes the game up where it
// stands, and no move is posted twice.
func TestRestartMidGame(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("phoenix")
	w.human("hal")
	id := w.challenge("hal", "phoenix", hivegametest.ChallengeSpec{GameType: core.AllExpansions, Color: hivegametest.ColorWhite})
	keeper, games := newArchive(t)
	first := w.start(fastConfig(bot), Deps{Archive: keeper})
	w.waitGame(id)
	w.playHuman("hal", id, core.AllExpansions, 6)
	w.waitFor("a few moves", 10*time.Second, func() bool { return w.game(id).Turn >= 8 })
	first.stop()
	stoppedAt := w.game(id).Turn
	if stoppedAt > 9 {
		t.Fatalf("the game went on to turn %d with the bot stopped", stoppedAt)
	}

	second := w.start(fastConfig(bot), Deps{Archive: keeper})
	g := w.finishOrResign(id, stoppedAt+10, "hal", 10*time.Second)
	if got, want := w.site.PlayAttempts(id), botPlays(g, "phoenix"); got != want {
		t.Errorf("%d plays posted for %d moves of the bot's taken", got, want)
	}
	w.waitFor("the second bot to see the game over", 5*time.Second, func() bool {
		return metric(t, second.reg, "hivebridge_bot_games_ended_total", nil) == 1
	})
	second.stop()
	archived := games()
	if len(archived) != 2 {
		t.Fatalf("archive holds %d games, want 2 (interrupted, then taken up)", len(archived))
	}
	// Newest first: the game taken up, with every move, then the first
	// bot's, interrupted.
	if archived[1].Status != "interrupted" || archived[0].Status != "finished" || archived[0].Plies != g.Turn {
		t.Errorf("archived %+v, want the first interrupted and the second finished with all %d plies", archived, g.Turn)
	}
}

// A backend process that crashes when asked for a move is replaced by the
// native searcher's quick move for that turn, and started afresh for the
// next, which it plays.
func TestBackendCrashes(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("crashbot")
	bot.Backend, _ = fakeengine.ArgSpec(t, "uhp", "crash")
	// A UHP engine is told whole seconds: a move gets more than one. The
	// fake answers at once, and the quick move keeps to FallbackTime.
	bot.Depth, bot.MoveTime = 0, 1500*time.Millisecond
	w.human("ivy")
	id := w.challenge("ivy", "crashbot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorBlack})
	r := w.start(fastConfig(bot), Deps{})
	w.waitGame(id)
	w.playHuman("ivy", id, core.Base, 7)
	g := w.finishOrResign(id, 12, "ivy", 15*time.Second)
	if g.Conclusion == "Timeout" {
		t.Errorf("the bot lost on time: %+v", g)
	}
	r.stop()
	if n := metric(t, r.reg, "hivebridge_bot_moves_total", map[string]string{"by": "fallback"}); n != 1 {
		t.Errorf("%v quick moves, want 1 (the crash)", n)
	}
	if n := metric(t, r.reg, "hivebridge_bot_moves_total", map[string]string{"by": "backend"}); n < 2 {
		t.Errorf("%v moves by the restarted backend, want the rest", n)
	}
	if n := metric(t, r.reg, "hivebridge_bot_errors_total", map[string]string{"kind": errEngine}); n != 1 {
		t.Errorf("%v engine errors, want 1", n)
	}
}

// An engine that hangs, deaf to its deadline, in a real-time game whose
// clock is nearly out: the bot plays the native quick move in time, every
// move, and does not lose on time.
func TestHungEngineLowClock(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("hangbot")
	w.human("jo")
	id := w.challenge("jo", "hangbot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorBlack,
		Time: hivegametest.RealTime{BaseMinutes: 1}})
	bot.MoveTime = 1500 * time.Millisecond // more than a second: flaky is no interruptible engine
	r := w.start(fastConfig(bot), Deps{Now: w.now, Open: newControl("hang").open})
	w.waitGame(id)
	rng := rand.New(rand.NewPCG(8, 1))
	for range 2 {
		w.humanMove("jo", id, core.Base, rng) // the clocks run from turn 2
	}
	// Burn the bot's clock down to a few seconds while it is to move:
	// once it has moved, hold its polls off, move for the person, move
	// the site's clock on.
	w.waitFor("the bot to move", 10*time.Second, func() bool { return w.game(id).CurrentPlayer == "jo" })
	w.site.InjectFault(hivegametest.Fault{Kind: hivegametest.FaultServerError, Count: 1 << 20, PathPrefix: "/api/v1/bot/games/"})
	w.humanMove("jo", id, core.Base, rng)
	w.advance(*w.game(id).WhiteLeft - 2500*time.Millisecond)
	w.site.ClearFaults()
	for range 6 {
		w.humanMove("jo", id, core.Base, rng)
	}
	g := w.game(id)
	if g.Finished {
		t.Fatalf("the game ended: %+v", g)
	}
	if left := *g.WhiteLeft; left <= 0 || left > 2500*time.Millisecond {
		t.Errorf("the bot's clock after its moves: %s, want some of the 2.5s it had", left)
	}
	if n := metric(t, r.reg, "hivebridge_bot_moves_total", map[string]string{"by": "backend"}); n != 0 {
		t.Errorf("%v moves by the hung backend", n)
	}
	if n := metric(t, r.reg, "hivebridge_bot_errors_total", map[string]string{"kind": errEngine}); n < 2 {
		t.Errorf("%v engine errors, want one for each move on the full clock", n)
	}
	w.site.Resign("jo", id)
}

package referee_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// checkGoroutines fails the test if, shortly after it, more goroutines run
// than before it: a match must wait for everything it started.
func checkGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(3 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines left behind by the match:\n%s", n-before, buf[:runtime.Stack(buf, true)])
		}
	})
}

func tc(t *testing.T, s string) *referee.TimeControl {
	t.Helper()
	c, err := referee.ParseTimeControl(s)
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

// matchConfig is a match of A against B with short engine timeouts.
func matchConfig(t *testing.T, a, b string, games int, timeControl string) referee.Config {
	return referee.Config{
		White: a, Black: b, Games: games, TC: *tc(t, timeControl), Concurrency: 2, Seed: 1,
		Engine: translate.Config{Log: zerolog.Nop(), Timeouts: fakeengine.Timeouts()},
	}
}

// checkRecords checks what every match's records must satisfy: one per
// game in order, colours alternating, each opening played from both sides,
// a GameString that replays to the position the game ended in, a result
// that agrees with how it ended, and statistics that count every game that
// has a result.
func checkRecords(t *testing.T, res referee.Result, games int) {
	t.Helper()
	if len(res.Games) != games {
		t.Fatalf("%d records, want %d", len(res.Games), games)
	}
	var st referee.Stats
	aWhite := 0 // games with a result that A played as White
	for i, r := range res.Games {
		if r.Index != i {
			t.Fatalf("record %d is game %d", i, r.Index)
		}
		if r.AWhite != (i%2 == 0) {
			t.Errorf("game %d: A White = %v; colours must alternate, A White in even games", i, r.AWhite)
		}
		if i%2 == 1 && r.Opening != res.Games[i-1].Opening {
			t.Errorf("games %d and %d start from %q and %q, not the same opening", i-1, i, res.Games[i-1].Opening, r.Opening)
		}
		gs, err := uhp.ParseGameString(r.GameString)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		opening, err := uhp.ParseGameString(r.Opening)
		if err != nil {
			t.Fatalf("game %d: opening: %v", i, err)
		}
		if len(gs.Moves) < len(opening.Moves) || strings.Join(gs.Moves[:len(opening.Moves)], ";") != strings.Join(opening.Moves, ";") {
			t.Errorf("game %d: GameString %q does not start with its opening %q", i, r.GameString, r.Opening)
		}
		g, err := gs.Load()
		if err != nil {
			t.Fatalf("game %d: GameString %q does not replay: %v", i, r.GameString, err)
		}
		if g.MovesPlayed() != r.Plies {
			t.Errorf("game %d: %d plies recorded, %d in its GameString", i, r.Plies, g.MovesPlayed())
		}
		if r.Result != core.WhiteWins && r.Result != core.BlackWins && r.Result != core.Draw &&
			!(r.Void() && r.Ending == referee.ByDisagreement) {
			t.Errorf("game %d: result %v after %q", i, r.Result, r.Reason)
		}
		if (r.Ending == referee.ByDisagreement) != (r.Disagree != nil) {
			t.Errorf("game %d: ending %d with disagreement %+v", i, r.Ending, r.Disagree)
		}
		switch r.Ending {
		case referee.ByRules:
			byRules := strings.Contains(r.Reason, "surrounded") || r.Reason == "threefold repetition"
			if !byRules || g.Result() != r.Result {
				t.Errorf("game %d ended by the rules, %q, as %v, but its GameString replays to %v", i, r.Reason, r.Result, g.Result())
			}
		case referee.ByDisagreement:
			if !strings.HasPrefix(r.Reason, "rules disagreement: ") || r.Disagree.Ply != r.Plies || g.Result() != r.Disagree.Referee {
				t.Errorf("game %d: rules disagreement %+v after %d plies, %q, but its GameString replays to %v", i, *r.Disagree, r.Plies, r.Reason, g.Result())
			}
		default:
			if g.Over() {
				t.Errorf("game %d ended by %q, but its GameString replays to a finished game", i, r.Reason)
			}
		}
		st.Add(r)
		if !r.Void() && r.AWhite {
			aWhite++
		}
	}
	// The pairs: games 2k and 2k+1, both scored, sorted by index.
	for i := 0; i+1 < len(res.Games); i++ {
		a, b := res.Games[i], res.Games[i+1]
		if a.Index%2 == 0 && b.Index == a.Index+1 && !a.Void() && !b.Void() {
			st.Pairs.Add(a.AScore(), b.AScore())
		}
	}
	if st != res.Stats {
		t.Errorf("stats %+v, want %+v from the records", res.Stats, st)
	}
	if got := res.Stats.AsWhite.Games(); got != aWhite {
		t.Errorf("A played White in %d scored games, want %d", got, aWhite)
	}
}

// TestMatchNative plays native at depth 2 against native at depth 1, each
// with its own time control, two games at a time.
func TestMatchNative(t *testing.T) {
	checkGoroutines(t)
	cfg := matchConfig(t, "native", "native", 4, "depth=1")
	cfg.WhiteTC, cfg.BlackTC = tc(t, "depth=2"), tc(t, "depth=1")
	cfg.RandomPlies = 2
	var reported atomic.Int32
	cfg.OnMove = func(referee.MoveReport) { reported.Add(1) }
	var progress []referee.Progress
	res, err := referee.Run(context.Background(), cfg, func(p referee.Progress) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 4)
	if res.Stopped != "" || res.SPRT != nil {
		t.Errorf("Stopped %q, SPRT %v; want neither", res.Stopped, res.SPRT)
	}
	if len(progress) != 4 || progress[3].Done != 4 || progress[3].Total != 4 || progress[3].Stats != res.Stats {
		t.Errorf("progress reports %+v", progress)
	}
	var moves atomic.Int32
	for i, r := range res.Games {
		if gs, _ := uhp.ParseGameString(r.Opening); len(gs.Moves) != 2 {
			t.Errorf("game %d: opening %q has not 2 plies", i, r.Opening)
		}
		// Every move the engines played has the native engine's last
		// report: the depth of its time control (less only when a
		// forced result ended the search sooner), and a score.
		if len(r.Evals) != r.Plies-2 {
			t.Errorf("game %d: %d evals for %d plies after a 2-ply opening", i, len(r.Evals), r.Plies-2)
		}
		for k, e := range r.Evals {
			aMoved := (k%2 == 0) == r.AWhite
			want := map[bool]int{true: 2, false: 1}[aMoved]
			forced := e.Score.Kind == engine.Win || e.Score.Kind == engine.Loss
			if e.Depth < 1 || e.Depth > want || (e.Depth < want && !forced) || e.Score.Kind == engine.NoScore {
				t.Errorf("game %d move %d: eval %+v, want depth %d with a score", i, k, e, want)
				break
			}
		}
		moves.Add(int32(len(r.Evals)))
		t.Logf("game %d (A White %v): %v, %s, %d plies", i, r.AWhite, r.Result, r.Reason, r.Plies)
	}
	if got := reported.Load(); got != moves.Load() {
		t.Errorf("OnMove told of %d moves, the games have %d", got, moves.Load())
	}
}

// TestMatchForfeits pits misbehaving engines against the native one: the
// misbehaving engine loses every game, as White and as Black, and the
// reason says what it did.
func TestMatchForfeits(t *testing.T) {
	for _, tcase := range []struct {
		mode, tc, want string
	}{
		{"always-illegal", "depth=1", `with "pass", which is not a legal move`},
		{"always-garbage", "depth=1", `with "banana split", which is not a legal move`},
		{"always-crash", "depth=1", "exited while answering"},
		{"always-hang", "movetime=1", "did not answer"},
	} {
		t.Run(tcase.mode, func(t *testing.T) {
			checkGoroutines(t)
			cfg := matchConfig(t, fakeengine.Spec(t, tcase.mode), "native", 2, tcase.tc)
			res, err := referee.Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkRecords(t, res, 2)
			if want := (referee.Score{Losses: 2}); res.Stats.Total != want {
				t.Errorf("A scored %+v, want two losses", res.Stats.Total)
			}
			for i, r := range res.Games {
				colour := map[bool]string{true: "white", false: "black"}[r.AWhite]
				prefix := colour + " forfeits on bestmove"
				if !strings.HasPrefix(r.Reason, prefix) || !strings.Contains(r.Reason, tcase.want) {
					t.Errorf("game %d: reason %q, want %q ... %q", i, r.Reason, prefix, tcase.want)
				}
				// It lost at its first move: White at once, Black
				// after White's one.
				if r.Plies != i%2 {
					t.Errorf("game %d: %d plies, want %d", i, r.Plies, i%2)
				}
			}
		})
	}
}

// TestMatchLosesOnTime gives a fake that sleeps 300 ms before each answer
// a clock of 0.2 s (its own time control; the native engine plays at depth
// 1): it loses each game on time at its first move, as White and as Black.
// The fake is a Hub engine, which is told its time to the millisecond: a
// UHP engine cannot be given so short a clock.
func TestMatchLosesOnTime(t *testing.T) {
	checkGoroutines(t)
	cfg := matchConfig(t, fakeengine.HubSpec(t, "always-slow"), "native", 2, "depth=1")
	cfg.WhiteTC = tc(t, "time=0.2")
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 2)
	for i, r := range res.Games {
		colour := map[bool]string{true: "white", false: "black"}[r.AWhite]
		if !strings.HasPrefix(r.Reason, colour+" loses on time: took ") || !strings.HasSuffix(r.Reason, "with 200ms on its clock") {
			t.Errorf("game %d: reason %q, want %s losing on time with 200ms on its clock", i, r.Reason, colour)
		}
	}
	if res.Stats.Total.Losses != 2 {
		t.Errorf("A scored %+v, want two losses", res.Stats.Total)
	}
}

// TestMatchTimeMargin gives the same slow fake the same clock with a time
// margin of 1 s: its first answers, 300 ms each, come within the margin
// and are still charged, so its clock goes below zero and it loses on
// time a few moves later, the reason naming the margin.
func TestMatchTimeMargin(t *testing.T) {
	checkGoroutines(t)
	cfg := matchConfig(t, fakeengine.HubSpec(t, "always-slow"), "native", 2, "depth=1")
	cfg.WhiteTC = tc(t, "time=0.2")
	cfg.TimeMargin = time.Second
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 2)
	for i, r := range res.Games {
		colour := map[bool]string{true: "white", false: "black"}[r.AWhite]
		if !strings.HasPrefix(r.Reason, colour+" loses on time: took ") || !strings.Contains(r.Reason, "ms on its clock and a margin of 1s") ||
			!strings.Contains(r.Reason, "with -") {
			t.Errorf("game %d: reason %q, want %s losing on time past its margin, its clock below zero", i, r.Reason, colour)
		}
		// It answered at least twice before it lost: plies 0 and 2 as
		// White, 1 and 3 as Black.
		if first := map[bool]int{true: 0, false: 1}[r.AWhite]; r.Plies < first+4 {
			t.Errorf("game %d: lost after %d plies, before its margin was spent", i, r.Plies)
		}
	}
	if res.Stats.Total.Losses != 2 {
		t.Errorf("A scored %+v, want two losses", res.Stats.Total)
	}
}

// TestMatchClock plays whole games on a clock with an increment: each
// move's allocation comes from the remaining time, and engines that answer
// at once never lose on time. (The fakes answer at once: the native
// engine, under the race detector on a loaded machine, can overshoot a
// short allocation by seconds, since its first ply ignores the clock.)
func TestMatchClock(t *testing.T) {
	checkGoroutines(t)
	spec := fakeengine.Spec(t, "good")
	cfg := matchConfig(t, spec, spec, 2, "time=30+0.5")
	cfg.RandomPlies, cfg.MaxPlies = 2, 40
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 2)
	for i, r := range res.Games {
		if strings.Contains(r.Reason, "time") || r.Plies < 10 {
			t.Errorf("game %d: %s after %d plies", i, r.Reason, r.Plies)
		}
	}
}

// TestMatchWholeSecondEngine plays a match on a clock against an engine
// that reads bestmove times in whole seconds only and answers a fraction
// with err UnrecognizedCommand("time 00:00:00.2"), as a widely used one
// does: told its clock's shares in whole seconds, it plays every game to
// its end, and no game is forfeited or voided.
func TestMatchWholeSecondEngine(t *testing.T) {
	checkGoroutines(t)
	cfg := matchConfig(t, fakeengine.Spec(t, "wholeseconds"), "native", 4, "depth=1")
	cfg.WhiteTC = tc(t, "time=30+0.5")
	cfg.RandomPlies, cfg.MaxPlies = 2, 30
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 4)
	for i, r := range res.Games {
		if strings.Contains(r.Reason, "forfeit") || strings.Contains(r.Reason, "time") {
			t.Errorf("game %d: %s after %d plies", i, r.Reason, r.Plies)
		}
	}
	if res.Stopped != "" {
		t.Errorf("stopped %q", res.Stopped)
	}
}

// TestMatchVoidsRefusals: an engine that answers hivebridge's bestmove
// with err (it cannot read the command) is not scored a forfeit: the game
// is voided, the match stops at once, and nobody's score counts it.
func TestMatchVoidsRefusals(t *testing.T) {
	checkGoroutines(t)
	cfg := matchConfig(t, fakeengine.Spec(t, "always-refuse"), "native", 20, "depth=1")
	cfg.Concurrency = 1
	var progress int
	res, err := referee.Run(context.Background(), cfg, func(referee.Progress) { progress++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != 1 || progress != 1 || res.Stats != (referee.Stats{}) {
		t.Fatalf("%d games (%d reported), stats %+v; want the one void game, scored nowhere", len(res.Games), progress, res.Stats)
	}
	v := res.Games[0]
	want := `void: white refused hivebridge's command on bestmove (depth 1), which may be hivebridge's doing as much as the engine's: engine fake always-refuse answered "bestmove depth 1" with "err UnrecognizedCommand(\"depth 1\")"`
	if !v.Void() || v.Ending != referee.ByRefusal || v.Index != 0 || v.Reason != want {
		t.Errorf("game %+v, want game 0 void by refusal with reason %q", v, want)
	}
	if res.Stopped != "game 0 void, not scored: "+want {
		t.Errorf("stopped %q", res.Stopped)
	}
}

// TestMatchRefusesUnfairTimes refuses, before any game, a time control
// that a UHP engine cannot be told, since UHP times are whole seconds; the
// other backends are told any time.
func TestMatchRefusesUnfairTimes(t *testing.T) {
	uhpSpec := fakeengine.Spec(t, "good")
	for _, tcase := range []struct{ white, black, tc, want string }{
		{uhpSpec, "native", "movetime=0.1", "engine A (" + uhpSpec + ") cannot be given movetime=0.1 fairly: UHP tells an engine whole seconds only; use movetime=1"},
		{"native", uhpSpec, "movetime=2.6", "engine B (" + uhpSpec + ") cannot be given movetime=2.6 fairly: UHP tells an engine whole seconds only; use movetime=3"},
		{uhpSpec, "native", "time=10+0.5", "engine A (" + uhpSpec + ") cannot be given time=10+0.5 fairly: its first move's share of the clock is 833ms, and UHP tells an engine whole seconds, at least one; use a clock of 30 s or more, or an increment of 1 s or more"},
	} {
		cfg := matchConfig(t, tcase.white, tcase.black, 2, tcase.tc)
		if _, err := referee.Run(context.Background(), cfg, nil); err == nil || err.Error() != tcase.want {
			t.Errorf("%s against %s at %s: %v\nwant %s", tcase.white, tcase.black, tcase.tc, err, tcase.want)
		}
	}
	// Whole seconds, a clock whose shares start at a second, and the
	// native engine at any time are fine: the match plays.
	for _, tcase := range []struct{ white, black, tc string }{
		{uhpSpec, uhpSpec, "movetime=1"},
		{uhpSpec, uhpSpec, "time=30"},
		{uhpSpec, uhpSpec, "time=5+1"},
		{"native", "native", "movetime=0.01"},
	} {
		cfg := matchConfig(t, tcase.white, tcase.black, 2, tcase.tc)
		cfg.MaxPlies = 2
		if res, err := referee.Run(context.Background(), cfg, nil); err != nil || len(res.Games) != 2 {
			t.Errorf("%s against %s at %s: %v, %d games", tcase.white, tcase.black, tcase.tc, err, len(res.Games))
		}
	}
}

// TestMatchMoveCap adjudicates games that reach the move cap as draws.
func TestMatchMoveCap(t *testing.T) {
	cfg := matchConfig(t, "native", "native", 2, "depth=1")
	cfg.RandomPlies, cfg.MaxPlies = 2, 10
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 2)
	for i, r := range res.Games {
		if r.Result != core.Draw || r.Reason != "move cap (10 plies)" || r.Plies != 10 {
			t.Errorf("game %d: %v, %q after %d plies; want a draw by the move cap after 10", i, r.Result, r.Reason, r.Plies)
		}
		if !strings.Contains(r.GameString, ";InProgress;White[6]") {
			t.Errorf("game %d: GameString %q, want the board as left, in progress at White[6]", i, r.GameString)
		}
	}
	if res.Stats.Total != (referee.Score{Draws: 2}) {
		t.Errorf("stats %+v, want two draws", res.Stats.Total)
	}
}

// TestMatchRepetition adjudicates threefold repetition as a draw. From this
// opening, two engines that each play their first legal move (the "good"
// fakes) repeat a position a third time at ply 41.
func TestMatchRepetition(t *testing.T) {
	spec := fakeengine.Spec(t, "good")
	cfg := matchConfig(t, spec, spec, 2, "depth=1")
	cfg.Openings = []uhp.GameString{mustGameString(t, "Base;InProgress;White[2];wS1;bS1 /wS1")}
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 2)
	for i, r := range res.Games {
		if r.Result != core.Draw || r.Reason != "threefold repetition" || r.Plies != 41 {
			t.Errorf("game %d: %v, %q after %d plies; want a draw by threefold repetition after 41", i, r.Result, r.Reason, r.Plies)
		}
	}
}

// TestMatchRulesDisagreement: engine A declares the game drawn by a rule of
// its own at ply OwnDrawPly (the "own-draw" fake), where the referee's rules
// say it goes on. Each game ends there as a rules disagreement, recorded
// with both verdicts, whether A is to move (game 0, as White) or not (game
// 1); no engine forfeits, A is never sent bestmove in a game it has said is
// over (the fake would leave a mark and exit), and each policy scores the
// games as documented.
func TestMatchRulesDisagreement(t *testing.T) {
	for _, tcase := range []struct {
		policy referee.DisagreementPolicy
		want   referee.Score // A's
	}{
		{referee.DisagreementDraw, referee.Score{Draws: 2}},
		{referee.DisagreementVoid, referee.Score{}},
		{referee.DisagreementReferee, referee.Score{Losses: 2}}, // A ended a game that goes on
	} {
		t.Run(tcase.policy.String(), func(t *testing.T) {
			checkGoroutines(t)
			spec := fakeengine.Spec(t, "own-draw")
			dir := os.Getenv(fakeengine.DirVar)
			cfg := matchConfig(t, spec, "native", 2, "depth=1")
			cfg.Disagreement = tcase.policy
			res, err := referee.Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkRecords(t, res, 2)
			if res.Stats.Total != tcase.want {
				t.Errorf("A scored %+v, want %+v", res.Stats.Total, tcase.want)
			}
			for i, r := range res.Games {
				aColour := map[bool]core.Color{true: core.White, false: core.Black}[r.AWhite]
				want := referee.Disagreement{Ply: fakeengine.OwnDrawPly, Referee: core.InProgress}
				want.Engines[aColour] = referee.Verdict{Stated: true, Result: core.Draw}
				if r.Ending != referee.ByDisagreement || r.Disagree == nil || *r.Disagree != want {
					t.Errorf("game %d: ending %d, %q, %+v; want a rules disagreement %+v", i, r.Ending, r.Reason, r.Disagree, want)
				}
				if r.Plies != fakeengine.OwnDrawPly {
					t.Errorf("game %d: %d plies, want %d", i, r.Plies, fakeengine.OwnDrawPly)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, fakeengine.AskedWhenOver)); err == nil {
				t.Error("engine A was sent bestmove in a game it had declared drawn")
			}
		})
	}
}

// TestMatchRulesDisagreementReverse: the referee ends the game by threefold
// repetition (as in TestMatchRepetition, at ply 41) while engine A, its
// repetition rule switched off, says it goes on. The game ends as a rules
// disagreement, not a threefold repetition; B, which counts as the referee
// does, agrees with the referee; the referee's policy keeps the draw.
func TestMatchRulesDisagreementReverse(t *testing.T) {
	spec := fakeengine.Spec(t, "good")
	cfg := matchConfig(t, spec, spec, 2, "depth=1")
	cfg.WhiteOptions = []string{"RepetitionDraw=False"}
	cfg.Openings = []uhp.GameString{mustGameString(t, "Base;InProgress;White[2];wS1;bS1 /wS1")}
	cfg.Disagreement = referee.DisagreementReferee
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, res, 2)
	for i, r := range res.Games {
		aColour := map[bool]core.Color{true: core.White, false: core.Black}[r.AWhite]
		want := referee.Disagreement{Ply: 41, Referee: core.Draw}
		want.Engines[aColour] = referee.Verdict{Stated: true, Result: core.InProgress}
		want.Engines[aColour.Other()] = referee.Verdict{Stated: true, Result: core.Draw}
		if r.Ending != referee.ByDisagreement || r.Disagree == nil || *r.Disagree != want || r.Result != core.Draw {
			t.Errorf("game %d: ending %d, %v, %q, %+v; want a draw by rules disagreement %+v", i, r.Ending, r.Result, r.Reason, r.Disagree, want)
		}
	}
}

func mustGameString(t *testing.T, s string) uhp.GameString {
	t.Helper()
	gs, err := uhp.ParseGameString(s)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestMatchReproducible: the same seed gives the same openings, whatever
// the concurrency, and deterministic engines then play the same games; a
// different seed gives different openings.
func TestMatchReproducible(t *testing.T) {
	run := func(seed uint64, concurrency int) []referee.GameRecord {
		cfg := matchConfig(t, "native", "native", 4, "depth=1")
		cfg.RandomPlies, cfg.Seed, cfg.Concurrency, cfg.MaxPlies = 3, seed, concurrency, 30
		res, err := referee.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkRecords(t, res, 4)
		return res.Games
	}
	a, b, c := run(7, 1), run(7, 3), run(8, 2)
	differ := 0
	for i := range a {
		if a[i].Opening != b[i].Opening || a[i].GameString != b[i].GameString || a[i].Result != b[i].Result || a[i].Reason != b[i].Reason {
			t.Errorf("game %d differs between two runs of seed 7:\n%+v\n%+v", i, a[i], b[i])
		}
		if a[i].Opening != c[i].Opening {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("seeds 7 and 8 gave the same openings")
	}

	for k := uint64(0); k < 20; k++ {
		g1, err1 := referee.RandomOpening(core.AllExpansions, 6, 42, k)
		g2, err2 := referee.RandomOpening(core.AllExpansions, 6, 42, k)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		s1, s2 := uhptest.MustDescribe(t, g1).String(), uhptest.MustDescribe(t, g2).String()
		if s1 != s2 || g1.MovesPlayed() != 6 || g1.Type() != core.AllExpansions || g1.Over() {
			t.Errorf("RandomOpening(Base+MLP, 6, 42, %d) = %q then %q", k, s1, s2)
		}
	}
}

// TestMatchSPRTStops ends a match once the SPRT accepts a hypothesis. Both
// engines always answer an illegal move, so White forfeits every game: A
// loses, wins, loses..., an even score that accepts H0 of 0 against 400
// Elo within a dozen games (at 5 wins and 5 losses, LLR -3.35).
func TestMatchSPRTStops(t *testing.T) {
	checkGoroutines(t)
	spec := fakeengine.Spec(t, "always-illegal")
	cfg := matchConfig(t, spec, spec, 60, "depth=1")
	test, _ := referee.ParseSPRT("0,400")
	cfg.SPRT = &test
	res, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.SPRT == nil || res.SPRT.Verdict != referee.SPRTH0 || res.SPRT.LLR > res.SPRT.Lower {
		t.Fatalf("SPRT %+v, want H0 accepted", res.SPRT)
	}
	if n := len(res.Games); n >= 20 || res.Stopped != "SPRT: H0 accepted" {
		t.Errorf("%d games played, stopped %q; want an early stop by the SPRT", n, res.Stopped)
	}
	for _, r := range res.Games {
		if !strings.HasPrefix(r.Reason, "white forfeits") {
			t.Errorf("game %d: %s", r.Index, r.Reason)
		}
	}
}

// TestMatchCancelled stops a match when its context ends: the games in
// flight are abandoned, not counted as forfeits, and every engine is gone.
func TestMatchCancelled(t *testing.T) {
	checkGoroutines(t)
	cfg := matchConfig(t, fakeengine.Spec(t, "always-hang"), "native", 4, "movetime=30")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := referee.Run(ctx, cfg, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RunMatch = %v, want the context's error", err)
	}
	if len(res.Games) != 0 || res.Stopped != "interrupted" {
		t.Errorf("%d games, stopped %q; want none finished, interrupted", len(res.Games), res.Stopped)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the match took %v to stop", took)
	}
}

// TestMatchConfigErrors: a match that cannot run fails at once, before
// any game, with one clear error.
func TestMatchConfigErrors(t *testing.T) {
	for want, change := range map[string]func(*referee.Config){
		"at least 1, not 0":       func(c *referee.Config) { c.Games = 0 },
		"concurrency must be":     func(c *referee.Config) { c.Concurrency = 0 },
		"no valid time control":   func(c *referee.Config) { c.TC = referee.TimeControl{} },
		"engine B has no valid":   func(c *referee.Config) { c.BlackTC = &referee.TimeControl{Depth: 1, MoveTime: time.Second} },
		"unknown backend":         func(c *referee.Config) { c.Black = "telnet:x" },
		"declares no such option": func(c *referee.Config) { c.WhiteOptions = []string{"Hash=1"} },
		"exclude each other":      func(c *referee.Config) { c.RandomPlies = 2; c.Openings = []uhp.GameString{{}} },
		"elo0 (5) must be less":   func(c *referee.Config) { c.SPRT = &referee.SPRT{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05} },
		`opening 1 "Base;InProgress`: func(c *referee.Config) {
			c.Openings = []uhp.GameString{mustGameString(t, "Base;InProgress;White[1];wQ")}
		},
	} {
		cfg := matchConfig(t, "native", "native", 2, "depth=1")
		change(&cfg)
		_, err := referee.Run(context.Background(), cfg, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("RunMatch = %v, want an error containing %q", err, want)
		}
	}
}

// TestMatchEngineWithoutGameType refuses, before the match, an engine
// that does not play the openings' game type.
func TestMatchEngineWithoutGameType(t *testing.T) {
	cfg := matchConfig(t, "native", fakeengine.Spec(t, "nocaps"), 2, "depth=1")
	cfg.GameType, cfg.RandomPlies = core.WithPillbug, 1
	_, err := referee.Run(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "engine B (fake nocaps) does not play Base+P games") {
		t.Fatalf("RunMatch = %v, want a refusal of the game type", err)
	}
}

// TestReadOpenings reads an openings file: comments, blank lines and
// what follows a tab are skipped, and every opening is checked.
func TestReadOpenings(t *testing.T) {
	file := "# openings\n\nBase;InProgress;White[2];wS1;bS1 /wS1\n  Base+M;InProgress;Black[1];wM  \n" +
		"Base;InProgress;White[2];wG1;bG1 wG1-\tWhiteWins\tgame=3\n"
	got, err := referee.ReadOpenings(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, gs := range got {
		lines = append(lines, gs.String())
	}
	want := "Base;InProgress;White[2];wS1;bS1 /wS1|Base+M;InProgress;Black[1];wM|Base;InProgress;White[2];wG1;bG1 wG1-"
	if strings.Join(lines, "|") != want {
		t.Errorf("openings %q, want %q", strings.Join(lines, "|"), want)
	}
	for file, want := range map[string]string{
		"# nothing\n\n": "no opening",
		"Base;InProgress;White[1]\nBase;Nonsense;x\n":  "line 2: ",
		"\nBase;InProgress;White[2];wQ\n":              `line 2: move 1 "wQ": You can't play your Queen Bee on your first turn.`,
		"Base;InProgress;White[2];wS1;bS1 /wS1;wQ bS1": "line 1: move 3",
	} {
		if _, err := referee.ReadOpenings(strings.NewReader(file)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadOpenings(%q) = %v, want an error containing %q", file, err, want)
		}
	}
}

// TestParseTimeControl reads the three forms and refuses anything else.
func TestParseTimeControl(t *testing.T) {
	for in, want := range map[string]referee.TimeControl{
		"depth=3":       {Depth: 3},
		"movetime=0.25": {MoveTime: 250 * time.Millisecond},
		"MOVETIME=2":    {MoveTime: 2 * time.Second},
		"time=60+0.5":   {Clock: time.Minute, Inc: 500 * time.Millisecond},
		"time=10":       {Clock: 10 * time.Second},
		" time=1.5+0 ":  {Clock: 1500 * time.Millisecond},
	} {
		got, err := referee.ParseTimeControl(in)
		if err != nil || got != want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", in, got, err, want)
			continue
		}
		if back, err := referee.ParseTimeControl(got.String()); err != nil || back != got {
			t.Errorf("%q written as %q reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for _, in := range []string{"", "depth", "depth=0", "depth=x", "movetime=0", "movetime=-1", "time=0", "time=5+-1", "time=a+1", "nodes=5", "movetime=NaN"} {
		if _, err := referee.ParseTimeControl(in); err == nil || !strings.Contains(err.Error(), "want depth=N, movetime=S or time=S+inc") {
			t.Errorf("ParseTimeControl(%q) = %v, want a refusal", in, err)
		}
	}
}

func TestMain(m *testing.M) { fakeengine.Main(m) }

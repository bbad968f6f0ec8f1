package translate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// startFake starts this test binary as a fake engine in the given mode,
// and checks at the end of the test that none of its processes is left.
func startFake(t *testing.T, mode string) (*translate.UHPProcess, *syncbuf.Buffer) {
	t.Helper()
	p, logs, _ := startFakeWith(t, mode, "StartUHP", fakeengine.Setenv, translate.StartUHP)
	return p, logs
}

// startFakeWith starts this test binary with start (StartUHP, StartHub,
// named name) as a fake engine, once setenv (fakeengine.Setenv, SetenvHub)
// has made it one in mode; at the end of the test it is closed and none of
// its processes may be left. It returns the engine, its log and the folder
// of the fake's records.
func startFakeWith[E interface{ Close() error }](t *testing.T, mode, name string, setenv func(*testing.T, string) string, start func(context.Context, string, []string, translate.Config) (E, error)) (E, *syncbuf.Buffer, string) {
	t.Helper()
	dir := setenv(t, mode)
	logs := &syncbuf.Buffer{}
	cfg := translate.Config{Log: zerolog.New(logs), Timeouts: fakeengine.Timeouts()}
	p, err := start(context.Background(), os.Args[0], nil, cfg)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, mode, err)
	}
	t.Cleanup(func() {
		p.Close()
		fakeengine.CheckNoProcessLeft(t, dir)
	})
	return p, logs, dir
}

// firstLegal returns the first legal move of g, which the fakes answer.
func firstLegal(g *core.Game) core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0)
}

const midgame = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-"

// TestGoodEngineStaysInStep plays, undoes and jumps between positions and
// checks that each search answers for the session's position (the fake
// answers the first legal move of its own game, which differs from one
// position to the next, so an engine out of step is caught).
func TestGoodEngineStaysInStep(t *testing.T) {
	p, _ := startFake(t, "good")
	ctx := context.Background()
	if info := p.Info(); info.ID != "fake good" || info.Expansions != core.AllExpansions {
		t.Fatalf("Info = %+v", info)
	}
	g := uhptest.Load(t, midgame)
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil)
		if err != nil {
			t.Fatalf("%s: BestMove: %v", step, err)
		}
		if want := firstLegal(g); m != want {
			t.Fatalf("%s: BestMove = %s, want %s (engine out of step)", step, uhp.FormatMove(m, g), uhp.FormatMove(want, g))
		}
	}
	check("newgame")
	for i := range 6 { // play: sent move by move
		m := firstLegal(g)
		g.Play(m)
		if err := p.Play(ctx, m); err != nil {
			t.Fatal(err)
		}
		check("play " + strconv.Itoa(i))
	}
	for range 3 { // undo
		g.Undo()
		if err := p.Undo(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	check("undo 3")
	g = uhptest.Load(t, "Base+L;InProgress;White[2];wS1;bL wS1/") // another game
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	check("another game")
}

// TestMisbehavingEngines shows that each misbehaviour gives the caller a
// clear error (or, for an engine that only needed an interrupt or was only
// slow, the move), and that the next search works with the game intact.
func TestMisbehavingEngines(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		wantErr string // "" when the move still arrives
	}{
		{"crash", "exited while answering"},
		{"hang", "did not answer"},
		{"sigint-exits", "did not answer"},
		{"sigint-answers", ""},
		{"garbage", `answered "bestmove time 00:00:01" with "banana split", which is not a legal move`},
		{"illegal", `with "pass", which is not a legal move: You can't pass when you have valid moves.`},
		{"slow", ""},
		{"flood", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			p, logs := startFake(t, tc.mode)
			g, took, _ := searchMisbehaving(t, p, tc.wantErr)
			// Bounded: the time told (a whole second), the margin, the
			// grace, a restart.
			if limit := translate.WholeSeconds(100*time.Millisecond) + fakeengine.Timeouts().Margin + fakeengine.Timeouts().Grace + 3*time.Second; took > limit {
				t.Errorf("BestMove took %v, more than %v", took, limit)
			}
			checkRecovered(t, p, g, logs, tc.mode)
		})
	}
}

// searchMisbehaving gives p the midgame and asks it for a move within
// 100ms, as the misbehaving engines of each protocol are asked: with
// wantErr "" the first legal move must come, else an error containing
// wantErr. It returns the game, how long BestMove took, and its error.
func searchMisbehaving(t *testing.T, p translate.Engine, wantErr string) (*core.Game, time.Duration, error) {
	t.Helper()
	ctx := context.Background()
	g := uhptest.Load(t, midgame)
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m, err := p.BestMove(ctx, engine.Limit{Time: 100 * time.Millisecond}, nil)
	took := time.Since(start)
	if wantErr == "" {
		if err != nil || m != firstLegal(g) {
			t.Fatalf("BestMove = %v, %v; want the move", m, err)
		}
	} else if err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Fatalf("BestMove error %v, want one containing %q", err, wantErr)
	}
	return g, took, err
}

// checkRecovered checks that an engine process goes on after misbehaving
// in mode (the fakes misbehave once): the next search works on the game g
// (the midgame position), a flood of standard error was reported, and
// nothing was logged as an error.
func checkRecovered(t *testing.T, p translate.Engine, g *core.Game, logs *syncbuf.Buffer, mode string) {
	t.Helper()
	ctx := context.Background()
	g.Play(firstLegal(g))
	if err := p.Play(ctx, firstLegal(uhptest.Load(t, midgame))); err != nil {
		t.Fatal(err)
	}
	if m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove after recovery = %s, %v; want %s", uhp.FormatMove(m, g), err, uhp.FormatMove(firstLegal(g), g))
	}
	if mode == "flood" && !strings.Contains(logs.String(), "flooded") {
		t.Errorf("a flood of standard error was not reported in the log")
	}
	if strings.Contains(logs.String(), `"level":"error"`) {
		t.Errorf("error in the log:\n%s", logs.String())
	}
}

// TestEngineWithoutCapabilities plays the base game only.
// TestEngineOwnVerdict: the "own-draw" fake declares its game drawn at ply
// OwnDrawPly where hivebridge's rules say it goes on. SyncState reports the
// engine's verdict; BestMove refuses to ask it for a move then (asked, the
// fake would leave a mark and exit) and keeps the engine; the difference is
// logged once per game, with both states and the position; an undo brings
// the engine's verdict back in line.
func TestEngineOwnVerdict(t *testing.T) {
	p, logs := startFake(t, "own-draw")
	dir := os.Getenv(fakeengine.DirVar)
	ctx := context.Background()
	warnings := func() int { return strings.Count(logs.String(), "own verdict of the game differs from hivebridge's") }
	verdict := func(want core.Result) {
		t.Helper()
		got, stated, err := p.SyncState(ctx)
		if err != nil || !stated || got != want {
			t.Fatalf("SyncState = %v, %v, %v; want %v, stated", got, stated, err, want)
		}
	}
	// playTo plays the first legal moves of g up to ply n, as the session
	// and as the engine.
	playTo := func(g *core.Game, n int) {
		t.Helper()
		for g.Ply() < n {
			m := firstLegal(g)
			g.Play(m)
			if err := p.Play(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}

	g := core.NewGame(core.Base)
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	verdict(core.InProgress) // newgame: NotStarted
	playTo(g, fakeengine.OwnDrawPly-1)
	verdict(core.InProgress)
	if _, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil {
		t.Fatalf("BestMove before the engine's draw: %v", err)
	}
	playTo(g, fakeengine.OwnDrawPly)
	if g.Over() {
		t.Fatalf("hivebridge's game is over at ply %d: the test needs it going on", g.Ply())
	}
	verdict(core.Draw)
	for range 2 {
		_, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil)
		if err == nil || !strings.Contains(err.Error(), "says the game is over (Draw) where hivebridge's rules say it goes on") {
			t.Fatalf("BestMove in a game the engine says is drawn: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, fakeengine.AskedWhenOver)); err == nil {
		t.Fatal("the engine was sent bestmove in a game it had declared over")
	}
	if n := warnings(); n != 1 {
		t.Fatalf("%d warnings, want 1:\n%s", n, logs)
	}
	described, err := uhp.Describe(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"engine_state":"Draw"`, `"hivebridge_state":"InProgress"`, `"position":` + strconv.Quote(described.String())} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the warning does not say %s:\n%s", want, logs)
		}
	}

	// Taken back, the game goes on for the engine too; played again the
	// same way, it is the same game: no second warning.
	g.Undo()
	if err := p.Undo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	verdict(core.InProgress)
	if _, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil {
		t.Fatalf("BestMove after the undo: %v", err)
	}
	playTo(g, fakeengine.OwnDrawPly)
	verdict(core.Draw)
	if n := warnings(); n != 1 {
		t.Errorf("%d warnings after the same game was played on, want 1", n)
	}

	// Another game, with its own warning.
	g = core.NewGame(core.WithMosquito)
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	first := l.At(l.Len() - 1)
	g.Play(first)
	if err := p.Play(ctx, first); err != nil {
		t.Fatal(err)
	}
	playTo(g, fakeengine.OwnDrawPly)
	verdict(core.Draw)
	if n := warnings(); n != 2 {
		t.Errorf("%d warnings after a second game reached the engine's draw, want 2", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "misbehaved")); err == nil {
		t.Error("the engine misbehaved")
	}
}

// TestProxyKeepsItsVerdict: a UHP session in front of the "own-draw"
// engine, as hivebridge uhp --backend uhp:... is, answers play with its own
// GameString, still InProgress past the engine's draw, and answers bestmove
// there with an error rather than ask the engine; the difference is logged
// once for the game.
func TestProxyKeepsItsVerdict(t *testing.T) {
	p, logs := startFake(t, "own-draw")
	dir := os.Getenv(fakeengine.DirVar)
	ctx := context.Background()
	session := uhp.NewSession(uhp.Config{ID: "proxy", Expansions: p.Info().Expansions, Searcher: translate.SearcherOf(p), Options: p.Options()})
	do := func(command string) []string {
		t.Helper()
		var b strings.Builder
		session.Handle(ctx, command, &b)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if lines[len(lines)-1] != "ok" {
			t.Fatalf("%s: answer %q does not end with ok", command, lines)
		}
		return lines[:len(lines)-1]
	}
	do("newgame Base")
	g := core.NewGame(core.Base)
	play := func(m core.Move) {
		t.Helper()
		text := uhp.FormatMove(m, g)
		g.Play(m)
		if got, want := do("play " + text)[0], uhptest.MustDescribe(t, g).String(); got != want {
			t.Fatalf("play %s answered %s, want hivebridge's %s", text, got, want)
		}
	}
	for g.Ply() < fakeengine.OwnDrawPly {
		answer := do("bestmove depth 1")
		m, err := uhp.ParseMove(answer[0], g)
		if err != nil || g.RuleBroken(m) != nil {
			t.Fatalf("ply %d: bestmove answered %q", g.Ply(), answer)
		}
		play(m)
	}
	for range 2 {
		answer := do("bestmove depth 1")
		if len(answer) != 1 || !strings.HasPrefix(answer[0], "err ") || !strings.Contains(answer[0], "says the game is over (Draw)") {
			t.Fatalf("bestmove in a game only the engine says is drawn: %q", answer)
		}
		play(firstLegal(g)) // the session's game goes on
	}
	if _, err := os.Stat(filepath.Join(dir, fakeengine.AskedWhenOver)); err == nil {
		t.Error("the engine was sent bestmove in a game it had declared over")
	}
	if n := strings.Count(logs.String(), "own verdict of the game differs from hivebridge's"); n != 1 {
		t.Errorf("%d warnings, want 1 for the game:\n%s", n, logs)
	}
}

func TestEngineWithoutCapabilities(t *testing.T) {
	p, _ := startFake(t, "nocaps")
	if got := p.Info().Expansions; got != core.Base {
		t.Fatalf("Expansions = %v, want none", got)
	}
	err := p.NewGame(context.Background(), core.NewGame(core.WithMosquito))
	if err == nil || !strings.Contains(err.Error(), "does not support Base+M games") {
		t.Fatalf("NewGame(Base+M) = %v, want a refusal", err)
	}
	if err := p.NewGame(context.Background(), core.NewGame(core.Base)); err != nil {
		t.Fatal(err)
	}
}

// TestEngineWithoutInfo starts an engine that prints no info answer on
// start: silent, it is sent the probe (hub), answers it with err as a UHP
// engine does, and is then asked for its info. An engine that says nothing
// at all fails to start within the start timeout.
func TestEngineWithoutInfo(t *testing.T) {
	p, _ := startFake(t, "noinfo")
	if id := p.Info().ID; id != "fake noinfo" {
		t.Errorf("ID %q, want fake noinfo", id)
	}
	g := uhptest.Load(t, midgame)
	p.NewGame(context.Background(), g)
	if m, err := p.BestMove(context.Background(), engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove = %v, %v", m, err)
	}

	dir := fakeengine.Setenv(t, "mute")
	checkStartFails(t, dir, "StartUHP", "did not start as a UHP engine", func(cfg translate.Config) error {
		_, err := translate.StartUHP(context.Background(), os.Args[0], nil, cfg)
		return err
	})
}

// shortStart is the configuration of an engine given 300ms to start.
func shortStart() translate.Config {
	timeouts := fakeengine.Timeouts()
	timeouts.Start = 300 * time.Millisecond
	return translate.Config{Log: zerolog.Nop(), Timeouts: timeouts}
}

// checkStartFails checks that start, which starts the fake whose marks are
// in dir with the configuration it is given (shortStart's), fails in good
// time with an error containing want, and leaves no process behind; name
// is the function start calls.
func checkStartFails(t *testing.T, dir, name, want string, start func(translate.Config) error) {
	t.Helper()
	began := time.Now()
	if err := start(shortStart()); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s = %v, want a start failure", name, err)
	}
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("start failure took %v", took)
	}
	fakeengine.CheckNoProcessLeft(t, dir)
}

// TestEngineOptions checks --engine-option: names checked against what the
// engine declares (failing fast with the valid names), values forwarded,
// and set again after a restart.
func TestEngineOptions(t *testing.T) {
	p, _ := startFake(t, "native")
	var names []string
	for _, o := range p.Options() {
		names = append(names, o.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "Threads") || !strings.Contains(got, "HashMB") {
		t.Fatalf("declared options %s, want Threads and HashMB among them", got)
	}
	err := translate.ApplyOptions(p, []string{"Hash=16"})
	if err == nil || !strings.Contains(err.Error(), "valid names: ") || !strings.Contains(err.Error(), "HashMB") {
		t.Fatalf("unknown option: %v, want the list of valid names", err)
	}
	if err := translate.ApplyOptions(p, []string{"HashMB=16", "threads=2"}); err != nil {
		t.Fatal(err)
	}
	if err := translate.ApplyOptions(p, []string{"HashMB=banana"}); err == nil {
		t.Fatal("a bad value was accepted")
	}
	if err := translate.ApplyOptions(p, []string{"HashMB"}); err == nil || !strings.Contains(err.Error(), "Name=Value") {
		t.Fatalf("a setting without = : %v", err)
	}
}

// TestCancelledSearch stops an engine's search when the caller gives up.
func TestCancelledSearch(t *testing.T) {
	p, _ := startFake(t, "hang")
	checkCancelled(t, p)
}

// checkCancelled gives p the midgame and a search of an hour that the
// caller gives up on after 100ms: BestMove must return the context's error,
// and the next search must work.
func checkCancelled(t *testing.T, p translate.Engine) {
	t.Helper()
	g := uhptest.Load(t, midgame)
	p.NewGame(context.Background(), g)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := p.BestMove(ctx, engine.Limit{Time: time.Hour}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("BestMove = %v, want the context's error", err)
	}
	if m, err := p.BestMove(context.Background(), engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove after a cancelled one: %v, %v", m, err)
	}
}

// TestSpecs checks the backend spec syntax.
func TestSpecs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want translate.Spec
	}{
		{"", translate.Spec{Kind: "native"}},
		{"native", translate.Spec{Kind: "native"}},
		{"uhp:mzinga", translate.Spec{Kind: "uhp", Program: "mzinga", Args: []string{}}},
		{`uhp:hivebridge uhp --dialect early`, translate.Spec{Kind: "uhp", Program: "hivebridge", Args: []string{"uhp", "--dialect", "early"}}},
		{`uhp:"/opt/my engine/bin" 'a b' c\ d "x\"y" ;rm`, translate.Spec{Kind: "uhp", Program: "/opt/my engine/bin", Args: []string{"a b", "c d", `x"y`, ";rm"}}},
		{"hub:scan hub", translate.Spec{Kind: "hub", Program: "scan", Args: []string{"hub"}}},
		{"hivejson://127.0.0.1:5000", translate.Spec{Kind: "hivejson", Address: "127.0.0.1:5000"}},
		{"hivejson://[::1]:5000?frame-length=utf8", translate.Spec{Kind: "hivejson", Address: "[::1]:5000", FrameLength: hivejson.UTF8Bytes}},
		{"hivejson://h:1?frame-length=utf16", translate.Spec{Kind: "hivejson", Address: "h:1", FrameLength: hivejson.UTF16Units}},
	} {
		got, err := translate.ParseSpec(tc.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.in, err)
			continue
		}
		if got.Kind != tc.want.Kind || got.Program != tc.want.Program || got.Address != tc.want.Address || got.FrameLength != tc.want.FrameLength || strings.Join(got.Args, "|") != strings.Join(tc.want.Args, "|") {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	for in, want := range map[string]string{
		"uhp:":                              "names no program",
		"uhp:'unterminated":                 "unterminated ' quote",
		`uhp:"unterminated`:                 `unterminated " quote`,
		"telnet:host":                       "unknown backend",
		"hivejson://":                       "want hivejson://host:port",
		"hivejson://nohost":                 "want hivejson://host:port",
		"hivejson://h:1?frame-length=bytes": `frame-length "bytes": want utf16`,
		"hivejson://h:1?speed=fast":         "the one option of hivejson:// is frame-length=utf16|utf8, once",
		"hivejson://h:1?frame-length=utf8&frame-length=utf16": "the one option",
	} {
		if _, err := translate.ParseSpec(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%q) = %v, want an error containing %q", in, err, want)
		}
	}
	for spec, want := range map[string]string{
		"hub:/no/such/engine/here": "cannot start engine",
		"hivejson://127.0.0.1:1":   "cannot reach the JSON AI module at 127.0.0.1:1",
		"uhp:/no/such/engine/here": "cannot start engine",
	} {
		if _, err := translate.Open(context.Background(), spec, translate.Config{Log: zerolog.Nop()}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q) = %v, want an error containing %q", spec, err, want)
		}
	}
}

// TestFormatTime checks that a bestmove time is whole seconds, as the spec
// writes it (hh:mm:ss): rounded down, so that an engine keeps to the
// caller's budget, and never 00:00:00.
func TestFormatTime(t *testing.T) {
	for d, want := range map[time.Duration]string{
		5 * time.Second:                           "00:00:05",
		300 * time.Millisecond:                    "00:00:01",
		time.Hour + 2*time.Minute + 3*time.Second: "01:02:03",
		12500 * time.Millisecond:                  "00:00:12",
		1999 * time.Millisecond:                   "00:00:01",
		time.Nanosecond:                           "00:00:01",
		0:                                         "00:00:01",
		-time.Second:                              "00:00:01",
		100 * time.Hour:                           "100:00:00",
	} {
		got := translate.FormatTime(d)
		if got != want {
			t.Errorf("FormatTime(%v) = %q, want %q", d, got, want)
		}
		if back, err := uhp.ParseDuration(got); err != nil || back != translate.WholeSeconds(d) {
			t.Errorf("ParseDuration(%q) = %v, %v; want WholeSeconds(%v) = %v", got, back, err, d, translate.WholeSeconds(d))
		}
	}
}

// TestWholeSecondEngine searches with sub-second and fractional budgets on
// an engine that reads whole seconds only and answers anything else with
// err UnrecognizedCommand("time 00:00:00.2"), as a widely used engine
// does: every search is answered.
func TestWholeSecondEngine(t *testing.T) {
	p, _ := startFake(t, "wholeseconds")
	g := uhptest.Load(t, midgame)
	if err := p.NewGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{200 * time.Millisecond, time.Millisecond, 1500 * time.Millisecond, 2 * time.Second} {
		if m, err := p.BestMove(context.Background(), engine.Limit{Time: d}, nil); err != nil || m != firstLegal(g) {
			t.Errorf("BestMove(time %v) = %v, %v; want the first legal move", d, m, err)
		}
	}
}

// TestRefusalIsTyped checks that an engine's err answer to a command comes
// back as a RefusedError that names the command and the answer, which the
// referee tells from the engine's own failings.
func TestRefusalIsTyped(t *testing.T) {
	p, _ := startFake(t, "always-refuse")
	g := uhptest.Load(t, midgame)
	if err := p.NewGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	_, err := p.BestMove(context.Background(), engine.Limit{Depth: 2}, nil)
	var refused *translate.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("BestMove = %v, want a RefusedError", err)
	}
	if refused.Command != "bestmove depth 2" || refused.Answer.Kind != "err" || refused.Answer.Message != `UnrecognizedCommand("depth 2")` {
		t.Errorf("RefusedError = %+v (answer %+v)", refused, refused.Answer)
	}
	if want := `engine fake always-refuse answered "bestmove depth 2" with "err UnrecognizedCommand(\"depth 2\")"`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	// A crash is no refusal.
	c, _ := startFake(t, "crash")
	c.NewGame(context.Background(), g)
	if _, err := c.BestMove(context.Background(), engine.Limit{Depth: 1}, nil); err == nil || errors.As(err, &refused) {
		t.Errorf("a crash gave %v; want an error that is no RefusedError", err)
	}
}

func TestMain(m *testing.M) { fakeengine.Main(m) }

// TestUHPProgress checks that hivebridge turns on a UHP engine's
// ReportIntermediateBestMoves and reads what it prints before its answer:
// the reference engine's MoveString;Depth;Score;PV reports, with their
// depth, score and line, and bare intermediate moves; neither the
// answer's own line nor anything after it is a report.
func TestUHPProgress(t *testing.T) {
	g := uhptest.Load(t, "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-")
	first := firstLegal(g)
	reply := func() core.Move {
		c := g.Clone()
		c.Play(first)
		return firstLegal(c)
	}()
	for _, tc := range []struct {
		mode string
		want []engine.Progress
	}{
		{"reports", []engine.Progress{
			{Move: first, Depth: 1, Score: engine.EvalScore(2785604), PV: []core.Move{first}},
			{Move: first, Depth: 2, Score: engine.EvalScore(-150), PV: []core.Move{first, reply}},
		}},
		{"bare-reports", []engine.Progress{{Move: first}}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			p, _ := startFake(t, tc.mode)
			ctx := context.Background()
			if err := p.NewGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			var got []engine.Progress
			m, err := p.BestMove(ctx, engine.Limit{Depth: 2}, func(p engine.Progress) { got = append(got, p) })
			if err != nil || m != first {
				t.Fatalf("BestMove = %v, %v; want the first legal move", m, err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("reported\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// TestInterruptCrossingAnswer: an engine that answered only when
// interrupted and then exits on the signal, after answering the probe
// hivebridge sends it, is not trusted with the next search: hivebridge
// sees it end within the grace period and starts it again, so the next
// search (of the same game, with nothing to catch up) gets a move.
func TestInterruptCrossingAnswer(t *testing.T) {
	// Under -race a program waits a second before it exits, unless told
	// not to: real engines exit at once.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	p, _ := startFake(t, "sigint-answers-then-exits")
	ctx := context.Background()
	g := uhptest.Load(t, midgame)
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if m, err := p.BestMove(ctx, engine.Limit{Time: 100 * time.Millisecond}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("interrupted BestMove = %v, %v; want the move", m, err)
	}
	if m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove after the interrupt = %v, %v; want the move", m, err)
	}
}

// Package fakeengine is misbehaving UHP and Hub engines for tests: a test
// binary that calls Main from its TestMain becomes, when started again with
// HIVEBRIDGE_FAKE_ENGINE (or HIVEBRIDGE_FAKE_HUB_ENGINE) set, an engine that
// crashes, hangs or talks nonsense on purpose, so that the supervision of
// backends, the referee and the daemon can be tested against real
// processes.
package fakeengine

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// The fake engines are this test binary itself, started again with
// HIVEBRIDGE_FAKE_ENGINE naming a misbehaviour. Each misbehaves once: it
// leaves a mark in HIVEBRIDGE_FAKE_DIR, and the engine started again after
// it behaves, so tests can check that the session recovers. A mode spelt
// "always-<mode>" misbehaves at every search of every run instead, so that a
// match can check that the engine loses each game it misbehaves in. Every
// fake also writes its process id there, so tests can check no process is
// left.
const (
	// ModeVar names the misbehaviour of the fake started.
	ModeVar = "HIVEBRIDGE_FAKE_ENGINE"
	// DirVar names the folder where fakes leave their marks.
	DirVar = "HIVEBRIDGE_FAKE_DIR"
)

// OwnDrawPly is where a fake in mode "own-draw" declares its game drawn by
// a rule of its own, as an engine that counts repetitions differently from
// hivebridge does: from this many plies on, the GameStrings of its answers
// to play, undo and newgame say Draw. Sent bestmove while its game says so,
// it leaves the mark AskedWhenOver and exits, as such an engine did (it
// panicked).
const OwnDrawPly = 6

// AskedWhenOver is the mark an "own-draw" fake leaves in its folder when it
// is asked for a move in a game it has declared over.
const AskedWhenOver = "asked-when-over"

// Timeouts are short, so that hung fakes are noticed quickly.
func Timeouts() translate.Timeouts {
	return translate.Timeouts{
		Start:   5 * time.Second,
		Command: 2 * time.Second,
		Margin:  300 * time.Millisecond,
		Depth:   2 * time.Second,
		Grace:   300 * time.Millisecond,
	}
}

// Main runs the tests of m, or, in a process started as a fake engine, the
// fake; it never returns.
func Main(m *testing.M) {
	RunIfAsked()
	os.Exit(m.Run())
}

// argWord, as a fake's first argument, says that its kind, mode and folder
// follow as arguments (ArgSpec), rather than in the environment.
const argWord = "hivebridge-fake-engine"

// ArgSpec returns the backend spec of the running test binary as a fake
// engine of kind ("uhp" or "hub") in mode, told so by its arguments rather
// than the environment, so that one test can start fakes of both kinds at
// once; with a fresh folder for its marks, which it returns. When the test
// ends, no fake started there may still run.
func ArgSpec(t *testing.T, kind, mode string) (spec, dir string) {
	t.Helper()
	dir = t.TempDir()
	t.Cleanup(func() { CheckNoProcessLeft(t, dir) })
	return kind + `:"` + os.Args[0] + `" ` + argWord + " " + kind + " " + mode + ` "` + dir + `"`, dir
}

// IsFake reports whether the process pid is a fake engine that ArgSpec
// started with its marks in dir: a test that kills fakes at random checks
// it first, so that it never kills a process that reused a fake's id.
func IsFake(pid int, dir string) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	return len(args) == 5 && args[0] == os.Args[0] && args[1] == argWord && args[4] == dir
}

// RunIfAsked runs the fake, and exits, in a process started as a fake
// engine; in any other it returns at once. A TestMain that has more to
// dispatch calls it first.
func RunIfAsked() {
	if len(os.Args) == 5 && os.Args[1] == argWord {
		switch os.Args[2] {
		case "uhp":
			os.Exit(run(os.Args[3], os.Args[4]))
		case "hub":
			os.Exit(runHub(os.Args[3], os.Args[4]))
		}
	}
	if mode := os.Getenv(ModeVar); mode != "" {
		os.Exit(run(mode, os.Getenv(DirVar)))
	}
	if mode := os.Getenv(HubModeVar); mode != "" {
		os.Exit(runHub(mode, os.Getenv(DirVar)))
	}
}

// The chaos fakes misbehave at random, for the daemon's chaos test: at each
// search, they hang (ignoring every interrupt) with the first chance, print
// garbage for an answer with the second, and otherwise answer a random
// legal move at once.
const (
	chaosHang    = 0.01
	chaosGarbage = 0.03
)

// randomMove answers every search at once with a random legal move.
type randomMove struct{ rng *rand.Rand }

func (r randomMove) BestMove(_ context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(r.rng.IntN(l.Len())), nil
}

// chaosMark records a chaos fake's misbehaviour (hang or garbage) in its
// folder, for ChaosCount.
func chaosMark(dir, what string) {
	f, err := os.CreateTemp(dir, "chaos-"+what+"-")
	if err == nil {
		f.Close()
	}
}

// ChaosCount counts the times the chaos fakes with their marks in dir hung
// and printed garbage.
func ChaosCount(dir string) (hangs, garbage int) {
	h, _ := filepath.Glob(filepath.Join(dir, "chaos-hang-*"))
	g, _ := filepath.Glob(filepath.Join(dir, "chaos-garbage-*"))
	return len(h), len(g)
}

// chaosRNG is a chaos fake's source of chance: each process its own.
func chaosRNG() *rand.Rand {
	return rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))
}

// Spec makes the running test binary a fake engine in the given mode for
// the rest of the test, and returns its backend spec. When the test ends,
// no fake it started may still run.
func Spec(t *testing.T, mode string) string {
	t.Helper()
	return specOf(t, "uhp", ModeVar, mode)
}

// Setenv sets the environment that makes the test binary, started again,
// a fake in the given mode, with a fresh folder for its marks, which it
// returns; when the test ends, no fake started there may still run.
func Setenv(t *testing.T, mode string) string {
	t.Helper()
	return setenvMode(t, ModeVar, mode)
}

// specOf sets the environment of a fake of one protocol (modeVar, ModeVar
// or HubModeVar, says which) and returns the backend spec, under scheme,
// that starts the test binary as that fake.
func specOf(t *testing.T, scheme, modeVar, mode string) string {
	t.Helper()
	setenvMode(t, modeVar, mode)
	return scheme + `:"` + os.Args[0] + `"`
}

// setenvMode sets modeVar to mode and DirVar to a fresh folder, which it
// returns, and checks when the test ends that no fake started there still
// runs: Setenv and SetenvHub, for the fakes of each protocol.
func setenvMode(t *testing.T, modeVar, mode string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv(modeVar, mode)
	t.Setenv(DirVar, dir)
	t.Cleanup(func() { CheckNoProcessLeft(t, dir) })
	return dir
}

// CheckNoProcessLeft fails t if a fake engine started with its marks in
// dir still runs.
func CheckNoProcessLeft(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		pid, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "pid-"))
		if err != nil {
			continue
		}
		deadline := time.Now().Add(2 * time.Second)
		for syscall.Kill(pid, 0) == nil {
			var status syscall.WaitStatus
			syscall.Wait4(pid, &status, syscall.WNOHANG, nil) // reaped by its Cmd already, normally
			if time.Now().After(deadline) {
				t.Errorf("fake engine %d still running after Close", pid)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// firstMove answers every search with the first legal move.
type firstMove struct{}

func (firstMove) BestMove(_ context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0), nil
}

// reporting answers with the first legal move too, reporting on the way,
// when the session asks (ReportIntermediateBestMoves), what the mode says:
// "reports", the reference engine's MoveString;Depth;Score;PV lines (with
// a score in the reference engine's large units, and a line of two moves
// at depth 2); "bare-reports", the move alone, as engines that report only
// their best move so far print it.
type reporting struct{ bare bool }

func (r reporting) BestMove(_ context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	m := l.At(0)
	if report == nil {
		return m, nil
	}
	if r.bare {
		report(engine.Progress{Move: m})
		return m, nil
	}
	report(engine.Progress{Move: m, Depth: 1, Score: engine.EvalScore(2785604), PV: []core.Move{m}})
	c := g.Clone()
	c.Play(m)
	var replies core.MoveList
	c.GenerateMoves(&replies)
	report(engine.Progress{Move: m, Depth: 2, Score: engine.EvalScore(-150), PV: []core.Move{m, replies.At(0)}})
	return m, nil
}

// wholeSeconds reports whether s is a bestmove time as the UHP spec writes
// it, hh:mm:ss: whole seconds.
func wholeSeconds(s string) bool {
	f := strings.Split(s, ":")
	if len(f) != 3 || f[0] == "" || len(f[1]) != 2 || len(f[2]) != 2 {
		return false
	}
	for _, field := range f {
		if strings.Trim(field, "0123456789") != "" {
			return false
		}
	}
	return f[1] < "60" && f[2] < "60"
}

// run runs a UHP engine on standard input and output that answers
// bestmove with the first legal move, except in the way mode says:
//
//	crash           exits at bestmove
//	hang            ignores bestmove and SIGINT
//	sigint-exits    ignores bestmove, and dies of SIGINT
//	sigint-answers  answers bestmove only when sent SIGINT
//	sigint-answers-then-exits  the same, then exits after one more answer
//	garbage         answers bestmove with nonsense
//	illegal         answers bestmove with pass, which is not legal
//	slow            answers bestmove 300ms late
//	refuse          answers bestmove with err UnrecognizedCommand
//	noinfo          prints no info answer on start
//	slowstart       prints its info answer 800ms after it starts
//	mute            prints nothing, ever (every run)
//	banner          is no engine: prints a banner of its own, and answers
//	                every line with a question mark (every run)
//	flood           floods its standard error (every run)
//	nocaps          plays the base game only (every run)
//	native          answers with the native searcher (every run)
//	reports         reports its search as the reference engine does (every
//	bare-reports    run; see reporting)
//	own-draw        declares its game drawn from OwnDrawPly on (every run)
//	chaos           misbehaves at random (see chaosHang), every run
//	wholeseconds    reads bestmove times in whole seconds only, as the
//	                spec writes them, and answers any other with err
//	                UnrecognizedCommand("time 00:00:00.2"), as a widely
//	                used engine does (every run)
//	stays           runs on once its input has ended, until killed, as an
//	                engine busy in a search does (every run)
func run(mode, dir string) int {
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("pid-%d", os.Getpid())), nil, 0o644)
	misbehaved := filepath.Join(dir, "misbehaved")
	_, err := os.Stat(misbehaved)
	id := "fake " + mode
	always := strings.HasPrefix(mode, "always-")
	mode = strings.TrimPrefix(mode, "always-")
	misbehave := err != nil || always // only the first run of the program, unless always
	markMisbehaved := func() { os.WriteFile(misbehaved, nil, 0o644) }

	cfg := uhp.Config{ID: id, Expansions: core.AllExpansions, Searcher: firstMove{}}
	if mode == "native" {
		native := translate.NewNative()
		cfg.Searcher, cfg.Options = translate.SearcherOf(native), native.Options()
	}
	if mode == "reports" || mode == "bare-reports" {
		cfg.Searcher = reporting{bare: mode == "bare-reports"}
	}
	if mode == "nocaps" {
		cfg.Expansions = core.Base
	}
	rng := chaosRNG()
	if mode == "chaos" {
		cfg.Searcher = randomMove{rng}
	}
	e := uhp.NewSession(cfg)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	flood := func() {
		for i := range 20000 {
			fmt.Fprintf(os.Stderr, "debug line %d of a chatty engine\n", i)
		}
	}
	if mode == "flood" {
		flood()
	}
	in := bufio.NewScanner(os.Stdin)
	switch mode {
	case "mute":
		for in.Scan() {
		}
		return 0
	case "banner":
		fmt.Fprintln(out, "BannerChess 2.0 -- type 'help' for help")
		out.Flush()
		for in.Scan() {
			fmt.Fprintln(out, "?")
			out.Flush()
		}
		return 0
	case "slowstart":
		if misbehave {
			markMisbehaved()
			time.Sleep(800 * time.Millisecond)
		}
	}
	ctx := context.Background()
	if mode != "noinfo" || !misbehave {
		e.Handle(ctx, "info", out)
		out.Flush()
	}
	exitAfterNext := 0 // commands to answer before exiting, when not 0
	saysOver := false  // own-draw: its last GameString said Draw
	for in.Scan() {
		line := in.Text()
		if mode == "flood" {
			flood()
		}
		if mode == "own-draw" {
			if strings.HasPrefix(line, "bestmove") && saysOver {
				os.WriteFile(filepath.Join(dir, AskedWhenOver), nil, 0o644)
				os.Exit(3)
			}
			var answer strings.Builder
			quit := e.Handle(ctx, line, &answer)
			text, over, isGame := ownDraw(answer.String())
			if isGame {
				saysOver = over
			}
			out.WriteString(text)
			out.Flush()
			if quit {
				return 0
			}
			continue
		}
		if strings.HasPrefix(line, "bestmove") && mode == "chaos" {
			switch chance := rng.Float64(); {
			case chance < chaosHang:
				chaosMark(dir, "hang")
				signal.Ignore(syscall.SIGINT)
				select {}
			case chance < chaosHang+chaosGarbage:
				chaosMark(dir, "garbage")
				fmt.Fprintln(out, "\x00\xffbanana split\x1b[2J")
				fmt.Fprintln(out, "ok")
				out.Flush()
				continue
			}
		}
		if arg, timed := strings.CutPrefix(line, "bestmove time "); timed && mode == "wholeseconds" && !wholeSeconds(arg) {
			fmt.Fprintf(out, "err UnrecognizedCommand(%q)\nok\n", "time "+arg)
			out.Flush()
			continue
		}
		if strings.HasPrefix(line, "bestmove") && misbehave {
			misbehave = always
			markMisbehaved()
			switch mode {
			case "crash":
				os.Exit(3)
			case "hang":
				signal.Ignore(syscall.SIGINT)
				select {}
			case "sigint-exits":
				select {} // Go's default for SIGINT is to exit
			case "sigint-answers":
				interrupted := make(chan os.Signal, 1)
				signal.Notify(interrupted, syscall.SIGINT)
				<-interrupted
			case "sigint-answers-then-exits":
				// Answers once interrupted, like sigint-answers, but the
				// signal ends it after one more command, as it ends an
				// engine whose answer crossed the signal and got it while
				// idle, answering the next command first.
				interrupted := make(chan os.Signal, 1)
				signal.Notify(interrupted, syscall.SIGINT)
				<-interrupted
				exitAfterNext = 2 // this answer, and the next
			case "garbage", "refuse", "illegal":
				fmt.Fprintln(out, wrongBestMove(mode, line))
				fmt.Fprintln(out, "ok")
				out.Flush()
				continue
			case "slow":
				time.Sleep(300 * time.Millisecond)
			}
		}
		if quit := e.Handle(ctx, line, out); quit {
			return 0
		}
		out.Flush()
		if exitAfterNext > 0 {
			if exitAfterNext--; exitAfterNext == 0 {
				return 0
			}
		}
	}
	if mode == "stays" {
		select {}
	}
	return 0
}

// ownDraw rewrites the GameString of an answer to say Draw once its game
// has OwnDrawPly plies. It reports whether the answer had a GameString and
// whether that now says the game is over.
func ownDraw(answer string) (text string, over, isGame bool) {
	lines := strings.SplitAfter(answer, "\n")
	for i, line := range lines {
		gs, err := uhp.ParseGameString(line)
		if err != nil {
			continue
		}
		isGame = true
		if gs.State == uhp.InProgress && len(gs.Moves) >= OwnDrawPly {
			gs.State = uhp.Draw
			lines[i] = gs.String() + "\n"
		}
		over = gs.State.Result() != core.InProgress
	}
	return strings.Join(lines, ""), over, isGame
}

// wrongBestMove is the line a fake of mode answers bestmove with, before
// its ok: nonsense (garbage), an error (refuse) or a move that is no legal
// move (illegal).
func wrongBestMove(mode, line string) string {
	switch mode {
	case "garbage":
		return "banana split"
	case "refuse":
		return fmt.Sprintf("err UnrecognizedCommand(%q)", strings.TrimPrefix(line, "bestmove "))
	}
	return "pass"
}

package main

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// runMainVar makes this test binary run hivebridge's main instead of the
// tests, so that tests can start real hivebridge processes, and chains of
// them, without building anything.
const runMainVar = "HIVEBRIDGE_TEST_RUN_MAIN"

// hivebridge starts this binary as hivebridge with args and returns a UHP
// client on it, its info answer read.
func hivebridge(t testing.TB, args ...string) *uhp.Client {
	t.Helper()
	stdin, stdout := runMain(t, args...)
	c := uhp.NewClient(stdout, stdin)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Await(ctx, nil); err != nil {
		t.Fatalf("hivebridge %s: no info answer: %v", strings.Join(args, " "), err)
	}
	return c
}

// runMain starts this binary as hivebridge with args, its standard error
// discarded, and returns its standard input and output. The test fails if
// it does not exit 0 within 10s of its input closing, at the end.
func runMain(t testing.TB, args ...string) (io.WriteCloser, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("hivebridge %s exited with %v", strings.Join(args, " "), err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("hivebridge %s did not exit when its input closed", strings.Join(args, " "))
		}
	})
	return stdin, stdout
}

// do sends a command and returns its answer, failing the test on an
// error or a missing answer.
func do(t testing.TB, c *uhp.Client, command string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines, err := c.Do(ctx, command)
	if err != nil {
		t.Fatalf("%s: %v (answer %q)", command, err, lines)
	}
	return lines
}

// TestProxyWholeGames plays whole games through hivebridge proxying
// hivebridge (hivebridge uhp --backend "uhp:hivebridge uhp"): every move the
// proxy answers is checked against an independent copy of the game, as is
// its validmoves answer and every GameString.
func TestProxyWholeGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	proxy := hivebridge(t, "uhp", "--backend", "uhp:"+os.Args[0]+" uhp")
	rng := rand.New(rand.NewPCG(4, 2))
	ended := 0
	for game := range 4 {
		if playWholeGame(t, proxy, rng, game, func(int) string { return "bestmove depth 2" }) {
			ended++
		}
	}
	checkSomeEnded(t, ended)
}

// checkSomeEnded fails t unless at least one of its whole games ended, so
// that the GameString of a finished game was relayed and checked. Not every
// game need end: one searcher at depth 2 can shuffle for 400 plies against
// another that can only pass, avoiding the repetition that would draw.
func checkSomeEnded(t *testing.T, ended int) {
	t.Helper()
	if ended == 0 {
		t.Errorf("no game ended within 400 plies")
	}
}

// playWholeGame plays one game of a random type on a UHP session, both
// sides chosen by its answer to bestmove (the command chooses which, by
// ply) after a random opening, to its end or 400 plies, and reports whether
// it ended. Every move is checked against an independent copy of the game,
// as are validmoves now and then and every GameString.
func playWholeGame(t *testing.T, viewer *uhp.Client, rng *rand.Rand, game int, bestmove func(ply int) string) (ended bool) {
	t.Helper()
	gt := core.GameType(rng.IntN(int(core.AllGameTypes)))
	g := core.NewGame(gt)
	do(t, viewer, "newgame "+uhp.FormatGameType(gt))
	var l core.MoveList
	for g.Ply() < 400 && !g.Over() {
		var m core.Move
		if g.Ply() < 4 { // a random opening, so the games differ
			g.GenerateMoves(&l)
			m = l.At(rng.IntN(l.Len()))
		} else {
			command := bestmove(g.Ply())
			answer := do(t, viewer, command)
			var err error
			if m, err = uhp.ParseMove(answer[len(answer)-1], g); err != nil || g.RuleBroken(m) != nil {
				t.Fatalf("game %d ply %d: %s answered %q: %v %v", game, g.Ply(), command, answer, err, g.RuleBroken(m))
			}
		}
		if g.Ply()%17 == 5 {
			g.GenerateMoves(&l)
			want := make([]string, l.Len())
			for i, vm := range l.Moves() {
				want[i] = uhp.FormatMove(vm, g)
			}
			if got := do(t, viewer, "validmoves")[0]; got != strings.Join(want, ";") {
				t.Fatalf("validmoves = %s\nwant %s", got, strings.Join(want, ";"))
			}
		}
		text := uhp.FormatMove(m, g)
		g.Play(m)
		if got, want := do(t, viewer, "play "+text)[0], uhptest.MustDescribe(t, g).String(); got != want {
			t.Fatalf("play %s answered %s, want %s", text, got, want)
		}
	}
	t.Logf("game %d (%s): %d plies, %s", game, uhp.FormatGameType(gt), g.Ply(), uhp.StateOf(g))
	return g.Over()
}

// BenchmarkProxyOverhead measures what the proxy adds to a forwarded
// command: bestmove depth 1 on a midgame position, sent to hivebridge
// directly and through hivebridge proxying it, the median of each.
func BenchmarkProxyOverhead(b *testing.B) {
	const position = "newgame Base+MLP;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-;wG1 /wA1;bB1 bA1\\"
	direct := hivebridge(b, "uhp")
	proxy := hivebridge(b, "uhp", "--backend", "uhp:"+os.Args[0]+" uhp")
	median := func(c *uhp.Client) time.Duration {
		do(b, c, position)
		do(b, c, "bestmove depth 1") // the proxy's first search sends the game
		times := make([]time.Duration, 0, 201)
		for range 201 {
			start := time.Now()
			do(b, c, "bestmove depth 1")
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		return times[len(times)/2]
	}
	var d, p time.Duration
	for b.Loop() {
		d, p = median(direct), median(proxy)
	}
	b.ReportMetric(float64(d.Microseconds()), "µs/direct")
	b.ReportMetric(float64(p.Microseconds()), "µs/proxied")
	b.ReportMetric(float64((p - d).Microseconds()), "µs-added/cmd")
}

// TestUHPSignals: SIGINT stops the search in progress, which answers at
// once, and the session goes on, as with the reference engine; SIGTERM
// ends the program, even while it waits for input, with status 0.
func TestUHPSignals(t *testing.T) {
	cmd := exec.Command(os.Args[0], "uhp")
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	c := uhp.NewClient(stdout, stdin)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Await(ctx, nil) // info
	if _, err := c.Do(ctx, "newgame Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-"); err != nil {
		t.Fatal(err)
	}
	// The search is under way once it has reported: SIGINT comes then.
	if _, err := c.Do(ctx, "options set ReportIntermediateBestMoves True"); err != nil {
		t.Fatal(err)
	}
	c.Send("bestmove time 00:01:00")
	type answer struct {
		lines []string
		err   error
	}
	answered := make(chan answer, 1)
	reported := make(chan struct{})
	var once sync.Once
	go func() {
		lines, err := c.Await(ctx, func(string) { once.Do(func() { close(reported) }) })
		answered <- answer{lines, err}
	}()
	select {
	case <-reported:
	case a := <-answered:
		t.Fatalf("bestmove answered %q, %v before it reported", a.lines, a.err)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	a := <-answered
	// The reports (MoveString;Depth;Score;...), then the move alone.
	lines, err := a.lines, a.err
	if err != nil || len(lines) == 0 || strings.Contains(lines[len(lines)-1], ";") ||
		slices.ContainsFunc(lines[:len(lines)-1], func(l string) bool { return !strings.Contains(l, ";") }) {
		t.Fatalf("bestmove after SIGINT: %q, %v", lines, err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the interrupted search answered after %v", took)
	}
	if lines, err := c.Do(ctx, "validmoves"); err != nil || len(lines) != 1 {
		t.Fatalf("the session did not go on after SIGINT: %q, %v", lines, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("SIGTERM did not end hivebridge uhp waiting for input")
	}
}

package hub_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

// The searchers of these tests stand for the backends: one that answers at
// once, one that searches until stopped and then answers (the native
// searcher), one that cannot be stopped (a UHP process), and ones that fail.

// legalMoves returns the legal moves of g.
func legalMoves(g *core.Game) []core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	return append([]core.Move(nil), l.Moves()...)
}

// firstMove answers at once with the first legal move, reporting it first.
type firstMove struct{}

func (firstMove) BestMove(_ context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	m := legalMoves(g)[0]
	if report != nil {
		report(engine.Progress{Move: m})
	}
	return m, nil
}

// untilStopped reports the first legal move at once, then searches until
// its context is cancelled and answers the second legal move, so that a
// test can tell its answer from its report.
type untilStopped struct{}

func (untilStopped) BestMove(ctx context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	moves := legalMoves(g)
	if report != nil {
		report(engine.Progress{Move: moves[0]})
	}
	<-ctx.Done()
	return moves[1%len(moves)], nil
}

// begins is a searcher that closes began when its first search begins.
type begins struct {
	engine.Searcher
	began chan struct{}
	once  sync.Once
}

func (b *begins) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	b.once.Do(func() { close(b.began) })
	return b.Searcher.BestMove(ctx, g, limit, report)
}

// waitFor polls cond until it holds, and fails the test once timeout has
// passed without it.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", timeout, what)
		}
	}
}

// stubborn cannot be stopped: asked for a depth up to quick, it answers at
// once with the legal move of that index; asked for anything else, it
// waits for release (whatever its context says), then answers the last
// legal move. It records every limit it is given.
type stubborn struct {
	quick   int
	release chan struct{}
	mu      sync.Mutex
	limits  []engine.Limit
	running int // searches not yet returned
}

func newStubborn(quick int) *stubborn { return &stubborn{quick: quick, release: make(chan struct{})} }

func (s *stubborn) BestMove(_ context.Context, g *core.Game, limit engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	s.mu.Lock()
	s.limits = append(s.limits, limit)
	s.running++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
	}()
	moves := legalMoves(g)
	if limit.Depth > 0 && limit.Depth <= s.quick && limit.Time == 0 {
		return moves[limit.Depth%len(moves)], nil
	}
	select {
	case <-s.release:
	case <-time.After(10 * time.Second): // never leak, even if a test forgets
	}
	return moves[len(moves)-1], nil
}

func (s *stubborn) seen() []engine.Limit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]engine.Limit(nil), s.limits...)
}

func (s *stubborn) busy() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// failing answers with an error.
type failing struct{}

func (failing) BestMove(context.Context, *core.Game, engine.Limit, func(engine.Progress)) (core.Move, error) {
	return core.NoMove, errors.New("the engine crashed")
}

// illegal answers a move that is never legal in a game under way.
type illegal struct{}

func (illegal) BestMove(_ context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	return core.Pass, nil
}

// deaf claims to be interruptible but ignores its context for a while.
type deaf struct{}

func (deaf) BestMove(_ context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	time.Sleep(2 * time.Second) // the misbehaviour under test: deaf to its context
	return legalMoves(g)[1], nil
}

// lastMove is a fallback that answers the last legal move, so that a test
// can tell its answers apart.
type lastMove struct{}

func (lastMove) BestMove(_ context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	moves := legalMoves(g)
	return moves[len(moves)-1], nil
}

// session is a session running on pipes, as a GUI drives it.
type session struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	closed bool
}

const testGrace = 300 * time.Millisecond

func testConfig(s engine.Searcher, interruptible bool) hub.Config {
	return hub.Config{
		ID:            hub.ID{Name: "test", Version: "1"},
		Expansions:    core.AllExpansions,
		Searcher:      s,
		Interruptible: interruptible,
		Fallback:      lastMove{},
		StopGrace:     testGrace,
	}
}

// startSession runs a session of cfg; the test ends by closing its input
// and checking that it returns.
func startSession(t *testing.T, cfg hub.Config) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		err := hub.NewSession(cfg).Run(context.Background(), inR, outW)
		outW.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { s.close() })
	return s
}

// send writes lines of input, in one write: the session reads them in
// one go, even those it will never handle (after quit).
func (s *session) send(lines ...string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, strings.Join(lines, "\n")+"\n"); err != nil {
		s.t.Fatalf("send %q: %v", lines, err)
	}
}

// next returns the next line of output, failing after a deadline.
func (s *session) next() string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the session's output ended")
		}
		return l
	case <-time.After(5 * time.Second):
		s.t.Fatal("no output within 5s")
	}
	return ""
}

// expect reads lines and checks the next one matches re; info lines are
// skipped unless re is one.
func (s *session) expect(re string) string {
	s.t.Helper()
	for {
		l := s.next()
		if strings.HasPrefix(l, "info ") && !strings.HasPrefix(re, "info") {
			continue
		}
		if !regexp.MustCompile("^(?:" + re + ")$").MatchString(l) {
			s.t.Fatalf("got %q, want %s", l, re)
		}
		return l
	}
}

// quiet checks that nothing but info lines is printed for a while.
func (s *session) quiet(d time.Duration) {
	s.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case l := <-s.lines:
			if !strings.HasPrefix(l, "info ") {
				s.t.Fatalf("unexpected output %q", l)
			}
		case <-deadline:
			return
		}
	}
}

// close ends the input and returns the rest of the output once the
// session has returned.
func (s *session) close() []string {
	s.t.Helper()
	if s.closed {
		return nil
	}
	s.closed = true
	s.in.Close()
	var rest []string
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				select {
				case err := <-s.done:
					if err != nil {
						s.t.Errorf("Run: %v", err)
					}
				case <-time.After(5 * time.Second):
					s.t.Fatal("Run did not return")
				}
				return rest
			}
			rest = append(rest, l)
		case <-time.After(5 * time.Second):
			s.t.Fatal("the session did not end within 5s of its input")
		}
	}
}

// moveIn returns the text of the legal move of index i (negative counts
// from the end) in the position after moves.
func moveIn(t *testing.T, variant core.GameType, moves []string, i int) string {
	t.Helper()
	g, err := hub.Pos{Variant: variant, Moves: moves}.Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	l := legalMoves(g)
	if i < 0 {
		i += len(l)
	}
	return hub.WriteMove(l[i], g)
}

// done returns the done line for a move text.
func done(move string) string { return regexp.QuoteMeta(hub.Done{Move: move}.Line().String()) }

func TestSessionHandshake(t *testing.T) {
	threads := &engine.Option{Name: "Threads", Type: engine.IntOption, Default: "1", Min: "1", Max: "8"}
	var applied []string
	threads.Apply = func(v string) error { applied = append(applied, v); return nil }
	cfg := testConfig(firstMove{}, true)
	cfg.Expansions = core.WithMosquito | core.WithPillbug
	st, _ := hub.SettingOf(threads)
	cfg.Settings = []hub.Setting{st, {Param: hub.BoolParam("ponder", true)}}
	s := startSession(t, cfg)
	s.send("hub")
	for _, want := range []string{
		"id name=test version=1",
		`param name=variant value=Base type=enum values="Base Base+M Base+P Base+MP"`,
		"param name=ponder value=false type=bool",
		"param name=threads value=1 type=int min=1 max=8",
		"wait",
	} {
		if got := s.next(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	s.send("set-param name=threads value=4", "set-param name=Variant value=Base+MP", "init")
	s.expect("ready")
	s.send("set-param name=threads value=9")
	s.expect(`error message="set-param: parameter threads: 9 is above the maximum 8"`)
	s.send("set-param name=variant value=Base+L")
	s.expect(`error message="set-param: parameter variant: 'Base\+L' is not one of Base, Base\+M, Base\+P, Base\+MP"`)
	s.send("set-param name=book value=true")
	s.expect(`error message="set-param: there is no parameter book; the parameters are variant, ponder, threads"`)
	s.send("hub")
	s.expect("id .*")
	s.expect(`param name=variant value=Base\+MP .*`)
	s.expect("param name=ponder .*")
	s.expect("param name=threads value=4 .*")
	s.expect("wait")
	// pos without a variant plays the variant parameter's game.
	s.send(`pos moves="wP"`, "level depth=1", "go think")
	s.expect(done(moveIn(t, core.WithMosquito|core.WithPillbug, []string{"wP"}, 0)))
	s.send("ping")
	s.expect("pong")
	if rest := s.close(); len(rest) != 0 {
		t.Errorf("output after the end of input: %q", rest)
	}
	if strings.Join(applied, ",") != "4" {
		t.Errorf("threads applied %q, want 4", applied)
	}
}

// A search prints info lines, then exactly one done; the level and the
// position in force are the ones of the last level and pos.
func TestSessionSearch(t *testing.T) {
	rec := newStubborn(100)
	s := startSession(t, testConfig(rec, false))
	moves := []string{"wS1", "bG1 -wS1", "wA1 wS1/"}
	s.send(`pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"`, "level depth=3", "go think")
	// Not interruptible and no time: deepened one depth at a time.
	for d := 1; d <= 3; d++ {
		want := `info depth=` + string(rune('0'+d)) + ` time=\S+ pv="?` + regexp.QuoteMeta(moveIn(t, allExpansions, moves, d)) + `"?`
		if l := s.next(); !regexp.MustCompile("^" + want + "$").MatchString(l) {
			t.Fatalf("got %q, want %s", l, want)
		}
	}
	s.expect(done(moveIn(t, allExpansions, moves, 3)))
	if got := rec.seen(); len(got) != 3 || got[2] != (engine.Limit{Depth: 3}) {
		t.Errorf("limits %v, want depths 1 to 3", got)
	}
	s.quiet(50 * time.Millisecond)
}

// Every level form reaches the searcher as its time allocation.
func TestSessionLevels(t *testing.T) {
	rec := newStubborn(0)
	close(rec.release)
	s := startSession(t, testConfig(rec, false))
	levels := []struct {
		line string
		want engine.Limit
	}{
		{"level move-time=2.5", engine.Limit{Time: 2500 * time.Millisecond}},
		{"level time=60", engine.Limit{Time: 2 * time.Second}},
		{"level moves=10 time=60", engine.Limit{Time: 6 * time.Second}},
		{"level time=60 inc=1", engine.Limit{Time: 3 * time.Second}},
		{"level nodes=500000", engine.Limit{Time: 501 * time.Millisecond}},
		{"level depth=30 move-time=1", engine.Limit{Depth: 30, Time: time.Second}},
	}
	for _, l := range levels {
		s.send("pos variant=Base", l.line, "go think")
		s.expect("done .*")
	}
	got := rec.seen()
	if len(got) != len(levels) {
		t.Fatalf("%d searches, want %d", len(got), len(levels))
	}
	for i, l := range levels {
		if got[i] != l.want {
			t.Errorf("%s: limit %+v, want %+v", l.line, got[i], l.want)
		}
	}
}

// ping is answered during a search, and stop ends it with the searcher's
// own answer.
func TestSessionPingAndStop(t *testing.T) {
	s := startSession(t, testConfig(untilStopped{}, true))
	s.send("pos variant=Base", "level infinite", "go think")
	l := s.next()
	if !strings.HasPrefix(l, "info time=") || !strings.HasSuffix(l, "pv="+moveIn(t, core.Base, nil, 0)) {
		t.Fatalf("got %q, want the info line of the reported move", l)
	}
	s.send("ping")
	s.expect("pong")
	s.send("ping")
	s.expect("pong")
	s.quiet(100 * time.Millisecond)
	s.send("stop")
	s.expect(done(moveIn(t, core.Base, nil, 1)))
	s.send("stop", "ponder-hit", "ping") // late: ignored
	s.expect("pong")
	s.quiet(50 * time.Millisecond)
}

// A searcher that cannot be interrupted is answered for at once: with its
// last reported move, or the fallback's when it has reported none; its
// late answer is discarded.
func TestSessionUninterruptibleStop(t *testing.T) {
	rec := newStubborn(2)
	s := startSession(t, testConfig(rec, false))
	s.send("pos variant=Base+MLP", "level infinite", "go analyze")
	s.expect(`info depth=1 .*`)
	s.expect(`info depth=2 .*`)
	// The depth-3 search runs on its own goroutine: stop is sent once it
	// has begun (CI's run of 634b275 sent it before, and stop found no
	// search to leave running).
	waitFor(t, 2*time.Second, "the depth-3 search to begin", func() bool { return len(rec.seen()) >= 3 })
	s.send("stop")
	s.expect(done(moveIn(t, allExpansions, nil, 2)))
	// Answered while the searcher still holds on: stop did not wait for it.
	if n := rec.busy(); n != 1 {
		t.Errorf("stop answered with %d searches running, want the stubborn one", n)
	}

	// A move-time search that has reported nothing: the fallback answers.
	// The search runs on its own goroutine: stop is sent once it has
	// begun (the searcher has seen one more search than the analysis's,
	// one a depth), so that what is checked is that stop does not wait
	// for it.
	before := len(rec.seen())
	s.send("pos variant=Base+MLP", "level move-time=60", "go think")
	s.send("ping")
	s.expect("pong")
	waitFor(t, 2*time.Second, "the move-time search to begin", func() bool { return len(rec.seen()) > before })
	s.send("stop")
	s.expect(done(moveIn(t, allExpansions, nil, -1)))
	if n := rec.busy(); n != 2 {
		t.Errorf("stop answered with %d searches running, want both stubborn ones", n)
	}
	close(rec.release) // the late answers come, and are discarded
	waitFor(t, 2*time.Second, "the stubborn searches to answer", func() bool { return rec.busy() == 0 })
	s.quiet(50 * time.Millisecond)
	s.send("ping")
	s.expect("pong")
}

// A searcher that overruns its time is answered for once StopGrace has
// passed; one that claims to stop but does not is answered for after
// StopGrace, too.
func TestSessionLateSearchers(t *testing.T) {
	rec := newStubborn(0)
	s := startSession(t, testConfig(rec, false))
	s.send("pos variant=Base", "level move-time=0.1", "go think")
	start := time.Now()
	s.expect(done(moveIn(t, core.Base, nil, -1)))
	if took := time.Since(start); took < 100*time.Millisecond+testGrace-20*time.Millisecond || took > 2*time.Second {
		t.Errorf("an overrun answered after %v", took)
	}
	close(rec.release)

	s2 := startSession(t, testConfig(deaf{}, true))
	s2.send("pos variant=Base", "level infinite", "go think", "stop")
	start = time.Now()
	s2.expect(done(moveIn(t, core.Base, nil, -1)))
	if took := time.Since(start); took > testGrace+time.Second {
		t.Errorf("a deaf searcher answered for after %v", took)
	}
}

// go ponder searches with no clock until ponder-hit, after which the
// level's time allocation counts.
func TestSessionPonder(t *testing.T) {
	for _, interruptible := range []bool{true, false} {
		var searcher engine.Searcher = untilStopped{}
		want := moveIn(t, core.Base, nil, 1)
		if !interruptible {
			rec := newStubborn(3)
			defer close(rec.release)
			searcher, want = rec, moveIn(t, core.Base, nil, 3)
		}
		s := startSession(t, testConfig(searcher, interruptible))
		s.send("pos variant=Base", "level move-time=0.2", "go ponder")
		s.quiet(300 * time.Millisecond) // longer than the move time: the clock is not running
		s.send("ponder-hit")
		start := time.Now()
		s.expect(done(want))
		// At least the move time (the clock started at ponder-hit); the upper
		// bound only catches a clock that never started.
		if took := time.Since(start); took < 150*time.Millisecond || took > 3*time.Second {
			t.Errorf("interruptible %v: done %v after ponder-hit, want about 0.2s", interruptible, took)
		}
		// Stopped while pondering, it answers at once (the move it knows
		// depends on how far it got): a ponder search has no clock, so only
		// the stop can end it; the bound is for a loaded machine.
		s.send("pos variant=Base", "level move-time=0.2", "go ponder", "stop")
		start = time.Now()
		s.expect(`done move=w[QSBGA]1?`)
		if took := time.Since(start); took > time.Second {
			t.Errorf("interruptible %v: stop while pondering answered after %v", interruptible, took)
		}
	}
}

// Bad input is answered with error and changes nothing: the level and
// position in force stay.
func TestSessionErrors(t *testing.T) {
	rec := newStubborn(100)
	cfg := testConfig(rec, false)
	cfg.MaxLine = 300
	s := startSession(t, cfg)
	s.send(`pos variant=Base moves="wS1"`, "level depth=1")
	s.send("level time=abc")
	s.expect(`error message="level: time must be a number of seconds, not 'abc'"`)
	s.send(`pos variant=Base moves="wS1;wS2 wS1-"`)
	s.expect(`error message="illegal move 2 \(wS2 wS1-\): It's not that player's turn."`)
	s.send(`pos variant=Base moves="wS1;banana"`)
	s.expect(`error message="bad move 2 \(banana\): .*"`)
	s.send(`pos variant=Base moves="wS1`)
	s.expect(`error message="unterminated quote in the value of moves \(column 24\)"`)
	s.send("go", "go fast ponder think")
	s.expect(`error message="go: think, ponder or analyze is missing"`)
	s.expect(`error message="go: think and ponder both given; want one of think, ponder and analyze"`)
	s.send(strings.Repeat("x", 400))
	s.expect(`error message="the line is longer than 300 bytes; ignored"`)
	s.send("frobnicate now", "", "   ")
	s.send("go think")
	s.expect(done(moveIn(t, core.Base, []string{"wS1"}, 1)))
	if got := rec.seen(); len(got) != 1 || got[0] != (engine.Limit{Depth: 1}) {
		t.Errorf("limits %v, want one search at depth 1", got)
	}

	// A game over: error, and still a done.
	over := `pos game="Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 wQ\;bG1 bQ-;wA1 /wQ;bA1 bQ/;wG2 -wQ;bA2 bG1-;wG3 \wQ;bA3 bA2-;wB1 wG3/;bA1 wB1\"`
	s.send(over, "level depth=1", "go think")
	s.expect(`error message="go: the game is over: there is no move to search"`)
	s.expect(`done move=pass`)

	// pos of a variant the searcher does not play.
	cfg = testConfig(firstMove{}, true)
	cfg.Expansions = core.Base
	s2 := startSession(t, cfg)
	s2.send("pos variant=Base+M")
	s2.expect(`error message="pos: this engine does not play Base\+M games"`)
}

// A searcher that fails or answers an illegal move still ends its search
// with a done, after an error line.
func TestSessionSearcherFailures(t *testing.T) {
	s := startSession(t, testConfig(failing{}, true))
	s.send("pos variant=Base", "level depth=1", "go think")
	s.expect(`error message="search: the engine crashed"`)
	s.expect(done(moveIn(t, core.Base, nil, -1)))

	s2 := startSession(t, testConfig(illegal{}, true))
	s2.send("pos variant=Base", "level depth=1", "go think")
	s2.expect(`error message="search: the searcher answered an illegal move: .*"`)
	s2.expect(done(moveIn(t, core.Base, nil, -1)))

	cfg := testConfig(failing{}, false)
	cfg.Fallback = nil
	s3 := startSession(t, cfg)
	s3.send("pos variant=Base", "level depth=1", "go think")
	s3.expect(`error message="search: the engine crashed"`)
	s3.expect(done(moveIn(t, core.Base, nil, 0)))
}

// A command other than ping, ponder-hit and stop during a search stops it
// first; it is then handled after the search's done. While a search is
// being stopped, input waits, so ping's pong comes after the done.
func TestSessionCommandDuringSearch(t *testing.T) {
	s := startSession(t, testConfig(untilStopped{}, true))
	s.send("pos variant=Base", "level infinite", "go think")
	s.expect(`info .*`)
	s.send(`pos variant=Base moves="wS1"`, "level depth=1", "go think", "ping")
	s.expect(done(moveIn(t, core.Base, nil, 1)))
	s.expect("pong")
	s.send("stop", "ping")
	s.expect(done(moveIn(t, core.Base, []string{"wS1"}, 1)))
	s.expect("pong")
	s.quiet(50 * time.Millisecond)
}

// The end of input during a search stops it: exactly one done, and Run
// returns nil. So does quit, and whatever follows quit is not read.
func TestSessionEndOfInputMidSearch(t *testing.T) {
	for _, interruptible := range []bool{true, false} {
		var searcher engine.Searcher = untilStopped{}
		if !interruptible {
			rec := newStubborn(0)
			defer close(rec.release)
			searcher = rec
		}
		s := startSession(t, testConfig(searcher, interruptible))
		s.send("pos variant=Base", "level infinite", "go think", "ping")
		s.expect("pong")
		rest := s.close()
		if n := countDone(rest); n != 1 {
			t.Errorf("interruptible %v: %d done after the end of input, want 1: %q", interruptible, n, rest)
		}

		s = startSession(t, testConfig(searcher, interruptible))
		s.send("pos variant=Base", "level infinite", "go think", "quit", "ping", "go think")
		rest = s.close()
		if n := countDone(rest); n != 1 || strings.Contains(strings.Join(rest, "\n"), "pong") {
			t.Errorf("interruptible %v: after quit: %q, want one done and nothing else", interruptible, rest)
		}

		// A go that stops the search is answered too.
		s = startSession(t, testConfig(searcher, interruptible))
		s.send("pos variant=Base", "level infinite", "go think", `pos variant=Base moves="wS1"`, "go think", "ping")
		s.expect("done .*")
		s.expect("pong")
		rest = s.close()
		if n := countDone(rest); n != 1 {
			t.Errorf("interruptible %v: %d done after the end of input, want 1 (and one before): %q", interruptible, n, rest)
		}
	}
}

func countDone(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "done ") {
			n++
		}
	}
	return n
}

// Run returns when its context ends, answering the search first, and
// when its output fails.
func TestSessionCancelledAndBrokenOutput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	var out syncbuf.Buffer
	errc := make(chan error, 1)
	searcher := &begins{Searcher: untilStopped{}, began: make(chan struct{})}
	go func() { errc <- hub.NewSession(testConfig(searcher, true)).Run(ctx, inR, &out) }()
	io.WriteString(inW, "pos variant=Base\nlevel infinite\ngo think\n")
	select {
	case <-searcher.began:
	case <-time.After(5 * time.Second):
		t.Fatal("the search never began")
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil || countDone(strings.Split(out.String(), "\n")) != 1 {
			t.Errorf("Run = %v, output %q", err, out.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return when cancelled")
	}

	inR2, inW2 := io.Pipe()
	defer inW2.Close()
	outR, outW := io.Pipe()
	outR.Close()
	go func() { errc <- hub.NewSession(testConfig(untilStopped{}, true)).Run(context.Background(), inR2, outW) }()
	io.WriteString(inW2, "ping\n")
	select {
	case err := <-errc:
		if !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Run = %v, want the output's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return when its output failed")
	}
}

// twoLines reports two lines of a MultiPV search, the first legal move as
// line 1 and then the second as line 2, and then waits for release,
// deaf to stop, as a backend that cannot be interrupted does.
type twoLines struct{ release chan struct{} }

func (s twoLines) BestMove(_ context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	moves := legalMoves(g)
	report(engine.Progress{Move: moves[0], Depth: 1, PV: moves[:1], MultiPV: 1})
	report(engine.Progress{Move: moves[1], Depth: 1, PV: moves[1:2], MultiPV: 2})
	<-s.release
	return moves[0], nil
}

// TestSessionMultiPV: each line of a MultiPV search is an info line with
// its multipv=K, and a stop answered for a searcher that cannot be
// interrupted plays line 1's move, the best so far, not the line reported
// last.
func TestSessionMultiPV(t *testing.T) {
	sr := twoLines{release: make(chan struct{})}
	defer close(sr.release)
	s := startSession(t, testConfig(sr, false))
	s.send("pos variant=Base", "level move-time=60", "go think")
	s.expect(`info depth=1 time=[0-9.]+ pv=` + regexp.QuoteMeta(moveIn(t, core.Base, nil, 0)) + ` multipv=1`)
	s.expect(`info depth=1 time=[0-9.]+ pv=` + regexp.QuoteMeta(moveIn(t, core.Base, nil, 1)) + ` multipv=2`)
	s.send("stop")
	s.expect(done(moveIn(t, core.Base, nil, 0)))
}

package uhp_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/enginetest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// TestEngineInvalidUTF8: a command line that is not valid UTF-8 is
// answered with an err that quotes none of it, exit included, and is still
// told to OnCommand; an error's words that are not valid UTF-8 are written
// as valid UTF-8.
func TestEngineInvalidUTF8(t *testing.T) {
	var commands []string
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: enginetest.Garbling{},
		OnCommand: func(command string, _ time.Duration, err error) {
			if err != nil {
				commands = append(commands, command)
			}
		}})
	ctx := context.Background()
	for _, line := range []string{"play wS1\xff", "newgame Base+\xc3", "\xfe\xff", "exit \xe2\x82"} {
		var out bytes.Buffer
		if quit := e.Handle(ctx, line, &out); quit {
			t.Errorf("%q ended the session", line)
		}
		if got, want := out.String(), "err The command is not valid UTF-8.\nok\n"; got != want {
			t.Errorf("%q answered %q, want %q", line, got, want)
		}
	}
	if got, want := strings.Join(commands, " "), "play newgame \xfe\xff exit"; got != want {
		t.Errorf("OnCommand told of %q, want %q", got, want)
	}
	var out bytes.Buffer
	e.Handle(ctx, "newgame", &out)
	e.Handle(ctx, "bestmove depth 1", &out)
	if !utf8.Valid(out.Bytes()) || !strings.Contains(out.String(), "err the engine said \uFFFD") {
		t.Errorf("the searcher's error written as %q", out.String())
	}
}

// blocking searches until its context ends, and says when it starts and
// how it ended.
type blocking struct {
	started chan struct{}
	ended   chan error
}

func newBlocking() *blocking {
	return &blocking{started: make(chan struct{}, 10), ended: make(chan error, 10)}
}

func (b *blocking) BestMove(ctx context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	b.started <- struct{}{}
	<-ctx.Done()
	b.ended <- ctx.Err()
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0), nil
}

// pipeSession runs an engine on pipes, as a daemon runs a connection's.
type pipeSession struct {
	in   *io.PipeWriter
	inR  *io.PipeReader
	out  *bufio.Reader
	outR *io.PipeReader
	done chan error
}

func startPipeSession(t *testing.T, ctx context.Context, cfg uhp.Config) *pipeSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &pipeSession{in: inW, inR: inR, out: bufio.NewReader(outR), outR: outR, done: make(chan error, 1)}
	go func() {
		err := uhp.NewSession(cfg).Run(ctx, inR, outW)
		outW.Close()
		s.done <- err
	}()
	// The caller closes the connection once Run has returned.
	t.Cleanup(func() { inR.Close(); outR.Close() })
	return s
}

// answer reads output up to the next ok.
func (s *pipeSession) answer(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for {
		line, err := s.out.ReadString('\n')
		b.WriteString(line)
		if err != nil {
			t.Fatalf("reading an answer: %v after %q", err, b.String())
		}
		if line == "ok\n" {
			return b.String()
		}
	}
}

// wait returns Run's result, failing if it takes more than a few seconds.
func (s *pipeSession) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.done:
		return err
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

// readerGone waits for the goroutine that reads a session's input ahead
// to end.
func readerGone(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	buf := make([]byte, 1<<20)
	for {
		stacks := string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "readAhead).read") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the input's reader is still running:\n%s", stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestEngineCancelOnEnd: with CancelOnEnd, the end of the input cancels a
// search of hours at once, nothing read before it is answered after it,
// and Run returns; commands sent while the input is open are answered in
// order as ever.
func TestEngineCancelOnEnd(t *testing.T) {
	b := newBlocking()
	s := startPipeSession(t, context.Background(), uhp.Config{ID: "test", Searcher: b, CancelOnEnd: true})
	if got := s.answer(t); got != "id test\nok\n" {
		t.Fatalf("info %q", got)
	}
	io.WriteString(s.in, "newgame\nvalidmoves\n")
	if got := s.answer(t) + s.answer(t); got != "Base;NotStarted;White[1]\nok\nwS1;wB1;wG1;wA1\nok\n" {
		t.Fatalf("answers %q", got)
	}
	io.WriteString(s.in, "bestmove time 99999:00:00\ninfo\n")
	<-b.started
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(s.out)
		rest <- string(b)
	}()
	s.in.Close()
	select {
	case err := <-b.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the search ended with %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the search goes on after the input ended")
	}
	if err := s.wait(t); err != nil {
		t.Errorf("Run = %v", err)
	}
	if rest := <-rest; strings.Contains(rest, "id test") {
		t.Errorf("the info sent before the end was answered: %q", rest)
	}
	readerGone(t)
}

// TestEngineCancelOnEndContext: with CancelOnEnd, a ctx done ends Run while
// it waits for input; the reader ends once the caller closes the input.
func TestEngineCancelOnEndContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := startPipeSession(t, ctx, uhp.Config{ID: "test", Searcher: firstMove{}, CancelOnEnd: true})
	s.answer(t)
	cancel()
	if err := s.wait(t); !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	s.inR.Close()
	readerGone(t)
}

// TestEngineCancelOnEndBackPressure: lines sent ahead of a long command
// are held up to the line limit, and answered in order once it ends.
func TestEngineCancelOnEndBackPressure(t *testing.T) {
	b := newBlocking()
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: b, CancelOnEnd: true, MaxLine: 64})
	inR, inW := io.Pipe()
	defer inR.Close()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- e.Run(context.Background(), inR, &out) }()
	io.WriteString(inW, "newgame\nbestmove time 01:00:00\n")
	<-b.started
	// 20,000 commands of 9 bytes: far more than 64 bytes or 64 lines
	// held, and than the 64 KiB of the reader's buffer, so the writer
	// waits for the session to take them.
	written := make(chan struct{})
	go func() {
		io.WriteString(inW, strings.Repeat("newgame \n", 20000)+"info\n")
		close(written)
	}()
	select {
	case <-written:
		t.Fatal("20,000 lines were taken while a command ran")
	case <-time.After(100 * time.Millisecond):
	}
	e.Interrupt()
	<-written
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The end came after the lines, so they may not all be answered; those
	// that were came in order.
	if n := strings.Count(out.String(), "Base;NotStarted;White[1]\n"); n < 2 {
		t.Errorf("%d newgames answered:\n%s", n, out.String())
	}
}

// TestEnginePerftCancel: perft is stopped by Interrupt within about a
// second, however deep it was asked for.
func TestEnginePerftCancel(t *testing.T) {
	e := uhp.NewSession(uhp.Config{ID: "test", Expansions: core.AllExpansions, Searcher: firstMove{}, PerftThreads: 1})
	ctx := context.Background()
	var out bytes.Buffer
	e.Handle(ctx, "newgame Base+MLP", &out)
	out.Reset()
	time.AfterFunc(200*time.Millisecond, func() { e.Interrupt() })
	start := time.Now()
	e.Handle(ctx, "perft 12", &out)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("perft stopped %s after it began", took)
	}
	if !strings.HasSuffix(out.String(), "err context canceled\nok\n") {
		t.Errorf("perft interrupted answered %q", out.String())
	}
}

// TestEnginePerftSlot: perft takes its slot before counting and releases
// it after; a slot refused is the answer.
func TestEnginePerftSlot(t *testing.T) {
	var (
		mu     sync.Mutex
		events []string
		refuse error
	)
	log := func(s string) { mu.Lock(); events = append(events, s); mu.Unlock() }
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: firstMove{}, PerftThreads: 2,
		PerftSlot: func(ctx context.Context) (context.Context, func(), error) {
			if ctx == nil || ctx.Err() != nil {
				t.Error("the slot was asked for without a live context")
			}
			if refuse != nil {
				return nil, nil, refuse
			}
			log("take")
			return ctx, func() { log("release") }, nil
		}})
	ctx := context.Background()
	var out bytes.Buffer
	e.Handle(ctx, "newgame", &out)
	out.Reset()
	e.Handle(ctx, "perft 3", &out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[2], "depth=3 nodes=") || lines[3] != "ok" {
		t.Errorf("perft 3 answered %q", out.String())
	}
	if got := strings.Join(events, " "); got != "take release" {
		t.Errorf("slot events %q", got)
	}
	refuse = errors.New("The engines are all busy; try again later.")
	out.Reset()
	e.Handle(ctx, "perft 2", &out)
	if got, want := out.String(), "err The engines are all busy; try again later.\nok\n"; got != want {
		t.Errorf("perft with its slot refused answered %q, want %q", got, want)
	}
}

// TestEnginePerftSlotDeadline: a perft longer than the deadline of its
// slot's context is stopped and answered with an error that says why.
func TestEnginePerftSlotDeadline(t *testing.T) {
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: firstMove{}, PerftThreads: 1,
		PerftSlot: func(ctx context.Context) (context.Context, func(), error) {
			ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			return ctx, cancel, nil
		}})
	var out bytes.Buffer
	e.Handle(context.Background(), "newgame Base", &out)
	out.Reset()
	start := time.Now()
	e.Handle(context.Background(), "perft 9", &out)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("perft 9 ran %v past a 200 ms limit", took)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if last := lines[len(lines)-2]; !strings.HasPrefix(last, "err Unable to calculate perft(") || !strings.HasSuffix(last, "this engine's limit.") {
		t.Errorf("perft 9 cut short answered %q", out.String())
	}
}

// TestEngineDrain: with CancelOnEnd, Drain ends Run once the command in
// progress is answered, without cancelling it, and at once when none is.
func TestEngineDrain(t *testing.T) {
	drain := make(chan struct{})
	slow := &firstMoveAfter{d: 300 * time.Millisecond, started: make(chan struct{})}
	s := startPipeSession(t, context.Background(), uhp.Config{ID: "test", Searcher: slow, CancelOnEnd: true, Drain: drain})
	s.answer(t)
	io.WriteString(s.in, "newgame\nbestmove\n")
	s.answer(t)
	select {
	case <-slow.started:
	case <-time.After(3 * time.Second):
		t.Fatal("the search never began")
	}
	close(drain)
	if got := s.answer(t); got != "wS1\nok\n" {
		t.Errorf("the search in progress at the drain answered %q", got)
	}
	if err := s.wait(t); err != nil {
		t.Errorf("Run = %v", err)
	}

	idle := startPipeSession(t, context.Background(), uhp.Config{ID: "test", Searcher: firstMove{}, CancelOnEnd: true, Drain: drain})
	idle.answer(t)
	if err := idle.wait(t); err != nil {
		t.Errorf("Run of an idle session at the drain = %v", err)
	}
}

// firstMoveAfter answers with the first legal move d after its search
// began (closing started, once), unless cancelled first, when it answers
// with an error: the drain comes while it thinks.
type firstMoveAfter struct {
	d       time.Duration
	started chan struct{}
	once    sync.Once
}

func (f *firstMoveAfter) BestMove(ctx context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	f.once.Do(func() { close(f.started) })
	select {
	case <-time.After(f.d):
	case <-ctx.Done():
		return core.NoMove, ctx.Err()
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0), nil
}

package uhp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// analysing deepens until its context ends, reporting each depth every
// few milliseconds, as a searcher given no limit does; it keeps the limits
// it was given.
type analysing struct {
	mu     sync.Mutex
	limits []engine.Limit
}

func (a *analysing) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	a.mu.Lock()
	a.limits = append(a.limits, limit)
	a.mu.Unlock()
	var l core.MoveList
	g.GenerateMoves(&l)
	for d := 1; ; d++ {
		if report != nil {
			report(engine.Progress{Move: l.At(d % l.Len()), Depth: d, Score: engine.EvalScore(d), PV: []core.Move{l.At(d % l.Len())}})
		}
		select {
		case <-ctx.Done():
			return l.At(d % l.Len()), nil
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (a *analysing) limitsSeen() []engine.Limit {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]engine.Limit(nil), a.limits...)
}

// TestBestMoveInfinite: bestmove infinite asks the searcher for the zero
// limit, prints its reports as it deepens (ReportIntermediateBestMoves
// being off), and ends, with the move of its last report, only when a stop
// line comes; the stop, answered in its turn, has nothing left to stop.
// On standard input (read ahead too) and on a daemon's connection alike.
func TestBestMoveInfinite(t *testing.T) {
	for _, cancelOnEnd := range []bool{false, true} {
		a := &analysing{}
		s := startPipeSession(t, context.Background(), uhp.Config{ID: "test", Searcher: a, CancelOnEnd: cancelOnEnd})
		// A session that never answers fails the test rather than hang it.
		watchdog := time.AfterFunc(10*time.Second, func() { s.outR.CloseWithError(errors.New("nothing within 10s")) })
		defer watchdog.Stop()
		s.answer(t)
		io.WriteString(s.in, "newgame\nbestmove infinite\n")
		if got := s.answer(t); got != "Base;NotStarted;White[1]\nok\n" {
			t.Fatalf("newgame answered %q", got)
		}
		var reports []string
		for len(reports) < 4 {
			line, err := s.out.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, strings.TrimSuffix(line, "\n"))
		}
		for i, r := range reports {
			if !strings.Contains(r, fmt.Sprintf(";%d;0.0%d;", i+1, i+1)) {
				t.Errorf("report %d is %q, want depth %d", i+1, r, i+1)
			}
		}
		io.WriteString(s.in, "stop\n")
		answer := strings.Split(strings.TrimSuffix(s.answer(t), "\n"), "\n")
		if len(answer) < 2 || answer[len(answer)-1] != "ok" {
			t.Fatalf("cancelOnEnd %v: the search stopped answered %q", cancelOnEnd, answer)
		}
		move := answer[len(answer)-2]
		last := reports[len(reports)-1]
		if len(answer) > 2 {
			last = answer[len(answer)-3]
		}
		if !strings.HasPrefix(last, move+";") {
			t.Errorf("cancelOnEnd %v: answered %q, not the move of the last report %q", cancelOnEnd, move, last)
		}
		if got := s.answer(t); got != "ok\n" {
			t.Errorf("cancelOnEnd %v: stop in its turn answered %q", cancelOnEnd, got)
		}
		if got := a.limitsSeen(); len(got) != 1 || !got[0].Infinite() {
			t.Errorf("cancelOnEnd %v: the searcher was asked for %+v, want the zero limit", cancelOnEnd, got)
		}
		s.in.Close()
		if err := s.wait(t); err != nil {
			t.Errorf("Run = %v", err)
		}
	}
}

// TestStopRightBehind: a stop sent right behind a bestmove, read before the
// search starts (the whole script is there at once), still stops it; the
// commands after the stop are answered as ever, and a stop with arguments
// is no stop.
func TestStopRightBehind(t *testing.T) {
	b := newBlocking()
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: b})
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- e.Run(context.Background(), strings.NewReader("newgame\nbestmove infinite\nstop\nvalidmoves\nstop now\n"), &out)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		e.Interrupt()
		t.Fatal("the search went on after stop")
	}
	want := "id test\nok\nBase;NotStarted;White[1]\nok\nwS1\nok\nok\nwS1;wB1;wG1;wA1\nok\nerr Invalid command. Try 'help' to see a list of valid commands.\nok\n"
	if got := out.String(); got != want {
		t.Errorf("answers %q, want %q", got, want)
	}
}

// TestBestMoveLimits: the limits bestmove asks for; depth 0, which would
// look no move ahead, is searched as depth 1, not as the zero limit, which
// would search until stopped.
func TestBestMoveLimits(t *testing.T) {
	a := &recording{}
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: a})
	ctx := context.Background()
	var out bytes.Buffer
	e.Handle(ctx, "newgame", &out)
	for _, c := range []struct {
		args string
		want engine.Limit
	}{
		{"depth 0", engine.Limit{Depth: 1}},
		{"depth 3", engine.Limit{Depth: 3}},
		{"time 00:00:02", engine.Limit{Time: 2 * time.Second}},
		{"INFINITE", engine.Limit{}},
		{"", engine.Limit{Time: 5 * time.Second}},
	} {
		out.Reset()
		e.Handle(ctx, strings.TrimSpace("bestmove "+c.args), &out)
		if got := a.last; got != c.want || !strings.HasSuffix(out.String(), "wS1\nok\n") {
			t.Errorf("bestmove %s: limit %+v, answered %q; want %+v", c.args, got, out.String(), c.want)
		}
	}
	for _, bad := range []string{"bestmove infinite 3", "bestmove forever"} {
		out.Reset()
		e.Handle(ctx, bad, &out)
		if !strings.HasPrefix(out.String(), "err ") {
			t.Errorf("%s answered %q, want an err", bad, out.String())
		}
	}
}

// recording answers at once with the first legal move and keeps the
// limit it was asked for.
type recording struct{ last engine.Limit }

func (r *recording) BestMove(_ context.Context, g *core.Game, limit engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	r.last = limit
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0), nil
}

// threeLines reports two iterations of a MultiPV search of three lines,
// each from the third line to the first, as hivebridge's searcher does.
type threeLines struct{}

func (threeLines) BestMove(_ context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	for d := 1; d <= 2; d++ {
		for k := 3; k >= 1; k-- {
			m := l.At(k - 1)
			pv := []core.Move{m}
			if d == 2 {
				c := g.Clone()
				c.Play(m)
				var replies core.MoveList
				c.GenerateMoves(&replies)
				pv = append(pv, replies.At(0))
			}
			report(engine.Progress{Move: m, Depth: d, Score: engine.EvalScore(50 - 10*k), PV: pv, MultiPV: k, Nodes: 99})
		}
	}
	return l.At(0), nil
}

// TestMultiPVReports: with ReportIntermediateBestMoves, each line of a
// MultiPV search is printed as the reference engine's report followed by
// the field multipv=K, and ParseProgress reads each back as it was
// reported (less the node count, which the form has not).
func TestMultiPVReports(t *testing.T) {
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: threeLines{}})
	ctx := context.Background()
	var out bytes.Buffer
	e.Handle(ctx, "options set ReportIntermediateBestMoves True", &out)
	e.Handle(ctx, "newgame Base;InProgress;White[2];wS1;bS1 wS1-", &out)
	out.Reset()
	e.Handle(ctx, "bestmove depth 2", &out)
	want := []string{
		`wQ \wS1;1;0.20;wQ \wS1;multipv=3`,
		`wQ -wS1;1;0.30;wQ -wS1;multipv=2`,
		`wQ /wS1;1;0.40;wQ /wS1;multipv=1`,
		`wQ \wS1;2;0.20;wQ \wS1;bQ bS1-;multipv=3`,
		`wQ -wS1;2;0.30;wQ -wS1;bQ bS1-;multipv=2`,
		`wQ /wS1;2;0.40;wQ /wS1;bQ bS1-;multipv=1`,
		`wQ /wS1`,
		`ok`,
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("bestmove printed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	g := load(t, "Base;InProgress;White[2];wS1;bS1 wS1-")
	var reported []engine.Progress
	threeLines{}.BestMove(ctx, g, engine.Limit{}, func(p engine.Progress) { reported = append(reported, p) })
	for i, line := range got[:6] {
		p, err := uhp.ParseProgress(line, g)
		want := reported[i]
		want.Nodes = 0
		if err != nil || !reflect.DeepEqual(p, want) {
			t.Errorf("ParseProgress(%q) = %+v, %v; want %+v", line, p, err, want)
		}
	}
	for _, bad := range []string{"wQ -wS1;1;0.40;wQ -wS1;multipv=0", "wQ -wS1;1;0.40;multipv=x"} {
		if p, err := uhp.ParseProgress(bad, g); err == nil {
			t.Errorf("ParseProgress(%q) = %+v, want an error", bad, p)
		}
	}
}

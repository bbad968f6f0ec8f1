package uhp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// firstMove is a searcher that answers at once with the first legal move,
// so that tests of the session do not depend on a real search.
type firstMove struct{}

func (firstMove) BestMove(ctx context.Context, g *core.Game, _ engine.Limit, report func(engine.Progress)) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	if report != nil {
		report(engine.Progress{Move: l.At(0)})
	}
	return l.At(0), nil
}

func newTestEngine(dialect uhp.Dialect) *uhp.Session {
	return uhp.NewSession(uhp.Config{ID: "test", Expansions: core.AllExpansions, Searcher: firstMove{}, Dialect: dialect, MaxPerftDepth: 2})
}

// run feeds input to a new engine and returns what it printed.
func run(t testing.TB, dialect uhp.Dialect, input string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	if err := newTestEngine(dialect).Run(ctx, strings.NewReader(input), &out); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

// commandLines counts the lines of input that are commands (not blank), up
// to an exit, as the engine's line reader splits them.
func commandLines(input string) (n int) {
	for _, line := range strings.Split(input, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		// A line that is not valid UTF-8 is answered, exit or not.
		if k := strings.ToLower(fields[0]); (k == "exit" || k == "quit") && utf8.ValidString(line) {
			break
		}
		n++
	}
	return n
}

// FuzzEngine feeds arbitrary lines to an engine session: it must never
// crash or hang, and must answer every command, and only commands, with
// exactly one ok line at the end.
func FuzzEngine(f *testing.F) {
	for _, seed := range []string{
		"info\nnewgame\nplay wS1\nvalidmoves\nbestmove depth 1\nundo\n",
		"newgame Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-\nvalidmoves\nperft 2\n",
		"newgame Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1\nplay wQ\npass\nundo 9\n",
		"options\noptions set Threads 3\noptions get RepetitionDraw\noptions set X Y\n",
		"\x00\r\n\t play \t\r\nbestmove time 00:00:01\nbestmove depth -3\nhistory\n",
		"newgame\nplay WS1[0,0,0]\nplay BS1[1,-1,0]\nhistory\nexit\nplay x\n",
		"newgame Base+MLP\nbestmove infinite\nstop\nstop now\nbestmove depth 0\nSTOP\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		for _, dialect := range []uhp.Dialect{uhp.Standard, uhp.Early} {
			out := run(t, dialect, input)
			oks := 0
			for _, line := range strings.Split(out, "\n") {
				if line == "ok" {
					oks++
				}
			}
			if want := 1 + commandLines(input); oks != want {
				t.Fatalf("dialect %d: %d ok lines for %d commands (and info)\ninput: %q\noutput:\n%s", dialect, oks, want-1, input, out)
			}
		}
	})
}

// TestEngineAnswersAfterInputCloses checks that commands already read are
// answered after the input ends, as viewers that send bestmove and close
// their end at once expect.
func TestEngineAnswersAfterInputCloses(t *testing.T) {
	out := run(t, uhp.Standard, "newgame\nbestmove time 00:00:01")
	want := "id test\n" + "Mosquito;Ladybug;Pillbug" + "\nok\nBase;NotStarted;White[1]\nok\nwS1\nok\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

// TestEngineLongLine checks that a line longer than the limit is refused
// with one err line and the session goes on.
func TestEngineLongLine(t *testing.T) {
	out := run(t, uhp.Standard, "newgame "+strings.Repeat("x", 2<<20)+"\nnewgame\n")
	want := "id test\n" + "Mosquito;Ladybug;Pillbug" + "\nok\nerr The command is longer than 1048576 bytes.\nok\nBase;NotStarted;White[1]\nok\n"
	if out != want {
		t.Fatalf("got\n%.300s\nwant\n%s", out, want)
	}
}

// TestEngineKeepsGameOnError checks that a refused command leaves the game
// as it was, spelling included.
func TestEngineKeepsGameOnError(t *testing.T) {
	out := run(t, uhp.Standard, "newgame Base;InProgress;Black[1];WS1\nnewgame Base;NotStarted;White[1];wQ\nplay bQ ws1-\nplay bS1   wS1/\n")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if got, want := lines[len(lines)-2], "Base;InProgress;White[2];WS1;bS1 wS1/"; got != want {
		t.Fatalf("last GameString %q, want %q (viewer's spellings kept)\n%s", got, want, out)
	}
}

// failing is a searcher that never finds a move.
type failing struct{}

func (failing) BestMove(context.Context, *core.Game, engine.Limit, func(engine.Progress)) (core.Move, error) {
	return core.NoMove, errors.New("engine crashed")
}

// TestRemoteOpponentFails checks that a backend that cannot reply in a
// remote game forfeits it, and the session says so and goes on.
func TestRemoteOpponentFails(t *testing.T) {
	var out bytes.Buffer
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: failing{}})
	err := e.Run(context.Background(), strings.NewReader("newgame remote\nplay wA1\nvalidmoves\nnewgame remote Black\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := "id test\nok\nBase;NotStarted;White[1]\nok\n" +
		"Base;InProgress;Black[1];wA1\nBase;WhiteWins;Black[1];wA1\nerr The remote player could not move and forfeits: engine crashed\nok\n" +
		"err The game is over. Try 'newgame' to start a new game.\nok\n" +
		"Base;BlackWins;White[1]\nerr The remote player could not move and forfeits: engine crashed\nok\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestBeforeCommand: the hook runs before each command is handled, so
// that a keeper of the game can wait there for the change it was told of
// last: every change is told after the hook of its own command.
func TestBeforeCommand(t *testing.T) {
	var (
		before int
		seen   []string // each change, with the hooks run before it
	)
	e := uhp.NewSession(uhp.Config{ID: "test", Searcher: firstMove{},
		BeforeCommand: func() { before++ },
		Record: func(ev uhp.GameEvent) {
			seen = append(seen, fmt.Sprintf("%d:%s", before, ev.Move))
		}})
	ctx := context.Background()
	var out bytes.Buffer
	for _, line := range []string{"info", "newgame Base", "validmoves", "play wA1", "", "play bA1 wA1-"} {
		e.Handle(ctx, line, &out)
	}
	if got, want := strings.Join(seen, " "), "2: 4:wA1 5:bA1 wA1-"; got != want {
		t.Errorf("changes after hooks %q, want %q (a blank line is no command)", got, want)
	}
}

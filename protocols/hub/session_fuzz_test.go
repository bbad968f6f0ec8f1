package hub_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

// quick cannot be interrupted, and answers the first legal move after a
// millisecond, whatever its limit: the fuzz target's stand-in for an engine
// process.
type quick struct{}

func (quick) BestMove(_ context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	time.Sleep(time.Millisecond) // an engine's answer takes a while: a stop or quit may come meanwhile
	return legalMoves(g)[0], nil
}

// gosBeforeQuit counts the go commands of input that a session handles:
// those that read as go, up to the first quit. A line that is not valid
// UTF-8 is none of them: the session refuses it.
func gosBeforeQuit(input string) int {
	n := 0
	for _, line := range strings.Split(input, "\n") {
		if !utf8.ValidString(line) {
			continue
		}
		m, err := hub.ReadCommand(strings.TrimSuffix(line, "\r"))
		if err != nil {
			continue
		}
		if _, ok := m.(hub.Quit); ok {
			break
		}
		if _, ok := m.(hub.Go); ok {
			n++
		}
	}
	return n
}

// FuzzHubSession feeds arbitrary lines to sessions of an interruptible and
// an uninterruptible searcher: neither may crash or hang, every line they
// print must read as an answer, and every go must get exactly one done.
func FuzzHubSession(f *testing.F) {
	for _, s := range []string{
		"hub\nset-param name=variant value=Base+MLP\ninit\npos\nlevel depth=2\ngo think\n",
		"pos variant=Base+MLP moves=\"wS1;bG1 -wS1\"\nlevel infinite\ngo analyze\nping\nstop\nping\n",
		"pos variant=Base\nlevel move-time=0.01\ngo ponder\nponder-hit\nping\n",
		"pos variant=Base\nlevel infinite\ngo think\npos variant=Base+M\ngo think\nquit\ngo think\n",
		"level time=abc\npos variant=Base moves=\"wS1;wS2 wS1-\"\ngo think\n",
		"pos game=\"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 wQ\\;bG1 bQ-;wA1 /wQ;bA1 bQ/;wG2 -wQ;bA2 bG1-;wG3 \\wQ;bA3 bA2-;wB1 wG3/;bA1 wB1\\\"\ngo think\n",
		"new-game\nlevel moves=2 time=0.02 inc=0.001\ngo think\ngo think\r\ngo think ponder\ngo\nstop\nstop\n",
		"\"\nx=\ngo think\x00\nset-param name=x\nset-param name=ponder value=maybe\nlevel nodes=10\ngo think",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		want := gosBeforeQuit(input)
		for _, interruptible := range []bool{true, false} {
			var searcher engine.Searcher = untilStopped{}
			if !interruptible {
				searcher = quick{}
			}
			cfg := testConfig(searcher, interruptible)
			cfg.StopGrace = 100 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			var out bytes.Buffer
			err := hub.NewSession(cfg).Run(ctx, strings.NewReader(input), &out)
			expired := ctx.Err()
			cancel()
			if err != nil || expired != nil {
				t.Fatalf("interruptible %v: Run = %v (context %v) on %q", interruptible, err, expired, input)
			}
			dones := 0
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if line == "" && out.Len() == 0 {
					break
				}
				m, err := hub.ReadAnswer(line)
				if err != nil {
					t.Fatalf("interruptible %v: the session printed %q, which does not read: %v", interruptible, line, err)
				}
				if _, ok := m.(hub.Unknown); ok && !errors.Is(err, hub.ErrEmptyLine) {
					t.Fatalf("interruptible %v: the session printed %q, which is no answer", interruptible, line)
				}
				if _, ok := m.(hub.Done); ok {
					dones++
				}
			}
			if dones != want {
				t.Fatalf("interruptible %v: %d done for %d go on %q:\n%s", interruptible, dones, want, input, out.String())
			}
		}
	})
}

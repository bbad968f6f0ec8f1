package uhp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// longEarlyGame plays plies random legal moves in an early-dialect session
// (seeded, so the same game every time) and returns its GameString, every
// move in absolute cube notation.
func longEarlyGame(tb testing.TB, plies int) string {
	tb.Helper()
	e := newTestEngine(uhp.Early)
	ctx := context.Background()
	do := func(command string) []string {
		var out bytes.Buffer
		e.Handle(ctx, command, &out)
		return strings.Split(strings.TrimSuffix(out.String(), "\nok\n"), "\n")
	}
	rng := rand.New(rand.NewPCG(11, 22))
	game := do("newgame Base+MLP")[0]
	for played := 0; played < plies; {
		moves := strings.Split(do("validmoves")[0], ";")
		after := do("play " + moves[rng.IntN(len(moves))])[0]
		if !strings.Contains(after, ";InProgress;") {
			do("undo") // keep the game going
			continue
		}
		game = after
		played++
	}
	return game
}

// BenchmarkEarlyLongGame loads games of 100, 200 and 400 plies in the
// early dialect, where every move is read against the absolute positions
// of the pieces (the time should grow with the length, not its square),
// and then, in the longest, answers validmoves and plays and takes back a
// move, as a viewer of a long game does at every turn.
func BenchmarkEarlyLongGame(b *testing.B) {
	ctx := context.Background()
	var longest string
	for _, plies := range []int{100, 200, 400} {
		game := longEarlyGame(b, plies)
		longest = game
		b.Run(fmt.Sprintf("newgame/plies=%d", plies), func(b *testing.B) {
			e := newTestEngine(uhp.Early)
			for b.Loop() {
				e.Handle(ctx, "newgame "+game, io.Discard)
			}
		})
	}
	b.Run("turn/plies=400", func(b *testing.B) {
		e := newTestEngine(uhp.Early)
		e.Handle(ctx, "newgame "+longest, io.Discard)
		var out bytes.Buffer
		e.Handle(ctx, "validmoves", &out)
		move := strings.Split(strings.TrimSuffix(out.String(), "\nok\n"), ";")[0]
		for b.Loop() {
			e.Handle(ctx, "validmoves", io.Discard)
			e.Handle(ctx, "play "+move, io.Discard)
			e.Handle(ctx, "undo", io.Discard)
		}
	})
}

// TestLayoutFollowsGame plays and takes back random moves through one
// Layout and checks, after each, that it agrees with a Layout measured
// afresh by replaying the game: the same history, the same spelling of
// every legal move, each of which reads back as itself.
func TestLayoutFollowsGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := core.NewGame(core.AllExpansions)
	l := uhp.LayoutOf(g)
	var moves core.MoveList
	for step := range 400 {
		if g.MovesPlayed() > 0 && (g.Over() || rng.IntN(4) == 0) {
			l.Undo()
		} else {
			g.GenerateMoves(&moves)
			l.Play(moves.At(rng.IntN(moves.Len())))
		}
		fresh := uhp.LayoutOf(g.Clone())
		if l.History() != fresh.History() {
			t.Fatalf("step %d: history %q, measured afresh %q", step, l.History(), fresh.History())
		}
		if g.Over() {
			continue
		}
		g.GenerateMoves(&moves)
		for _, m := range moves.Moves() {
			got, want := l.FormatMove(m), fresh.FormatMove(m)
			if got != want {
				t.Fatalf("step %d: %s written %q, measured afresh %q", step, uhp.FormatMove(m, g), got, want)
			}
			if back, err := l.ParseMove(got); err != nil || back != m {
				t.Fatalf("step %d: %q reads back as %v, %v", step, got, back, err)
			}
		}
	}
	if g.MovesPlayed() < 20 {
		t.Errorf("the walk reached only %d moves", g.MovesPlayed())
	}
}

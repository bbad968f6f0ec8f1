package core_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// TestPerftContextCounts checks PerftContext against the published counts
// of every game type's start position, on one thread and on three, and
// against Perft on middlegame positions, where the tree is cut much
// wider.
func TestPerftContextCounts(t *testing.T) {
	ctx := context.Background()
	maxDepth := 5
	if testing.Short() || raceDetector {
		maxDepth = 4
	}
	for _, row := range readPerftTable(t) {
		if row.depth > maxDepth {
			continue
		}
		for _, threads := range []int{1, 3} {
			got, err := core.NewGame(row.gameType).PerftContext(ctx, row.depth, threads)
			if err != nil || got != row.nodes {
				t.Errorf("PerftContext(%s, %d, %d threads) = %d, %v; want %d", row.name, row.depth, threads, got, err, row.nodes)
			}
		}
	}
	for i, g := range midgamePositions(t, 4) {
		for _, depth := range []int{2, 3} {
			want := g.Perft(depth)
			for _, threads := range []int{1, 2} {
				got, err := g.PerftContext(ctx, depth, threads)
				if err != nil || got != want {
					t.Errorf("midgame %d: PerftContext(%d, %d threads) = %d, %v; want %d", i, depth, threads, got, err, want)
				}
			}
		}
	}
}

// TestPerftContextCancelled: a perft that would run for many minutes (the
// start of Base+MLP at depth 9, some 10^12 leaves) ends within about a
// second of its context being cancelled, on one thread as on several, and
// leaves the game as it was; an already cancelled context counts nothing.
func TestPerftContextCancelled(t *testing.T) {
	for _, threads := range []int{1, 2} {
		t.Run(strconv.Itoa(threads), func(t *testing.T) {
			g := core.NewGame(core.AllExpansions)
			g.Play(mustFirstMove(g))
			hash := g.Hash()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			start := time.Now()
			n, err := g.PerftContext(ctx, 9, threads)
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("returned %s after the cancellation", took-100*time.Millisecond)
			}
			if !errors.Is(err, context.Canceled) || n != 0 {
				t.Errorf("PerftContext = %d, %v; want 0, context.Canceled", n, err)
			}
			if g.Hash() != hash || g.Ply() != 1 {
				t.Error("the game was left changed")
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := core.NewGame(core.Base).PerftContext(ctx, 2, 1); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("PerftContext with a cancelled context = %d, %v", n, err)
	}
}

// mustFirstMove returns the first legal move of g.
func mustFirstMove(g *core.Game) core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0)
}

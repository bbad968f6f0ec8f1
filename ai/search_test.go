package ai_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Positions found by random play (fixed seeds) and kept as GameStrings.
const (
	// winInOne: Black to move has exactly one move, of 69, that
	// surrounds the White Queen.
	winInOne = `Base;InProgress;Black[12];wB1;bB1 -wB1;wG1 wB1-;bA1 /bB1;wQ wG1/;bB2 /bA1;wB2 wQ\;bQ \bB1;wG2 wB2/;bA2 bB2\;wA1 \wQ;bQ \wB1;wA1 bA2\;bQ \bB1;wG3 wG2/;bG1 \bQ;wA1 \bG1;bA2 wG2\;wA1 \wQ;bA2 /bQ;wA2 wG3/;bG2 /bB2;wS1 -wG3`
	// threat: White threatens to surround the Black Queen, and exactly
	// one of Black's 48 moves leaves White no winning reply.
	threat = `Base;InProgress;Black[32];wS1;bG1 /wS1;wG1 wS1/;bG2 -bG1;wS2 wG1\;bQ bG2\;wQ wS2\;bG3 bG1\;wB1 -wG1;bS1 \bG2;wA1 \wG1;bB1 \bS1;wA1 /bS1;bS2 \bB1;wA2 wS2/;bQ wA1\;wA1 wA2/;bA1 /bQ;wA1 /bS2;bA2 bB1/;wB2 \wA2;bA1 -wB2;wQ wS1\;bB2 bQ\;wB2 wG1;bA2 -wA1;wA2 bB1/;bA1 /bG3;wA2 bB2\;bA1 /bB2;wA2 /bA1;bA2 \wB1;wA1 \bA2;bA3 bG2\;wA1 /bQ;bA2 /wA1;wA1 wS2/;bS2 /bS1;wB2 wB1;bA2 wA1\;wA2 wS2\;bA1 /bS2;wA2 bA2-;bB1 -wB2;wA2 -bA1;bG2 bA1\;wQ bG3-;bA2 wA1/;wA2 \bA2;bA1 -wA2;wB2 /bA1;bA2 -bB1;wA1 /bS2;bG1 bG3\;wA3 wS2-;bA2 wA2/;wA3 -bS1;bA2 -wA1;wA3 wS2-;bA2 bB2\;wA2 wA3-;bA1 /bG2;wA2 wQ-`
	// lost: every move of Black's lets White surround the Black Queen at
	// once, and some surround it themselves (from a match of the native
	// engine, depth 2 against depth 1).
	lost = `Base;InProgress;Black[22];wA1;bS1 /wA1;wQ wA1-;bQ bS1\;wS1 \wA1;bB1 -bS1;wS1 -bB1;bB2 bB1\;wS2 \wA1;bB2 wS1\;wS1 bB2\;bA1 -bB1;wS1 bQ\;bA1 wQ/;wB1 /wS1;bA2 bB2\;wB2 wS1-;bA2 wQ\;wB1 /bQ;bA3 -bB1;wB2 /bA2;bA3 -bA1;wS2 bA1/;bA3 \wA1;wG1 wB1\;bS2 -bB1;wG2 /wB1;bS2 bB2\;wB2 bQ;bB1 bS1;wB2 bB1;bA3 -bA1;wG1 /bA2;bA3 \wA1;wA2 wB1\;bG1 /bB2;wA2 bA2-;bG1 wG1\;wG3 wB1\;bG2 /bB2;wG3 /wB2`
	// oneMove: Black has a single legal move.
	oneMove = `Base;InProgress;Black[13];wS1;bS1 \wS1;wA1 /wS1;bB1 bS1/;wA2 wS1-;bQ bB1-;wQ /wA1;bB2 -bB1;wS2 wQ\;bS2 -bB2;wA2 wS2-;bA1 \bS2;wA2 wA1\;bA2 -bA1;wA2 bQ-;bG1 -bA2;wS2 wS1-;bG2 -bG1;wA2 \bB2;bG3 bQ/;wA2 -wQ;bA3 bG3/;wA2 -bG3;bA3 bG3-;wA2 bA3\`
)

func winFor(c core.Color) core.Result {
	if c == core.White {
		return core.WhiteWins
	}
	return core.BlackWins
}

// winningMoves returns the moves of g that win at once.
func winningMoves(g *core.Game) []core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	me := g.ToMove()
	var wins []core.Move
	for _, m := range l.Moves() {
		g.Play(m)
		if g.Result() == winFor(me) {
			wins = append(wins, m)
		}
		g.Undo()
	}
	return wins
}

// randomPositions plays n games of type t by uniformly random legal moves
// (fixed seed) and returns a position of each, between minPly and maxPly
// plies in and still in progress.
func randomPositions(tb testing.TB, t core.GameType, n, minPly, maxPly int, seed uint64) []*core.Game {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(t)))
	var out []*core.Game
	var l core.MoveList
	for len(out) < n {
		g := core.NewGame(t)
		target := minPly + rng.IntN(maxPly-minPly+1)
		for g.Ply() < target && !g.Over() {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		if !g.Over() {
			out = append(out, g)
		}
	}
	return out
}

func describe(g *core.Game, m core.Move) string {
	return uhp.FormatMove(m, g)
}

func describeGame(g *core.Game) string {
	gs, err := uhp.Describe(g)
	if err != nil {
		return err.Error()
	}
	return gs.String()
}

func TestWinInOne(t *testing.T) {
	g := uhptest.Load(t, winInOne)
	if len(winningMoves(g)) != 1 {
		t.Fatalf("position has %d winning moves, want 1", len(winningMoves(g)))
	}
	for _, lim := range []ai.Limits{{Depth: 1}, {Depth: 3}, {Time: 200 * time.Millisecond}} {
		s := ai.New(1, 16)
		info := s.Search(context.Background(), g, lim, nil)
		g.Play(info.Move)
		if g.Result() != winFor(core.Black) {
			t.Errorf("%+v: %s does not win (result %v)", lim, describe(g, info.Move), g.Result())
		}
		g.Undo()
		if info.Score != ai.MateScore-1 {
			t.Errorf("%+v: score %d, want a win in one (%d)", lim, info.Score, ai.MateScore-1)
		}
	}
}

func TestStopsImmediateLoss(t *testing.T) {
	g := uhptest.Load(t, threat)
	var l core.MoveList
	g.GenerateMoves(&l)
	safe := 0
	for _, m := range l.Moves() {
		g.Play(m)
		if len(winningMoves(g)) == 0 {
			safe++
		}
		g.Undo()
	}
	if safe != 1 || l.Len() < 10 {
		t.Fatalf("position has %d safe moves of %d, want 1 of many", safe, l.Len())
	}
	for _, lim := range []ai.Limits{
		{Depth: 2}, {Depth: 3}, {Time: 300 * time.Millisecond},
		{Time: time.Millisecond}, {Time: time.Nanosecond},
	} {
		for _, threads := range []int{1, 2} {
			s := ai.New(threads, 16)
			info := s.Search(context.Background(), g, lim, nil)
			if !g.Legal(info.Move) {
				t.Fatalf("%+v: illegal move %v", lim, info.Move)
			}
			g.Play(info.Move)
			if w := winningMoves(g); len(w) > 0 {
				t.Errorf("%+v threads %d: after %v White wins with %s", lim, threads, info.Move, describe(g, w[0]))
			}
			g.Undo()
		}
	}
}

// TestLostPositionNoSuicide: where every move loses, the search does not
// trade the move it reported for one that surrounds its own Queen (a move
// after which the opponent has no winning reply only because the game is
// already lost): it plays a move after which the game goes on, the move of
// its last report, scored as a loss.
func TestLostPositionNoSuicide(t *testing.T) {
	g := uhptest.Load(t, lost)
	var l core.MoveList
	g.GenerateMoves(&l)
	suicides := 0
	for _, m := range l.Moves() {
		name := describe(g, m)
		g.Play(m)
		switch {
		case g.Result() == winFor(core.White):
			suicides++
		case len(winningMoves(g)) == 0:
			t.Fatalf("after %s White cannot win at once: the position is not lost", name)
		}
		g.Undo()
	}
	if suicides == 0 || suicides == l.Len() {
		t.Fatalf("%d of Black's %d moves surround its own Queen, want some", suicides, l.Len())
	}
	for _, lim := range []ai.Limits{{Depth: 1}, {Depth: 2}, {Depth: 3}, {Time: 100 * time.Millisecond}} {
		var last ai.Info
		info := ai.New(1, 16).Search(context.Background(), g, lim, func(i ai.Info) { last = i })
		name := describe(g, info.Move)
		if last.Move != info.Move || info.Score > -ai.MateScore+ai.MaxPly {
			t.Errorf("%+v: played %s scored %d, last reported %s", lim, name, info.Score, describe(g, last.Move))
		}
		g.Play(info.Move)
		if g.Over() {
			t.Errorf("%+v: %s ends the game (%v)", lim, name, g.Result())
		}
		g.Undo()
	}
}

func TestAlwaysLegal(t *testing.T) {
	s := ai.New(1, 8)
	n := 6
	if testing.Short() {
		n = 2
	}
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for i, g := range randomPositions(t, gt, n, 0, 60, 7) {
			for _, lim := range []ai.Limits{{Depth: 2}, {Time: 20 * time.Millisecond}} {
				info := s.Search(context.Background(), g, lim, nil)
				if info.Move == core.NoMove || !g.Legal(info.Move) {
					t.Fatalf("type %d position %d %+v: illegal move %v in %s", gt, i, lim, info.Move, describeGame(g))
				}
			}
		}
	}
}

func TestGameOver(t *testing.T) {
	g := uhptest.Load(t, winInOne)
	g.Play(winningMoves(g)[0])
	info := ai.New(1, 1).Search(context.Background(), g, ai.Limits{Depth: 3}, nil)
	if info.Move != core.NoMove {
		t.Errorf("finished game: move %v, want NoMove", info.Move)
	}
}

func TestOneLegalMove(t *testing.T) {
	g := uhptest.Load(t, oneMove)
	var l core.MoveList
	g.GenerateMoves(&l)
	if l.Len() != 1 {
		t.Fatalf("position has %d moves, want 1", l.Len())
	}
	var reports []ai.Info
	info := ai.New(1, 1).Search(context.Background(), g, ai.Limits{Time: time.Hour}, func(i ai.Info) { reports = append(reports, i) })
	if info.Move != l.At(0) {
		t.Errorf("move %v, want the only one %v", info.Move, l.At(0))
	}
	// Not searched (one node: the move's evaluation), yet reported once
	// like any result, with its depth-1 score.
	g.Play(l.At(0))
	want := -ai.Evaluate(g)
	g.Undo()
	if info.Nodes != 1 || info.Depth != 1 || info.Score != want || !slices.Equal(info.PV, []core.Move{l.At(0)}) {
		t.Errorf("lone move: %+v, want 1 node, depth 1, score %d, PV of the move", info, want)
	}
	if len(reports) != 1 || reports[0].Move != l.At(0) || reports[0].Score != want {
		t.Errorf("reports %+v, want one of the move with its score", reports)
	}
}

func TestCallerGameUnchanged(t *testing.T) {
	for _, threads := range []int{1, 2} {
		s := ai.New(threads, 8)
		for _, g := range randomPositions(t, core.WithMosquito|core.WithLadybug|core.WithPillbug, 4, 20, 40, 3) {
			hash, ply, hist, res := g.Hash(), g.Ply(), g.History(), g.Result()
			var before, after core.MoveList
			g.GenerateMoves(&before)
			s.Search(context.Background(), g, ai.Limits{Depth: 3, Time: time.Second}, nil)
			g.GenerateMoves(&after)
			if g.Hash() != hash || g.Ply() != ply || !slices.Equal(g.History(), hist) || g.Result() != res ||
				!slices.Equal(before.Moves(), after.Moves()) {
				t.Fatalf("threads %d: the caller's game changed", threads)
			}
		}
	}
}

func TestThreadsShareTable(t *testing.T) {
	s := ai.New(2, 8)
	for _, g := range randomPositions(t, core.WithMosquito|core.WithLadybug|core.WithPillbug, 3, 20, 40, 5) {
		for _, lim := range []ai.Limits{{Depth: 3}, {Time: 100 * time.Millisecond}} {
			info := s.Search(context.Background(), g, lim, nil)
			if !g.Legal(info.Move) {
				t.Fatalf("%+v: illegal move %v", lim, info.Move)
			}
		}
	}
	s.SetThreads(3)
	s.SetHashMB(2)
	g := randomPositions(t, core.Base, 1, 20, 30, 9)[0]
	if info := s.Search(context.Background(), g, ai.Limits{Depth: 2}, nil); !g.Legal(info.Move) {
		t.Fatalf("illegal move %v after resizing", info.Move)
	}
}

// TestClear checks that Clear forgets everything earlier searches taught:
// a search repeated finds the table full and visits fewer nodes, and after
// Clear it visits exactly as many as the first time, in one thread, where
// a search is deterministic.
func TestClear(t *testing.T) {
	g := randomPositions(t, core.WithMosquito|core.WithLadybug|core.WithPillbug, 1, 20, 30, 13)[0]
	s := ai.New(1, 8)
	search := func() uint64 { return s.Search(context.Background(), g, ai.Limits{Depth: 4}, nil).Nodes }
	first := search()
	again := search()
	s.Clear()
	cleared := search()
	if again >= first || cleared != first {
		t.Errorf("nodes: %d fresh, %d again, %d after Clear; want fewer again and the same after Clear", first, again, cleared)
	}
}

func TestCancel(t *testing.T) {
	g := randomPositions(t, core.WithMosquito|core.WithLadybug|core.WithPillbug, 1, 30, 40, 11)[0]
	for _, threads := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan ai.Info)
		started := make(chan struct{}) // closed at the search's first report
		var once sync.Once
		report := func(ai.Info) { once.Do(func() { close(started) }) }
		go func() { done <- ai.New(threads, 8).Search(ctx, g, ai.Limits{}, report) }()
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatalf("threads %d: the search reported nothing within 10s", threads)
		}
		cancel()
		select {
		case info := <-done:
			if !g.Legal(info.Move) {
				t.Errorf("threads %d: illegal move %v after cancel", threads, info.Move)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("threads %d: search ignored the cancelled context", threads)
		}
	}
	// Cancelled before it starts, the search still completes depth 1.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	info := ai.New(1, 1).Search(ctx, g, ai.Limits{}, nil)
	if !g.Legal(info.Move) || info.Depth != 1 {
		t.Errorf("cancelled search: move %v depth %d, want a legal depth-1 move", info.Move, info.Depth)
	}
}

func TestReportAndDepth(t *testing.T) {
	g := randomPositions(t, core.WithPillbug, 1, 16, 24, 13)[0]
	var reports []ai.Info
	info := ai.New(1, 8).Search(context.Background(), g, ai.Limits{Depth: 3}, func(i ai.Info) { reports = append(reports, i) })
	if info.Depth != 3 {
		t.Errorf("depth %d, want 3", info.Depth)
	}
	if len(reports) == 0 {
		t.Fatal("no reports")
	}
	last := reports[len(reports)-1]
	if last.Move != info.Move || last.Depth != 3 {
		t.Errorf("last report %+v, result %+v", last, info)
	}
	for i, r := range reports {
		if !g.Legal(r.Move) || (i > 0 && r.Depth < reports[i-1].Depth) {
			t.Errorf("report %d: %+v", i, r)
		}
	}
}

package ai_test

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
)

// multiPVPositions returns the distinct positions of treeFile, midgames of
// every game type recorded as GameStrings, and random positions of every
// game type from early to late in a game.
func multiPVPositions(t *testing.T) []*core.Game {
	t.Helper()
	f, err := os.Open(treeFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []*core.Game
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), "\t", 8)
		if len(fields) == 8 && !seen[fields[7]] {
			seen[fields[7]] = true
			games = append(games, uhptest.Load(t, fields[7]))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		games = append(games, randomPositions(t, gt, 2, 4, 70, 2718)...)
	}
	return games
}

// depthOneScore is what one ply of search must score move m of g, from
// the mover's side, worked out from the rules and the public evaluation
// rather than the searcher: a finished game is won or lost in one ply, a
// position where the opponent closes the mover's Queen at once is lost in
// two, and any other is the opponent's evaluation negated.
func depthOneScore(g *core.Game, m core.Move) int {
	me := g.ToMove()
	g.Play(m)
	defer g.Undo()
	switch r := g.Result(); {
	case r == core.Draw:
		return 0
	case r == winFor(me):
		return ai.MateScore - 1
	case r != core.InProgress:
		return -(ai.MateScore - 1)
	case ai.WinsNow(g):
		return -(ai.MateScore - 2)
	}
	return -ai.Evaluate(g)
}

// checkLines checks the lines of a MultiPV search of g for n lines: as
// many as asked (all the legal moves when fewer), distinct first moves,
// scores that never rise, and principal variations that start with the
// line's move and replay legally from g through core.
func checkLines(t *testing.T, g *core.Game, n int, info ai.Info) {
	t.Helper()
	var l core.MoveList
	g.GenerateMoves(&l)
	if want := min(n, l.Len()); len(info.Lines) != want {
		t.Fatalf("%d lines, want %d (%d asked, %d legal)\n%s", len(info.Lines), want, n, l.Len(), describeGame(g))
	}
	seen := map[core.Move]bool{}
	for k, line := range info.Lines {
		if seen[line.Move] {
			t.Errorf("line %d repeats move %s", k+1, describe(g, line.Move))
		}
		seen[line.Move] = true
		if k > 0 && line.Score > info.Lines[k-1].Score {
			t.Errorf("line %d scores %d, above line %d's %d", k+1, line.Score, k, info.Lines[k-1].Score)
		}
		if len(line.PV) == 0 || line.PV[0] != line.Move {
			t.Errorf("line %d: PV %v does not start with its move %v", k+1, line.PV, line.Move)
		}
		c := g.Clone()
		for i, m := range line.PV {
			if err := c.RuleBroken(m); err != nil {
				t.Errorf("line %d: PV move %d is illegal: %v\n%s", k+1, i+1, err, describeGame(g))
				break
			}
			c.Play(m)
		}
	}
}

// TestMultiPVLines searches many positions to depths 1 to 4 for three
// lines and checks them (see checkLines), then holds line 1 to a
// single-PV search of the same depth by a fresh searcher: the same move,
// score and line, which is also the MultiPV search's move. At depth 1 the
// lines must be the best three moves by depthOneScore, with those scores.
func TestMultiPVLines(t *testing.T) {
	const n = 3
	maxDepth := 4
	if testing.Short() || raceDetector {
		maxDepth = 3
	}
	searched := 0
	for _, g := range multiPVPositions(t) {
		for d := 1; d <= maxDepth; d++ {
			multi := ai.New(1, 4).Search(context.Background(), g, ai.Limits{Depth: d, MultiPV: n}, nil)
			checkLines(t, g, n, multi)
			one := ai.New(1, 4).Search(context.Background(), g, ai.Limits{Depth: d}, nil)
			if one.Lines != nil {
				t.Errorf("a single-PV search has lines: %+v", one.Lines)
			}
			line1 := multi.Lines[0]
			if line1.Move != one.Move || line1.Score != one.Score || !slices.Equal(line1.PV, one.PV) || multi.Move != one.Move {
				t.Errorf("depth %d: line 1 is %s %d %v (the search's move %s), single-PV %s %d %v\n%s", d,
					describe(g, line1.Move), line1.Score, line1.PV, describe(g, multi.Move), describe(g, one.Move), one.Score, one.PV, describeGame(g))
			}
			if d == 1 {
				var l core.MoveList
				g.GenerateMoves(&l)
				var all []int
				for _, m := range l.Moves() {
					all = append(all, depthOneScore(g, m))
				}
				slices.Sort(all)
				slices.Reverse(all)
				for k, line := range multi.Lines {
					if want := depthOneScore(g, line.Move); line.Score != want || line.Score != all[k] {
						t.Errorf("depth 1, line %d: %s scores %d, want its own %d and the %d-th best %d", k+1, describe(g, line.Move), line.Score, want, k+1, all[k])
					}
				}
			}
			searched++
		}
	}
	if searched < 60 {
		t.Errorf("only %d searches", searched)
	}
}

// TestMultiPVAllMoves asks for more lines than there are legal moves: the
// first move of a game (four placements, the Queen being barred) and a
// position with one legal move give every move, each once.
func TestMultiPVAllMoves(t *testing.T) {
	for _, g := range []*core.Game{core.NewGame(core.Base), uhptest.Load(t, oneMove)} {
		var l core.MoveList
		g.GenerateMoves(&l)
		for _, d := range []int{1, 3} {
			info := ai.New(1, 1).Search(context.Background(), g, ai.Limits{Depth: d, MultiPV: 10}, nil)
			checkLines(t, g, 10, info)
			var got []core.Move
			for _, line := range info.Lines {
				got = append(got, line.Move)
			}
			want := slices.Clone(l.Moves())
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("depth %d: lines of %v, want every legal move %v", d, got, want)
			}
		}
	}
}

// TestMultiPVReports checks what a MultiPV search reports: one report per
// completed iteration, of depths 1, 2, 3 in turn, each with all its lines,
// line 1 the report's move; the last is the result's.
func TestMultiPVReports(t *testing.T) {
	g := randomPositions(t, mlp, 1, 30, 40, 31)[0]
	var reports []ai.Info
	info := ai.New(1, 8).Search(context.Background(), g, ai.Limits{Depth: 3, MultiPV: 4}, func(i ai.Info) { reports = append(reports, i) })
	if len(reports) != 3 {
		t.Fatalf("%d reports, want one per depth: %+v", len(reports), reports)
	}
	for i, r := range reports {
		checkLines(t, g, 4, r)
		if r.Depth != i+1 || r.Lines[0].Move != r.Move || r.Lines[0].Score != r.Score || !slices.Equal(r.Lines[0].PV, r.PV) {
			t.Errorf("report %d: depth %d, move %v score %d, line 1 %+v", i, r.Depth, r.Move, r.Score, r.Lines[0])
		}
	}
	if !slices.EqualFunc(reports[2].Lines, info.Lines, func(a, b ai.Line) bool {
		return a.Move == b.Move && a.Score == b.Score && slices.Equal(a.PV, b.PV)
	}) {
		t.Errorf("the result's lines %+v are not the last report's %+v", info.Lines, reports[2].Lines)
	}
}

// TestInfiniteAnalysis runs searches with no limit (analysis until
// stopped), of one and of three lines, on one thread and on two: they
// report ever deeper iterations until the context is cancelled, and then
// return a legal move promptly. Run with -race, it checks the threads too.
func TestInfiniteAnalysis(t *testing.T) {
	g := randomPositions(t, mlp, 1, 30, 40, 37)[0]
	for _, threads := range []int{1, 2} {
		for _, n := range []int{1, 3} {
			ctx, cancel := context.WithCancel(context.Background())
			var mu sync.Mutex
			var depths []int
			deep := make(chan struct{}) // closed once depth 3 is reported
			var once sync.Once
			report := func(i ai.Info) {
				mu.Lock()
				defer mu.Unlock()
				depths = append(depths, i.Depth)
				if n > 1 && len(i.Lines) != n {
					t.Errorf("threads %d, %d lines: a report of %d", threads, n, len(i.Lines))
				}
				if i.Depth >= 3 {
					once.Do(func() { close(deep) })
				}
			}
			done := make(chan ai.Info)
			go func() { done <- ai.New(threads, 8).Search(ctx, g, ai.Limits{MultiPV: n}, report) }()
			select {
			case <-deep:
			case <-time.After(30 * time.Second):
				t.Fatalf("threads %d, %d lines: depth 3 not reported within 30s", threads, n)
			}
			stopped := time.Now()
			cancel()
			select {
			case info := <-done:
				if took := time.Since(stopped); took > time.Second {
					t.Errorf("threads %d, %d lines: returned %v after the cancel", threads, n, took)
				}
				if !g.Legal(info.Move) {
					t.Errorf("threads %d, %d lines: illegal move %v", threads, n, info.Move)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("threads %d, %d lines: the search ignored the cancel", threads, n)
			}
			mu.Lock()
			// Reports of one line also come when the best move changes
			// within an iteration: depths never fall. Reports of three
			// come once per iteration: each one deeper.
			for i := 1; i < len(depths); i++ {
				if depths[i] < depths[i-1] || n > 1 && depths[i] != depths[i-1]+1 {
					t.Errorf("threads %d, %d lines: depths reported %v", threads, n, depths)
					break
				}
			}
			mu.Unlock()
		}
	}
}

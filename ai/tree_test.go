package ai_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// treeFile pins the search tree: for each position, a depth, and what a
// fresh one-thread search to that depth found (nodes, selective depth,
// move, score), as recorded from the code before a change that was meant
// only to make the search faster. A speed change must leave every line
// as it is; a change that alters the tree on purpose (new pruning, new
// evaluation weights) rewrites the file with -tree.update and says so.
const treeFile = "testdata/tree.txt"

var updateTree = flag.Bool("tree.update", false, "rewrite "+treeFile+" from the current search (see tree_test.go)")

// treePositions returns the positions of treeFile: those of
// BenchmarkSearchMidgame, then two of each game type, so that every bug's
// moves and every feature of the evaluation take part.
func treePositions(tb testing.TB) []*core.Game {
	games := randomPositions(tb, mlp, 8, 30, 40, 2026)
	for t := core.GameType(0); t < core.AllGameTypes; t++ {
		games = append(games, randomPositions(tb, t, 2, 20, 50, 77)...)
	}
	return games
}

// treeDepths are the depths recorded per position: the benchmark's, and
// one more for the midgame positions, where pruning and reductions start
// to shape the tree.
func treeDepths(i int) []int {
	if i < 8 {
		return []int{4, 5}
	}
	return []int{4}
}

type treeLine struct {
	game          string
	depth         int
	nodes         uint64
	selDepth      int
	move          string
	score         int
	staticEval    int
	moveListCount int
}

func (l treeLine) String() string {
	return fmt.Sprintf("%d\t%d\t%d\t%s\t%d\t%d\t%d\t%s", l.depth, l.nodes, l.selDepth, l.move, l.score, l.staticEval, l.moveListCount, l.game)
}

func searchLine(tb testing.TB, g *core.Game, gameString string, depth int) treeLine {
	info := ai.New(1, 4).Search(context.Background(), g, ai.Limits{Depth: depth}, nil)
	var l core.MoveList
	g.GenerateMoves(&l)
	return treeLine{
		game: gameString, depth: depth, nodes: info.Nodes, selDepth: info.SelDepth,
		move: describe(g, info.Move), score: info.Score, staticEval: ai.Evaluate(g), moveListCount: l.Len(),
	}
}

// TestSearchTreeUnchanged searches the positions of treeFile again and
// requires every figure to match: the same number of nodes, the same
// move and score. The file holds GameStrings, so the positions do not
// depend on the order in which the code under test generates moves.
func TestSearchTreeUnchanged(t *testing.T) {
	if *updateTree {
		writeTree(t)
		return
	}
	f, err := os.Open(treeFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	checked := 0
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), "\t", 8)
		if len(fields) != 8 {
			t.Fatalf("bad line %q", sc.Text())
		}
		depth, _ := strconv.Atoi(fields[0])
		if (testing.Short() || raceDetector) && depth > 4 {
			continue
		}
		g := uhptest.Load(t, fields[7])
		got := searchLine(t, g, fields[7], depth).String()
		if want := sc.Text(); got != want {
			t.Errorf("search changed:\n got  %s\n want %s", got, want)
		}
		checked++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 16 {
		t.Errorf("only %d searches checked", checked)
	}
}

func writeTree(t *testing.T) {
	var b strings.Builder
	for i, g := range treePositions(t) {
		gs, err := uhp.Describe(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range treeDepths(i) {
			line := searchLine(t, uhptest.Load(t, gs.String()), gs.String(), d)
			if played := searchLine(t, g, gs.String(), d); played != line {
				t.Fatalf("the GameString does not reproduce the position:\n played %s\n loaded %s", played, line)
			}
			fmt.Fprintln(&b, line)
		}
	}
	if err := os.WriteFile(treeFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

package ai_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The tactics suite, testdata/tactics.txt, holds positions with a forced
// win in 1, 3 and 5 plies and positions where a single move avoids losing
// at once. It is made by
//
//	go test ./ai -run TestGenerateTactics -tactics.generate
//
// which plays random games (fixed seeds), looks in their positions for
// forced wins with the searcher itself, and keeps a position only once an
// exhaustive search (full width, no pruning, no evaluation) has proved the
// win at exactly that distance and listed every first move that forces it,
// or proved that exactly one move leaves the opponent no winning reply.
var (
	generateTactics = flag.Bool("tactics.generate", false, "rewrite testdata/tactics.txt (see tactics_test.go)")
	tacticsBudget   = flag.Duration("tactics.budget", 40*time.Minute, "stop looking for tactics after this long and write what was found")
)

const tacticsFile = "testdata/tactics.txt"

// A tactic is one line of the suite: kind (win1, win3, win5 or save),
// the position, and every move that solves it.
type tactic struct {
	kind      string
	position  string
	solutions []string
}

// plies returns the depth at which the searcher must solve t.
func (t tactic) plies() int {
	if t.kind == "save" {
		return 2
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(t.kind, "win"))
	return n
}

// TestTactics searches every position of the suite at its fixed depth on
// one thread, with each evaluation: a win in N plies must be found at depth N, scored as a win
// in exactly N plies, with a move that forces it; a lone saving move must
// be found at depth 2.
func TestTactics(t *testing.T) {
	suite := readTactics(t)
	kinds := map[string]int{}
	for _, tc := range suite {
		kinds[tc.kind]++
	}
	for _, k := range []string{"win1", "win3", "win5", "save"} {
		if kinds[k] < 3 {
			t.Errorf("the suite has %d %s positions, want at least 3", kinds[k], k)
		}
	}
	for i, tc := range suite {
		g := uhptest.Load(t, tc.position)
		// The suite's answers are checked against the rules as they are
		// now, by the exhaustive search that made them (but for the wins
		// in five, which would take too long here).
		var truth []core.Move
		switch tc.kind {
		case "win1", "win3":
			truth = winningFirstMoves(g, tc.plies())
		case "save":
			if m, ok := loneSave(g); ok {
				truth = []core.Move{m}
			}
		}
		if tc.kind != "win5" && !slices.Equal(names(g, truth), tc.solutions) {
			t.Errorf("%s #%d: the exhaustive search now finds %v, the suite says %v", tc.kind, i, names(g, truth), tc.solutions)
		}
		for _, eval := range []string{ai.EvalLinear, ai.EvalNNUE} {
			s := ai.New(1, 16)
			if err := s.SetEval(eval); err != nil {
				t.Fatal(err)
			}
			info := s.Search(context.Background(), g, ai.Limits{Depth: tc.plies()}, nil)
			move := uhp.FormatMove(info.Move, g)
			if !slices.Contains(tc.solutions, move) {
				t.Errorf("%s #%d (line %d), %s: played %s, want one of %v\n%s", tc.kind, i, i+2, eval, move, tc.solutions, tc.position)
				continue
			}
			if tc.kind != "save" && info.Score != ai.MateScore-tc.plies() {
				t.Errorf("%s #%d, %s: score %d, want a win in %d plies (%d)", tc.kind, i, eval, info.Score, tc.plies(), ai.MateScore-tc.plies())
			}
		}
	}
}

func readTactics(t *testing.T) []tactic {
	f, err := os.Open(tacticsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tactic
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("bad line %q", line)
		}
		out = append(out, tactic{kind: fields[0], position: fields[1], solutions: strings.Split(fields[2], ",")})
	}
	return out
}

// TestGenerateTactics rewrites the suite when -tactics.generate is given.
func TestGenerateTactics(t *testing.T) {
	if !*generateTactics {
		t.Skip("run with -tactics.generate to rewrite " + tacticsFile)
	}
	const perKind = 8
	found := map[string][]tactic{}
	full := func() bool {
		for _, k := range []string{"win1", "win3", "win5", "save"} {
			if len(found[k]) < perKind {
				return false
			}
		}
		return true
	}
	var l core.MoveList
	stop := time.Now().Add(*tacticsBudget)
	for seed := uint64(1); !full() && seed < 5000 && time.Now().Before(stop); seed++ {
		rng := rand.New(rand.NewPCG(seed, 13))
		types := []core.GameType{0, mlp}
		g := core.NewGame(types[seed%2])
		for !g.Over() && g.Ply() < 200 && !full() && time.Now().Before(stop) {
			if g.Ply() >= 12 {
				if tc, ok := classify(g, len(found["win3"]) >= perKind && len(found["win5"]) >= perKind); ok && len(found[tc.kind]) < perKind {
					found[tc.kind] = append(found[tc.kind], tc)
					t.Logf("%s %s", tc.kind, tc.position)
				}
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	f, err := os.Create(tacticsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "# kind<TAB>GameString<TAB>every solving move: made by go test ./ai -run TestGenerateTactics -tactics.generate (see tactics_test.go)")
	for _, k := range []string{"win1", "win3", "win5", "save"} {
		for _, tc := range found[k] {
			fmt.Fprintf(w, "%s\t%s\t%s\n", tc.kind, tc.position, strings.Join(tc.solutions, ","))
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// classify returns the tactic that position g is, if any: a forced win
// proved at its exact distance, or a lone saving move. With shallowOnly,
// it looks no further than a win in one ply and a lone save.
func classify(g *core.Game, shallowOnly bool) (tactic, bool) {
	gs, _ := uhp.Describe(g) // a game played from the empty board always has its GameString
	pos := gs.String()
	if wins := winningFirstMoves(g, 1); len(wins) > 0 {
		return tactic{"win1", pos, names(g, wins)}, true
	}
	if save, ok := loneSave(g); ok {
		return tactic{"save", pos, names(g, []core.Move{save})}, true
	}
	if shallowOnly {
		return tactic{}, false
	}
	// The searcher proposes, where a Queen is closed in enough for a
	// win in five plies to be possible; the exhaustive search proves.
	if !enemyQueenNear(g, 3) {
		return tactic{}, false
	}
	info := ai.New(1, 16).Search(context.Background(), g, ai.Limits{Depth: 5}, nil)
	if info.Score < ai.MateScore-5 {
		return tactic{}, false
	}
	for _, n := range []int{3, 5} {
		if wins := winningFirstMoves(g, n); len(wins) > 0 {
			return tactic{fmt.Sprintf("win%d", n), pos, names(g, wins)}, true
		}
	}
	return tactic{}, false
}

// enemyQueenNear reports whether the opponent's Queen has at least n
// occupied neighbours.
func enemyQueenNear(g *core.Game, n int) bool {
	q := g.Position(core.Piece(g.ToMove().Other()) * core.PiecesPerColor)
	return q != core.NoCell && bits.OnesCount8(g.Neighbors(q)) >= n
}

func names(g *core.Game, moves []core.Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, uhp.FormatMove(m, g))
	}
	return out
}

// winningFirstMoves returns every move of g that forces a win within n
// plies (n odd), by exhaustive search.
func winningFirstMoves(g *core.Game, n int) []core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	moves := slices.Clone(l.Moves())
	me := g.ToMove()
	var wins []core.Move
	for _, m := range moves {
		g.Play(m)
		if g.Result() == winFor(me) || n > 1 && !g.Over() && everyReplyLoses(g, me, n-1) {
			wins = append(wins, m)
		}
		g.Undo()
	}
	return wins
}

// forcesWin reports whether the side to move, me, wins within n plies.
func forcesWin(g *core.Game, me core.Color, n int) bool {
	var l core.MoveList
	g.GenerateMoves(&l)
	for _, m := range slices.Clone(l.Moves()) {
		g.Play(m)
		won := g.Result() == winFor(me) || n > 1 && !g.Over() && everyReplyLoses(g, me, n-1)
		g.Undo()
		if won {
			return true
		}
	}
	return false
}

// everyReplyLoses reports whether every move of the opponent of me, to
// move in g, leaves me a win within n-1 plies.
func everyReplyLoses(g *core.Game, me core.Color, n int) bool {
	var l core.MoveList
	g.GenerateMoves(&l)
	for _, r := range slices.Clone(l.Moves()) {
		g.Play(r)
		lost := g.Result() == winFor(me) || !g.Over() && forcesWin(g, me, n-1)
		g.Undo()
		if !lost {
			return false
		}
	}
	return true
}

// loneSave reports the one move of g after which the opponent cannot win
// at once, when the opponent threatens to and exactly one move parries
// it (a move that wins at once is no parry: the position is then a win).
func loneSave(g *core.Game) (core.Move, bool) {
	var l core.MoveList
	g.GenerateMoves(&l)
	me := g.ToMove()
	saves := []core.Move{}
	for _, m := range slices.Clone(l.Moves()) {
		g.Play(m)
		if !g.Over() && len(winningFirstMoves(g, 1)) == 0 {
			saves = append(saves, m)
		}
		g.Undo()
		if len(saves) > 1 {
			return core.NoMove, false
		}
	}
	_ = me
	if len(saves) != 1 || len(l.Moves()) < 3 {
		return core.NoMove, false
	}
	return saves[0], true
}

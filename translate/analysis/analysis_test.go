package analysis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/analysis"
	"github.com/hivebridge/hivebridge/translate/records"
)

func TestMain(m *testing.M) { fakeengine.Main(m) }

// realGame is Mzinga's test asset HV-Abbo69-WeakBot-2018-10-28-2007, a
// BoardSpace game of Base+MLP that White won by the rules in 31 plies.
const realGame = "../../protocols/pgn/testdata/mzinga/HV-Abbo69-WeakBot-2018-10-28-2007.pgn"

func readGame(t *testing.T, path string) records.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := records.Read(path, data)
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("%s: %d games, errors %v", path, len(recs), errs)
	}
	return recs[0]
}

func analyse(t *testing.T, e translate.Engine, rec records.Record, limit engine.Limit) *analysis.Analysis {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var progress []int
	var told []analysis.Ply
	end, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	// The last position is searched unless the game is over there.
	searched := len(rec.Moves)
	if !end.Over() {
		searched++
	}
	a, err := analysis.Analyse(ctx, e, rec, analysis.Config{Limit: limit, Progress: func(done, total int) {
		if total != searched {
			t.Errorf("progress %d of %d positions, want of %d", done, total, searched)
		}
		progress = append(progress, done)
	}, Ply: func(p analysis.Ply) {
		// Ply p is known once the positions before and after it are
		// searched, walking back from the end: told then.
		if want := searched - p.Ply + 1; len(progress) != want {
			t.Errorf("ply %d told after %d positions searched, want %d", p.Ply, len(progress), want)
		}
		told = append(told, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != searched || progress[len(progress)-1] != searched {
		t.Errorf("progress told %v", progress)
	}
	// The plies told as they came are the analysis's, last first.
	slices.Reverse(told)
	if !reflect.DeepEqual(told, a.Plies) {
		t.Errorf("the plies told as they came differ from the analysis's:\n%+v\n%+v", told, a.Plies)
	}
	return a
}

// whiteExpected is White's expected score in a position with the score s
// (White's side, as the analysis writes it) and toMove to move, computed
// here from the written score and the curve's formula alone.
func whiteExpected(t *testing.T, c analysis.Curve, s analysis.Score, whiteToMove bool) float64 {
	t.Helper()
	switch text := string(s); {
	case text == "WhiteWins":
		return 1
	case text == "BlackWins":
		return 0
	case text == "Draw":
		return 0.5
	case strings.HasPrefix(text, "#-"):
		return 0
	case strings.HasPrefix(text, "#"):
		return 1
	}
	pieces, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		t.Fatalf("score %q: %v", s, err)
	}
	mover := pieces * 100
	if !whiteToMove {
		mover = -mover
	}
	e := 1 / (1 + math.Exp(-c.K*(mover-c.C)))
	if !whiteToMove {
		e = 1 - e
	}
	return e
}

// checkClasses recomputes each ply's loss and class from the scores the
// analysis wrote, the curve, and lichess's bounds (0.1, 0.2 and 0.3 of its
// winning chances from -1 to 1), and its summaries from the plies.
func checkClasses(t *testing.T, a *analysis.Analysis) {
	t.Helper()
	counts := [2]map[analysis.Class]int{{}, {}}
	var losses [2]float64
	before := a.Start
	for i, p := range a.Plies {
		white := i%2 == 0
		if p.Color != map[bool]string{true: "White", false: "Black"}[white] {
			t.Errorf("ply %d: colour %s", p.Ply, p.Color)
		}
		if p.BestScore != before {
			t.Errorf("ply %d: best score %q, but the position before was scored %q", p.Ply, p.BestScore, before)
		}
		eBefore := whiteExpected(t, a.Curve, before, white)
		eAfter := whiteExpected(t, a.Curve, p.Score, !white)
		if math.Abs(eAfter-p.Expected) > 1e-9 {
			t.Errorf("ply %d: expected %v, recomputed %v from %q", p.Ply, p.Expected, eAfter, p.Score)
		}
		loss := eBefore - eAfter
		if !white {
			loss = -loss
		}
		loss = max(0, loss)
		want := analysis.Class("good")
		switch {
		case p.Move == p.Best:
			want, loss = "best", 0
		case 2*loss >= 0.3:
			want = "blunder"
		case 2*loss >= 0.2:
			want = "mistake"
		case 2*loss >= 0.1:
			want = "inaccuracy"
		}
		if p.Class != want || math.Abs(p.Loss-loss) > 1e-9 {
			t.Errorf("ply %d (%s, %q after %q): %s losing %v, recomputed %s losing %v", p.Ply, p.Move, p.Score, before, p.Class, p.Loss, want, loss)
		}
		if (p.Move == p.Best) != (len(p.Line) == 0) || len(p.Line) > 0 && p.Line[0] != p.Best {
			t.Errorf("ply %d: move %s, best %s, line %q", p.Ply, p.Move, p.Best, p.Line)
		}
		counts[i%2][p.Class]++
		losses[i%2] += p.Loss
		before = p.Score
	}
	for c, p := range a.Players {
		classed := len(a.Plies)/2 + (1-c)*(len(a.Plies)%2)
		if !maps(p.Classes, counts[c]) || p.Classed != classed || math.Abs(p.MeanLoss-losses[c]/float64(classed)) > 1e-9 {
			t.Errorf("player %d: %+v, recomputed %v over %d, mean %v", c, p, counts[c], classed, losses[c]/float64(classed))
		}
	}
}

func maps(a, b map[analysis.Class]int) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

// TestAnalyseARealGame analyses a real game with the native searcher at a
// small depth: every ply is there, as the record has it, scored from
// White's side (the last by the rules' verdict), with classes and summaries
// that follow from the scores and the curve; the annotated PGN reads back
// as the same game, its comments and NAGs those of the analysis; and the
// JSON reads back as the same analysis.
func TestAnalyseARealGame(t *testing.T) {
	rec := readGame(t, realGame)
	a := analyse(t, translate.NewNative(), rec, engine.Limit{Depth: 3})
	if len(a.Plies) != len(rec.Moves) {
		t.Fatalf("%d plies analysed, the game has %d", len(a.Plies), len(rec.Moves))
	}
	for i, p := range a.Plies {
		if p.Ply != i+1 || p.Move != rec.Moves[i] || p.Best == "" {
			t.Errorf("ply %d: %+v, the record's move %s", i+1, p, rec.Moves[i])
		}
		if i < len(a.Plies)-1 && (p.Depth < 1 || p.Depth > 3) { // a forced result may end the search early
			t.Errorf("ply %d: depth %d", p.Ply, p.Depth)
		}
	}
	if last := a.Plies[len(a.Plies)-1]; last.Score != "WhiteWins" || last.Expected != 1 || last.Depth != 0 {
		t.Errorf("the last ply %+v, want the game won by White there", last)
	}
	if a.White != "Abbo69" || a.Black != "WeakBot" || a.Result != "WhiteWins" || a.Engine != "hivebridge native" || a.Depth != 3 {
		t.Errorf("analysis of %q vs %q, %s, by %s at depth %d", a.White, a.Black, a.Result, a.Engine, a.Depth)
	}
	checkClasses(t, a)
	marked := 0
	for _, p := range a.Plies {
		if p.Class == analysis.Inaccuracy || p.Class == analysis.Mistake || p.Class == analysis.Blunder {
			marked++
		}
	}
	if marked == 0 || a.Players[0].Classes[analysis.Best] == 0 {
		t.Errorf("a game between a player and a weak bot with no inaccuracy, or no best move: %+v", a.Players)
	}

	// Annotated PGN, read back.
	var pgn bytes.Buffer
	if err := records.Write(&pgn, records.PGN, a.Record(rec)); err != nil {
		t.Fatal(err)
	}
	back, errs := records.Read("annotated.pgn", pgn.Bytes())
	if len(errs) > 0 || len(back) != 1 {
		t.Fatalf("annotated PGN read back: %d games, %v\n%s", len(back), errs, pgn.Bytes())
	}
	if !slices.Equal(back[0].Moves, rec.Moves) || back[0].Result != rec.Result || back[0].White != rec.White {
		t.Errorf("annotated PGN read back as another game:\n%s", pgn.Bytes())
	}
	nags := map[analysis.Class]int{analysis.Inaccuracy: 6, analysis.Mistake: 2, analysis.Blunder: 4} // ?!, ?, ??
	for i, p := range a.Plies {
		var want []int
		if n := nags[p.Class]; n != 0 {
			want = []int{n}
		}
		var got []int
		if i < len(back[0].NAGs) {
			got = back[0].NAGs[i]
		}
		if !slices.Equal(got, want) {
			t.Errorf("ply %d, %s: NAGs %v", p.Ply, p.Class, got)
		}
		comment := back[0].Comments[i]
		if !strings.HasPrefix(comment, string(p.Score)) || !strings.Contains(comment, string(p.Class)) ||
			(len(p.Line) > 0) != strings.Contains(comment, "; best "+p.Best+" (") {
			t.Errorf("ply %d: comment %q for %+v", p.Ply, comment, p)
		}
	}
	if !bytes.Contains(pgn.Bytes(), []byte("[Annotator \"hivebridge analyze: hivebridge native, depth 3\"]\n")) {
		t.Errorf("no Annotator tag:\n%s", pgn.Bytes())
	}

	// JSON, read back.
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON analysis.Analysis
	if err := json.Unmarshal(data, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&fromJSON, a) {
		t.Errorf("JSON read back differs:\n%s", data)
	}
}

// TestAnalyseThroughUHP analyses the game through UHP engine processes: one
// that searches with the native searcher and reports its scores as the
// reference engine does (every move classed), and one that reports bare
// moves only (no move classed, but every best move there).
func TestAnalyseThroughUHP(t *testing.T) {
	rec := readGame(t, realGame)
	rec.Moves = rec.Moves[:12] // an unfinished game: its last position is searched too
	rec.Result = ""
	for _, mode := range []string{"native", "bare-reports"} {
		t.Run(mode, func(t *testing.T) {
			spec, _ := fakeengine.ArgSpec(t, "uhp", mode)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			e, err := translate.Open(ctx, spec, translate.Config{Timeouts: fakeengine.Timeouts()})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			var searched int
			a, err := analysis.Analyse(ctx, e, rec, analysis.Config{Limit: engine.Limit{Depth: 2}, Progress: func(done, total int) {
				searched = done
				if total != len(rec.Moves)+1 {
					t.Errorf("%d positions to search, want %d", total, len(rec.Moves)+1)
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if searched != len(rec.Moves)+1 || len(a.Plies) != len(rec.Moves) || a.Engine != "fake "+mode {
				t.Fatalf("%d positions searched, %d plies, engine %q", searched, len(a.Plies), a.Engine)
			}
			for _, p := range a.Plies {
				if p.Best == "" {
					t.Errorf("ply %d: no best move", p.Ply)
				}
			}
			if mode == "native" {
				checkClasses(t, a)
				return
			}
			for _, p := range a.Plies {
				if p.Class != analysis.Unclassed || p.Score != "" || p.Loss != 0 {
					t.Errorf("ply %d classed without a score: %+v", p.Ply, p)
				}
			}
			if a.Players[0].Classed != 0 || a.Players[1].Classed != 0 {
				t.Errorf("players %+v", a.Players)
			}
		})
	}
}

// TestAnalyseRefusesAnIllegalGame: a record whose move cannot be played is
// an error naming the ply, before any search.
func TestAnalyseRefusesAnIllegalGame(t *testing.T) {
	rec := readGame(t, realGame)
	rec.Moves = append(slices.Clone(rec.Moves[:4]), "wQ bQ-")
	_, err := analysis.Analyse(context.Background(), translate.NewNative(), rec, analysis.Config{Limit: engine.Limit{Depth: 1}})
	if err == nil || !strings.Contains(err.Error(), "ply 5 (wQ bQ-)") {
		t.Errorf("Analyse gave %v", err)
	}
}

// TestAnalyseByUHPRules: a record is read with the Queen allowed on a first
// turn, but a game that placed none there is searched by UHP's rules:
// every best move named is one UHP lets the player make (at depth 2 the
// native searcher likes wQ first, which UHP forbids).
func TestAnalyseByUHPRules(t *testing.T) {
	recs, errs := records.Read("game", []byte("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1\n"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := analyse(t, translate.NewNative(), recs[0], engine.Limit{Depth: 2})
	for _, p := range a.Plies {
		gs, err := uhp.ParseGameString(strings.Join(append([]string{"Base;InProgress;White[1]"}, recs[0].Moves[:p.Ply-1]...), ";"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := gs.Load()
		if err != nil {
			t.Fatal(err)
		}
		if m, err := uhp.ParseMove(p.Best, g); err != nil || !g.Legal(m) {
			t.Errorf("ply %d: best %q is no move UHP allows (%v)", p.Ply, p.Best, err)
		}
	}
}

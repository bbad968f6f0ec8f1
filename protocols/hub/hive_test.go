package hub_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

const allExpansions = core.WithMosquito | core.WithLadybug | core.WithPillbug

// randomGames plays, for every game type, a few games of random legal
// moves from fixed seeds, and returns the games at several points: at the
// start, early, in the middle game, and at the end (some of them over).
func randomGames(t testing.TB) []*core.Game {
	t.Helper()
	var games []*core.Game
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for seed := uint64(0); seed < 4; seed++ {
			r := rand.New(rand.NewPCG(uint64(gt), seed))
			g := core.NewGame(gt)
			var l core.MoveList
			plies := 1 + r.IntN(120)
			for i := 0; i < plies && !g.Over(); i++ {
				g.GenerateMoves(&l)
				g.Play(l.At(r.IntN(l.Len())))
				if i == 2 || i == 17 {
					games = append(games, g.Clone())
				}
			}
			games = append(games, g)
		}
		games = append(games, core.NewGame(gt))
	}
	return games
}

// sameGame reports whether two games are the same position reached by the
// same moves.
func sameGame(a, b *core.Game) bool {
	return a.Type() == b.Type() && a.Hash() == b.Hash() && a.Result() == b.Result() &&
		slices.Equal(a.History(), b.History())
}

// Positions of random games, written as pos lines in both forms and read
// back, are the same games.
func TestPosRandomGames(t *testing.T) {
	games := randomGames(t)
	over := 0
	for _, g := range games {
		if g.Over() {
			over++
		}
		for _, p := range []hub.Pos{hub.PosOf(g), hub.GamePosOf(g)} {
			text := p.Line().String()
			m, err := hub.ReadCommand(text)
			if err != nil {
				t.Fatalf("ReadCommand(%q): %v", text, err)
			}
			back, ok := m.(hub.Pos)
			if !ok {
				t.Fatalf("ReadCommand(%q) = %T", text, m)
			}
			if !reflect.DeepEqual(back, p) {
				t.Fatalf("ReadCommand(%q) = %#v, want %#v", text, back, p)
			}
			loaded, err := back.Load(core.Base)
			if err != nil {
				t.Fatalf("%s: Load: %v", text, err)
			}
			if !sameGame(loaded, g) {
				t.Fatalf("%s loads as %s", text, uhptest.MustDescribe(t, loaded))
			}
		}
		// The same moves with the variant left to the engine's parameter.
		p := hub.PosOf(g)
		p.DefaultVariant = true
		text := p.Line().String()
		if strings.Contains(text, "variant=") {
			t.Fatalf("%q names a variant", text)
		}
		back, err := hub.ParsePos(mustParse(t, text))
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := back.Load(g.Type())
		if err != nil || !sameGame(loaded, g) {
			t.Fatalf("%s with default variant %s: %v", text, g.Type().Name(), err)
		}
	}
	if over == 0 {
		t.Errorf("no random game ended; the test covers no finished game")
	}
}

func mustParse(t testing.TB, s string) hub.Line {
	t.Helper()
	l, err := hub.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return l
}

func TestPosForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want hub.Pos
		out  string // the line written back; "" when it is in itself
	}{
		{"pos", hub.Pos{DefaultVariant: true}, ""},
		{"pos variant=Base", hub.Pos{Variant: core.Base}, ""},
		{`pos variant=base+plm moves=""`, hub.Pos{Variant: allExpansions}, "pos variant=Base+MLP"},
		{`pos moves="wS1; bG1   -wS1 ;wA1 wS1/"`, hub.Pos{DefaultVariant: true, Moves: []string{"wS1", "bG1 -wS1", "wA1 wS1/"}}, `pos moves="wS1;bG1 -wS1;wA1 wS1/"`},
		{"pos variant=Base+M moves=wS1", hub.Pos{Variant: core.WithMosquito, Moves: []string{"wS1"}}, ""},
		{"pos game=Base;NotStarted;White[1]", hub.Pos{Variant: core.Base, AsGame: true, State: core.StateNotStarted, Turn: core.Turn{Color: core.White, Number: 1}}, ""},
		{"pos game=Base;NotStarted;White[1] ignored=1 flag", hub.Pos{Variant: core.Base, AsGame: true, State: core.StateNotStarted, Turn: core.Turn{Color: core.White, Number: 1}}, "pos game=Base;NotStarted;White[1]"},
	} {
		p, err := hub.ParsePos(mustParse(t, tc.in))
		if err != nil {
			t.Errorf("ParsePos(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(p, tc.want) {
			t.Errorf("ParsePos(%q) = %#v, want %#v", tc.in, p, tc.want)
		}
		out := tc.out
		if out == "" {
			out = tc.in
		}
		if s := p.Line().String(); s != out {
			t.Errorf("ParsePos(%q).Line() = %q, want %q", tc.in, s, out)
		}
	}
}

func TestPosErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"pos variant=Chess", "pos: variant=: unknown game type"},
		{"pos variant=Base+", "no expansion letters"},
		{`pos moves="wS1;;bG1 -wS1"`, "pos: moves=: move 2 of the list is empty"},
		{`pos moves="wS1;"`, "move 2 of the list is empty"},
		{`pos moves=" ;wS1"`, "move 1 of the list is empty"},
		{"pos game=Base;NotStarted", "pos: game=: bad GameString"},
		{"pos game=Base;Nowhere;White[1]", "unknown game state"},
		{`pos game="Base;InProgress;White[2];wS1;;bS1 wS1-"`, "move 2 is empty"},
		{"pos game=Base;NotStarted;White[1] variant=Base", "either game=<GameString> or variant= and moves="},
		{"pos game=Base;NotStarted;White[1] moves=wS1", "not both"},
		{"pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", "pos= is a draughts position"},
		{"pos variant=Base variant=Base+M", "pos: variant given twice"},
		{"level depth=1", "a pos line was expected, not level"},
	} {
		p, err := hub.ParsePos(mustParse(t, tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePos(%q) = %#v, %v; want an error that says %q", tc.in, p, err, tc.want)
		}
	}
}

// hub-hive.md: "Every move is checked; an illegal one gets error
// message="illegal move 3 (bG1 -wS1): ..." and the previous position is
// kept."
func TestPosLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		in      string
		line    string
		illegal bool
	}{
		{`pos variant=Base moves="wS1;bG1 -wS1;bG1 -wS1"`, `error message="illegal move 3 (bG1 -wS1): It's not that player's turn."`, true},
		{`pos variant=Base moves="wS1;bG1 -wS1;wQ bG1\"`, `error message="illegal move 3 (wQ bG1\): You can't place a piece touching your opponent's pieces."`, true},
		{`pos variant=Base moves="wQ"`, `error message="illegal move 1 (wQ): You can't play your Queen Bee on your first turn."`, true},
		{`pos variant=Base moves="wM"`, `error message="illegal move 1 (wM): That piece is not enabled in this game."`, true},
		{`pos variant=Base moves="wS1;bG1 -wX1"`, `error message="bad move 2 (bG1 -wX1): '-wX1' is not a position: 'wX1' is not a piece name: 'X' is not a bug (Q, S, B, G, A, M, L or P)"`, false},
		{`pos variant=Base moves="wS1;bG1 -wA1"`, `error message="bad move 2 (bG1 -wA1): '-wA1' is not a position: wA1 is not on the board"`, false},
		{`pos game="Base;InProgress;White[2];wS1;bS1"`, `error message="bad move 2 (bS1): 'bS1' needs a position: only the first piece of the game is played without one"`, false},
	} {
		p, err := hub.ParsePos(mustParse(t, tc.in))
		if err != nil {
			t.Fatalf("ParsePos(%q): %v", tc.in, err)
		}
		g, err := p.Load(core.Base)
		var me *hub.MoveError
		if g != nil || !errors.As(err, &me) {
			t.Fatalf("Load(%q) = %v, %v; want no game and a *MoveError", tc.in, g != nil, err)
		}
		if me.Illegal != tc.illegal {
			t.Errorf("Load(%q): Illegal = %v", tc.in, me.Illegal)
		}
		var re *core.RuleError
		if errors.As(err, &re) != tc.illegal {
			t.Errorf("Load(%q): %v wraps a *core.RuleError: %v", tc.in, err, !tc.illegal)
		}
		if s := hub.ErrorOf(err).Line().String(); s != tc.line {
			t.Errorf("Load(%q) is answered\n%s\nwant\n%s", tc.in, s, tc.line)
		}
	}
}

func TestMoveList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"wS1", []string{"wS1"}, ""},
		{"wS1;bG1 -wS1;wA1 wS1/", []string{"wS1", "bG1 -wS1", "wA1 wS1/"}, ""},
		{" wS1 ;\tbG1\t-wS1 ", []string{"wS1", "bG1 -wS1"}, ""},
		{"pass;pass", []string{"pass", "pass"}, ""},
		{";", nil, "move 1 of the list is empty"},
		{"wS1;", nil, "move 2 of the list is empty"},
		{"wS1;;bG1 -wS1", nil, "move 2 of the list is empty"},
	} {
		got, err := hub.ParseMoveList(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseMoveList(%q) = %q, %v; want an error that says %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseMoveList(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if again, err := hub.ParseMoveList(hub.FormatMoveList(got)); err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("ParseMoveList(FormatMoveList(%q)) = %q, %v", got, again, err)
		}
	}
}

// Principal variations, done lines and single moves, from random games:
// written in one position and read back in the same one, moves compare by
// what they do.
func TestMovesRandomGames(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var l core.MoveList
	for _, g := range randomGames(t) {
		if g.Over() {
			continue
		}
		h := g.Hash()
		// A random line of play of up to 8 plies.
		c := g.Clone()
		var pv []core.Move
		for i := 0; i < 8 && !c.Over(); i++ {
			c.GenerateMoves(&l)
			m := l.At(r.IntN(l.Len()))
			pv = append(pv, m)
			c.Play(m)
		}
		texts := hub.WriteMoves(g, pv)
		info := hub.NewInfo(len(pv), 0.5, 1000, 0, texts)
		back, err := hub.ReadAnswer(info.Line().String())
		if err != nil {
			t.Fatal(err)
		}
		got, err := hub.ReadMoves(g, back.(hub.Info).PV)
		if err != nil || !slices.Equal(got, pv) {
			t.Fatalf("%s: pv %q reads as %v, %v; want %v", uhptest.MustDescribe(t, g), texts, got, err, pv)
		}
		ponder := core.NoMove
		if len(pv) > 1 {
			ponder = pv[1]
		}
		done := hub.NewDone(g, pv[0], ponder)
		m, err := hub.ReadAnswer(done.Line().String())
		if err != nil {
			t.Fatal(err)
		}
		d := m.(hub.Done)
		if best, err := d.Best(g); err != nil || best != pv[0] {
			t.Fatalf("%s: done %q: best %v, %v; want %v", uhptest.MustDescribe(t, g), done.Line(), best, err, pv[0])
		}
		if p, err := d.PonderMove(g); err != nil || p != ponder {
			t.Fatalf("%s: done %q: ponder %v, %v; want %v", uhptest.MustDescribe(t, g), done.Line(), p, err, ponder)
		}
		// Every legal move, one by one.
		g.GenerateMoves(&l)
		for _, m := range l.Moves() {
			text := hub.WriteMove(m, g)
			if got, err := hub.ReadMove(text, g); err != nil || got != m {
				t.Fatalf("%s: %q reads as %v, %v; want %v", uhptest.MustDescribe(t, g), text, got, err, m)
			}
		}
		if g.Hash() != h {
			t.Fatalf("reading and writing moves changed the game")
		}
	}
}

func TestReadMoveErrors(t *testing.T) {
	g := core.NewGame(core.Base)
	if _, err := hub.ReadMove("wQ", g); err == nil || !strings.Contains(err.Error(), "Queen Bee on your first turn") {
		t.Errorf("ReadMove(wQ) at the start: %v", err)
	}
	if _, err := hub.ReadMove("wS1 bS1-", g); err == nil || !strings.Contains(err.Error(), "not on the board") {
		t.Errorf("ReadMove(wS1 bS1-) at the start: %v", err)
	}
	if _, err := hub.ReadMoves(g, []string{"wS1", "bS1 wS1-", "wS2 wS2-"}); err == nil || err.Error() != `bad move 3 (wS2 wS2-): "wS2-" is not a position: wS2 is not on the board` {
		t.Errorf("ReadMoves: %v", err)
	}
	d := hub.Done{Move: "wS1", Ponder: "wS2"}
	if _, err := d.PonderMove(g); err == nil || !strings.Contains(err.Error(), "move 2 (wS2)") {
		t.Errorf("PonderMove of an illegal ponder: %v", err)
	}
	if m, err := (hub.Done{Move: "wS1"}).PonderMove(g); m != core.NoMove || err != nil {
		t.Errorf("PonderMove without a ponder = %v, %v", m, err)
	}
}

func TestScore(t *testing.T) {
	for _, tc := range []struct {
		s      hub.Score
		text   string
		plies  int
		forced bool
	}{
		{0, "0", 0, false},
		{-0.01, "-0.01", 0, false},
		{1.5, "1.5", 0, false},
		{hub.WinIn(0), "1000", 0, true},
		{hub.WinIn(7), "993", 7, true},
		{hub.LossIn(12), "-988", 12, true},
		{hub.WinIn(hub.MaxForcedPlies), "500", hub.MaxForcedPlies, true},
		{499, "499", 0, false},
		{993.5, "993.5", 0, false},
		{1001, "1001", 0, false},
	} {
		if s := tc.s.String(); s != tc.text {
			t.Errorf("%v.String() = %q, want %q", float64(tc.s), s, tc.text)
		}
		n, ok := tc.s.Forced()
		if n != tc.plies || ok != tc.forced {
			t.Errorf("%v.Forced() = %d, %v; want %d, %v", tc.s, n, ok, tc.plies, tc.forced)
		}
		back, err := hub.ParseScore(tc.text)
		if err != nil || back != tc.s {
			t.Errorf("ParseScore(%q) = %v, %v", tc.text, back, err)
		}
	}
	for _, in := range []string{"", "abc", "NaN", "inf", "-Inf", "0x1p3", "1_000", "1e", ".", "+", "1e400", "1.2.3"} {
		if s, err := hub.ParseScore(in); err == nil {
			t.Errorf("ParseScore(%q) = %v, want an error", in, s)
		}
	}
	for _, in := range []string{"1", "+1", "-1", ".5", "5.", "1e3", "1E-3", "-0"} {
		if _, err := hub.ParseScore(in); err != nil {
			t.Errorf("ParseScore(%q): %v", in, err)
		}
	}
}

package uhp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// wantErr fails the test unless err is an error whose message contains
// every one of the key substrings, so that a message keeps saying what is
// wrong and not merely that something is.
func wantErr(t *testing.T, what string, err error, keys ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: got no error, want one mentioning %q", what, keys)
		return
	}
	for _, k := range keys {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("%s: error %q does not mention %q", what, err, k)
		}
	}
}

// load parses and loads a GameString that the test knows to be good.
func load(t testing.TB, s string) *core.Game {
	t.Helper()
	gs, err := uhp.ParseGameString(s)
	if err != nil {
		t.Fatalf("ParseGameString(%q): %v", s, err)
	}
	g, err := gs.Load()
	if err != nil {
		t.Fatalf("Load(%q): %v", s, err)
	}
	return g
}

func TestGameTypeString(t *testing.T) {
	canonical := []struct {
		s string
		t core.GameType
	}{
		{"Base", core.Base},
		{"Base+M", core.WithMosquito},
		{"Base+L", core.WithLadybug},
		{"Base+P", core.WithPillbug},
		{"Base+ML", core.WithMosquito | core.WithLadybug},
		{"Base+MP", core.WithMosquito | core.WithPillbug},
		{"Base+LP", core.WithLadybug | core.WithPillbug},
		{"Base+MLP", core.WithMosquito | core.WithLadybug | core.WithPillbug},
	}
	seen := map[core.GameType]bool{}
	for _, c := range canonical {
		got, err := uhp.ParseGameType(c.s)
		if err != nil || got != c.t {
			t.Errorf("ParseGameType(%q) = %v, %v; want %v", c.s, got, err, c.t)
		}
		if s := uhp.FormatGameType(c.t); s != c.s {
			t.Errorf("FormatGameType(%v) = %q, want %q", c.t, s, c.s)
		}
		seen[c.t] = true
	}
	if len(seen) != core.AllGameTypes {
		t.Errorf("the table covers %d game types, want all %d", len(seen), core.AllGameTypes)
	}

	// Any order of the expansion letters, and either case, is read; the
	// type is written back in the spec's order M, L, P.
	other := []struct{ in, want string }{
		{"Base+PLM", "Base+MLP"},
		{"Base+LM", "Base+ML"},
		{"Base+PM", "Base+MP"},
		{"Base+PL", "Base+LP"},
		{"Base+LPM", "Base+MLP"},
		{"Base+MPL", "Base+MLP"},
		{"Base+PML", "Base+MLP"},
		{"Base+LMP", "Base+MLP"},
		{"base+mlp", "Base+MLP"},
		{"BASE+l", "Base+L"},
		{"  Base+M\t", "Base+M"},
	}
	for _, c := range other {
		got, err := uhp.ParseGameType(c.in)
		if err != nil {
			t.Errorf("ParseGameType(%q): %v", c.in, err)
			continue
		}
		if s := uhp.FormatGameType(got); s != c.want {
			t.Errorf("ParseGameType(%q) is written back as %q, want %q", c.in, s, c.want)
		}
	}

	bad := []struct{ in, key string }{
		{"Base+", "no expansion letters"},
		{"Base+X", "not an expansion letter"},
		{"Base+MM", "twice"},
		{"Base+MLPM", "twice"},
		{"Base+M+L", "not an expansion letter"},
		{"Base+ M", "not an expansion letter"},
		{"Bse", "starts with Base"},
		{"", "starts with Base"},
		{"+M", "starts with Base"},
		{"BaseM", "starts with Base"},
		{"Base+MLPX", "not an expansion letter"},
	}
	for _, c := range bad {
		got, err := uhp.ParseGameType(c.in)
		wantErr(t, "ParseGameType("+quote(c.in)+")", err, c.key)
		if err != nil && got != 0 {
			t.Errorf("ParseGameType(%q) returned %v with its error", c.in, got)
		}
	}
}

func quote(s string) string { return `"` + s + `"` }

func TestGameStateString(t *testing.T) {
	states := []struct {
		s      string
		st     uhp.GameState
		result core.Result
	}{
		{"NotStarted", uhp.NotStarted, core.InProgress},
		{"InProgress", uhp.InProgress, core.InProgress},
		{"Draw", uhp.Draw, core.Draw},
		{"WhiteWins", uhp.WhiteWins, core.WhiteWins},
		{"BlackWins", uhp.BlackWins, core.BlackWins},
	}
	for _, c := range states {
		got, err := uhp.ParseGameState(c.s)
		if err != nil || got != c.st {
			t.Errorf("ParseGameState(%q) = %v, %v; want %v", c.s, got, err, c.st)
		}
		if r := c.st.Result(); r != c.result {
			t.Errorf("%s.Result() = %d, want %d", c.st, r, c.result)
		}
		if s := c.st.String(); s != c.s {
			t.Errorf("%d.String() = %q, want %q", c.st, s, c.s)
		}
		// Either case is read.
		if got, err := uhp.ParseGameState(strings.ToLower(c.s)); err != nil || got != c.st {
			t.Errorf("ParseGameState(%q) = %v, %v; want %v", strings.ToLower(c.s), got, err, c.st)
		}
	}
	for _, in := range []string{"", "Started", "In Progress", "WhiteWin", "Over", "InProgress;", "0"} {
		_, err := uhp.ParseGameState(in)
		wantErr(t, "ParseGameState("+quote(in)+")", err, "unknown game state", "NotStarted, InProgress, Draw, WhiteWins or BlackWins")
	}
	if s := uhp.GameState(9).String(); s != "GameState(9)" {
		t.Errorf("an out-of-range state is written %q", s)
	}

	// StateOf follows the game.
	g := core.NewGame(core.Base)
	if st := uhp.StateOf(g); st != uhp.NotStarted {
		t.Errorf("StateOf(new game) = %v", st)
	}
	g = load(t, "Base;InProgress;Black[1];wS1")
	if st := uhp.StateOf(g); st != uhp.InProgress {
		t.Errorf("StateOf(after wS1) = %v", st)
	}
}

func TestTurnString(t *testing.T) {
	good := []struct {
		s    string
		want uhp.Turn
	}{
		{"White[1]", uhp.Turn{Color: core.White, Number: 1}},
		{"Black[1]", uhp.Turn{Color: core.Black, Number: 1}},
		{"Black[12]", uhp.Turn{Color: core.Black, Number: 12}},
		{"White[100]", uhp.Turn{Color: core.White, Number: 100}},
	}
	for _, c := range good {
		got, err := uhp.ParseTurn(c.s)
		if err != nil || got != c.want {
			t.Errorf("ParseTurn(%q) = %+v, %v; want %+v", c.s, got, err, c.want)
		}
		if s := c.want.String(); s != c.s {
			t.Errorf("%+v.String() = %q, want %q", c.want, s, c.s)
		}
	}
	if got, err := uhp.ParseTurn(" black[3] "); err != nil || got != (uhp.Turn{Color: core.Black, Number: 3}) {
		t.Errorf("ParseTurn(\" black[3] \") = %+v, %v", got, err)
	}

	bad := []struct{ in, key string }{
		{"White[0]", "whole number from 1"},
		{"White[]", "whole number from 1"},
		{"White[-1]", "whole number from 1"},
		{"White[01]", "whole number from 1"},
		{"White[+1]", "whole number from 1"},
		{"White[1.0]", "whole number from 1"},
		{"White[x]", "whole number from 1"},
		{"White[99999999999999999999999]", "whole number from 1"},
		{"Red[1]", "must be White or Black"},
		{"[1]", "must be White or Black"},
		{"White [1]", "must be White or Black"},
		{"White[1", "want White[N] or Black[N]"},
		{"White1]", "want White[N] or Black[N]"},
		{"White", "want White[N] or Black[N]"},
		{"", "want White[N] or Black[N]"},
	}
	for _, c := range bad {
		_, err := uhp.ParseTurn(c.in)
		wantErr(t, "ParseTurn("+quote(c.in)+")", err, c.key)
	}

	// TurnOf counts turns per player, as the notation does.
	g := core.NewGame(core.Base)
	want := []string{"White[1]", "Black[1]", "White[2]", "Black[2]", "White[3]"}
	for i, w := range want {
		if s := uhp.TurnOf(g).String(); s != w {
			t.Errorf("after %d plies TurnOf = %s, want %s", i, s, w)
		}
		var l core.MoveList
		g.GenerateMoves(&l)
		g.Play(l.At(0))
	}
}

// specGameStrings are the GameStrings the UHP spec gives as examples; all
// are written in the canonical spelling of FormatMove.
var specGameStrings = []string{
	"Base;NotStarted;White[1]",
	"Base;InProgress;Black[1];wS1",
	"Base;InProgress;White[2];wS1;bS1 wS1-",
	"Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1",
	"Base+MLP;NotStarted;White[1]",
}

func TestGameStringSpecExamples(t *testing.T) {
	for _, s := range append(specGameStrings, canonicalPositions...) {
		gs, err := uhp.ParseGameString(s)
		if err != nil {
			t.Errorf("ParseGameString(%q): %v", s, err)
			continue
		}
		if got := gs.String(); got != s {
			t.Errorf("ParseGameString(%q).String() = %q", s, got)
		}
		g, err := gs.Load()
		if err != nil {
			t.Errorf("Load(%q): %v", s, err)
			continue
		}
		if got := uhptest.MustDescribe(t, g).String(); got != s {
			t.Errorf("Describe(Load(%q)) = %q", s, got)
		}
		if g.Ply() != len(gs.Moves) {
			t.Errorf("Load(%q) played %d plies, want %d", s, g.Ply(), len(gs.Moves))
		}
	}

	// The fields of one example, parsed.
	gs, err := uhp.ParseGameString("Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1")
	if err != nil {
		t.Fatal(err)
	}
	if gs.Type != core.Base || gs.State != uhp.InProgress || gs.Turn != (uhp.Turn{Color: core.White, Number: 3}) ||
		strings.Join(gs.Moves, "|") != "wS1|bG1 -wS1|wA1 wS1/|bG2 /bG1" {
		t.Errorf("parsed as %+v", gs)
	}
	// No moves is a nil list, so that values compare equal after a round trip.
	gs, _ = uhp.ParseGameString("Base;NotStarted;White[1]")
	if gs.Moves != nil {
		t.Errorf("a GameString without moves has Moves = %#v", gs.Moves)
	}
}

func TestGameStringLenient(t *testing.T) {
	// Other spellings are read; String writes the fields canonically and
	// keeps each move's text (blanks squeezed); Describe respells the moves.
	in := " base+plm ; inprogress ; white[2] ;WS1;  bs1\t WS1-  "
	gs, err := uhp.ParseGameString(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gs.String(), "Base+MLP;InProgress;White[2];WS1;bs1 WS1-"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	g, err := gs.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := uhptest.MustDescribe(t, g).String(), "Base+MLP;InProgress;White[2];wS1;bS1 wS1-"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}

	// Load recomputes the state and turn rather than trusting them.
	g = load(t, "Base;NotStarted;White[1];wS1")
	if got, want := uhptest.MustDescribe(t, g).String(), "Base;InProgress;Black[1];wS1"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

func TestGameStringErrors(t *testing.T) {
	parseErrors := []struct{ in, key string }{
		{"", "want GameType;GameState;Turn"},
		{"Base", "want GameType;GameState;Turn"},
		{"Base;NotStarted", "want GameType;GameState;Turn"},
		{"Base;InProgress;White[2];wS1;;bS1 wS1-", "move 2 is empty"},
		{"Base;InProgress;Black[1];wS1;", "move 2 is empty"},
		{"Base;NotStarted;White[1];", "move 1 is empty"},
		{"Base;InProgress;White[2];wS1; \t ", "move 2 is empty"},
		{"Bse;NotStarted;White[1]", "starts with Base"},
		{"Base+;NotStarted;White[1]", "no expansion letters"},
		{"Base;Started;White[1]", "unknown game state"},
		{"Base;NotStarted;Red[1]", "must be White or Black"},
		{"Base;NotStarted;White[0]", "whole number from 1"},
	}
	for _, c := range parseErrors {
		_, err := uhp.ParseGameString(c.in)
		wantErr(t, "ParseGameString("+quote(c.in)+")", err, c.key)
	}

	// Moves stay text until Load, which names the move that fails and
	// wraps the reason: the rule it breaks or what is wrong with its text.
	loadErrors := []struct {
		in   string
		keys []string
		rule bool
	}{
		{"Base;InProgress;Black[1];wQ", []string{`move 1 "wQ"`, "You can't play your Queen Bee on your first turn."}, true},
		{"Base;InProgress;White[2];wS1;bS1 wS1-;wA1 wS1/", []string{`move 3 "wA1 wS1/"`, "You can't place a piece touching your opponent's pieces."}, true},
		{"Base;InProgress;White[2];wS1;bS1 wS1-;wA1 bS1-", []string{`move 3 "wA1 bS1-"`, "You must place a piece touching one of your own pieces."}, true},
		{"Base;InProgress;White[2];wS1;wS2 wS1-", []string{`move 2 "wS2 wS1-"`, "It's not that player's turn."}, true},
		{"Base;InProgress;Black[1];wM", []string{`move 1 "wM"`, "That piece is not enabled in this game."}, true},
		{"Base;InProgress;Black[1];wS2", []string{`move 1 "wS2"`, "you must play the pieces in order"}, true},
		{"Base;InProgress;White[2];wS1;bS1 wS1-;pass", []string{`move 3 "pass"`, "You can't pass when you have valid moves."}, true},
		{"Base;InProgress;Black[1];wZ1", []string{`move 1 "wZ1"`, "not a bug"}, false},
		{"Base;InProgress;White[2];wS1;bS1 wG1-", []string{`move 2 "bS1 wG1-"`, "wG1 is not on the board"}, false},
		{"Base;InProgress;White[2];wS1;bS1", []string{`move 2 "bS1"`, "needs a position"}, false},
		{"Base;InProgress;White[2];wS1;bS1 -wS1-", []string{`move 2 "bS1 -wS1-"`, "not both"}, false},
	}
	for _, c := range loadErrors {
		gs, err := uhp.ParseGameString(c.in)
		if err != nil {
			t.Errorf("ParseGameString(%q): %v", c.in, err)
			continue
		}
		g, err := gs.Load()
		wantErr(t, "Load("+quote(c.in)+")", err, c.keys...)
		if g != nil {
			t.Errorf("Load(%q) returned a game with its error", c.in)
		}
		var re *core.RuleError
		if errors.As(err, &re) != c.rule {
			t.Errorf("Load(%q): error %v: wraps a *core.RuleError = %v, want %v", c.in, err, !c.rule, c.rule)
		}
	}
}

// Two random games that ended with a surrounded Queen, and one drawn by
// threefold repetition (the Queens shuffle twice from posQueens).
const (
	gameBlackWins = "Base;BlackWins;Black[19];wA1;bB1 wA1-;wB1 /wA1;bS1 bB1/;wQ -wB1;bA1 \\bS1;wQ -wA1;bQ bS1-;wG1 /wQ;bA1 wB1\\;wS1 -wQ;bG1 \\bQ;wB2 -wS1;bA1 bQ-;wA2 \\wS1;bB2 \\bA1;wA3 -wA2;bG2 \\bB2;wA2 -bG1;bG3 bG2/;wG2 \\wQ;bG1 bG3/;wA3 bG3\\;bA2 bS1\\;wG3 -wB2;bA2 \\bG1;wA2 -bG3;bA1 wA1\\;wS2 wB2\\;bA2 \\wG2;wA1 /wS2;bS2 bG1-;wA1 \\bA2;bA3 bB2\\;wA1 wQ/;bA3 wS2\\;wG3 wA1\\"
	gameWhiteWins = "Base;WhiteWins;White[19];wB1;bS1 -wB1;wS1 wB1/;bG1 -bS1;wA1 wB1\\;bS2 \\bG1;wQ \\wS1;bQ \\bS2;wA2 wA1-;bG2 -bQ;wB2 /wA1;bG3 \\bG2;wA3 /wB2;bB1 bQ/;wA2 /bG1;bB2 bB1-;wA2 \\bB1;bA1 /bG2;wA2 -bB1;bA1 -wB2;wS2 /wA3;bA1 wS2\\;wG1 wS1\\;bA2 \\bS1;wG2 wA1\\;bA1 wG1-;wS2 bS1\\;bA3 bB1\\;wA3 wG2\\;bA1 wA3/;wQ -wS1;bA1 wG1/;wA3 wG2-;bA1 /wB2;wG3 \\wS1;bG3 bG2\\"
	shuffle       = ";wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-"
	gameDraw      = "Base;Draw;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-" + shuffle + shuffle
)

func TestGameStringFinished(t *testing.T) {
	cases := []struct {
		s      string
		state  uhp.GameState
		result core.Result
	}{
		{gameBlackWins, uhp.BlackWins, core.BlackWins},
		{gameWhiteWins, uhp.WhiteWins, core.WhiteWins},
		{gameDraw, uhp.Draw, core.Draw},
	}
	for _, c := range cases {
		g := load(t, c.s)
		if g.Result() != c.result || uhp.StateOf(g) != c.state {
			t.Errorf("%s: result %v, StateOf %v", c.s, g.Result(), uhp.StateOf(g))
		}
		if got := uhptest.MustDescribe(t, g).String(); got != c.s {
			t.Errorf("Describe(Load(%q)) = %q", c.s, got)
		}
		// Nothing can be played once the game is over.
		gs, _ := uhp.ParseGameString(c.s)
		gs.Moves = append(gs.Moves, "pass")
		_, err := gs.Load()
		wantErr(t, "Load(finished game;pass)", err, "You can't pass, the game is over.")
	}

	// With the repetition draw off, as in the reference engine, the game
	// goes on; Load must then be told so to replay it.
	g := core.NewGame(core.Base, core.RepetitionDraw(false))
	gs, _ := uhp.ParseGameString(gameDraw + ";wQ \\wS1")
	for _, text := range gs.Moves {
		m, err := uhp.ParseMove(text, g)
		if err == nil {
			err = g.PlayChecked(m)
		}
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
	}
	s := uhptest.MustDescribe(t, g).String()
	if want := "Base;InProgress;Black[7];" + strings.Join(gs.Moves, ";"); s != want {
		t.Errorf("Describe = %q, want %q", s, want)
	}
	back, _ := uhp.ParseGameString(s)
	_, err := back.Load()
	wantErr(t, "Load with the repetition draw on", err, "move 13", "You can't play, the game is over.")
	g2, err := back.Load(core.RepetitionDraw(false))
	if err != nil {
		t.Fatalf("Load with the repetition draw off: %v", err)
	}
	if g2.Hash() != g.Hash() || uhptest.MustDescribe(t, g2).String() != s {
		t.Errorf("Load with the repetition draw off gives %q", uhptest.MustDescribe(t, g2).String())
	}
}

// A game set up from a position has no GameString: Describe says so with
// ErrSetUp rather than writing moves that would load as another game.
func TestDescribeSetUp(t *testing.T) {
	g := core.NewGame(core.Base)
	for _, s := range []string{"wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"} {
		m, err := uhp.ParseMove(s, g)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	s, err := core.NewGameAt(g.CurrentPosition())
	if err != nil {
		t.Fatal(err)
	}
	if gs, err := uhp.Describe(s); err != uhp.ErrSetUp {
		t.Errorf("Describe of a set-up game = %q, %v; want uhp.ErrSetUp", gs, err)
	}
	var l core.MoveList
	s.GenerateMoves(&l)
	s.Play(l.At(0)) // moves played since do not make it describable
	if _, err := uhp.Describe(s); err != uhp.ErrSetUp {
		t.Errorf("Describe of a set-up game after a move = %v; want uhp.ErrSetUp", err)
	}
}

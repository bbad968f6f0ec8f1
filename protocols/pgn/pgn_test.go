package pgn_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/hivebridge/hivebridge/protocols/pgn"
)

func read(t *testing.T, text string) []pgn.Game {
	t.Helper()
	games, err := pgn.Read(strings.NewReader(text))
	if err != nil {
		t.Fatalf("Read(%q): %v", text, err)
	}
	return games
}

func write(t *testing.T, games ...pgn.Game) string {
	t.Helper()
	var b strings.Builder
	if err := pgn.Write(&b, games...); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

// moves makes plies of text and comment pairs.
func moves(textComment ...string) []pgn.Move {
	var ms []pgn.Move
	for i := 0; i < len(textComment); i += 2 {
		ms = append(ms, pgn.Move{Text: textComment[i], Comment: textComment[i+1]})
	}
	return ms
}

// sameMove reports whether two plies have the same text, comment and NAGs.
func sameMove(a, b pgn.Move) bool {
	return a.Text == b.Text && a.Comment == b.Comment && slices.Equal(a.NAGs, b.NAGs)
}

func texts(g pgn.Game) []string {
	var ts []string
	for _, m := range g.Moves {
		ts = append(ts, m.Text)
	}
	return ts
}

// TestParseResult covers every spelling found in the wild (see ParseResult)
// and some case and space variants.
func TestParseResult(t *testing.T) {
	for _, c := range []struct {
		in   string
		want pgn.Result
	}{
		{"WhiteWins", pgn.ResultWhiteWins}, {"whitewins", pgn.ResultWhiteWins}, {"WHITEWINS", pgn.ResultWhiteWins}, {"1-0", pgn.ResultWhiteWins}, {" 1-0 ", pgn.ResultWhiteWins},
		{"BlackWins", pgn.ResultBlackWins}, {"blackWins", pgn.ResultBlackWins}, {"0-1", pgn.ResultBlackWins},
		{"Draw", pgn.ResultDraw}, {"DRAW", pgn.ResultDraw}, {"1/2-1/2", pgn.ResultDraw}, {"½-½", pgn.ResultDraw},
		{"InProgress", pgn.ResultInProgress}, {"inprogress", pgn.ResultInProgress},
		{"NotStarted", pgn.ResultNotStarted}, {"notStarted", pgn.ResultNotStarted},
		{"Unknown", pgn.ResultUnknown}, {"Unkown", pgn.ResultUnknown}, {"unkown", pgn.ResultUnknown}, {"*", pgn.ResultUnknown},
		{"error parsing result", pgn.ResultUnknown}, {"", pgn.ResultUnknown}, {"1-1", pgn.ResultUnknown}, {"White", pgn.ResultUnknown},
	} {
		if got := pgn.ParseResult(c.in); got != c.want {
			t.Errorf("ParseResult(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestResultString(t *testing.T) {
	for r, want := range map[pgn.Result]string{
		pgn.ResultUnknown: "Unknown", pgn.ResultNotStarted: "NotStarted", pgn.ResultInProgress: "InProgress",
		pgn.ResultWhiteWins: "WhiteWins", pgn.ResultBlackWins: "BlackWins", pgn.ResultDraw: "Draw", pgn.Result(9): "Result(9)",
	} {
		if got := r.String(); got != want {
			t.Errorf("Result(%d).String() = %q, want %q", int(r), got, want)
		}
		if r != pgn.Result(9) && pgn.ParseResult(want) != r {
			t.Errorf("ParseResult(%q) = %v, want %v", want, pgn.ParseResult(want), r)
		}
	}
}

// TestResultLines: each spelling as the line after the moves, and which of
// line and tag wins.
func TestResultLines(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       pgn.Result
		spelling   string
	}{
		{"Mzinga line", "[Result \"WhiteWins\"]\n\n1. wS1\n\nWhiteWins\n", pgn.ResultWhiteWins, "WhiteWins"},
		{"hivegame Unkown line", "[Result \"Unkown\"]\n\n1. wS1 \n\nUnkown\n", pgn.ResultUnknown, "Unkown"},
		{"chess line", "1. wS1\n0-1\n", pgn.ResultBlackWins, "0-1"},
		{"half line", "1. wS1\n½-½\n", pgn.ResultDraw, "½-½"},
		{"draw line", "1. wS1\n1/2-1/2\n", pgn.ResultDraw, "1/2-1/2"},
		{"star line", "1. wS1\n*\n", pgn.ResultUnknown, "*"},
		{"line wins over tag", "[Result \"WhiteWins\"]\n\n1. wS1\n\nBlackWins\n", pgn.ResultBlackWins, "BlackWins"},
		{"tag alone", "[Result \"1-0\"]\n\n1. wS1\n", pgn.ResultWhiteWins, "1-0"},
		{"lower-case tag name", "[result \"Draw\"]\n\n1. wS1\n", pgn.ResultDraw, "Draw"},
		{"no result", "[GameType \"Base\"]\n\n1. wS1\n", pgn.ResultUnknown, ""},
		{"no tags, no result", "1. wS1\n2. bS1 wS1-\n", pgn.ResultUnknown, ""},
		{"tag in progress", "[Result \"InProgress\"]\n\n1. wS1\n", pgn.ResultInProgress, "InProgress"},
		{"result without moves", "[GameType \"Base\"]\n\nNotStarted\n", pgn.ResultNotStarted, "NotStarted"},
		{"result after a comment", "1. wS1 {good}\nDraw ; agreed\n", pgn.ResultDraw, "Draw"},
	} {
		t.Run(c.name, func(t *testing.T) {
			games := read(t, c.text)
			if len(games) != 1 {
				t.Fatalf("%d games, want 1", len(games))
			}
			if g := games[0]; g.Result != c.want || g.ResultText != c.spelling {
				t.Errorf("result %v %q, want %v %q", g.Result, g.ResultText, c.want, c.spelling)
			}
		})
	}
}

// TestMoveLines: numbered as every producer writes, numbered the other ways
// Mzinga's LoadPGN takes, and unnumbered.
func TestMoveLines(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{"12. wA1 -bQ", "wA1 -bQ"},
		{"12.wA1 -bQ", "wA1 -bQ"},
		{"12... wA1 -bQ", "wA1 -bQ"},
		{"12 wA1 -bQ", "wA1 -bQ"},
		{"wA1 -bQ", "wA1 -bQ"},
		{"  12.  wA1 -bQ  ", "wA1 -bQ"},
		{"1. wL ", "wL"},            // hivegame.com's trailing space
		{"48. pass ", "pass"},       // hivegame.com's pass
		{"48. PASS", "PASS"},        // Mzinga takes any case; kept as written
		{"3. wb1 WS1/", "wb1 WS1/"}, // likewise
		{"1. wS1 .", "wS1 ."},       // hivegame's old first move
		{"5. wB1 bQ", "wB1 bQ"},     // a climb: a piece as destination
		{"7. bS1\twS1-", "bS1\twS1-"},
		{`9. wA3 \bG3`, `wA3 \bG3`},
		{"10. wG1 bQ/", "wG1 bQ/"},
	} {
		games := read(t, "[GameType \"Base\"]\n\n"+c.line+"\n")
		if got := texts(games[0]); len(got) != 1 || got[0] != c.want {
			t.Errorf("%q read as %q, want %q", c.line, got, c.want)
		}
	}
}

// TestComments: Mzinga's comments ({...} alone on a line, possibly over
// lines, the opening one before the first ply), and the others Read takes.
func TestComments(t *testing.T) {
	// Constructed from Mzinga's SavePGN (no real commented file was found).
	const mzinga = "[GameType \"Base\"]\n[Date \"2024.05.01\"]\n[Event \"\"]\n[Site \"\"]\n[Round \"\"]\n" +
		"[White \"alice\"]\n[Black \"Mzinga.Engine 0.15\"]\n[Result \"InProgress\"]\n\n" +
		"{Opening note}\n1. wS1\n{after white's first move\nsecond line}\n2. bS1 wS1-\n3. wQ -wS1\n"
	g := read(t, mzinga)[0]
	if g.Opening != "Opening note" {
		t.Errorf("opening %q", g.Opening)
	}
	want := []pgn.Move{{Text: "wS1", Comment: "after white's first move\nsecond line"}, {Text: "bS1 wS1-"}, {Text: "wQ -wS1"}}
	if !slices.EqualFunc(g.Moves, want, sameMove) {
		t.Errorf("moves %+v, want %+v", g.Moves, want)
	}
	if out := write(t, g); out != mzinga {
		t.Errorf("Write:\n%s\nwant:\n%s", out, mzinga)
	}

	for _, c := range []struct {
		name, text, opening string
		moves               []pgn.Move
	}{
		{"after the move on its line", "1. wS1 {first}\n2. bS1 wS1-\n", "", moves("wS1", "first", "bS1 wS1-", "")},
		{"semicolon", "1. wS1 ; not kept\n2. bS1 wS1- ;\n; a whole line\n", "", moves("wS1", "", "bS1 wS1-", "")},
		{"semicolon inside braces", "1. wS1 {a; b}\n", "", moves("wS1", "a; b")},
		{"two comments joined", "1. wS1\n{a}\n{ b }\n", "", moves("wS1", "a\nb")},
		{"lines trimmed, blank kept", "1. wS1\n{  a  \n\n   b   }\n", "", moves("wS1", "a\n\nb")},
		{"braces deleted", "1. wS1\n{a {b}\n", "", moves("wS1", "a b")},
		{"empty comment", "1. wS1\n{}\n{  }\n", "", moves("wS1", "")},
		{"move after a comment on its line", "{note} 1. wS1\n", "note", moves("wS1", "")},
		{"comment before the tags", "{early}\n[GameType \"Base\"]\n\n1. wS1\n", "early", moves("wS1", "")},
		{"comment after the result", "1. wS1\n\nWhiteWins\n{well played}\n", "", moves("wS1", "well played")},
		{"tag-like text inside", "1. wS1\n{\n[White \"x\"]\n2. bS1\n}\n", "", moves("wS1", "[White \"x\"]\n2. bS1")},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := read(t, c.text)[0]
			if g.Opening != c.opening || !slices.EqualFunc(g.Moves, c.moves, sameMove) {
				t.Errorf("opening %q, moves %+v; want %q, %+v", g.Opening, g.Moves, c.opening, c.moves)
			}
		})
	}
}

// TestNAGs: Numeric Annotation Glyphs after a ply, as chess PGN writes
// them ("$N") and as its move suffixes, written back as "$N" after the
// MoveString, and a ply without any written as Mzinga writes it.
func TestNAGs(t *testing.T) {
	const text = "1. wS1 $1\n2. bS1 wS1- ?? $14\n{a blunder}\n3. wQ -wS1\n4. bQ bS1- !?\n5. wA1 wQ- ?\n6. bA1 \\bQ !\n7. wA1 bQ- !!\n8. pass ?!\n"
	g := read(t, text)[0]
	want := []pgn.Move{{Text: "wS1", NAGs: []int{1}}, {Text: "bS1 wS1-", NAGs: []int{4, 14}, Comment: "a blunder"}, {Text: "wQ -wS1"},
		{Text: "bQ bS1-", NAGs: []int{5}}, {Text: "wA1 wQ-", NAGs: []int{2}}, {Text: "bA1 \\bQ", NAGs: []int{1}}, {Text: "wA1 bQ-", NAGs: []int{3}},
		{Text: "pass", NAGs: []int{6}}}
	if !slices.EqualFunc(g.Moves, want, sameMove) {
		t.Fatalf("moves %v, want %v", g.Moves, want)
	}
	out := write(t, g)
	for _, line := range []string{"\n1. wS1 $1\n", "\n2. bS1 wS1- $4 $14\n{a blunder}\n", "\n3. wQ -wS1\n", "\n8. pass $6\n"} {
		if !strings.Contains(out, line) {
			t.Errorf("Write gave\n%s\nwithout %q", out, line)
		}
	}
	if back := read(t, out)[0]; !slices.EqualFunc(back.Moves, want, sameMove) {
		t.Errorf("read back %v, want %v", back.Moves, want)
	}
}

// TestMultipleGames: where a game ends and the next begins.
func TestMultipleGames(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       [][]string // each game's plies
		results    []pgn.Result
	}{
		{"result lines", "[White \"a\"]\n\n1. wS1\n\nWhiteWins\n\n[White \"b\"]\n\n1. wG1\n\nDraw\n",
			[][]string{{"wS1"}, {"wG1"}}, []pgn.Result{pgn.ResultWhiteWins, pgn.ResultDraw}},
		{"tags after moves", "[White \"a\"]\n[Result \"1-0\"]\n\n1. wS1\n2. bS1 wS1-\n[White \"b\"]\n\n1. wG1\n",
			[][]string{{"wS1", "bS1 wS1-"}, {"wG1"}}, []pgn.Result{pgn.ResultWhiteWins, pgn.ResultUnknown}},
		{"result without moves", "[White \"a\"]\nNotStarted\n[White \"b\"]\n",
			[][]string{nil, nil}, []pgn.Result{pgn.ResultNotStarted, pgn.ResultUnknown}},
		{"repeated header", "[GameType \"Base\"]\n[White \"a\"]\n\n[GameType \"Base+M\"]\n[White \"b\"]\n",
			[][]string{nil, nil}, []pgn.Result{pgn.ResultUnknown, pgn.ResultUnknown}},
		{"tags anywhere before the moves", "[White \"a\"]\n\n{note}\n[Black \"b\"]\n1. wS1\n",
			[][]string{{"wS1"}}, []pgn.Result{pgn.ResultUnknown}},
		{"nothing", "\n\n; only a comment\n", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			games := read(t, c.text)
			if len(games) != len(c.want) {
				t.Fatalf("%d games, want %d", len(games), len(c.want))
			}
			for i, g := range games {
				if !slices.Equal(texts(g), c.want[i]) || g.Result != c.results[i] {
					t.Errorf("game %d: %q %v, want %q %v", i+1, texts(g), g.Result, c.want[i], c.results[i])
				}
			}
		})
	}

	// Write separates games by a blank line, and Read splits them back.
	a := pgn.Game{Tags: tags("White", "a"), Moves: moves("wS1", ""), Result: pgn.ResultInProgress}
	b := pgn.Game{Tags: tags("White", "b")}
	c := pgn.Game{Tags: tags("White", "c"), Moves: moves("wG1", ""), Result: pgn.ResultDraw}
	out := write(t, a, b, c)
	if !strings.Contains(out, "1. wS1\n\n[GameType \"\"]") {
		t.Errorf("games not separated by one blank line:\n%s", out)
	}
	back := read(t, out)
	if len(back) != 3 {
		t.Fatalf("read back %d games, want 3:\n%s", len(back), out)
	}
	for i, want := range []string{"a", "b", "c"} {
		if v, _ := back[i].Tag("White"); v != want {
			t.Errorf("game %d: White %q, want %q", i+1, v, want)
		}
	}
}

// TestLineEnds: CR LF, lone CR and a byte-order mark read as LF does.
func TestLineEnds(t *testing.T) {
	const lf = "[GameType \"Base\"]\n[Result \"Draw\"]\n\n{a\nb}\n1. wS1 \n2. bS1 wS1-\n\nDraw\n"
	want := read(t, lf)
	for name, text := range map[string]string{
		"CRLF":      strings.ReplaceAll(lf, "\n", "\r\n"),
		"CR":        strings.ReplaceAll(lf, "\n", "\r"),
		"BOM":       "\uFEFF" + lf,
		"BOM CRLF":  "\uFEFF" + strings.ReplaceAll(lf, "\n", "\r\n"),
		"mixed":     strings.Replace(strings.Replace(lf, "\n", "\r\n", 3), "\n", "\r", 2),
		"one byte":  lf, // read through iotest.OneByteReader below
		"no EOL":    strings.TrimSuffix(lf, "\n"),
		"blank end": lf + "\n\n  \n",
	} {
		r := strings.NewReader(text)
		games, err := pgn.Read(iotest.OneByteReader(r))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(games) != 1 || !slices.Equal(games[0].Tags, want[0].Tags) || !slices.EqualFunc(games[0].Moves, want[0].Moves, sameMove) ||
			games[0].Opening != want[0].Opening || games[0].Result != want[0].Result {
			t.Errorf("%s: read %+v, want %+v", name, games, want)
		}
	}
}

// TestTags: how tag lines split, and Tag and SetTag.
func TestTags(t *testing.T) {
	g := read(t, "[White \"a b\"]\n[Black   \"x\"y\" ]\n[Site hivegame.com]\n[Round]\n[Event \"\"]\n"+
		"[Date \"\\\"back\\slash\"]\n[GameType\t\"Base+MLP\"]\n[SgfDate \"Fri Apr 19\"]\n")[0]
	want := tags("White", "a b", "Black", `x"y`, "Site", "hivegame.com", "Round", "", "Event", "",
		"Date", `\"back\slash`, "GameType", "Base+MLP", "SgfDate", "Fri Apr 19")
	if !slices.Equal(g.Tags, want) {
		t.Errorf("tags\n got %q\nwant %q", g.Tags, want)
	}
	if v, ok := g.Tag("sgfdate"); !ok || v != "Fri Apr 19" {
		t.Errorf("Tag(sgfdate) = %q, %v", v, ok)
	}
	if _, ok := g.Tag("Nope"); ok {
		t.Error("Tag(Nope) found")
	}
	g.SetTag("WHITE", "z")
	g.SetTag("Extra", "e")
	if v, _ := g.Tag("White"); v != "z" || g.Tags[0].Name != "White" || g.Tags[len(g.Tags)-1] != (pgn.Tag{Name: "Extra", Value: "e"}) {
		t.Errorf("after SetTag: %q", g.Tags)
	}
}

// TestWrite: Mzinga's layout, the normalisation of values and comments,
// and what Write refuses.
func TestWrite(t *testing.T) {
	g := pgn.Game{
		Tags: tags("Extra", "one", "white", ` "quoted" name `, "Result", "1-0", "Site", "line\r\nbreak",
			"extra", "dropped: Tag finds the first", "Note", "ünïcode"),
		Opening: "{braced}  \r\n  opening ",
		Moves:   moves(" wS1 ", "", "bS1 wS1-", "\n\n", "pass", "x\r\ny"),
		Result:  pgn.ResultBlackWins,
	}
	want := "[GameType \"\"]\n[Date \"\"]\n[Event \"\"]\n[Site \"linebreak\"]\n[Round \"\"]\n[White \"quoted name\"]\n[Black \"\"]\n[Result \"BlackWins\"]\n" +
		"[Extra \"one\"]\n[Note \"ünïcode\"]\n\n{braced\nopening}\n1. wS1\n2. bS1 wS1-\n3. pass\n{x\ny}\n\nBlackWins\n"
	if out := write(t, g); out != want {
		t.Errorf("Write:\n%s\nwant:\n%s\n%s", out, want, diffLines(out, want))
	}

	if out := write(t, pgn.Game{}); out != "[GameType \"\"]\n[Date \"\"]\n[Event \"\"]\n[Site \"\"]\n[Round \"\"]\n[White \"\"]\n[Black \"\"]\n[Result \"Unknown\"]\n" {
		t.Errorf("Write of an empty game:\n%s", out)
	}
	if out := write(t); out != "" {
		t.Errorf("Write of no games: %q", out)
	}

	for name, bad := range map[string]pgn.Game{
		"empty name":    {Tags: tags("", "x")},
		"spaced name":   {Tags: tags("Two words", "x")},
		"not a move":    {Moves: moves("hello", "")},
		"two plies":     {Moves: moves("wS1 bS1 wS1-", "")},
		"line break":    {Moves: moves("wS1\nbS1", "")},
		"empty move":    {Moves: moves(" ", "")},
		"result":        {Moves: moves("1-0", "")},
		"bogus result":  {Result: pgn.Result(42)},
		"NAG too large": {Moves: []pgn.Move{{Text: "wS1", NAGs: []int{256}}}},
		"negative NAG":  {Moves: []pgn.Move{{Text: "wS1", NAGs: []int{-1}}}},
	} {
		var b bytes.Buffer
		err := pgn.Write(&b, pgn.Game{Moves: []pgn.Move{{Text: "wS1"}}}, bad)
		if err == nil || !strings.HasPrefix(err.Error(), "pgn: game 2: ") {
			t.Errorf("%s: Write gave %v, want an error on game 2", name, err)
		}
	}
}

// TestErrors: each malformed line is a *SyntaxError on its line.
func TestErrors(t *testing.T) {
	long := strings.Repeat("x", pgn.MaxLineLength+1)
	for _, c := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"tag not closed", "[GameType \"Base\"]\n[White \"a\"\n", 2, "does not end with ']'"},
		{"tag without a name", "[ \"x\"]\n", 1, "without a name"},
		{"empty tag", "[]\n", 1, "without a name"},
		{"not a move", "[GameType \"Base\"]\n\n1. wS1\n2. hello\n", 4, `"hello" is neither a move`},
		{"two plies on a line", "1. wS1 2. bS1 wS1-\n", 1, "not one ply"},
		{"chess move pair", "1. wS1 bS1 wS1-\n", 1, "not one ply"},
		{"number alone", "1. wS1\n2.\n", 2, "without a move"},
		{"move after result", "1. wS1\nWhiteWins\n2. bS1 wS1-\n", 3, "after the game's result"},
		{"second result", "1. wS1\nWhiteWins\nDraw\n", 3, "second result"},
		{"stray close", "1. wS1\nfoo }\n", 2, "'}' without a '{'"},
		{"comment never closed", "1. wS1\n\n{open\nstill\n", 3, "never closed"},
		{"long line", "1. wS1\n" + long + "\n", 2, "longer than"},
		{"long last line", "1. wS1\n" + long, 2, "longer than"},
		{"long CRLF line", "\r\n\r\n" + long[:pgn.MaxLineLength-1] + "xx\r\n", 3, "longer than"},
		{"two separators", "1. wS1\n2. bS1 -wS1-\n", 2, "neither a move"},
		{"bad piece", "1. wX1\n", 1, "neither a move"},
		{"move with a dot", "1. wS1.\n", 1, "neither a move"},
		{"pass with a destination", "5. pass wS1\n", 1, "neither a move"},
		{"error line", "1. wS1\nerror parsing result\n", 2, "not one ply"},
		{"NAG too large", "1. wS1 $256\n", 1, `"$256" is not an annotation glyph`},
		{"NAG without digits", "1. wS1 $\n", 1, "not an annotation glyph"},
		{"move after a NAG", "1. wS1 $1 -bQ\n", 1, `"-bQ" is not an annotation glyph`},
		{"unknown suffix", "1. wS1 ?!?\n", 1, `"?!?" is not an annotation glyph`},
		{"NAG without a move", "4. $2\n", 1, "without a move"},
	} {
		t.Run(c.name, func(t *testing.T) {
			games, err := pgn.Read(strings.NewReader(c.text))
			var se *pgn.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Read gave %v, %v; want a *SyntaxError", games, err)
			}
			if games != nil || se.Line != c.line || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("got %v (%d games), want line %d: ...%s...", err, len(games), c.line, c.msg)
			}
			if want := "pgn: line "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not begin %q", err, want)
			}
		})
	}
	// Exactly MaxLineLength is still a line.
	ok := "{" + strings.Repeat("x", pgn.MaxLineLength-2) + "}"
	if _, err := pgn.Read(strings.NewReader(ok + "\r\n")); err != nil {
		t.Errorf("a line of MaxLineLength bytes: %v", err)
	}
}

// TestReadError: an error of the reader itself is returned, not a
// SyntaxError.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := pgn.Read(iotest.ErrReader(boom))
	var se *pgn.SyntaxError
	if !errors.Is(err, boom) || errors.As(err, &se) {
		t.Errorf("Read gave %v, want %v", err, boom)
	}
}

// TestHostileInput: inputs that would take quadratic work from a careless
// reader finish, and give what they should.
func TestHostileInput(t *testing.T) {
	const n = 200_000
	comments := "1. wS1\n" + strings.Repeat("{x}\n", n)
	g := read(t, comments)[0]
	if len(g.Moves[0].Comment) != 2*n-1 {
		t.Errorf("comment of %d bytes, want %d", len(g.Moves[0].Comment), 2*n-1)
	}
	games, err := pgn.Read(iotest.OneByteReader(strings.NewReader(strings.Repeat(" ", pgn.MaxLineLength) + "\n1. wS1\n")))
	if err != nil || len(games) != 1 {
		t.Errorf("a long blank line read a byte at a time: %v, %d games", err, len(games))
	}
	headers := strings.Repeat("[GameType \"Base\"]\n", n)
	if games := read(t, headers); len(games) != n {
		t.Errorf("%d games, want %d", len(games), n)
	}
	var many strings.Builder // one game of many distinct tags
	for i := range n {
		fmt.Fprintf(&many, "[T%d \"v\"]\n", i)
	}
	if games := read(t, many.String()); len(games) != 1 || len(games[0].Tags) != n {
		t.Errorf("%d games, want one of %d tags", len(games), n)
	}
}

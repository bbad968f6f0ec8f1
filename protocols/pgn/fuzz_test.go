package pgn_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/protocols/pgn"
)

// FuzzRead reads arbitrary bytes. Read must not panic and must fail only
// with a *SyntaxError; every game it reads must round-trip: written by
// Write and read again it is the same game (the same plies, comments and
// result, its tags as Write normalises them), and writing that gives the
// same bytes.
func FuzzRead(f *testing.F) {
	for _, rf := range realFiles {
		f.Add(readTestdata(f, rf.path))
	}
	for _, s := range []string{
		"", "\uFEFF", "[GameType \"Base\"]\r\n\r\n1. wS1 \r\n2. bS1 wS1-\r\n\r\nWhiteWins\r\n",
		"{opening}\n1. wS1\n{a\n\nb}\n2. pass ; x\nDraw\n[White \"next\"]\n1. wG1 {c} 2. x",
		"[A]\n[A \"\"]\n[ \"\"]\n[a b c]\n[\"]\n", "NotStarted\n*\n", "1.\n", "}", "{", "{\r\r}",
		"[Result \"½-½\"]\n1. wQ1 .\n12...bA3 \\wB2\nUnkown\n", "wS1\nbs1 WS1-\npass\n",
		"1. wS1 $1\n2. bS1 wS1- ?? $14 {blunder}\n3. wQ -wS1 !?\n4. $2\n5. wA1 $256\n", "1. wS1 ?!?\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := pgn.Read(bytes.NewReader(data))
		if err != nil {
			var se *pgn.SyntaxError
			if !errors.As(err, &se) || games != nil {
				t.Fatalf("Read gave %d games and %v, want a *SyntaxError", len(games), err)
			}
			return
		}
		for i, g := range games {
			if pgn.ParseResult(g.ResultText) != g.Result {
				t.Fatalf("game %d: Result %v but ResultText %q", i+1, g.Result, g.ResultText)
			}
		}
		var out bytes.Buffer
		if err := pgn.Write(&out, games...); err != nil {
			t.Fatalf("Write of what Read read: %v", err)
		}
		back, err := pgn.Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("Read of what Write wrote: %v\n%s", err, out.Bytes())
		}
		if len(back) != len(games) {
			t.Fatalf("%d games written, %d read back:\n%s", len(games), len(back), out.Bytes())
		}
		for i := range games {
			sameGame(t, i+1, games[i], back[i])
		}
		var again bytes.Buffer
		if err := pgn.Write(&again, back...); err != nil || !bytes.Equal(again.Bytes(), out.Bytes()) {
			t.Fatalf("written again (%v):\n%s\nfirst written:\n%s", err, again.Bytes(), out.Bytes())
		}
	})
}

// sameGame checks that back, read from Write's output of g, is g.
func sameGame(t *testing.T, n int, g, back pgn.Game) {
	t.Helper()
	if back.Opening != g.Opening || back.Result != g.Result || len(back.Moves) != len(g.Moves) {
		t.Fatalf("game %d: opening %q, result %v, %d plies; read back %q, %v, %d plies",
			n, g.Opening, g.Result, len(g.Moves), back.Opening, back.Result, len(back.Moves))
	}
	for i := range g.Moves {
		if back.Moves[i].Text != g.Moves[i].Text || back.Moves[i].Comment != g.Moves[i].Comment || !slices.Equal(back.Moves[i].NAGs, g.Moves[i].NAGs) {
			t.Fatalf("game %d, ply %d: %+v read back as %+v", n, i+1, g.Moves[i], back.Moves[i])
		}
	}
	backTags := map[string]string{} // back's tags by name, without ASCII case
	for _, tag := range back.Tags {
		backTags[asciiLower(tag.Name)] = tag.Value
	}
	others := 0
	for _, tag := range g.Tags {
		if isMandatory(tag.Name) {
			continue
		}
		others++
		if v, ok := backTags[asciiLower(tag.Name)]; !ok || v != writtenValue(tag.Value) {
			t.Fatalf("game %d: tag %q read back as %q, %v", n, tag, v, ok)
		}
	}
	if len(back.Tags) != 8+others {
		t.Fatalf("game %d: %d tags read back, want the 8 of Mzinga and %d others", n, len(back.Tags), others)
	}
	for _, name := range []string{"GameType", "Date", "Event", "Site", "Round", "White", "Black"} {
		v, _ := g.Tag(name)
		if w, _ := back.Tag(name); w != writtenValue(v) {
			t.Fatalf("game %d: %s %q read back as %q", n, name, v, w)
		}
	}
	if v, _ := back.Tag("Result"); v != g.Result.String() {
		t.Fatalf("game %d: Result tag %q, want %q", n, v, g.Result)
	}
}

// isMandatory reports whether name is one of Mzinga's eight tags, letters
// compared without case as Tag compares them: ASCII letters only, which the
// equal lengths ensure (a non-ASCII rune that folds to an ASCII letter,
// such as U+017F to s, is longer than it).
func isMandatory(name string) bool {
	for _, m := range []string{"GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result"} {
		if len(name) == len(m) && strings.EqualFold(name, m) {
			return true
		}
	}
	return false
}

// writtenValue is a tag value as Write writes it: without '"', CR and LF
// (Mzinga's SetTag removes quotes), trimmed.
func writtenValue(v string) string {
	for _, c := range []string{`"`, "\r", "\n"} {
		v = strings.ReplaceAll(v, c, "")
	}
	return strings.TrimSpace(v)
}

// asciiLower folds ASCII letters only, as Tag compares names.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

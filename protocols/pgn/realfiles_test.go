package pgn_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/protocols/pgn"
)

// The files in testdata are real records written by Mzinga, hivegame.com,
// Hive_sgf-to-pgn and an unattributed hivegame.com archive tool, copied as
// testdata/SOURCES.md says. The facts below were read off the files by eye
// and by grep, not by this package: they are the producers' word.

// realFile is what one real file holds.
type realFile struct {
	path        string
	tags        []pgn.Tag // all of them, in order
	plies       int
	passes      int
	first, last string
	result      pgn.Result
	resultText  string
	resultLine  bool // the file ends with a result line after the moves
	mzinga      bool // written by Mzinga's SavePGN: Write must give it back byte for byte
}

func tags(kv ...string) []pgn.Tag {
	var ts []pgn.Tag
	for i := 0; i < len(kv); i += 2 {
		ts = append(ts, pgn.Tag{Name: kv[i], Value: kv[i+1]})
	}
	return ts
}

var realFiles = []realFile{
	{
		path: "mzinga/HV-Abbo69-WeakBot-2018-10-28-2007.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "2018.10.28", "Event", "", "Site", "", "Round", "",
			"White", "Abbo69", "Black", "WeakBot", "Result", "WhiteWins",
			"SgfDate", "28 October 2018", "SgfGameName", "HV-Abbo69-WeakBot-2018-10-28-2007", "SgfResult", "Game won by Abbo69"),
		plies: 31, first: "wS1", last: "wB1 -bQ",
		result: pgn.ResultWhiteWins, resultText: "WhiteWins", resultLine: true, mzinga: true,
	},
	{
		path: "mzinga/HV-Dumbot-guest-2018-10-31-1402.pgn",
		tags: tags("GameType", "Base", "Date", "2018.10.31", "Event", "", "Site", "", "Round", "",
			"White", "Dumbot", "Black", "guest", "Result", "Draw",
			"SgfDate", "Wed Oct 31 15:02:42 CET 2018", "SgfGameName", "HV-Dumbot-guest-2018-10-31-1402", "SgfResult", "The game is a draw"),
		plies: 94, passes: 12, first: "wG1", last: "pass",
		result: pgn.ResultDraw, resultText: "Draw", resultLine: true, mzinga: true,
	},
	{
		path: "mzinga/T!HV-dube-Quodlibet-2021-12-11-1632.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "2021.12.11", "Event", "", "Site", "", "Round", "",
			"White", "dube", "Black", "Quodlibet", "Result", "BlackWins",
			"SgfDate", "Sat Dec 11 08:32:57 PST 2021", "SgfGameName", "T!HV-dube-Quodlibet-2021-12-11-1632", "SgfResult", "Game won by Quodlibet"),
		plies: 25, first: "wB1", last: `wA2 \bA1`,
		result: pgn.ResultBlackWins, resultText: "BlackWins", resultLine: true, mzinga: true,
	},
	{
		path: "mzinga/U!HV-kearf29-Dumbot-2013-04-20-0054.pgn",
		tags: tags("GameType", "Base+P", "Date", "2013.04.19", "Event", "", "Site", "", "Round", "",
			"White", "kearf29", "Black", "Dumbot", "Result", "BlackWins",
			"SgfDate", "Fri Apr 19 19:54:39 CDT 2013"),
		plies: 140, first: "wG1", last: `bG2 bS1\`,
		result: pgn.ResultBlackWins, resultText: "BlackWins", resultLine: true, mzinga: true,
	},
	{
		// Hive_sgf-to-pgn: chess result in the tag, no result line.
		path: "hivegame/THV-aenorman43-Marko60-2024-03-18-2138.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "2024.03.18", "Event", "", "Site", "boardspace.net", "Round", "",
			"White", "aenorman43", "Black", "Marko60", "Result", "1/2-1/2"),
		plies: 79, first: "wM", last: `wA3 \bG3`,
		result: pgn.ResultDraw, resultText: "1/2-1/2",
	},
	{
		// hivegame.com download: six tags, "1. wL " with a trailing space,
		// and a final result line.
		path: "hivegame/direction_as_destination.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "30-Jan-2024_16:10:56", "Site", "hivegame.com",
			"White", "antoinelr", "Black", "HappyKiwi", "Result", "Draw"),
		plies: 99, first: "wL", last: "wA3 bG2/",
		result: pgn.ResultDraw, resultText: "Draw", resultLine: true,
	},
	{
		// The unattributed archive tool: UTF-8 "½-½".
		path: "hivegame/false_draw_by_stunned_cell.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "", "Event", "hivegame.com", "Site", "hivegame.com/game/iIPQLORgQUe9", "Round", "",
			"White", "", "Black", "", "Result", "½-½"),
		plies: 46, first: "wL", last: `wA1 wA3\`,
		result: pgn.ResultDraw, resultText: "½-½",
	},
	{
		path: "hivegame/missed_repetition.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "", "Event", "hivegame.com", "Site", "hivegame.com/game/ySoi7lraT6Xc", "Round", "",
			"White", "Antsy", "Black", "Kaur50", "Result", "1-0"),
		plies: 69, first: "wL", last: `wA2 bB1\`,
		result: pgn.ResultWhiteWins, resultText: "1-0",
	},
	{
		path: "hivegame/pass.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "2023.01.08", "Event", "", "Site", "boardspace.net", "Round", "",
			"White", "csigeee", "Black", "Balu", "Result", "1-0"),
		plies: 85, passes: 16, first: "wP", last: `wL \bP`,
		result: pgn.ResultWhiteWins, resultText: "1-0",
	},
	{
		// hivegame.com download of a won game without the result line.
		path: "hivegame/piece_as_destination.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "20-Jan-2024_14:53:24", "Site", "hivegame.com",
			"White", "Jewdoka", "Black", "Cavaliers16", "Result", "WhiteWins"),
		plies: 29, first: "wP", last: `wB1 bQ\`,
		result: pgn.ResultWhiteWins, resultText: "WhiteWins",
	},
	{
		// Hive_sgf-to-pgn's failure spelling: the result is unknown.
		path: "hivegame/q_first_missing_result.pgn",
		tags: tags("GameType", "Base+M", "Date", "2008.06.10", "Event", "", "Site", "boardspace.net", "Round", "",
			"White", "a2na", "Black", "mort", "Result", "error parsing result"),
		plies: 27, first: "wS1", last: "wB2 wA1/",
		result: pgn.ResultUnknown, resultText: "error parsing result",
	},
	{
		// Mzinga Viewer layout (inferred from the content, see
		// SOURCES.md): an unfinished game, so no result line.
		path: "hivegame/short_pass.pgn",
		tags: tags("GameType", "Base+MLP", "Date", "2024.03.23", "Event", "", "Site", "", "Round", "",
			"White", "noi", "Black", "noi", "Result", "InProgress"),
		plies: 14, passes: 3, first: "wL", last: "pass",
		result: pgn.ResultInProgress, resultText: "InProgress", mzinga: true,
	},
}

func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readOne(t *testing.T, data []byte) pgn.Game {
	t.Helper()
	games, err := pgn.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(games) != 1 {
		t.Fatalf("Read gave %d games, want 1", len(games))
	}
	return games[0]
}

// TestRealFiles reads each real file and checks it against what the file
// says, read in every line-end convention a producer may use and with a
// byte-order mark.
func TestRealFiles(t *testing.T) {
	for _, f := range realFiles {
		t.Run(f.path, func(t *testing.T) {
			data := readTestdata(t, f.path)
			if f.resultLine != strings.HasSuffix(string(data), "\n\n"+f.resultText+"\n") {
				t.Fatalf("the table says resultLine %v, but the file ends %q", f.resultLine, data[len(data)-20:])
			}
			variants := map[string][]byte{
				"LF":    data,
				"CRLF":  bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")),
				"CR":    bytes.ReplaceAll(data, []byte("\n"), []byte("\r")),
				"BOM":   append([]byte("\uFEFF"), data...),
				"noEOL": bytes.TrimRight(data, "\n"),
			}
			for name, v := range variants {
				g := readOne(t, v)
				checkReal(t, name, f, g)
			}
		})
	}
}

func checkReal(t *testing.T, variant string, f realFile, g pgn.Game) {
	t.Helper()
	if !slices.Equal(g.Tags, f.tags) {
		t.Errorf("%s: tags\n got %q\nwant %q", variant, g.Tags, f.tags)
	}
	if len(g.Moves) != f.plies {
		t.Fatalf("%s: %d plies, want %d", variant, len(g.Moves), f.plies)
	}
	if g.Moves[0].Text != f.first || g.Moves[f.plies-1].Text != f.last {
		t.Errorf("%s: first and last plies %q, %q; want %q, %q", variant, g.Moves[0].Text, g.Moves[f.plies-1].Text, f.first, f.last)
	}
	passes := 0
	for _, m := range g.Moves {
		if m.Text == "pass" {
			passes++
		}
		if m.Comment != "" {
			t.Errorf("%s: comment %q on %q; the file has none", variant, m.Comment, m.Text)
		}
	}
	if passes != f.passes {
		t.Errorf("%s: %d passes, want %d", variant, passes, f.passes)
	}
	if g.Result != f.result || g.ResultText != f.resultText {
		t.Errorf("%s: result %v %q, want %v %q", variant, g.Result, g.ResultText, f.result, f.resultText)
	}
	if g.Opening != "" {
		t.Errorf("%s: opening comment %q; the file has none", variant, g.Opening)
	}
}

// TestWriteMzingaFiles: Write gives back, byte for byte, every file Mzinga's
// SavePGN wrote (GameRecordingTests_SavePGNTest holds Mzinga to these
// bytes), however its line ends were when read.
func TestWriteMzingaFiles(t *testing.T) {
	for _, f := range realFiles {
		if !f.mzinga {
			continue
		}
		t.Run(f.path, func(t *testing.T) {
			data := readTestdata(t, f.path)
			for _, in := range [][]byte{data, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))} {
				g := readOne(t, in)
				var out bytes.Buffer
				if err := pgn.Write(&out, g); err != nil {
					t.Fatal(err)
				}
				if out.String() != string(data) {
					t.Errorf("Write differs from the file:\n%s", diffLines(out.String(), string(data)))
				}
			}
		})
	}
}

// TestWriteOtherFiles: the other producers' files are written Mzinga's
// way: the eight tags, no trailing space, a result line when the game is
// over, and Read reads the output back to the same plies and result.
func TestWriteOtherFiles(t *testing.T) {
	for _, f := range realFiles {
		if f.mzinga {
			continue
		}
		t.Run(f.path, func(t *testing.T) {
			g := readOne(t, readTestdata(t, f.path))
			var out bytes.Buffer
			if err := pgn.Write(&out, g); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if strings.Contains(text, " \n") {
				t.Errorf("output has a trailing space:\n%s", text)
			}
			lines := strings.Split(text, "\n")
			for i, name := range []string{"GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result"} {
				if !strings.HasPrefix(lines[i], "["+name+" ") {
					t.Errorf("line %d is %q, want the %s tag", i+1, lines[i], name)
				}
			}
			wantEnd := fmt.Sprintf("\n%d. %s\n", f.plies, f.last)
			if f.result == pgn.ResultWhiteWins || f.result == pgn.ResultBlackWins || f.result == pgn.ResultDraw {
				wantEnd = "\n" + f.result.String() + "\n"
			}
			if !strings.HasSuffix(text, wantEnd) {
				t.Errorf("output ends %q, want %q", text[max(0, len(text)-40):], wantEnd)
			}
			back := readOne(t, out.Bytes())
			if back.Result != f.result || len(back.Moves) != f.plies || !slices.EqualFunc(back.Moves, g.Moves, sameMove) {
				t.Errorf("read back: result %v, %d plies; want %v, %d plies", back.Result, len(back.Moves), f.result, f.plies)
			}
			if v, _ := back.Tag("Result"); v != f.result.String() {
				t.Errorf("Result tag written %q, want %q", v, f.result.String())
			}
		})
	}
}

// diffLines shows the first line where got and want differ.
func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, gl, wl)
		}
	}
	return "(same lines)"
}

// TestRealFilesConcatenated reads all the real files as one file of many
// games: each one's tags begin a new game after the last one's moves or
// result line.
func TestRealFilesConcatenated(t *testing.T) {
	var all []byte
	for _, f := range realFiles {
		all = append(all, readTestdata(t, f.path)...)
	}
	games, err := pgn.Read(bytes.NewReader(all))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(realFiles) {
		t.Fatalf("%d games, want %d", len(games), len(realFiles))
	}
	for i, f := range realFiles {
		checkReal(t, f.path, f, games[i])
	}
}

package sgf

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// pgnRecord is what a test takes from one of Mzinga's PGNs: the tag pairs
// and, per move, its text ("bB1 wP", "pass").
type pgnRecord struct {
	tags  map[string]string
	moves []string
}

var (
	pgnTag  = regexp.MustCompile(`^\[(\w+) "(.*)"\]$`)
	pgnMove = regexp.MustCompile(`^(\d+)\. (.+)$`)
)

func readPGN(t testing.TB, name string) pgnRecord {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	r := pgnRecord{tags: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := pgnTag.FindStringSubmatch(line); m != nil {
			r.tags[m[1]] = m[2]
		} else if m := pgnMove.FindStringSubmatch(line); m != nil {
			r.moves = append(r.moves, m[2])
		}
	}
	return r
}

func sampleFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 7 {
		t.Fatalf("%d sample records in testdata, want 7", len(files))
	}
	return files
}

// TestReadSamples reads each real record and checks it against the PGN
// Mzinga made of it: the players, the game type, the result, the number
// of turns, which piece moves on each turn, the passes, and the climbs
// (a PGN move "bB1 wP" puts bB1 right on top of wP). The moves replay
// legally in the core, or Read would have failed.
func TestReadSamples(t *testing.T) {
	for _, name := range sampleFiles(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			games, err := Read(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 1 {
				t.Fatalf("%d games, want 1", len(games))
			}
			g := games[0]
			pgn := readPGN(t, strings.TrimSuffix(name, ".sgf")+".pgn")
			if g.White != pgn.tags["White"] || g.Black != pgn.tags["Black"] {
				t.Errorf("players %q, %q; the PGN has %q, %q", g.White, g.Black, pgn.tags["White"], pgn.tags["Black"])
			}
			if got := g.GameType.Name(); got != pgn.tags["GameType"] {
				t.Errorf("game type %s (SU %q), the PGN has %s", got, g.Variant, pgn.tags["GameType"])
			}
			if got := g.Result.String(); got != pgn.tags["Result"] {
				t.Errorf("result %s (%s, RE %q), the PGN has %s", got, g.Ending, g.ResultText, pgn.tags["Result"])
			}
			if g.Date != pgn.tags["SgfDate"] || g.Name != pgn.tags["SgfGameName"] || g.ResultText != pgn.tags["SgfResult"] {
				t.Errorf("DT %q GN %q RE %q; the PGN has %q, %q, %q", g.Date, g.Name, g.ResultText, pgn.tags["SgfDate"], pgn.tags["SgfGameName"], pgn.tags["SgfResult"])
			}
			if len(g.Moves) != len(pgn.moves) {
				t.Fatalf("%d plies, the PGN has %d", len(g.Moves), len(pgn.moves))
			}
			replay := core.NewGame(g.GameType, core.RepetitionDraw(false))
			for i, m := range g.Moves {
				want := strings.Fields(pgn.moves[i])
				if want[0] == "pass" {
					if m != core.Pass {
						t.Fatalf("ply %d: %v, the PGN passes", i+1, m.Piece())
					}
					replay.Play(m)
					continue
				}
				p, err := core.ParsePiece(want[0])
				if err != nil {
					t.Fatal(err)
				}
				if m == core.Pass || m.Piece() != p {
					t.Fatalf("ply %d: %s moves, the PGN has %q", i+1, describe(m), pgn.moves[i])
				}
				if err := replay.PlayChecked(m); err != nil {
					t.Fatalf("ply %d: %v", i+1, err)
				}
				if len(want) == 2 {
					if under, err := core.ParsePiece(want[1]); err == nil && replay.Under(p) != under {
						t.Errorf("ply %d: %s lands on %v, the PGN has %q", i+1, p, replay.Under(p), pgn.moves[i])
					}
				}
			}
		})
	}
}

func describe(m core.Move) string {
	if m == core.Pass {
		return "pass"
	}
	return m.Piece().String()
}

// TestReadSampleFacts checks what each sample is there for (the notes,
// section 12).
func TestReadSampleFacts(t *testing.T) {
	read := func(name string) Game {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		games, err := Read(data)
		if err != nil || len(games) != 1 {
			t.Fatalf("%s: %d games, %v", name, len(games), err)
		}
		return games[0]
	}
	passes := func(g Game) int {
		n := 0
		for _, m := range g.Moves {
			if m == core.Pass {
				n++
			}
		}
		return n
	}
	g := read("HV-Dumbot-Kaur50-2023-01-17-0059.sgf")
	if n := passes(g); n != 13 {
		t.Errorf("Kaur50: %d passes, want the 13 recorded as a bare Done", n)
	}
	if g.Variant != "Hive-PLM" || g.GameType != core.AllExpansions {
		t.Errorf("Kaur50: variant %q, type %s", g.Variant, g.GameType.Name())
	}
	g = read("HV-Dumbot-Mormor51-2023-05-11-0957.sgf")
	if g.Variant != "hive-plm 2 0 101" || g.ResultText != "Dumbot vann spelet" || g.Result != core.WhiteWins {
		t.Errorf("Mormor51: variant %q, RE %q, result %s", g.Variant, g.ResultText, g.Result)
	}
	if g.Ending != EndedByRules {
		t.Errorf("Mormor51: %s, want the Queen surrounded", g.Ending)
	}
	if !hasProp(g, "TC", "None") || !hasProp(g, "CM", "0,1") {
		t.Errorf("Mormor51: props %v", g.Props)
	}
	g = read("HV-aaronheit-jdokakill-2019-06-22-1750.sgf")
	if len(g.Moves) != 58 || g.Index != 0 {
		t.Errorf("aaronheit: %d plies in game %d, want the first tree's 58", len(g.Moves), g.Index)
	}
	g = read("U!HV-kearf29-Dumbot-2013-04-20-0054.sgf")
	if g.GameType != core.WithPillbug || g.Name != "" || g.ResultText != "" || g.Result != core.BlackWins || g.Ending != EndedByRules {
		t.Errorf("kearf29: type %s, GN %q, RE %q, %s %s", g.GameType.Name(), g.Name, g.ResultText, g.Result, g.Ending)
	}
	if !hasProp(g, "P0", "ranking 1500") {
		t.Errorf("kearf29: props %v", g.Props)
	}
	g = read("HV-Quodlibet-Jewdoka-2018-10-10-0140.sgf")
	if g.Moves[0] != core.MakeMove(mustPiece(t, "wG1"), core.Origin) {
		t.Errorf("Jewdoka: first move %v, want wG1 at the origin (it was written at M 13)", g.Moves[0])
	}
}

func hasProp(g Game, id, value string) bool {
	for _, p := range g.Props {
		if p.ID == id && len(p.Values) > 0 && p.Values[0] == value {
			return true
		}
	}
	return false
}

func mustPiece(t testing.TB, s string) core.Piece {
	t.Helper()
	p, err := core.ParsePiece(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// record builds a small BoardSpace record, GN[test], from action lines.
func record(su string, actions ...string) string { return recordNamed("test", su, actions...) }

// recordNamed builds a small BoardSpace record from action lines.
func recordNamed(gn, su string, actions ...string) string {
	var b strings.Builder
	b.WriteString(" (;\nGM[27]VV[1]\nSU[" + su + "]\nGN[" + gn + "]\nP0[id \"Alice\"]\nP1[id \"Bob\"]\n; P0[0 Start P0]\n")
	for _, a := range actions {
		b.WriteString("; " + a + "\n")
	}
	b.WriteString(")\n")
	return b.String()
}

// TestReadVerbs covers the actions the samples do not have.
func TestReadVerbs(t *testing.T) {
	opening := []string{
		"P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]",
		"P1[4 Move B bS1 M 12 /wS1]", "P1[5 Done ]",
	}
	cases := []struct {
		name    string
		actions []string
		plies   int
		result  core.Result
		ending  Ending
		white   string
	}{
		{"resign", append(opening, "P0[6 Resign ]", "P0[7 Done ]"), 2, core.BlackWins, Resigned, "Alice"},
		{"resign undone", append(opening, "P0[6 Resign ]", "P0[7 Resign ]", "P0[8 Pick W 2 wG1]", "P0[9 Dropb wG1 O 13 wS1-]", "P0[10 Done ]"), 3, core.InProgress, Unended, "Alice"},
		{"resign without done", append(opening, "P1[6 Resign ]"), 2, core.WhiteWins, Resigned, "Alice"},
		{"draw", append(opening, "P0[6 OfferDraw ]", "P0[7 Done ]", "P1[8 AcceptDraw ]", "P1[9 Done ]"), 2, core.Draw, DrawAgreed, "Alice"},
		{"draw declined", append(opening, "P0[6 OfferDraw ]", "P0[7 Done ]", "P1[8 DeclineDraw ]", "P1[9 Done ]", "P0[10 MoveDone W wG1 O 13 wS1-]"), 3, core.InProgress, Unended, "Alice"},
		{"win on time", append(opening, "P1[6 WinOnTime ]"), 2, core.BlackWins, WonOnTime, "Alice"},
		{"redrop and reset", append(opening, "P0[6 Pick W 2 wG1]", "P0[7 Dropb wG1 O 12 wS1\\\\]", "P0[8 Pickb O 12 wG1]", "P0[9 Dropb wG1 O 13 wS1-]", "P0[10 Reset ]", "P0[11 Done ]"), 3, core.InProgress, Unended, "Alice"},
		{"drop back to the rack", append(opening, "P0[6 Pick W 2 wG1]", "P0[7 Drop W 2 wG1 Rack]", "P0[8 Pick W 1 wA1]", "P0[9 Dropb wA1 O 13 wS1-]", "P0[10 Done ]"), 3, core.InProgress, Unended, "Alice"},
		{"second done is noise", append(opening, "P1[6 Done ]", "P0[7 movedone W wA1 O 13 wS1-]"), 3, core.InProgress, Unended, "Alice"},
		{"play white", append([]string{"P1[1 PlayWhite ]"}, "P1[2 Pick W 4 wS1]", "P1[3 Dropb wS1 N 13 .]", "P1[4 Done ]"), 1, core.InProgress, Unended, "Bob"},
		{"play black", append([]string{"P1[1 PlayBlack ]"}, "P0[2 Pick W 4 wS1]", "P0[3 Dropb wS1 N 13 .]", "P0[4 Done ]"), 1, core.InProgress, Unended, "Alice"},
		{"bare pieces", []string{"P0[1 pick w 4 S1]", "P0[2 dropb s1 N 13 .]", "P0[3 done]", "P1[4 move B S1 M 12 /wS1]", "P1[5 done]"}, 2, core.InProgress, Unended, "Alice"},
		{"lower-case property ids", []string{"P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]TM[5]", "P0[3 Done ]tm[6]"}, 1, core.InProgress, Unended, "Alice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			games, err := Read([]byte(record("hive", c.actions...)))
			if err != nil {
				t.Fatal(err)
			}
			g := games[0]
			if len(g.Moves) != c.plies || g.Result != c.result || g.Ending != c.ending || g.White != c.white {
				t.Errorf("%d plies, %s, %s, White %q; want %d, %s, %s, %q", len(g.Moves), g.Result, g.Ending, g.White, c.plies, c.result, c.ending, c.white)
			}
		})
	}
}

// TestReadErrors checks that a game that cannot be replayed fails with its
// name, ply, action and reason, and that the other games of the file
// still come back.
func TestReadErrors(t *testing.T) {
	good1 := recordNamed("good1", "hive", "P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]")
	good2 := recordNamed("good2", "hive", "P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]")
	cases := []struct {
		name, file, want string
		ply              int
	}{
		{"illegal", record("hive", "P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]", "P1[4 Pick B 4 bS1]", "P1[5 Dropb bS1 P 13 .]", "P1[6 Done ]"), "does not touch the hive", 2},
		{"queen first", record("hive", "P0[1 Pick W 0 wQ]", "P0[2 Dropb wQ N 13 .]", "P0[3 Done ]"), "Queen Bee on your first turn", 1},
		{"out of turn", record("hive", "P1[1 Pick W 4 wS1]", "P1[2 Dropb wS1 N 13 .]", "P1[3 Done ]"), "it is White's turn", 1},
		{"not enabled", record("hive", "P0[1 Pick W 8 wP1]", "P0[2 Dropb wP1 N 13 .]", "P0[3 Done ]"), "not enabled", 1},
		{"pass with moves", record("hive", "P0[1 Pass ]", "P0[2 Done ]"), "can't pass", 1},
		{"unknown verb", record("hive", "P0[1 Fly W wS1]"), `unknown action "fly"`, 1},
		{"ultimate", record("hive-ultimate"), "Hive Ultimate", 0},
		{"unknown variant", record("hive-x"), "unknown variant", 0},
		{"after the end", record("hive", "P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]", "P1[4 Resign ]", "P1[5 Done ]", "P0[6 Pickb N 13 wS1]", "P0[7 Dropb wS1 N 14 .]", "P0[8 Done ]"), "after the game ended", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			games, err := Read([]byte(good1 + c.file + good2))
			if len(games) != 2 || games[0].Index != 0 || games[1].Index != 2 {
				t.Errorf("%d games back, want the two good ones", len(games))
			}
			var re *ReadError
			if !errors.As(err, &re) || len(re.Games) != 1 {
				t.Fatalf("error %v, want a *ReadError with one game", err)
			}
			ge := re.Games[0]
			if ge.Index != 1 || ge.Name != "test" || ge.Ply != c.ply || !strings.Contains(ge.Error(), c.want) {
				t.Errorf("game %d %q ply %d: %v; want game 1 ply %d, %q", ge.Index, ge.Name, ge.Ply, ge, c.ply, c.want)
			}
			if !strings.Contains(ge.Error(), "game 2 (test)") {
				t.Errorf("%v does not name the game", ge)
			}
		})
	}
	_, err := Read([]byte(record("hive", "P0[1 Pick W 0 wQ]", "P0[2 Dropb wQ N 13 .]", "P0[3 Done ]")))
	var rule *core.RuleError
	if !errors.As(err, &rule) {
		t.Errorf("%v: the core's *RuleError is not there", err)
	}
	if !strings.Contains(err.Error(), "P0[2 Dropb wQ N 13 .]") || !strings.Contains(err.Error(), "ReadOptions.GameOptions") {
		t.Errorf("%v: want the action as written and the way out", err)
	}
}

// TestReadOptions checks that the caller's options reach the replay.
func TestReadOptions(t *testing.T) {
	called := 0
	opt := core.GameOption(func(*core.Game) { called++ })
	games, err := ReadWith([]byte(record("hive")+record("hive-m")), ReadOptions{GameOptions: []core.GameOption{opt}})
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	if called != 2 {
		t.Errorf("the option ran %d times, want once per game", called)
	}
}

// TestReadMaxGames checks the bound on game trees.
func TestReadMaxGames(t *testing.T) {
	data := []byte(strings.Repeat("(;SU[hive])", 3))
	if games, err := ReadWith(data, ReadOptions{MaxGames: 2}); err == nil || len(games) != 0 {
		t.Errorf("3 trees, MaxGames 2: %d games, %v", len(games), err)
	}
	if games, err := ReadWith(data, ReadOptions{MaxGames: 3}); err != nil || len(games) != 1 {
		t.Errorf("3 copies of one game: %d games, %v; want the one", len(games), err)
	}
	if _, err := Read([]byte(strings.Repeat("(;SU[hive])", DefaultMaxGames+1))); err == nil {
		t.Errorf("%d trees read", DefaultMaxGames+1)
	}
}

func TestParseVariant(t *testing.T) {
	for su, want := range map[string]core.GameType{
		"hive": core.Base, "hive-m": core.WithMosquito, "hive-l": core.WithLadybug, "hive-p": core.WithPillbug,
		"hive-lm": core.WithMosquito | core.WithLadybug, "hive-pm": core.WithMosquito | core.WithPillbug,
		"hive-pl": core.WithLadybug | core.WithPillbug, "hive-plm": core.AllExpansions, "Hive-PLM": core.AllExpansions,
		"hive-plm 2 0 101": core.AllExpansions, "hive-pielm": core.AllExpansions,
	} {
		if got, err := ParseVariant(su); err != nil || got != want {
			t.Errorf("ParseVariant(%q) = %s, %v; want %s", su, got.Name(), err, want.Name())
		}
	}
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		if got, err := ParseVariant(VariantName(gt)); err != nil || got != gt {
			t.Errorf("VariantName(%s) = %q reads back as %s, %v", gt.Name(), VariantName(gt), got.Name(), err)
		}
	}
	for _, su := range []string{"", "hive-ultimate", "Hive-Ultimate 2 0 101", "chess", "hive-x"} {
		if _, err := ParseVariant(su); err == nil {
			t.Errorf("ParseVariant(%q) accepted", su)
		}
	}
}

func TestResultFromText(t *testing.T) {
	for _, c := range []struct {
		re, white, black string
		want             core.Result
	}{
		{"Game won by Kaur50", "Dumbot", "Kaur50", core.BlackWins},
		{"Dumbot vann spelet", "Dumbot", "Mormor51", core.WhiteWins},
		{"Game won by guest2", "guest", "guest2", core.BlackWins},
		{"Game won by guest2", "guest2", "guest", core.WhiteWins},
		{"The game is a draw", "a", "b", core.Draw},
		{"Partie nulle", "x", "y", core.Draw},
		{"", "x", "y", core.InProgress},
		{"Game won by ab", "ab", "ab", core.InProgress},
	} {
		if got := resultFromText(c.re, c.white, c.black); got != c.want {
			t.Errorf("resultFromText(%q, %q, %q) = %s, want %s", c.re, c.white, c.black, got, c.want)
		}
	}
}

// TestReadBadActions checks the errors of malformed actions.
func TestReadBadActions(t *testing.T) {
	first := []string{"P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]"}
	for action, want := range map[string]string{
		"P1[4 Pick B 4]":              "pick needs a pool",
		"P1[4 Pick X 4 bS1]":          `"X" is not a colour`,
		"P1[4 Pick BS 9 b?]":          "Hive Ultimate",
		"P1[4 Pick B 4 xS1]":          "must start with w or b",
		"P1[4 Pick B 4 bOP]":          "Hive Ultimate",
		"P1[4 Pick B 4 bX1]":          "is not a bug",
		"P1[4 Pick B 4 bS]":           "needs a number",
		"P1[4 Pick B 4 bS7]":          "no Spider number 7",
		"P1[4 Pick B 4 bS1x]":         "is not a piece",
		"P1[4 Pickb N 14 bS1]":        "no piece at N 14",
		"P1[4 Pickb N 0 bS1]":         "not a row",
		"P1[4 Pickb NN 1 bS1]":        "not a column",
		"P1[4 Dropb bS1 N]":           "dropb needs a piece",
		"P1[4 Move B bS1 M]":          "move needs a colour",
		"P1[4 Move Q bS1 M 12 .]":     `"Q" is not a colour`,
		"P1[4 Dropb S M 12 .]":        "needs a number",
		"P1[4 Move B bS1 M 12x .]":    "not a row",
		"P1[4 Move B bS1 M +12 .]":    "not a row",
		"P1[4 MoveDone W wS1 N 14 .]": "It's not that player's turn",
		"P1[4 MoveDone B bS1 N 14 .]": "",
		"P1[4 MoveDone B bQ N 14 .]":  "Queen Bee on your first turn",
		"P1[4 MoveDone B bA1 N 15 .]": "does not touch the hive",
		"P1[4 MoveDone B bA1 N 13 .]": "already exists",
		"P1[4 MoveDone B bA1 n 14 .]": "",
		"P1[4 PassDone ]":             "can't pass",
		"P1[4 NullMove ]":             "can't pass",
		"P1[4 Pick B 1 bA1]TM[1]P1[5 Dropb bA1 N 14 .][6 Done ]": "",
	} {
		_, err := Read([]byte(record("hive", append(first, action)...)))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", action, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", action, err, want)
		}
	}
}

// TestGridWraps checks that a hive reaching around BoardSpace's board onto
// itself is refused, not mixed up.
func TestGridWraps(t *testing.T) {
	g := core.NewGame(core.Base)
	wS1 := mustPiece(t, "wS1")
	g.Play(core.MakeMove(wS1, core.Origin))
	m := newGridMap()
	m.moved(wS1, startCell, core.Origin)
	// A piece that BoardSpace has east of N 14, the core far away.
	far := startCell.neighbor(core.NorthWest).neighbor(core.East)
	m.count[far], m.cell[far] = 1, core.CellAt(10, 10)
	if _, err := m.coreCell(g, startCell.neighbor(core.NorthWest)); err == nil || !strings.Contains(err.Error(), "reaches around") {
		t.Errorf("coreCell: %v", err)
	}
	if _, err := m.gridCellOf(g, core.Origin.Neighbor(core.NorthWest).Neighbor(core.East)); err == nil || !strings.Contains(err.Error(), "reaches around") {
		t.Errorf("gridCellOf: %v", err)
	}
	if c, err := m.coreCell(g, startCell.neighbor(core.SouthWest)); err != nil || c != core.Origin.Neighbor(core.SouthWest) {
		t.Errorf("coreCell of the cell south-west of N 13 = %v, %v", c, err)
	}
	if d, err := m.gridCellOf(g, core.Origin.Neighbor(core.West)); err != nil || d.String() != "M 13" {
		t.Errorf("gridCellOf the cell west of the origin = %s, %v", d, err)
	}
}

func TestEndingString(t *testing.T) {
	for e := Unended; e <= WonOnTime+1; e++ {
		if s := e.String(); s == "" || strings.Contains(s, "Ending(") != (e > WonOnTime) {
			t.Errorf("Ending(%d).String() = %q", e, s)
		}
	}
}

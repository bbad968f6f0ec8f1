package sgf

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// sameGame reports how two games differ in what a record says of them,
// or "" when they do not.
func sameGame(a, b Game) string {
	switch {
	case a.GameType != b.GameType:
		return "game type " + a.GameType.Name() + " / " + b.GameType.Name()
	case !slices.Equal(a.Moves, b.Moves):
		return "moves differ"
	case a.White != b.White || a.Black != b.Black:
		return "players " + a.White + ", " + a.Black + " / " + b.White + ", " + b.Black
	case a.Result != b.Result || a.Ending != b.Ending:
		return "result " + a.Result.String() + " " + a.Ending.String() + " / " + b.Result.String() + " " + b.Ending.String()
	case a.Date != b.Date || a.Name != b.Name || a.Event != b.Event || a.Site != b.Site || a.Round != b.Round || a.ResultText != b.ResultText:
		return "header values differ"
	}
	return ""
}

// roundTrip writes g and reads it back.
func roundTrip(t testing.TB, g Game, hint func(core.Move, *core.Game) string) (Game, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, g, hint); err != nil {
		t.Fatalf("Write: %v", err)
	}
	games, err := ReadWith(buf.Bytes(), ReadOptions{GameOptions: g.Options})
	if err != nil || len(games) != 1 {
		t.Fatalf("reading back: %d games, %v\n%s", len(games), err, buf.String())
	}
	return games[0], buf.String()
}

// TestRoundTripRandom plays seeded random games of every game type (as
// ai/setup_test.go does), writes each with and without hints, with each
// ending a record can say, and reads it back: the same moves, players and
// result.
func TestRoundTripRandom(t *testing.T) {
	perType := 12
	if testing.Short() {
		perType = 3
	}
	endings := []struct {
		ending Ending
		result core.Result
	}{{Unended, core.InProgress}, {Resigned, core.WhiteWins}, {Resigned, core.BlackWins}, {DrawAgreed, core.Draw}, {WonOnTime, core.BlackWins}}
	hints := []func(core.Move, *core.Game) string{nil, func(core.Move, *core.Game) string { return "x]\\" }}
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		rng := rand.New(rand.NewPCG(uint64(gt)+500, 7))
		var l core.MoveList
		for i := 0; i < perType; i++ {
			game := core.NewGame(gt, core.RepetitionDraw(false))
			target := 1 + rng.IntN(160)
			for game.Ply() < target && !game.Over() {
				game.GenerateMoves(&l)
				game.Play(l.At(rng.IntN(l.Len())))
			}
			g := Game{GameType: gt, White: "wh]ite\\", Black: "bläck", Date: "Thu May 11 11:57:24 CEST 2023", Name: "HV-a-b", Moves: game.History()}
			if game.Over() {
				g.Ending, g.Result = EndedByRules, game.Result()
			} else {
				e := endings[rng.IntN(len(endings))]
				g.Ending, g.Result = e.ending, e.result
			}
			back, text := roundTrip(t, g, hints[i%2])
			if diff := sameGame(g, back); diff != "" {
				t.Fatalf("%s game %d of %d plies: %s\n%s", gt.Name(), i, len(g.Moves), diff, text)
			}
			if back.Variant != VariantName(gt) {
				t.Errorf("variant %q, want %q", back.Variant, VariantName(gt))
			}
		}
	}
}

// TestRoundTripSamples writes each real record's game and reads it back.
func TestRoundTripSamples(t *testing.T) {
	for _, name := range sampleFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		games, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := roundTrip(t, games[0], nil)
		if diff := sameGame(games[0], back); diff != "" {
			t.Errorf("%s: %s", filepath.Base(name), diff)
		}
		if back.Variant != games[0].Variant {
			t.Errorf("%s: variant %q written as %q", filepath.Base(name), games[0].Variant, back.Variant)
		}
	}
}

// committedHints lists the hint text of each move a record commits, in
// order: the text of the last drop before each Done, or of a MoveDone.
func committedHints(t testing.TB, data []byte) []string {
	t.Helper()
	trees, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var hints []string
	last := ""
	for _, n := range trees[0].MainLine()[1:] {
		for _, p := range n.Props {
			if p.ID != "P0" && p.ID != "P1" {
				continue
			}
			f := strings.Fields(p.Values[0])
			if len(f) < 2 || !digits(f[0]) {
				continue
			}
			switch strings.ToLower(f[1]) {
			case "dropb", "pdropb", "move", "pmove":
				last = f[len(f)-1]
			case "movedone", "pmovedone":
				hints = append(hints, f[len(f)-1])
				last = ""
			case "done":
				if last != "" {
					hints = append(hints, last)
				}
				last = ""
			case "pick", "pickb", "drop", "pass":
				last = ""
			}
		}
	}
	return hints
}

// TestWriteHintsAsBoardSpace checks that with a nil hint Write computes
// the text BoardSpace wrote in every record since 2016 (the 2013 record
// used an older rule).
func TestWriteHintsAsBoardSpace(t *testing.T) {
	for _, name := range sampleFiles(t) {
		if strings.Contains(name, "2013") {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		games, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, games[0], nil); err != nil {
			t.Fatal(err)
		}
		want, got := committedHints(t, data), committedHints(t, buf.Bytes())
		if len(want) != len(got) {
			t.Fatalf("%s: %d hints written, %d in the record", filepath.Base(name), len(got), len(want))
		}
		for i := range want {
			if want[i] != got[i] {
				t.Errorf("%s: move %d: hint %q, BoardSpace wrote %q", filepath.Base(name), i+1, got[i], want[i])
			}
		}
	}
}

// TestWriteLayout checks the written text against the newest real
// records' layout.
func TestWriteLayout(t *testing.T) {
	g := Game{GameType: core.AllExpansions, Variant: "hive-plm 2 0 101", White: "Dumbot", Black: "Mormor51", Name: "HV-Dumbot-Mormor51-2023-05-11-0957",
		ResultText: "Dumbot vann spelet", Props: []Property{{ID: "TC", Values: []string{"None"}}, {ID: "GM", Values: []string{"27"}}}}
	wP, bB1 := mustPiece(t, "wP"), mustPiece(t, "bB1")
	game := core.NewGame(g.GameType)
	for _, m := range []core.Move{core.MakeMove(wP, core.Origin), core.MakeMove(bB1, core.Origin.Neighbor(core.SouthWest))} {
		if err := game.PlayChecked(m); err != nil {
			t.Fatal(err)
		}
	}
	g.Moves = game.History()
	var buf bytes.Buffer
	if err := Write(&buf, g, nil); err != nil {
		t.Fatal(err)
	}
	want := ` (;
GM[27]VV[1]
CM[0,1]
TC[None]
SU[hive-plm 2 0 101]
GN[HV-Dumbot-Mormor51-2023-05-11-0957]
RE[Dumbot vann spelet]
P0[id "Dumbot"]
P1[id "Mormor51"]
; P0[0 Start P0]
; P0[1 Pick W 8 wP1]
; P0[2 Dropb wP1 N 13 .]
; P0[3 Done ]
; P1[4 Pick B 3 bB1]
; P1[5 Dropb bB1 M 12 /wP]
; P1[6 Done ]
)
`
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestWriteRefuses checks that Write writes nothing for a game it cannot
// write.
func TestWriteRefuses(t *testing.T) {
	wQ := mustPiece(t, "wQ")
	for _, g := range []Game{
		{GameType: core.Base, Moves: []core.Move{core.MakeMove(wQ, core.Origin)}},
		{GameType: core.AllGameTypes},
		{GameType: core.Base, Ending: Resigned, Result: core.Draw},
		{GameType: core.Base, Ending: EndedByRules},
	} {
		var buf bytes.Buffer
		if err := Write(&buf, g, nil); err == nil || buf.Len() != 0 {
			t.Errorf("Write(%+v) = %v, wrote %d bytes", g, err, buf.Len())
		}
	}
}

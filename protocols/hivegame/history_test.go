package hivegame_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

func mv(piece, dest string) hivegame.HistoryMove {
	return hivegame.HistoryMove{Piece: piece, Destination: dest}
}

var pass = hivegame.HistoryMove{Piece: "pass", Pass: true}

// TestParseHistory reads the forms the site writes (update_gamestate:
// "piece destination;" with the space even when the destination is empty,
// a trailing ';', "pass ;") and the mock form without them, which the
// site's own History::new_from_str also reads.
func TestParseHistory(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []hivegame.HistoryMove
	}{
		{"no moves", "", nil},
		{"first move alone", "wS1 ;", []hivegame.HistoryMove{mv("wS1", "")}},
		{"site form", `wS1 ;bG1 -wS1;wA1 wS1/;bQ \bG1;pass ;wG1 bQ-;`, []hivegame.HistoryMove{
			mv("wS1", ""), mv("bG1", "-wS1"), mv("wA1", "wS1/"), mv("bQ", `\bG1`), pass, mv("wG1", "bQ-"),
		}},
		{"every direction and a climb", `wS1 ;bS1 wS1-;wQ /wS1;bQ bS1\;wB1 wQ;bA1 bS1/;`, []hivegame.HistoryMove{
			mv("wS1", ""), mv("bS1", "wS1-"), mv("wQ", "/wS1"), mv("bQ", `bS1\`), mv("wB1", "wQ"), mv("bA1", "bS1/"),
		}},
		{"mock form", "wS1;bG1 -wS1;wA1 wS1/", []hivegame.HistoryMove{mv("wS1", ""), mv("bG1", "-wS1"), mv("wA1", "wS1/")}},
		{"mock form with pass last", "wS1;bG1 -wS1;pass", []hivegame.HistoryMove{mv("wS1", ""), mv("bG1", "-wS1"), pass}},
		{"dot as the first destination", "wL .;bM wL-;", []hivegame.HistoryMove{mv("wL", "."), mv("bM", "wL-")}},
		{"other white space", "wS1\t;\tbG1  -wS1 ;", []hivegame.HistoryMove{mv("wS1", ""), mv("bG1", "-wS1")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hivegame.ParseHistory(tc.in)
			if err != nil {
				t.Fatalf("ParseHistory(%q): %v", tc.in, err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("ParseHistory(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseHistoryRefuses(t *testing.T) {
	for _, tc := range []struct {
		in  string
		ply int
	}{
		{";", 0},                         // an empty entry (new_from_str: ParsingError "NA")
		{" ", 0},                         // the same, with a space
		{"wS1 ;;", 1},                    // an empty entry after a move
		{"wS1 ;bG1;", 1},                 // a piece alone after the first move
		{"wS1 ;bG1 .;", 1},               // "." after the first move
		{"pass x;", 0},                   // a pass with a destination
		{"wS1 ;bG1 -wS1 extra;", 1},      // three words
		{"xS1 ;", 0},                     // not a color
		{"wX1 ;", 0},                     // not a bug
		{"ws1 ;", 0},                     // a lowercase bug, which the site never writes
		{"wS10 ;", 0},                    // too long
		{"wS ;", 0},                      // a Spider without its number
		{"wS1 ;bG1 -wS1-;", 1},           // two directions
		{"wS1 ;bG1 wS1+;", 1},            // no direction the site writes
		{"wS1 ;bG1 -wS1;wA1 \xff;", 2},   // not UTF-8
		{"wS1 ;bG1 -wS1;wA1 wS1/;;;", 3}, // doubled terminators
	} {
		_, err := hivegame.ParseHistory(tc.in)
		var he *hivegame.HistoryError
		if !errors.As(err, &he) {
			t.Errorf("ParseHistory(%q) = %v, want a *HistoryError", tc.in, err)
			continue
		}
		if he.Ply != tc.ply {
			t.Errorf("ParseHistory(%q): error at ply %d, want %d (%v)", tc.in, he.Ply, tc.ply, err)
		}
	}
}

// TestFormatHistory writes the site's form, and reads the mock form back
// into it.
func TestFormatHistory(t *testing.T) {
	moves, err := hivegame.ParseHistory("wS1;bG1 -wS1;pass;wA1 wS1/")
	if err != nil {
		t.Fatal(err)
	}
	got, err := hivegame.FormatHistory(moves)
	if want := "wS1 ;bG1 -wS1;pass ;wA1 wS1/;"; err != nil || got != want {
		t.Fatalf("FormatHistory = %q, %v; want %q", got, err, want)
	}
	if got, err := hivegame.FormatHistory([]hivegame.HistoryMove{mv("wS1", ""), {Pass: true}}); err != nil || got != "wS1 ;pass ;" {
		t.Fatalf("a pass without its piece: %q, %v", got, err)
	}
	for _, bad := range [][]hivegame.HistoryMove{
		{mv("wS1", ""), mv("bG1", "")},
		{mv("wS1 x", "")},
		{{Piece: "pass"}},
		{mv("wS1", "-wS1;")},
		{{}},
	} {
		if s, err := hivegame.FormatHistory(bad); err == nil {
			t.Errorf("FormatHistory(%v) = %q, want an error", bad, s)
		}
	}
}

// TestFormatMove writes what play_move reads: the piece alone at turn 0,
// "piece destination" at every other turn, never a pass.
func TestFormatMove(t *testing.T) {
	for _, tc := range []struct {
		turn        int
		piece, dest string
		want        string
	}{
		{0, "wS1", "", "wS1"},
		{0, "wQ", ".", "wQ"},      // the site ignores anything after the piece at turn 0
		{0, "bG1", "wS1-", "bG1"}, // the same (a game set up with Black first does not exist)
		{1, "bG1", "-wS1", "bG1 -wS1"},
		{5, "wB1", "bQ", "wB1 bQ"},
		{6, "bA1", `\wQ`, `bA1 \wQ`},
	} {
		got, err := hivegame.FormatMove(tc.turn, tc.piece, tc.dest)
		if err != nil || got != tc.want {
			t.Errorf("FormatMove(%d, %q, %q) = %q, %v; want %q", tc.turn, tc.piece, tc.dest, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		turn        int
		piece, dest string
	}{
		{1, "bG1", ""},   // Black's first move needs a reference
		{2, "wA1", "."},  // "." is the first move's only
		{2, "wA1", "x"},  // not a destination
		{2, "wA", "wS1"}, // an Ant needs its number (Piece::from_str)
		{2, "wA1", "bS"}, // so does a reference Spider
		{-1, "wS1", ""},
		{0, "", ""},
	} {
		if got, err := hivegame.FormatMove(tc.turn, tc.piece, tc.dest); err == nil {
			t.Errorf("FormatMove(%d, %q, %q) = %q, want an error", tc.turn, tc.piece, tc.dest, got)
		}
	}
	for _, turn := range []int{0, 1, 7} {
		if _, err := hivegame.FormatMove(turn, "pass", ""); !errors.Is(err, hivegame.ErrPass) {
			t.Errorf("FormatMove(%d, pass) = %v, want ErrPass", turn, err)
		}
	}
}

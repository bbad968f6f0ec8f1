package core_test

import (
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// TestNamesRoundTrip checks that every piece, game type and turn reads
// back from the name written for it, in either case. The protocols'
// tests (protocols/uhp's codec and fuzz tests, protocols/hub's) cover the
// spellings and the errors.
func TestNamesRoundTrip(t *testing.T) {
	for p := core.Piece(0); p < core.NumPieces; p++ {
		for _, s := range []string{p.String(), strings.ToUpper(p.String())} {
			if got, err := core.ParsePiece(s); got != p || err != nil {
				t.Errorf("ParsePiece(%q) = %v, %v; want %v", s, got, err, p)
			}
		}
	}
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for _, s := range []string{gt.Name(), strings.ToLower(gt.Name())} {
			if got, err := core.ParseGameType(s); got != gt || err != nil {
				t.Errorf("ParseGameType(%q) = %d, %v; want %d", s, got, err, gt)
			}
		}
	}
	for _, turn := range []core.Turn{{Color: core.White, Number: 1}, {Color: core.Black, Number: 12}} {
		for _, s := range []string{turn.String(), strings.ToUpper(turn.String())} {
			if got, err := core.ParseTurn(s); got != turn || err != nil {
				t.Errorf("ParseTurn(%q) = %v, %v; want %v", s, got, err, turn)
			}
		}
	}
	for _, bad := range []string{"wQ2", "xQ", "wS", "wS4", "wZ1"} {
		if _, err := core.ParsePiece(bad); err == nil {
			t.Errorf("ParsePiece(%q) reads a piece", bad)
		}
	}
	for _, bad := range []string{"Baſe", "Base+", "Base+MM", "Base+X"} {
		if _, err := core.ParseGameType(bad); err == nil {
			t.Errorf("ParseGameType(%q) reads a game type", bad)
		}
	}
}

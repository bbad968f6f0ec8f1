package uhp_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Two positions of random games with every expansion, with stacks, a
// Mosquito, a Ladybug and a Pillbug on the board.
const (
	posMLP1 = "Base+MLP;InProgress;White[21];wA1;bA1 /wA1;wS1 \\wA1;bQ /bA1;wS2 \\wS1;bL /bQ;wQ /wS2;bL -bA1;wG1 -wS2;bA2 bA1\\;wM wA1/;bA3 bA2-;wA2 wM/;bG1 bA3\\;wP \\wG1;bM bA3/;wG2 \\wP;bM -bL;wG3 wA2/;bB1 \\bM;wA3 /wP;bP /bQ;wB1 -wA3;bG2 bM\\;wB2 \\wS2;bB2 bG1/;wB2 wP/;bS1 bA2\\;wL wA2\\;bA3 /bM;wL wA1\\;bA3 wG3/;wB2 \\wS2;bS2 bA3-;wL wA2\\;bG3 \\bS2;wB2 wS2;bP bQ\\;wB1 /wG2;bA2 \\bG3"
	posMLP2 = "Base+MLP;InProgress;White[21];wL;bB1 wL-;wQ /wL;bA1 bB1\\;wB1 -wQ;bG1 bB1/;wS1 \\wL;bQ bA1\\;wM /wS1;bG2 bQ/;wS2 wQ\\;bG3 \\bG1;wM wS1;bS1 bG3/;wG1 wB1\\;bM bG2/;wG2 wG1\\;bB2 -bS1;wG2 wL\\;bB2 bG3;wM -wS1;bL \\bS1;wP \\wS1;bP /bL;wA1 /wG1;bA2 bM\\;wG3 /wA1;bM wS2\\;wB2 /wM;bA2 -bL;wL /bB2;bA2 bG2/;wL /bP;bB2 bP;wA2 wA1\\;bA3 bM\\;wL wM\\;bL bS1/;wS1 -bB2;bS2 bL\\"
)

var fuzzPositions = []string{posStart, posTwo, posSpec, posQueens, posBeetle, posBeetleW, posTower, posMLP1, posMLP2}

func FuzzParseMove(f *testing.F) {
	seeds := []string{
		"", " ", "pass", "PASS", "Pass", "pass wS1", "wS1", "WS1", "ws1", "wQ", "wQ1", "bQ1",
		"wS1 wS1-", "wS1 wS1/", "wS1 wS1\\", "wS1 /wS1", "wS1 -wS1", "wS1 \\wS1",
		"wA1 -wS1", "wA1 \\wS1", "wA1 /wS1", "WA1 -WS1", "wa1 \\ws1", "  wA1 \t -wS1  ", "wA1\t-wS1",
		"ws1 BS1-", "wG1 wA1\\", "wG1 wS1-", "WQ1 WA1\\", "wQ wQ/", "wQ wQ\\", "wQ wQ-", "wQ1 wQ1/",
		"bQ wS1-", "bA1 wS1\\", "bA1 wB1\\", "bA1 \\wS1", "bA1 wS1", "bA1 \\bA1", "bA1 /bA1",
		"wB1 wB1-", "wB1 bS1", "wB1 wS1", "wB1 \\wS1", "bB1 wB1", "bB1 wS1", "bB1 bB1\\", "bB1 -bB1",
		"wP wP-", "bP /bQ", "wM wM/", "bM -bL", "wL wA2\\", "bL \\bS1", "wB2 wS2", "bB2 bP",
		"wX1", "wS3", "wS", "xS1", "wS1 bS1", "wS1 -bS1-", "wS1 wS1", "wA1 wS1 -", "wA1", "wA1 -",
		"wA1 wS1-/", "wA1 --wS1", "wA1 w-S1", "wS0", "wQ2", "wA1 |wS1", "wS1-", "-", "\\", "/wS1",
		"wS1\u00a0-wS1", "w\u017f1", "pa\u017fs", "\x00", "wS1 \xff",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	var games []*core.Game
	for _, s := range fuzzPositions {
		g := load(f, s)
		games = append(games, g)
		// The canonical spelling of every legal move, and another one.
		var l core.MoveList
		g.GenerateMoves(&l)
		for i, m := range l.Moves() {
			if i%3 == 0 {
				f.Add(uhp.FormatMove(m, g))
				if alt := spellings(m, g); len(alt) > 1 {
					f.Add(alt[len(alt)-1])
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, g := range games {
			h := g.Hash()
			m, err := uhp.ParseMove(s, g)
			if g.Hash() != h {
				t.Fatalf("%s: ParseMove(%q) changed the game", fuzzPositions[i], s)
			}
			if err != nil {
				if m != core.NoMove {
					t.Fatalf("%s: ParseMove(%q) = %v with error %v", fuzzPositions[i], s, m, err)
				}
				continue
			}
			if m != core.Pass && (m == core.NoMove || m.Piece() >= core.NumPieces) {
				t.Fatalf("%s: ParseMove(%q) = %v, no move of a piece", fuzzPositions[i], s, m)
			}
			_ = uhp.FormatMove(m, g) // must not panic, legal or not
			if g.RuleBroken(m) != nil {
				continue
			}
			text := uhp.FormatMove(m, g)
			m2, err := uhp.ParseMove(text, g)
			if err != nil || m2 != m {
				t.Fatalf("%s: ParseMove(%q) = %v, written %q, which reads as %v, %v", fuzzPositions[i], s, m, text, m2, err)
			}
			if ref := mzingaSpelling(m, g); text != ref {
				t.Fatalf("%s: FormatMove = %q, the reference writer gives %q", fuzzPositions[i], text, ref)
			}
		}
	})
}

func FuzzParseGameString(f *testing.F) {
	for _, s := range append(append(specGameStrings, canonicalPositions...), posMLP1, posMLP2, gameBlackWins, gameWhiteWins, gameDraw) {
		f.Add(s)
	}
	for _, s := range []string{
		"", ";", ";;", ";;;", "Base", "Base;NotStarted", "Base;NotStarted;White[1];",
		"Base;InProgress;White[2];wS1;;bS1 wS1-", "Base;InProgress;Black[1];wQ",
		"Base;InProgress;Black[1];wZ1", " base+plm ; inprogress ; white[2] ;WS1;  bs1\t WS1-  ",
		"Base;NotStarted;White[1];wS1", "Base+M;Draw;Black[99];pass", "Base;InProgress;White[2];wS1;bS1",
		"Bse;NotStarted;White[1]", "Base+MM;NotStarted;White[1]", "Base;NotStarted;White[01]",
		"Base;InProgress;White[2];wS1;bS1 wS1-;wA1 wS1/",
	} {
		f.Add(s)
	}
	// Whole random games, some of them over.
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		r := rand.New(rand.NewPCG(uint64(gt), 99))
		g := core.NewGame(gt)
		var l core.MoveList
		for i := 0; i < 60 && !g.Over(); i++ {
			g.GenerateMoves(&l)
			g.Play(l.At(r.IntN(l.Len())))
		}
		f.Add(uhptest.MustDescribe(f, g).String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		gs, err := uhp.ParseGameString(s)
		if err != nil {
			return
		}
		text := gs.String()
		gs2, err := uhp.ParseGameString(text)
		if err != nil {
			t.Fatalf("ParseGameString(%q) = %+v, written %q, which does not parse: %v", s, gs, text, err)
		}
		if !reflect.DeepEqual(gs2, gs) {
			t.Fatalf("ParseGameString(%q) = %+v, written %q, which reads as %+v", s, gs, text, gs2)
		}
		if again := gs2.String(); again != text {
			t.Fatalf("%q is written %q then %q", s, text, again)
		}
		g, err := gs.Load()
		if err != nil {
			if g != nil {
				t.Fatalf("Load(%q) returned a game with error %v", s, err)
			}
			return
		}
		d := uhptest.MustDescribe(t, g).String()
		gs3, err := uhp.ParseGameString(d)
		if err != nil {
			t.Fatalf("Describe(Load(%q)) = %q does not parse: %v", s, d, err)
		}
		g3, err := gs3.Load()
		if err != nil {
			t.Fatalf("Describe(Load(%q)) = %q does not load: %v", s, d, err)
		}
		if g3.Hash() != g.Hash() {
			t.Fatalf("Describe(Load(%q)) = %q loads to hash %x, want %x", s, d, g3.Hash(), g.Hash())
		}
		if d3 := uhptest.MustDescribe(t, g3).String(); d3 != d {
			t.Fatalf("Describe(Load(%q)) = %q, then %q", s, d, d3)
		}
	})
}

func FuzzParseGameType(f *testing.F) {
	for _, s := range []string{
		"Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
		"Base+PLM", "Base+LM", "base+mlp", " Base ", "Base+", "Base+X", "Base+MM", "Bse", "", "+", "Base+M+L",
		"Ba\u017fe", "BASE+p",
	} {
		f.Add(s)
	}
	canonical := map[string]bool{}
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		canonical[uhp.FormatGameType(gt)] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		gt, err := uhp.ParseGameType(s)
		if err != nil {
			if gt != 0 {
				t.Fatalf("ParseGameType(%q) = %v with error %v", s, gt, err)
			}
			return
		}
		if gt >= core.AllGameTypes {
			t.Fatalf("ParseGameType(%q) = %v, no game type", s, gt)
		}
		text := uhp.FormatGameType(gt)
		if !canonical[text] {
			t.Fatalf("ParseGameType(%q) is written %q", s, text)
		}
		if gt2, err := uhp.ParseGameType(text); err != nil || gt2 != gt {
			t.Fatalf("ParseGameType(%q) = %v, written %q, which reads as %v, %v", s, gt, text, gt2, err)
		}
	})
}

func FuzzParseTurn(f *testing.F) {
	for _, s := range []string{
		"White[1]", "Black[1]", "Black[12]", "white[3]", " BLACK[7] ", "White[0]", "White[]", "Red[1]",
		"White[1", "White[-1]", "White[01]", "White[+1]", "White[1]]", "White[[1]", "[1]", "]", "[",
		"White[9223372036854775807]", "White[9223372036854775808]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		turn, err := uhp.ParseTurn(s)
		if err != nil {
			if turn != (uhp.Turn{}) {
				t.Fatalf("ParseTurn(%q) = %+v with error %v", s, turn, err)
			}
			return
		}
		if turn.Color != core.White && turn.Color != core.Black || turn.Number < 1 {
			t.Fatalf("ParseTurn(%q) = %+v", s, turn)
		}
		text := turn.String()
		if turn2, err := uhp.ParseTurn(text); err != nil || turn2 != turn {
			t.Fatalf("ParseTurn(%q) = %+v, written %q, which reads as %+v, %v", s, turn, text, turn2, err)
		}
	})
}

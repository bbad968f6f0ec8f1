package uhp_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Positions used across the tests, each a canonical GameString (Describe
// of its game gives it back). Axial coordinates (q to the east, r to the
// south-east) are given from wS1, which stands at (0,0) in all of them.
const (
	posStart = "Base;NotStarted;White[1]"
	// wS1 (0,0), bS1 (1,0).
	posTwo = "Base;InProgress;White[2];wS1;bS1 wS1-"
	// wS1 (0,0), bG1 (-1,0), wA1 (1,-1), bG2 (-2,1).
	posSpec = "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1"
	// wQ (-1,0), wS1 (0,0), bS1 (1,0), bQ (2,0).
	posQueens = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
	// wQ (-1,0), wB1 on wS1 (0,0), bS1 (1,0), bQ (2,0), bA1 (3,0); black to move.
	posBeetle = "Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ-;wB1 wS1"
	// As posBeetle, with bA1 gone to (2,1); white to move.
	posBeetleW = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ-;wB1 wS1;bA1 bQ\\"
	// wG1 (-2,0), wG2 (-2,1), wQ (-1,0), wB1 on wS1 (0,0), bB1 on bS1 (1,0),
	// bQ (2,0), bA1 (3,0); black to move.
	posTower = "Base;InProgress;Black[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ-;wB1 wS1;bB1 bS1\\;wG1 -wQ;bB1 bS1;wG2 wG1\\"
)

var canonicalPositions = []string{posTwo, posSpec, posQueens, posBeetle, posBeetleW, posTower}

// pieceByName names the pieces as core does, independently of ParsePiece.
var pieceByName = func() map[string]core.Piece {
	m := map[string]core.Piece{}
	for p := core.Piece(0); p < core.NumPieces; p++ {
		m[p.String()] = p
	}
	return m
}()

func pc(name string) core.Piece {
	p, ok := pieceByName[name]
	if !ok {
		panic("no piece " + name)
	}
	return p
}

// Pseudo-directions for the tables below, beside the six real ones.
const (
	onto  = -1 // onto the reference's cell
	first = -2 // the first move of the game, at the origin
	pass  = -3 // a pass
)

// dest returns the move of piece to the cell dir of ref (see the constants
// above), built from core alone.
func dest(g *core.Game, piece, ref string, dir int) core.Move {
	switch dir {
	case pass:
		return core.Pass
	case first:
		return core.MakeMove(pc(piece), core.Origin)
	case onto:
		return core.MakeMove(pc(piece), g.Position(pc(ref)))
	}
	return core.MakeMove(pc(piece), g.Position(pc(ref)).Neighbor(core.Direction(dir)))
}

var (
	east      = int(core.East)
	northEast = int(core.NorthEast)
	southEast = int(core.SouthEast)
	west      = int(core.West)
	southWest = int(core.SouthWest)
	northWest = int(core.NorthWest)
)

func TestParsePiece(t *testing.T) {
	for p := core.Piece(0); p < core.NumPieces; p++ {
		for _, s := range []string{p.String(), strings.ToUpper(p.String()), strings.ToLower(p.String())} {
			got, err := uhp.ParsePiece(s)
			if err != nil || got != p {
				t.Errorf("ParsePiece(%q) = %v, %v; want %v", s, got, err, p)
			}
		}
		if p.Number() == 0 {
			// wQ1, bM1: a number 1 on a bug a player has one of.
			s := p.String() + "1"
			if got, err := uhp.ParsePiece(s); err != nil || got != p {
				t.Errorf("ParsePiece(%q) = %v, %v; want %v", s, got, err, p)
			}
		}
	}
	bad := []struct{ in, key string }{
		{"", "not a piece name"},
		{"w", "not a piece name"},
		{"wS12", "not a piece name"},
		{"xS1", "must start with w or b"},
		{"wX1", "not a bug"},
		{"w1", "not a bug"},
		{"wS", "needs a number"},
		{"wA", "needs a number"},
		{"wS3", "there is no"},
		{"wA4", "there is no"},
		{"wQ2", "there is no"},
		{"wS0", "not a piece number"},
		{"wSx", "not a piece number"},
	}
	for _, c := range bad {
		got, err := uhp.ParsePiece(c.in)
		wantErr(t, "ParsePiece("+quote(c.in)+")", err, c.key)
		if err != nil && got != core.NoPiece {
			t.Errorf("ParsePiece(%q) returned %v with its error", c.in, got)
		}
	}
}

// TestParseMoveSpellings checks that ParseMove reads every spelling real
// engines use, each to the move the table builds from core alone, and to
// the same move as the canonical spelling of FormatMove.
func TestParseMoveSpellings(t *testing.T) {
	cases := []struct {
		pos        string
		text       string
		piece, ref string
		dir        int
		legal      bool
	}{
		// The first move: the bare piece, in any case, with blanks around.
		{posStart, "wS1", "wS1", "", first, true},
		{posStart, "WS1", "wS1", "", first, true},
		{posStart, " \tws1\n", "wS1", "", first, true},
		{posStart, "wG1", "wG1", "", first, true},
		{posStart, "wQ", "wQ", "", first, false},
		{posStart, "wQ1", "wQ", "", first, false},
		// A pass, in any case.
		{posStart, "pass", "", "", pass, false},
		{posStart, "PASS", "", "", pass, false},
		{posTwo, " Pass ", "", "", pass, false},

		// All six marks around one reference.
		{posTwo, "wA1 wS1-", "wA1", "wS1", east, false},
		{posTwo, "wA1 wS1/", "wA1", "wS1", northEast, false},
		{posTwo, "wA1 wS1\\", "wA1", "wS1", southEast, false},
		{posTwo, "wA1 /wS1", "wA1", "wS1", southWest, true},
		{posTwo, "wA1 -wS1", "wA1", "wS1", west, true},
		{posTwo, "wA1 \\wS1", "wA1", "wS1", northWest, true},
		{posTwo, "wA1 bS1", "wA1", "bS1", onto, false},
		{posTwo, "wA1 \\bS1", "wA1", "bS1", northWest, false},
		// Case and blanks.
		{posTwo, "WA1 -WS1", "wA1", "wS1", west, true},
		{posTwo, "wa1 \\ws1", "wA1", "wS1", northWest, true},
		{posTwo, "  wA1 \t -wS1  ", "wA1", "wS1", west, true},
		{posTwo, "wA1\t-wS1", "wA1", "wS1", west, true},
		{posTwo, "ws1 BS1-", "wS1", "bS1", east, false},

		// Any neighbour of the destination as the reference.
		{posSpec, "wG1 wA1\\", "wG1", "wA1", southEast, true},
		{posSpec, "wG1 wS1-", "wG1", "wS1", east, true},
		{posSpec, "wQ wS1\\", "wQ", "wS1", southEast, true},
		{posSpec, "wQ1 wS1\\", "wQ", "wS1", southEast, true},
		{posSpec, "WQ1 WA1\\", "wQ", "wA1", southEast, true},
		{posSpec, "wQ wA1-", "wQ", "wA1", east, true},

		// The moving piece itself as the reference of a one-step move.
		{posQueens, "wQ wQ/", "wQ", "wQ", northEast, true},
		{posQueens, "wQ \\wS1", "wQ", "wS1", northWest, true},
		{posQueens, "wQ wQ\\", "wQ", "wQ", southEast, true},
		{posQueens, "wQ /wS1", "wQ", "wS1", southWest, true},
		{posQueens, "wQ1 wQ1/", "wQ", "wQ", northEast, true},
		{posQueens, "wQ wQ-", "wQ", "wQ", east, false}, // onto wS1: the Queen cannot climb

		// A covered piece as the reference: wS1 lies under wB1.
		{posBeetle, "bQ wS1-", "bQ", "wS1", east, false},
		{posBeetle, "bQ wB1-", "bQ", "wB1", east, false},
		{posBeetle, "bA1 wS1\\", "bA1", "wS1", southEast, true},
		{posBeetle, "bA1 wB1\\", "bA1", "wB1", southEast, true},
		{posBeetle, "bA1 \\wS1", "bA1", "wS1", northWest, true},
		{posBeetle, "BA1   \\WS1", "bA1", "wS1", northWest, true},
		{posBeetle, "bA1 wS1", "bA1", "wS1", onto, false},
		{posBeetle, "bS2 \\wS1", "bS2", "wS1", northWest, false},
		{posBeetle, "bA1 \\bA1", "bA1", "bA1", northWest, true},
		{posBeetle, "bA1 /bA1", "bA1", "bA1", southWest, true},

		// A Beetle on a stack, named relative to itself or what it covers.
		{posBeetleW, "wB1 wB1-", "wB1", "wB1", east, true},
		{posBeetleW, "wB1 wS1-", "wB1", "wS1", east, true},
		{posBeetleW, "wB1 bS1", "wB1", "bS1", onto, true},
		{posBeetleW, "wB1 \\wS1", "wB1", "wS1", northWest, true},
		{posBeetleW, "wB1 wQ/", "wB1", "wQ", northEast, true},
		{posBeetleW, "wB1 wS1", "wB1", "wS1", onto, false}, // the cell it stands on
		{posBeetleW, "wQ wQ\\", "wQ", "wQ", southEast, true},
		{posBeetleW, "wQ /wS1", "wQ", "wS1", southWest, true},
		{posBeetleW, "wQ /wB1", "wQ", "wB1", southWest, true},

		// Onto a stack of two, by its top or its bottom piece.
		{posTower, "bB1 wB1", "bB1", "wB1", onto, true},
		{posTower, "bB1 wS1", "bB1", "wS1", onto, true},
		{posTower, "bB1 -bB1", "bB1", "bB1", west, true},
		{posTower, "bB1 -bS1", "bB1", "bS1", west, true},
		{posTower, "bB1 bB1-", "bB1", "bB1", east, true},
		{posTower, "bB1 bQ", "bB1", "bQ", onto, true},
		{posTower, "bB1 bS1\\", "bB1", "bS1", southEast, true},
		{posTower, "bB1 bB1\\", "bB1", "bB1", southEast, true},
	}
	games := map[string]*core.Game{}
	for _, c := range cases {
		g := games[c.pos]
		if g == nil {
			g = load(t, c.pos)
			games[c.pos] = g
		}
		want := dest(g, c.piece, c.ref, c.dir)
		got, err := uhp.ParseMove(c.text, g)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", c.pos, c.text, err)
			continue
		}
		if got != want {
			t.Errorf("%s: ParseMove(%q) = %v, want %v", c.pos, c.text, got, want)
		}
		canon := uhp.FormatMove(want, g)
		if m, err := uhp.ParseMove(canon, g); err != nil || m != got {
			t.Errorf("%s: %q parses to %v but its canonical spelling %q to %v, %v", c.pos, c.text, got, canon, m, err)
		}
		if err := g.RuleBroken(got); (err == nil) != c.legal {
			t.Errorf("%s: %q: RuleBroken = %v, want legal = %v", c.pos, c.text, err, c.legal)
		}
	}
}

func TestParseMoveRejects(t *testing.T) {
	cases := []struct {
		pos, text string
		keys      []string
	}{
		{posStart, "", []string{"empty move"}},
		{posStart, " \t ", []string{"empty move"}},
		{posTwo, "wX1", []string{`"wX1"`, "not a bug"}},
		{posTwo, "wS3", []string{`"wS3"`, "there is no"}},
		{posTwo, "wS", []string{`"wS"`, "needs a number"}},
		{posTwo, "xS1", []string{`"xS1"`, "must start with w or b"}},
		{posTwo, "wQ2 wS1-", []string{`"wQ2"`, "there is no"}},
		{posStart, "wS1 bS1", []string{"bS1 is not on the board"}},
		{posSpec, "wS2 bS1-", []string{"bS1 is not on the board"}},
		{posTwo, "wA1 wM-", []string{"wM is not on the board"}},
		{posTwo, "wA1 bS2", []string{"bS2 is not on the board"}},
		{posTwo, "wS1 -bS1-", []string{`"-bS1-"`, "not both"}},
		{posTwo, "wS1 /bS1\\", []string{"not both"}},
		{posTwo, "wS1 wS1", []string{`"wS1 wS1"`, "onto itself"}},
		{posTwo, "WS1 ws1", []string{"onto itself"}},
		{posTwo, "wA1 wS1 -", []string{`"wA1 wS1 -"`, "is not a move"}},
		{posTwo, "wA1 - wS1", []string{"is not a move"}},
		{posTwo, "wA1 bS1 wS1-", []string{"is not a move"}},
		{posTwo, "wA1", []string{`"wA1"`, "needs a position"}},
		{posTwo, "wA1 -", []string{`"-"`, "not a position", "not a piece name"}},
		{posTwo, "wA1 wS1-/", []string{`"wS1-/"`, "not a position"}},
		{posTwo, "wA1 --wS1", []string{"not a position"}},
		{posTwo, "wA1 w-S1", []string{"not a position"}},
		{posTwo, "wA1 wS0-", []string{"not a position", "not a piece number"}},
		{posTwo, "wA1 wS-", []string{"not a position", "needs a number"}},
		{posTwo, "wA1 |wS1", []string{"not a position"}},
		{posTwo, "pass wS1", []string{`"pass"`, "not a piece name"}},
		{posTwo, "wS1-", []string{"not a piece name"}},
	}
	for _, c := range cases {
		g := load(t, c.pos)
		m, err := uhp.ParseMove(c.text, g)
		wantErr(t, c.pos+": ParseMove("+quote(c.text)+")", err, c.keys...)
		if err != nil && m != core.NoMove {
			t.Errorf("%s: ParseMove(%q) returned %v with its error", c.pos, c.text, m)
		}
	}
}

// TestFormatMoveReference checks, on positions worked out by hand, the
// spelling choices of the reference engine Mzinga's writer: the bare piece
// for the first move, the top of the destination for a move onto a stack,
// and otherwise the top of the first occupied neighbour of the destination
// from the top left clockwise, with the moving piece lifted first.
func TestFormatMoveReference(t *testing.T) {
	cases := []struct {
		pos        string
		piece, ref string
		dir        int
		want       string
		why        string
	}{
		{posStart, "wS1", "", first, "wS1", "first move"},
		{posStart, "wG1", "", first, "wG1", "first move"},
		{posTwo, "wA1", "wS1", west, "wA1 -wS1", "one neighbour, to its east"},
		{posTwo, "wA1", "wS1", southWest, "wA1 /wS1", "one neighbour, to its north-east"},
		{posTwo, "wA1", "wS1", northWest, "wA1 \\wS1", "one neighbour, to its south-east"},
		{posSpec, "wG1", "wS1", east, "wG1 wA1\\", "top-left wA1 comes before left wS1"},
		{posSpec, "wQ", "wA1", southEast, "wQ wA1\\", "same cell, named the same whatever the piece"},
		{posBeetle, "bS2", "bS1", northEast, "bS2 \\bQ", "bottom-right bQ comes before bottom-left bS1"},
		{posBeetle, "bA1", "bQ", northEast, "bA1 bQ/", "bA1's own cell (bottom right) is empty once it is lifted"},
		{posBeetle, "bA1", "wS1", southEast, "bA1 wB1\\", "top-left stack named by its top wB1, before top-right bS1"},
		{posBeetle, "bA1", "wS1", northWest, "bA1 \\wB1", "bottom-right stack named by its top"},
		{posBeetleW, "wB1", "wS1", northWest, "wB1 \\wS1", "the Beetle steps down: wS1 under it, bottom right, before wQ bottom left"},
		{posBeetleW, "wB1", "bS1", onto, "wB1 bS1", "onto a stack of one: no mark"},
		{posBeetleW, "wB1", "wQ", onto, "wB1 wQ", "onto a stack of one: no mark"},
		{posBeetleW, "wQ", "wS1", southWest, "wQ /wB1", "wQ's own cell (top left) is empty once lifted; top-right stack named by its top"},
		{posTower, "bB1", "wS1", onto, "bB1 wB1", "onto a stack of two: its top, not the covered wS1"},
		{posTower, "bB1", "bQ", onto, "bB1 bQ", "onto a stack of one"},
		{posTower, "bB1", "bS1", southEast, "bB1 bS1\\", "the Beetle steps down: bS1 under it, top left"},
		{posTower, "bA1", "wS1", southWest, "bA1 wQ\\", "top-left wQ before the top-right stack and left wG2"},
	}
	if got := uhp.FormatMove(core.Pass, core.NewGame(core.Base)); got != "pass" {
		t.Errorf("FormatMove(Pass) = %q", got)
	}
	for _, c := range cases {
		g := load(t, c.pos)
		m := dest(g, c.piece, c.ref, c.dir)
		if err := g.RuleBroken(m); err != nil {
			t.Errorf("%s: %s (%s) is not legal: %v", c.pos, c.want, c.why, err)
			continue
		}
		if got := uhp.FormatMove(m, g); got != c.want {
			t.Errorf("%s: FormatMove = %q, want %q (%s)", c.pos, got, c.want, c.why)
		}
		if got := mzingaSpelling(m, g); got != c.want {
			t.Errorf("%s: the test's reference writer gives %q, want %q (%s)", c.pos, got, c.want, c.why)
		}
	}
}

// mzingaSpelling is an independent transcription of the reference engine
// Mzinga's writer (NotationUtils.ToBoardSpaceMoveString): its directions
// Up, UpRight, DownRight, Down, DownLeft and UpLeft are, on the pointy-top
// board of the notation, the top-left, top-right, right, bottom-right,
// bottom-left and left neighbours of the destination.
func mzingaSpelling(m core.Move, g *core.Game) string {
	if m == core.Pass {
		return "pass"
	}
	p, to := m.Piece(), m.To()
	name := p.String()
	if g.Ply() == 0 {
		return name
	}
	if g.Height(to) > 0 {
		return name + " " + g.Top(to).String()
	}
	scan := []struct {
		d             core.Direction
		before, after string // the mark, before or after the neighbour
	}{
		{core.NorthWest, "", "\\"},
		{core.NorthEast, "/", ""},
		{core.East, "-", ""},
		{core.SouthEast, "\\", ""},
		{core.SouthWest, "", "/"},
		{core.West, "", "-"},
	}
	for _, s := range scan {
		n := g.Top(to.Neighbor(s.d))
		if n == p {
			n = g.Under(p)
		}
		if n != core.NoPiece {
			return name + " " + s.before + n.String() + s.after
		}
	}
	return name
}

// markFor returns the position text of a cell in direction d of ref.
func markFor(ref core.Piece, d core.Direction) string {
	switch d {
	case core.East:
		return ref.String() + "-"
	case core.NorthEast:
		return ref.String() + "/"
	case core.SouthEast:
		return ref.String() + "\\"
	case core.West:
		return "-" + ref.String()
	case core.SouthWest:
		return "/" + ref.String()
	}
	return "\\" + ref.String()
}

// spellings returns every way of writing move m that ParseMove must read:
// for a destination on a stack, each piece of the stack with no mark; for
// every occupied neighbour of the destination, each piece of its stack
// (covered ones and the moving piece itself included) with its mark.
func spellings(m core.Move, g *core.Game) []string {
	if m == core.Pass {
		return []string{"pass", "PASS", "Pass"}
	}
	p, to := m.Piece(), m.To()
	name := p.String()
	if g.OnBoard() == 0 {
		return []string{name}
	}
	var out []string
	for q := g.Top(to); q != core.NoPiece; q = g.Under(q) {
		out = append(out, name+" "+q.String())
	}
	for d := core.Direction(0); d < core.NumDirections; d++ {
		from := to.Neighbor(d)
		for q := g.Top(from); q != core.NoPiece; q = g.Under(q) {
			out = append(out, name+" "+markFor(q, d.Opposite()))
		}
	}
	return out
}

// respell varies a MoveString in ways ParseMove must ignore: case, the
// queen's optional number, blanks.
func respell(s string, r *rand.Rand) string {
	if r.IntN(2) == 0 {
		s = strings.ToUpper(s)
	} else if r.IntN(2) == 0 {
		s = strings.ToLower(s)
	}
	blanks := []string{" ", "  ", "\t", " \t "}
	s = strings.Replace(s, " ", blanks[r.IntN(len(blanks))], 1)
	for _, q := range []string{"wQ", "bQ", "WQ", "BQ", "wq", "bq"} {
		if r.IntN(2) == 0 {
			// wQ1, unless the Q is followed by a digit already (never).
			s = strings.ReplaceAll(s, q, q+"1")
		}
	}
	return blanks[r.IntN(len(blanks))] + s + blanks[r.IntN(len(blanks))]
}

// randomGames plays, for every game type, a few games of random legal moves
// from a fixed seed, calling visit at every position reached (the start
// included) until plies moves are played or the game ends.
func randomGames(t *testing.T, games, plies int, visit func(g *core.Game, r *rand.Rand)) {
	t.Helper()
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for n := range games {
			r := rand.New(rand.NewPCG(uint64(n)+1, uint64(gt)+0x5eed))
			g := core.NewGame(gt)
			var l core.MoveList
			for ply := 0; ; ply++ {
				visit(g, r)
				if t.Failed() {
					t.Fatalf("%s game %d, after %q", uhp.FormatGameType(gt), n, uhptest.MustDescribe(t, g).String())
				}
				if ply == plies || g.Over() {
					break
				}
				g.GenerateMoves(&l)
				g.Play(l.At(r.IntN(l.Len())))
			}
		}
	}
}

// TestMoveRoundTripRandomGames checks, at every position of random games of
// all eight game types and for every legal move m, that FormatMove is
// stable, matches the reference writer, leaves the game as it was, and
// reads back to m; and that every other spelling of m reads back to m.
func TestMoveRoundTripRandomGames(t *testing.T) {
	moves, positions := 0, 0
	randomGames(t, 3, 120, func(g *core.Game, r *rand.Rand) {
		positions++
		var l core.MoveList
		g.GenerateMoves(&l)
		h := g.Hash()
		for _, m := range l.Moves() {
			moves++
			s := uhp.FormatMove(m, g)
			if again := uhp.FormatMove(m, g); again != s {
				t.Errorf("FormatMove(%v) gives %q then %q", m, s, again)
			}
			if ref := mzingaSpelling(m, g); s != ref {
				t.Errorf("FormatMove(%v) = %q, the reference writer gives %q", m, s, ref)
			}
			if got, err := uhp.ParseMove(s, g); err != nil || got != m {
				t.Errorf("ParseMove(FormatMove(%v) = %q) = %v, %v", m, s, got, err)
			}
			for _, alt := range spellings(m, g) {
				for _, text := range []string{alt, respell(alt, r)} {
					if got, err := uhp.ParseMove(text, g); err != nil || got != m {
						t.Errorf("ParseMove(%q) = %v, %v; want %v, written %q", text, got, err, m, s)
					}
				}
			}
			if t.Failed() {
				return
			}
		}
		if g.Hash() != h {
			t.Errorf("formatting and parsing changed the game")
		}
	})
	t.Logf("%d moves in %d positions", moves, positions)
}

// TestDescribeRoundTripRandomGames checks that Describe, String,
// ParseGameString, Load and Describe again give the same text and a game
// with the same hash and history, at every position of random games.
func TestDescribeRoundTripRandomGames(t *testing.T) {
	over := 0
	randomGames(t, 2, 120, func(g *core.Game, _ *rand.Rand) {
		checkDescribe(t, g)
		if g.Over() {
			over++
		}
	})
	t.Logf("%d games ended before 120 plies", over)
}

func checkDescribe(t *testing.T, g *core.Game) {
	t.Helper()
	d := uhptest.MustDescribe(t, g)
	if d.Type != g.Type() || d.State != uhp.StateOf(g) || d.Turn != uhp.TurnOf(g) || len(d.Moves) != g.MovesPlayed() {
		t.Errorf("Describe = %+v for a game of type %v at ply %d", d, g.Type(), g.Ply())
	}
	state := uhp.InProgress
	switch g.Result() {
	case core.Draw:
		state = uhp.Draw
	case core.WhiteWins:
		state = uhp.WhiteWins
	case core.BlackWins:
		state = uhp.BlackWins
	default:
		if g.Ply() == 0 {
			state = uhp.NotStarted
		}
	}
	if d.State != state {
		t.Errorf("Describe gives state %v for result %v at ply %d", d.State, g.Result(), g.Ply())
	}
	s := d.String()
	gs, err := uhp.ParseGameString(s)
	if err != nil {
		t.Errorf("ParseGameString(Describe = %q): %v", s, err)
		return
	}
	if !reflect.DeepEqual(gs, d) {
		t.Errorf("ParseGameString(%q) = %+v, want %+v", s, gs, d)
	}
	g2, err := gs.Load()
	if err != nil {
		t.Errorf("Load(%q): %v", s, err)
		return
	}
	if s2 := uhptest.MustDescribe(t, g2).String(); s2 != s {
		t.Errorf("Describe(Load(%q)) = %q", s, s2)
	}
	if g2.Hash() != g.Hash() {
		t.Errorf("Load(%q) has hash %x, want %x", s, g2.Hash(), g.Hash())
	}
	if !reflect.DeepEqual(g2.History(), g.History()) {
		t.Errorf("Load(%q) replays %v, want %v", s, g2.History(), g.History())
	}
}

package core_test

// Hand-written tests of the rules of Hive as the engine implements them:
// the movement of every bug, Freedom to Move, One Hive, placement, the
// Pillbug's special ability, the end of the game, and Play/Undo.
//
// Every position is built by a legal sequence of UHP MoveStrings, and every
// expected set of destinations was worked out by hand from the rules, on
// the board sketched next to it, never copied from the engine's output.
//
// Board sketches use axial coordinates (q, r): the first piece of the game
// stands at (0, 0), q grows to the east and r to the south-east, and row r
// is drawn shifted right by half a cell per row (pointy-top hexagons). The
// six neighbours of (q, r) are
//
//	E (q+1, r)  SE (q, r+1)  SW (q-1, r+1)  W (q-1, r)  NW (q, r-1)  NE (q+1, r-1)
//
// and in UHP notation "X ref-" is east of ref, "X ref\" south-east (bottom
// right), "X /ref" south-west, "X -ref" west, "X \ref" north-west (top left),
// "X ref/" north-east (top right), "X ref" on top of ref.
//
// In the sketches "*" marks an expected destination, "." an empty cell that
// is not one, "K" a cavity, and "wB1:2" a stack of height 2 with wB1 on top.
// A stacked destination is named in the text.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// hx is a cell in axial coordinates relative to the first piece of the game.
type hx struct{ q, r int }

func (h hx) cell() core.Cell { return core.CellAt(h.q, h.r) }

func (h hx) String() string { return fmt.Sprintf("(%d,%d)", h.q, h.r) }

// axialOf inverts core.CellAt for the cells within 15 columns and rows of
// the origin, which is all that the test positions use.
func axialOf(c core.Cell) hx {
	d := (int(c) - int(core.Origin)) & 1023
	if d >= 512 {
		d -= 1024
	}
	r := (d + 16) >> 5 // floor((d+16)/32), q = d - 32r lies in [-16, 15]
	return hx{d - 32*r, r}
}

// load parses a GameString and plays its moves, each checked by the rules.
func load(t testing.TB, gamestring string, opts ...core.GameOption) *core.Game {
	t.Helper()
	gs, err := uhp.ParseGameString(gamestring)
	if err != nil {
		t.Fatalf("ParseGameString(%q): %v", gamestring, err)
	}
	g, err := gs.Load(opts...)
	if err != nil {
		t.Fatalf("loading %q: %v", gamestring, err)
	}
	return g
}

// game loads the game of type typ ("Base", "Base+MLP", ...) after the
// semicolon-separated MoveStrings of moves, writing the GameString's state
// and turn fields from the number of moves.
func game(t testing.TB, typ, moves string, opts ...core.GameOption) *core.Game {
	t.Helper()
	n := 0
	if moves != "" {
		n = strings.Count(moves, ";") + 1
	}
	state, color := "NotStarted", "White"
	if n > 0 {
		state = "InProgress"
	}
	if n%2 == 1 {
		color = "Black"
	}
	s := fmt.Sprintf("%s;%s;%s[%d]", typ, state, color, n/2+1)
	if n > 0 {
		s += ";" + moves
	}
	return load(t, s, opts...)
}

// pieceNamed returns the piece of a short name such as wQ or bS1.
func pieceNamed(t testing.TB, name string) core.Piece {
	t.Helper()
	p, err := uhp.ParsePiece(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// parseMove reads a MoveString in the current position of g.
func parseMove(t testing.TB, g *core.Game, s string) core.Move {
	t.Helper()
	m, err := uhp.ParseMove(s, g)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", s, err)
	}
	return m
}

// generate returns a copy of the legal moves of g.
func generate(g *core.Game) []core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	return slices.Clone(l.Moves())
}

// movesOf returns the sorted destination cells of the legal moves of the
// piece called name, reporting any (piece, destination) listed twice.
func movesOf(t testing.TB, g *core.Game, name string) []core.Cell {
	t.Helper()
	p := pieceNamed(t, name)
	var cells []core.Cell
	for _, m := range generate(g) {
		if m != core.Pass && m.Piece() == p {
			cells = append(cells, m.To())
		}
	}
	slices.Sort(cells)
	for i := 1; i < len(cells); i++ {
		if cells[i] == cells[i-1] {
			t.Errorf("move %s %v is listed twice\n%s", name, axialOf(cells[i]), dump(g))
		}
	}
	return cells
}

// expectMoves checks that the legal moves of piece name go exactly to the
// cells want.
func expectMoves(t testing.TB, g *core.Game, name string, want ...hx) {
	t.Helper()
	p := pieceNamed(t, name)
	got := movesOf(t, g, name)
	w := make([]core.Cell, len(want))
	for i, h := range want {
		w[i] = h.cell()
	}
	slices.Sort(w)
	if slices.Equal(got, w) {
		return
	}
	var missing, extra []string
	for _, c := range w {
		if !slices.Contains(got, c) {
			missing = append(missing, describeMove(g, core.MakeMove(p, c)))
		}
	}
	for _, c := range got {
		if !slices.Contains(w, c) {
			extra = append(extra, describeMove(g, core.MakeMove(p, c)))
		}
	}
	t.Errorf("moves of %s: %d listed, want %d\n missing:    %s\n unexpected: %s\n%s",
		name, len(got), len(w), strings.Join(missing, ", "), strings.Join(extra, ", "), dump(g))
}

// expectNoMoves checks that the piece called name has no legal move.
func expectNoMoves(t testing.TB, g *core.Game, name string) {
	t.Helper()
	expectMoves(t, g, name)
}

// describeMove writes a move with its destination's coordinates.
func describeMove(g *core.Game, m core.Move) string {
	if m == core.Pass {
		return "pass"
	}
	return fmt.Sprintf("%q%v", uhp.FormatMove(m, g), axialOf(m.To()))
}

// dump describes the position of g for failure messages.
func dump(g *core.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tposition after %d plies, %s to move, result %d:", g.Ply(), g.ToMove(), g.Result())
	for p := core.Piece(0); p < core.NumPieces; p++ {
		if c := g.Position(p); c != core.NoCell {
			fmt.Fprintf(&b, " %s%v", p, axialOf(c))
			if l := g.Level(p); l > 0 {
				fmt.Fprintf(&b, "^%d", l)
			}
		}
	}
	if gs, err := uhp.Describe(g); err == nil {
		fmt.Fprintf(&b, "\n\t%s", gs)
	} else {
		fmt.Fprintf(&b, "\n\tset up at %+v, then %d moves", g.StartPosition(), g.MovesPlayed())
	}
	return b.String()
}

// expectRuleError checks that RuleBroken refuses m with the message want.
func expectRuleError(t testing.TB, g *core.Game, m core.Move, want string) {
	t.Helper()
	err := g.RuleBroken(m)
	var re *core.RuleError
	switch {
	case err == nil:
		t.Errorf("RuleBroken(%s) = nil, want %q\n%s", describeMove(g, m), want, dump(g))
	case !errors.As(err, &re):
		t.Errorf("RuleBroken(%s) = %v (%T), want a *core.RuleError", describeMove(g, m), err, err)
	case re.Msg != want:
		t.Errorf("RuleBroken(%s) = %q, want %q\n%s", describeMove(g, m), re.Msg, want, dump(g))
	}
}

// expectIllegal checks that RuleBroken refuses m, whatever the reason.
func expectIllegal(t testing.TB, g *core.Game, m core.Move) {
	t.Helper()
	var re *core.RuleError
	if err := g.RuleBroken(m); !errors.As(err, &re) {
		t.Errorf("RuleBroken(%s) = %v, want a *core.RuleError\n%s", describeMove(g, m), err, dump(g))
	}
}

// playChecked plays the MoveString s, which must be legal.
func playChecked(t testing.TB, g *core.Game, s string) {
	t.Helper()
	if err := g.PlayChecked(parseMove(t, g, s)); err != nil {
		t.Fatalf("playing %q: %v\n%s", s, err, dump(g))
	}
}

// expectLegal checks that RuleBroken accepts the MoveString s.
func expectLegal(t testing.TB, g *core.Game, s string) {
	t.Helper()
	m := parseMove(t, g, s)
	if err := g.RuleBroken(m); err != nil {
		t.Errorf("RuleBroken(%q) = %v, want nil\n%s", s, err, dump(g))
	}
}

// movementCase is one position and the destinations of one piece in it.
type movementCase struct {
	name  string
	typ   string
	moves string
	piece string
	want  []hx
}

func runMovementCases(t *testing.T, cases []movementCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := game(t, c.typ, c.moves)
			expectMoves(t, g, c.piece, c.want...)
		})
	}
}

// TestRulesNotationModel pins down the coordinate model the sketches use:
// the six UHP direction marks of the spec against axial offsets, and the
// first piece at core.CellAt(0, 0).
func TestRulesNotationModel(t *testing.T) {
	g := game(t, "Base", "")
	if m := parseMove(t, g, "wS1"); m.To() != (hx{0, 0}).cell() {
		t.Fatalf("first piece goes to %v, want (0,0)", axialOf(m.To()))
	}
	g = game(t, "Base", "wS1")
	for _, c := range []struct {
		s    string
		want hx
	}{
		{`bS1 wS1-`, hx{1, 0}},  // right-hand edge
		{`bS1 wS1/`, hx{1, -1}}, // top right
		{`bS1 wS1\`, hx{0, 1}},  // bottom right
		{`bS1 /wS1`, hx{-1, 1}}, // bottom left
		{`bS1 -wS1`, hx{-1, 0}}, // left-hand edge
		{`bS1 \wS1`, hx{0, -1}}, // top left
	} {
		if got := parseMove(t, g, c.s).To(); got != c.want.cell() {
			t.Errorf("%q goes to %v, want %v", c.s, axialOf(got), c.want)
		}
	}
	for q := -15; q <= 15; q++ {
		for r := -15; r <= 15; r++ {
			if got := axialOf(core.CellAt(q, r)); got != (hx{q, r}) {
				t.Fatalf("axialOf(CellAt(%d,%d)) = %v", q, r, got)
			}
		}
	}
}

// TestRulesQueen: the Queen Bee slides exactly one cell, keeping contact
// with the hive while it slides.
func TestRulesQueen(t *testing.T) {
	// wQ(-1,0) touches only wG1(0,0). It slides around wG1 to (0,-1) and
	// (-1,1); (-1,-1), (-2,0) and (-2,1) would leave the hive, and two
	// steps such as (1,-1) are too far.
	//	r=-1      .     *
	//	r= 0   .     wQ   wG1   bG1    bQ
	//	r= 1      .     *
	runMovementCases(t, []movementCase{
		{"line end", "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-`, "wQ", []hx{{0, -1}, {-1, 1}}},
		// The same for Black, one ply later after White placed wS1(-2,0).
		{"black line end", "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 -wQ`, "bQ", []hx{{2, -1}, {1, 1}}},
	})
}

// TestRulesSpider: exactly three slides round the hive, never entering a
// cell twice, so neither the cells one or two slides away nor the start.
func TestRulesSpider(t *testing.T) {
	// Line: wS1(-2,0) at the west end of six pieces in row 0. Clockwise it
	// slides (-1,-1) "1", (0,-1) "2", (1,-1) "*"; anticlockwise (-2,1),
	// (-1,1), (0,1). The two-step cells (0,-1) and (-1,1) are not
	// destinations, nor (-2,1)/(-1,-1) (reachable only by going back).
	//	r=-1      1     2     *
	//	r= 0  wS1    wQ   wG1   bG1    bQ   bS1
	//	r= 1      1     2     *
	//
	// Cavity: the ring wG1(0,0) bG1(1,0) bQ(1,1) bS1(0,2) wQ(-1,1) closes the
	// cell K(0,1) but for its south-west mouth (-1,2), whose step into K is
	// a gate between bS1 and wQ. wS1(-1,0) goes round the outside: clockwise
	// (0,-1), (1,-1), (2,-1); anticlockwise (-2,1), (-2,2), (-1,2). It never
	// reaches K.
	//	r=-1         1     2     *
	//	r= 0     wS1   wG1   bG1
	//	r= 1   1     wQ    K     bQ
	//	r= 2      2     *    bS1
	runMovementCases(t, []movementCase{
		{"line", "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 -wQ;bS1 bQ-`, "wS1", []hx{{1, -1}, {0, 1}}},
		{"cavity", "Base", `wG1;bG1 wG1-;wQ /wG1;bQ bG1\;wS1 -wG1;bS1 /bQ`, "wS1", []hx{{2, -1}, {-1, 2}}},
	})
}

// TestRulesBeetle: one step in any direction, climbing onto the hive,
// moving on top of it, and climbing down.
func TestRulesBeetle(t *testing.T) {
	// Ground: wB1(-1,-1) touches only wQ(-1,0). It climbs onto wQ (the
	// stacked destination "wQ*") or slides to (0,-1) or (-2,0); the cells
	// marked "." would lose contact, and wG1(0,0) is not adjacent.
	//	r=-2      .     .
	//	r=-1   .    wB1    *                bB1
	//	r= 0      *    wQ*   wG1   bG1    bQ
	//
	// On top: wB1 then climbed onto wQ(-1,0) and bB1 onto bQ(2,0). From the
	// top of the hive wB1 may step onto wG1(0,0) or down to any of the
	// five empty neighbours of (-1,0): no gate is higher than its own level.
	//	r=-1      *     *
	//	r= 0   *   wB1:2  wG1*  bG1  bB1:2
	//	r= 1      *     *
	ground := `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wB1 \wQ;bB1 bQ/`
	runMovementCases(t, []movementCase{
		{"ground", "Base", ground, "wB1", []hx{{-1, 0}, {0, -1}, {-2, 0}}},
		{"on top", "Base", ground + `;wB1 wQ;bB1 bQ`, "wB1", []hx{{0, 0}, {-1, 1}, {-2, 1}, {-2, 0}, {-1, -1}, {0, -1}}},
		// The covered Queen cannot move at all.
		{"covered", "Base", ground + `;wB1 wQ;bB1 bQ`, "wQ", nil},
	})
}

// TestRulesGrasshopper: a straight jump over one or more pieces to the
// first empty cell, never over an empty cell, and regardless of gates.
func TestRulesGrasshopper(t *testing.T) {
	// Gap: wG2(-2,0) jumps east over wQ and wG1 and lands in the first empty
	// cell (1,0), though bG1, bQ and bA1 surround it (a gate no slider could
	// enter); it does not jump the gap to (3,0). No other neighbour of wG2
	// is occupied.
	//	r=-1                 bG1    bQ
	//	r= 0  wG2    wQ   wG1    *    bA1    .
	//
	// Two lines: wG2(-1,0) jumps east over wG1 bG1 bQ bA1 to (4,0), and
	// south-east over wQ(-1,1) to (-1,2).
	//	r= 0  wG2   wG1   bG1    bQ   bA1    *
	//	r= 1      wQ
	//	r= 2         *
	runMovementCases(t, []movementCase{
		{"gap", "Base", `wG1;bG1 wG1/;wQ -wG1;bQ bG1-;wG2 -wQ;bA1 bQ\`, "wG2", []hx{{1, 0}}},
		{"two lines", "Base", `wG1;bG1 wG1-;wQ /wG1;bQ bG1-;wG2 -wG1;bA1 bQ-`, "wG2", []hx{{4, 0}, {-1, 2}}},
	})
}

// TestRulesSoldierAnt: any number of slides, so every empty cell on the
// outside of the hive, but not the cavity K(0,1), whose only open side
// (-1,2) is a gate between bS1(0,2) and wQ(-1,1).
func TestRulesSoldierAnt(t *testing.T) {
	// wA1(-1,0) goes round the outer ring of twelve cells (its own start
	// excepted): eleven destinations.
	//	r=-1         *     *     *
	//	r= 0     wA1   wG1   bG1    *
	//	r= 1   *     wQ    K     bQ    *
	//	r= 2      *     *    bS1    *
	//	r= 3               *     *
	runMovementCases(t, []movementCase{
		{"cavity", "Base", `wG1;bG1 wG1-;wQ /wG1;bQ bG1\;wA1 -wG1;bS1 /bQ`, "wA1", []hx{
			{0, -1}, {1, -1}, {2, -1}, {2, 0}, {2, 1}, {1, 2}, {0, 3}, {-1, 3}, {-1, 2}, {-2, 2}, {-2, 1},
		}},
	})
}

// TestRulesLadybug: two steps on top of the hive, then one down; it never
// stops on top and never ends where it started.
func TestRulesLadybug(t *testing.T) {
	// wL(-1,1) climbs onto wQ(-1,0) or wG1(0,0). From wQ its only second
	// step on top is wG1; from wG1 it is bG1(1,0) or wQ. It then climbs down
	// to an empty neighbour of wG1, bG1 or wQ, except its start (-1,1):
	//   via wG1: (0,1) (0,-1) (1,-1); via bG1: (1,1) (0,1) (1,-1) (2,-1);
	//   via wQ: (-2,1) (-2,0) (-1,-1) (0,-1).
	// Cells such as (2,1), (-2,2) or (-1,2) need a third step on top.
	//	r=-1      *     *     *     *
	//	r= 0   *     wQ   wG1   bG1    bQ   bA1
	//	r= 1      *     wL    *     *     .
	//	r= 2         .     .
	runMovementCases(t, []movementCase{
		{"triangle", "Base+L", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wL /wG1;bA1 bQ-`, "wL", []hx{
			{0, 1}, {0, -1}, {1, -1}, {1, 1}, {2, -1}, {-2, 1}, {-2, 0}, {-1, -1},
		}},
	})
}

// TestRulesMosquito: a Mosquito moves as any bug it touches (the top piece
// of each neighbouring stack), on top of the hive as a Beetle, and not at
// all when it touches only a Mosquito.
func TestRulesMosquito(t *testing.T) {
	// Queen and Grasshopper: wM(-1,1) touches wQ(-1,0) and wG1(0,0). As a
	// Queen it slides to (0,1) or (-2,1); as a Grasshopper it jumps over
	// wQ to (-1,-1) and over wG1 to (1,-1).
	//	r=-1   *           *
	//	r= 0      wQ   wG1   bG1    bQ   bA1
	//	r= 1   *     wM    *
	//
	// Only a Mosquito: wM(0,0) touches only bM(1,0) after wQ walked round to
	// (2,-1): it has no move (and it is no articulation point).
	//	r=-1            wQ
	//	r= 0   wM    bM    bQ   bA1   bG1   bS1
	//
	// Top of a stack: wM(0,-1) touches only the stack (0,0) of wB1 on wA1. It
	// moves as the Beetle on top, slides to (1,-1) or (-1,0) or climbs onto
	// (0,0), and has none of the Ant's moves, which would reach (-1,-1)
	// among others (that step would lose contact).
	//	r=-1   .     wM    *
	//	r= 0      *   wB1:2  bG1    bQ   bA1   bS1   bS2
	//	r= 1         wQ
	//
	// On top of the hive: wM climbed onto wQ(-1,0) as a Beetle (it touched
	// wB1 then); wB1 has since walked away to (0,1). wM touches no Beetle,
	// but from the top it still moves as one: onto wG1(0,0) or down to any
	// empty neighbour of (-1,0). Copying the Grasshopper wG1 it touches, it
	// would instead jump east to (8,0).
	//	r=-1      *     *
	//	r= 0   *    wM:2  wG1*  bG1    bQ   bA1   bS1   bS2   bG2   bG3
	//	r= 1      *     *    wB1
	runMovementCases(t, []movementCase{
		{"queen and grasshopper", "Base+M", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wM /wG1;bA1 bQ-`, "wM",
			[]hx{{0, 1}, {-2, 1}, {-1, -1}, {1, -1}}},
		{"only a mosquito", "Base+M", `wM;bM wM-;wQ -wM;bQ bM-;wQ \wM;bA1 bQ-;wQ wM/;bG1 bA1-;wQ bM/;bS1 bG1-`, "wM", nil},
		{"beetle on an ant", "Base+M", `wA1;bG1 wA1-;wQ /wA1;bQ bG1-;wB1 -wA1;bA1 bQ-;wB1 wA1;bS1 bA1-;wM \wA1;bS2 bS1-`, "wM",
			[]hx{{1, -1}, {0, 0}, {-1, 0}}},
		{"on top", "Base+M", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wM /wG1;bA1 bQ-;wB1 -wM;bS1 bA1-;wM wQ;bS2 bS1-;wB1 /wG1;bG2 bS2-;wB1 wG1\;bG3 bG2-`, "wM",
			[]hx{{0, 0}, {-1, 1}, {-2, 1}, {-2, 0}, {-1, -1}, {0, -1}}},
	})
}

// TestRulesPillbugMoves: the Pillbug itself slides one cell like a Queen,
// and throws an adjacent piece of its own colour; a move reachable both
// ways is listed once.
func TestRulesPillbugMoves(t *testing.T) {
	// wP(-1,0) touches wG1(0,0) and wQ(-1,1), which touch each other. It
	// slides to (-2,1) or (0,-1); (-2,0) and (-1,-1) would lose contact.
	// It may throw wQ (not an articulation point) onto any empty neighbour
	// of wP: (-2,1) (-2,0) (-1,-1) (0,-1); wQ itself slides to (0,1) or
	// (-2,1), so (-2,1) is both a walk and a throw. wG1 holds the black
	// pieces to the hive and cannot be thrown.
	//	r=-1      .     *
	//	r= 0   .     wP   wG1   bG1    bQ   bA1
	//	r= 1      *     wQ
	g := game(t, "Base+P", `wG1;bG1 wG1-;wP -wG1;bQ bG1-;wQ /wG1;bA1 bQ-`)
	expectMoves(t, g, "wP", hx{-2, 1}, hx{0, -1})
	expectMoves(t, g, "wQ", hx{0, 1}, hx{-2, 1}, hx{-2, 0}, hx{-1, -1}, hx{0, -1})
	expectNoMoves(t, g, "wG1")
}

// TestRulesFreedomToMove: a piece on the ground slides only between two
// cells of which exactly one is occupied: two occupied flanking cells are a
// gate, two empty ones would take it out of contact with the hive.
func TestRulesFreedomToMove(t *testing.T) {
	// Gate: wQ(-1,2) stands in the mouth of the cavity K(0,1). Its step
	// north-east into K passes between bS1(0,2) and wS1(-1,1), both
	// occupied: blocked. It slides to (-1,3) or (-2,2); (-2,3) would lose
	// contact. The ring round K keeps wQ from being an articulation point.
	//	r= 0        wG1   bG1   bA1   bA2   bS2
	//	r= 1     wS1    K     bQ
	//	r= 2   *     wQ   bS1
	//	r= 3      .     *
	g := game(t, "Base", `wG1;bG1 wG1-;wS1 /wG1;bQ bG1\;wQ -wG1;bS1 /bQ;wQ -wS1;bA1 bG1-;wQ /wS1;bA2 bA1-;wQ wS1\;bS2 bA2-`)
	t.Run("gate", func(t *testing.T) {
		expectMoves(t, g, "wQ", hx{-1, 3}, hx{-2, 2})
		expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wQ"), hx{0, 1}.cell()), "You can't move that piece there.")
	})

	// Cavity: wQ walked into K(0,1) before bA1 closed the ring at (0,2). Its
	// only empty neighbour (-1,2) lies between bA1(0,2) and wS1(-1,1): it
	// cannot slide out, though it is no articulation point.
	//	r= 0     wG1   bG1
	//	r= 1  wS1    wQ    bQ
	//	r= 2      .    bA1
	g = game(t, "Base", `wG1;bG1 wG1-;wS1 /wG1;bQ bG1\;wQ wS1\;bA1 bG1-;wQ wG1\;bA1 /bQ`)
	t.Run("cavity", func(t *testing.T) {
		expectNoMoves(t, g, "wQ")
		expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wQ"), hx{-1, 2}.cell()), "You can't move that piece there.")
	})

	// Contact: wQ(-1,0) touches only wG1(0,0). (-1,-1) touches the hive at
	// bS1(0,-2), but the slide to it passes between (-2,0) and (0,-1), both
	// empty, so wQ would leave the hive during the move: not allowed. It
	// slides to (0,-1) or (-1,1).
	//	r=-2     bS1    bQ
	//	r=-1   .     *    bG1
	//	r= 0      wQ   wG1
	//	r= 1         *    wS1
	g = game(t, "Base", `wG1;bG1 wG1/;wQ -wG1;bQ \bG1;wS1 wG1\;bS1 -bQ`)
	t.Run("contact", func(t *testing.T) {
		expectMoves(t, g, "wQ", hx{0, -1}, hx{-1, 1})
	})
}

// TestRulesBeetleGate: on top of the hive, a step from height a to height
// b (counted with the moving piece lifted) is blocked when both flanking
// stacks are higher than max(a, b).
func TestRulesBeetleGate(t *testing.T) {
	// Three climbers stack up round the rhombus C(0,0) T(1,0) L(1,-1)
	// R(0,1), whose flanking pair for the step C->T is L and R: wB1 on wG1
	// at C, wM on wS1 at L (as a Beetle, touching wB2), then wB2 on wS2 at
	// R. Black shuffles bA1 between (-3,0) and (-3,1) meanwhile.
	moves := `wG1;bG1 -wG1;wQ wG1-;bQ -bG1;wS1 wG1/;bA1 -bQ;wS2 wG1\;bA1 /bQ;` +
		`wB1 wS1-;bA1 -bQ;wB1 wQ;bA1 /bQ;wB1 wG1;bA1 -bQ;wB2 wQ-;bA1 /bQ;` +
		`wM wS1-;bA1 -bQ;wM wS1;bA1 /bQ;wB2 wQ\`

	// a) L is 2 high, R 1: from level 1 on C, onto wQ at T (height 1) is
	// allowed (min(2,1) = 1 is not above max(1,1) = 1). wB1 reaches all six
	// neighbours: wQ(1,0), wS2(0,1), (-1,1), bG1(-1,0), (0,-1) and wM's
	// stack (1,-1).
	//	r=-1                  *    wM:2
	//	r= 0  bA1    bQ   bG1* wB1:2  wQ*
	//	r= 1                  *    wS2*  wB2
	t.Run("one flank low", func(t *testing.T) {
		g := game(t, "Base+M", moves+`;bA1 -bQ`)
		expectMoves(t, g, "wB1", hx{1, 0}, hx{0, 1}, hx{-1, 1}, hx{-1, 0}, hx{0, -1}, hx{1, -1})
	})

	// b) wB2 climbs onto R: L and R are both 2 high, above max(1,1), so the
	// step C->T is blocked. Every other step has a flank of height 1 or
	// less: wB1 goes to (0,1) and (1,-1) on top, (-1,0) onto bG1, and down
	// to (-1,1) (flanks R=2, bG1=1) or (0,-1) (flanks bG1=1, L=2).
	//	r=-1               *    wM:2
	//	r= 0      bQ   bG1  wB1:2   wQ
	//	r= 1  bA1          *   wB2:2
	t.Run("both flanks high", func(t *testing.T) {
		g := game(t, "Base+M", moves+`;bA1 -bQ;wB2 wS2;bA1 /bQ`)
		expectMoves(t, g, "wB1", hx{0, 1}, hx{-1, 1}, hx{-1, 0}, hx{0, -1}, hx{1, -1})
	})

	// c) wQ walks off T to (2,-1): climbing down from C to the empty T
	// (max(1,0) = 1 < 2) is blocked too.
	//	r=-1                  *    wM:2   wQ
	//	r= 0  bA1    bQ   bG1  wB1:2   .
	//	r= 1                  *   wB2:2
	t.Run("down between high flanks", func(t *testing.T) {
		g := game(t, "Base+M", moves+`;bA1 -bQ;wB2 wS2;bA1 /bQ;wQ wM-;bA1 -bQ`)
		expectMoves(t, g, "wB1", hx{0, 1}, hx{-1, 1}, hx{-1, 0}, hx{0, -1}, hx{1, -1})
		expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wB1"), hx{1, 0}.cell()), "You can't move that piece there.")
	})
}

// TestRulesOneHive: a piece whose removal would split the hive cannot
// move, unless it is on top of a stack.
func TestRulesOneHive(t *testing.T) {
	// wG1(0,0) alone joins wQ to the black pieces: it has no move, and its
	// jump east to (3,0) is refused for breaking the hive.
	//	r= 0   wQ   wG1   bG1    bQ    .
	g := game(t, "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-`)
	t.Run("pinned", func(t *testing.T) {
		expectNoMoves(t, g, "wG1")
		expectRuleError(t, g, parseMove(t, g, "wG1 bQ-"), "You can't move that piece because it will break the hive.")
	})

	// wB1 climbed onto wG1(0,0). The cell is still an articulation point,
	// but wB1 leaves wG1 behind: it may step onto wQ(-1,0) or bG1(1,0) or
	// down to any of the four empty neighbours. wG1, covered, may not move.
	//	r=-1      *     *
	//	r= 0  wQ*  wB1:2  bG1*   bQ   bA1   bS1
	//	r= 1      *     *
	g = game(t, "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wB1 \wG1;bA1 bQ-;wB1 wG1;bS1 bA1-`)
	t.Run("on top of a stack", func(t *testing.T) {
		expectMoves(t, g, "wB1", hx{1, 0}, hx{0, 1}, hx{-1, 1}, hx{-1, 0}, hx{0, -1}, hx{1, -1})
		expectNoMoves(t, g, "wG1")
		expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wG1"), hx{0, 1}.cell()),
			"You can't move that piece because it has another piece on top of it.")
	})
}

// gameTypes lists every game type with its GameTypeString.
var gameTypes = []struct {
	name string
	typ  core.GameType
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

// firstBugs returns the names of the pieces a player may place on the first
// turn of a game of type t: one of each bug but the Queen, number 1.
func firstBugs(color string, t core.GameType) []string {
	names := []string{color + "S1", color + "B1", color + "G1", color + "A1"}
	if t&core.WithMosquito != 0 {
		names = append(names, color+"M")
	}
	if t&core.WithLadybug != 0 {
		names = append(names, color+"L")
	}
	if t&core.WithPillbug != 0 {
		names = append(names, color+"P")
	}
	return names
}

// expectMoveSet checks that the legal moves of g are exactly want.
func expectMoveSet(t testing.TB, g *core.Game, want []core.Move) {
	t.Helper()
	got := generate(g)
	slices.Sort(got)
	w := slices.Clone(want)
	slices.Sort(w)
	if slices.Equal(got, w) {
		return
	}
	var missing, extra []string
	for _, m := range w {
		if !slices.Contains(got, m) {
			missing = append(missing, describeMove(g, m))
		}
	}
	for _, m := range got {
		if !slices.Contains(w, m) {
			extra = append(extra, describeMove(g, m))
		}
	}
	t.Errorf("%d moves listed, want %d\n missing:    %s\n unexpected: %s\n%s",
		len(got), len(w), strings.Join(missing, ", "), strings.Join(extra, ", "), dump(g))
}

// placements returns the placements of each named piece on each cell.
func placements(t testing.TB, names []string, cells []hx) []core.Move {
	var moves []core.Move
	for _, n := range names {
		for _, c := range cells {
			moves = append(moves, core.MakeMove(pieceNamed(t, n), c.cell()))
		}
	}
	return moves
}

// TestRulesFirstMoves: the valid moves of the first two plies of every
// game type. White places any bug but the Queen (tournament opening), the
// first of its kind, at the centre; Black then places any bug but the
// Queen on any of the six cells around it, touching White's piece.
func TestRulesFirstMoves(t *testing.T) {
	ring := []hx{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}
	for _, gt := range gameTypes {
		t.Run(gt.name, func(t *testing.T) {
			g := core.NewGame(gt.typ)
			expectMoveSet(t, g, placements(t, firstBugs("w", gt.typ), []hx{{0, 0}}))
			expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wQ"), hx{0, 0}.cell()),
				"You can't play your Queen Bee on your first turn.")
			expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wS2"), hx{0, 0}.cell()),
				"When there are multiple pieces of the same bug type, you must play the pieces in order.")

			g = game(t, gt.name, "wS1")
			expectMoveSet(t, g, placements(t, firstBugs("b", gt.typ), ring))
			expectRuleError(t, g, parseMove(t, g, "bQ wS1-"), "You can't play your Queen Bee on your first turn.")
		})
	}
}

// TestRulesQueenOnFirstTurn: with QueenOnFirstTurn (BoardSpace's and
// hivegame.com's games that allow it), the Queen joins the first moves of
// both players, is legal there, and a position set up with a lone Queen
// on the board is one such a game reaches; without it, as UHP has it, none
// of that.
func TestRulesQueenOnFirstTurn(t *testing.T) {
	ring := []hx{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}
	for _, gt := range gameTypes {
		t.Run(gt.name, func(t *testing.T) {
			g := core.NewGame(gt.typ, core.QueenOnFirstTurn(true))
			if !g.QueenOnFirstTurnAllowed() || core.NewGame(gt.typ).QueenOnFirstTurnAllowed() {
				t.Fatal("QueenOnFirstTurnAllowed does not say what the option set")
			}
			expectMoveSet(t, g, placements(t, append(firstBugs("w", gt.typ), "wQ"), []hx{{0, 0}}))
			g.Play(core.MakeMove(pieceNamed(t, "wQ"), hx{0, 0}.cell()))
			expectMoveSet(t, g, placements(t, append(firstBugs("b", gt.typ), "bQ"), ring))
			if g.Clone().QueenOnFirstTurnAllowed() != true {
				t.Error("a clone forgot the rule")
			}
			g = game(t, gt.name, "wQ", core.QueenOnFirstTurn(true))
			if _, err := core.NewGameAt(g.CurrentPosition(), core.QueenOnFirstTurn(true)); err != nil {
				t.Errorf("set up at a lone Queen under the rule: %v", err)
			}
			if _, err := core.NewGameAt(g.CurrentPosition()); err == nil {
				t.Error("set up at a lone Queen without the rule: no error")
			}
		})
	}
}

// TestRulesPlacement: after each player's first piece, a piece is placed on
// an empty cell touching one of its owner's pieces and none of the
// opponent's, and the bugs of one kind enter in number order.
func TestRulesPlacement(t *testing.T) {
	// wS1(0,0), bS1(1,0). White's second piece may go to (-1,1), (-1,0) or
	// (0,-1); (0,1) and (1,-1) touch bS1. Any bug may be placed now,
	// including the Queen, but of the Spiders only wS2. wS1 cannot move:
	// White's Queen is not in play yet.
	g := game(t, "Base+MLP", `wS1;bS1 wS1-`)
	cells := []hx{{-1, 1}, {-1, 0}, {0, -1}}
	expectMoveSet(t, g, placements(t, []string{"wQ", "wS2", "wB1", "wG1", "wA1", "wM", "wL", "wP"}, cells))
	expectRuleError(t, g, parseMove(t, g, "wA1 wS1/"), "You can't place a piece touching your opponent's pieces.")
	expectRuleError(t, g, parseMove(t, g, "wA1 bS1-"), "You must place a piece touching one of your own pieces.")
	expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wA1"), hx{5, 5}.cell()), "You must place a piece touching the hive.")
	expectRuleError(t, g, parseMove(t, g, "wA2 -wS1"),
		"When there are multiple pieces of the same bug type, you must play the pieces in order.")
	expectRuleError(t, g, parseMove(t, g, "wA1 bS1"), "You can't move there because a piece already exists at that position.")

	// Once wA1 is in, wA2 may follow but still not wA3.
	g = game(t, "Base", `wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-`)
	expectLegal(t, g, "wA2 -wA1")
	expectRuleError(t, g, parseMove(t, g, "wA3 -wA1"),
		"When there are multiple pieces of the same bug type, you must play the pieces in order.")
}

// TestRulesPlacementStackColour: a stack counts as the colour of its top
// piece when placing, so bB1 on top of wG1 makes (0,0) a black cell.
func TestRulesPlacementStackColour(t *testing.T) {
	// White may place next to wQ wS1 wS2 wG2 ("*") but not at (-1,1) or
	// (0,-1) ("."), which touch the black-topped stack at (0,0). After
	// White places wA1 at (-5,0), Black may place at the seven "b" cells:
	// (0,1) and (1,-1) touch the stack (black) and no white top piece.
	//	r=-1      *     *     *     *     .     b     b     b
	//	r= 0   *    wG2   wS2   wS1    wQ  bB1:2  bG1    bQ    b
	//	r= 1      *     *     *     *     .     b     b     b
	g := game(t, "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 -wQ;bB1 bG1\;wS2 -wS1;bB1 wG1\;wG2 -wS2;bB1 wG1`)
	expectMoves(t, g, "wA1", hx{-2, 1}, hx{-1, -1}, hx{-3, 1}, hx{-2, -1}, hx{-4, 1}, hx{-3, -1}, hx{-5, 1}, hx{-5, 0}, hx{-4, -1})
	expectRuleError(t, g, parseMove(t, g, `wA1 \wG1`), "You can't place a piece touching your opponent's pieces.")
	playChecked(t, g, "wA1 -wG2")
	expectMoves(t, g, "bS1", hx{0, 1}, hx{1, -1}, hx{1, 1}, hx{2, -1}, hx{3, 0}, hx{2, 1}, hx{3, -1})
}

// TestRulesQueenPlacement: no Queen on a player's first turn, the Queen by
// the fourth, and no piece moves before its owner's Queen is in play.
func TestRulesQueenPlacement(t *testing.T) {
	// Three pieces each in a row, White to play its fourth turn: only the
	// Queen, on any of the seven cells touching white and not black.
	//	r=-1      *     *     *     .
	//	r= 0   *    wG1   wA1   wS1   bS1   bA1   bG1
	//	r= 1      *     *     *     .
	g := game(t, "Base", `wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wG1 -wA1;bG1 bA1-`)
	expectMoveSet(t, g, placements(t, []string{"wQ"}, []hx{{-1, 1}, {0, -1}, {-2, 1}, {-1, -1}, {-3, 1}, {-3, 0}, {-2, -1}}))
	expectRuleError(t, g, parseMove(t, g, `wS2 -wG1`), "You must play your Queen Bee on or before your fourth turn.")

	// Black likewise, east of its pieces.
	playChecked(t, g, "wQ -wG1")
	expectMoveSet(t, g, placements(t, []string{"bQ"}, []hx{{1, 1}, {2, -1}, {2, 1}, {3, -1}, {4, 0}, {3, 1}, {4, -1}}))
	expectRuleError(t, g, parseMove(t, g, `bS2 bG1-`), "You must play your Queen Bee on or before your fourth turn.")

	// Third turn, no Queen yet: every move is a placement.
	g = game(t, "Base", `wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-`)
	for _, m := range generate(g) {
		if !g.InHand(m.Piece()) {
			t.Errorf("%s moves a piece before White's Queen is in play", describeMove(g, m))
		}
	}
	expectRuleError(t, g, parseMove(t, g, `wA1 \wS1`), "You can't move a piece in play until you've played your Queen Bee.")
}

// TestRulesPillbugThrows: the Pillbug lifts an adjacent piece of either
// colour onto itself and sets it on an empty cell next to itself, except a
// piece the opponent just moved, a piece whose removal splits the hive, and
// a piece in a stack. Black pieces thrown by White are White's moves.
func TestRulesPillbugThrows(t *testing.T) {
	base := `wG1;bG1 wG1-;wP \wG1;bQ bG1-;wQ -wG1;bA1 bG1/;wP wG1/`

	// wP(1,-1) touches bA1(2,-1), bG1(1,0) and wG1(0,0). bA1 and bG1 hold
	// nothing to the hive alone (bG1 bQ bA1 wP form a loop), so either may
	// be thrown to the empty neighbours of wP: (0,-1) (1,-2) (2,-2). wG1
	// alone holds wQ to the hive: it can be neither thrown nor moved. wP
	// itself slides to (0,-1) or (2,-2); (1,-2) would lose contact.
	//	r=-2         *     *
	//	r=-1      *     wP   bA1
	//	r= 0   wQ   wG1   bG1    bQ   bS1
	t.Run("either colour", func(t *testing.T) {
		g := game(t, "Base+P", base+`;bS1 bQ-`)
		expectMoves(t, g, "bG1", hx{0, -1}, hx{1, -2}, hx{2, -2})
		expectMoves(t, g, "bA1", hx{0, -1}, hx{1, -2}, hx{2, -2})
		expectNoMoves(t, g, "wG1")
		expectNoMoves(t, g, "bQ")
		expectNoMoves(t, g, "bS1")
		expectMoves(t, g, "wP", hx{0, -1}, hx{2, -2})
		expectMoves(t, g, "wQ", hx{0, -1}, hx{-1, 1})
	})

	// Black's last move took bA1 to (2,-2), next to wP: it may not be
	// thrown now. Two plies later (White moves wQ, Black places bS1) it
	// may, to (2,-1), (0,-1) or (1,-2).
	//	r=-2         .    bA1
	//	r=-1      .     wP    .
	//	r= 0   wQ   wG1   bG1    bQ
	t.Run("last moved", func(t *testing.T) {
		g := game(t, "Base+P", base+`;bA1 wP/`)
		expectNoMoves(t, g, "bA1")
		g = game(t, "Base+P", base+`;bA1 wP/;wQ /wG1;bS1 bQ-`)
		expectMoves(t, g, "bA1", hx{2, -1}, hx{0, -1}, hx{1, -2})
	})

	// bB1 climbed onto bA1(2,-1): neither the Beetle on top nor the Ant
	// under it can be thrown. bG1 still can, to the same three cells (the
	// stack is 2 high but wG1 on the other flank is 1).
	//	r=-2                           *     *
	//	r=-1                        *     wP  bB1:2
	//	r= 0  wG2   wS2   wS1    wQ   wG1   bG1    bQ   bS1
	t.Run("stack", func(t *testing.T) {
		g := game(t, "Base+P", base+`;bB1 bQ-;wS1 -wQ;bB1 bQ;wS2 -wS1;bB1 bA1;wG2 -wS2;bS1 bQ-`)
		expectNoMoves(t, g, "bB1")
		expectNoMoves(t, g, "bA1")
		expectMoves(t, g, "bG1", hx{0, -1}, hx{1, -2}, hx{2, -2})
	})

	// wB1 sits on wP(0,0): a covered Pillbug throws nothing. wQ(-1,0) keeps
	// its own slides to (-2,1) and (0,-1) but would otherwise also be thrown
	// to (0,1) and (1,-1); wP cannot move at all.
	//	r=-1         *     .
	//	r= 0      wQ  wB1:2  bG1    bQ   bA1   bS1   bS2
	//	r= 1   *    wS1    .
	t.Run("covered", func(t *testing.T) {
		g := game(t, "Base+P", `wP;bG1 wP-;wQ -wP;bQ bG1-;wS1 /wP;bA1 bQ-;wB1 \wP;bS1 bA1-;wB1 wP;bS2 bS1-`)
		expectMoves(t, g, "wQ", hx{-2, 1}, hx{0, -1})
		expectNoMoves(t, g, "wP")
	})
}

// TestRulesPillbugGates: a throw passes over the Pillbug, so it is blocked
// by two flanking stacks of height 2 or more, lifting up or setting down; a
// pinned Pillbug still throws.
func TestRulesPillbugGates(t *testing.T) {
	// wP(0,0) between two beetle stacks, wB1 on wG1 at (1,-1) and wB2 on
	// wG2 at (0,1), whose common neighbours are wP and (1,0).
	moves := `wP;bG1 -wP;wQ wP-;bQ /bG1;wG1 wP/;bA1 bQ\;wG2 wP\;bA1 /wP;` +
		`wB1 wG1-;bS1 -bQ;wB2 wQ\;bS2 -bS1;wB1 wG1;bB1 -bS2;wB2 wG2;bB2 -bB1`

	// Up: wQ at (1,0) cannot be lifted between the stacks; it keeps its own
	// slides (1,1) and (2,-1). bA1(-1,1) (flanks wB2 2 high, bG1 1) and
	// bG1(-1,0) (flanks bA1, empty) may be thrown to the only empty
	// neighbour (0,-1) of wP, whose flanks are bG1 (1) and wB1 (2). wP is
	// no articulation point but has no slide: (0,-1) is a gate for it.
	//	r=-1               *   wB1:2
	//	r= 0           bG1    wP    wQ
	//	r= 1  bS1    bQ   bA1  wB2:2
	t.Run("up", func(t *testing.T) {
		g := game(t, "Base+P", moves)
		expectMoves(t, g, "wQ", hx{1, 1}, hx{2, -1})
		expectMoves(t, g, "bA1", hx{0, -1})
		expectMoves(t, g, "bG1", hx{0, -1})
		expectNoMoves(t, g, "wP")
	})

	// Down: wQ walked away to (2,-1). Setting a piece down on the empty
	// (1,0) between the stacks is blocked, so bA1 and bG1 still go only to
	// (0,-1). wP is now pinned ({wB1, wQ} hang on it) and throws all the
	// same.
	//	r=-1               *   wB1:2   wQ
	//	r= 0           bG1    wP    .
	//	r= 1  bS1    bQ   bA1  wB2:2
	t.Run("down", func(t *testing.T) {
		g := game(t, "Base+P", moves+`;wQ wB1-;bG2 -bB2`)
		expectMoves(t, g, "bA1", hx{0, -1})
		expectMoves(t, g, "bG1", hx{0, -1})
		expectNoMoves(t, g, "wP")
		expectIllegal(t, g, core.MakeMove(pieceNamed(t, "bA1"), hx{1, 0}.cell()))
	})
}

// TestRulesThrownPiece: a piece thrown by the Pillbug may not move on its
// owner's next turn, and a thrown Pillbug may not use its ability either.
func TestRulesThrownPiece(t *testing.T) {
	// White's wP threw bA1 from (2,-1) to (2,-2). On Black's turn bA1, a
	// free leaf of the hive, may not move.
	//	r=-2              bA1
	//	r=-1            wP
	//	r= 0   wQ   wG1   bG1    bQ   bS1
	t.Run("thrown ant", func(t *testing.T) {
		g := game(t, "Base+P", `wG1;bG1 wG1-;wP \wG1;bQ bG1-;wQ -wG1;bA1 bG1/;wP wG1/;bS1 bQ-;bA1 wP/`)
		expectNoMoves(t, g, "bA1")
		expectRuleError(t, g, core.MakeMove(pieceNamed(t, "bA1"), hx{3, -1}.cell()),
			"You can't move that piece because it was moved on the last turn.")
	})

	// White's wP threw bP from (1,0) to (0,-1). On Black's turn bP touches
	// wP and wQ, neither an articulation point (bQ(0,1) touches wP and
	// wA1), but it may neither move nor throw them.
	//	r=-1         bP
	//	r= 0      wQ    wP
	//	r= 1  wG1   wA1    bQ
	thrown := `wP;bP wP-;wQ -wP;bQ bP-;wA1 /wP;bQ bP\;wG1 -wA1;bQ wP\;bP \wP`
	t.Run("thrown pillbug", func(t *testing.T) {
		g := game(t, "Base+P", thrown)
		expectNoMoves(t, g, "bP")
		expectNoMoves(t, g, "wQ")
		expectNoMoves(t, g, "wP")
		expectRuleError(t, g, core.MakeMove(pieceNamed(t, "bP"), hx{1, -1}.cell()),
			"You can't move that piece because it was moved on the last turn.")
	})

	// Control: two plies later (bQ to (1,0), White places wS1) bP throws
	// wQ to its empty neighbours (1,-1) (-1,-1) (0,-2) (1,-2). wP now holds
	// bQ to the hive and cannot be thrown.
	//	r=-2            *     *
	//	r=-1         *     bP    *
	//	r= 0            wQ    wP    bQ
	//	r= 1  wS1   wG1   wA1
	t.Run("a turn later", func(t *testing.T) {
		g := game(t, "Base+P", thrown+`;bQ wP-;wS1 -wG1`)
		expectMoves(t, g, "wQ", hx{1, -1}, hx{-1, -1}, hx{0, -2}, hx{1, -2})
		expectNoMoves(t, g, "wP")
	})
}

// TestRulesMosquitoThrows: a Mosquito on the ground touching a Pillbug of
// either colour throws like one; on top of a stack it moves as a Beetle
// and throws nothing.
func TestRulesMosquitoThrows(t *testing.T) {
	// wM(-1,0) touches wP(0,0) and wQ(-2,0). wM holds wQ to the hive, yet
	// throws it to its empty neighbours (-1,1) (-2,1) (-1,-1) (0,-1). wQ's
	// own slides (-1,-1) and (-2,1) are among them and listed once.
	//	r=-1      *     *
	//	r= 0   wQ    wM    wP   bG1    bQ   bA1
	//	r= 1      *     *
	t.Run("line", func(t *testing.T) {
		g := game(t, "Base+MP", `wP;bG1 wP-;wM -wP;bQ bG1-;wQ -wM;bA1 bQ-`)
		expectMoves(t, g, "wQ", hx{-1, 1}, hx{-2, 1}, hx{-1, -1}, hx{0, -1})
		expectNoMoves(t, g, "wM")
	})

	// wM(0,0) touches Black's bP(1,0): it throws wQ(-1,0) to (0,1), (0,-1)
	// or (1,-1), besides wQ's own slides (-2,1) and (0,-1).
	//	r=-1         *     *
	//	r= 0      wQ    wM    bP    bQ   bA1
	//	r= 1   *    wA1    *
	t.Run("black pillbug", func(t *testing.T) {
		g := game(t, "Base+MP", `wM;bP wM-;wQ -wM;bQ bP-;wA1 /wM;bA1 bQ-`)
		expectMoves(t, g, "wQ", hx{-2, 1}, hx{0, -1}, hx{0, 1}, hx{1, -1})
	})

	// Ground: wM(-1,0) touches wP, wB1(0,-1) and wQ(-1,-1). wQ slides to
	// (-2,0) or (0,-2) and is thrown by wM to (-1,1), (-2,1) or (-2,0); wP
	// does not touch it.
	//	r=-2         *
	//	r=-1      wQ   wB1
	//	r= 0   *     wM    wP   bG1
	//	r= 1      *     *
	ground := `wP;bG1 wP-;wB1 \wP;bQ bG1-;wQ -wB1;bA1 bQ-;wM -wP;bS1 bA1-`
	t.Run("ground", func(t *testing.T) {
		g := game(t, "Base+MP", ground)
		expectMoves(t, g, "wQ", hx{-2, 0}, hx{0, -2}, hx{-1, 1}, hx{-2, 1})
	})

	// On top: wM climbed onto wB1(0,-1), still next to wP. wQ(-1,-1) is a
	// free leaf next to it, yet keeps only its own slides (-1,0) and
	// (0,-2); a throw would add (1,-1) and (1,-2). wM moves as a Beetle to
	// all six neighbours.
	//	r=-2      *     .
	//	r=-1   wQ   wM:2   .
	//	r= 0      *     wP   bG1
	t.Run("on top", func(t *testing.T) {
		g := game(t, "Base+MP", ground+`;wM wB1;bS2 bS1-`)
		expectMoves(t, g, "wQ", hx{-1, 0}, hx{0, -2})
		expectMoves(t, g, "wM", hx{1, -1}, hx{0, 0}, hx{-1, 0}, hx{-1, -1}, hx{0, -2}, hx{1, -2})
	})
}

// expectOver checks a finished game: its result, no moves, and RuleBroken's
// refusal of any move or pass.
func expectOver(t testing.TB, g *core.Game, want core.Result, someMove core.Move) {
	t.Helper()
	if g.Result() != want || !g.Over() {
		t.Errorf("result %d (over %v), want %d\n%s", g.Result(), g.Over(), want, dump(g))
	}
	if moves := generate(g); len(moves) != 0 {
		t.Errorf("a finished game lists %d moves, want none", len(moves))
	}
	expectRuleError(t, g, someMove, "You can't play, the game is over.")
	expectRuleError(t, g, core.Pass, "You can't pass, the game is over.")
}

// TestRulesQueenSurrounded: White's Queen with all six neighbours occupied
// (by pieces of either colour) loses the game.
func TestRulesQueenSurrounded(t *testing.T) {
	// White fills five neighbours of wQ(-1,0) itself; bA3 runs along the top
	// of the hive to the sixth, (0,-1).
	//	r=-1     wB2   bA3
	//	r= 0  wB1    wQ   wG1   bG1    bQ   bA1   bA2
	//	r= 1     wS2   wS1
	before := `wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 /wG1;bA1 bQ-;wS2 -wS1;bA2 bA1-;wB1 -wQ;bA3 bA2-;wB2 \wQ`
	g := game(t, "Base", before)
	if g.Over() {
		t.Fatalf("game over before the Queen is surrounded\n%s", dump(g))
	}
	playChecked(t, g, `bA3 \wG1`)
	expectOver(t, g, core.BlackWins, parseMove(t, g, "wB1 wQ"))
	if s := uhp.StateOf(g); s != uhp.BlackWins {
		t.Errorf("state %v, want BlackWins", s)
	}
	g.Undo()
	if g.Over() || len(generate(g)) == 0 {
		t.Errorf("Undo did not reopen the game\n%s", dump(g))
	}

	// White may fill the sixth cell itself: placing wA1 at (0,-1), which
	// touches no black piece, surrounds its own Queen and loses.
	g = game(t, "Base", before+`;bS1 bA3-`)
	playChecked(t, g, `wA1 \wG1`)
	expectOver(t, g, core.BlackWins, parseMove(t, g, "bA3 bS1-"))
}

// TestRulesBothQueensSurrounded: one move that surrounds both Queens draws.
func TestRulesBothQueensSurrounded(t *testing.T) {
	// wQ(0,-1) and bQ(2,-1) each miss only their common neighbour (1,-1),
	// a hole no slider could enter; wG2(-2,-1) jumps into it over wS2 and
	// wQ.
	//	r=-2           wA1   wA2   bA2   bA1
	//	r=-1  wG2   wS2    wQ    *     bQ   bS1
	//	r= 0           wS1   wG1   bG1   bS2
	g := game(t, "Base", `wG1;bG1 wG1-;wQ \wG1;bQ bG1/;wS1 -wG1;bS1 bQ-;wS2 -wQ;bS2 bG1-;`+
		`wA1 \wQ;bA1 bQ/;wA2 wQ/;bA2 bA1-;wG2 -wS2;bA2 \bQ`)
	if g.Over() {
		t.Fatalf("game over too early\n%s", dump(g))
	}
	playChecked(t, g, "wG2 wQ-")
	expectOver(t, g, core.Draw, parseMove(t, g, "bA2 bQ"))
}

// TestRulesPass: a player passes only when nothing else is legal.
func TestRulesPass(t *testing.T) {
	// Ordinary position: pass is refused.
	g := game(t, "Base", `wG1;bG1 wG1-;wQ -wG1;bQ bG1-`)
	expectRuleError(t, g, core.Pass, "You can't pass when you have valid moves.")

	// White's Queen shuffles between (-1,0) and (-1,1) while Black's ants
	// close in. At the end wS1(0,0) alone holds bG1 bQ bA1 bA2 to the hive
	// and wQ(-1,1) alone holds bA3: both are pinned. Every empty cell next
	// to a white piece, (0,1) (-1,0) (-1,2) (-2,1), touches a black piece,
	// so White cannot place either: its only move is to pass.
	//	r=-1        bA2   bA1
	//	r= 0      .    wS1   bG1    bQ
	//	r= 1   .     wQ    .
	//	r= 2     bA3    .
	g = game(t, "Base", `wS1;bG1 wS1-;wQ /wS1;bQ bG1-;wQ -wS1;bA1 bQ-;wQ /wS1;bA2 bQ/;wQ -wS1;bA3 bQ\;`+
		`wQ /wS1;bA1 wS1/;wQ -wS1;bA2 \wS1;wQ /wS1;bA3 /wQ`)
	expectMoveSet(t, g, []core.Move{core.Pass})
	if err := g.RuleBroken(core.Pass); err != nil {
		t.Errorf("RuleBroken(pass) = %v, want nil", err)
	}
	expectRuleError(t, g, parseMove(t, g, "wQ -wS1"), "You can't move that piece because it will break the hive.")
	expectRuleError(t, g, parseMove(t, g, "wB1 wS1\\"), "You can't place a piece touching your opponent's pieces.")
	h := g.Hash()
	g.Play(core.Pass)
	if g.ToMove() != core.Black || g.Over() || g.Hash() == h {
		t.Errorf("after the pass: %s to move, over %v, hash changed %v", g.ToMove(), g.Over(), g.Hash() != h)
	}
	expectRuleError(t, g, core.Pass, "You can't pass when you have valid moves.")
	g.Undo()
	if g.Hash() != h || g.ToMove() != core.White {
		t.Errorf("undoing the pass did not restore the position")
	}
}

// TestRulesRepetition: the third occurrence of a position, same side to
// move, draws when the repetition rule is on (the default), and not when
// it is off.
func TestRulesRepetition(t *testing.T) {
	// wS1(0,0) bG1(1,0) wQ(-1,1) bQ(2,0), White to move, occurs after move
	// 4, 8 and 12: the Queens shuffle to (-1,0) and (2,-1) and back.
	start := `wS1;bG1 wS1-;wQ /wS1;bQ bG1-`
	cycle := `;wQ -wS1;bQ bG1/;wQ /wS1;bQ bG1-`
	twice := start + cycle
	thrice := twice + cycle

	g := game(t, "Base", twice)
	if g.Over() {
		t.Errorf("second occurrence ends the game\n%s", dump(g))
	}
	g = game(t, "Base", thrice[:strings.LastIndex(thrice, ";")])
	if g.Over() {
		t.Errorf("game over one move before the third occurrence\n%s", dump(g))
	}
	g = game(t, "Base", thrice)
	expectOver(t, g, core.Draw, parseMove(t, g, "wQ -wS1"))

	g = game(t, "Base", thrice, core.RepetitionDraw(true))
	if g.Result() != core.Draw {
		t.Errorf("RepetitionDraw(true): result %d, want Draw", g.Result())
	}
	g = game(t, "Base", thrice, core.RepetitionDraw(false))
	if g.Result() != core.InProgress {
		t.Errorf("RepetitionDraw(false): result %d, want InProgress", g.Result())
	}
	expectLegal(t, g, "wQ -wS1")
}

// TestRulesRepetitionLastMovedIgnored: a position counts as repeated
// whichever piece moved last, even with a Pillbug in play, where that piece
// may not move on the next turn. The three occurrences below differ only by
// it: bA1 just placed, bQ just moved back, bA1 just moved back.
func TestRulesRepetitionLastMovedIgnored(t *testing.T) {
	//	r=-1           .     bA1   (bQ or bA1 visit (3,-1) and come back)
	//	r= 0    wQ   wS1   bG1    bQ
	//	r= 1  (wQ)
	// wQ shuffles between (-1,0) and (-1,1); Black answers with bQ the
	// first time round and with bA1 the second.
	start := `wS1;bG1 wS1-;wQ /wS1;bQ bG1-;wQ -wS1;bA1 bG1/`
	byQueen := `;wQ /wS1;bQ bA1-;wQ -wS1;bQ bG1-`
	byAnt := `;wQ /wS1;bA1 bQ/;wQ -wS1;bA1 bG1/`
	for _, gt := range gameTypes {
		first := game(t, gt.name, start)
		second := game(t, gt.name, start+byQueen)
		if first.LastMoved() == second.LastMoved() {
			t.Fatalf("%s: the occurrences were meant to differ by the piece moved last", gt.name)
		}
		if first.PositionKey() != second.PositionKey() {
			t.Errorf("%s: the same board with the same side to move has keys %#x and %#x\n%s\n%s",
				gt.name, first.PositionKey(), second.PositionKey(), dump(first), dump(second))
		}
		if second.Over() {
			t.Errorf("%s: second occurrence ends the game\n%s", gt.name, dump(second))
		}
		thrice := start + byQueen + byAnt
		g := game(t, gt.name, thrice[:strings.LastIndex(thrice, ";")])
		if g.Over() {
			t.Errorf("%s: game over one move before the third occurrence\n%s", gt.name, dump(g))
		}
		g = game(t, gt.name, thrice)
		expectOver(t, g, core.Draw, parseMove(t, g, "wQ /wS1"))
		g = game(t, gt.name, thrice, core.RepetitionDraw(false))
		if g.Result() != core.InProgress {
			t.Errorf("%s RepetitionDraw(false): result %d, want InProgress", gt.name, g.Result())
		}
	}
	// The search's key keeps the difference where it changes the moves:
	// with a Pillbug in play, not without.
	for _, gt := range []struct {
		name     string
		distinct bool
	}{{"Base", false}, {"Base+M", false}, {"Base+P", true}, {"Base+MLP", true}} {
		a, b := game(t, gt.name, start), game(t, gt.name, start+byQueen)
		if (a.Hash() != b.Hash()) != gt.distinct {
			t.Errorf("%s: Hash %#x and %#x; want them distinct %v", gt.name, a.Hash(), b.Hash(), gt.distinct)
		}
	}
}

// TestRulesRepetitionNumbersIgnored: two pieces of one bug that trade cells
// leave the same position. Each side's Ants trade cells in three moves
// (one steps aside, the other takes its cell, the first takes the other's),
// so after six plies the board is the same but for the numbers, and after
// twelve it is the start again: the third occurrence, counting the middle.
func TestRulesRepetitionNumbersIgnored(t *testing.T) {
	//	r=-1           .                   bQ   bA2
	//	r= 0     wA1  wS1   bS1   bA1
	//	r= 1  wA2  wQ
	start := `wS1;bS1 wS1-;wQ /wS1;bQ bS1/;wA1 -wS1;bA1 bS1-;wA2 -wQ;bA2 bQ-`
	trade := func(w1, w2, b1, b2 string) string {
		return fmt.Sprintf(`;%[1]s \wS1;%[3]s bS1\;%[2]s -wS1;%[4]s bS1-;%[1]s -wQ;%[3]s bQ-`, w1, w2, b1, b2)
	}
	once := start + trade("wA1", "wA2", "bA1", "bA2")
	twice := once + trade("wA2", "wA1", "bA2", "bA1")
	for _, gt := range gameTypes {
		a, b := game(t, gt.name, start), game(t, gt.name, once)
		if a.Position(pieceNamed(t, "wA1")) != b.Position(pieceNamed(t, "wA2")) ||
			a.Position(pieceNamed(t, "bA1")) != b.Position(pieceNamed(t, "bA2")) {
			t.Fatalf("%s: the Ants did not trade cells\n%s\n%s", gt.name, dump(a), dump(b))
		}
		if a.PositionKey() != b.PositionKey() || a.Hash() != b.Hash() {
			t.Errorf("%s: traded Ants change the keys: %#x/%#x, hash %#x/%#x\n%s\n%s",
				gt.name, a.PositionKey(), b.PositionKey(), a.Hash(), b.Hash(), dump(a), dump(b))
		}
		if b.Over() {
			t.Errorf("%s: second occurrence ends the game\n%s", gt.name, dump(b))
		}
		g := game(t, gt.name, twice[:strings.LastIndex(twice, ";")])
		if g.Over() {
			t.Errorf("%s: game over one move before the third occurrence\n%s", gt.name, dump(g))
		}
		g = game(t, gt.name, twice)
		expectOver(t, g, core.Draw, parseMove(t, g, "wA1 \\wS1"))
	}
}

// TestRulesTransposition: one position reached by two move orders has one
// hash and one set of moves.
func TestRulesTransposition(t *testing.T) {
	pairs := [][2]string{
		// Placements in two orders, the same piece placed last.
		{`wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wG1 \wS1;bG1 bA1-`, `wS1;bS1 wS1-;wG1 \wS1;bA1 bS1-;wA1 -wS1;bG1 bA1-`},
		// White's two moves in either order, Black's the same.
		{`wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 /wG1;bA1 bQ-;wA1 wG1\;bA1 bQ/;wQ \wG1;bA1 bG1/`,
			`wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 /wG1;bA1 bQ-;wQ \wG1;bA1 bQ/;wA1 wG1\;bA1 bG1/`},
	}
	for _, gt := range gameTypes {
		for i, p := range pairs {
			a, b := game(t, gt.name, p[0]), game(t, gt.name, p[1])
			if a.Hash() != b.Hash() {
				t.Errorf("%s pair %d: hashes %#x and %#x differ\n%s\n%s", gt.name, i, a.Hash(), b.Hash(), dump(a), dump(b))
			}
			ma, mb := generate(a), generate(b)
			slices.Sort(ma)
			slices.Sort(mb)
			if !slices.Equal(ma, mb) {
				t.Errorf("%s pair %d: the two move orders give different moves", gt.name, i)
			}
		}
	}
	// And a different position (Black's last ant elsewhere) hashes apart.
	a := game(t, "Base", `wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wG1 \wS1;bG1 bA1-`)
	b := game(t, "Base", `wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wG1 \wS1;bG1 bA1/`)
	if a.Hash() == b.Hash() {
		t.Errorf("different positions share hash %#x", a.Hash())
	}
}

// snapshot is what a position must look like again after Undo.
type snapshot struct {
	hash   uint64
	moves  []core.Move
	result core.Result
	toMove core.Color
	ply    int
	last   core.Piece
}

func takeSnapshot(g *core.Game) snapshot {
	moves := generate(g)
	slices.Sort(moves)
	return snapshot{g.Hash(), moves, g.Result(), g.ToMove(), g.Ply(), g.LastMoved()}
}

// TestRulesPlayUndoRandom plays random games of every game type to 150
// plies, checks every position's move list (no duplicates, a lone Pass or
// none, nothing once the game is over), then undoes every move and checks
// that each position comes back with its hash, moves and result.
func TestRulesPlayUndoRandom(t *testing.T) {
	const plies = 150
	games := 20
	if testing.Short() {
		games = 4
	}
	for _, gt := range gameTypes {
		for seed := range games {
			rng := rand.New(rand.NewPCG(uint64(gt.typ)+1, uint64(seed)))
			g := core.NewGame(gt.typ)
			var snaps []snapshot
			for {
				s := takeSnapshot(g)
				snaps = append(snaps, s)
				for i := 1; i < len(s.moves); i++ {
					if s.moves[i] == s.moves[i-1] {
						t.Fatalf("%s seed %d ply %d: move %s listed twice\n%s", gt.name, seed, g.Ply(), describeMove(g, s.moves[i]), dump(g))
					}
				}
				if slices.Contains(s.moves, core.Pass) && len(s.moves) != 1 {
					t.Fatalf("%s seed %d ply %d: pass listed with other moves\n%s", gt.name, seed, g.Ply(), dump(g))
				}
				if g.Over() {
					if len(s.moves) != 0 {
						t.Fatalf("%s seed %d: finished game lists moves", gt.name, seed)
					}
					break
				}
				if len(s.moves) == 0 {
					t.Fatalf("%s seed %d ply %d: no moves, not even a pass\n%s", gt.name, seed, g.Ply(), dump(g))
				}
				if g.Ply() == plies {
					break
				}
				m := s.moves[rng.IntN(len(s.moves))]
				if err := g.RuleBroken(m); err != nil {
					t.Fatalf("%s seed %d: RuleBroken(%s) = %v for a generated move", gt.name, seed, describeMove(g, m), err)
				}
				g.Play(m)
			}
			for i := len(snaps) - 1; i >= 0; i-- {
				got := takeSnapshot(g)
				want := snaps[i]
				if got.hash != want.hash || got.result != want.result || got.toMove != want.toMove ||
					got.ply != want.ply || got.last != want.last || !slices.Equal(got.moves, want.moves) {
					t.Fatalf("%s seed %d: position at ply %d differs after undo (hash %#x/%#x, result %d/%d, %d/%d moves)\n%s",
						gt.name, seed, want.ply, got.hash, want.hash, got.result, want.result, len(got.moves), len(want.moves), dump(g))
				}
				if i > 0 {
					g.Undo()
				}
			}
			if g.MovesPlayed() != 0 || g.Hash() != core.NewGame(gt.typ).Hash() {
				t.Errorf("%s seed %d: not back at the start", gt.name, seed)
			}
		}
	}
}

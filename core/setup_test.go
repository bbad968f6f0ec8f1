package core_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// stacksOf reads stacks written "q,r:bottom/.../top;q,r:...", the Hub
// board= notation, with UHP piece names.
func stacksOf(t testing.TB, s string) []core.Stack {
	t.Helper()
	var out []core.Stack
	if s == "" {
		return nil
	}
	for _, part := range strings.Split(s, ";") {
		cell, pieces, ok := strings.Cut(part, ":")
		qs, rs, ok2 := strings.Cut(cell, ",")
		q, err1 := strconv.Atoi(qs)
		r, err2 := strconv.Atoi(rs)
		if !ok || !ok2 || err1 != nil || err2 != nil {
			t.Fatalf("bad stack %q", part)
		}
		st := core.Stack{Q: q, R: r}
		if pieces != "" {
			for _, name := range strings.Split(pieces, "/") {
				st.Pieces = append(st.Pieces, pieceNamed(t, name))
			}
		}
		out = append(out, st)
	}
	return out
}

// position builds a Position from its parts in notation.
func position(t testing.TB, typ core.GameType, stacks string, toMove core.Color, turn int, last string) core.Position {
	t.Helper()
	p := core.Position{Type: typ, Stacks: stacksOf(t, stacks), ToMove: toMove, Turn: turn, LastMoved: core.NoPiece}
	if last != "" {
		p.LastMoved = pieceNamed(t, last)
	}
	return p
}

// sortedMoves returns the legal moves of g, sorted.
func sortedMoves(g *core.Game) []core.Move {
	m := generate(g)
	slices.Sort(m)
	return m
}

// sortedOwnMoves returns the moves of GenerateOwnMoves, sorted.
func sortedOwnMoves(g *core.Game) []core.Move {
	var l core.MoveList
	g.GenerateOwnMoves(&l)
	m := slices.Clone(l.Moves())
	slices.Sort(m)
	return m
}

// sortedThrows returns the throws of g, sorted.
func sortedThrows(g *core.Game) []core.Throw {
	th := g.Throws(nil)
	slices.SortFunc(th, func(a, b core.Throw) int {
		if a.User != b.User {
			return int(a.User) - int(b.User)
		}
		if a.Piece != b.Piece {
			return int(a.Piece) - int(b.Piece)
		}
		return int(a.To) - int(b.To)
	})
	return th
}

// TestSetUpMatchesPlay sets up, with NewGameAt, the position of every few
// plies of seeded random games of all eight game types, as CurrentPosition
// describes it, and checks that the set-up game is the played one in
// everything the rules look at: the hash, the side to move and ply, the
// piece moved last, the result, every legal move (and the throws and own
// moves apart), the mobility classes, and perft to depth 2 everywhere and
// to depth 3 on every tenth position, and also every position just after
// a throw of a piece of the side to move. It also checks that the description
// comes back unchanged from the set-up game. Repetition draws are off in
// both games: the played one remembers positions before the set-up one's
// start.
func TestSetUpMatchesPlay(t *testing.T) {
	games, every := 4, 6
	if testing.Short() || raceDetector {
		games, every = 2, 9
	}
	positions, deep, thrown, stacked, over := 0, 0, 0, 0, 0
	for _, gt := range gameTypes {
		for seed := range games {
			rng := rand.New(rand.NewPCG(uint64(gt.typ)+100, uint64(seed)))
			g := core.NewGame(gt.typ, core.RepetitionDraw(false))
			var l core.MoveList
			for g.Ply() <= 120 {
				last := g.LastMoved()
				justThrown := last != core.NoPiece && last.Color() == g.ToMove()
				if g.Ply()%every == 0 || g.Over() || justThrown {
					depth := 2
					if positions%10 == 0 {
						depth = 3
						deep++
					}
					positions++
					compareSetUp(t, gt.name, g, depth)
					if justThrown {
						thrown++
					}
					if _, _, covered := g.Mobility(); covered != 0 {
						stacked++
					}
					if g.Over() {
						over++
					}
				}
				if g.Over() {
					break
				}
				g.GenerateMoves(&l)
				g.Play(l.At(rng.IntN(l.Len())))
			}
		}
	}
	t.Logf("%d positions compared, %d of them to perft 3; %d just after a throw of the side to move's piece, %d with stacks, %d finished",
		positions, deep, thrown, stacked, over)
	if !testing.Short() && !raceDetector && (thrown == 0 || stacked == 0 || over == 0) {
		t.Errorf("the random games did not reach every kind of position")
	}
}

// compareSetUp checks that g set up from its current position is g.
func compareSetUp(t *testing.T, name string, g *core.Game, depth int) {
	t.Helper()
	pos := g.CurrentPosition()
	s, err := core.NewGameAt(pos, core.RepetitionDraw(false))
	if err != nil {
		t.Fatalf("%s ply %d: NewGameAt of a played position: %v\n%s", name, g.Ply(), err, dump(g))
	}
	switch {
	case !s.SetUp() && len(pos.Stacks) > 0:
		t.Fatalf("%s ply %d: SetUp() is false", name, g.Ply())
	case s.MovesPlayed() != 0:
		t.Fatalf("%s ply %d: a set-up game has %d moves of history", name, g.Ply(), s.MovesPlayed())
	case s.Hash() != g.Hash():
		t.Fatalf("%s ply %d: hash %#x, played %#x\n%s", name, g.Ply(), s.Hash(), g.Hash(), dump(g))
	case s.Ply() != g.Ply() || s.ToMove() != g.ToMove() || s.TurnNumber() != g.TurnNumber():
		t.Fatalf("%s ply %d: set up at ply %d, %s to move", name, g.Ply(), s.Ply(), s.ToMove())
	case s.LastMoved() != g.LastMoved() || s.Result() != g.Result():
		t.Fatalf("%s ply %d: last moved %v result %v, played %v %v", name, g.Ply(), s.LastMoved(), s.Result(), g.LastMoved(), g.Result())
	}
	if back := s.CurrentPosition(); !reflect.DeepEqual(back, pos) {
		t.Fatalf("%s ply %d: CurrentPosition of the set-up game\n%+v\nwant\n%+v", name, g.Ply(), back, pos)
	}
	if !reflect.DeepEqual(s.StartPosition(), pos) {
		t.Fatalf("%s ply %d: StartPosition differs from the position set up", name, g.Ply())
	}
	if !slices.Equal(sortedMoves(s), sortedMoves(g)) || !slices.Equal(sortedOwnMoves(s), sortedOwnMoves(g)) ||
		!slices.Equal(sortedThrows(s), sortedThrows(g)) {
		t.Fatalf("%s ply %d: the move lists differ\n%s", name, g.Ply(), dump(g))
	}
	for p := core.Piece(0); p < core.NumPieces; p++ {
		if s.Position(p) != g.Position(p) || s.Level(p) != g.Level(p) {
			t.Fatalf("%s ply %d: %s stands elsewhere", name, g.Ply(), p)
		}
	}
	sm, sp, sc := s.Mobility()
	gm, gp, gc := g.Mobility()
	if sm != gm || sp != gp || sc != gc || s.Pinned() != g.Pinned() {
		t.Fatalf("%s ply %d: mobility differs", name, g.Ply())
	}
	if a, b := s.Perft(depth), g.Perft(depth); a != b {
		t.Fatalf("%s ply %d: perft %d = %d set up, %d played\n%s", name, g.Ply(), depth, a, b, dump(g))
	}
}

// TestSetUpTranslated sets positions of random games up again moved across
// the board (so at other cells, with other hashes), and checks that the
// moves are the same moves moved across, and perft 2 the same count.
func TestSetUpTranslated(t *testing.T) {
	for _, gt := range gameTypes {
		rng := rand.New(rand.NewPCG(uint64(gt.typ)+200, 1))
		g := core.NewGame(gt.typ, core.RepetitionDraw(false))
		var l core.MoveList
		for g.Ply() < 60 && !g.Over() {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
			if g.Ply()%6 != 0 {
				continue
			}
			dq, dr := rng.IntN(2001)-1000, rng.IntN(2001)-1000
			pos := g.CurrentPosition()
			for i := range pos.Stacks {
				pos.Stacks[i].Q += dq
				pos.Stacks[i].R += dr
			}
			s, err := core.NewGameAt(pos, core.RepetitionDraw(false))
			if err != nil {
				t.Fatalf("%s ply %d moved by %d,%d: %v", gt.name, g.Ply(), dq, dr, err)
			}
			want := sortedMoves(g)
			for i, m := range want {
				if m != core.Pass {
					want[i] = core.MakeMove(m.Piece(), m.To().Step(dq, dr))
				}
			}
			slices.Sort(want)
			if !slices.Equal(sortedMoves(s), want) {
				t.Fatalf("%s ply %d moved by %d,%d: the moves are not the played ones moved", gt.name, g.Ply(), dq, dr)
			}
			if a, b := s.Perft(2), g.Perft(2); a != b {
				t.Fatalf("%s ply %d moved by %d,%d: perft 2 = %d, played %d", gt.name, g.Ply(), dq, dr, a, b)
			}
			if back := s.CurrentPosition(); !reflect.DeepEqual(back, pos) {
				t.Fatalf("%s ply %d: CurrentPosition far from the origin came back as\n%+v\nwant\n%+v", gt.name, g.Ply(), back, pos)
			}
		}
	}
}

// TestSetUpErrors checks every inconsistency NewGameAt refuses, each with
// its message. The boards are sketched in axial coordinates: the six
// neighbours of q,r are q+1,r (E), q,r+1 (SE), q-1,r+1 (SW), q-1,r (W),
// q,r-1 (NW) and q+1,r-1 (NE).
func TestSetUpErrors(t *testing.T) {
	const (
		base = core.Base
		mlp  = core.AllExpansions
		w, b = core.White, core.Black
	)
	// opening: wS1 wQ on row 0, bS1 bQ east of them; White[3].
	const opening = "-1,0:wQ;0,0:wS1;1,0:bS1;2,0:bQ"
	cases := []struct {
		name string
		pos  core.Position
		want string
	}{
		{"no such game type", core.Position{Type: 8, Turn: 1}, "game type 8 does not exist"},
		{"no such colour", core.Position{ToMove: 2, Turn: 1}, "side to move 2 is neither White nor Black"},
		{"turn 0", core.Position{Turn: 0}, "turn number 0: turns count from 1"},
		{"turn too far", core.Position{Turn: 1<<20 + 1}, "turn number 1048577 is beyond any game (at most 1048576)"},
		{"coordinates", core.Position{Turn: 1, Stacks: []core.Stack{{Q: 1 << 25, Pieces: []core.Piece{0}}}},
			"the stack at 33554432,0 is beyond the board's reach (coordinates at most 16777216)"},
		{"empty stack", position(t, base, "0,0:wS1;1,0:", w, 2, ""), "the stack at 1,0 has no pieces"},
		{"no such piece", core.Position{Turn: 2, Stacks: []core.Stack{{Pieces: []core.Piece{28}}}}, "piece 28 does not exist"},
		{"expansion not in play", position(t, core.WithLadybug|core.WithPillbug, "0,0:wS1;1,0:bM", w, 2, ""),
			"bM is not in the game: its game type has no Mosquito"},
		{"a piece twice", position(t, base, "0,0:wS1;1,0:bS1;-1,0:wS1", b, 2, ""), "wS1 is on the board twice"},
		{"a piece twice in a stack", position(t, base, opening+";3,0:bB1/bB1", w, 4, ""), "bB1 is on the board twice"},
		{"numbers out of order", position(t, base, "0,0:wS1;1,0:bS2", w, 2, ""),
			"bS2 is on the board but bS1 is not: pieces of one bug are placed in number order"},
		{"two stacks on a cell", position(t, base, "0,0:wS1;1,0:bS1;1,0:bG1", w, 3, ""), "two stacks at 1,0: bS1 and bG1"},
		{"split hive", position(t, base, "0,0:wS1;1,0:bS1;3,0:bG1;-1,0:wG1", w, 3, ""),
			"the hive is split: wG1 and bG1 are not joined by a chain of pieces (One Hive)"},
		{"split hive by a corner", position(t, base, "0,0:wS1;1,1:bS1", w, 2, ""),
			"the hive is split: wS1 and bS1 are not joined by a chain of pieces (One Hive)"},
		{"queen on a spider", position(t, base, "-1,0:wS2;0,0:wS1/wQ;1,0:bS1;2,0:bQ", w, 4, ""),
			"wQ is on top of wS1, but only a Beetle, or a Mosquito moving as one, climbs onto the hive"},
		{"ladybug on top", position(t, mlp, opening+";3,0:bB1;-2,0:wL", w, 5, "bB1"), ""},
		{"ladybug on a stack", position(t, mlp, opening+";-2,0:wG1;3,0:bG1/bL", w, 5, ""),
			"bL is on top of bG1, but only a Beetle, or a Mosquito moving as one, climbs onto the hive"},
		{"mosquito climbed with no beetle", position(t, core.WithMosquito, opening+";-2,0:wG1/wM;3,0:bG1", b, 5, ""),
			"wM is on top of wG1, but a Mosquito climbs only as a Beetle it touches, and no Beetle is on the board"},
		{"mosquito climbed beside a beetle that left", position(t, core.WithMosquito, opening+";-2,0:wG1/wM;3,0:bB1", b, 5, ""), ""},
		{"beetle moved before its queen", position(t, base, "0,0:wS1/wB1;1,0:bS1;2,0:bQ", w, 3, ""),
			"wB1 is on top of wS1, but White's Queen Bee is not on the board: no piece moves before its Queen is placed"},
		{"beetles stacked", position(t, base, opening+";-2,0:wB1/bB1/wB2", w, 6, ""), ""},
		{"black beetle moved before its queen", position(t, base, "-1,0:wQ;0,0:wS1;1,0:bS1/bB1", w, 4, ""),
			"bB1 is on top of bS1, but Black's Queen Bee is not on the board: no piece moves before its Queen is placed"},
		{"queen late", position(t, base, "0,0:wS1;-1,0:wS2;-2,0:wA1;-3,0:wG1;1,0:bQ;2,0:bS1", b, 5, ""),
			"White has 4 pieces on the board but not its Queen Bee, which is placed by a player's fourth turn"},
		{"queen first", position(t, base, "0,0:wQ;1,0:bS1", w, 2, ""),
			"White's Queen Bee is its only piece on the board, but no Queen is placed on a player's first turn"},
		{"too few turns to place", position(t, base, opening+";-2,0:wA1", w, 3, ""),
			"at White[3] White has had 2 turns, too few to place its 3 pieces"},
		{"too few turns to climb", position(t, base, opening+";-2,0:wA1/wB1", b, 3, ""),
			"at Black[3] White has had 3 turns, too few to place its 4 pieces and climb 1 of them onto the hive"},
		{"enough turns to climb", position(t, base, opening+";-2,0:wA1/wB1", b, 5, ""), ""},
		{"a board at the first turn", position(t, base, "0,0:wS1", w, 1, ""), "at White[1] White has had 0 turns, too few to place its 1 piece"},
		{"a first turn passed", position(t, base, "0,0:wS1;1,0:wS2", w, 3, ""),
			"at White[3] Black has had 2 turns but has no piece on the board, and a first turn is never a pass"},
		{"passes are fine", position(t, base, opening, w, 40, ""), ""},
		{"last moved not a piece", core.Position{Turn: 2, Stacks: stacksOf(t, "0,0:wS1;1,0:bS1"), LastMoved: 40}, "the piece moved last, 40, does not exist"},
		{"last moved in hand", position(t, base, opening, w, 3, "bA1"), "the piece moved last, bA1, is not on the board"},
		{"last moved covered", position(t, base, opening+";3,0:bG1/wB1", b, 4, "bG1"),
			"the piece moved last, bG1, is under wB1, but nothing has moved since it did"},
		{"last moved by the side to move", position(t, base, opening, w, 3, "wS1"),
			"the piece moved last, wS1, is White's and White is to move, so Black's Pillbug threw it, but the game has no Pillbug"},
		{"thrown onto the hive", position(t, core.WithPillbug, opening+";-2,0:wB1;0,1:bP;1,1:wB2/bB1", b, 6, "bB1"),
			"the piece moved last, bB1, is Black's and Black is to move, so White's Pillbug threw it, but it is on top of the hive and a thrown piece lands on the ground"},
		{"thrown with no thrower", position(t, core.WithPillbug, opening+";-2,0:wP;3,0:bA1", b, 4, "bA1"),
			"the piece moved last, bA1, is Black's and Black is to move, so White's Pillbug threw it, but no Pillbug of White's (nor Mosquito beside a Pillbug) stands on the ground next to it"},
		{"thrown by a pillbug", position(t, core.WithPillbug, opening+";-1,1:wP;0,1:bA1", b, 4, "bA1"), ""},
		{"thrown by a covered pillbug", position(t, core.WithPillbug, opening+";-1,1:wP/bB1;0,1:bA1", b, 6, "bA1"),
			"the piece moved last, bA1, is Black's and Black is to move, so White's Pillbug threw it, but no Pillbug of White's (nor Mosquito beside a Pillbug) stands on the ground next to it"},
		{"thrown by a mosquito beside a pillbug", position(t, mlp, opening+";-1,1:wM;-2,1:bP;0,1:bA1", b, 5, "bA1"), ""},
		{"thrown by a mosquito alone", position(t, mlp, opening+";-1,1:wM;-2,1:bG1;0,1:bA1", b, 5, "bA1"),
			"the piece moved last, bA1, is Black's and Black is to move, so White's Pillbug threw it, but no Pillbug of White's (nor Mosquito beside a Pillbug) stands on the ground next to it"},
		{"thrown before the thrower's queen", position(t, core.WithPillbug, "-1,0:wP;0,0:wS1;1,0:bS1;2,0:bQ;-1,1:bA1", b, 4, "bA1"),
			"the piece moved last, bA1, is Black's and Black is to move, so White's Pillbug threw it, but White's Queen Bee is not on the board: no piece moves before its Queen is placed"},
	}
	for _, c := range cases {
		g, err := core.NewGameAt(c.pos)
		var se *core.SetUpError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: NewGameAt = %v, want a game", c.name, err)
		case c.want == "":
		case err == nil:
			t.Errorf("%s: NewGameAt accepted the position (%d moves), want %q", c.name, len(generate(g)), c.want)
		case !errors.As(err, &se):
			t.Errorf("%s: NewGameAt = %v (%T), want a *core.SetUpError", c.name, err, err)
		case se.Msg != c.want:
			t.Errorf("%s: NewGameAt = %q\n want %q", c.name, se.Msg, c.want)
		}
	}
}

// TestSetUpUndoAndRepetition checks that Undo stops at a set-up position
// and that the repetition rule counts it as the first occurrence: two
// Beetles stepping off and back twice draw on the eighth ply.
func TestSetUpUndoAndRepetition(t *testing.T) {
	pos := position(t, core.Base, "-1,0:wQ;0,0:wS1;1,0:bS1;2,0:bQ;-2,0:wB1;3,0:bB1", core.White, 4, "")
	g, err := core.NewGameAt(pos)
	if err != nil {
		t.Fatal(err)
	}
	start := takeSnapshot(g)
	g.Undo()
	if got := takeSnapshot(g); !reflect.DeepEqual(got, start) || g.MovesPlayed() != 0 {
		t.Fatalf("Undo at the set-up position changed the game")
	}
	// wB1 steps on to wQ and back, bB1 on to bQ and back.
	cycle := []string{"wB1 wQ", "bB1 bQ", "wB1 -wQ", "bB1 bQ-"}
	for i := range 2 * len(cycle) {
		if g.Over() {
			t.Fatalf("the game ended after %d plies", i)
		}
		playChecked(t, g, cycle[i%len(cycle)])
	}
	if g.Result() != core.Draw {
		t.Fatalf("after the start position came back twice, result %v, want a draw", g.Result())
	}
	for g.MovesPlayed() > 0 {
		g.Undo()
	}
	g.Undo()
	if got := takeSnapshot(g); !reflect.DeepEqual(got, start) {
		t.Fatalf("undoing every move did not come back to the set-up position")
	}
	if !reflect.DeepEqual(g.StartPosition(), g.CurrentPosition()) {
		t.Errorf("StartPosition and CurrentPosition differ at the start")
	}
}

// TestSetUpEmptyBoard checks that the empty board at White[1] is a new
// game, not a set-up one.
func TestSetUpEmptyBoard(t *testing.T) {
	g, err := core.NewGameAt(core.Position{Type: core.AllExpansions, Turn: 1, LastMoved: core.NoPiece})
	if err != nil {
		t.Fatal(err)
	}
	if g.SetUp() || g.Hash() != core.NewGame(core.AllExpansions).Hash() || g.Perft(3) != core.NewGame(core.AllExpansions).Perft(3) {
		t.Errorf("the empty board set up is not a new game")
	}
	if !reflect.DeepEqual(g.StartPosition(), core.NewGame(core.AllExpansions).StartPosition()) {
		t.Errorf("StartPosition of the empty board = %+v", g.StartPosition())
	}
}

// TestSetUpQueenAfterPasses checks, on a position only a set-up (or passes)
// reaches, that a player past the fourth turn without the Queen may place
// only the Queen: White has passed twice with three bugs on the board.
func TestSetUpQueenAfterPasses(t *testing.T) {
	g, err := core.NewGameAt(position(t, core.Base, "-2,0:wA1;-1,0:wS2;0,0:wS1;1,0:bQ;2,0:bS1", core.White, 6, ""))
	if err != nil {
		t.Fatal(err)
	}
	moves := generate(g)
	if len(moves) == 0 {
		t.Fatal("no moves")
	}
	for _, m := range moves {
		if m.Piece() != pieceNamed(t, "wQ") {
			t.Fatalf("%s is legal, but only the Queen may be placed", describeMove(g, m))
		}
	}
	expectRuleError(t, g, core.MakeMove(pieceNamed(t, "wG1"), moves[0].To()), "You must play your Queen Bee on or before your fourth turn.")
}

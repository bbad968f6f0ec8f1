package core_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// randomPlies plays up to n random legal moves of g, stopping when the game
// ends.
func randomPlies(g *core.Game, rng *rand.Rand, n int) {
	var l core.MoveList
	for range n {
		if g.Over() {
			return
		}
		g.GenerateMoves(&l)
		g.Play(l.At(rng.IntN(l.Len())))
	}
}

// image returns pos under symmetry s, then moved by (dq, dr).
func image(pos core.Position, s core.Symmetry, dq, dr int) core.Position {
	img := pos
	img.Stacks = nil
	for _, st := range pos.Stacks {
		q, r := s.Axial(st.Q, st.R)
		img.Stacks = append(img.Stacks, core.Stack{Q: q + dq, R: r + dr, Pieces: slices.Clone(st.Pieces)})
	}
	return img
}

// axialOfCells maps each occupied cell of g to its coordinates in pos,
// g's CurrentPosition.
func axialOfCells(g *core.Game, pos core.Position) map[core.Cell][2]int {
	at := map[core.Cell][2]int{}
	for _, st := range pos.Stacks {
		at[g.Position(st.Pieces[len(st.Pieces)-1])] = [2]int{st.Q, st.R}
	}
	return at
}

// cellAxial returns the coordinates of cell c (occupied or next to the
// hive) from those of the occupied cells; the origin on an empty board.
func cellAxial(c core.Cell, at map[core.Cell][2]int) [2]int {
	if a, ok := at[c]; ok {
		return a
	}
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if a, ok := at[c.Neighbor(d)]; ok {
			dq, dr := d.Opposite().Axial()
			return [2]int{a[0] + dq, a[1] + dr}
		}
	}
	return [2]int{0, 0}
}

// TestSymmetryGroup checks the twelve symmetries: each keeps neighbours
// neighbours, they are twelve different maps, and Inverse undoes each.
func TestSymmetryGroup(t *testing.T) {
	seen := map[string]core.Symmetry{}
	for s := core.Symmetry(0); s < core.NumSymmetries; s++ {
		var sig []string
		for d := core.Direction(0); d < core.NumDirections; d++ {
			dq, dr := d.Axial()
			q, r := s.Axial(dq, dr)
			if max(abs(q), abs(r), abs(q+r)) != 1 {
				t.Fatalf("symmetry %d takes direction %d's step to (%d,%d), not a neighbour", s, d, q, r)
			}
			sig = append(sig, fmt.Sprint(q, r))
			if bq, br := s.Inverse().Axial(q, r); bq != dq || br != dr {
				t.Errorf("symmetry %d's inverse %d takes (%d,%d) to (%d,%d)", s, s.Inverse(), q, r, bq, br)
			}
		}
		key := strings.Join(sig, " ")
		if other, dup := seen[key]; dup {
			t.Errorf("symmetries %d and %d are the same map", other, s)
		}
		seen[key] = s
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestOrientUnderSymmetries sets up each of many random positions of every
// game type in its twelve images, each moved somewhere else, and checks
// that they have the same key and form; that every legal move and its
// image are the same move in the canonical frame; and that the canonical
// move read back on the image lands on the image's piece and cell (or,
// where the position is symmetric itself, on an equivalent move: one that
// leads to the same key).
func TestOrientUnderSymmetries(t *testing.T) {
	games, plies := 6, 50
	if testing.Short() {
		games = 1
	}
	if raceDetector {
		games, plies = 1, 12
	}
	positions, symmetric := 0, 0
	var l, l2 core.MoveList
	for _, gt := range gameTypes {
		for seed := range games {
			rng := rand.New(rand.NewPCG(uint64(gt.typ)+300, uint64(seed)))
			g := core.NewGame(gt.typ)
			for ply := 0; !g.Over() && ply < plies; ply++ {
				pos := g.CurrentPosition()
				o := core.Orient(g)
				at := axialOfCells(g, pos)
				g.GenerateMoves(&l)
				positions++
				if o.Symmetric() {
					symmetric++
				}
				for s := core.Symmetry(0); s < core.NumSymmetries; s++ {
					dq, dr := rng.IntN(41)-20, rng.IntN(41)-20
					img := image(pos, s, dq, dr)
					g2, err := core.NewGameAt(img)
					if err != nil {
						t.Fatalf("%s seed %d ply %d symmetry %d: %v", gt.name, seed, ply, s, err)
					}
					o2 := core.Orient(g2)
					if o2.Key() != o.Key() || string(o2.Form()) != string(o.Form()) {
						t.Fatalf("%s seed %d ply %d: symmetry %d moved by (%d,%d) has key %#x, the position %#x\n%s",
							gt.name, seed, ply, s, dq, dr, o2.Key(), o.Key(), dump(g))
					}
					g2.GenerateMoves(&l2)
					for _, m := range l.Moves() {
						m2 := core.Pass
						if m != core.Pass {
							a := cellAxial(m.To(), at)
							q, r := s.Axial(a[0], a[1])
							m2 = core.MakeMove(m.Piece(), core.CellAt(q+dq, r+dr))
							if len(pos.Stacks) == 0 {
								m2 = m // the first piece goes to the origin of either board
							}
						}
						if !l2.Contains(m2) {
							t.Fatalf("%s seed %d ply %d symmetry %d: %s's image %s is not legal on the image",
								gt.name, seed, ply, s, describeMove(g, m), describeMove(g2, m2))
						}
						cm, ok := o.Canonical(g, m)
						cm2, ok2 := o2.Canonical(g2, m2)
						if !ok || !ok2 || cm != cm2 {
							t.Fatalf("%s seed %d ply %d symmetry %d: %s is %#x (%v) in the canonical frame, its image %#x (%v)",
								gt.name, seed, ply, s, describeMove(g, m), cm, ok, cm2, ok2)
						}
						back, ok := o2.Board(g2, cm2)
						if !ok {
							t.Fatalf("%s seed %d ply %d symmetry %d: %#x reads back as no move", gt.name, seed, ply, s, cm2)
						}
						if !o.Symmetric() && back != m2 {
							t.Fatalf("%s seed %d ply %d symmetry %d: %s read back as %s", gt.name, seed, ply, s,
								describeMove(g2, m2), describeMove(g2, back))
						}
						if after(g, m) != after(g2, back) {
							t.Fatalf("%s seed %d ply %d symmetry %d: %s read back as %s, which leads elsewhere",
								gt.name, seed, ply, s, describeMove(g2, m2), describeMove(g2, back))
						}
					}
				}
				g.Play(l.At(rng.IntN(l.Len())))
			}
		}
	}
	t.Logf("%d positions in 12 images each, %d of them symmetric themselves", positions, symmetric)
	if symmetric == 0 {
		t.Error("no symmetric position met: the read-back of equivalent moves went untested")
	}
}

// after returns the orientation-free key of the position m leads to.
func after(g *core.Game, m core.Move) uint64 {
	g.Play(m)
	defer g.Undo()
	o := core.Orient(g)
	return o.Key()
}

// equivalent tells, by brute force and without Orient, whether b is an
// image of a under a symmetry and a translation: for each symmetry, a's
// first stack is tried on each of b's, and every stack must then land on a
// stack of b with the same pieces' colours and bugs.
func equivalent(a, b core.Position) bool {
	if a.Type != b.Type || a.ToMove != b.ToMove || len(a.Stacks) != len(b.Stacks) {
		return false
	}
	if len(a.Stacks) == 0 {
		return true
	}
	kinds := func(ps []core.Piece) string {
		var s strings.Builder
		for _, p := range ps {
			fmt.Fprintf(&s, "%v%c ", p.Color(), p.Bug().Letter())
		}
		return s.String()
	}
	at := map[[2]int]string{}
	for _, st := range b.Stacks {
		at[[2]int{st.Q, st.R}] = kinds(st.Pieces)
	}
	for s := core.Symmetry(0); s < core.NumSymmetries; s++ {
		q0, r0 := s.Axial(a.Stacks[0].Q, a.Stacks[0].R)
		for _, target := range b.Stacks {
			dq, dr := target.Q-q0, target.R-r0
			same := true
			for _, st := range a.Stacks {
				q, r := s.Axial(st.Q, st.R)
				if at[[2]int{q + dq, r + dr}] != kinds(st.Pieces) {
					same = false
					break
				}
			}
			if same {
				return true
			}
		}
	}
	return false
}

// TestOrientTellsApart compares the key with the brute-force equivalence
// over pairs of positions that are often alike: every two children of one
// position (in the opening many are images of each other, the rest differ
// by a cell or a bug), and positions of different games at the same ply.
func TestOrientTellsApart(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 2
	}
	if raceDetector {
		games = 1
	}
	var l core.MoveList
	pairs, same := 0, 0
	check := func(ga, gb *core.Game, what string) {
		pa, pb := ga.CurrentPosition(), gb.CurrentPosition()
		oa, ob := core.Orient(ga), core.Orient(gb)
		eq := equivalent(pa, pb)
		pairs++
		if eq {
			same++
		}
		if (oa.Key() == ob.Key()) != eq || (string(oa.Form()) == string(ob.Form())) != eq {
			t.Fatalf("%s: keys %#x and %#x, but the positions are images of each other: %v\n%s\n%s", what, oa.Key(), ob.Key(), eq, dump(ga), dump(gb))
		}
	}
	for _, gt := range gameTypes {
		var byPly [][]*core.Game
		for seed := range games {
			rng := rand.New(rand.NewPCG(uint64(gt.typ)+400, uint64(seed)))
			g := core.NewGame(gt.typ)
			for ply := 0; !g.Over() && ply < 40; ply++ {
				if len(byPly) <= ply {
					byPly = append(byPly, nil)
				}
				byPly[ply] = append(byPly[ply], g.Clone())
				g.GenerateMoves(&l)
				moves := slices.Clone(l.Moves())
				if ply < 8 || ply%8 == 0 {
					rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
					kids := make([]*core.Game, min(len(moves), 24))
					for i := range kids {
						kids[i] = g.Clone()
						kids[i].Play(moves[i])
					}
					for i := range kids {
						for j := i + 1; j < len(kids); j++ {
							check(kids[i], kids[j], fmt.Sprintf("%s seed %d ply %d children %s and %s", gt.name, seed, ply,
								describeMove(g, moves[i]), describeMove(g, moves[j])))
						}
					}
				}
				g.Play(moves[rng.IntN(len(moves))])
			}
		}
		for ply, gs := range byPly {
			for i := range gs {
				for j := i + 1; j < len(gs); j++ {
					check(gs[i], gs[j], fmt.Sprintf("%s ply %d games %d and %d", gt.name, ply, i, j))
				}
			}
		}
	}
	t.Logf("%d pairs of positions compared, %d of them images of each other", pairs, same)
	if same == 0 || same == pairs {
		t.Errorf("%d of %d pairs equivalent: the comparison needs both kinds", same, pairs)
	}
}

// TestOrientCollisions counts the collisions of the 64-bit key over a
// million distinct positions (a hundred thousand with -short) of random
// games of every game type: distinct by their canonical form, told apart
// by its SHA-256. A collision is two forms with one key; at 2^64 keys
// the chance of any among a million is about 3 in 10^8, so any at all
// says the hash is broken.
func TestOrientCollisions(t *testing.T) {
	want := 1_000_000
	if testing.Short() {
		want = 100_000
	}
	if raceDetector {
		want = 20_000
	}
	keys := make(map[uint64][32]byte, want)
	forms := make(map[[32]byte]struct{}, want)
	collisions, seed := 0, uint64(0)
	for len(forms) < want {
		seed++
		gt := gameTypes[seed%uint64(len(gameTypes))]
		rng := rand.New(rand.NewPCG(500, seed))
		g := core.NewGame(gt.typ)
		var l core.MoveList
		for ply := 0; !g.Over() && ply < 120 && len(forms) < want; ply++ {
			o := core.Orient(g)
			f := sha256.Sum256(o.Form())
			if _, dup := forms[f]; !dup {
				forms[f] = struct{}{}
				if other, taken := keys[o.Key()]; taken && other != f {
					collisions++
				}
				keys[o.Key()] = f
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	t.Logf("%d distinct positions from %d random games, %d distinct keys, %d collisions", len(forms), seed, len(keys), collisions)
	if collisions > 0 {
		t.Errorf("%d collisions of the 64-bit key among %d positions", collisions, len(forms))
	}
}

// TestOrientIgnoresNumbers checks the choice the key makes about a bug's
// copies: a board where wA1 and wA2 have traded cells has the same key,
// and the same moves in the canonical frame (a movement is written by its
// cells, not by the number of the piece that makes it).
func TestOrientIgnoresNumbers(t *testing.T) {
	piece := func(name string) core.Piece { return pieceNamed(t, name) }
	at := func(a1, a2 [2]int) *core.Game {
		g, err := core.NewGameAt(core.Position{Type: core.Base, ToMove: core.White, Turn: 4, LastMoved: core.NoPiece, Stacks: []core.Stack{
			{Q: 0, R: 0, Pieces: []core.Piece{piece("wQ")}},
			{Q: a1[0], R: a1[1], Pieces: []core.Piece{piece("wA1")}},
			{Q: a2[0], R: a2[1], Pieces: []core.Piece{piece("wA2")}},
			{Q: 1, R: 0, Pieces: []core.Piece{piece("bQ")}},
			{Q: 2, R: 0, Pieces: []core.Piece{piece("bA1")}},
			{Q: 2, R: -1, Pieces: []core.Piece{piece("bG1")}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	canonical := func(g *core.Game) []core.OrientedMove {
		o := core.Orient(g)
		var l core.MoveList
		g.GenerateMoves(&l)
		var out []core.OrientedMove
		for _, m := range l.Moves() {
			cm, ok := o.Canonical(g, m)
			if !ok {
				t.Fatalf("%s has no canonical form", describeMove(g, m))
			}
			out = append(out, cm)
		}
		slices.Sort(out)
		return out
	}
	a, b := at([2]int{-1, 0}, [2]int{-1, 1}), at([2]int{-1, 1}, [2]int{-1, 0})
	oa, ob := core.Orient(a), core.Orient(b)
	if oa.Key() != ob.Key() {
		t.Fatalf("wA1 and wA2 traded: keys %#x and %#x", oa.Key(), ob.Key())
	}
	if ma, mb := canonical(a), canonical(b); !slices.Equal(ma, mb) {
		t.Errorf("wA1 and wA2 traded: the canonical moves differ\n%x\n%x", ma, mb)
	}
}

// FuzzOrientedMove reads any 32-bit value as a canonical move on a random
// position: Board must answer without a panic, and a move it gives must
// come back to the same value from Canonical.
func FuzzOrientedMove(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint32(core.OrientedPass))
	f.Add(uint64(2), uint8(5), uint32(1<<30|64<<14|64<<21|65|64<<7))
	f.Add(uint64(3), uint8(9), uint32(1<<29|4<<14|63|65<<7))
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, value uint32) {
		rng := rand.New(rand.NewPCG(seed, 600))
		g := core.NewGame(core.GameType(seed % core.AllGameTypes))
		randomPlies(g, rng, int(plies%50))
		o := core.Orient(g)
		om := core.OrientedMove(value)
		m, ok := o.Board(g, om)
		if ok != om.Valid() && ok {
			t.Fatalf("%#x is not valid, but reads as %s", value, describeMove(g, m))
		}
		if !ok || g.Over() || !g.Legal(m) {
			return
		}
		back, ok := o.Canonical(g, m)
		if !ok {
			t.Fatalf("%#x reads as the legal %s, which has no canonical form", value, describeMove(g, m))
		}
		if back != om {
			t.Fatalf("%#x reads as %s, whose canonical form is %#x", value, describeMove(g, m), back)
		}
		if again, _ := o.Board(g, back); after(g, again) != after(g, m) {
			t.Fatalf("%#x reads as %s, and its canonical form %#x as %s elsewhere", value, describeMove(g, m), back, describeMove(g, again))
		}
	})
}

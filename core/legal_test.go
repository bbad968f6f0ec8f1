package core

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIsLegalMatchesGenerateMoves asks LegalWithScratch about every generated move
// and about many moves that may or may not be legal (every piece in play
// onto cells in and around the hive, Pass, NoMove, encodings of no piece)
// in every position of random games of every game type, and requires its
// answer to be whether GenerateMoves lists the move; asking must leave the
// position and its move list as they were.
func TestIsLegalMatchesGenerateMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	var list, scratch MoveList
	games := 96
	if testing.Short() {
		games = 24
	}
	var legal, illegal, enemyThrows, placements int
	for game := 0; game < games; game++ {
		g := NewGame(GameType(game) % AllGameTypes)
		for !g.Over() && g.Ply() < 100 {
			g.GenerateMoves(&list)
			listed := make(map[Move]bool, list.Len())
			for _, m := range list.Moves() {
				listed[m] = true
			}
			candidates := append([]Move{Pass, NoMove, Move(0x7C00 | Origin), Move(0x8001)}, list.Moves()...)
			var cells []Cell
			for on := g.onBoard; on != 0; on &= on - 1 {
				c := g.pos[bits.TrailingZeros32(on)]
				cells = append(cells, c)
				for d := Direction(0); d < NumDirections; d++ {
					cells = append(cells, c.Neighbor(d), c.Neighbor(d).Neighbor(d))
				}
			}
			for p := Piece(0); p < NumPieces; p++ {
				for range 12 {
					if len(cells) == 0 {
						break
					}
					candidates = append(candidates, MakeMove(p, cells[rng.IntN(len(cells))]))
				}
			}
			key := g.Hash()
			for _, m := range candidates {
				if got, want := g.LegalWithScratch(m, &scratch), listed[m]; got != want {
					t.Fatalf("game %d ply %d: LegalWithScratch(%#x) = %v, GenerateMoves lists it: %v", game, g.Ply(), uint16(m), got, want)
				}
				if listed[m] {
					legal++
					if m != Pass && g.pos[m.Piece()] == NoCell {
						placements++
					} else if m != Pass && m.Piece().Color() != g.ToMove() {
						enemyThrows++
					}
				} else {
					illegal++
				}
			}
			g.GenerateMoves(&scratch)
			if g.Hash() != key || !sameMoves(&scratch, &list) {
				t.Fatalf("game %d ply %d: LegalWithScratch changed the position", game, g.Ply())
			}
			g.Play(list.At(rng.IntN(list.Len())))
		}
	}
	if legal < 1000 || illegal < 1000 || enemyThrows < 20 || placements < 100 {
		t.Errorf("too few cases: %d legal (%d placements, %d throws of the enemy's pieces), %d illegal", legal, placements, enemyThrows, illegal)
	}
}

func sameMoves(a, b *MoveList) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if a.At(i) != b.At(i) {
			return false
		}
	}
	return true
}

// TestGenerateOntoMatchesGenerateMoves compares generateOnto with
// GenerateMoves' list filtered to the target cells, order included, over
// every position of random games of every game type: the targets are each
// Queen's cell and its empty neighbours (what the quiescence search asks
// for), and a few cells in and around the hive taken at random. Each
// position also compares GenerateAttacks on each Queen with the full list
// filtered by playing each move: a move closes in when, once played, the
// Queen (not moved by it) has more occupied neighbours than before, or the
// mover stands on it.
func TestGenerateOntoMatchesGenerateMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	var all, onto MoveList
	games := 96
	if testing.Short() {
		games = 24
	}
	compared, nonEmpty, attacked := 0, 0, 0
	for game := 0; game < games; game++ {
		g := NewGame(GameType(game) % AllGameTypes)
		for !g.Over() && g.Ply() < 100 {
			var sets [][]Cell
			for c := White; c <= Black; c++ {
				if q := g.pos[queenOf(c)]; q != NoCell {
					set := []Cell{q}
					for d := Direction(0); d < NumDirections; d++ {
						if n := q.Neighbor(d); g.height[n] == 0 {
							set = append(set, n)
						}
					}
					sets = append(sets, set)
				}
			}
			var near []Cell
			for on := g.onBoard; on != 0; on &= on - 1 {
				c := g.pos[bits.TrailingZeros32(on)]
				near = append(near, c, c.Neighbor(Direction(rng.IntN(NumDirections))))
			}
			if len(near) > 0 {
				set := []Cell{}
				for range 1 + rng.IntN(5) {
					if c := near[rng.IntN(len(near))]; !slices.Contains(set, c) {
						set = append(set, c)
					}
				}
				sets = append(sets, set)
			} else {
				sets = append(sets, []Cell{Origin})
			}
			g.GenerateMoves(&all)
			for _, set := range sets {
				var want []Move
				for _, m := range all.Moves() {
					if m != Pass && slices.Contains(set, m.To()) {
						want = append(want, m)
					}
				}
				g.generateOnto(&onto, set, 0)
				if !slices.Equal(onto.Moves(), want) {
					t.Fatalf("game %d ply %d, targets %v:\n onto     %v\n filtered %v", game, g.Ply(), set, onto.Moves(), want)
				}
				compared++
				if len(want) > 0 {
					nonEmpty++
				}
			}
			for c := White; c <= Black; c++ {
				queen := queenOf(c)
				q := g.pos[queen]
				if q == NoCell {
					continue
				}
				var want []Move
				for _, m := range all.Moves() {
					before := bits.OnesCount8(g.occ[q])
					g.Play(m)
					closes := m.Piece() != queen && (m.To() == q || bits.OnesCount8(g.occ[q]) > before)
					g.Undo()
					if closes {
						want = append(want, m)
					}
				}
				g.GenerateAttacks(&onto, q)
				if !slices.Equal(onto.Moves(), want) {
					t.Fatalf("game %d ply %d, attacks on %v:\n generated %v\n filtered  %v", game, g.Ply(), q, onto.Moves(), want)
				}
				if len(want) > 0 {
					attacked++
				}
			}
			g.Play(all.At(rng.IntN(all.Len())))
		}
	}
	if compared < 5000 || nonEmpty < 2000 || attacked < 1000 {
		t.Errorf("only %d target sets compared, %d with moves, %d positions with attacks", compared, nonEmpty, attacked)
	}
}

package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// TestBucketsNear checks that the cells within Radius of the Queen have
// one bucket each, numbered 0 to nearCells-1, and that no cell further off
// takes one of theirs or the Unanchored bucket.
func TestBucketsNear(t *testing.T) {
	seen := map[int][2]int{}
	for dq := -20; dq <= 20; dq++ {
		for dr := -20; dr <= 20; dr++ {
			b := Bucket(dq, dr)
			d := max(abs(dq), abs(dr), abs(dq+dr))
			switch {
			case d <= Radius:
				if b < 0 || b >= nearCells {
					t.Fatalf("offset (%d,%d), %d steps: bucket %d", dq, dr, d, b)
				}
				if o, dup := seen[b]; dup {
					t.Fatalf("offsets (%d,%d) and %v share bucket %d", dq, dr, o, b)
				}
				seen[b] = [2]int{dq, dr}
			case b < nearCells || b >= Unanchored:
				t.Fatalf("offset (%d,%d), %d steps: bucket %d", dq, dr, d, b)
			}
		}
	}
	if len(seen) != nearCells {
		t.Fatalf("%d near buckets, want %d", len(seen), nearCells)
	}
}

// TestBucketsFar checks the directions and bands of the cells beyond
// Radius: the cells on the ray from the Queen in direction d, k steps out,
// lie in region d, in the band of k; the cells halfway between directions
// d and d+1 (d plus d+1 steps, k times) lie in region 6+d.
func TestBucketsFar(t *testing.T) {
	for d := core.Direction(0); d < core.NumDirections; d++ {
		q, r := d.Axial()
		q2, r2 := d.Clockwise().Axial()
		for k := 1; k <= 12; k++ {
			for _, c := range []struct {
				q, r, steps, region int
			}{{k * q, k * r, k, int(d)}, {k * (q + q2), k * (r + r2), 2 * k, 6 + int(d)}} {
				if c.steps <= Radius {
					continue
				}
				band := 0
				if c.steps > Radius+2 {
					band = 1
				}
				if b, want := Bucket(c.q, c.r), nearCells+farRegions*band+c.region; b != want {
					t.Errorf("offset (%d,%d), %d steps: bucket %d, want %d", c.q, c.r, c.steps, b, want)
				}
			}
		}
	}
}

// TestBucketsSymmetric checks that the buckets turn and mirror with the
// grid: two offsets share a bucket exactly when their images under any of
// the twelve symmetries do, so that a symmetry maps buckets onto buckets
// and a turned sample is a sample of the same inputs, permuted.
func TestBucketsSymmetric(t *testing.T) {
	for s := core.Symmetry(0); s < core.NumSymmetries; s++ {
		image := map[int]int{} // a bucket's image under s
		for dq := -14; dq <= 14; dq++ {
			for dr := -14; dr <= 14; dr++ {
				q, r := s.Axial(dq, dr)
				b, tb := Bucket(dq, dr), Bucket(q, r)
				if prev, ok := image[b]; ok && prev != tb {
					t.Fatalf("symmetry %d: bucket %d goes to %d and %d (offset (%d,%d))", s, b, prev, tb, dq, dr)
				}
				image[b] = tb
			}
		}
	}
}

// TestFeaturesTurn checks Feature.Index against the inputs of the same
// position turned and mirrored: the features of each of the twelve images
// of a position, set up anew by core (NewGameAt), are the position's own
// read through the symmetry. Training relies on it to learn from every
// image of a sample.
func TestFeaturesTurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for _, g := range randomGames(rng, 40, core.AllExpansions) {
		pos := g.CurrentPosition()
		for s := core.Symmetry(0); s < core.NumSymmetries; s++ {
			turned := pos
			turned.Stacks = nil
			for _, st := range pos.Stacks {
				q, r := s.Axial(st.Q, st.R)
				turned.Stacks = append(turned.Stacks, core.Stack{Q: q, R: r, Pieces: st.Pieces})
			}
			tg, err := core.NewGameAt(turned)
			if err != nil {
				t.Fatalf("symmetry %d: %v", s, err)
			}
			for c := core.White; c <= core.Black; c++ {
				var want, got []int
				for _, f := range AppendFeatures(nil, g, c) {
					want = append(want, f.Index(s))
				}
				for _, f := range AppendFeatures(nil, tg, c) {
					got = append(got, f.Index(0))
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("symmetry %d, perspective %v: turned position's inputs %v, the position's read through it %v", s, c, got, want)
				}
				checked++
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d comparisons", checked)
	}
}

// TestFeaturesCount checks that every piece of the game is one input of
// each perspective, each within range, and that the counts of the inputs
// that are on agree with the position: a piece in hand per slot, a piece
// covered for each piece under another.
func TestFeaturesCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, g := range randomGames(rng, 60, core.AllExpansions) {
		pieces := 0
		covered := 0
		for p := core.Piece(0); p < core.NumPieces; p++ {
			if g.InPlay(p) {
				pieces++
			}
			if c := g.Position(p); c != core.NoCell && g.Top(c) != p {
				covered++
			}
		}
		for c := core.White; c <= core.Black; c++ {
			fs := AppendFeatures(nil, g, c)
			if len(fs) != pieces {
				t.Fatalf("%d inputs on for %d pieces", len(fs), pieces)
			}
			cov := 0
			for _, f := range fs {
				i := f.Index(0)
				if i < 0 || i >= NumFeatures {
					t.Fatalf("input %d out of range", i)
				}
				if i < handBase && State(i%NumKinds%int(NumStates)) == Covered {
					cov++
				}
			}
			if cov != covered {
				t.Fatalf("%d covered inputs for %d covered pieces", cov, covered)
			}
		}
	}
}

// randomGames plays n random games of type gt to random lengths (never
// over), repetition draws off.
func randomGames(rng *rand.Rand, n int, gt core.GameType) []*core.Game {
	var games []*core.Game
	var l core.MoveList
	for len(games) < n {
		g := core.NewGame(gt, core.RepetitionDraw(false))
		target := 4 + rng.IntN(70)
		for g.Ply() < target && !g.Over() {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		if !g.Over() {
			games = append(games, g)
		}
	}
	return games
}

// TestSlots holds the slots of each bug to core's pieces.
func TestSlots(t *testing.T) {
	for b := core.Bug(0); b < core.NumBugs; b++ {
		var want uint16
		for n := 1; n <= core.BugCount(b); n++ {
			p, ok := core.MakePiece(core.White, b, n)
			if !ok {
				t.Fatalf("no piece %v %d", b, n)
			}
			want |= 1 << p
		}
		if got := bugSlots(b); got != want {
			t.Errorf("%v: slots %014b, want %014b", b, got, want)
		}
		if p, _ := core.MakePiece(core.White, b, 1); firstSlot(b) != int(p) {
			t.Errorf("%v: first slot %d, want %d", b, firstSlot(b), p)
		}
	}
}

package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// randomNet returns a network of random weights within the bounds that
// training keeps, so that every input's row differs from the others and a
// wrong row shows in the sums.
func randomNet(rng *rand.Rand) *Net { return NewNet(randomWeights(rng)) }

// randomWeights returns the weights of randomNet.
func randomWeights(rng *rand.Rand) *Weights {
	n := new(Weights)
	ft := func() int16 { return int16(rng.IntN(2*FTLimit*QA+1) - FTLimit*QA) }
	for i := range n.FT {
		for j := range n.FT[i] {
			n.FT[i][j] = ft()
		}
	}
	for j := range n.FTBias {
		n.FTBias[j] = ft()
	}
	for i := range n.L1 {
		for j := range n.L1[i] {
			n.L1[i][j] = int16(rng.IntN(2*QB+1) - QB)
		}
	}
	for j := range n.L1Bias {
		n.L1Bias[j] = int32(rng.IntN(2*QA*QB+1) - QA*QB)
		n.Out[j] = int32(rng.IntN(2*QO+1) - QO)
	}
	for i := range n.Skip {
		n.Skip[i] = int32(rng.IntN(2*QO+1) - QO)
	}
	n.OutBias = int32(rng.IntN(2*QA*QO+1) - QA*QO)
	n.Scale = 200
	return n
}

// TestAccumulatorsFollowMoves plays random games of every game type
// forwards and backwards, each move pushed and each undo popped as the
// search does, with null moves (a pass whatever the position, as the
// search's null move plays it) and Pillbug throws made more often than
// random play would; at random moments it evaluates, and the accumulators
// kept up to date move by move must equal those computed from the board
// from scratch, bit for bit, and give the same score. It counts the kinds
// of moves it went through, so that it fails if it stops exercising any:
// placements, climbs onto a stack, moves off one (uncovering a piece),
// Queen moves (which recompute a perspective), throws, Mosquito moves and
// passes.
func TestAccumulatorsFollowMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 28))
	net := randomNet(rng)
	steps := 30000
	if testing.Short() {
		steps = 5000
	}
	var counts struct{ placements, climbs, uncovers, queens, throws, mosquitoes, passes, compared, undos int }
	var l core.MoveList
	var throws []core.Throw
	fresh := NewAccumulators(net, 0)
	for step := 0; step < steps; {
		gt := core.GameType(rng.IntN(core.AllGameTypes))
		if rng.IntN(2) == 0 {
			gt = core.AllExpansions
		}
		g := core.NewGame(gt, core.RepetitionDraw(false))
		for range rng.IntN(10) {
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		// A small stack, so that it grows as the game goes deeper.
		a := NewAccumulators(net, 4)
		a.Reset(g)
		pushed := 0
		for ; step < steps && g.Ply() < 250; step++ {
			if pushed > 0 && (g.Over() || rng.IntN(3) == 0) {
				a.Pop()
				g.Undo()
				pushed--
				counts.undos++
			} else if !g.Over() {
				m := pickMove(rng, g, &l, &throws)
				if m == core.Pass {
					counts.passes++
				} else {
					p, to := m.Piece(), m.To()
					from := g.Position(p)
					switch {
					case from == core.NoCell:
						counts.placements++
					case g.Height(from) > 1:
						counts.uncovers++
					}
					if g.Height(to) > 0 {
						counts.climbs++
					}
					if p.Bug() == core.Queen && from != core.NoCell {
						counts.queens++
					}
					if p.Bug() == core.Mosquito && from != core.NoCell {
						counts.mosquitoes++
					}
					for _, th := range throws {
						if th.Piece == p && th.To == to {
							counts.throws++
							break
						}
					}
				}
				a.Push(g, m)
				g.Play(m)
				pushed++
			}
			if g.Over() || rng.IntN(4) != 0 {
				continue
			}
			got := a.Evaluate(g)
			fresh.Reset(g)
			want := fresh.Evaluate(g)
			if a.frames[a.top].acc != fresh.frames[0].acc {
				t.Fatalf("step %d, ply %d: the accumulators kept up to date differ from those computed afresh\n%v\n%v",
					step, g.Ply(), a.frames[a.top].acc, fresh.frames[0].acc)
			}
			if got != want {
				t.Fatalf("step %d: score %d kept up to date, %d afresh", step, got, want)
			}
			counts.compared++
		}
	}
	t.Logf("%+v", counts)
	for name, n := range map[string]int{"placements": counts.placements, "climbs": counts.climbs, "uncovers": counts.uncovers,
		"queen moves": counts.queens, "throws": counts.throws, "mosquito moves": counts.mosquitoes, "passes": counts.passes,
		"comparisons": counts.compared, "undos": counts.undos} {
		if n < 20 {
			t.Errorf("only %d %s", n, name)
		}
	}
}

// pickMove returns a random legal move of g, a throw one time in three
// when there is one, and a pass (legal or not, as a null move is) one time
// in twenty; throws is left with the throws of the position.
func pickMove(rng *rand.Rand, g *core.Game, l *core.MoveList, throws *[]core.Throw) core.Move {
	*throws = g.Throws((*throws)[:0])
	if rng.IntN(20) == 0 {
		return core.Pass
	}
	if len(*throws) > 0 && rng.IntN(3) == 0 {
		th := (*throws)[rng.IntN(len(*throws))]
		return core.MakeMove(th.Piece, th.To)
	}
	g.GenerateMoves(l)
	return l.At(rng.IntN(l.Len()))
}

// TestAccumulatorsOutOfStep checks that evaluating a game whose moves the
// stack has not followed panics rather than answer for another position.
func TestAccumulatorsOutOfStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := NewAccumulators(randomNet(rng), 8)
	g := core.NewGame(core.AllExpansions)
	a.Reset(g)
	var l core.MoveList
	g.GenerateMoves(&l)
	g.Play(l.At(0)) // not pushed
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	a.Evaluate(g)
}

// TestRefreshMatchesFeatures checks the accumulators computed from the
// board against the sum of the rows of the inputs AppendFeatures lists
// (what training reads), for positions of random games of every type.
func TestRefreshMatchesFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	w := randomWeights(rng)
	a := NewAccumulators(NewNet(w), 1)
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for _, g := range randomGames(rng, 30, gt) {
			a.Reset(g)
			for c := core.White; c <= core.Black; c++ {
				want := w.FTBias
				for _, f := range AppendFeatures(nil, g, c) {
					for j, v := range w.FT[f.Index(0)] {
						want[j] += v
					}
				}
				if got := unpackAcc(&a.frames[0].acc[c]); got != want {
					t.Fatalf("type %d, ply %d, perspective %v: accumulator %v, the inputs' rows sum to %v", gt, g.Ply(), c, got, want)
				}
			}
		}
	}
}

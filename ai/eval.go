package ai

import (
	"math/bits"

	"github.com/hivebridge/hivebridge/core"
)

// The evaluation weighs what decides games of Hive between strong players:
// the race to surround a Queen, and the freedom of the pieces that run that
// race. Units are centipawn-like: a free Soldier Ant is worth about a third
// of a "pawn", the fifth occupied cell around a Queen costs its owner one
// and a half, and a forced win is worth MateScore, far beyond anything the
// evaluation returns.

// queenDanger returns the cost of n occupied cells around a player's Queen.
// It grows faster than linearly because the last empty cells are the hard
// ones to close: two or three neighbours are ordinary, five means one move
// from defeat. Six is a lost game, which the search scores before
// evaluating.
func queenDanger(n int) int {
	switch n {
	case 0:
		return 0
	case 1:
		return 8
	case 2:
		return 25
	case 3:
		return 60
	case 4:
		return 130
	}
	return 280
}

// ownFreeNeighbor is given back for each own piece next to one's own Queen
// that can walk away: a neighbour that can leave is a lighter burden than an
// enemy piece or a pinned friend.
const ownFreeNeighbor = 12

// mobileWeights packs, eight bits per bug in core's order Q S B G A M L P,
// the worth of a piece that can move. The Ant reaches almost anywhere, so
// it is the piece whose freedom counts most; Beetle and Mosquito come next,
// for they climb and can pin a Queen from above. (A packed constant is a
// table that costs no branch and no package-level variable.)
const mobileWeights uint64 = 14 | 10<<8 | 24<<16 | 14<<24 | 32<<32 | 26<<40 | 18<<48 | 16<<56

// handWeights packs, in the same way, the worth of a piece still in hand:
// it can enter the game where it is needed, but until then does nothing.
// The Queen in hand is worth nothing (see queenPlaced).
const handWeights uint64 = 0 | 5<<8 | 10<<16 | 5<<24 | 14<<32 | 10<<40 | 7<<48 | 6<<56

func mobileWeight(b core.Bug) int { return int(mobileWeights >> (8 * b) & 0xFF) }

func handWeight(b core.Bug) int { return int(handWeights >> (8 * b) & 0xFF) }

const (
	// stuckDivisor: a pinned or covered piece loses half its mobile worth,
	// as a penalty on top of the mobility it no longer has.
	stuckDivisor = 2
	// queenOnTop is the bonus for a Beetle or Mosquito sitting on the enemy
	// Queen: the Queen can neither move nor be freed by its owner, and the
	// climber's cell can never be emptied under it.
	queenOnTop = 60
	// queenPlaced rewards a Queen on the board, without which none of a
	// player's pieces may move.
	queenPlaced = 30
	// tempo is the worth of having the move.
	tempo = 10
)

// Evaluate returns a static score of g from the point of view of the side to
// move, in centipawn-like units; positive favours the side to move. It costs
// one articulation-point search and a pass over the pieces, no move
// generation. A finished game is for the search to score, not for Evaluate.
func Evaluate(g *core.Game) int {
	movable, pinned, covered := g.Mobility()
	stuck := pinned | covered
	var side [2]int
	for c := core.White; c <= core.Black; c++ {
		queen := core.Piece(c) * core.PiecesPerColor
		qc := g.Position(queen)
		if qc == core.NoCell {
			// No piece of c may move yet, so freedom is not counted.
			movable &^= sideMask(c)
			continue
		}
		s := queenPlaced
		occ := g.Neighbors(qc)
		s -= queenDanger(bits.OnesCount8(occ))
		for d := core.Direction(0); d < core.NumDirections; d++ {
			if occ&(1<<d) == 0 {
				continue
			}
			if t := g.Top(qc.Neighbor(d)); t.Color() == c && movable&(1<<t) != 0 {
				s += ownFreeNeighbor
			}
		}
		if top := g.Top(qc); top != queen && top.Color() != c {
			side[c.Other()] += queenOnTop
		}
		side[c] += s
	}
	for on := g.OnBoard(); on != 0; on &= on - 1 {
		p := core.Piece(bits.TrailingZeros32(on))
		w := mobileWeight(p.Bug())
		switch {
		case movable&(1<<p) != 0:
			side[p.Color()] += w
		case stuck&(1<<p) != 0:
			side[p.Color()] -= w / stuckDivisor
		}
	}
	for c := core.White; c <= core.Black; c++ {
		for hand := g.Hand(c); hand != 0; hand &= hand - 1 {
			side[c] += handWeight(core.Piece(bits.TrailingZeros16(hand)).Bug())
		}
	}
	me := g.ToMove()
	return side[me] - side[me.Other()] + tempo
}

// sideMask returns the bits of colour c's pieces in a one-bit-per-piece set.
func sideMask(c core.Color) uint32 {
	return (1<<core.PiecesPerColor - 1) << (core.PiecesPerColor * uint32(c))
}

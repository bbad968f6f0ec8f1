package ai

import (
	"math/bits"

	"github.com/hivebridge/hivebridge/core"
)

// The evaluation weighs what decides games of Hive between strong players:
// the race to surround a Queen, and the freedom of the pieces that run that
// race. It is linear: a sum of features of the position, each counted for
// the side to move minus its opponent, times a weight. The weights live in
// weights.go, which `hivebridge tune` writes from game results (see
// docs/strength.md); units are centipawn-like, and a forced win is worth
// MateScore, far beyond anything the evaluation returns.

// The features. Each is a count for the side to move minus the same count
// for its opponent, except Tempo, which is always 1.
const (
	// FeatQueenDanger1 to FeatQueenDanger1+4: one for the player whose
	// Queen has exactly 1..5 occupied neighbours. Separate weights let the
	// cost grow faster than linearly: the last empty cells are the hard
	// ones to close. Six is a lost game, scored by the search.
	FeatQueenDanger1 = iota
	_
	_
	_
	_
	// FeatOwnFreeNeighbor counts one's own pieces next to one's own
	// Queen that can walk away: a lighter burden than an enemy piece or a
	// pinned friend.
	FeatOwnFreeNeighbor
	// FeatMobile + bug counts the pieces of that bug that can move.
	FeatMobile
	_
	_
	_
	_
	_
	_
	_
	// FeatStuck + bug counts the pieces of that bug that are pinned by
	// the One Hive rule or covered.
	FeatStuck
	_
	_
	_
	_
	_
	_
	_
	// FeatHand + bug counts the pieces of that bug still in hand.
	FeatHand
	_
	_
	_
	_
	_
	_
	_
	// FeatQueenOnTop: a Beetle or Mosquito of the player sits on the
	// enemy Queen, which can then neither move nor be freed.
	FeatQueenOnTop
	// FeatQueenPlaced: the player's Queen is on the board, without which
	// none of its pieces may move.
	FeatQueenPlaced
	// FeatTempo is the worth of having the move.
	FeatTempo
	// NumFeatures is the length of a feature vector.
	NumFeatures
)

// Features is a feature vector: see the Feat constants.
type Features [NumFeatures]int

// Evaluate returns a static score of g from the point of view of the side to
// move, in centipawn-like units; positive favours the side to move. It costs
// core's mobility classification and a pass over the bits of a few sets of
// pieces, no move generation. A finished game is for the search to score,
// not for Evaluate.
//
// It is the dot product of Extract's features with Weights, summed as it
// goes rather than through a feature vector: the search calls it at every
// leaf, and a test holds the two ways equal.
func Evaluate(g *core.Game) int {
	pw := byPiece(Weights())
	return evaluateWith(g, &pw)
}

// pieceWeights are the weights of FeatMobile, FeatStuck and FeatHand by
// piece rather than by bug, positive for White's pieces and negative for
// Black's: evaluateWith adds them up over the bits of a set of pieces, with no
// branch on each piece's bug or colour (a search's worker keeps one).
type pieceWeights struct {
	mobile, stuck, hand [32]int32
}

// byPiece spreads the weights w over the pieces.
func byPiece(w [NumFeatures]int16) pieceWeights {
	var pw pieceWeights
	for p := core.Piece(0); p < core.NumPieces; p++ {
		sign := int32(1)
		if p.Color() == core.Black {
			sign = -1
		}
		b := int(p.Bug())
		pw.mobile[p] = sign * int32(w[FeatMobile+b])
		pw.stuck[p] = sign * int32(w[FeatStuck+b])
		pw.hand[p] = sign * int32(w[FeatHand+b])
	}
	return pw
}

// evaluateWith is Evaluate with the weights by piece at hand.
func evaluateWith(g *core.Game, pw *pieceWeights) int {
	w := Weights()
	movable, pinned, covered := g.Mobility()
	stuck := pinned | covered
	var side [2]int
	for c := core.White; c <= core.Black; c++ {
		queen := core.Piece(c) * core.PiecesPerColor
		qc := g.Position(queen)
		if qc == core.NoCell {
			movable &^= sideMask(c)
			continue
		}
		s := int(w[FeatQueenPlaced])
		occ := g.Neighbors(qc)
		if n := bits.OnesCount8(occ); n > 0 {
			s += int(w[FeatQueenDanger1+min(n, 5)-1])
		}
		for rest := occ; rest != 0; rest &= rest - 1 {
			if t := g.Top(qc.Neighbor(core.Direction(bits.TrailingZeros8(rest)))); t.Color() == c && movable&(1<<t) != 0 {
				s += int(w[FeatOwnFreeNeighbor])
			}
		}
		if top := g.Top(qc); top != queen && top.Color() != c {
			side[c.Other()] += int(w[FeatQueenOnTop])
		}
		side[c] += s
	}
	// White's sums less Black's, piece by piece (no piece is both movable
	// and stuck).
	diff := int32(0)
	for m := movable; m != 0; m &= m - 1 {
		diff += pw.mobile[bits.TrailingZeros32(m)&31]
	}
	for m := stuck; m != 0; m &= m - 1 {
		diff += pw.stuck[bits.TrailingZeros32(m)&31]
	}
	for m := uint32(g.Hand(core.White)) | uint32(g.Hand(core.Black))<<core.PiecesPerColor; m != 0; m &= m - 1 {
		diff += pw.hand[bits.TrailingZeros32(m)&31]
	}
	side[core.White] += int(diff)
	me := g.ToMove()
	return side[me] - side[me.Other()] + int(w[FeatTempo])
}

// Extract fills f with the features of g, from the point of view of the
// side to move.
func Extract(g *core.Game, f *Features) {
	*f = Features{}
	movable, pinned, covered := g.Mobility()
	stuck := pinned | covered
	me := g.ToMove()
	sign := [2]int{1, 1}
	sign[me.Other()] = -1
	for c := core.White; c <= core.Black; c++ {
		queen := core.Piece(c) * core.PiecesPerColor
		qc := g.Position(queen)
		if qc == core.NoCell {
			// No piece of c may move yet, so freedom is not counted.
			movable &^= sideMask(c)
			continue
		}
		s := sign[c]
		f[FeatQueenPlaced] += s
		occ := g.Neighbors(qc)
		if n := bits.OnesCount8(occ); n > 0 {
			f[FeatQueenDanger1+min(n, 5)-1] += s
		}
		for d := core.Direction(0); d < core.NumDirections; d++ {
			if occ&(1<<d) == 0 {
				continue
			}
			if t := g.Top(qc.Neighbor(d)); t.Color() == c && movable&(1<<t) != 0 {
				f[FeatOwnFreeNeighbor] += s
			}
		}
		if top := g.Top(qc); top != queen && top.Color() != c {
			f[FeatQueenOnTop] -= s
		}
	}
	for on := g.OnBoard(); on != 0; on &= on - 1 {
		p := core.Piece(bits.TrailingZeros32(on))
		switch {
		case movable&(1<<p) != 0:
			f[FeatMobile+int(p.Bug())] += sign[p.Color()]
		case stuck&(1<<p) != 0:
			f[FeatStuck+int(p.Bug())] += sign[p.Color()]
		}
	}
	for c := core.White; c <= core.Black; c++ {
		for hand := g.Hand(c); hand != 0; hand &= hand - 1 {
			f[FeatHand+int(core.Piece(bits.TrailingZeros16(hand)).Bug())] += sign[c]
		}
	}
	f[FeatTempo] = 1
}

// sideMask returns the bits of colour c's pieces in a one-bit-per-piece set.
func sideMask(c core.Color) uint32 {
	return (1<<core.PiecesPerColor - 1) << (core.PiecesPerColor * uint32(c))
}

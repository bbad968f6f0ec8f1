package nnue

import (
	"math/bits"

	"github.com/hivebridge/hivebridge/core"
)

// The geometry of the inputs: see the package comment.
const (
	// Radius is the distance from a Queen within which every cell has a
	// bucket of its own.
	Radius = 3
	// nearCells is the number of cells within Radius of a cell.
	nearCells = 1 + 3*Radius*(Radius+1)
	// farBands is the number of distance bands beyond Radius: Radius+1 to
	// Radius+2 steps, and further.
	farBands = 2
	// farRegions is the number of directions a far cell is told apart
	// by: nearest one of the six directions, or halfway between two.
	farRegions = 12
	// Unanchored is the bucket of every piece seen from a perspective
	// whose Queen is still in hand.
	Unanchored = nearCells + farRegions*farBands
	// NumBuckets is the number of places a piece can be, relative to a
	// Queen.
	NumBuckets = Unanchored + 1
)

// State is how a piece on the board stands.
type State uint8

// The states of a piece on the board.
const (
	Ground  State = iota // on the ground, nothing on it
	Climbed              // on top of a stack
	Covered              // something on it
	NumStates
)

// The inputs of a perspective: a piece on the board is one of NumKinds
// kinds (own or enemy, bug, state) in one of NumBuckets places; a piece in
// hand is one of the PiecesPerColor slots of its side.
const (
	NumKinds    = 2 * int(core.NumBugs) * int(NumStates)
	handBase    = NumBuckets * NumKinds
	NumFeatures = handBase + 2*core.PiecesPerColor
)

// NumDense is the number of dense counts that go into the head: for the
// side to move, then its opponent, the pieces of each bug that can move,
// then those that are stuck.
const NumDense = 4 * int(core.NumBugs)

// DenseOne is the count that the network reads as 1.0: counts are 0 to 3
// per bug and side.
const DenseOne = 4

// Kind returns the kind of input of piece p in state s seen from
// perspective persp.
func Kind(persp core.Color, p core.Piece, s State) int {
	rel := 0
	if p.Color() != persp {
		rel = 1
	}
	return (rel*int(core.NumBugs)+int(p.Bug()))*int(NumStates) + int(s)
}

// Bucket returns the bucket of a piece at axial offset (dq, dr) from a
// perspective's Queen.
func Bucket(dq, dr int) int {
	d := max(abs(dq), abs(dr), abs(dq+dr))
	if d <= Radius {
		// Cells row by row (r from -Radius), each row's cells by q.
		i := 0
		for r := -Radius; r < dr; r++ {
			i += 2*Radius + 1 - abs(r)
		}
		return i + dq - max(-Radius, -dr-Radius)
	}
	band := min((d-Radius-1)/2, farBands-1)
	return nearCells + farRegions*band + region(dq, dr)
}

// region returns the direction of the offset (dq, dr) from the Queen: d
// (core's order, East first) when direction d points nearest to it (its
// cube coordinates have the largest dot product with the offset's), and
// 6+d when it lies exactly halfway between directions d and d+1. The
// cells halfway have regions of their own so that the regions turn and
// mirror with the grid: a mirror through such a line swaps the directions
// on either side of it, and no choice of one of them would follow it.
func region(dq, dr int) int {
	dots := [6]int{2*dq + dr, dq + 2*dr, dr - dq, -2*dq - dr, -dq - 2*dr, dq - dr}
	best := 0
	for d := 1; d < 6; d++ {
		if dots[d] > dots[best] {
			best = d
		}
	}
	if next := (best + 1) % 6; dots[next] == dots[best] {
		return 6 + best
	}
	if prev := (best + 5) % 6; dots[prev] == dots[best] {
		return 6 + prev
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BoardFeature returns the input of a piece of kind k in bucket b.
func BoardFeature(b, k int) int { return b*NumKinds + k }

// HandFeature returns the input of the piece in slot slot
// (0..PiecesPerColor-1) of the side rel (0 the perspective's own, 1 its
// enemy's) while it is in hand.
func HandFeature(rel, slot int) int { return handBase + rel*core.PiecesPerColor + slot }

// StateOf returns the state of piece p, on the board at cell c.
func StateOf(g *core.Game, p core.Piece, c core.Cell) State {
	switch {
	case g.Top(c) != p:
		return Covered
	case g.Under(p) != core.NoPiece:
		return Climbed
	}
	return Ground
}

// Feature is one input that is on, as training stores it: either an input
// whose index does not depend on the board's orientation (a piece in hand,
// or any piece while the perspective's Queen is in hand), or a piece's
// kind and its axial offset from the Queen, whose bucket is taken after a
// symmetry of the grid has turned the offset (the same position turned or
// mirrored is as good a sample).
type Feature struct {
	// Fixed is the index of an orientation-free input, or offsetFeature.
	Fixed  uint16
	Kind   uint8
	DQ, DR int8
}

// offsetFeature marks a Feature whose index is its kind's in the bucket
// of its offset.
const offsetFeature = 0xFFFF

// Index returns the input of f in the position turned by s.
func (f Feature) Index(s core.Symmetry) int {
	if f.Fixed != offsetFeature {
		return int(f.Fixed)
	}
	q, r := s.Axial(int(f.DQ), int(f.DR))
	return BoardFeature(Bucket(q, r), int(f.Kind))
}

// AppendFeatures appends the inputs of g that are on for perspective
// persp, one per piece of the game.
func AppendFeatures(dst []Feature, g *core.Game, persp core.Color) []Feature {
	anchor := g.Position(queenOf(persp))
	for on := g.OnBoard(); on != 0; on &= on - 1 {
		p := core.Piece(bits.TrailingZeros32(on))
		c := g.Position(p)
		k := Kind(persp, p, StateOf(g, p, c))
		if anchor == core.NoCell {
			dst = append(dst, Feature{Fixed: uint16(BoardFeature(Unanchored, k))})
			continue
		}
		dq, dr := anchor.Offset(c)
		dst = append(dst, Feature{Fixed: offsetFeature, Kind: uint8(k), DQ: int8(dq), DR: int8(dr)})
	}
	for c := core.White; c <= core.Black; c++ {
		rel := 0
		if c != persp {
			rel = 1
		}
		for b := core.Bug(0); b < core.NumBugs; b++ {
			first := firstSlot(b)
			n := bits.OnesCount16(g.Hand(c) & bugSlots(b))
			for i := range n {
				dst = append(dst, Feature{Fixed: uint16(HandFeature(rel, first+i))})
			}
		}
	}
	return dst
}

// Dense fills d with the dense counts of g (see NumDense), the side to
// move's first.
func Dense(g *core.Game, d *[NumDense]int8) {
	movable, stuck := mobility(g)
	me := g.ToMove()
	for b := core.Bug(0); b < core.NumBugs; b++ {
		mine, theirs := bugPieces(me, b), bugPieces(me.Other(), b)
		d[b] = int8(bits.OnesCount32(movable & mine))
		d[core.NumBugs+b] = int8(bits.OnesCount32(stuck & mine))
		d[2*core.NumBugs+b] = int8(bits.OnesCount32(movable & theirs))
		d[3*core.NumBugs+b] = int8(bits.OnesCount32(stuck & theirs))
	}
}

// mobility returns the pieces of g that can move and those that are stuck
// (pinned or covered), one bit per piece, as core's Mobility tells them,
// except that a side whose Queen is in hand has no piece that can move
// (the rules let none move before it is placed).
func mobility(g *core.Game) (movable, stuck uint32) {
	movable, pinned, covered := g.Mobility()
	for c := core.White; c <= core.Black; c++ {
		if g.Position(queenOf(c)) == core.NoCell {
			movable &^= sideMask(c)
		}
	}
	return movable, pinned | covered
}

// bugPieces returns colour c's pieces of bug b, one bit per piece.
func bugPieces(c core.Color, b core.Bug) uint32 {
	return uint32(bugSlots(b)) << (core.PiecesPerColor * uint32(c))
}

// queenOf returns the Queen of colour c.
func queenOf(c core.Color) core.Piece { return core.Piece(c) * core.PiecesPerColor }

// sideMask returns the bits of colour c's pieces in a one-bit-per-piece set.
func sideMask(c core.Color) uint32 {
	return (1<<core.PiecesPerColor - 1) << (core.PiecesPerColor * uint32(c))
}

// slotStart gives the first slot of each bug, and of none past the last,
// in core's order of a colour's 14 pieces (core.Piece: Q, S1, S2, B1, B2,
// G1, G2, G3, A1, A2, A3, M, L, P); TestSlots holds it to core.MakePiece.
const slotStart = "\x00\x01\x03\x05\x08\x0b\x0c\x0d\x0e"

// firstSlot returns the slot of the first piece of bug b.
func firstSlot(b core.Bug) int { return int(slotStart[b&7]) }

// bugSlots returns the slots of bug b's pieces, one bit per slot (as
// core.Game.Hand gives them).
func bugSlots(b core.Bug) uint16 {
	return (1<<(slotStart[b&7+1]-slotStart[b&7]) - 1) << slotStart[b&7]
}

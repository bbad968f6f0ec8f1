package nnue

import (
	"math/bits"

	"github.com/hivebridge/hivebridge/core"
)

// Accumulators evaluates the positions of one game as a search makes and
// takes back moves: a stack of accumulators, one frame per move played
// since Reset, each updated from the frame below it only when a position
// is evaluated (lazily, as Stockfish does: most positions a search plays
// into are cut off, found in a table or in the evaluation cache before
// anyone asks for their accumulator). Push, before each Play, records what
// the move changes; Pop, with each Undo, drops it. One Accumulators serves
// one thread.
type Accumulators struct {
	net    *Net
	frames []frame
	top    int
	// base is the number of moves the game had played at Reset: the
	// stack's depth is always the moves played since.
	base int
	// buckets gives the bucket of a cell by its index difference from
	// the Queen's, modulo the 1024 cells of core's grid (what
	// core.Cell.Offset reads the offset from), a lookup in place of
	// Bucket's arithmetic at every update. (A refresh uses Bucket itself,
	// through AppendFeatures, so that the test of updates against
	// refreshes holds the two to each other.)
	buckets [1024]uint8
	scratch []Feature
}

// frame is the accumulators of one position and what the move into it
// changed.
type frame struct {
	acc [2]accRow // by perspective: White's, Black's
	// ready tells which perspectives' acc hold this position's sums.
	ready [2]bool
	// refresh tells which perspectives' Queen the move into this frame
	// moved (or placed): their acc cannot follow from the frame below.
	refresh [2]bool
	anchor  [2]core.Cell // each perspective's Queen, or core.NoCell
	n       int
	changes [maxChanges]change
}

// maxChanges: a move takes its piece off one cell and puts it on another,
// and may uncover one piece and cover another.
const maxChanges = 6

// change is one input turned on or off by a move, before it is read from
// a perspective: a piece in a state on a cell, or a piece leaving the hand.
type change struct {
	piece core.Piece
	state State
	cell  core.Cell // core.NoCell: the piece leaves its hand
	// slot is, for a piece leaving its hand, the hand's input that goes
	// off: the hand's inputs count pieces rather than name them (with n
	// of a bug in hand, the bug's first n slots are on: see
	// AppendFeatures), so it is the n-th slot whichever piece leaves.
	slot uint8
	add  bool
}

// NewAccumulators returns a stack for net with room for depth moves (more
// grow it).
func NewAccumulators(net *Net, depth int) *Accumulators {
	a := &Accumulators{net: net, frames: make([]frame, depth+1)}
	for d := range a.buckets {
		q, r := core.Cell(0).Offset(core.Cell(d))
		a.buckets[d] = uint8(Bucket(q, r))
	}
	return a
}

// Reset starts the stack at g's position, computed from scratch.
func (a *Accumulators) Reset(g *core.Game) {
	a.top, a.base = 0, g.MovesPlayed()
	f := &a.frames[0]
	for c := core.White; c <= core.Black; c++ {
		f.anchor[c] = g.Position(queenOf(c))
		a.refresh(f, g, c)
	}
}

// Push records the move m that g is about to play; call it just before
// g.Play(m).
func (a *Accumulators) Push(g *core.Game, m core.Move) {
	if a.top+1 == len(a.frames) {
		a.frames = append(a.frames, frame{})
	}
	below := &a.frames[a.top]
	a.top++
	f := &a.frames[a.top]
	f.ready, f.refresh, f.anchor, f.n = [2]bool{}, [2]bool{}, below.anchor, 0
	if m == core.Pass {
		return
	}
	p, to := m.Piece(), m.To()
	if from := g.Position(p); from == core.NoCell {
		b := p.Bug()
		n := bits.OnesCount16(g.Hand(p.Color()) & bugSlots(b))
		f.record(change{piece: p, cell: core.NoCell, slot: uint8(firstSlot(b) + n - 1)})
	} else {
		h := g.Height(from)
		f.record(change{piece: p, state: stateAt(h - 1), cell: from})
		if u := g.Under(p); u != core.NoPiece {
			f.record(change{piece: u, state: Covered, cell: from})
			f.record(change{piece: u, state: stateAt(h - 2), cell: from, add: true})
		}
	}
	h := g.Height(to)
	if h > 0 {
		v := g.Top(to)
		f.record(change{piece: v, state: stateAt(h - 1), cell: to})
		f.record(change{piece: v, state: Covered, cell: to, add: true})
	}
	f.record(change{piece: p, state: stateAt(h), cell: to, add: true})
	if p.Bug() == core.Queen {
		c := p.Color()
		f.refresh[c], f.anchor[c] = true, to
	}
}

// stateAt returns the state of a piece on top of a stack at level
// (pieces beneath it) level.
func stateAt(level int) State {
	if level == 0 {
		return Ground
	}
	return Climbed
}

func (f *frame) record(c change) {
	f.changes[f.n] = c
	f.n++
}

// Pop drops the frame of the last move pushed; call it with g.Undo().
func (a *Accumulators) Pop() { a.top-- }

// Evaluate returns the network's score of g, the game whose moves the
// stack has followed, from the side to move's point of view in the native
// evaluation's units.
func (a *Accumulators) Evaluate(g *core.Game) int {
	if g.MovesPlayed()-a.base != a.top {
		panic("nnue: the accumulators are out of step with the game's moves")
	}
	a.update(g, core.White)
	a.update(g, core.Black)
	var dense [NumDense]int8
	Dense(g, &dense)
	f := &a.frames[a.top]
	me := g.ToMove()
	return a.net.output(&f.acc[me], &f.acc[me.Other()], &dense)
}

// update brings the top frame's accumulator of perspective c up to date:
// from the nearest frame below that has it, by the changes of the moves
// since, or from scratch when one of those moves moved c's Queen.
func (a *Accumulators) update(g *core.Game, c core.Color) {
	j := a.top
	for !a.frames[j].ready[c] {
		if a.frames[j].refresh[c] {
			a.refresh(&a.frames[a.top], g, c)
			return
		}
		j--
	}
	for j++; j <= a.top; j++ {
		a.follow(&a.frames[j-1], &a.frames[j], c)
	}
}

// follow computes f's accumulator of perspective c from the frame below's
// and the changes of f's move.
func (a *Accumulators) follow(below, f *frame, c core.Color) {
	acc := &f.acc[c]
	*acc = below.acc[c]
	for _, ch := range f.changes[:f.n] {
		row := &a.net.ft[a.index(ch, c, f.anchor[c])]
		if ch.add {
			for i := range acc {
				acc[i] = addLanes(acc[i], row[i])
			}
		} else {
			for i := range acc {
				acc[i] = subLanes(acc[i], row[i])
			}
		}
	}
	f.ready[c] = true
}

// index returns the input that change ch turns on or off for perspective
// c, whose Queen is on anchor.
func (a *Accumulators) index(ch change, c core.Color, anchor core.Cell) int {
	p := ch.piece
	if ch.cell == core.NoCell {
		rel := 0
		if p.Color() != c {
			rel = 1
		}
		return HandFeature(rel, int(ch.slot))
	}
	k := Kind(c, p, ch.state)
	if anchor == core.NoCell {
		return BoardFeature(Unanchored, k)
	}
	return BoardFeature(int(a.buckets[(ch.cell-anchor)&1023]), k)
}

// refresh computes f's accumulator of perspective c from g's board.
func (a *Accumulators) refresh(f *frame, g *core.Game, c core.Color) {
	acc := &f.acc[c]
	*acc = a.net.ftBias
	a.scratch = AppendFeatures(a.scratch[:0], g, c)
	for _, ft := range a.scratch {
		row := &a.net.ft[ft.Index(0)]
		for i := range acc {
			acc[i] = addLanes(acc[i], row[i])
		}
	}
	f.ready[c] = true
}

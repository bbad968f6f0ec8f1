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
	// Bucket's arithmetic at every update.
	buckets [1024]uint8
	// cache holds, for each perspective, accumulators computed from
	// scratch before (see refresh).
	cache [2]refreshCache
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
	f := &a.frames[a.top]
	me := g.ToMove()
	movable, stuck := mobility(g)
	return a.net.output(&f.acc[me&1], &f.acc[me.Other()&1], me, movable, stuck)
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
// and the changes of f's move, in one pass over the words: a move turns as
// many inputs on as off, one pair for the piece moved (or placed: off its
// hand, onto the board), one for the piece it uncovered, one for the
// piece it covered.
func (a *Accumulators) follow(below, f *frame, c core.Color) {
	var off, on [maxChanges / 2]*accRow
	offs, ons := 0, 0
	for _, ch := range f.changes[:f.n] {
		row := &a.net.ft[a.index(ch, c, f.anchor[c])]
		if ch.add {
			on[ons%len(on)] = row
			ons++
		} else {
			off[offs%len(off)] = row
			offs++
		}
	}
	src, dst := &below.acc[c], &f.acc[c]
	// The rows are added in any order: lane arithmetic wraps, so it is
	// the same sum.
	switch offs + ons {
	case 0:
		*dst = *src
	case 2:
		off0, on0 := off[0], on[0]
		for i := range dst {
			dst[i] = addLanes(subLanes(src[i], off0[i]), on0[i])
		}
	case 4:
		off0, on0, off1, on1 := off[0], on[0], off[1], on[1]
		for i := range dst {
			dst[i] = addLanes(subLanes(addLanes(subLanes(src[i], off0[i]), on0[i]), off1[i]), on1[i])
		}
	default:
		off0, on0, off1, on1, off2, on2 := off[0], on[0], off[1], on[1], off[2], on[2]
		for i := range dst {
			v := addLanes(subLanes(addLanes(subLanes(src[i], off0[i]), on0[i]), off1[i]), on1[i])
			dst[i] = addLanes(subLanes(v, off2[i]), on2[i])
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

// refresh computes f's accumulator of perspective c from g's board,
// through the cache of the accumulators last computed with c's Queen on
// the same cell (see refreshCache): only the pieces that stand elsewhere
// than they stood then change it. A search refreshes at every move of a
// Queen, and its Queen moves to the same few cells again and again.
func (a *Accumulators) refresh(f *frame, g *core.Game, c core.Color) {
	anchor := g.Position(queenOf(c))
	e := &a.cache[c][cacheSlot(anchor)]
	if !e.valid || e.anchor != anchor {
		*e = cached{valid: true, anchor: anchor, acc: a.net.ftBias}
		for p := range e.at {
			e.at[p] = inHand
		}
	}
	acc := &e.acc
	for on := g.OnBoard() | e.onBoard; on != 0; on &= on - 1 {
		p := core.Piece(bits.TrailingZeros32(on))
		at := uint16(inHand)
		if cell := g.Position(p); cell != core.NoCell {
			at = uint16(cell)<<2 | uint16(StateOf(g, p, cell))
		}
		if was := e.at[p]; at != was {
			if was != inHand {
				a.sub(acc, a.boardFeature(c, p, was, anchor))
			}
			if at != inHand {
				a.add(acc, a.boardFeature(c, p, at, anchor))
			}
			e.at[p] = at
		}
	}
	e.onBoard = g.OnBoard()
	for side := core.White; side <= core.Black; side++ {
		hand := g.Hand(side)
		if hand == e.hand[side] && e.handKnown {
			continue
		}
		rel := 0
		if side != c {
			rel = 1
		}
		for b := core.Bug(0); b < core.NumBugs; b++ {
			// The bug's first n slots are on for n of it in hand.
			first := firstSlot(b)
			now := bits.OnesCount16(hand & bugSlots(b))
			then := 0
			if e.handKnown {
				then = bits.OnesCount16(e.hand[side] & bugSlots(b))
			}
			for i := now; i < then; i++ {
				a.sub(acc, HandFeature(rel, first+i))
			}
			for i := then; i < now; i++ {
				a.add(acc, HandFeature(rel, first+i))
			}
		}
		e.hand[side] = hand
	}
	e.handKnown = true
	f.acc[c] = *acc
	f.ready[c] = true
}

// boardFeature returns the input of piece p standing at at (its cell and
// state, as cached keeps them) seen from perspective c, whose Queen is on
// anchor.
func (a *Accumulators) boardFeature(c core.Color, p core.Piece, at uint16, anchor core.Cell) int {
	b := Unanchored
	if anchor != core.NoCell {
		b = int(a.buckets[(core.Cell(at>>2)-anchor)&1023])
	}
	return BoardFeature(b, Kind(c, p, State(at&3)))
}

// cached is the accumulator of one perspective computed with its Queen on
// anchor, and the board it was computed for: where each piece stood (its
// cell and state, or inHand), which pieces were on the board, and each
// side's hand.
type cached struct {
	valid, handKnown bool
	anchor           core.Cell
	acc              accRow
	at               [core.NumPieces]uint16
	onBoard          uint32
	hand             [2]uint16
}

// inHand marks a piece off the board in cached.at.
const inHand = 0xFFFF

// refreshCache is a perspective's cached accumulators, one per cell of
// its Queen modulo cacheCells (direct-mapped: a Queen on another cell of
// the slot takes it over), and one for the Queen in hand.
type refreshCache [cacheCells + 1]cached

// cacheCells is the number of cells the refresh cache tells apart.
const cacheCells = 64

// cacheSlot returns the slot of a Queen on anchor (core.NoCell: in hand).
func cacheSlot(anchor core.Cell) int {
	if anchor == core.NoCell {
		return cacheCells
	}
	return int(anchor) % cacheCells
}

// sub subtracts input i's row from acc.
func (a *Accumulators) sub(acc *accRow, i int) {
	row := &a.net.ft[i]
	for j := range acc {
		acc[j] = subLanes(acc[j], row[j])
	}
}

// add adds input i's row to acc.
func (a *Accumulators) add(acc *accRow, i int) {
	row := &a.net.ft[i]
	for j := range acc {
		acc[j] = addLanes(acc[j], row[j])
	}
}

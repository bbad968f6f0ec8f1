package ai

import (
	"math/bits"
	"slices"

	"github.com/hivebridge/hivebridge/core"
)

// Move ordering. Each move gets an ordering value; the higher, the sooner
// it is tried. The value sits, negated and biased, in the upper bits of a
// sort key with the move below it (see tacticalBit), so that ordering is a
// sort of plain integers.
const (
	orderTT      = 1 << 30 // the move the transposition table remembers
	orderKiller  = 1 << 29 // a move that refuted a sibling
	onEnemyQueen = 3000    // a climber landing on the enemy Queen
	byEnemyQueen = 2000    // a piece arriving next to the enemy Queen
	byOwnQueen   = 600     // a piece arriving next to (or, leaving, freeing) one's own Queen
	keyBias      = 1 << 31
	// pickFirst is how many moves are picked one by one, best first,
	// before the rest are sorted: most cutoffs come from the first few, and
	// picking is cheaper than sorting when one of them refutes the
	// position.
	pickFirst = 4
)

// Marks of the cells around the two Queens, used by the move ordering.
const (
	markNearEnemy uint8 = 1 << iota
	markOnEnemy
	markNearOwn
	markOnOwn
	// markQueens is any of them: a move that lands on such a cell is
	// tactical (see tacticalBit).
	markQueens = markNearEnemy | markOnEnemy | markNearOwn | markOnOwn
)

// nextFirst returns the first legal move of first (the table's move and
// the killers, as the order ranks them) from index *next on that is not a
// repeat of an earlier one, and moves *next past it; core.NoMove when none
// is left. A Pass is passed over: it is legal only as a position's one
// move, and the generated list then holds it.
func (w *worker) nextFirst(first *[3]core.Move, next *int) core.Move {
	for *next < len(first) {
		i := *next
		*next++
		m := first[i]
		if m == core.NoMove || m == core.Pass || (i > 0 && m == first[0]) || (i > 1 && m == first[1]) {
			continue
		}
		if w.g.LegalWithScratch(m, &w.list) {
			return m
		}
	}
	return core.NoMove
}

// order generates the moves of the position at ply and returns their sort
// keys: the table's move first, then the killers, then by history and by
// what the move does next to the Queens.
func (w *worker) order(ply int, ttMove core.Move) []uint64 {
	g := w.g
	g.GenerateMoves(&w.list)
	moves := w.list.Moves()
	keys := w.keys[ply][:len(moves)]
	me := g.ToMove()
	enemyQ := g.Position(core.Piece(me.Other()) * core.PiecesPerColor)
	ownQ := g.Position(core.Piece(me) * core.PiecesPerColor)
	w.markAround(enemyQ, markNearEnemy, markOnEnemy)
	w.markAround(ownQ, markNearOwn, markOnOwn)
	w.leaveValues()
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	for i, m := range moves {
		var v int
		switch m {
		case ttMove:
			v = orderTT
		case k0:
			v = orderKiller
		case k1:
			v = orderKiller - 1
		default:
			v = w.quietValue(m)
		}
		keys[i] = uint64(keyBias-v)<<17 | uint64(m)<<1 | w.tacticalBit(m)
	}
	w.clearAround(enemyQ)
	w.clearAround(ownQ)
	return keys
}

// The sort key of a move is its ordering value, negated and biased, then
// the move, then tacticalBit: the bit never decides the order (no two
// moves are equal), it only saves the search from working it out again.
const tacticalBit = 1

// moveOf returns the move of a sort key.
func moveOf(key uint64) core.Move { return core.Move(key >> 1) }

// tacticalBit returns tacticalBit if m changes what surrounds a Queen: it
// moves a Queen, lands next to or on either Queen, or leaves a cell next
// to one (a piece that leaves a Queen's own cell is that Queen, or on top
// of it). Those are Hive's captures and escapes, which the search never
// reduces nor prunes. It reads the marks and leavesQueen that order sets.
func (w *worker) tacticalBit(m core.Move) uint64 {
	p := m.Piece()
	if p.Bug() == core.Queen || w.marks[m.To()]&markQueens != 0 || w.leavesQueen&(1<<p) != 0 {
		return tacticalBit
	}
	return 0
}

// markAround adds mark near to the six neighbours of c and mark on to c
// itself; c may be core.NoCell.
func (w *worker) markAround(c core.Cell, near, on uint8) {
	if c == core.NoCell {
		return
	}
	w.marks[c] |= on
	for d := core.Direction(0); d < core.NumDirections; d++ {
		w.marks[c.Neighbor(d)] |= near
	}
}

// clearAround undoes markAround.
func (w *worker) clearAround(c core.Cell) {
	if c == core.NoCell {
		return
	}
	w.marks[c] = 0
	for d := core.Direction(0); d < core.NumDirections; d++ {
		w.marks[c.Neighbor(d)] = 0
	}
}

// quietValue is the ordering value of a move that is neither the table's
// nor a killer: its history, plus a bonus for closing in on the enemy
// Queen and for freeing one's own, and a malus for the reverse (the part
// that depends on where the piece comes from is in w.leave: see
// leaveValues).
func (w *worker) quietValue(m core.Move) int {
	p, to := m.Piece(), m.To()
	v := int(w.history[p][to%historyCells]) + int(w.leave[p])
	switch t := w.marks[to]; {
	case t&markOnEnemy != 0:
		v += onEnemyQueen
	case t&markNearEnemy != 0:
		v += byEnemyQueen
	}
	if w.marks[to]&markNearOwn != 0 {
		v -= byOwnQueen
	}
	return v
}

// leaveValues fills w.leave with the part of each piece's ordering value
// that depends on the cell it leaves, once per node rather than once per
// move (a piece has many moves): a malus for leaving the enemy Queen
// (climbing off it, or, from the ground, stepping away from it) and a
// bonus for freeing a cell next to one's own Queen. Leaving a stack
// empties no cell, so it neither frees nor releases a Queen. A piece in
// hand leaves nothing.
func (w *worker) leaveValues() {
	g := w.g
	w.leave = [core.NumPieces]int16{}
	w.leavesQueen = 0
	for on := g.OnBoard(); on != 0; on &= on - 1 {
		p := core.Piece(bits.TrailingZeros32(on))
		from := g.Position(p)
		f := w.marks[from]
		v := 0
		switch {
		case f&markOnEnemy != 0:
			v -= onEnemyQueen
		case g.Height(from) > 1:
		case f&markNearEnemy != 0:
			v -= byEnemyQueen
		}
		if f&markNearOwn != 0 && g.Height(from) == 1 {
			v += byOwnQueen
		}
		if f&(markNearEnemy|markNearOwn) != 0 && g.Height(from) == 1 {
			w.leavesQueen |= 1 << p
		}
		w.leave[p] = int16(v)
	}
}

// picker hands out the keys of a node's moves, best first: the first
// pickFirst picked one by one, the rest sorted. At a node that prunes late
// quiet moves, the rest are split instead into the tactical moves (see
// tacticalBit), which are sorted (there are few), and the quiet ones, of
// which only as many as the node may search before it prunes are put in
// order, in one pass; once one is pruned, every later one would be, and
// the rest are dropped unsorted. The sequence of moves the search plays is
// the same as with the whole list sorted; at such a node sorting a
// hundred moves, of which a handful are searched, was a tenth of the
// search's time.
type picker struct {
	keys []uint64
	n    int // keys[:n] are handed out (split: up to the tactical ones)
	// In split mode, keys[n:tEnd] are the tactical keys not handed out,
	// sorted, keys[tEnd:q] the quiet ones handed out, and keys[q:] the
	// quiet ones to come, sorted up to qSorted.
	split   bool
	tEnd, q int
	qSorted int
}

// maxQuietBudget is the most quiet moves a split picker puts in order in
// one pass (see smallestFirst); beyond it, sorting them all costs less.
const maxQuietBudget = 12

// start sets the picker on keys, of which the first tried (the best ones)
// were searched already.
func (pk *picker) start(keys []uint64, tried int) {
	pk.keys = keys
	for ; pk.n < tried; pk.n++ {
		pickBest(keys[pk.n:])
	}
}

// next returns the next key, or false when none is left. quietBudget is
// how many more quiet moves the node may search before it prunes the rest
// (see negamax), or 0 if it prunes none.
func (pk *picker) next(quietBudget int) (uint64, bool) {
	if pk.split {
		return pk.nextSplit()
	}
	i := pk.n
	if i >= len(pk.keys) {
		return 0, false
	}
	switch {
	case i < pickFirst:
		pickBest(pk.keys[i:])
	case i == pickFirst && quietBudget > 0:
		pk.splitRest(quietBudget)
		return pk.nextSplit()
	case i == pickFirst:
		slices.Sort(pk.keys[i:])
	}
	pk.n++
	return pk.keys[i], true
}

// splitRest moves the tactical keys not yet handed out to the front of
// the rest and sorts them, and puts the quiet keys the node may search
// (and the one it prunes first) in order after them.
func (pk *picker) splitRest(quietBudget int) {
	rest := pk.keys[pk.n:]
	t := 0
	for j, k := range rest {
		if k&tacticalBit != 0 {
			rest[t], rest[j] = rest[j], rest[t]
			t++
		}
	}
	slices.Sort(rest[:t])
	pk.split, pk.tEnd, pk.q = true, pk.n+t, pk.n+t
	pk.qSorted = pk.q + smallestFirst(rest[t:], quietBudget+1)
}

// smallestFirst moves the k smallest keys to the front, in order, and
// returns how many are in order there: k, or all of them when k is more
// than maxQuietBudget or the keys are few. One pass keeps the k smallest
// seen so far in order, and most keys are larger than all of them.
func smallestFirst(keys []uint64, k int) int {
	if k > maxQuietBudget || k >= len(keys) {
		slices.Sort(keys)
		return len(keys)
	}
	head := keys[:k]
	slices.Sort(head)
	for j := k; j < len(keys); j++ {
		x := keys[j]
		if x >= head[k-1] {
			continue
		}
		keys[j] = head[k-1]
		i := k - 1
		for ; i > 0 && head[i-1] > x; i-- {
			head[i] = head[i-1]
		}
		head[i] = x
	}
	return k
}

func (pk *picker) nextSplit() (uint64, bool) {
	haveT, haveQ := pk.n < pk.tEnd, pk.q < len(pk.keys)
	if haveQ && pk.q >= pk.qSorted {
		// More quiet moves than the budget: only a node whose moves all
		// lose, which prunes nothing, gets here.
		slices.Sort(pk.keys[pk.q:])
		pk.qSorted = len(pk.keys)
	}
	switch {
	case haveT && (!haveQ || pk.keys[pk.n] < pk.keys[pk.q]):
		pk.n++
		return pk.keys[pk.n-1], true
	case haveQ:
		pk.q++
		return pk.keys[pk.q-1], true
	}
	return 0, false
}

// dropQuiets drops the quiet keys not handed out (in split mode).
func (pk *picker) dropQuiets() { pk.q = len(pk.keys) }

// pickBest moves the smallest key (the best move) to the front.
func pickBest(keys []uint64) {
	b := 0
	for i := 1; i < len(keys); i++ {
		if keys[i] < keys[b] {
			b = i
		}
	}
	keys[0], keys[b] = keys[b], keys[0]
}

package ai

import "github.com/hivebridge/hivebridge/core"

// The history table: a score per piece and destination cell, raised each
// time the move refutes a position (see cutoff), which orders the quiet
// moves.
const (
	// historyMax bounds the history scores; each update moves a score
	// towards it by a fraction, so old knowledge fades and nothing
	// overflows.
	historyMax = 16384
	// historyCells folds a cell into the history table; core's cells all
	// fit, and a collision would only blur the ordering.
	historyCells = 1024
	// historyAgeNodes is the size of search after which the history
	// table is aged (see ageHistory).
	historyAgeNodes = 1 << 16
)

// ageHistory halves the history table after a deep search (reset calls it
// before it zeroes w.nodes, the size of the search that ends). Halving the
// whole table costs more than a shallow search, and a shallow search
// taught it little: age it only after a deep one.
func (w *worker) ageHistory() {
	if w.nodes >= historyAgeNodes {
		for p := range w.history {
			for c := range w.history[p] {
				w.history[p][c] /= 2
			}
		}
	}
}

// ordered ends the node's search of its first moves (see negamax) and
// returns the keys of order. The history updates made since journalMark,
// by the searches of the first moves, are taken back while order reads
// the history, and then made again.
func (w *worker) ordered(ply int, ttMove core.Move, journalMark int) []uint64 {
	changes := w.journal[journalMark:]
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		w.history[c.piece][c.cell] = c.old
	}
	keys := w.order(ply, ttMove)
	for _, c := range changes {
		w.history[c.piece][c.cell] = c.new
	}
	w.endStaging()
	return keys
}

// endStaging ends a node's search of its first moves; once no node is
// searching its first moves, the journal is emptied.
func (w *worker) endStaging() {
	w.staging--
	if w.staging == 0 {
		w.journal = w.journal[:0]
	}
}

// cutoff remembers a move that refuted the position at ply, searched
// depth plies deep: as a killer for the siblings, and in the history.
func (w *worker) cutoff(m core.Move, ply, depth int) {
	if k := &w.killers[ply]; k[0] != m {
		k[1], k[0] = k[0], m
	}
	bonus := int32(min(depth*depth, 400))
	p, cell := m.Piece(), m.To()%historyCells
	h := &w.history[p][cell]
	old := *h
	*h += bonus - *h*bonus/historyMax
	if w.staging > 0 {
		w.journal = append(w.journal, historyChange{piece: p, cell: cell, old: old, new: *h})
	}
}

// historyChange is one update of the history: the score of piece on cell
// went from old to new.
type historyChange struct {
	piece    core.Piece
	cell     core.Cell
	old, new int32
}

package ai

// evalCacheSize is the number of static evaluations a thread remembers (a
// power of two, 16 bytes each).
const evalCacheSize = 1 << 16

// evalCache remembers the static evaluations of the positions a thread
// scored last, by PositionKey, in a direct-mapped table where a newer
// position overwrites an older one. A search evaluates the same position
// again and again: each iteration of the iterative deepening scores at its
// interior nodes (for futility and the null move) the positions that the
// iteration before scored as leaves, and transpositions (two moves played
// in either order) meet at the leaves; in the midgame benchmark nearly two
// evaluations in five repeat one made earlier in the same search.
//
// A cached score is exactly Evaluate's: Evaluate reads only what
// PositionKey covers (each stack's colours and bugs, and the side to move;
// the pieces in hand follow from the board), never the pieces' numbers or
// the piece moved last, so positions with one key have one evaluation
// (barring a 64-bit key collision, which the transposition table risks
// too). The weights are constants, so entries never go stale and the cache
// is kept from search to search, like the table, until Clear.
type evalCache [evalCacheSize]evalEntry

type evalEntry struct {
	key   uint64
	score int32
	valid bool
}

// evaluate returns Evaluate of the worker's game, from the cache when the
// position was scored before.
func (w *worker) evaluate() int {
	key := w.g.PositionKey()
	e := &w.evals[key&(evalCacheSize-1)]
	if e.valid && e.key == key {
		return int(e.score)
	}
	score := Evaluate(w.g)
	*e = evalEntry{key: key, score: int32(score), valid: true}
	return score
}

package ai

// evalCacheSize is the number of static evaluations a thread remembers, 8
// bytes each. The index is the key's low 16 bits, the width of a score in
// an entry (see evalCache).
const (
	evalCacheSize = 1 << 16
	evalIndexMask = evalCacheSize - 1
)

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
//
// An entry is one word: the key's bits above the index, and the score in
// the low 16 bits; the index supplies the key's low bits, so the whole key
// is compared. Half the size of a key and a score side by side, the table
// stays in the processor's caches more often, and a lookup costs mostly
// its cache miss. A zero word is an empty slot (a position whose entry
// would be zero is then never found, only evaluated again); a score that
// does not fit in 16 bits is not cached.
type evalCache [evalCacheSize]uint64

// evaluate returns the static evaluation of the worker's game (Evaluate,
// or the network's: see static), from the cache when the position was
// scored before.
func (w *worker) evaluate() int {
	key := w.g.PositionKey()
	e := &w.evals[key&evalIndexMask]
	if *e != 0 && *e&^evalIndexMask == key&^evalIndexMask {
		return int(int16(*e))
	}
	score := w.static()
	if score == int(int16(score)) {
		*e = key&^evalIndexMask | uint64(uint16(score))
	}
	return score
}

// maxNetScore bounds the network's scores: far beyond anything a position
// is worth, far below a forced result's, and within an entry's 16 bits.
const maxNetScore = 20000

// static returns the static evaluation of the worker's game: the learned
// network's when the worker has one, else the linear Evaluate. Like
// Evaluate, the network reads only what PositionKey covers (pieces by bug,
// colour and stack, and the side to move), so the cache holds for it too.
func (w *worker) static() int {
	if w.nn != nil {
		return min(max(w.nn.Evaluate(w.g), -maxNetScore), maxNetScore)
	}
	return evaluateWith(w.g, &w.weights)
}

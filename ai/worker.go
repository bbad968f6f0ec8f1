package ai

import (
	"math"
	"math/bits"
	"slices"
	"time"

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
	// historyMax bounds the history scores; each update moves a score
	// towards it by a fraction, so old knowledge fades and nothing
	// overflows.
	historyMax = 16384
	// historyCells folds a cell into the history table; core's cells all
	// fit, and a collision would only blur the ordering.
	historyCells = 1024
	// historyAgeNodes is the size of search after which the history
	// table is aged (see reset).
	historyAgeNodes = 1 << 16
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

// worker is one thread of a search, with its own copy of the game and its
// own scratch space, kept from search to search.
type worker struct {
	sh *shared
	g  *core.Game

	list    core.MoveList
	keys    [maxPly][]uint64 // the ordered moves of each ply
	killers [maxPly][2]core.Move
	null    [maxPly]bool               // the move played at each ply was a null move
	lmr     [maxPly][maxLMRMoves]uint8 // see reduction
	history [core.NumPieces][historyCells]int32
	marks   [1 << 16]uint8        // indexed by core.Cell: the Queen neighbourhoods
	leave   [core.NumPieces]int16 // see leaveValues
	// leavesQueen has the pieces whose leaving empties a cell next to a
	// Queen: see leaveValues and tacticalBit.
	leavesQueen uint32
	evals       evalCache
	weights     pieceWeights // byPiece(Weights())
	// journal records the history updates made while a node searches the
	// moves it tries before ordering the others, staging counts such
	// nodes: see negamax and ordered.
	journal []historyChange
	staging int

	nodes    uint64 // nodes searched by this thread in this search
	selDepth int    // the deepest ply this thread reached in this search
	flushed  uint64 // the part of nodes already added to shared.nodes
	nextPoll uint64
	aborted  bool
}

func newWorker() *worker {
	w := new(worker)
	w.weights = byPiece(Weights())
	lmrTable(&w.lmr)
	// A ply never has more moves than a MoveList holds.
	n := cap(w.list.Moves())
	for i := range w.keys {
		w.keys[i] = make([]uint64, 0, n)
	}
	return w
}

// reset prepares the worker for a new search of game g (its own copy).
// Killers belong to the positions of the last search and are dropped;
// history is halved, since the last search's lessons mostly still hold.
func (w *worker) reset(g *core.Game, sh *shared) {
	w.g, w.sh = g, sh
	for i := range w.killers {
		w.killers[i] = [2]core.Move{core.NoMove, core.NoMove}
	}
	// Halving the whole table costs more than a shallow search, and a
	// shallow search taught it little: age it only after a deep one.
	if w.nodes >= historyAgeNodes {
		for p := range w.history {
			for c := range w.history[p] {
				w.history[p][c] /= 2
			}
		}
	}
	w.nodes, w.flushed, w.nextPoll, w.selDepth = 0, 0, pollInterval, 0
	w.aborted = false
	w.journal, w.staging = w.journal[:0], 0 // an aborted search may leave them
}

// help is a Lazy SMP helper thread: it searches the root position deeper
// and deeper, starting at depth first, only to fill the shared table with
// results the main thread will find; its own results are thrown away.
func (w *worker) help(maxDepth, first int) {
	for d := first; d <= maxDepth && !w.aborted; d++ {
		w.negamax(d, 0, -infinity, infinity)
	}
	w.flush()
}

// poll adds this thread's nodes to the total and reports whether the
// search must stop: stopped by another thread, out of time, or cancelled.
func (w *worker) poll() bool {
	w.flush()
	sh := w.sh
	if sh.stop.Load() {
		return true
	}
	if sh.hasDeadline && !time.Now().Before(sh.deadline) || sh.ctx.Err() != nil {
		sh.stop.Store(true)
		return true
	}
	return false
}

func (w *worker) flush() {
	w.sh.nodes.Add(w.nodes - w.flushed)
	w.flushed = w.nodes
}

// terminal returns the score of a finished game for the side to move, ply
// plies from the root, and whether the game is finished. A move can lose
// for the side that makes it (by closing the last cell around its own
// Queen), so the winner is read from the result, not assumed.
func terminal(g *core.Game, ply int) (int, bool) {
	switch g.Result() {
	case core.InProgress:
		return 0, false
	case core.Draw:
		return 0, true
	}
	if g.Result() == winFor(g.ToMove()) {
		return MateScore - ply, true
	}
	return -MateScore + ply, true
}

// leaf scores a position at the search horizon. A side to move that can
// close the last cell around the enemy Queen has won, whatever the
// evaluation says: that one-move look further, taken only when the enemy
// Queen has five neighbours, keeps the horizon from hiding the commonest
// tactic of Hive.
func (w *worker) leaf(ply int) int {
	if score, known := w.horizonResult(ply); known {
		return score
	}
	return w.evaluate()
}

// horizonResult counts a horizon node (leaf or quiescence) and scores it
// when its result is known without the evaluation: the game is over, or
// the side to move closes the last cell around the enemy Queen now.
func (w *worker) horizonResult(ply int) (int, bool) {
	w.nodes++
	w.selDepth = max(w.selDepth, ply)
	g := w.g
	if score, over := terminal(g, ply); over {
		return score, true
	}
	if enemyQueenHasOneLiberty(g) && winsNow(g, &w.list) {
		w.selDepth = max(w.selDepth, ply+1)
		return MateScore - ply - 1, true
	}
	return 0, false
}

// quiesce scores a position at the search horizon by looking a few plies
// further along the moves that close in on the enemy Queen: Hive's
// captures. The side to move may stand pat on the static score, so only
// those attacks are searched, and only when the enemy Queen already has
// qMinPressure neighbours (before that, one more attacker is a plan, not a
// tactic). qdepth bounds how many more attacks are looked at.
func (w *worker) quiesce(ply, alpha, beta, qdepth int) int {
	if score, known := w.horizonResult(ply); known {
		return score
	}
	g := w.g
	stand := w.evaluate()
	if stand >= beta || qdepth <= 0 || ply >= maxPly-1 {
		return stand
	}
	me := g.ToMove()
	enemyQ := g.Position(core.Piece(me.Other()) * core.PiecesPerColor)
	if enemyQ == core.NoCell || bits.OnesCount8(g.Neighbors(enemyQ)) < qMinPressure ||
		g.Position(core.Piece(me)*core.PiecesPerColor) == core.NoCell {
		return stand
	}
	g.GenerateAttacks(&w.list, enemyQ)
	keys := w.keys[ply][:0]
	for _, m := range w.list.Moves() {
		keys = append(keys, uint64(m))
	}
	best := stand
	alpha = max(alpha, stand)
	for _, k := range keys {
		m := core.Move(k)
		g.Play(m)
		score := -w.quiesce(ply+1, -beta, -alpha, qdepth-1)
		g.Undo()
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// qMinPressure and qDepth: see quiesce.
const (
	qMinPressure = 3
	qDepth       = 2
)

// enemyQueenHasOneLiberty reports whether the Queen of the side not to
// move has five occupied neighbours.
func enemyQueenHasOneLiberty(g *core.Game) bool {
	q := g.Position(core.Piece(g.ToMove().Other()) * core.PiecesPerColor)
	return q != core.NoCell && bits.OnesCount8(g.Neighbors(q)) == core.NumDirections-1
}

// Pruning and reduction parameters, each kept only as it measured (see
// docs/strength.md).
const (
	// lmrMinDepth and lmrFirst: from this depth on, the moves after the
	// first lmrFirst that are neither the table's, a killer, nor
	// tactical are searched one ply shallower first, and again at full
	// depth only when they beat alpha.
	lmrMinDepth = 3
	lmrFirst    = 3
)

// reduction returns how many plies the i-th move of a node at depth is
// reduced by: more the deeper the node and the later the move (the
// logarithm of each, as the late moves of a well-ordered list are ever
// less likely to matter), one less on the principal variation, at least
// one and never to below one ply of search.
func (w *worker) reduction(depth, i int, pvNode bool) int {
	r := int(w.lmr[min(depth, maxPly-1)][min(i, maxLMRMoves-1)])
	if pvNode {
		r--
	}
	return max(1, min(r, depth-2))
}

// maxLMRMoves bounds the move index of the reduction table.
const maxLMRMoves = 64

// lmrTable fills the reduction of each depth and move index:
// 0.75 + ln(depth)·ln(i)/2.25, rounded down.
func lmrTable(t *[maxPly][maxLMRMoves]uint8) {
	for d := 1; d < maxPly; d++ {
		for i := 1; i < maxLMRMoves; i++ {
			t[d][i] = uint8(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
}

// futilityMargin, per ply of depth left, and nullReduction: see negamax.
const (
	futilityMargin = 90
	nullReduction  = 2
)

// threatened reports whether the Queen on q (core.NoCell when still in
// hand) has four or more occupied neighbours: a position where passing or
// trusting the static score would miss the attack.
func (w *worker) threatened(q core.Cell) bool {
	return q != core.NoCell && bits.OnesCount8(w.g.Neighbors(q)) >= 4
}

// nullBefore reports whether the move that led to ply was a null move:
// two in a row prove nothing.
func (w *worker) nullBefore(ply int) bool { return ply > 0 && w.null[ply-1] }

// lateMoveCount is, for depths 1 to 4, how many quiet moves a node off the
// principal variation searches before it prunes the rest: with a hundred
// moves in a middlegame and good ordering, the late quiet ones almost
// never refute a position.
func lateMoveCount(depth int) int {
	return 3 + 2*depth*depth
}

// negamax returns the score of the position for the side to move,
// searched depth plies deeper: fail-soft alpha-beta with principal
// variation search, late-move reductions and pruning. After an abort
// (w.aborted) its result means nothing.
func (w *worker) negamax(depth, ply, alpha, beta int) int {
	if depth <= 0 {
		return w.quiesce(ply, alpha, beta, qDepth)
	}
	w.nodes++
	g := w.g
	if score, over := terminal(g, ply); over {
		return score
	}
	if w.nodes >= w.nextPoll {
		w.nextPoll = w.nodes + pollInterval
		if w.poll() {
			w.aborted = true
			return 0
		}
	}
	// No line from here can do better than winning with the next move,
	// or worse than losing by it.
	alpha = max(alpha, -MateScore+ply+1)
	beta = min(beta, MateScore-ply-1)
	if alpha >= beta {
		return alpha
	}
	pvNode := beta-alpha > 1
	key := g.Hash()
	ttMove := core.NoMove
	if e, ok := w.sh.tt.probe(key); ok {
		ttMove = e.move
		if e.depth >= depth {
			s := scoreFromTT(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && s >= beta,
				e.bound == boundUpper && s <= alpha:
				return s
			}
		}
	}
	ownQ := g.Position(core.Piece(g.ToMove()) * core.PiecesPerColor)
	if !pvNode && abs(beta) < mateBound && !w.threatened(ownQ) {
		eval := w.evaluate()
		// Reverse futility: so far above beta that one ply more will
		// not bring it down.
		if depth <= 2 && eval-futilityMargin*depth >= beta {
			return eval
		}
		// Null move: if passing still holds beta at a reduced depth, a
		// real move will too (Hive has little zugzwang).
		if depth >= 3 && eval >= beta && !w.nullBefore(ply) && ownQ != core.NoCell {
			g.Play(core.Pass)
			w.null[ply] = true
			score := -w.negamax(depth-1-nullReduction, ply+1, -beta, -beta+1)
			w.null[ply] = false
			g.Undo()
			if w.aborted {
				return 0
			}
			if score >= beta {
				return min(score, mateBound)
			}
		}
	}
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	// The table's move and the killers, first in the order, are tried
	// before the other moves are generated, each once it is found legal:
	// one of them refutes most nodes, which then never generate nor order
	// a hundred moves. The rest are ordered when the first ones are used
	// up (those already tried come first in that order, and are picked to
	// the front and passed over), with the history as it was before the
	// first ones were searched (see ordered), so that the order, and the
	// tree, are what ordering everything at once gives.
	first := [3]core.Move{ttMove, k0, k1}
	next, tried := 0, 0
	journalMark := len(w.journal)
	w.staging++
	var pick picker
	alpha0 := alpha
	best, bestMove := -infinity, core.NoMove
	quiets := 0
	prunes := !pvNode && depth <= 4 // late quiet moves: see below
	for i := 0; ; i++ {
		var m core.Move
		tactical := true // the first moves are never quiet
		if pick.keys == nil {
			if m = w.nextFirst(&first, &next); m != core.NoMove {
				tried++
			} else {
				pick.start(w.ordered(ply, ttMove, journalMark), tried)
			}
		}
		if pick.keys != nil {
			budget := 0
			if prunes {
				budget = max(lateMoveCount(depth)-quiets, 0)
			}
			key, ok := pick.next(budget)
			if !ok {
				break
			}
			m, tactical = moveOf(key), key&tacticalBit != 0
		}
		quiet := m != ttMove && m != k0 && m != k1 && !tactical
		if quiet {
			quiets++
			if prunes && quiets > lateMoveCount(depth) && best > -mateBound {
				// So will every later quiet move be: quiets only
				// grows, and best.
				pick.dropQuiets()
				continue
			}
		}
		g.Play(m)
		var score int
		switch {
		case depth == 1:
			score = -w.quiesce(ply+1, -beta, -alpha, qDepth)
		case i == 0:
			score = -w.negamax(depth-1, ply+1, -beta, -alpha)
		default:
			r := 0
			if quiet && depth >= lmrMinDepth && i >= lmrFirst {
				r = w.reduction(depth, i, pvNode)
			}
			score = -w.negamax(depth-1-r, ply+1, -alpha-1, -alpha)
			if r > 0 && score > alpha && !w.aborted {
				score = -w.negamax(depth-1, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta && !w.aborted {
				score = -w.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		g.Undo()
		if w.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				if alpha >= beta {
					w.cutoff(m, ply, depth)
					break
				}
			}
		}
	}
	if pick.keys == nil {
		w.endStaging()
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= alpha0:
		bound = boundUpper
	}
	w.sh.tt.store(key, bestMove, scoreToTT(best, ply), depth, bound)
	return best
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
		if w.g.IsLegal(m, &w.list) {
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

// historyChange is one update of the history: the score of piece on cell
// went from old to new.
type historyChange struct {
	piece    core.Piece
	cell     core.Cell
	old, new int32
}

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

// scoreToTT makes a mate score relative to the position stored rather than
// to the root, so that it stays right when the position is reached by
// another path at another ply; scoreFromTT undoes it.
func scoreToTT(score, ply int) int {
	switch {
	case score > mateBound:
		return score + ply
	case score < -mateBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score > mateBound:
		return score - ply
	case score < -mateBound:
		return score + ply
	}
	return score
}

package ai

import (
	"math"
	"math/bits"
	"time"

	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
)

// worker is one thread of a search, with its own copy of the game and its
// own scratch space, kept from search to search.
type worker struct {
	sh *shared
	g  *core.Game
	// tt is the table this thread searches with: the search's, or for the
	// thread that searches a MultiPV search's other lines, a table of their
	// own (see rootSearch.otherLines).
	tt *table

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
	// nn evaluates with the learned network instead of the linear
	// evaluation when not nil, its accumulators following every move the
	// worker plays (see play and undo).
	nn *nnue.Accumulators
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

func newWorker(net *nnue.Net) *worker {
	w := new(worker)
	w.weights = byPiece(Weights())
	w.useNetwork(net)
	lmrTable(&w.lmr)
	// A ply never has more moves than a MoveList holds.
	n := cap(w.list.Moves())
	for i := range w.keys {
		w.keys[i] = make([]uint64, 0, n)
	}
	return w
}

// useNetwork makes the worker evaluate with net, or with the linear
// evaluation when net is nil, and forgets the evaluations it cached.
func (w *worker) useNetwork(net *nnue.Net) {
	w.nn = nil
	if net != nil {
		w.nn = nnue.NewAccumulators(net, maxPly+1)
	}
	w.evals = evalCache{}
}

// play plays m in the worker's game, and has the network's accumulators
// follow it; undo takes it back. Every move of a search goes through
// them.
func (w *worker) play(m core.Move) {
	if w.nn != nil {
		w.nn.Push(w.g, m)
	}
	w.g.Play(m)
}

func (w *worker) undo() {
	if w.nn != nil {
		w.nn.Pop()
	}
	w.g.Undo()
}

// reset prepares the worker for a new search of game g (its own copy).
// Killers belong to the positions of the last search and are dropped;
// history is halved, since the last search's lessons mostly still hold.
func (w *worker) reset(g *core.Game, sh *shared) {
	w.g, w.sh, w.tt = g, sh, sh.tt
	if w.nn != nil {
		w.nn.Reset(g)
	}
	for i := range w.killers {
		w.killers[i] = [2]core.Move{core.NoMove, core.NoMove}
	}
	w.ageHistory()
	w.nodes, w.flushed, w.nextPoll, w.selDepth = 0, 0, pollInterval, 0
	w.aborted = false
	w.journal, w.staging = w.journal[:0], 0 // an aborted search may leave them
}

// forget empties the move-ordering history and the cache of static
// evaluations: see Searcher.Clear.
func (w *worker) forget() {
	w.history = [core.NumPieces][historyCells]int32{}
	w.evals = evalCache{}
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
		w.play(m)
		score := -w.quiesce(ply+1, -beta, -alpha, qdepth-1)
		w.undo()
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
	if e, ok := w.tt.probe(key); ok {
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
			w.play(core.Pass)
			w.null[ply] = true
			score := -w.negamax(depth-1-nullReduction, ply+1, -beta, -beta+1)
			w.null[ply] = false
			w.undo()
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
		w.play(m)
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
		w.undo()
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
	w.tt.store(key, bestMove, scoreToTT(best, ply), depth, bound)
	return best
}

package ai

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
)

// MaxPly bounds the depth of a search: Hive searches never come near it,
// and it sizes the per-ply scratch of each thread. A score within MaxPly
// of ±MateScore is a forced result.
const MaxPly = maxPly

const (
	maxPly = 64
	// mateBound: any score beyond it in absolute value is a forced result.
	mateBound = MateScore - maxPly
	infinity  = MateScore + 1
	// pollInterval is how many nodes a thread searches between looks at
	// the clock and the context: a few hundred microseconds of work, so a
	// search overshoots its deadline by well under a millisecond.
	pollInterval = 256
)

// MateScore is the score of a won game: a win k plies from the root scores
// MateScore-k and a loss -(MateScore-k), so that the search prefers the
// shortest win and the longest defence. Any score within 64 of ±MateScore
// is a forced result; no evaluation comes near.
const MateScore = 30000

// Limits bounds a search. Depth 0 means no depth limit and Time 0 no time
// limit; with neither, the search runs until its context is cancelled (or
// until it reaches MaxPly, proves a forced result, or finds the only legal
// move): infinite analysis.
//
// MultiPV, if more than 1, asks for that many best root moves (or all of
// them, if fewer are legal), each with its own score and line: see
// Info.Lines. 0 and 1 are the single best move, searched exactly as
// without the field.
type Limits struct {
	Depth   int
	Time    time.Duration
	MultiPV int
}

// Info describes the state of a search: the best move found, its score from
// the side to move's point of view (see MateScore), the depth of the
// iteration that produced it, the deepest ply the main thread reached, the
// nodes searched by all threads so far, and the principal variation.
type Info struct {
	Depth    int
	SelDepth int
	Move     core.Move
	Score    int
	Nodes    uint64
	Elapsed  time.Duration
	// Partial says that the iteration of Depth had not completed when it
	// found Move: a move that beat the one before it on a full window,
	// played at once should the search stop before the iteration ends.
	Partial bool
	// PV starts with Move and goes on with the moves the table holds for
	// the positions that follow; it is read only for reports.
	PV []core.Move
	// Lines, in a search with Limits.MultiPV above 1, are the best root
	// moves of the last iteration that completed all of them, best first:
	// each distinct, with its score and line, and no score above the one
	// before (one searched above line 1 is shown level with it: see
	// rootSearch.otherLines). Lines[0] is the move a single-PV search
	// finds at that depth
	// (Move, except when a deeper iteration found another before it was
	// stopped). Nil in a single-PV search.
	Lines []Line
}

// Line is one of the best lines of a MultiPV search: a root move, its
// score from the side to move's point of view, and its principal variation,
// which starts with Move.
type Line struct {
	Move  core.Move
	Score int
	PV    []core.Move
}

// Searcher is the native Hive engine: iterative deepening alpha-beta over a
// transposition table shared by its threads (Lazy SMP). One Searcher runs
// one search at a time; its methods may be called from any goroutine, and a
// call made during a search waits for it to end.
type Searcher struct {
	mu      sync.Mutex
	threads int
	tt      *table
	workers []*worker // kept between searches, for their scratch space
	hashMB  int
	// net is the learned evaluation the workers use, nil for the linear
	// one (see SetNetwork).
	net *nnue.Net
	// others and othersTT search the other lines of a MultiPV search (see
	// rootSearch.otherLines): a worker and a table of their own, made at
	// the first such search and kept like the others.
	others   *worker
	othersTT *table
	// helpers counts the helper goroutines of the last search that may
	// still be running: Search returns as soon as its own thread stops, so
	// that a helper the operating system has not scheduled yet cannot
	// delay the move, and the next call waits for them instead.
	helpers sync.WaitGroup
}

// New returns a Searcher that uses threads goroutines and a transposition
// table of hashMB megabytes (each at least 1).
func New(threads, hashMB int) *Searcher {
	return &Searcher{threads: max(threads, 1), tt: newTable(hashMB), hashMB: hashMB}
}

// SetThreads sets the number of goroutines of the next searches (at least 1).
func (s *Searcher) SetThreads(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.helpers.Wait()
	s.threads = max(n, 1)
}

// SetHashMB replaces the transposition table by an empty one of mb
// megabytes (at least 1).
func (s *Searcher) SetHashMB(mb int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.helpers.Wait()
	s.tt, s.hashMB = newTable(mb), mb
	s.othersTT = nil // made again, of the new size, when next wanted
}

// The static evaluations a Searcher can use (SetEval).
const (
	// EvalLinear is the hand-tuned linear evaluation (Evaluate), the
	// default of a Searcher (New): the search-tree pin test
	// (TestSearchTreeUnchanged) guards the search with it, so that a
	// new network leaves the pinned trees as they are.
	EvalLinear = "linear"
	// EvalNNUE is the learned network the binary carries
	// (nnue.Default), the stronger in matches (docs/strength.md): the
	// native engine (translate.Native) sets it by default.
	EvalNNUE = "nnue"
)

// SetEval makes the next searches evaluate with the evaluation named
// EvalLinear or EvalNNUE (see SetNetwork), and refuses any other name.
func (s *Searcher) SetEval(name string) error {
	switch name {
	case EvalLinear:
		s.SetNetwork(nil)
	case EvalNNUE:
		s.SetNetwork(nnue.Default())
	default:
		return fmt.Errorf("ai: no evaluation %q (%s or %s)", name, EvalLinear, EvalNNUE)
	}
	return nil
}

// SetNetwork makes the next searches evaluate with the learned network
// net, or with the linear evaluation (Evaluate) when net is nil, the
// default. The caches of static evaluations are emptied, since their
// scores are the other evaluation's; the table is kept (its scores are
// searched results, good hints whichever evaluation found them).
func (s *Searcher) SetNetwork(net *nnue.Net) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.helpers.Wait()
	s.net = net
	for _, w := range s.workers {
		w.useNetwork(net)
	}
	if s.others != nil {
		s.others.useNetwork(net)
	}
}

// Clear empties the transposition table, the threads' move-ordering
// history and their caches of static evaluations, so that the next search knows nothing of the earlier ones: what
// a new game asks for.
func (s *Searcher) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.helpers.Wait()
	s.tt.clear()
	if s.othersTT != nil {
		s.othersTT.clear()
	}
	for _, w := range s.workers {
		w.forget()
	}
	if s.others != nil {
		s.others.forget()
	}
}

// TableUse returns the share of the transposition table's slots that hold
// a result of the last search: how full a search of its length fills the
// table (UCI's hashfull, counted over every slot rather than sampled), and
// so whether the table is too small for it (see hivebridge bench search).
func (s *Searcher) TableUse() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.helpers.Wait()
	return s.tt.use()
}

// shared is the state of one search that all its threads see.
type shared struct {
	ctx         context.Context
	tt          *table
	start       time.Time
	deadline    time.Time
	hasDeadline bool
	stop        atomic.Bool
	nodes       atomic.Uint64
}

// Search looks for the best move of g within lim and returns it with its
// score; g is left as it was (the search works on copies). The move is
// always legal, and core.NoMove only when the game is over. A lone legal
// move is returned at once (reported with its depth-1 score), a move that
// wins at once as soon as depth 1 has seen it.
//
// Every part of the search honours lim.Time: depth 1 scores the moves it
// has time for (in practice all of them, so that an immediate win is not
// missed), deeper iterations are abandoned when the time runs out or ctx
// is cancelled, and the result is then the best move of the last completed
// iteration, or a move of the unfinished one that searched to completion
// and beat it. With time to spare, no new iteration starts once the time
// management judges it not worth it (see softLimit). If the search stops
// before depth 2 completes, the move is checked against the replies, as
// long as the time allows, and swapped for one after which the opponent
// cannot win at once, if one exists.
//
// report, if not nil, is called on the caller's goroutine after every
// completed iteration, and whenever during an iteration a root move other
// than the current best takes the lead, so that an engine can show its
// progress and always has a move to play. It must not call the Searcher's
// methods, which wait for the search to end.
//
// With lim.MultiPV above 1, each iteration first searches the best move
// exactly as a single-PV search does, with the same table, history and
// order of moves, so that line 1 is that search's move, score and line at
// every depth; then the next best moves, one at a time, each the best of
// the moves not yet taken, searched with a full window for its exact score
// by a worker and a table of their own, which the line 1 search never
// reads. report is then called once per completed iteration (all its
// lines in Info.Lines), not when the best move changes within one.
func (s *Searcher) Search(ctx context.Context, g *core.Game, lim Limits, report func(Info)) Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := &shared{ctx: ctx, tt: s.tt, start: time.Now()}
	s.helpers.Wait() // the last search's helpers, stopped but maybe not yet gone
	if g.Over() {
		return Info{Move: core.NoMove}
	}
	for len(s.workers) < s.threads {
		s.workers = append(s.workers, newWorker(s.net))
	}
	main := s.workers[0]
	main.reset(g.CopyTo(main.g), sh)
	var list core.MoveList
	main.g.GenerateMoves(&list)
	root := append([]core.Move(nil), list.Moves()...)
	if len(root) == 1 {
		// Forced: no search, but the move's depth-1 score is reported
		// like any other result, so that every move comes with one.
		main.play(root[0])
		score := -main.leaf(1)
		main.undo()
		info := Info{Depth: 1, SelDepth: 1, Move: root[0], Score: score, Nodes: 1, Elapsed: time.Since(sh.start), PV: root}
		if lim.MultiPV > 1 {
			info.Lines = []Line{{Move: root[0], Score: score, PV: root}}
		}
		if report != nil {
			report(info)
		}
		return info
	}
	if lim.Time > 0 {
		sh.deadline, sh.hasDeadline = sh.start.Add(lim.Time), true
	}
	maxDepth := maxPly - 1
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	s.tt.age++

	r := rootSearch{w: main, moves: root, scores: make([]int, len(root)), report: report}
	if lim.MultiPV > 1 {
		r.lines = min(lim.MultiPV, len(root))
		r.others = s.otherLinesWorker(g, sh)
	}
	r.depthOne()
	if abs(r.best.Score) <= mateBound && maxDepth > 1 && !main.poll() {
		for i, w := range s.workers[1:s.threads] {
			w.reset(g.CopyTo(w.g), sh)
			s.helpers.Add(1)
			go func() {
				defer s.helpers.Done()
				w.help(maxDepth, 2+i%2)
			}()
		}
		r.deepen(maxDepth, lim.Time)
		sh.stop.Store(true) // the helpers stop at their next poll
	}
	if r.completed < 2 && maxDepth >= 2 {
		r.avoidImmediateLoss() // stopped early: see Search
	}
	r.flush()
	r.best.Nodes = sh.nodes.Load()
	r.best.Elapsed = time.Since(sh.start)
	r.best.SelDepth = max(r.selDepth(), r.best.Depth)
	r.best.PV = main.principalVariation(r.best.Move, r.best.Depth)
	r.best.Lines = r.found
	return r.best
}

// otherLinesWorker readies the worker that searches the other lines of a
// MultiPV search of g, and its table, making them at the first such search.
func (s *Searcher) otherLinesWorker(g *core.Game, sh *shared) *worker {
	if s.others == nil {
		s.others = newWorker(s.net)
	}
	if s.othersTT == nil {
		s.othersTT = newTable(s.hashMB)
	}
	s.othersTT.age++
	w := s.others
	w.reset(g.CopyTo(w.g), sh)
	w.tt = s.othersTT
	return w
}

// rootSearch is the main thread's iterative deepening over the root moves.
type rootSearch struct {
	w      *worker
	moves  []core.Move // best first, as the last iteration ranked them
	scores []int       // the depth-1 score of each move
	report func(Info)

	best      Info // the move to play: see Search
	completed int  // the last completed depth
	stableFor int  // iterations in a row that kept the best move

	// A MultiPV search (lines above 1) has these too: the worker of the
	// other lines, its ranking of all the root moves (best first, as the
	// last iteration found them), and the lines of the last iteration
	// that completed them all.
	lines  int
	others *worker
	ranked []core.Move
	found  []Line
}

// flush adds the nodes of the search's threads on this goroutine to the
// total.
func (r *rootSearch) flush() {
	r.w.flush()
	if r.others != nil {
		r.others.flush()
	}
}

// selDepth is the deepest ply the threads on this goroutine reached.
func (r *rootSearch) selDepth() int {
	if r.others != nil {
		return max(r.w.selDepth, r.others.selDepth)
	}
	return r.w.selDepth
}

// depthOne scores the root moves by one ply and ranks them: this finds an
// immediate win, and orders the next iteration. It honours the clock too:
// should the deadline pass while it runs (a machine so loaded that a few
// hundred evaluations take the whole allocation), the moves not yet scored
// rank last, and the best of those scored is played.
func (r *rootSearch) depthOne() {
	w := r.w
	for i := range r.scores {
		r.scores[i] = -infinity
	}
	for i, m := range r.moves {
		if i > 0 && i%depthOnePoll == 0 && w.sh.outOfTime() {
			break
		}
		w.play(m)
		r.scores[i] = -w.leaf(1)
		w.undo()
	}
	// Insertion sort: stable, allocation-free, and run once per search
	// over at most a few hundred moves.
	for i := 1; i < len(r.moves); i++ {
		for j := i; j > 0 && r.scores[j] > r.scores[j-1]; j-- {
			r.moves[j], r.moves[j-1] = r.moves[j-1], r.moves[j]
			r.scores[j], r.scores[j-1] = r.scores[j-1], r.scores[j]
		}
	}
	r.finish(1, r.moves[0], r.scores[0])
	if r.lines > 1 {
		// Depth 1 scores every move exactly: the lines are the first.
		r.ranked = append([]core.Move(nil), r.moves...)
		lines := make([]Line, 0, r.lines)
		for i, m := range r.moves[:r.lines] {
			if r.scores[i] == -infinity {
				break // not scored: out of time
			}
			lines = append(lines, Line{Move: m, Score: r.scores[i], PV: []core.Move{m}})
		}
		r.completeLines(lines)
	}
}

// depthOnePoll is how many root moves depth 1 scores between looks at the
// clock.
const depthOnePoll = 16

// outOfTime reports whether the search's deadline has passed, without
// stopping it.
func (sh *shared) outOfTime() bool {
	return sh.hasDeadline && !time.Now().Before(sh.deadline)
}

// Time management. A search given a time (a UHP bestmove time, a Hub clock's
// share, a match's allocation) treats it as a hard limit that every part of
// the search polls. Within it, the main thread starts no new iteration once
// it has used a share of the time that depends on the position: an
// iteration takes several times longer than the one before, so one started
// after softShare of the time would rarely finish, and a move that has
// stayed best through several iterations is unlikely to change, so its
// search stops sooner still. When the best move has just changed, or a
// Queen is in danger, the whole time is spent.
const (
	softShare    = 0.6 // of the time, for an ordinary position
	stableFactor = 0.5 // the best move has not changed for three iterations
)

// softLimit returns how long the main thread may keep starting iterations.
func (r *rootSearch) softLimit(limit time.Duration) time.Duration {
	switch {
	case r.stableFor == 0 || queenInDanger(r.w.g):
		return limit
	case r.stableFor >= 3:
		return time.Duration(float64(limit) * softShare * stableFactor)
	}
	return time.Duration(float64(limit) * softShare)
}

// queenInDanger reports whether either Queen has four or more occupied
// neighbours.
func queenInDanger(g *core.Game) bool {
	for c := core.White; c <= core.Black; c++ {
		if q := g.Position(core.Piece(c) * core.PiecesPerColor); q != core.NoCell && bits.OnesCount8(g.Neighbors(q)) >= 4 {
			return true
		}
	}
	return false
}

// deepen runs the iterations from depth 2 up to maxDepth, or until the
// search is stopped, a forced result is proved, or the time management
// says that another iteration is not worth starting.
func (r *rootSearch) deepen(maxDepth int, limit time.Duration) {
	for d := 2; d <= maxDepth; d++ {
		if abs(r.best.Score) >= MateScore-r.completed {
			return // a win or loss within the horizon is proved; deeper search cannot change it
		}
		if r.w.poll() {
			return
		}
		if limit > 0 && d > 2 && time.Since(r.w.sh.start) >= r.softLimit(limit) {
			return
		}
		prev := r.best.Move
		if !r.iterate(d) {
			return
		}
		if r.best.Move == prev {
			r.stableFor++
		} else {
			r.stableFor = 0
		}
		if r.lines > 1 && !r.otherLines(d) {
			return
		}
	}
}

// aspirationWindow is the half-width of the first window an iteration
// tries around the last iteration's score; a score outside it widens the
// window threefold and searches again.
const aspirationWindow = 40

// iterate searches the root moves to depth d in an aspiration window
// around the last score, widened until the score falls inside it, and
// reports whether the iteration completed.
func (r *rootSearch) iterate(d int) bool {
	alpha, beta := -infinity, infinity
	delta := aspirationWindow
	if prev := r.best.Score; d >= 4 && abs(prev) < mateBound {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		score, done := r.iterateWindow(d, alpha, beta)
		switch {
		case !done:
			return false
		case score <= alpha && alpha > -infinity:
			alpha = max(alpha-delta*2, -infinity)
		case score >= beta && beta < infinity:
			beta = min(beta+delta*2, infinity)
		default:
			m := r.moves[0]
			r.w.tt.store(r.w.g.Hash(), m, score, d, boundExact)
			r.finish(d, m, score)
			return true
		}
		delta *= 3
		if delta > 1000 {
			alpha, beta = -infinity, infinity
		}
	}
}

// iterateWindow searches every root move to depth d within (alpha, beta)
// with a principal variation search, the previous best first, moves the
// best to the front, and returns its score and whether the search ran to
// the end: a score at or below alpha, or at or above beta, is only a
// bound. A move that beats the first on a full search becomes the move to
// play at once, so that an interrupted iteration still keeps it.
func (r *rootSearch) iterateWindow(d, alpha, beta int) (int, bool) {
	w := r.w
	alpha0 := alpha
	bestIdx := -1
	best := -infinity
	for i, m := range r.moves {
		w.play(m)
		var score int
		if i == 0 {
			score = -w.negamax(d-1, 1, -beta, -alpha)
		} else {
			score = -w.negamax(d-1, 1, -alpha-1, -alpha)
			if score > alpha && !w.aborted {
				score = -w.negamax(d-1, 1, -beta, -alpha)
			}
		}
		w.undo()
		if w.aborted {
			break
		}
		if i == 0 || score > best {
			best = score
		}
		if score > alpha {
			alpha, bestIdx = score, i
			if i > 0 {
				// A move that beat the previous best on a full
				// window is better at this depth than it.
				r.best = Info{Depth: d, Move: m, Score: score, Partial: true}
				r.notify()
			}
			if score >= beta {
				break
			}
		}
	}
	if bestIdx > 0 {
		// Move the new best to the front, keeping the order of the others.
		m, sc := r.moves[bestIdx], r.scores[bestIdx]
		copy(r.moves[1:bestIdx+1], r.moves[:bestIdx])
		copy(r.scores[1:bestIdx+1], r.scores[:bestIdx])
		r.moves[0], r.scores[0] = m, sc
	}
	if w.aborted {
		return 0, false
	}
	if bestIdx < 0 {
		return min(best, alpha0), true
	}
	return alpha, true
}

// finish records a completed iteration.
func (r *rootSearch) finish(d int, m core.Move, score int) {
	r.completed = d
	r.best = Info{Depth: d, Move: m, Score: score}
	r.notify()
}

// notify hands the current best move to the report callback; a MultiPV
// search reports its iterations whole instead (see completeLines).
func (r *rootSearch) notify() {
	if r.report == nil || r.lines > 1 {
		return
	}
	r.w.flush()
	info := r.best
	info.Nodes = r.w.sh.nodes.Load()
	info.Elapsed = time.Since(r.w.sh.start)
	info.SelDepth = max(r.w.selDepth, info.Depth)
	info.PV = r.w.principalVariation(info.Move, info.Depth)
	r.report(info)
}

// otherLines completes iteration d of a MultiPV search, whose best move
// iterate has just found: it finds lines 2 and on, each the best of the
// root moves that no line before has taken, searched with a full window so
// that its score is exact, by the other lines' worker and table, so that
// nothing of it reaches the line 1 search of the next iterations. It
// reports whether the iteration completed.
//
// A line can come out scoring above the line before it: it is searched as
// a principal variation, where the search that ranked it below the other
// gave it a null window, in which the search prunes and reduces more.
// Lines 2 and on, each searched alike, are then put in the order of their
// scores; one that scores above line 1 is shown level with it, a tie,
// since line 1 stays the move the single-PV search plays.
func (r *rootSearch) otherLines(d int) bool {
	o := r.others
	lines := make([]Line, 1, r.lines)
	lines[0] = Line{Move: r.best.Move, Score: r.best.Score, PV: r.w.principalVariation(r.best.Move, d)}
	// The ranking is the other worker's own order of the moves, the last
	// iteration's lines first; line 1's move leaves it for the front.
	moveToFront(r.ranked, indexOf(r.ranked, r.best.Move))
	for k := 1; k < r.lines; k++ {
		score, ok := o.searchRoot(r.ranked[k:], d)
		if !ok {
			return false
		}
		m := r.ranked[k]
		lines = append(lines, Line{Move: m, Score: score, PV: o.principalVariation(m, d)})
	}
	// Insertion sort: stable, and the lines are few and nearly in order.
	for i := 2; i < len(lines); i++ {
		for j := i; j > 1 && lines[j].Score > lines[j-1].Score; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
	for k := 1; k < len(lines); k++ {
		r.ranked[k] = lines[k].Move
		lines[k].Score = min(lines[k].Score, lines[0].Score)
	}
	r.completeLines(lines)
	return true
}

// completeLines records the lines of a completed iteration and reports
// them.
func (r *rootSearch) completeLines(lines []Line) {
	r.found = lines
	if r.report == nil {
		return
	}
	r.flush()
	info := r.best
	info.Nodes = r.w.sh.nodes.Load()
	info.Elapsed = time.Since(r.w.sh.start)
	info.SelDepth = max(r.selDepth(), info.Depth)
	info.PV = lines[0].PV
	info.Lines = lines
	r.report(info)
}

// searchRoot searches the root moves to depth d with a full window, by a
// principal variation search in their order, moves the best to the front,
// keeping the order of the others, and returns its score, which is exact,
// and whether the search ran to the end.
func (w *worker) searchRoot(moves []core.Move, d int) (int, bool) {
	alpha := -infinity
	bestIdx := 0
	for i, m := range moves {
		w.play(m)
		var score int
		if i == 0 {
			score = -w.negamax(d-1, 1, -infinity, infinity)
		} else {
			score = -w.negamax(d-1, 1, -alpha-1, -alpha)
			if score > alpha && !w.aborted {
				score = -w.negamax(d-1, 1, -infinity, -alpha)
			}
		}
		w.undo()
		if w.aborted {
			return 0, false
		}
		if score > alpha {
			alpha, bestIdx = score, i
		}
	}
	moveToFront(moves, bestIdx)
	return alpha, true
}

// moveToFront moves moves[i] to the front, keeping the order of the others.
func moveToFront(moves []core.Move, i int) {
	m := moves[i]
	copy(moves[1:i+1], moves[:i])
	moves[0] = m
}

// indexOf returns the index of m in moves, which holds it.
func indexOf(moves []core.Move, m core.Move) int {
	for i, x := range moves {
		if x == m {
			return i
		}
	}
	panic("ai: a root move is missing from the ranking")
}

// principalVariation returns first followed by the best moves the thread's
// table remembers for the positions after it, at most depth moves in all:
// the line the search expects. It stops at a move the table does not have,
// one that is not legal (a collision of keys), and the end of the game.
func (w *worker) principalVariation(first core.Move, depth int) []core.Move {
	g := w.g
	pv := []core.Move{first}
	w.play(first)
	for len(pv) < max(depth, 1) && !g.Over() {
		e, ok := w.tt.probe(g.Hash())
		if !ok || e.move == core.NoMove || !g.Legal(e.move) {
			break
		}
		pv = append(pv, e.move)
		w.play(e.move)
	}
	for range pv {
		w.undo()
	}
	return pv
}

// avoidImmediateLoss makes sure, when depth 2 did not complete, that the
// chosen move does not let the opponent win at once when another move
// would not: it tries the moves in their depth-1 order and takes the first
// that is safe. A move that ends the game is safe unless it loses it (a
// move that surrounds the mover's own Queen leaves the opponent no winning
// reply only because the game is already lost), so that in a lost
// position the move depth 1 chose and reported is kept.
func (r *rootSearch) avoidImmediateLoss() {
	w := r.w
	var list core.MoveList
	loses := winFor(w.g.ToMove().Other())
	safe := func(m core.Move) bool {
		w.play(m)
		defer w.undo()
		if w.g.Over() {
			return w.g.Result() != loses
		}
		return !winsNow(w.g, &list)
	}
	if safe(r.best.Move) {
		return
	}
	for i, m := range r.moves {
		if i > 0 && i%depthOnePoll == 0 && r.w.sh.outOfTime() {
			return // no time left to look further: keep the move
		}
		if m != r.best.Move && safe(m) {
			r.best = Info{Depth: 1, Move: m, Score: r.scoreOf(m)}
			return
		}
	}
}

// scoreOf returns the depth-1 score of root move m.
func (r *rootSearch) scoreOf(m core.Move) int {
	for i, x := range r.moves {
		if x == m {
			return r.scores[i]
		}
	}
	return 0
}

// winsNow reports whether the side to move in g has a move that wins at
// once (see core's HasWinningMove, which generates only the moves that
// could), with list as scratch space.
func winsNow(g *core.Game, list *core.MoveList) bool { return g.HasWinningMove(list) }

// winFor returns the result of a game won by c.
func winFor(c core.Color) core.Result {
	if c == core.White {
		return core.WhiteWins
	}
	return core.BlackWins
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Package engine is the contract between the front ends of hivebridge (a
// UHP viewer, a Hub GUI, a Choose-Turn game controller, the referee) and
// whatever chooses the moves behind them (the native searcher, or another
// engine reached through a bridge). It knows no protocol: each protocol
// package writes these values in its own words, so that any front end can
// show what any engine reports.
package engine

import (
	"context"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// Searcher is what a front-end session needs from whoever chooses its moves.
type Searcher interface {
	// BestMove returns a legal move of g, which it must leave as it found
	// it, searching within limit. It calls report, if not nil, on the
	// caller's goroutine or another, one call at a time and none after
	// BestMove returns, with each Progress of the search: each completed
	// iteration and each change of the best move, as far as the searcher
	// reports them. It stops early when ctx is done.
	BestMove(ctx context.Context, g *core.Game, limit Limit, report func(Progress)) (core.Move, error)
}

// Forgetter is a Searcher that learns between searches (a transposition
// table, history counters) and can forget it. Front ends call Forget when
// a new game starts (UHP newgame, Hub new-game), so that a game never
// depends on what came before it, and a searcher that keeps nothing need
// not implement it.
type Forgetter interface {
	Forget(ctx context.Context) error
}

// Forget tells s to forget what it learnt, if it learns anything.
func Forget(ctx context.Context, s Searcher) error {
	if f, ok := s.(Forgetter); ok {
		return f.Forget(ctx)
	}
	return nil
}

// Limit bounds a search: a depth in plies, a time, or both (zero means
// unbounded). The zero Limit, neither, is infinite analysis: the search
// runs, reporting as it deepens, until its context is cancelled, and then
// returns its best move; a searcher may end it sooner when deeper search
// cannot change its answer (a forced result, a lone legal move), and a
// backend that cannot be stopped and keep its answer is given what its
// protocol allows instead.
type Limit struct {
	Depth int
	Time  time.Duration
}

// Infinite reports whether l bounds nothing: infinite analysis.
func (l Limit) Infinite() bool { return l.Depth <= 0 && l.Time <= 0 }

// Info is what an engine says of itself.
type Info struct {
	// ID is its name and version.
	ID string
	// Expansions are the expansion bugs it plays: an engine that declares
	// none plays the base game only.
	Expansions core.GameType
}

// Progress is a report of a search in progress: what the search knows so
// far. Fields an engine does not report are zero.
type Progress struct {
	// Move is the best move so far.
	Move core.Move
	// Depth is the depth in plies of the iteration that found Move, and
	// SelDepth the deepest ply any line reached, where known.
	Depth, SelDepth int
	// Score is Move's worth to the side to move.
	Score Score
	// Nodes is how many positions the search has visited, and NPS how
	// many it visits a second.
	Nodes, NPS uint64
	// Elapsed is the time since the search started.
	Elapsed time.Duration
	// PV is the principal variation, the line the search expects: it
	// starts with Move when known.
	PV []core.Move
	// MultiPV is which of the search's best lines this report is, from 1
	// for the best, when the engine was asked for several (a MultiPV
	// option or parameter above 1): each line comes as a report of its
	// own, with its move, score and PV, and the same depth, nodes and time
	// as the others of its iteration. 0 is a search of one line. A line
	// after the first is no best move so far: see Best. hivebridge's own
	// searcher reports the lines of each iteration from the last to the
	// first, so that its last report is always the best line, as a front
	// end that knows nothing of MultiPV takes it.
	MultiPV int
}

// Best reports whether p is the search's best line, its best move so far:
// the report of a single-PV search, or line 1 of several.
func (p Progress) Best() bool { return p.MultiPV <= 1 }

// ScoreKind tells an evaluation from a forced result.
type ScoreKind uint8

// The kinds of score.
const (
	// NoScore: the engine reported none.
	NoScore ScoreKind = iota
	// Eval: an estimate, in Centi.
	Eval
	// Win and Loss: a forced result for the side to move, in Plies plies
	// (0 when the engine said the result is forced but not how far).
	Win
	Loss
)

// Score is a position's worth to the side to move. Evaluations are in
// hundredths of a piece's worth (hivebridge's own unit; other engines'
// units pass through unchanged), so that protocols which print pieces with
// two decimals lose nothing.
type Score struct {
	Kind  ScoreKind
	Centi int
	Plies int
}

// EvalScore is an evaluation of centi hundredths.
func EvalScore(centi int) Score { return Score{Kind: Eval, Centi: centi} }

// WinIn is a forced win for the side to move in plies plies.
func WinIn(plies int) Score { return Score{Kind: Win, Plies: plies} }

// LossIn is a forced loss for the side to move in plies plies.
func LossIn(plies int) Score { return Score{Kind: Loss, Plies: plies} }

// ForcedScoreBase is the number from which protocols that carry scores as
// plain numbers count down the plies of a forced result: a win in N plies is
// ForcedScoreBase-N pieces, a loss -(ForcedScoreBase-N), as the Hub dialect
// for Hive specifies, so that a reader expecting a number always gets one
// and a shorter win always reads higher. No evaluation comes near it.
const ForcedScoreBase = 1000

// Pieces returns the score as a number of pieces: an evaluation in pieces,
// a forced result as ForcedScoreBase minus its plies (see there).
func (s Score) Pieces() float64 {
	switch s.Kind {
	case Win:
		return float64(ForcedScoreBase - s.Plies)
	case Loss:
		return -float64(ForcedScoreBase - s.Plies)
	}
	return float64(s.Centi) / 100
}

// Error is an error that is a constant: the sentinel errors of hivebridge's
// packages (UHP's "Invalid command...", the JSON framing's, the pool's)
// are constants of this one type rather than variables, so that nothing
// can reassign them, and errors.Is compares them by their text.
type Error string

func (e Error) Error() string { return string(e) }

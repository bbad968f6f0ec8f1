package translate

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync/atomic"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Native is the Engine of hivebridge's own searcher: it plays every game
// type and runs in the process, so it never hangs nor crashes apart from it.
type Native struct {
	s       *ai.Searcher
	game    *core.Game
	options []*engine.Option
	// multiPV is the MultiPV option's value: atomic, since a pool's
	// sessions may set an option while another's search starts.
	multiPV atomic.Int32
}

// DefaultHashMB is the size of the native searcher's table by default.
const DefaultHashMB = 64

// maxMultiPV bounds the MultiPV option: more lines than almost any
// position has legal moves (a search asked for more gives them all).
const maxMultiPV = 256

// DefaultEval is the native engine's static evaluation by default: the
// learned network, which played stronger than the linear evaluation in
// matches (docs/strength.md). The ai package's own default (ai.New) stays
// linear, since the search-tree pin test (ai/tree_test.go) guards the
// search with it; the engine plays the stronger evaluation.
const DefaultEval = ai.EvalNNUE

// NewSearcher returns a searcher of threads with a table of hashMB and
// the native engine's evaluation (DefaultEval): the native engine's, and
// any other that plays as it does (the bot's quick moves).
func NewSearcher(threads, hashMB int) *ai.Searcher {
	s := ai.New(threads, hashMB)
	if err := s.SetEval(DefaultEval); err != nil {
		panic("translate: the native engine's default evaluation: " + err.Error())
	}
	return s
}

// NewNative returns the native engine with one thread, the default table
// size, the default evaluation (DefaultEval) and one line.
func NewNative() *Native {
	n := &Native{s: NewSearcher(1, DefaultHashMB)}
	n.multiPV.Store(1)
	n.options = []*engine.Option{
		{Name: "Threads", Type: engine.IntOption, Default: "1", Min: "1", Max: strconv.Itoa(max(64, runtime.NumCPU())), Apply: func(v string) error {
			t, _ := strconv.Atoi(v)
			n.s.SetThreads(t)
			return nil
		}},
		{Name: "HashMB", Type: engine.IntOption, Default: strconv.Itoa(DefaultHashMB), Min: "1", Max: "4096", Apply: func(v string) error {
			mb, _ := strconv.Atoi(v)
			n.s.SetHashMB(mb)
			return nil
		}},
		// Eval chooses the static evaluation: the learned network the
		// binary carries (issue 28), the default, or the hand-tuned
		// linear one, kept to compare the two in matches and because
		// the search-tree pin test (ai/tree_test.go) pins its tree.
		{Name: "Eval", Type: engine.EnumOption, Default: DefaultEval, Choices: []string{ai.EvalLinear, ai.EvalNNUE}, Apply: func(v string) error {
			return n.s.SetEval(v)
		}},
		// MultiPV, as UCI engines call it: the best N moves, each
		// with its score and line (a second table of HashMB holds the
		// lines after the first).
		{Name: "MultiPV", Type: engine.IntOption, Default: "1", Min: "1", Max: strconv.Itoa(maxMultiPV), Apply: func(v string) error {
			k, _ := strconv.Atoi(v)
			n.multiPV.Store(int32(k))
			return nil
		}},
	}
	return n
}

// Info says the native engine plays every expansion.
func (n *Native) Info() engine.Info {
	return engine.Info{ID: "hivebridge native", Expansions: core.AllExpansions}
}

// Options are Threads, HashMB, Eval and MultiPV.
func (n *Native) Options() []*engine.Option { return n.options }

// NewGame copies g into the game the engine holds.
func (n *Native) NewGame(_ context.Context, g *core.Game) error {
	n.game = g.CopyTo(n.game)
	return nil
}

// Play plays m, which must be legal.
func (n *Native) Play(_ context.Context, m core.Move) error {
	return play(n.game, m)
}

// Undo takes back n moves.
func (n *Native) Undo(_ context.Context, k int) error {
	return undo(n.game, k)
}

// BestMove searches the game, reporting each completed iteration and each
// change of the best move with its depth, score, nodes and line; with
// MultiPV above 1, each completed iteration's lines, from the last to the
// first (see engine.Progress.MultiPV). The zero limit searches until ctx
// is cancelled.
func (n *Native) BestMove(ctx context.Context, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	if n.game == nil {
		return core.NoMove, errNoGame
	}
	var progress func(ai.Info)
	if report != nil {
		progress = func(info ai.Info) {
			for k := len(info.Lines) - 1; k >= 0; k-- {
				report(LineProgress(info, k))
			}
			if info.Lines == nil {
				report(ProgressOf(info))
			}
		}
	}
	lim := ai.Limits{Depth: limit.Depth, Time: limit.Time, MultiPV: int(n.multiPV.Load())}
	info := n.s.Search(ctx, n.game, lim, progress)
	if info.Move == core.NoMove {
		return core.NoMove, errors.New("The game is over: there is no move to search.")
	}
	return info.Move, nil
}

// Forget empties the searcher's table and history.
func (n *Native) Forget(context.Context) error {
	n.s.Clear()
	return nil
}

// ProgressOf turns the native searcher's report into the contract's.
func ProgressOf(info ai.Info) engine.Progress {
	p := engine.Progress{
		Move:     info.Move,
		Depth:    info.Depth,
		SelDepth: info.SelDepth,
		Score:    scoreOf(info.Score),
		Nodes:    info.Nodes,
		Elapsed:  info.Elapsed,
		PV:       info.PV,
	}
	if info.Elapsed > 0 {
		p.NPS = uint64(float64(info.Nodes) / info.Elapsed.Seconds())
	}
	return p
}

// LineProgress turns line k (from 0) of a MultiPV report of the native
// searcher into the contract's report of that line, numbered from 1.
func LineProgress(info ai.Info, k int) engine.Progress {
	p := ProgressOf(info)
	line := info.Lines[k]
	p.Move, p.Score, p.PV, p.MultiPV = line.Move, scoreOf(line.Score), line.PV, k+1
	return p
}

// scoreOf turns the native searcher's score into the contract's.
func scoreOf(score int) engine.Score {
	switch {
	case score >= ai.MateScore-ai.MaxPly:
		return engine.WinIn(ai.MateScore - score)
	case score <= -(ai.MateScore - ai.MaxPly):
		return engine.LossIn(ai.MateScore + score)
	}
	return engine.EvalScore(score)
}

// Close does nothing: the native engine holds no outside resource.
func (n *Native) Close() error { return nil }

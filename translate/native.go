package translate

import (
	"context"
	"errors"
	"runtime"
	"strconv"

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
}

// defaultHashMB is the size of the native searcher's table by default.
const defaultHashMB = 64

// NewNative returns the native engine with one thread and the default
// table size.
func NewNative() *Native {
	n := &Native{s: ai.New(1, defaultHashMB)}
	n.options = []*engine.Option{
		{Name: "Threads", Type: engine.IntOption, Default: "1", Min: "1", Max: strconv.Itoa(max(64, runtime.NumCPU())), Apply: func(v string) error {
			t, _ := strconv.Atoi(v)
			n.s.SetThreads(t)
			return nil
		}},
		{Name: "HashMB", Type: engine.IntOption, Default: strconv.Itoa(defaultHashMB), Min: "1", Max: "4096", Apply: func(v string) error {
			mb, _ := strconv.Atoi(v)
			n.s.SetHashMB(mb)
			return nil
		}},
	}
	return n
}

// Info says the native engine plays every expansion.
func (n *Native) Info() engine.Info {
	return engine.Info{ID: "hivebridge native", Expansions: core.AllExpansions}
}

// Options are Threads and HashMB.
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
// change of the best move with its depth, score, nodes and line.
func (n *Native) BestMove(ctx context.Context, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	if n.game == nil {
		return core.NoMove, errNoGame
	}
	var progress func(ai.Info)
	if report != nil {
		progress = func(info ai.Info) { report(ProgressOf(info)) }
	}
	info := n.s.Search(ctx, n.game, ai.Limits{Depth: limit.Depth, Time: limit.Time}, progress)
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
		Nodes:    info.Nodes,
		Elapsed:  info.Elapsed,
		PV:       info.PV,
	}
	switch {
	case info.Score >= ai.MateScore-ai.MaxPly:
		p.Score = engine.WinIn(ai.MateScore - info.Score)
	case info.Score <= -(ai.MateScore - ai.MaxPly):
		p.Score = engine.LossIn(ai.MateScore + info.Score)
	default:
		p.Score = engine.EvalScore(info.Score)
	}
	if info.Elapsed > 0 {
		p.NPS = uint64(float64(info.Nodes) / info.Elapsed.Seconds())
	}
	return p
}

// Close does nothing: the native engine holds no outside resource.
func (n *Native) Close() error { return nil }

package translate

import (
	"context"
	"errors"
	"runtime"
	"strconv"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Native is the Engine of hivebridge's own searcher: it plays every game
// type and runs in the process, so it never hangs nor crashes apart from it.
type Native struct {
	s       *ai.Searcher
	game    *core.Game
	options []*uhp.Option
}

// defaultHashMB is the size of the native searcher's table by default.
const defaultHashMB = 64

// NewNative returns the native engine with one thread and the default
// table size.
func NewNative() *Native {
	n := &Native{s: ai.New(1, defaultHashMB)}
	n.options = []*uhp.Option{
		{Name: "Threads", Type: uhp.IntOption, Default: "1", Min: "1", Max: strconv.Itoa(max(64, runtime.NumCPU())), Apply: func(v string) error {
			t, _ := strconv.Atoi(v)
			n.s.SetThreads(t)
			return nil
		}},
		{Name: "HashMB", Type: uhp.IntOption, Default: strconv.Itoa(defaultHashMB), Min: "1", Max: "4096", Apply: func(v string) error {
			mb, _ := strconv.Atoi(v)
			n.s.SetHashMB(mb)
			return nil
		}},
	}
	return n
}

// Info says the native engine plays every expansion.
func (n *Native) Info() uhp.EngineInfo {
	return uhp.EngineInfo{ID: "hivebridge native", Expansions: core.AllExpansions}
}

// Options are Threads and HashMB.
func (n *Native) Options() []*uhp.Option { return n.options }

// NewGame copies g.
func (n *Native) NewGame(_ context.Context, g *core.Game) error {
	n.game = g.Clone()
	return nil
}

// Play plays m, which must be legal.
func (n *Native) Play(_ context.Context, m core.Move) error {
	if n.game == nil {
		return errNoGame
	}
	return n.game.PlayChecked(m)
}

// Undo takes back n moves.
func (n *Native) Undo(_ context.Context, k int) error {
	if n.game == nil {
		return errNoGame
	}
	return undo(n.game, k)
}

// BestMove searches the game.
func (n *Native) BestMove(ctx context.Context, limit uhp.Limit, report func(core.Move)) (core.Move, error) {
	if n.game == nil {
		return core.NoMove, errNoGame
	}
	var progress func(ai.Info)
	if report != nil {
		progress = func(info ai.Info) { report(info.Move) }
	}
	info := n.s.Search(ctx, n.game, ai.Limits{Depth: limit.Depth, Time: limit.Time}, progress)
	if info.Move == core.NoMove {
		return core.NoMove, errors.New("The game is over: there is no move to search.")
	}
	return info.Move, nil
}

// Close does nothing: the native engine holds no outside resource.
func (n *Native) Close() error { return nil }

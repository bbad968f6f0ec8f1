package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate"
)

// nativeHashMB is the table of a game's native engine unless the account's
// options set one: a bot holds many games at once, each with its own.
const nativeHashMB = 16

// errTooLittleTime is a backend that cannot be told the move's time: a UHP
// engine is told whole seconds, at least one, and cannot be stopped and
// still answer, so a move with less than a second is the native searcher's.
// It is no failure of the engine's, which is kept.
const errTooLittleTime = engine.Error("the backend cannot be told less than a second")

// errStarting is a backend still starting when the move must be chosen:
// the native searcher moves, and the engine is the game's once it has
// started. It is no failure of the engine's.
const errStarting = engine.Error("the backend is still starting")

// opened is an engine opened in the background, or why it could not be.
type opened struct {
	eng translate.Engine
	err error
}

// startOpening opens the game's engine in the background: when the game is
// taken up, and again after the engine failed, so that an engine program's
// start (seconds, for some) is not taken from a move's time.
func (a *account) startOpening(ctx context.Context, gs *gameState) {
	ch := make(chan opened, 1)
	gs.opening = ch
	log := gs.log
	a.b.inBackground(func() {
		eng, err := a.open(ctx, log)
		ch <- opened{eng, err}
	})
}

// engineFor is the game's engine by the deadline by: the one it has, or the
// one being opened, if it has started by then. An engine that could not be
// opened is opened again at the next turn.
func (a *account) engineFor(ctx context.Context, gs *gameState, by time.Time) (translate.Engine, error) {
	if gs.engine != nil {
		return gs.engine, nil
	}
	if gs.opening == nil {
		a.startOpening(ctx, gs)
	}
	t := time.NewTimer(time.Until(by))
	defer t.Stop()
	select {
	case o := <-gs.opening:
		gs.opening = nil
		if o.err != nil {
			return nil, fmt.Errorf("opening the engine: %w", o.err)
		}
		gs.engine, gs.inStep = o.eng, false
		return o.eng, nil
	case <-t.C:
		return nil, errStarting
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// answer is what a search of a game's engine gave.
type answer struct {
	m   core.Move
	err error
}

// ask asks the game's engine for its move by p.engineBy. The search runs
// in a goroutine of its own, which the turn waits for until then (and a
// little more, for an engine that stops on its deadline to answer): an
// engine that misses it is abandoned to that goroutine, which closes it
// once it returns, however long that takes. An engine that fails is closed
// too. Either way another is opened at once for the game's next turn: a
// crashed or hung backend is started afresh.
func (a *account) ask(ctx context.Context, gs *gameState, p plan) (core.Move, error) {
	eng, err := a.engineFor(ctx, gs, p.engineBy)
	if err != nil {
		return core.NoMove, err
	}
	if !translate.Interruptible(eng) && p.limit.Time < time.Second {
		return core.NoMove, errTooLittleTime
	}
	inStep := gs.inStep
	gs.engine, gs.inStep = nil, false
	g := gs.game.Clone()
	answers := make(chan answer, 1)
	var mu sync.Mutex
	abandoned := false
	ectx, cancel := context.WithDeadline(ctx, p.engineBy)
	a.b.inBackground(func() {
		defer cancel()
		ans := think(ectx, eng, inStep, g, p.limit)
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			eng.Close()
			return
		}
		answers <- ans
	})
	// Past its deadline, an interruptible engine answers with its best
	// move so far at once; the quick move has FallbackTime after it.
	timer := time.NewTimer(time.Until(p.engineBy) + a.b.cfg.FallbackTime/4)
	defer timer.Stop()
	var ans answer
	got := false
	select {
	case ans = <-answers:
		got = true
	case <-timer.C:
	case <-ctx.Done():
	}
	if !got {
		mu.Lock()
		select {
		case ans = <-answers:
			got = true
		default:
			abandoned = true
		}
		mu.Unlock()
	}
	switch {
	case !got:
		err = fmt.Errorf("the engine did not answer by its deadline, %s after the turn was seen", p.engineBy.Sub(p.seen).Round(time.Millisecond))
	case ans.err != nil:
		err = ans.err
		a.retireEngine(eng)
	default:
		gs.engine, gs.inStep = eng, true
		return ans.m, nil
	}
	if ctx.Err() == nil {
		a.b.m.restarts.WithLabelValues(a.cfg.Name).Inc()
		a.startOpening(ctx, gs)
	}
	return core.NoMove, err
}

// think gives eng the game g if its own is not g already, and asks it for
// a move within limit.
func think(ctx context.Context, eng translate.Engine, inStep bool, g *core.Game, limit engine.Limit) answer {
	if !inStep {
		if err := eng.NewGame(ctx, g); err != nil {
			return answer{err: fmt.Errorf("newgame: %w", err)}
		}
	}
	m, err := eng.BestMove(ctx, limit, nil)
	if err == nil && !g.Legal(m) {
		err = fmt.Errorf("the engine answered %v, which is not a legal move", m)
	}
	if err != nil {
		return answer{err: fmt.Errorf("bestmove: %w", err)}
	}
	return answer{m: m}
}

// open starts an engine from the account's backend spec and options; a
// native engine gets a table of nativeHashMB unless they set one.
func (a *account) open(ctx context.Context, log zerolog.Logger) (translate.Engine, error) {
	options := a.cfg.EngineOptions
	if sp, _ := translate.ParseSpec(a.cfg.Backend); sp.Kind == "native" && !slices.ContainsFunc(options, func(o string) bool {
		return strings.HasPrefix(strings.ToLower(o), "hashmb=")
	}) {
		options = append([]string{fmt.Sprintf("HashMB=%d", nativeHashMB)}, options...)
	}
	return a.b.deps.Open(ctx, a.cfg.Backend, translate.Config{
		Log:           log,
		Timeouts:      a.b.cfg.Timeouts,
		EngineOptions: options,
		OnRestart:     func() { a.b.m.restarts.WithLabelValues(a.cfg.Name).Inc() },
	})
}

// retire closes a game's engine, and the one being opened, in the
// background: closing a process waits for it to exit.
func (a *account) retire(gs *gameState) {
	a.retireEngine(gs.engine)
	if ch := gs.opening; ch != nil {
		a.b.inBackground(func() {
			if o := <-ch; o.eng != nil {
				o.eng.Close()
			}
		})
	}
	gs.engine, gs.inStep, gs.opening = nil, false, nil
}

func (a *account) retireEngine(e translate.Engine) {
	if e != nil {
		a.b.inBackground(func() { e.Close() })
	}
}

// quickMove is the native searcher's move in g by the deadline by (and
// within depth plies, if not zero), avoiding the moves in refused (those
// the site refused in this position); NoMove when there is none the site
// would take (only a pass, which the site never takes, or every move
// refused). It searches with a table of its own, the smallest, so that
// the quick moves of many games at once neither wait for each other nor
// hold memory, and with the native engine's evaluation
// (translate.NewSearcher), the stronger.
func quickMove(ctx context.Context, g *core.Game, by time.Time, depth int, refused []core.Move) core.Move {
	qctx, cancel := context.WithDeadline(ctx, by)
	defer cancel()
	limit := ai.Limits{Depth: depth, Time: max(time.Until(by), time.Millisecond)}
	m := translate.NewSearcher(1, 1).Search(qctx, g.Clone(), limit, nil).Move
	if m != core.NoMove && m != core.Pass && !slices.Contains(refused, m) {
		return m
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	for i := range l.Len() {
		if m := l.At(i); m != core.Pass && !slices.Contains(refused, m) {
			return m
		}
	}
	return core.NoMove
}

// Package translate connects front ends to backends: the Engine interface
// that every backend satisfies (the native searcher, a UHP or Hub engine
// process, and a Choose-Turn JSON AI module), the registry that opens a
// backend from its spec, and the supervision of engine processes.
package translate

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Engine is what a front-end session needs from a backend. The session
// keeps the authoritative game and tells the engine about it; the engine
// thinks about its own copy. Every method that may wait on another process
// takes a context and returns when it ends.
type Engine interface {
	// Info describes the engine: its name and the expansions it plays.
	Info() engine.Info
	// Options are the engine's own options; setting one applies it to
	// the engine.
	Options() []*engine.Option
	// NewGame makes the engine's game a copy of g, a new game or any
	// position reached by play, or a game set up from a position
	// (core.NewGameAt), which a UHP engine cannot be given: its BestMove
	// then fails with uhp.ErrSetUp.
	NewGame(ctx context.Context, g *core.Game) error
	// Play plays a legal move of the engine's game.
	Play(ctx context.Context, m core.Move) error
	// Undo takes back the last n moves of the engine's game.
	Undo(ctx context.Context, n int) error
	// BestMove asks for a move of the engine's game within limit, calling
	// report (if not nil) with each report of the search's progress that
	// the engine gives, one call at a time: its best move so far, and
	// whatever of depth, score, nodes and line it says. The move returned
	// is legal: a backend that answers anything else gives an error
	// instead.
	BestMove(ctx context.Context, limit engine.Limit, report func(engine.Progress)) (core.Move, error)
	// Forget makes the engine forget what it learnt from earlier searches
	// (its transposition table), as at the start of a new game: now, or
	// at its next search, where the protocol says so with the game.
	Forget(ctx context.Context) error
	// Close stops the engine and frees what it holds.
	Close() error
}

// StateReporter is an Engine whose backend states its own verdict of its
// game, by its own rules: a UHP engine answers play, undo and newgame with
// its GameString, whose state says whether the game goes on and how it
// ended. Engines can count a draw differently from hivebridge (whether a
// repetition draws at all, and what makes two positions the same), and one
// that thinks its game over may fail when asked for a move anyway, so a
// referee compares verdicts after every move rather than learn of the
// difference from a crash. The other backends state none: a Hub engine's
// answers carry moves and search information only, a Choose-Turn JSON
// module is sent the game state and answers with a turn, and the native
// searcher plays by hivebridge's own rules.
type StateReporter interface {
	// SyncState brings the engine's game in step with the session's now,
	// rather than at the next search, and returns the engine's verdict
	// of it; stated is false when its answer stated none hivebridge
	// could read. An engine that cannot be brought in step gives an
	// error.
	SyncState(ctx context.Context) (verdict core.Result, stated bool, err error)
}

// errNoGame is returned by an engine asked to play or think with no game.
const errNoGame engine.Error = "the engine has no game: NewGame comes first"

// searchable says why a backend cannot search g, the game it keeps: no
// game before NewGame, or a game that is over; nil when it can.
func searchable(g *core.Game) error {
	if g == nil {
		return errNoGame
	}
	if g.Over() {
		return errors.New("The game is over: there is no move to search.")
	}
	return nil
}

// play plays m on g, the game a backend keeps, once checked against the
// rules; before NewGame has given the backend a game (g nil) it is
// errNoGame.
func play(g *core.Game, m core.Move) error {
	if g == nil {
		return errNoGame
	}
	return g.PlayChecked(m)
}

// undo takes back the last n moves of g, or none if it has fewer; before
// NewGame has given the backend a game (g nil) it is errNoGame.
func undo(g *core.Game, n int) error {
	if g == nil {
		return errNoGame
	}
	if n < 0 || n > g.MovesPlayed() {
		return engine.Error("cannot undo more moves than were played")
	}
	for range n {
		g.Undo()
	}
	return nil
}

// Interruptible reports whether e, when the context of its BestMove is
// cancelled, returns the best move it has found so far rather than an
// error: the native searcher does, and so does a Hub engine, which answers
// stop with done. A UHP engine process does not (UHP has no way to stop a
// search and keep the engine), and a front end must answer for it.
func Interruptible(e Engine) bool {
	switch e.(type) {
	case *Native, *HubProcess:
		return true
	}
	return false
}

// SearcherOf adapts an Engine to what a front-end session needs (an
// engine.Searcher): each search starts by handing the engine the session's
// current game, and a new game of the session makes the engine forget the
// last.
func SearcherOf(e Engine) engine.Searcher { return searcher{e} }

type searcher struct{ e Engine }

func (s searcher) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	if err := s.e.NewGame(ctx, g); err != nil {
		return core.NoMove, err
	}
	return s.e.BestMove(ctx, limit, report)
}

func (s searcher) Forget(ctx context.Context) error { return s.e.Forget(ctx) }

// keptGame is the game a backend keeps for its engine, under the lock of
// its exchanges with the engine: the session's Play and Undo change it, and
// the next search sends it. The UHP and Hub processes (through wanted) and
// the JSON AI module keep theirs alike.
type keptGame struct {
	mu   sync.Mutex // one exchange with the engine at a time
	game *core.Game // nil until NewGame
}

// Play plays a move of the engine's game; it is sent at the next search.
func (k *keptGame) Play(_ context.Context, m core.Move) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return play(k.game, m)
}

// Undo takes back moves of the engine's game; sent at the next search.
func (k *keptGame) Undo(_ context.Context, n int) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return undo(k.game, n)
}

// wanted is the game a backend process should think about, for the
// backends that bring their engine in step only when asked for a move: the
// session's NewGame, Play and Undo change it, under the backend's lock, and
// the next search sends it. It also keeps what the engine said of itself.
type wanted struct {
	keptGame
	info engine.Info
}

// Info is what the engine said of itself.
func (w *wanted) Info() engine.Info {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.info
}

// NewGame sets the game the engine should have; it is sent at the next
// search.
func (w *wanted) NewGame(_ context.Context, g *core.Game) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if g.Type()&^w.info.Expansions != 0 {
		return fmt.Errorf("engine %s does not support %s games", w.info.ID, uhp.FormatGameType(g.Type()))
	}
	w.game = g.Clone()
	return nil
}

// isPrefix reports whether the moves a start the moves b.
func isPrefix(a, b []core.Move) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// related reports whether one history starts the other: the same game,
// with moves played or taken back since.
func related(a, b []core.Move) bool { return isPrefix(a, b) || isPrefix(b, a) }

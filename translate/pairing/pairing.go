// Package pairing pairs the viewers who start remote games, two by two,
// so that people play each other through hivebridge: on one daemon
// (Local), or across every daemon of a PostgreSQL archive (package
// pgpair). A daemon holds either behind the one interface Pairing.
package pairing

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Pairing pairs the viewers of a daemon.
type Pairing interface {
	// Match implements uhp.Matchmaker.
	Match(ctx context.Context, t core.GameType, want core.Color, named bool) (uhp.Opponent, core.Color, error)
	// Health says what keeps the pairing from working now, "" when
	// nothing does.
	Health() string
	// Close stops it.
	Close()
}

// Local matches the viewers of one daemon: each viewer's play returns the
// other's reply, as in the remote-play proposal. A viewer who finds nobody
// within the wait plays the backend instead.
type Local struct {
	wait     time.Duration // how long a viewer waits for a partner
	moveWait time.Duration // how long a player may think

	mu    sync.Mutex
	queue []*request
}

// request is a viewer waiting for a partner.
type request struct {
	gameType core.GameType
	color    core.Color
	named    bool
	matched  chan *seat // receives the viewer's seat once paired
}

// NewLocal returns a matchmaker whose viewers wait up to wait for a
// partner, and whose players may think up to moveWait per move.
func NewLocal(wait, moveWait time.Duration) *Local {
	return &Local{wait: wait, moveWait: moveWait}
}

// Health implements Pairing: a local pairing has nothing that can fail.
func (p *Local) Health() string { return "" }

// Close implements Pairing: the tables end with their sessions.
func (p *Local) Close() {}

// table is one game between two people.
type table struct {
	once sync.Once
	left chan struct{} // closed when either player leaves
	why  SeatError
}

func (t *table) leave(who core.Color, why uhp.Leaving) {
	t.once.Do(func() {
		t.why = SeatError{Msg: who.String() + " " + why.Reason, How: why.How}
		close(t.left)
	})
}

// SeatError is why a player's opponent has no move for them: it left, or
// its time ran out. It says how that ends the game, for the archive.
type SeatError struct{ Msg, How string }

func (e SeatError) Error() string    { return e.Msg }
func (e SeatError) HowEnded() string { return e.How }

// seat is one player's side of a table: its opponent's moves arrive in
// inbox, its own go to the other seat's inbox.
type seat struct {
	table    *table
	color    core.Color
	inbox    chan core.Move
	other    *seat
	moveWait time.Duration
}

// Match implements uhp.Matchmaker.
func (p *Local) Match(ctx context.Context, t core.GameType, want core.Color, named bool) (uhp.Opponent, core.Color, error) {
	p.mu.Lock()
	for i, r := range p.queue {
		if r.gameType != t || (named && r.named && r.color == want) {
			continue
		}
		p.queue = append(p.queue[:i], p.queue[i+1:]...)
		p.mu.Unlock()
		color := r.color.Other()
		tab := &table{left: make(chan struct{})}
		mine := &seat{table: tab, color: color, inbox: make(chan core.Move, 1), moveWait: p.moveWait}
		theirs := &seat{table: tab, color: r.color, inbox: make(chan core.Move, 1), moveWait: p.moveWait}
		mine.other, theirs.other = theirs, mine
		r.matched <- theirs
		return mine, color, nil
	}
	r := &request{gameType: t, color: want, named: named, matched: make(chan *seat, 1)}
	p.queue = append(p.queue, r)
	p.mu.Unlock()

	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case s := <-r.matched:
		return s, s.color, nil
	case <-timer.C:
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, q := range p.queue {
		if q == r {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			if ctx.Err() != nil {
				return nil, want, ctx.Err()
			}
			return nil, want, nil // nobody came: the backend plays
		}
	}
	s := <-r.matched // paired just as the wait ended
	return s, s.color, nil
}

// BestMove waits for the other player's move.
func (s *seat) BestMove(ctx context.Context, _ *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	return AwaitMove(ctx, s.inbox, s.table.left, func() error { return s.table.why }, s.color.Other(), s.moveWait)
}

// AwaitMove is a seat's BestMove, on one daemon or across several
// (pgpair): it waits up to wait for the move of the other player, them,
// on inbox. Once left is closed the table is over, and why says why,
// unless their last move came before they left; a player that does not
// move in time loses the table with a SeatError of How "timeout".
func AwaitMove(ctx context.Context, inbox <-chan core.Move, left <-chan struct{}, why func() error, them core.Color, wait time.Duration) (core.Move, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case m := <-inbox:
		return m, nil
	case <-left:
		select {
		case m := <-inbox: // their last move came before they left
			return m, nil
		default:
		}
		return core.NoMove, why()
	case <-timer.C:
		return core.NoMove, SeatError{Msg: fmt.Sprintf("%s did not move within %s", them, wait), How: "timeout"}
	case <-ctx.Done():
		return core.NoMove, ctx.Err()
	}
}

// Moved passes this player's move to the other.
func (s *seat) Moved(m core.Move) {
	select {
	case s.other.inbox <- m:
	default: // the other has not taken the last one: it has left
	}
}

// KeptElsewhere says that White's session records the game, so that it is
// archived once.
func (s *seat) KeptElsewhere() bool { return s.color == core.Black }

// Leave ends the table for both players.
func (s *seat) Leave(why uhp.Leaving) { s.table.leave(s.color, why) }

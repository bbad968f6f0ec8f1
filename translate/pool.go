package translate

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Pool shares a limited number of engines among many sessions: a session
// borrows one for the length of a search and gives it back, since a UHP
// engine is brought in step with whatever game it is asked about. When all
// are busy, a search waits in a bounded queue, and only up to a deadline;
// every refusal is an error that says why.
type Pool struct {
	open  func(context.Context) (Engine, error)
	limit int           // engines at most
	queue int           // searches waiting at most
	wait  time.Duration // how long one may wait

	mu      sync.Mutex
	idle    []Engine
	opened  int // engines opened and not closed
	waiting int
	freed   chan struct{} // signalled when an engine comes back
	closed  bool
	busy    sync.WaitGroup // borrowed engines
}

// PoolConfig sizes a Pool.
type PoolConfig struct {
	Limit int           // engines at most (at least 1)
	Queue int           // searches that may wait when all are busy
	Wait  time.Duration // how long a search may wait for an engine
}

// NewPool returns a pool of engines made by open.
func NewPool(open func(context.Context) (Engine, error), cfg PoolConfig) *Pool {
	return &Pool{open: open, limit: max(cfg.Limit, 1), queue: cfg.Queue, wait: cfg.Wait, freed: make(chan struct{}, 1)}
}

// ErrPoolClosed is returned once the pool has been closed.
const ErrPoolClosed engine.Error = "the server is shutting down"

// Acquire borrows an engine, opening one if the limit allows, else
// waiting for one to come back.
func (p *Pool) Acquire(ctx context.Context) (Engine, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrPoolClosed
	}
	if e, ok := p.takeIdle(); ok {
		p.mu.Unlock()
		return e, nil
	}
	if p.opened < p.limit {
		p.opened++
		p.busy.Add(1)
		p.mu.Unlock()
		e, err := p.open(ctx)
		if err != nil {
			p.mu.Lock()
			p.opened--
			p.mu.Unlock()
			p.busy.Done()
			return nil, err
		}
		return e, nil
	}
	if p.waiting >= p.queue {
		p.mu.Unlock()
		return nil, fmt.Errorf("all %d engines are busy and %d searches already wait for one; try again later", p.limit, p.queue)
	}
	p.waiting++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.waiting--
		p.mu.Unlock()
	}()
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	for {
		select {
		case <-p.freed:
		case <-timer.C:
			return nil, fmt.Errorf("no engine came free within %s (all %d are busy); try again later", p.wait, p.limit)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, ErrPoolClosed
		}
		if e, ok := p.takeIdle(); ok {
			more := len(p.idle) > 0
			p.mu.Unlock()
			if more {
				p.signal()
			}
			return e, nil
		}
		p.mu.Unlock()
	}
}

// takeIdle borrows an idle engine, if there is one; p.mu is held.
func (p *Pool) takeIdle() (Engine, bool) {
	n := len(p.idle)
	if n == 0 {
		return nil, false
	}
	e := p.idle[n-1]
	p.idle = p.idle[:n-1]
	p.busy.Add(1)
	return e, true
}

// signal wakes one waiting search, if any.
func (p *Pool) signal() {
	select {
	case p.freed <- struct{}{}:
	default:
	}
}

// Add puts an engine opened elsewhere into the pool, idle; the pool then
// owns it. A server opens its first engine itself to fail fast on a bad
// backend, then hands it over.
func (p *Pool) Add(e Engine) {
	p.mu.Lock()
	p.opened++
	p.idle = append(p.idle, e)
	p.mu.Unlock()
	p.signal()
}

// Release gives an engine back. An engine whose search failed is closed
// rather than kept, in case it is broken beyond its own recovery.
func (p *Pool) Release(e Engine, failed bool) {
	p.mu.Lock()
	if p.closed || failed {
		p.opened--
		p.mu.Unlock()
		e.Close()
		p.busy.Done()
		p.signal()
		return
	}
	p.idle = append(p.idle, e)
	p.mu.Unlock()
	p.busy.Done()
	p.signal()
}

// Close waits for the borrowed engines to come back, up to grace, then
// closes every engine; later Acquires fail.
func (p *Pool) Close(grace time.Duration) {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	done := make(chan struct{})
	go func() {
		p.busy.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
	}
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, e := range idle {
		e.Close()
	}
}

// Stats reports the engines open, idle and the searches waiting.
func (p *Pool) Stats() (open, idle, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opened, len(p.idle), p.waiting
}

// Searcher returns a searcher for one session that borrows an engine from
// the pool for each search.
func (p *Pool) Searcher() engine.Searcher { return pooled{p: p} }

// SessionOptions are the options of the pool's engines that each session
// may set for its own searches, within bounds the operator sets (Threads
// and HashMB, say): each session gets copies of its own (New), and its
// values are applied to every engine it borrows, before its search. A
// value the engine has already is not set again, so sessions that keep the
// pool's values cost nothing.
type SessionOptions struct {
	pool      *Pool
	templates []engine.Option
}

// SessionOptions reads, from e, an engine of the pool that serves no
// session yet, the whole-number options it declares among the names of
// bounds. A session may set each from its minimum up to its bound, or up to
// e's own value if that is higher, so that a session can always keep what
// the pool's engines have; never above what e declares.
func (p *Pool) SessionOptions(e Engine, bounds map[string]int) SessionOptions {
	so := SessionOptions{pool: p}
	for _, o := range e.Options() {
		bound, ok := bounds[o.Name]
		if !ok || o.Type != engine.IntOption {
			continue
		}
		value, _ := strconv.Atoi(o.Value())
		declared, _ := strconv.Atoi(o.Max)
		so.templates = append(so.templates, engine.Option{
			Name: o.Name, Type: engine.IntOption, Default: o.Value(), Min: o.Min,
			Max: strconv.Itoa(min(max(bound, value), declared)),
		})
	}
	return so
}

// New returns one session's options, at the pool's values, and the
// searcher that applies them to the engines it borrows.
func (so SessionOptions) New() (engine.Searcher, []*engine.Option) {
	v := &sessionValues{}
	options := make([]*engine.Option, len(so.templates))
	for i, t := range so.templates {
		o := t
		name := o.Name
		o.Apply = func(value string) error {
			v.mu.Lock()
			defer v.mu.Unlock()
			v.values.set(name, value)
			return nil
		}
		options[i] = &o
		v.values.set(name, o.Default)
	}
	return pooled{p: so.pool, session: v}, options
}

// sessionValues are a session's values of the pool's options: set on the
// session's goroutine, read on its searches'.
type sessionValues struct {
	mu     sync.Mutex
	values settings
}

// applyTo sets the session's values on e, where they differ.
func (v *sessionValues) applyTo(e Engine) error {
	v.mu.Lock()
	values := append(settings(nil), v.values...)
	v.mu.Unlock()
	for _, s := range values {
		o := findOption(e.Options(), s[0])
		if o == nil || o.Value() == s[1] {
			continue
		}
		if err := o.Set(s[1]); err != nil {
			return fmt.Errorf("engine %s refused the session's %s=%s: %w", e.Info().ID, s[0], s[1], err)
		}
	}
	return nil
}

// pooled is no engine.Forgetter: the pool's engines serve every session's
// games in turn, and one viewer's new game must not throw away what they
// learnt for the others; each search hands the engine its whole game.
type pooled struct {
	p       *Pool
	session *sessionValues // the session's options, or nil
}

func (s pooled) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	e, err := s.p.Acquire(ctx)
	if err != nil {
		return core.NoMove, err
	}
	if s.session != nil {
		if err := s.session.applyTo(e); err != nil {
			s.p.Release(e, false)
			return core.NoMove, err
		}
	}
	if err := e.NewGame(ctx, g); err != nil {
		s.p.Release(e, false)
		return core.NoMove, err
	}
	m, err := e.BestMove(ctx, limit, report)
	s.p.Release(e, err != nil && ctx.Err() == nil)
	return m, err
}

// Acquire borrows an engine of the pool at the pool's values of the
// session options, whatever a session that had it before set (MultiPV 5,
// say): for a caller that drives an engine itself rather than through a
// session's searcher, such as a whole game's analysis. Release gives it
// back to the pool.
func (so SessionOptions) Acquire(ctx context.Context) (Engine, error) {
	e, err := so.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	v := &sessionValues{}
	for _, t := range so.templates {
		v.values.set(t.Name, t.Default)
	}
	if err := v.applyTo(e); err != nil {
		so.pool.Release(e, false)
		return nil, err
	}
	return e, nil
}

package translate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// HubProcess is the Engine of a Hub engine program (docs/specs/hub-v2.txt, in
// the Hive dialect of docs/design/hub-hive.md). It starts the program (never
// through a shell) in a process group of its own and goes through the
// handshake: hub, answered by the engine's id, its param lines and wait,
// then the parameters set with set-param, then init, answered by ready.
// The parameters it declares are its Options; init is sent before the next
// search whenever one has been set since the last, since Hub engines read
// their parameters at init.
//
// Hub has no moves to play one by one: each search sends the whole
// position (pos variant=... moves=...), its limit as a level (a UHP
// bestmove time is move-time=, a depth depth=), and go think. The info
// lines' principal variations are reported as progress, and the done move
// is read in any spelling and checked against the rules.
//
// Every exchange has a deadline, and a cancelled search is stopped with
// stop, which a Hub engine answers with the best move it has: that move is
// returned, so a Hub engine can be interrupted as the native searcher can.
// An engine that does not answer stop within the grace period is sent
// SIGINT, then its whole process group is killed; an engine that hangs or
// dies is started again, its parameters set again. The caller gets an
// error each time and keeps its game.
type HubProcess struct {
	launcher // the program, its configuration and the log
	wanted   // the lock, the engine's info and the game it should search
	proc     *run[*hub.Client]
	options  []*engine.Option
	params   []hub.Param // as the engine declared them
	settings settings    // set-param name and value sent so far, replayed into a new run
	ready    bool        // init answered since the process started and since the last set-param

	searched *core.Game // the last position searched by this run, nil for none
}

// StartHub starts a Hub engine program and goes through its handshake up
// to wait, which declares its parameters; init comes before the first
// search, once Open has set the parameters --engine-option gives.
func StartHub(ctx context.Context, program string, args []string, cfg Config) (*HubProcess, error) {
	p := &HubProcess{launcher: newLauncher(program, args, cfg)}
	if err := p.start(ctx); err != nil {
		return nil, err
	}
	for _, param := range p.params {
		opt, ok := hub.OptionOf(param, p.setParam)
		if !ok {
			p.log.Warn().Str("param", param.Name).Str("type", string(param.Type)).Msg("engine declared a parameter UHP options cannot carry; it keeps its value")
			continue
		}
		p.options = append(p.options, opt)
	}
	return p, nil
}

// start runs the program and reads its answer to hub.
func (p *HubProcess) start(ctx context.Context) error {
	r, err := startRun(p.program, p.args, p.cfg.Log, hub.NewClient)
	if err != nil {
		return err
	}
	p.proc, p.ready, p.searched = r, false, nil
	client := r.client
	wait, cancel := context.WithTimeout(ctx, p.cfg.Timeouts.Start)
	defer cancel()
	var (
		id     hub.ID
		params []hub.Param
		first  string
	)
	if err = client.Send(hub.Hub{}); err == nil {
		// The first line gives away the wrong program: a UHP engine's
		// unprompted info, or a banner of the program's own.
		first, _, err = firstLine(wait, p.cfg.Timeouts.Start, client.LineReader, nil)
	}
	if err == nil {
		if tongueOf(first) != speaksHub {
			p.kill()
			return wrongProgram(p.program, p.args, "hub", first)
		}
		if l, err := hub.Parse(first); err == nil {
			id, _ = hub.ParseID(l)
		}
		_, err = client.Await(wait, hub.CmdWait, func(a hub.Answer) {
			switch m := a.Message.(type) {
			case hub.ID:
				id = m
			case hub.Param:
				params = append(params, m)
			default:
				if a.Err != nil && strings.HasPrefix(a.Text, hub.CmdParam+" ") {
					p.log.Warn().Str("line", a.Text).Err(a.Err).Msg("engine declared a parameter hivebridge cannot read; ignored")
					return
				}
				p.logAnswer(a)
			}
		})
	}
	switch {
	case errors.Is(err, hub.ErrEngineGone) || (err != nil && wait.Err() == nil):
		// Gone, or its input closed already: it exited, whichever came
		// first.
		p.kill()
		return fmt.Errorf("engine %s exited before its answer to hub: it is not a Hub engine, or it failed to start", p.program)
	case err != nil:
		p.kill()
		return fmt.Errorf("engine %s did not start as a Hub engine (no wait answer to hub within %s): %w", p.program, p.cfg.Timeouts.Start, err)
	}
	p.params = params
	p.info = engine.Info{ID: strings.TrimSpace(id.Name + " " + id.Version), Expansions: expansionsOf(params)}
	if p.info.ID == "" {
		p.info.ID = p.program
	}
	p.log = p.cfg.Log.With().Str("engine", p.info.ID).Logger()
	p.log.Info().Int("pid", r.pid()).Str("capabilities", uhp.FormatCapabilities(p.info.Expansions)).Int("params", len(params)).Msg("engine started")
	return nil
}

// expansionsOf reads the expansions a Hub engine plays from its variant
// parameter (hub-hive.md): every bug of every game type among its choices,
// or of its value when it is no enum. An engine without one plays the base
// game only, as a UHP engine that declares no capabilities does.
func expansionsOf(params []hub.Param) core.GameType {
	var t core.GameType
	for _, p := range params {
		if p.Name != hub.ParamVariant {
			continue
		}
		for _, v := range append([]string{p.Value}, p.Values...) {
			if gt, err := uhp.ParseGameType(v); err == nil {
				t |= gt
			}
		}
	}
	return t
}

// logAnswer logs an answer the exchange under way has no use for: Scan, for
// one, prints free text while it initialises.
func (p *HubProcess) logAnswer(a hub.Answer) {
	if e, ok := a.Message.(hub.Error); ok {
		p.log.Warn().Str("message", e.Message).Msg("engine reported an error")
		return
	}
	p.log.Debug().Str("line", a.Text).AnErr("unreadable", a.Err).Msg("engine line ignored")
}

// kill ends the engine's process group and waits for the program to exit.
func (p *HubProcess) kill() {
	if p.proc == nil {
		return
	}
	p.proc.kill()
	p.proc = nil
}

// restart replaces a failed engine with a new run of the program and sets
// its parameters again; init comes at the next search.
func (p *HubProcess) restart(ctx context.Context, why string) error {
	p.restarting(why)
	p.kill()
	if err := p.start(ctx); err != nil {
		return err
	}
	for _, s := range p.settings {
		if err := p.proc.client.Send(hub.SetParam{Name: s[0], Value: s[1]}); err != nil {
			return fmt.Errorf("engine %s exited while its parameters were set again", p.info.ID)
		}
	}
	if len(p.settings) > 0 {
		refused, err := p.ping(ctx)
		if err != nil {
			p.kill()
			return fmt.Errorf("engine %s: %w after its parameters were set again", p.info.ID, err)
		}
		if refused != nil {
			p.log.Warn().Err(refused).Msg("engine refused a parameter after restart")
		}
	}
	return nil
}

// running makes sure a run of the engine is under way, starting it again
// if an earlier failure left none.
func (p *HubProcess) running(ctx context.Context) error {
	if p.proc != nil {
		return nil
	}
	return p.restart(ctx, "the last run failed")
}

// ping sends ping and awaits pong within the command timeout: Hub answers
// nothing to set-param, so this is how an error answer to one is caught.
// refused is the first error the engine printed before pong; err says that
// no pong came, and the run is then of no more use.
func (p *HubProcess) ping(ctx context.Context) (refused, err error) {
	if err := p.proc.client.Send(hub.Ping{}); err != nil {
		return nil, fmt.Errorf("cannot write to it: %w", err)
	}
	wait, cancel := context.WithTimeout(ctx, p.cfg.Timeouts.Command)
	defer cancel()
	_, err = p.proc.client.Await(wait, hub.CmdPong, func(a hub.Answer) {
		if e, ok := a.Message.(hub.Error); ok && refused == nil {
			refused = errors.New(e.Message)
		}
		p.logAnswer(a)
	})
	if err != nil {
		return nil, fmt.Errorf("no answer to ping within %s: %w", p.cfg.Timeouts.Command, err)
	}
	return refused, nil
}

// setParam sets one of the engine's parameters, already checked against
// its declaration by the option that calls it.
func (p *HubProcess) setParam(name, value string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx := context.Background()
	if err := p.running(ctx); err != nil {
		return err
	}
	if err := p.proc.client.Send(hub.SetParam{Name: name, Value: value}); err != nil {
		p.kill()
		return fmt.Errorf("engine %s exited before set-param; it will be started again", p.info.ID)
	}
	refused, err := p.ping(ctx)
	if err != nil {
		p.kill()
		return fmt.Errorf("engine %s: %w after set-param; it will be started again", p.info.ID, err)
	}
	if refused != nil {
		return fmt.Errorf("engine %s refused set-param name=%s value=%s: %v", p.info.ID, name, value, refused)
	}
	p.ready = false
	p.settings.set(name, value)
	return nil
}

// init sends init and awaits ready, unless the engine is ready already.
// Initialising may load large tables, so it has the start timeout.
func (p *HubProcess) init(ctx context.Context) error {
	if err := p.running(ctx); err != nil {
		return err
	}
	if p.ready {
		return nil
	}
	if err := p.proc.client.Send(hub.Init{}); err != nil {
		p.restart(ctx, "cannot write to it: "+err.Error())
		return fmt.Errorf("engine %s exited before init; restarted", p.info.ID)
	}
	wait, cancel := context.WithTimeout(ctx, p.cfg.Timeouts.Start)
	defer cancel()
	_, err := p.proc.client.Await(wait, hub.CmdReady, p.logAnswer)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		// The caller gave up, not the engine: its ready, when it comes, is
		// read and ignored, and init is sent again before the next search.
		return ctx.Err()
	default:
		p.restart(context.WithoutCancel(ctx), "no answer to init")
		return fmt.Errorf("engine %s did not answer init with ready within %s: %w; restarted", p.info.ID, p.cfg.Timeouts.Start, err)
	}
	p.ready = true
	return nil
}

// Options are the parameters the engine declared.
func (p *HubProcess) Options() []*engine.Option { return p.options }

// sameGame reports whether b is the game a went on to, or came back to:
// both start from one position, and one's moves start the other's.
func sameGame(a, b *core.Game) bool {
	if a == nil || a.Type() != b.Type() || a.StartKey() != b.StartKey() {
		return false
	}
	return related(a.History(), b.History())
}

// Forget makes the next search start with new-game, which "clears hash
// tables" in the Hub dialect for Hive.
func (p *HubProcess) Forget(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.searched = nil
	return nil
}

// levelOf turns the limit of a UHP bestmove into Hub's level: bestmove
// time is move-time=, bestmove depth is depth=, both are both (a Hub level
// may combine them), and no limit at all is infinite, stopped when the
// caller cancels.
func levelOf(limit engine.Limit) hub.Level {
	v := hub.Level{Depth: max(limit.Depth, 0), MoveTime: max(limit.Time, 0)}
	if v.Depth == 0 && v.MoveTime == 0 {
		v.Infinite = true
	}
	return v
}

// BestMove sends the position and the limit and asks the engine to think.
// Each info line's principal variation is read in the position and its
// first move reported; the done move is the answer. A cancelled search is
// stopped, and the move the engine answers stop with is returned.
func (p *HubProcess) BestMove(ctx context.Context, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := searchable(p.game); err != nil {
		return core.NoMove, err
	}
	if err := p.init(ctx); err != nil {
		return core.NoMove, err
	}
	pos := p.game.Clone()
	level := levelOf(limit)
	commands := []hub.Message{hub.PosOf(pos), level, hub.Go{Mode: hub.Think}}
	if !sameGame(p.searched, pos) {
		// Not the same game going on: the engine's tables are of no use.
		commands = append([]hub.Message{hub.NewGame{}}, commands...)
	}
	for _, c := range commands {
		if err := p.proc.client.Send(c); err != nil {
			p.restart(context.WithoutCancel(ctx), "cannot write to it: "+err.Error())
			return core.NoMove, fmt.Errorf("engine %s exited before go think; restarted", p.info.ID)
		}
	}
	p.searched = pos
	timeout := p.cfg.Timeouts.Depth
	if limit.Time > 0 {
		timeout = limit.Time + p.cfg.Timeouts.Margin
	}
	done, complaint, err := p.awaitDone(ctx, timeout, level.Infinite, pos, report)
	if err != nil {
		return core.NoMove, err
	}
	m, err := done.Best(pos)
	if err != nil {
		if complaint != "" {
			err = fmt.Errorf("%v (the engine said: %s)", err, complaint)
		}
		return core.NoMove, fmt.Errorf("engine %s answered go think with %q, which is not a legal move: %w", p.info.ID, done.Move, err)
	}
	return m, nil
}

// awaitDone reads the answers of a search up to its done within timeout,
// reporting the first move of each info line's principal variation, and
// returns the done with the last error message the engine printed on the
// way. A search that runs out of time, or whose caller gives up, is stopped
// and given the grace period to answer, then sent SIGINT and given the
// grace period again, then killed and started again. Only an infinite
// search is expected to need stop to end.
func (p *HubProcess) awaitDone(ctx context.Context, timeout time.Duration, infinite bool, pos *core.Game, report func(engine.Progress)) (hub.Done, string, error) {
	client := p.proc.client
	var complaint string
	each := func(a hub.Answer) {
		switch m := a.Message.(type) {
		case hub.Info:
			if report == nil {
				return
			}
			if progress, ok := m.Progress(pos); ok {
				report(progress)
			}
		case hub.Error:
			complaint = m.Message
			p.logAnswer(a)
		default:
			p.logAnswer(a)
		}
	}
	wait, cancel := context.WithTimeout(ctx, timeout)
	m, err := client.Await(wait, hub.CmdDone, each)
	cancel()
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		grace := func() (hub.Message, error) {
			wait, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.cfg.Timeouts.Grace)
			defer cancel()
			return client.Await(wait, hub.CmdDone, each)
		}
		client.Send(hub.Stop{})
		if m, err = grace(); errors.Is(err, context.DeadlineExceeded) {
			p.proc.signal(syscall.SIGINT)
			m, err = grace()
		}
		switch {
		case err == nil && ctx.Err() == nil && !infinite:
			p.log.Warn().Dur("timeout", timeout).Msg("engine answered only when stopped")
		case err != nil && !errors.Is(err, hub.ErrEngineGone):
			p.restart(context.WithoutCancel(ctx), "no done after stop")
			if ctx.Err() != nil {
				return hub.Done{}, "", ctx.Err()
			}
			return hub.Done{}, "", fmt.Errorf("engine %s did not answer go think within %s; restarted", p.info.ID, timeout)
		}
	}
	switch {
	case errors.Is(err, hub.ErrEngineGone):
		p.restart(context.WithoutCancel(ctx), "it exited")
		return hub.Done{}, "", fmt.Errorf("engine %s exited while searching; restarted", p.info.ID)
	case err != nil:
		return hub.Done{}, "", fmt.Errorf("engine %s answered go think with a done hivebridge cannot read: %w", p.info.ID, err)
	}
	return m.(hub.Done), complaint, nil
}

// Close asks the engine to quit, then ends its process group.
func (p *HubProcess) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc == nil {
		return nil
	}
	p.proc.client.Send(hub.Quit{})
	p.proc.close(p.cfg.Timeouts.Grace)
	p.proc = nil
	return nil
}

package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// UHPProcess is the Engine of a UHP engine program. It starts the program
// (never through a shell) in a process group of its own, reads its
// unprompted info answer and its options, and keeps it in step with the
// session's game only when asked to think: the moves played since are sent
// with play, moves taken back with undo, and anything else with newgame and
// a whole GameString. Its moves are read in any spelling and checked
// against the rules.
//
// Every exchange has a deadline. An engine that misses one is interrupted
// (SIGINT, on which the reference engine stops searching and answers), and
// if it still does not answer within the grace period its whole process
// group is killed; an engine that hangs, dies or loses its way is started
// again, its options set again, and its game sent again at the next search.
// The caller gets an error each time and keeps its game.
//
// The engine's answers to play, undo and newgame end with its GameString,
// whose state is its own verdict of the game (see StateReporter). Where it
// differs from hivebridge's, hivebridge's stands: a warning is logged once
// per game with both, and an engine that says its game is over is never
// sent bestmove.
type UHPProcess struct {
	launcher // the program, its configuration and the log
	wanted   // the lock, the engine's info and the game it should have
	proc     *run[*uhp.Client]
	options  []*engine.Option
	settings settings // options set so far, replayed into a new process

	have    []core.Move   // the moves of the engine's game, when inStep
	haveFor core.GameType // the type of the engine's game, when inStep
	inStep  bool

	// verdict is the state of the GameString that ended the engine's last
	// answer to play, undo or newgame, if stated; disagreedIn is the
	// history of the game whose verdicts last differed, so that a
	// difference is logged once per game (per line of play: a game taken
	// back and played again the same way is the same game).
	verdict     uhp.GameState
	stated      bool
	disagreedIn []core.Move

	// interrupted says the engine answered only when sent SIGINT: some
	// engines then go on (the reference engine), others exit (hivebridge
	// uhp), so it is asked for info before it is trusted again.
	interrupted bool
}

// StartUHP starts a UHP engine program and reads its info and options.
func StartUHP(ctx context.Context, program string, args []string, cfg Config) (*UHPProcess, error) {
	p := &UHPProcess{launcher: newLauncher(program, args, cfg)}
	if err := p.start(ctx); err != nil {
		return nil, err
	}
	lines, err := p.exchange(ctx, "options", p.cfg.Timeouts.Command, nil)
	if err != nil {
		var engineErr *uhp.EngineError
		if !errors.As(err, &engineErr) {
			p.Close()
			return nil, fmt.Errorf("engine %s: %w", program, err)
		}
		lines = nil // an engine without the options command has none
	}
	for _, line := range lines {
		opt, err := uhp.ParseOption(line)
		if err != nil {
			p.log.Warn().Str("line", line).Msg("engine declared an option hivebridge cannot read; ignored")
			continue
		}
		name := opt.Name
		opt.Apply = func(v string) error { return p.setOption(name, v) }
		p.options = append(p.options, opt)
	}
	p.reportProgress()
	return p, nil
}

// reportProgress turns on the engine's ReportIntermediateBestMoves, when it
// declares that option, so that its thinking (the reference engine's
// "MoveString;Depth;Score;PV..." lines) reaches hivebridge's front ends;
// the setting is replayed into a restarted engine like any other. An
// engine that refuses it only reports less.
func (p *UHPProcess) reportProgress() {
	for _, o := range p.options {
		if o.Name == reportIntermediate && o.Type == engine.BoolOption && o.Value() != "True" {
			if err := o.Set("True"); err != nil {
				p.log.Warn().Err(err).Msg("engine refused ReportIntermediateBestMoves; its thinking will not be shown")
			}
		}
	}
}

// reportIntermediate is the reference engine's option that makes bestmove
// print its progress before its answer.
const reportIntermediate = "ReportIntermediateBestMoves"

// start runs the program and reads its unprompted info answer. The wrong
// program (a Hub engine, or one that prints a banner of its own) is
// refused as soon as its first line, or its silence, gives it away; a UHP
// engine that printed no info on start, and so answered the probe with
// err, is asked for its info.
func (p *UHPProcess) start(ctx context.Context) error {
	r, err := startRun(p.program, p.args, p.cfg.Log, uhp.NewClient)
	if err != nil {
		return err
	}
	p.proc = r
	client := r.client
	wait, cancel := context.WithTimeout(ctx, p.cfg.Timeouts.Start)
	defer cancel()
	first, probed, err := firstLine(wait, p.cfg.Timeouts.Start, client.LineReader, func() error { return client.Send(hub.Hub{}.Line().String()) })
	var lines []string
	if err == nil {
		isID := strings.HasPrefix(strings.TrimSpace(first), "id ")
		tongue := tongueOf(first)
		if isID && !probed {
			tongue = speaksUHP // whatever its name holds: a Hub engine says nothing unprompted
		}
		switch {
		case tongue != speaksUHP:
			p.kill()
			return wrongProgram(p.program, p.args, "uhp", first)
		case isID:
			lines, err = client.Await(wait, nil)
			lines = append([]string{first}, lines...)
		default: // the probe's answer: the engine printed no info on start
			if _, err = client.Await(wait, nil); err == nil || errors.As(err, new(*uhp.EngineError)) {
				lines, err = client.Do(wait, "info")
			}
			probed = false
		}
	}
	if err == nil {
		p.info, err = uhp.ParseInfo(lines)
	}
	switch {
	case errors.Is(err, uhp.ErrEngineGone):
		p.kill()
		return fmt.Errorf("engine %s exited before its info answer: it is not a UHP engine, or it failed to start", p.program)
	case err != nil:
		p.kill()
		return fmt.Errorf("engine %s did not start as a UHP engine (no info answer within %s): %w", p.program, p.cfg.Timeouts.Start, err)
	}
	if probed {
		// A UHP engine slow to start read the probe after printing its
		// info, and answers it with err: that answer is not the next
		// command's.
		drain, cancel := context.WithTimeout(ctx, p.cfg.Timeouts.Command)
		_, err := client.Await(drain, nil)
		cancel()
		if err != nil && !errors.As(err, new(*uhp.EngineError)) {
			p.kill()
			return fmt.Errorf("engine %s did not answer hub, which it was sent while it was silent on start: %w", p.program, err)
		}
	}
	p.log = p.cfg.Log.With().Str("engine", p.info.ID).Logger()
	p.log.Info().Int("pid", r.pid()).Str("capabilities", uhp.FormatCapabilities(p.info.Expansions)).Msg("engine started")
	return nil
}

// signal sends sig to the engine's whole process group.
func (p *UHPProcess) signal(sig syscall.Signal) {
	if p.proc != nil {
		p.proc.signal(sig)
	}
}

// kill ends the engine's process group and waits for the program to exit.
func (p *UHPProcess) kill() {
	if p.proc == nil {
		return
	}
	p.proc.kill()
	p.proc = nil
	p.inStep, p.interrupted = false, false
}

// restart replaces a failed engine with a new run of the program and sets
// its options again; its game is sent again at the next search.
func (p *UHPProcess) restart(ctx context.Context, why string) error {
	p.restarting(why)
	p.kill()
	if err := p.start(ctx); err != nil {
		return err
	}
	for _, s := range p.settings {
		if _, err := p.exchangeOnce(ctx, "options set "+s[0]+" "+s[1], p.cfg.Timeouts.Command, nil); err != nil {
			p.log.Warn().Err(err).Str("option", s[0]).Msg("engine refused an option after restart")
		}
	}
	return nil
}

// exchange sends one command and returns its answer, starting the engine
// again first if an earlier failure left none running.
func (p *UHPProcess) exchange(ctx context.Context, command string, timeout time.Duration, each func(string)) ([]string, error) {
	if err := p.sound(ctx); err != nil {
		return nil, err
	}
	return p.exchangeOnce(ctx, command, timeout, each)
}

// sound makes sure a run of the engine that can answer is under way: it
// starts one again if an earlier failure left none, and asks an engine
// that was interrupted for info, the cheapest command, starting it again if
// the interrupt ended it.
func (p *UHPProcess) sound(ctx context.Context) error {
	if p.proc != nil && p.interrupted {
		p.interrupted = false
		if _, err := p.exchangeOnce(ctx, "info", p.cfg.Timeouts.Command, nil); err != nil {
			p.log.Info().Err(err).Msg("engine did not survive its interrupt")
		} else {
			// An engine whose answer crossed the signal gets it while
			// idle, and may answer the probe before the signal ends it
			// (hivebridge uhp exits on a SIGINT with nothing to stop): it
			// is trusted once it has outlived the grace period.
			select {
			case <-p.proc.client.Ended():
				return p.restart(ctx, "it exited after its interrupt")
			case <-time.After(p.cfg.Timeouts.Grace):
			case <-ctx.Done():
			}
		}
	}
	if p.proc == nil {
		return p.restart(ctx, "the last run failed")
	}
	return nil
}

// exchangeOnce sends one command and awaits its answer within timeout.
// A late engine is interrupted and given the grace period to answer, then
// killed and started again; a dead one is started again.
func (p *UHPProcess) exchangeOnce(ctx context.Context, command string, timeout time.Duration, each func(string)) ([]string, error) {
	client := p.proc.client
	if err := client.Send(command); err != nil {
		p.restart(ctx, "cannot write to it: "+err.Error())
		return nil, fmt.Errorf("engine %s exited before %q; restarted", p.info.ID, command)
	}
	wait, cancel := context.WithTimeout(ctx, timeout)
	lines, err := client.Await(wait, each)
	cancel()
	switch {
	case err == nil:
		return lines, nil
	case errors.Is(err, uhp.ErrEngineGone):
		p.restart(ctx, "it exited")
		return nil, fmt.Errorf("engine %s exited while answering %q; restarted", p.info.ID, command)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		p.signal(syscall.SIGINT)
		grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.cfg.Timeouts.Grace)
		more, lateErr := client.Await(grace, each)
		cancel()
		if lateErr == nil {
			p.log.Warn().Str("command", command).Msg("engine answered only when interrupted")
			p.interrupted = true
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return append(lines, more...), nil
		}
		p.restart(context.WithoutCancel(ctx), "no answer to "+command)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("engine %s did not answer %q within %s; restarted", p.info.ID, command, timeout)
	}
	var answer *uhp.EngineError
	if errors.As(err, &answer) {
		return lines, &RefusedError{Engine: p.info.ID, Command: command, Answer: answer}
	}
	return lines, err
}

// RefusedError is an engine's err or invalidmove answer to a command
// hivebridge sent it. Unlike a crash, a hang or an illegal move, which
// are the engine's own failings, a refusal may be hivebridge's: a command
// in a form the engine does not read (a fraction of a second, once), or a
// move the two disagree on. The referee voids a game it ends rather than
// score it.
type RefusedError struct {
	Engine  string           // the engine's id
	Command string           // the command hivebridge sent
	Answer  *uhp.EngineError // the engine's err or invalidmove line
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("engine %s answered %q with %q", e.Engine, e.Command, e.Answer.Error())
}

func (e *RefusedError) Unwrap() error { return e.Answer }

// setOption sets one of the engine's options.
func (p *UHPProcess) setOption(name, value string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.exchange(context.Background(), "options set "+name+" "+value, p.cfg.Timeouts.Command, nil); err != nil {
		return err
	}
	p.settings.set(name, value)
	return nil
}

// Options are the options the engine declared.
func (p *UHPProcess) Options() []*engine.Option { return p.options }

// maxReplay is how many moves the engine is sent one by one to catch up
// before a whole GameString is cheaper.
const maxReplay = 4

// sync brings the engine's game in step with the wanted one. A game set up
// from a position cannot be: UHP has no set-up form, and newgame takes only
// a GameString, the moves from the empty board (uhp.ErrSetUp).
func (p *UHPProcess) sync(ctx context.Context) error {
	if p.game.SetUp() {
		return fmt.Errorf("engine %s cannot be given this game: %w", p.info.ID, uhp.ErrSetUp)
	}
	want := p.game.History()
	if p.inStep && p.haveFor == p.game.Type() {
		switch {
		case isPrefix(p.have, want) && len(want)-len(p.have) <= maxReplay:
			pos := p.game.Clone()
			extra := want[len(p.have):]
			for range extra {
				pos.Undo()
			}
			for _, m := range extra {
				lines, err := p.exchange(ctx, "play "+uhp.FormatMove(m, pos), p.cfg.Timeouts.Command, nil)
				if err != nil {
					p.inStep = false
					return p.sendGame(ctx, err)
				}
				pos.Play(m)
				p.have = append(p.have, m)
				p.noteVerdict(lines, pos)
			}
			return nil
		case isPrefix(want, p.have) && len(want) < len(p.have):
			lines, err := p.exchange(ctx, "undo "+strconv.Itoa(len(p.have)-len(want)), p.cfg.Timeouts.Command, nil)
			if err != nil {
				p.inStep = false
				return p.sendGame(ctx, err)
			}
			p.have = p.have[:len(want)]
			p.noteVerdict(lines, p.game)
			return nil
		}
	}
	return p.sendGame(ctx, nil)
}

// sendGame sends the whole wanted game with newgame. prior, if not nil, is
// why a cheaper catch-up failed.
func (p *UHPProcess) sendGame(ctx context.Context, prior error) error {
	if prior != nil {
		p.log.Warn().Err(prior).Msg("engine lost step; sending the whole game")
	}
	p.stated = false
	gs, err := uhp.Describe(p.game)
	if err != nil {
		return fmt.Errorf("engine %s cannot be given this game: %w", p.info.ID, err)
	}
	arg := gs.String()
	if len(gs.Moves) == 0 {
		arg = uhp.FormatGameType(gs.Type)
	}
	lines, err := p.exchange(ctx, "newgame "+arg, p.cfg.Timeouts.Command, nil)
	if errors.As(err, new(*RefusedError)) {
		return fmt.Errorf("engine %s refused the game: %w", p.info.ID, err)
	}
	if err != nil {
		return err // it exited or hung, and says so
	}
	if len(lines) == 0 {
		return fmt.Errorf("engine %s answered newgame with no GameString", p.info.ID)
	}
	got, err := uhp.ParseGameString(lines[len(lines)-1])
	if err != nil || got.Type != gs.Type || len(got.Moves) != len(gs.Moves) {
		return fmt.Errorf("engine %s answered newgame with %q, not the game it was sent", p.info.ID, lines[len(lines)-1])
	}
	p.have, p.haveFor, p.inStep = p.game.History(), gs.Type, true
	p.noteVerdict(lines, p.game)
	return nil
}

// noteVerdict keeps the engine's verdict of pos, its game now, from the
// GameString that ends its answer to play, undo or newgame, and logs a
// warning the first time in a game that it differs from hivebridge's. An
// answer with no GameString hivebridge can read states no verdict.
func (p *UHPProcess) noteVerdict(answer []string, pos *core.Game) {
	p.stated = false
	if len(answer) == 0 {
		return
	}
	gs, err := uhp.ParseGameString(answer[len(answer)-1])
	if err != nil {
		return
	}
	p.verdict, p.stated = gs.State, true
	if gs.State.Result() == pos.Result() {
		return
	}
	history := pos.History()
	if p.disagreedIn != nil && related(p.disagreedIn, history) {
		return
	}
	p.disagreedIn = history
	described, _ := uhp.Describe(pos) // the engine's game: never a set-up one (see sync)
	p.log.Warn().Str("engine_state", gs.State.String()).Str("hivebridge_state", uhp.StateOf(pos).String()).
		Str("position", described.String()).
		Msg("the engine's own verdict of the game differs from hivebridge's; hivebridge's stands")
}

// overByItsOwnRules reports whether the engine's last answer said its game
// is over.
func (p *UHPProcess) overByItsOwnRules() bool {
	return p.stated && p.verdict.Result() != core.InProgress
}

// catchUp makes sure the engine runs and brings its game in step with the
// wanted one.
func (p *UHPProcess) catchUp(ctx context.Context) error {
	if p.game == nil {
		return errNoGame
	}
	// Before sync, which trusts the engine's game to be the last one sent.
	if err := p.sound(ctx); err != nil {
		return err
	}
	return p.sync(ctx)
}

// SyncState brings the engine's game in step now and returns its verdict
// of it, the state of its answer's GameString.
func (p *UHPProcess) SyncState(ctx context.Context) (core.Result, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.catchUp(ctx); err != nil {
		return core.InProgress, false, err
	}
	return p.verdict.Result(), p.stated, nil
}

// WholeSeconds is the time a UHP engine is told for a search limited to
// d. UHP writes a bestmove time as hh:mm:ss, and engines read whole seconds
// only (a widely used one answers "bestmove time 00:00:00.2" with err
// UnrecognizedCommand), so d is rounded down, so that an engine that keeps
// to what it is told keeps to d; but never down to zero, which would ask
// for no search at all: a budget under a second is told as one second.
// The finer budget stays on hivebridge's side, with the caller that set
// it: the referee charges the engine's clock what it really took, a Hub
// session answers with the best move known once its level's time is up,
// and the JSON server answers by the request's deadline.
func WholeSeconds(d time.Duration) time.Duration {
	if d < time.Second {
		return time.Second
	}
	return d.Truncate(time.Second)
}

// FormatTime writes a bestmove time limit as hh:mm:ss: WholeSeconds(d).
func FormatTime(d time.Duration) string {
	secs := int64(WholeSeconds(d) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", secs/3600, secs/60%60, secs%60)
}

// BestMove brings the engine in step and asks it for a move. Each line of
// its answer is read in the position, its moves in any spelling; the last
// is the answer, and the ones before are reported as progress: bare
// intermediate best moves, or the reference engine's
// "MoveString;Depth;Score;PV..." reports.
func (p *UHPProcess) BestMove(ctx context.Context, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.game != nil && p.game.Over() {
		return core.NoMove, errors.New("The game is over: there is no move to search.")
	}
	if err := p.catchUp(ctx); err != nil {
		return core.NoMove, err
	}
	if p.overByItsOwnRules() {
		// An engine asked to move in a game it thinks over may well
		// crash (one panicked): it is not asked.
		return core.NoMove, fmt.Errorf("engine %s says the game is over (%s) where hivebridge's rules say it goes on; it is not asked for a move", p.info.ID, p.verdict)
	}
	command, timeout := "bestmove depth "+strconv.Itoa(limit.Depth), p.cfg.Timeouts.Depth
	if limit.Time > 0 || limit.Depth <= 0 {
		// The engine may take what it is told, which is more than
		// limit.Time when that is under a second.
		command, timeout = "bestmove time "+FormatTime(limit.Time), max(WholeSeconds(limit.Time), limit.Time)+p.cfg.Timeouts.Margin
	}
	var each func(string)
	if report != nil {
		// A line is a report once another follows it: the last is the
		// answer.
		previous := ""
		each = func(line string) {
			if previous != "" {
				if progress, err := uhp.ParseProgress(previous, p.game); err == nil && p.game.Legal(progress.Move) {
					report(progress)
				}
			}
			previous = line
		}
	}
	lines, err := p.exchange(ctx, command, timeout, each)
	if err != nil {
		return core.NoMove, err
	}
	if len(lines) == 0 {
		return core.NoMove, fmt.Errorf("engine %s answered %q with no move", p.info.ID, command)
	}
	text := lines[len(lines)-1]
	m, err := uhp.ParseMove(text, p.game)
	if err == nil {
		err = p.game.RuleBroken(m)
	}
	if err != nil {
		return core.NoMove, fmt.Errorf("engine %s answered %q with %q, which is not a legal move: %w", p.info.ID, command, text, err)
	}
	return m, nil
}

// Forget makes the next search send the whole game with newgame, on which
// UHP engines start afresh, rather than catch the engine up move by move.
func (p *UHPProcess) Forget(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inStep = false
	return nil
}

// Close asks the engine to exit, then ends its process group.
func (p *UHPProcess) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc == nil {
		return nil
	}
	p.proc.client.Send("exit")
	p.proc.close(p.cfg.Timeouts.Grace)
	p.proc, p.inStep = nil, false
	return nil
}

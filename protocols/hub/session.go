package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Config sets up an engine session. The searcher is engine.Searcher, the
// interface every backend already offers the UHP session, so that any
// backend serves either front end unchanged; what Hub needs on top of it
// (whether a search can be stopped and still answer) is the Interruptible
// flag rather than a method, since it is a fact about the backend and not
// something to ask it.
type Config struct {
	// ID is the engine's id line, the first answer to hub.
	ID ID
	// Expansions are the expansion bugs the searcher plays: the choices of
	// the variant parameter, and the game types pos accepts. Zero is the
	// base game only.
	Expansions core.GameType
	// Searcher chooses the moves.
	Searcher engine.Searcher
	// Interruptible says that Searcher, once its context is cancelled,
	// returns its best move so far within StopGrace: the native searcher
	// does, and so does a Hub engine, which answers stop with done. A
	// searcher that is not (a UHP or JSON engine process) is stopped by
	// answering at once with the best move it has reported, or Fallback's,
	// while its own late answer is discarded; and since it cannot be asked
	// to search until stopped, a search with no end (level infinite, go
	// ponder) is emulated by asking it for depth 1, then 2, 3, ..., each
	// answer an info line and the best move known.
	Interruptible bool
	// Fallback, if set, answers a search that must end before Searcher has
	// reported any move, searched to depth 1: a quick and sound move
	// (hivebridge gives its native searcher). Without one, the first legal
	// move is played.
	Fallback engine.Searcher
	// Settings are the searcher's own parameters, declared after the
	// session's variant and ponder (a setting with one of those names is
	// left out: the session's own governs what the GUI sees).
	Settings []Setting
	// StopGrace bounds the wait for an interruptible searcher's answer
	// once stopped, for a searcher that overruns its time, and, at the end
	// of the session, for the searches abandoned to return. Zero means one
	// second.
	StopGrace time.Duration
	// MaxLine bounds the length of a command line; zero means 1 MiB.
	MaxLine int
	// Games, if set, is told of the positions the GUI sets and the moves
	// the session answers, so that a daemon can keep the games it serves.
	Games GameWatcher
	// Log receives the session's diagnostics, never protocol lines; the
	// zero value discards them.
	Log zerolog.Logger
}

// GameWatcher follows the games of a session. Its methods run on the
// session's goroutine, and none may change the game it is given.
type GameWatcher interface {
	// Position is told of each position the GUI sets (pos) and the
	// session takes.
	Position(g *core.Game)
	// NewGame is told of each new-game.
	NewGame()
	// Answered is told of the move each search answers as the engine's
	// play (go think, or go ponder after ponder-hit; not go analyze), in
	// the position searched, before its done is written.
	Answered(g *core.Game, m core.Move)
}

// errNotUTF8 answers a line that is not valid UTF-8.
const errNotUTF8 engine.Error = "the line is not valid UTF-8; ignored"

// The default bounds of the session.
const (
	defaultStopGrace = time.Second
	defaultMaxLine   = 1 << 20
	// maxEmulatedDepth ends an emulated endless search: no Hive search
	// gets near it, and an engine that answers every depth at once must
	// not be asked for ever.
	maxEmulatedDepth = 64
)

// Session answers a Hub GUI, the engine side of the protocol. One
// goroutine, the one that runs Run, owns all of its state and is its only
// writer; a reader goroutine feeds it the input lines and each search runs
// in a goroutine of its own that feeds it progress, so that input is read
// while searching (ping, stop and ponder-hit are answered at once) and the
// session never waits on the searcher without a deadline.
type Session struct {
	cfg      Config
	settings []Setting
	variant  core.GameType // the game type of a pos without one
	game     *core.Game    // the position of the next search; nil is the start of variant's game
	level    Level         // the limits of the next search
	search   *search       // the search under way, nil when idle
	searches int           // searches started, which numbers them
	pending  Message       // a command that stopped a search, handled once its done is written
	forget   bool          // new-game came: the next search starts by making the searcher forget
	quitting bool          // quit, the end of input or ctx: end once no search is left
	w        *bufio.Writer

	events chan event
	closed chan struct{} // closed when Run returns: the searches' sends give up
	wg     sync.WaitGroup
}

// search is one search, as the session goroutine sees it.
type search struct {
	id        int
	pos       *core.Game // the searched position, for the session's checks; the searcher has its own copy
	level     Level
	start     time.Time
	pondering bool      // go ponder before ponder-hit: its clock is not running
	analyzing bool      // go analyze: its move is not the engine's play
	stopping  bool      // stopped; waiting up to StopGrace for an interruptible searcher's answer
	best      core.Move // the last legal move reported, core.NoMove for none
	cancel    context.CancelFunc
	timer     *time.Timer
	onTimer   timerKind
}

// timerKind is what a search's timer means when it fires.
type timerKind int

const (
	// timerStop ends the search as stop would: the time allocated after a
	// ponder-hit is up.
	timerStop timerKind = iota
	// timerGiveUp answers at once with the best move known: an
	// interruptible searcher did not answer within StopGrace of being
	// stopped, or a searcher overran its time by StopGrace.
	timerGiveUp
)

// event is what a search goroutine tells the session: its progress, or
// its answer (final, with progress.Move the move found).
type event struct {
	id       int
	progress engine.Progress
	final    bool
	err      error
}

// input is one line of the GUI's input, or its end.
type input struct {
	line    string
	tooLong bool
	end     bool
	err     error // why the input ended, when not io.EOF
}

// NewSession returns a session that has declared nothing yet: the GUI's hub
// command asks for the declarations. Its position is the start of a base
// game and its level infinite, as Scan's are before the first pos.
func NewSession(cfg Config) *Session {
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = defaultStopGrace
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = defaultMaxLine
	}
	s := &Session{cfg: cfg, variant: core.Base, level: Level{Infinite: true}}
	var variants []string
	for _, v := range VariantValues() {
		if t, _ := core.ParseGameType(v); t&^cfg.Expansions == 0 {
			variants = append(variants, v)
		}
	}
	s.settings = []Setting{
		{Param: EnumParam(ParamVariant, core.Base.Name(), variants...), Apply: func(v string) error {
			t, err := core.ParseGameType(v)
			if err == nil {
				s.variant = t
			}
			return err
		}},
		// Pondering is always available (emulated when the searcher cannot
		// be interrupted); the parameter tells the GUI whether to use it.
		{Param: BoolParam(ParamPonder, false)},
	}
	for _, st := range cfg.Settings {
		if s.setting(st.Param.Name) == nil {
			s.settings = append(s.settings, st)
		}
	}
	return s
}

// Run answers the GUI: it reads the commands of in, while searching too,
// and writes the answers on out, until quit, the end of in, or ctx is done.
// A search still under way then is stopped and its done written first, so
// that every go gets exactly one done. It returns nil after quit or the end
// of in, and otherwise the error that ended it. Call it once.
func (s *Session) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s.w = bufio.NewWriter(out)
	s.events = make(chan event)
	s.closed = make(chan struct{})
	defer s.drain()
	inputs := make(chan input)
	go s.read(in, inputs)
	cancelled := ctx.Done()
	for {
		if s.search == nil {
			if m := s.pending; m != nil {
				s.pending = nil
				s.command(m)
				if err := s.w.Flush(); err != nil {
					s.abandon()
					return err
				}
				continue
			}
			if s.quitting {
				return s.w.Flush()
			}
		}
		// While a search is being stopped, input waits, so that whatever
		// the GUI sends after stop (a ping, the next search) is answered
		// after this search's done: every answer comes in the order of the
		// commands, and pong means that all before ping is done.
		var lines <-chan input
		if !s.quitting && (s.search == nil || !s.search.stopping) {
			lines = inputs
		}
		var fired <-chan time.Time
		if s.search != nil && s.search.timer != nil {
			fired = s.search.timer.C
		}
		select {
		case in := <-lines:
			s.input(in)
		case ev := <-s.events:
			s.event(ev)
		case <-fired:
			s.timeUp()
		case <-cancelled:
			cancelled = nil // once is enough; the loop goes on until the search's done
			s.cfg.Log.Info().Msg("session cancelled: stopping")
			s.quit()
		}
		if err := s.w.Flush(); err != nil {
			s.abandon()
			return err
		}
	}
}

// read feeds the lines of r to lines until r ends or the session does. A
// line longer than MaxLine is reported, not kept.
func (s *Session) read(r io.Reader, lines chan<- input) {
	br := bufio.NewReaderSize(r, 64*1024)
	send := func(in input) bool {
		select {
		case lines <- in:
			return true
		case <-s.closed:
			return false
		}
	}
	for {
		line, tooLong, err := readLine(br, s.cfg.MaxLine)
		if (line != "" || tooLong || err == nil) && !send(input{line: line, tooLong: tooLong}) {
			return
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			send(input{end: true, err: err})
			return
		}
	}
}

// drain ends the session's goroutines: the reader and the searches give
// up their sends, and the searches, already cancelled, are given StopGrace
// to return, so that whoever closes the searcher after Run does not pull it
// from under a search.
func (s *Session) drain() {
	close(s.closed)
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(s.cfg.StopGrace):
		s.cfg.Log.Warn().Dur("waited", s.cfg.StopGrace).Msg("a stopped search has not returned; leaving it")
	}
}

// write prints one answer.
func (s *Session) write(m Message) {
	s.w.WriteString(m.Line().String())
	s.w.WriteByte('\n')
}

// fail prints error message="...": hub-hive.md's answer "for anything that
// cannot be done, on its own line". The message is made valid UTF-8: the
// GUI's lines are by then, but a searcher's words may come from another
// process, in any bytes.
func (s *Session) fail(err error) {
	s.cfg.Log.Debug().Err(err).Msg("error answered")
	s.write(Error{Message: strings.ToValidUTF8(err.Error(), "\uFFFD")})
}

// input handles one line of input: malformed lines are answered with error
// and change nothing. A line that is not valid UTF-8 is one, answered
// without quoting it, so that the session never writes invalid UTF-8.
func (s *Session) input(in input) {
	switch {
	case in.end:
		if in.err != nil {
			s.cfg.Log.Warn().Err(in.err).Msg("input failed")
		}
		s.quit()
		return
	case in.tooLong:
		s.fail(fmt.Errorf("the line is longer than %d bytes; ignored", s.cfg.MaxLine))
		return
	case !utf8.ValidString(in.line):
		s.fail(errNotUTF8)
		return
	}
	m, err := ReadCommand(in.line)
	switch {
	case errors.Is(err, ErrEmptyLine):
		return
	case err != nil:
		s.fail(err)
		return
	}
	s.command(m)
}

// command handles one command. During a search only ping, ponder-hit and
// stop are read, as the spec has them, and quit, which stops the search
// and ends the session once its done is written. Any other command stops
// the search first, as stop would, and is handled after its done: a GUI
// that sends the next search without stopping this one gets every answer
// in order, and can never leave the session waiting on a search with no
// end.
func (s *Session) command(m Message) {
	if s.search == nil {
		s.do(m)
		return
	}
	switch m := m.(type) {
	case Ping:
		s.write(Pong{})
	case PonderHit:
		s.ponderHit()
	case Stop:
		s.stop()
	case Quit:
		s.quit()
	case Unknown:
		s.cfg.Log.Debug().Str("command", m.Raw.Command).Msg("unknown command ignored")
	default:
		s.cfg.Log.Info().Str("command", m.Line().Command).Msg("command during a search: the search is stopped first")
		s.pending = m
		s.stop()
	}
}

// do handles a command while no search is under way.
func (s *Session) do(m Message) {
	switch m := m.(type) {
	case Hub:
		s.write(s.cfg.ID)
		for _, st := range s.settings {
			s.write(st.Param)
		}
		s.write(Wait{})
	case SetParam:
		if err := s.setParam(m); err != nil {
			s.fail(err)
		}
	case Init:
		s.write(Ready{})
	case NewGame:
		// "new-game clears hash tables": the next search does it, on its
		// own goroutine, since a backend may take a while.
		s.game, s.forget = nil, true
		if s.cfg.Games != nil {
			s.cfg.Games.NewGame()
		}
	case Pos:
		if err := s.pos(m); err != nil {
			s.fail(err)
		}
	case Level:
		s.level = m
	case Go:
		s.start(m.Mode)
	case Ping:
		s.write(Pong{})
	case Quit:
		s.quit()
	case PonderHit, Stop:
		// A search may end on its own just before the GUI stops it: the
		// spec lets an engine answer at any time, so these come late.
	case Unknown:
		s.cfg.Log.Debug().Str("command", m.Raw.Command).Msg("unknown command ignored")
	}
}

// setting returns the parameter called name: Hub compares names as they
// are, and so does this, but a GUI's capitals are forgiven when no name
// matches exactly.
func (s *Session) setting(name string) *Setting {
	for i := range s.settings {
		if s.settings[i].Param.Name == name {
			return &s.settings[i]
		}
	}
	for i := range s.settings {
		if strings.EqualFold(s.settings[i].Param.Name, name) {
			return &s.settings[i]
		}
	}
	return nil
}

// setParam sets a parameter. Hub sets them before init, but the session
// takes them at any time: nothing it initialises depends on them.
func (s *Session) setParam(m SetParam) error {
	st := s.setting(m.Name)
	if st == nil {
		names := make([]string, len(s.settings))
		for i, st := range s.settings {
			names[i] = st.Param.Name
		}
		return fmt.Errorf("set-param: there is no parameter %s; the parameters are %s", m.Name, strings.Join(names, ", "))
	}
	if err := st.Param.Check(m.Value); err != nil {
		return fmt.Errorf("set-param: %w", err)
	}
	if st.Apply != nil {
		if err := st.Apply(m.Value); err != nil {
			return fmt.Errorf("set-param %s: %w", st.Param.Name, err)
		}
	}
	st.Param.Value = m.Value
	return nil
}

// pos sets the position of the next search and, as in Scan, resets its
// limits: a GUI sends pos, then level, then go. A position that cannot be
// loaded leaves the previous one (and its limits) as they were.
func (s *Session) pos(p Pos) error {
	g, err := p.Load(s.variant)
	if err != nil {
		return err
	}
	if g.Type()&^s.cfg.Expansions != 0 {
		return fmt.Errorf("pos: this engine does not play %s games", g.Type().Name())
	}
	s.game, s.level = g, Level{Infinite: true}
	if s.cfg.Games != nil {
		s.cfg.Games.Position(g)
	}
	return nil
}

// position returns the position of the next search.
func (s *Session) position() *core.Game {
	if s.game == nil {
		return core.NewGame(s.variant)
	}
	return s.game
}

// start starts a search of the current position in the given mode.
//
// go analyze is searched as go think: hivebridge has no opening book to
// leave out nor draws to avoid. go ponder searches without a clock (the
// spec: "The engine's game clock is not running at this point"), so that
// the level's time counts from ponder-hit.
func (s *Session) start(mode GoMode) {
	pos := s.position()
	if pos.Over() {
		// "the GUI will never ask the engine to search a terminal
		// position", but one that does still gets the done it waits for.
		s.fail(errors.New("go: the game is over: there is no move to search"))
		s.write(Done{Move: "pass"})
		return
	}
	s.searches++
	sr := &search{id: s.searches, pos: pos.Clone(), level: s.level, start: time.Now(), pondering: mode == Ponder, analyzing: mode == Analyze, best: core.NoMove}
	if s.quitting {
		// A go that was waiting for the search that quit stopped: the
		// session is ending, so it gets its done at once, without
		// troubling the searcher.
		s.write(NewDone(sr.pos, s.bestKnown(sr), core.NoMove))
		return
	}
	limit := s.level.Limit()
	if sr.pondering {
		limit.Time = 0
	}
	// A searcher that cannot be interrupted and has no time to keep to is
	// deepened one depth at a time, so that stop has a move to answer.
	deepen := !s.cfg.Interruptible && limit.Time == 0
	if limit.Time > 0 {
		sr.arm(timerGiveUp, limit.Time+s.cfg.StopGrace)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sr.cancel = cancel
	s.search = sr
	s.cfg.Log.Debug().Int("search", sr.id).Str("mode", string(mode)).Str("level", s.level.Line().String()).Msg("search started")
	forget := s.forget
	s.forget = false
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if forget {
			if err := engine.Forget(ctx, s.cfg.Searcher); err != nil {
				s.cfg.Log.Warn().Err(err).Msg("the searcher could not forget the last game")
			}
		}
		s.think(ctx, sr.id, pos.Clone(), limit, deepen)
	}()
}

// think runs one search on its own goroutine and tells the session what
// it finds. It touches none of the session's state: g is its own copy.
func (s *Session) think(ctx context.Context, id int, g *core.Game, limit engine.Limit, deepen bool) {
	send := func(ev event) {
		ev.id = id
		select {
		case s.events <- ev:
		case <-s.closed:
		}
	}
	if !deepen {
		m, err := s.cfg.Searcher.BestMove(ctx, g, limit, func(p engine.Progress) { send(event{progress: p}) })
		send(event{progress: engine.Progress{Move: m}, err: err, final: true})
		return
	}
	maxDepth := maxEmulatedDepth
	if limit.Depth > 0 {
		maxDepth = limit.Depth
	}
	best := core.NoMove
	var err error
	start := time.Now()
	var nodes uint64 // over all the depths searched so far
	for d := 1; d <= maxDepth && ctx.Err() == nil; d++ {
		// What the searcher says of each depth (its score, its line) is
		// reported once the depth is done, with the depth it was asked;
		// a MultiPV searcher's other lines of its last iteration too,
		// before the best, in the order it gave them.
		var said engine.Progress
		var others []engine.Progress
		m, e := s.cfg.Searcher.BestMove(ctx, g, engine.Limit{Depth: d}, func(p engine.Progress) {
			switch {
			case p.Best():
				said = p
			case len(others) > 0 && others[0].Depth != p.Depth:
				others = append(others[:0], p) // a deeper iteration's
			default:
				others = append(others, p)
			}
		})
		if e != nil {
			if ctx.Err() == nil {
				err = e
			}
			break
		}
		best = m
		nodes += said.Nodes
		elapsed := time.Since(start)
		for _, o := range others {
			if said.Move == m && o.Depth == said.Depth {
				o.Depth, o.Elapsed, o.Nodes = d, elapsed, nodes
				send(event{progress: o})
			}
		}
		p := engine.Progress{Move: m, Depth: d, Elapsed: elapsed, Nodes: nodes, MultiPV: said.MultiPV}
		if said.Move == m {
			p.Score, p.SelDepth, p.PV = said.Score, said.SelDepth, said.PV
		} else {
			p.MultiPV = 0
		}
		send(event{progress: p})
	}
	send(event{progress: engine.Progress{Move: best}, err: err, final: true})
}

// arm sets the search's timer.
func (sr *search) arm(kind timerKind, d time.Duration) {
	sr.disarm()
	sr.timer, sr.onTimer = time.NewTimer(d), kind
}

// disarm stops the search's timer.
func (sr *search) disarm() {
	if sr.timer != nil {
		sr.timer.Stop()
		sr.timer = nil
	}
}

// ponderHit turns a go ponder search into a normal one: its clock starts
// now, with the level's time allocation. A search that is not pondering
// (the GUI's ponder-hit crossed its done, or it was never pondering) is
// left alone.
func (s *Session) ponderHit() {
	sr := s.search
	if !sr.pondering {
		return
	}
	sr.pondering = false
	if t := sr.level.Limit().Time; t > 0 {
		sr.arm(timerStop, t)
	}
}

// stop ends the search under way. An interruptible searcher is cancelled
// and given StopGrace to answer; any other is answered for at once with the
// best move known, and its own answer, when it comes, is discarded.
func (s *Session) stop() {
	sr := s.search
	if sr == nil || sr.stopping {
		return
	}
	sr.cancel()
	if s.cfg.Interruptible {
		sr.stopping = true
		sr.arm(timerGiveUp, s.cfg.StopGrace)
		return
	}
	s.finish(core.NoMove, nil)
}

// quit ends the session once the search under way, if any, is stopped and
// answered, and a command that was waiting for it handled.
func (s *Session) quit() {
	s.quitting = true
	s.stop()
}

// abandon cancels the search under way without answering it: the output
// is gone.
func (s *Session) abandon() {
	if s.search != nil {
		s.search.cancel()
		s.search.disarm()
		s.search = nil
	}
}

// timeUp handles the search's timer.
func (s *Session) timeUp() {
	sr := s.search
	sr.timer = nil
	if sr.onTimer == timerStop {
		s.stop()
		return
	}
	s.cfg.Log.Warn().Int("search", sr.id).Bool("stopped", sr.stopping).Msg("the searcher is late: answering with the best move known")
	s.finish(core.NoMove, nil)
}

// event handles what a search goroutine found. Events of a search already
// answered are dropped: that is how a late answer is discarded.
func (s *Session) event(ev event) {
	sr := s.search
	if sr == nil || ev.id != sr.id {
		return
	}
	p := ev.progress
	if ev.final {
		s.finish(p.Move, ev.err)
		return
	}
	if !sr.pos.Legal(p.Move) {
		s.cfg.Log.Warn().Int("search", sr.id).Msg("the searcher reported an illegal move; ignored")
		return
	}
	if p.Best() {
		sr.best = p.Move
	}
	if p.Elapsed == 0 {
		p.Elapsed = time.Since(sr.start)
	}
	s.write(InfoOf(p, sr.pos))
}

// finish answers the search under way with m, or, when m is no legal move,
// with the best move known; err, if the search failed, is reported first.
// This is the one place a done is written for a search, and the search
// ends here, so each gets exactly one.
func (s *Session) finish(m core.Move, err error) {
	sr := s.search
	sr.cancel()
	sr.disarm()
	s.search = nil
	if err != nil && !errors.Is(err, context.Canceled) {
		s.fail(fmt.Errorf("search: %w", err))
	}
	if m != core.NoMove {
		if lerr := sr.pos.RuleBroken(m); lerr != nil {
			s.fail(fmt.Errorf("search: the searcher answered an illegal move: %w", lerr))
			m = core.NoMove
		}
	}
	if m == core.NoMove {
		m = s.bestKnown(sr)
	}
	s.cfg.Log.Debug().Int("search", sr.id).Dur("took", time.Since(sr.start)).Msg("search answered")
	if s.cfg.Games != nil && !sr.pondering && !sr.analyzing {
		s.cfg.Games.Answered(sr.pos, m)
	}
	s.write(NewDone(sr.pos, m, core.NoMove))
}

// bestKnown returns the best move the search has reported, or else the
// fallback's quick answer, or else the first legal move.
func (s *Session) bestKnown(sr *search) core.Move {
	if sr.best != core.NoMove {
		return sr.best
	}
	if s.cfg.Fallback != nil {
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StopGrace)
		m, err := s.cfg.Fallback.BestMove(ctx, sr.pos.Clone(), engine.Limit{Depth: 1}, nil)
		cancel()
		if err == nil && sr.pos.Legal(m) {
			return m
		}
		s.cfg.Log.Warn().Err(err).Msg("the fallback searcher gave no legal move; playing the first legal move")
	}
	var l core.MoveList
	sr.pos.GenerateMoves(&l)
	return l.At(0)
}

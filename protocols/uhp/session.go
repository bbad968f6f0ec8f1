package uhp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Dialect selects the notation of moves.
type Dialect int

// The dialects: the current UHP, and its early draft with absolute cube
// positions (WS1[0,0,0]) and the history command.
const (
	Standard Dialect = iota
	Early
)

// Config sets up a Session.
type Config struct {
	// ID is the engine's name and version, the id line of info.
	ID string
	// Expansions are the expansion bugs the session can play (its
	// searcher's): the capability line of info, and the game types
	// newgame accepts. Zero means the base game only.
	Expansions core.GameType
	// Searcher chooses the moves of bestmove.
	Searcher engine.Searcher
	// Options are the searcher's own options (Threads, HashMB, ...),
	// listed after the session's.
	Options []*engine.Option
	Dialect Dialect
	// MaxPerftDepth, if not zero, refuses deeper perft commands.
	MaxPerftDepth int
	// PerftThreads is how many threads perft counts on; zero means one per
	// CPU.
	PerftThreads int
	// PerftSlot, if set, is called before perft counts, with the
	// command's context; perft counts under the context it returns, and
	// calls release once the count is done: a daemon makes perft wait
	// for, and hold, one of the places its searches take, so that perft
	// cannot take the machine from them, and bounds its time. An error
	// (no place before the context ends, say) is the command's answer, and
	// so is the end of the returned context's deadline.
	PerftSlot func(ctx context.Context) (slot context.Context, release func(), err error)
	// Log receives the session's diagnostics (never protocol lines); the
	// zero value discards them.
	Log zerolog.Logger
	// Matchmaker, if set, pairs the viewers who start remote games; the
	// backend plays when it finds nobody.
	Matchmaker Matchmaker
	// MaxLine bounds the length of a command line; zero means 1 MiB.
	MaxLine int
	// CancelOnEnd makes the end of the input cancel the command in
	// progress at once, and Run return with no further answer: for a
	// daemon's client, whose leaving means it wants nothing more, and who
	// must not leave a search of hours behind it. Leave it off on standard
	// input, where a piped script's input ends as soon as it is written
	// and every command in it wants its answer.
	CancelOnEnd bool
	// Drain, with CancelOnEnd, is closed when a daemon shuts down: Run
	// then returns as soon as no command is in progress, the one in
	// progress being answered first, as it would be without a shutdown.
	// A nil channel never closes.
	Drain <-chan struct{}
	// OnCommand, if set, is told of every command answered: its keyword,
	// how long the answer took, and the error it reported, if any.
	OnCommand func(command string, took time.Duration, err error)
	// Record, if set, is told of every change to the session's game
	// (see GameEvent), to keep it.
	Record func(GameEvent)
	// BeforeCommand, if set, runs on the session's goroutine before each
	// command is handled: a keeper of the game waits there until the
	// change it was told of last is kept, so that any answer after a
	// move's proves the move kept, while the move's own answer does not
	// wait.
	BeforeCommand func()
}

// Session answers a viewer in UHP, as an engine does: one command per
// line, each answer ending with ok. (hub.Session and hivejson.Server play
// the same role for their protocols; translate.Engine is a backend.) It holds the authoritative game and the spelling of every move
// the viewer played, so that the GameStrings it returns repeat the viewer's
// own text; the moves it writes itself are spelled canonically.
type Session struct {
	cfg       Config
	game      *core.Game  // nil until the first newgame
	layout    *Layout     // the game's, in the early dialect: moves go through it
	spellings []string    // the text of each move of game
	remote    *remoteGame // the viewer's side, in a remote game
	forfeited *forfeit    // set once a player forfeits
	// best is the move the last bestmove answered, in the position after
	// bestFor moves (-1: none), to tell the backend's moves from the
	// viewer's; unrecorded marks a game the other session records.
	best       core.Move
	bestFor    int
	unrecorded bool

	defaultTime        *engine.Option
	repetitionDraw     *engine.Option
	reportIntermediate *engine.Option
	options            []*engine.Option

	// stop cancels the command in progress (see Interrupt), running is
	// the number Ahead gave it (0 for none), read counts the lines Ahead
	// has numbered, and stopAt is the number of the last stop line among
	// them: the only state other goroutines touch.
	mu      sync.Mutex
	stop    context.CancelFunc
	running uint64
	read    uint64
	stopAt  uint64
}

// Interrupt cancels the command in progress, as the reference engine does
// on SIGINT: a search answers at once with the best move it has. It
// reports whether a command was in progress.
func (e *Session) Interrupt() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stop == nil {
		return false
	}
	e.stop()
	return true
}

// Ahead is told of each line of the input as it is read, ahead of the
// answers (Run calls it; a server that reads the commands itself must),
// and numbers it for HandleAhead. A stop line, hivebridge's extension to
// UHP, stops at once the command in progress and every command read
// before it that waits to be answered, as Interrupt does: that is how a
// viewer ends bestmove infinite, or any search it no longer wants, and a
// stop sent right behind a bestmove can never miss it. It may be called
// from any goroutine.
func (e *Session) Ahead(line string) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.read++
	if fields := strings.Fields(line); len(fields) == 1 && lowerASCII(fields[0]) == "stop" {
		e.stopAt = e.read
		if e.stop != nil && e.running < e.stopAt {
			e.stop()
		}
	}
	return e.read
}

// NewSession returns a session with no game in progress, as the
// reference engine starts.
func NewSession(cfg Config) *Session {
	e := &Session{cfg: cfg, bestFor: -1}
	e.defaultTime = &engine.Option{Name: "DefaultBestMoveTime", Type: engine.DoubleOption, Default: "5", Min: "0.01", Max: "86400"}
	e.repetitionDraw = &engine.Option{Name: "RepetitionDraw", Type: engine.BoolOption, Default: "True", Apply: func(v string) error {
		if e.game != nil {
			e.game.SetRepetitionDraw(v == "True")
		}
		return nil
	}}
	e.reportIntermediate = &engine.Option{Name: "ReportIntermediateBestMoves", Type: engine.BoolOption, Default: "False"}
	e.options = []*engine.Option{e.defaultTime, e.repetitionDraw, e.reportIntermediate}
	for _, o := range cfg.Options {
		// The session's own options govern the game the viewer sees; a
		// searcher's option of the same name stays the searcher's affair.
		if _, err := e.findOption(o.Name); err != nil {
			e.options = append(e.options, o)
		}
	}
	return e
}

// maxLine bounds the length of one command line by default; a GameString
// of the longest real games is a few kilobytes.
const maxLine = 1 << 20

// maxLineLen is the session's bound on the length of a command line.
func (e *Session) maxLineLen() int {
	if e.cfg.MaxLine > 0 {
		return e.cfg.MaxLine
	}
	return maxLine
}

// Run prints the info answer unprompted, as the reference engine does on
// start, then answers each line of in on out until in ends (after
// answering every command already read) or ctx is done, which ends it at
// once. The input is read ahead on a goroutine of its own, so that a stop
// line (see Ahead) is seen while a command runs; that goroutine may still
// be blocked in in's Read when Run returns, and the caller must then close
// in (the connection) to end it.
//
// With CancelOnEnd, the end of in (or a failed read) instead cancels the
// command in progress at once and ends Run, with nothing answered after
// that command.
func (e *Session) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	defer e.Close()
	w := bufio.NewWriter(out)
	e.Handle(ctx, "info", w)
	if err := w.Flush(); err != nil {
		return err
	}
	cmdCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	end := cancel
	if !e.cfg.CancelOnEnd {
		end = func() {}
	}
	a := newReadAhead(e.maxLineLen())
	defer close(a.done)
	go a.read(bufio.NewReaderSize(in, 64*1024), e, end, !e.cfg.CancelOnEnd)
	var drain <-chan struct{}
	if e.cfg.CancelOnEnd {
		drain = e.cfg.Drain
	}
	for {
		var l inputLine
		select {
		case <-a.ended:
			if e.cfg.CancelOnEnd {
				return a.err
			}
			// Every line was read before the end: answer those left.
			select {
			case l = <-a.lines:
			default:
				return a.err
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-drain:
			return nil
		case l = <-a.lines:
		}
		a.took(l)
		// A line read before the end is not answered once the end has
		// come: the client wants nothing more.
		if e.cfg.CancelOnEnd {
			select {
			case <-a.ended:
				return a.err
			default:
			}
		}
		if l.tooLong {
			writeLines(w, "err The command is longer than "+strconv.Itoa(e.maxLineLen())+" bytes.", "ok")
		} else if quit := e.HandleAhead(cmdCtx, l.n, l.text, w); quit {
			return w.Flush()
		}
		if err := w.Flush(); err != nil {
			if e.cfg.CancelOnEnd {
				select {
				case <-a.ended:
					return a.err // the client has gone: its answer with it
				default:
				}
			}
			return err
		}
	}
}

// maxPendingLines bounds the lines read ahead and not yet answered: a
// client that sends more behind a long command waits for them in its
// connection, and its leaving is then seen only once they are taken.
const maxPendingLines = 64

// inputLine is one line of the input read ahead, numbered by Ahead.
type inputLine struct {
	text    string
	tooLong bool
	n       uint64
}

// readAhead is the input of a session read on a goroutine of its own, so
// that its end is seen while a command runs. The lines are held in order
// until the session takes them, at most maxPendingLines of them and, unless
// one line alone is longer, at most MaxLine bytes, so that a client that
// writes ahead costs the session a few times its line limit at most (the
// line answered, the lines held, the line being read), not what it cares
// to send.
type readAhead struct {
	lines   chan inputLine // the lines read and not yet taken
	room    chan struct{}  // told (cap 1) when a line is taken
	pending atomic.Int64   // bytes of the lines read and not yet taken
	maxLine int            // the session's MaxLine: the bound of a line, and of the bytes held
	ended   chan struct{}  // closed when the input has ended
	err     error          // why it ended, nil for its end; set before ended is closed
	done    chan struct{}  // closed when Run returns: the reader gives up its sends
}

func newReadAhead(maxLine int) *readAhead {
	return &readAhead{
		lines:   make(chan inputLine, maxPendingLines),
		room:    make(chan struct{}, 1),
		maxLine: maxLine,
		ended:   make(chan struct{}),
		done:    make(chan struct{}),
	}
}

// read feeds the lines of r to e, each told to e.Ahead as it is read,
// until r ends, then calls end and closes ended. A last line cut short by
// the end is a command when last is set (a piped script's last line, with
// no line break), and otherwise not: the input ended in it.
func (a *readAhead) read(r *bufio.Reader, e *Session, end func(), last bool) {
	for {
		text, tooLong, err := ReadLine(r, a.maxLine)
		if err == nil || last && (text != "" || tooLong) {
			if !a.send(inputLine{text: text, tooLong: tooLong, n: e.Ahead(text)}) {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				a.err = err
			}
			end()
			close(a.ended)
			return
		}
	}
}

// send hands a line to the session, once there is room for it; it reports
// false if the session has ended first.
func (a *readAhead) send(l inputLine) bool {
	n := int64(len(l.text))
	for p := a.pending.Load(); p > 0 && p+n > int64(a.maxLine); p = a.pending.Load() {
		select {
		case <-a.room:
		case <-a.done:
			return false
		}
	}
	a.pending.Add(n)
	select {
	case a.lines <- l:
		return true
	case <-a.done:
		return false
	}
}

// took tells the reader that the session has taken l.
func (a *readAhead) took(l inputLine) {
	a.pending.Add(-int64(len(l.text)))
	select {
	case a.room <- struct{}{}:
	default:
	}
}

func writeLines(w io.Writer, lines ...string) {
	for _, l := range lines {
		io.WriteString(w, l)
		io.WriteString(w, "\n")
	}
}

// flush sends what w holds, when it is buffered, so that a line printed
// during a long command (an intermediate best move, a perft depth) reaches
// the viewer at once.
func flush(w io.Writer) {
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

// Handle answers one command line on w, ending with ok; a blank line gets
// no answer. It reports whether the command asks the engine to exit. A
// line that is not valid UTF-8 is no command: it is answered with an error
// that quotes none of it, so that nothing the engine writes is invalid
// UTF-8, which a viewer's decoder may choke on.
func (e *Session) Handle(ctx context.Context, line string, w io.Writer) (quit bool) {
	return e.HandleAhead(ctx, 0, line, w)
}

// HandleAhead is Handle for the line Ahead numbered n: a command that a
// stop read after it has stopped runs stopped, and a search answers at
// once with the best move it has.
func (e *Session) HandleAhead(ctx context.Context, n uint64, line string, w io.Writer) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	cmd, args := lowerASCII(fields[0]), fields[1:]
	valid := utf8.ValidString(line)
	if valid && (cmd == "exit" || cmd == "quit") {
		return true
	}
	start := time.Now()
	if e.cfg.BeforeCommand != nil {
		e.cfg.BeforeCommand()
	}
	ctx, cancel := context.WithCancel(ctx)
	e.mu.Lock()
	e.stop, e.running = cancel, n
	if n > 0 && n < e.stopAt {
		cancel()
	}
	e.mu.Unlock()
	err := error(errNotUTF8)
	if valid {
		err = e.dispatch(ctx, cmd, args, w)
	}
	e.mu.Lock()
	e.stop, e.running = nil, 0
	e.mu.Unlock()
	cancel()
	if err != nil {
		var invalid invalidMove
		// A searcher's or a matchmaker's words may come from another
		// process, in any bytes: what is written is valid UTF-8 all the
		// same.
		if errors.As(err, &invalid) {
			writeLines(w, "invalidmove "+strings.ToValidUTF8(invalid.Error(), "\uFFFD"))
		} else {
			writeLines(w, "err "+strings.ToValidUTF8(err.Error(), "\uFFFD"))
		}
	}
	took := time.Since(start)
	e.cfg.Log.Debug().Str("command", strings.ToValidUTF8(cmd, "\uFFFD")).Dur("took", took).AnErr("refused", err).Msg("uhp command")
	if e.cfg.OnCommand != nil {
		e.cfg.OnCommand(cmd, took, err)
	}
	writeLines(w, "ok")
	return false
}

// invalidMove marks the errors that UHP reports with invalidmove rather
// than err: an illegal or unparsable move.
type invalidMove struct{ error }

// The reference engine's words for its common errors.
const (
	errInvalidCommand engine.Error = "Invalid command. Try 'help' to see a list of valid commands."
	errNoGame         engine.Error = "No game in progress. Try 'newgame' to start a new game."
	errGameOver       engine.Error = "The game is over. Try 'newgame' to start a new game."
	errNotUTF8        engine.Error = "The command is not valid UTF-8."
)

func (e *Session) dispatch(ctx context.Context, cmd string, args []string, w io.Writer) error {
	switch cmd {
	case "info":
		return e.info(args, w)
	case "help":
		return e.help(w)
	case "newgame":
		return e.newGame(ctx, args, w)
	case "play":
		if len(args) == 0 {
			return errInvalidCommand
		}
		if engine.EqualFold(args[0], "forfeit") {
			return e.forfeit(strings.Join(args[1:], " "), w)
		}
		return e.play(ctx, strings.Join(args, " "), w)
	case "pass":
		if len(args) != 0 {
			return errInvalidCommand
		}
		return e.play(ctx, "pass", w)
	case "validmoves":
		return e.validMoves(w)
	case "bestmove":
		return e.bestMove(ctx, args, w)
	case "undo":
		return e.undo(args, w)
	case "options":
		return e.optionsCommand(args, w)
	case "perft":
		return e.perft(ctx, args, w)
	case "stop":
		// Read ahead, it has done its work (see Ahead); answered in its
		// turn, it has nothing left to stop.
		if len(args) == 0 {
			return nil
		}
	case "history":
		if e.cfg.Dialect == Early {
			return e.history(w)
		}
	}
	return errInvalidCommand
}

func (e *Session) info(args []string, w io.Writer) error {
	if len(args) != 0 {
		return errInvalidCommand
	}
	writeLines(w, "id "+e.cfg.ID)
	if caps := FormatCapabilities(e.cfg.Expansions); caps != "" && e.cfg.Dialect == Standard {
		writeLines(w, caps)
	}
	return nil
}

func (e *Session) help(w io.Writer) error {
	cmds := []string{"info", "newgame [GameTypeString|GameString]", "play MoveString", "pass", "validmoves",
		"bestmove [time hh:mm:ss|depth N|infinite]", "stop", "undo [N]", "options [get Name|set Name Value]", "perft N", "exit"}
	if e.cfg.Dialect == Early {
		cmds = append(cmds, "history")
	}
	writeLines(w, "Available commands:")
	for _, c := range cmds {
		writeLines(w, "  "+c)
	}
	return nil
}

// gameString writes the current GameString with the moves as spelled.
func (e *Session) gameString() string {
	return GameString{Type: e.game.Type(), State: e.state(), Turn: TurnOf(e.game), Moves: e.spellings}.String()
}

// setGame makes g the session's game, with its layout in the early
// dialect (l, or a new one if l is nil).
func (e *Session) setGame(g *core.Game, l *Layout) {
	e.game, e.layout = g, nil
	if e.cfg.Dialect == Early {
		if l == nil {
			l = LayoutOf(g)
		}
		e.layout = l
	}
}

// readMove reads a move of the session's game in its dialect.
func (e *Session) readMove(s string) (core.Move, error) {
	if e.layout != nil {
		return e.layout.ParseMove(s)
	}
	return ParseMove(s, e.game)
}

// playMove plays a legal move of the session's game, through its layout
// in the early dialect.
func (e *Session) playMove(m core.Move) {
	if e.layout != nil {
		e.layout.Play(m)
		return
	}
	e.game.Play(m)
}

// writeMoves spells moves of the current position canonically in the
// session's dialect.
func (e *Session) writeMoves(moves []core.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		if e.layout != nil {
			out[i] = e.layout.FormatMove(m)
		} else {
			out[i] = FormatMove(m, e.game)
		}
	}
	return out
}

// newGame answers "newgame", "newgame GameTypeString" and
// "newgame GameString"; a GameString's moves are all read and checked, and
// a bad one leaves the current game as it was.
func (e *Session) newGame(ctx context.Context, args []string, w io.Writer) error {
	if len(args) > 0 && engine.EqualFold(args[0], "remote") {
		return e.newRemoteGame(ctx, args[1:], w)
	}
	opt := core.RepetitionDraw(e.repetitionDraw.Value() == "True")
	var (
		g         *core.Game
		layout    *Layout
		spellings []string
	)
	switch {
	case len(args) == 0:
		g = core.NewGame(core.Base, opt)
	case len(args) == 1 && !strings.Contains(args[0], ";"):
		t, err := ParseGameType(args[0])
		if err != nil {
			return fmt.Errorf("Unable to parse '%s' as a GameTypeString: %w.", args[0], err)
		}
		g = core.NewGame(t, opt)
	default:
		gs, err := ParseGameString(strings.Join(args, " "))
		if err != nil {
			return fmt.Errorf("Unable to parse GameString: %w.", err)
		}
		if e.cfg.Dialect == Early {
			g, layout, err = gs.LoadEarly(opt)
		} else {
			g, err = gs.Load(opt)
		}
		if err != nil {
			var le *LoadError
			if errors.As(err, &le) {
				verb := "play"
				if le.Unparsable {
					verb = "parse"
				}
				return fmt.Errorf("Unable to %s '%s' in GameString: %v", verb, le.Text, strings.TrimSuffix(le.Err.Error(), ".")+".")
			}
			return err
		}
		spellings = gs.Moves
	}
	if g.Type()&^e.cfg.Expansions != 0 {
		return fmt.Errorf("This engine does not support %s games.", FormatGameType(g.Type()))
	}
	e.recordLeft("abandoned", "the viewer started a new game")
	e.leaveRemote(Leaving{How: LeftNewGame, Reason: "started a new game"})
	if err := engine.Forget(ctx, e.cfg.Searcher); err != nil {
		e.cfg.Log.Warn().Err(err).Msg("the searcher could not forget the last game")
	}
	e.setGame(g, layout)
	e.spellings, e.forfeited = spellings, nil
	e.recordBegun()
	writeLines(w, e.gameString())
	return nil
}

// play answers "play MoveString" and "pass"; in a remote game the
// opponent's reply follows.
func (e *Session) play(ctx context.Context, text string, w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	if e.over() {
		return errGameOver
	}
	text = strings.Join(strings.Fields(text), " ")
	m, err := e.readMove(text)
	if err != nil {
		return invalidMove{fmt.Errorf("Unable to parse move %q: %v.", text, strings.TrimSuffix(err.Error(), "."))}
	}
	if err := e.game.RuleBroken(m); err != nil {
		return invalidMove{err}
	}
	e.playMove(m)
	if m == core.Pass {
		text = "pass"
		if e.cfg.Dialect == Early {
			text = "PASS"
		}
	}
	e.spellings = append(e.spellings, text)
	e.recordPlayed(e.viewerMoveBy(m))
	writeLines(w, e.gameString())
	if e.remote != nil {
		e.remote.opponent.Moved(m)
		if !e.over() {
			return e.remoteReply(ctx, w)
		}
	}
	return nil
}

func (e *Session) validMoves(w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	if e.over() {
		return errGameOver
	}
	var l core.MoveList
	e.game.GenerateMoves(&l)
	writeLines(w, strings.Join(e.writeMoves(l.Moves()), ";"))
	return nil
}

// parseBestMoveLimit reads the arguments of bestmove: nothing (the
// DefaultBestMoveTime option), "time hh:mm:ss", "depth N", or hivebridge's
// extension "infinite", analysis until stopped (the zero limit: see
// engine.Limit). depth 0 looks no move ahead, yet a move is owed: it is
// searched as depth 1, the least search that ranks the moves, where the
// zero limit would search for ever.
func (e *Session) parseBestMoveLimit(args []string) (engine.Limit, error) {
	if len(args) == 0 {
		secs, _ := strconv.ParseFloat(e.defaultTime.Value(), 64)
		return engine.Limit{Time: time.Duration(secs * float64(time.Second))}, nil
	}
	if len(args) == 1 && lowerASCII(args[0]) == "infinite" {
		return engine.Limit{}, nil
	}
	if len(args) != 2 {
		return engine.Limit{}, errInvalidCommand
	}
	switch lowerASCII(args[0]) {
	case "time":
		d, err := ParseDuration(args[1])
		if err != nil {
			return engine.Limit{}, err
		}
		return engine.Limit{Time: d}, nil
	case "depth":
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 0 {
			return engine.Limit{}, fmt.Errorf("Unable to parse depth %q: want a non-negative whole number.", args[1])
		}
		return engine.Limit{Depth: max(n, 1)}, nil
	}
	return engine.Limit{}, errInvalidCommand
}

// ParseDuration reads a MaxTime, "hh:mm:ss", with optional fractions of a
// second (00:00:00.5).
func ParseDuration(s string) (time.Duration, error) {
	parts := strings.Split(s, ":")
	bad := fmt.Errorf("Unable to parse time %q: want hh:mm:ss.", s)
	if len(parts) != 3 {
		return 0, bad
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	sec, err3 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || h < 0 || m < 0 || m > 59 || sec < 0 || sec >= 60 || h > 99999 {
		return 0, bad
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec*float64(time.Second)), nil
}

func (e *Session) bestMove(ctx context.Context, args []string, w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	if e.over() {
		return errGameOver
	}
	limit, err := e.parseBestMoveLimit(args)
	if err != nil {
		return err
	}
	if e.cfg.Searcher == nil {
		return errors.New("No searcher is configured.")
	}
	last := ""
	var report func(engine.Progress)
	// Analysis is for its reports: bestmove infinite always prints them.
	if e.reportIntermediate.Value() == "True" || limit.Infinite() {
		report = func(p engine.Progress) {
			if !e.game.Legal(p.Move) {
				return
			}
			if line := e.progressLine(p); line != last {
				last = line
				writeLines(w, line)
				flush(w)
			}
		}
	}
	m, err := e.cfg.Searcher.BestMove(ctx, e.game, limit, report)
	if err != nil {
		return err
	}
	if err := e.game.RuleBroken(m); err != nil {
		return fmt.Errorf("The searcher returned an illegal move: %w", err)
	}
	e.best, e.bestFor = m, e.game.MovesPlayed()
	writeLines(w, e.writeMoves([]core.Move{m})[0])
	return nil
}

// progressLine writes a report of the search in progress as the reference
// engine does with ReportIntermediateBestMoves: "MoveString;Depth;Score"
// followed by the principal variation, one MoveString a field, the score
// from the side to move's view in pieces with two decimals (a forced
// result as engine.ForcedScoreBase minus its plies). A report with neither
// depth nor score is the bare MoveString, as engines print who report only
// their best move so far. A line of a MultiPV search ends with one field
// more, hivebridge's extension "multipv=K", K from 1 for the best line
// (see ParseProgress).
func (e *Session) progressLine(p engine.Progress) string {
	move := e.writeMoves([]core.Move{p.Move})[0]
	if p.Depth == 0 && p.Score.Kind == engine.NoScore {
		return move
	}
	pv := p.PV
	if len(pv) == 0 || pv[0] != p.Move {
		pv = []core.Move{p.Move}
	}
	fields := append([]string{move, strconv.Itoa(p.Depth), FormatScore(p.Score)}, e.formatLine(pv)...)
	if p.MultiPV > 0 {
		fields = append(fields, multiPVField+strconv.Itoa(p.MultiPV))
	}
	return strings.Join(fields, ";")
}

// formatLine writes a line of moves from the current position, each in
// the position the moves before it reached; it stops at the first move
// that is not legal there.
func (e *Session) formatLine(moves []core.Move) []string {
	g := e.game.Clone()
	var layout *Layout
	if e.layout != nil {
		layout = e.layout.Fork()
		g = layout.game
	}
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		if !g.Legal(m) {
			break
		}
		if layout != nil {
			out = append(out, layout.FormatMove(m))
			layout.Play(m)
		} else {
			out = append(out, FormatMove(m, g))
			g.Play(m)
		}
	}
	return out
}

func (e *Session) undo(args []string, w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	n := 1
	if len(args) > 1 {
		return errInvalidCommand
	}
	if len(args) == 1 {
		var err error
		if n, err = strconv.Atoi(args[0]); err != nil {
			return fmt.Errorf("Unable to undo %q moves: want a whole number.", args[0])
		}
	}
	if e.remote != nil {
		return errors.New("You can't undo moves in a remote game.")
	}
	if n < 1 || n > e.game.MovesPlayed() {
		return fmt.Errorf("Unable to undo %d moves.", n)
	}
	e.forfeited = nil
	for range n {
		if e.layout != nil {
			e.layout.Undo()
		} else {
			e.game.Undo()
		}
	}
	e.spellings = e.spellings[:len(e.spellings)-n]
	e.bestFor = -1
	e.record(GameEvent{Kind: MovesUndone, Undone: n})
	writeLines(w, e.gameString())
	return nil
}

func (e *Session) findOption(name string) (*engine.Option, error) {
	for _, o := range e.options {
		if engine.EqualFold(o.Name, name) {
			return o, nil
		}
	}
	return nil, fmt.Errorf("The option %q is not valid.", name)
}

// optionsCommand answers "options", "options get Name" and
// "options set Name Value".
func (e *Session) optionsCommand(args []string, w io.Writer) error {
	switch {
	case len(args) == 0:
		for _, o := range e.options {
			writeLines(w, FormatOption(o))
		}
		return nil
	case len(args) == 2 && engine.EqualFold(args[0], "get"):
		o, err := e.findOption(args[1])
		if err != nil {
			return err
		}
		writeLines(w, FormatOption(o))
		return nil
	case len(args) == 3 && engine.EqualFold(args[0], "set"):
		o, err := e.findOption(args[1])
		if err != nil {
			return err
		}
		if err := o.Set(args[2]); err != nil {
			return fmt.Errorf("Unable to set option: %w.", err)
		}
		writeLines(w, FormatOption(o))
		return nil
	}
	return errInvalidCommand
}

// perft answers "perft N" with the lines of the perft command.
func (e *Session) perft(ctx context.Context, args []string, w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	if len(args) != 1 {
		return errInvalidCommand
	}
	depth, err := strconv.Atoi(args[0])
	if err != nil || depth < 0 {
		return fmt.Errorf("Unable to calculate perft(%s).", args[0])
	}
	if e.cfg.MaxPerftDepth > 0 && depth > e.cfg.MaxPerftDepth {
		return fmt.Errorf("Unable to calculate perft(%d): this engine allows at most %d.", depth, e.cfg.MaxPerftDepth)
	}
	threads := e.cfg.PerftThreads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	start := time.Now()
	if depth > 0 && e.cfg.PerftSlot != nil {
		slot, release, err := e.cfg.PerftSlot(ctx)
		if err != nil {
			return err
		}
		defer release()
		ctx = slot
	}
	for d := 1; d <= depth; d++ {
		line, err := PerftLineContext(ctx, e.game, d, threads)
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("Unable to calculate perft(%d): stopped after %s, this engine's limit.", d, time.Since(start).Round(time.Second))
		}
		if err != nil {
			return err
		}
		writeLines(w, line)
		flush(w)
	}
	return nil
}

// PerftLine counts the positions d plies from g with the given number of
// threads and writes the result line of the perft command:
// "depth=D nodes=N ms=T nps=R".
func PerftLine(g *core.Game, d, threads int) string {
	start := time.Now()
	return perftLine(d, g.PerftParallel(d, threads), time.Since(start))
}

// PerftLineContext is PerftLine stopped when ctx is done (see
// core.Game.PerftContext), for a session whose client may leave or
// interrupt it: it then returns ctx.Err() and no line.
func PerftLineContext(ctx context.Context, g *core.Game, d, threads int) (string, error) {
	start := time.Now()
	nodes, err := g.PerftContext(ctx, d, threads)
	if err != nil {
		return "", err
	}
	return perftLine(d, nodes, time.Since(start)), nil
}

// perftLine writes the result line of the perft command.
func perftLine(d int, nodes uint64, elapsed time.Duration) string {
	nps := uint64(0)
	if elapsed > 0 {
		nps = uint64(float64(nodes) / elapsed.Seconds())
	}
	return fmt.Sprintf("depth=%d nodes=%d ms=%d nps=%d", d, nodes, elapsed.Milliseconds(), nps)
}

// history answers the early draft's history command.
func (e *Session) history(w io.Writer) error {
	if e.game == nil {
		return errNoGame
	}
	writeLines(w, e.layout.History())
	return nil
}

package hub

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The command words. Hub v2's summary: the GUI sends hub, set-param, init,
// pos, level, go, ponder-hit, stop, new-game, ping and quit; the engine
// answers id, param, wait, ready, info, done, pong and error.
const (
	CmdHub       = "hub"
	CmdSetParam  = "set-param"
	CmdInit      = "init"
	CmdPos       = "pos"
	CmdLevel     = "level"
	CmdGo        = "go"
	CmdPonderHit = "ponder-hit"
	CmdStop      = "stop"
	CmdNewGame   = "new-game"
	CmdPing      = "ping"
	CmdQuit      = "quit"

	CmdID    = "id"
	CmdParam = "param"
	CmdWait  = "wait"
	CmdReady = "ready"
	CmdInfo  = "info"
	CmdDone  = "done"
	CmdPong  = "pong"
	CmdError = "error"
)

// Message is one typed line of the protocol, either direction. Line
// writes it; the Parse function of its type, or DecodeCommand and
// DecodeAnswer, read it.
type Message interface {
	Line() Line
}

// DecodeCommand reads a line the GUI sends to the engine into its typed
// message: Hub, SetParam, Init, Pos, Level, Go, PonderHit, Stop, NewGame,
// Ping or Quit. Any other command, including the engine's own answers, is
// Unknown, which a session ignores: "Both the engine and the GUI should
// ignore commands and arguments that they don't understand." The error is
// that of the command's Parse function, and the Message is then nil.
func DecodeCommand(l Line) (Message, error) {
	switch l.Command {
	case CmdHub:
		return Hub{}, nil
	case CmdSetParam:
		return wrap(ParseSetParam(l))
	case CmdInit:
		return Init{}, nil
	case CmdPos:
		return wrap(ParsePos(l))
	case CmdLevel:
		return wrap(ParseLevel(l))
	case CmdGo:
		return wrap(ParseGo(l))
	case CmdPonderHit:
		return PonderHit{}, nil
	case CmdStop:
		return Stop{}, nil
	case CmdNewGame:
		return NewGame{}, nil
	case CmdPing:
		return Ping{}, nil
	case CmdQuit:
		return Quit{}, nil
	}
	return Unknown{Raw: l}, nil
}

// DecodeAnswer reads a line the engine sends to the GUI into its typed
// message: ID, Param, Wait, Ready, Info, Done, Pong or Error. Any other
// command is Unknown, as in DecodeCommand. Scan prints free text while it
// initialises ("it might display some information here, that the GUI
// should ignore"), so a GUI session should also ignore lines that Parse
// rejects until the engine is ready.
func DecodeAnswer(l Line) (Message, error) {
	switch l.Command {
	case CmdID:
		return wrap(ParseID(l))
	case CmdParam:
		return wrap(ParseParam(l))
	case CmdWait:
		return Wait{}, nil
	case CmdReady:
		return Ready{}, nil
	case CmdInfo:
		return wrap(ParseInfo(l))
	case CmdDone:
		return wrap(ParseDone(l))
	case CmdPong:
		return Pong{}, nil
	case CmdError:
		return wrap(ParseError(l))
	}
	return Unknown{Raw: l}, nil
}

// ReadCommand parses a line of text and decodes it with DecodeCommand. A
// blank line is ErrEmptyLine.
func ReadCommand(s string) (Message, error) {
	l, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return DecodeCommand(l)
}

// ReadAnswer parses a line of text and decodes it with DecodeAnswer. A
// blank line is ErrEmptyLine.
func ReadAnswer(s string) (Message, error) {
	l, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return DecodeAnswer(l)
}

// wrap turns a typed parse result into a Message, nil on error.
func wrap[M Message](m M, err error) (Message, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Unknown is a line whose command the decoder does not know. Raw is the
// line as read, for logs and for sessions that extend the protocol.
type Unknown struct {
	Raw Line
}

// Line returns the line as read.
func (u Unknown) Line() Line { return u.Raw }

// expect checks that l is a line of command cmd.
func expect(l Line, cmd string) error {
	if l.Command != cmd {
		return fmt.Errorf("a %s line was expected, not %s", cmd, l.Command)
	}
	return nil
}

// single returns the value of the argument name, which a typed message
// reads at most once: the same argument twice is ambiguous, and an error
// rather than a guess.
func single(l Line, name string) (string, bool, error) {
	switch l.count(name) {
	case 0:
		return "", false, nil
	case 1:
		v, _ := l.Get(name)
		return v, true, nil
	}
	return "", false, fmt.Errorf("%s: %s given twice", l.Command, name)
}

// argReader reads the known arguments of a line one by one and keeps the
// first error, so that a parser reads like the list of its fields.
type argReader struct {
	line Line
	err  error
}

// get returns the value of the argument name as single does, and false
// once an error has been met; the caller stores the error of reading the
// value in r.err.
func (r *argReader) get(name string) (string, bool) {
	if r.err != nil {
		return "", false
	}
	v, ok, err := single(r.line, name)
	r.err = err
	return v, ok && err == nil
}

// extra returns the arguments of l not named in known, in order.
func extra(l Line, known ...string) []Arg {
	var out []Arg
	for _, a := range l.Args {
		isKnown := false
		for _, k := range known {
			isKnown = isKnown || a.Name == k
		}
		if !isKnown {
			out = append(out, a)
		}
	}
	return out
}

// Commands without arguments. Their Line writes the bare command; the
// decoders ignore any argument they carry.
type (
	// Hub opens the initialisation: the engine answers id, its param
	// lines and wait.
	Hub struct{}
	// Init asks the engine to initialise "now that it has the values" of
	// its parameters; it answers ready.
	Init struct{}
	// PonderHit: "the opponent has played the expected move" during a go
	// ponder search, which goes on as a normal search.
	PonderHit struct{}
	// Stop ends the search, which "must still produce a done answer".
	Stop struct{}
	// NewGame "indicates that the next search will be unrelated to
	// previous ones (=> clear TT)".
	NewGame struct{}
	// Ping "must be answered by pong", also during a search.
	Ping struct{}
	// Quit ends the engine.
	Quit struct{}
	// Wait ends the engine's answer to hub.
	Wait struct{}
	// Ready is the engine's answer to init.
	Ready struct{}
	// Pong is the engine's answer to ping.
	Pong struct{}
)

// Line writes the bare command.
func (Hub) Line() Line { return NewLine(CmdHub) }

// Line writes the bare command.
func (Init) Line() Line { return NewLine(CmdInit) }

// Line writes the bare command.
func (PonderHit) Line() Line { return NewLine(CmdPonderHit) }

// Line writes the bare command.
func (Stop) Line() Line { return NewLine(CmdStop) }

// Line writes the bare command.
func (NewGame) Line() Line { return NewLine(CmdNewGame) }

// Line writes the bare command.
func (Ping) Line() Line { return NewLine(CmdPing) }

// Line writes the bare command.
func (Quit) Line() Line { return NewLine(CmdQuit) }

// Line writes the bare command.
func (Wait) Line() Line { return NewLine(CmdWait) }

// Line writes the bare command.
func (Ready) Line() Line { return NewLine(CmdReady) }

// Line writes the bare command.
func (Pong) Line() Line { return NewLine(CmdPong) }

// SetParam is set-param name=... value=...: the GUI sets an engine
// parameter, before init.
type SetParam struct {
	Name  string
	Value string
}

// Line writes the command.
func (s SetParam) Line() Line {
	return NewLine(CmdSetParam, Pair("name", s.Name), Pair("value", s.Value))
}

// ParseSetParam reads set-param; both name and value are required.
// Whether the value suits the parameter is for the declaration's
// Param.Check to say.
func ParseSetParam(l Line) (SetParam, error) {
	if err := expect(l, CmdSetParam); err != nil {
		return SetParam{}, err
	}
	name, ok, err := single(l, "name")
	if err != nil {
		return SetParam{}, err
	}
	if !ok || name == "" {
		return SetParam{}, errors.New("set-param: name= is missing")
	}
	value, ok, err := single(l, "value")
	if err != nil {
		return SetParam{}, err
	}
	if !ok {
		return SetParam{}, fmt.Errorf("set-param %s: value= is missing (value=\"\" sets the empty string)", name)
	}
	return SetParam{Name: name, Value: value}, nil
}

// GoMode is the argument of go.
type GoMode string

// The three searches. "go think is the normal, engine is thinking,
// search"; go ponder searches the position with the expected opponent move
// already played, clock stopped until ponder-hit; "With go analyze, the GUI
// cares more about search information such as the score and PV."
const (
	Think   GoMode = "think"
	Ponder  GoMode = "ponder"
	Analyze GoMode = "analyze"
)

// Go is go think, go ponder or go analyze, which starts the search.
type Go struct {
	Mode GoMode
}

// Line writes the command, the mode as a flag.
func (g Go) Line() Line { return NewLine(CmdGo, FlagArg(string(g.Mode))) }

// ParseGo reads go: "A search is launched with go and one of 3 arguments:
// think, ponder, or analyze." Exactly one is required; other arguments are
// ignored.
func ParseGo(l Line) (Go, error) {
	if err := expect(l, CmdGo); err != nil {
		return Go{}, err
	}
	var found []GoMode
	for _, m := range []GoMode{Think, Ponder, Analyze} {
		if l.Has(string(m)) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return Go{}, errors.New("go: think, ponder or analyze is missing")
	case 1:
		return Go{Mode: found[0]}, nil
	}
	return Go{}, fmt.Errorf("go: %s and %s both given; want one of think, ponder and analyze", found[0], found[1])
}

// Level is the command level, the limits of the next search. Hub v2:
//
//	level depth=<max depth>
//	level nodes=<max nodes>
//	level move-time=<time per move>
//	level [moves=<remaining moves>] time=<remaining time> [inc=<increment per move>]
//	level infinite (for analysis, the GUI will send "stop" later)
//
// "Time is measured in seconds (real number). [...] the meaningful
// combinations are: time only (sudden death), moves + time (x/y time
// control), time + inc (x+y aka. Fischer time control)", and "the
// increment is added before every move."
//
// A zero field is an absent argument. The spec lists the forms as
// alternatives but says nothing against combining them, and "the various
// fields are the same as in UCI", where limits combine; so limits of
// several forms may come together (depth=12 move-time=5: whichever ends the
// search first), with two exceptions that are errors: moves= and inc=
// belong to time=, and infinite stands alone.
type Level struct {
	Depth    int           // depth=: the maximum depth in plies, from 1
	Nodes    uint64        // nodes=: the maximum number of nodes, from 1
	MoveTime time.Duration // move-time=: the time for this move, more than 0
	Clock    bool          // time= was given: Time, Moves and Inc describe the engine's clock
	Time     time.Duration // time=: the time left, from 0 (a flag's fall leaves 0)
	Moves    int           // moves=: the moves to play in Time, from 1; 0 is sudden death
	Inc      time.Duration // inc=: the increment added before every move
	Infinite bool          // infinite: search until stop
}

// Line writes the command: depth, nodes, move-time, then the clock in the
// spec's order (moves, time, inc), then infinite.
func (v Level) Line() Line {
	var args []Arg
	if v.Depth != 0 {
		args = append(args, Pair("depth", strconv.Itoa(v.Depth)))
	}
	if v.Nodes != 0 {
		args = append(args, Pair("nodes", strconv.FormatUint(v.Nodes, 10)))
	}
	if v.MoveTime != 0 {
		args = append(args, Pair("move-time", FormatSeconds(v.MoveTime)))
	}
	if v.Moves != 0 {
		args = append(args, Pair("moves", strconv.Itoa(v.Moves)))
	}
	if v.Clock {
		args = append(args, Pair("time", FormatSeconds(v.Time)))
	}
	if v.Inc != 0 {
		args = append(args, Pair("inc", FormatSeconds(v.Inc)))
	}
	if v.Infinite {
		args = append(args, FlagArg("infinite"))
	}
	return NewLine(CmdLevel, args...)
}

// ParseLevel reads level. Every number must parse ("level time=abc" is an
// error that says time must be a number of seconds) and lie in its range;
// a level that sets no limit at all is an error too, since the search
// that follows would have none.
func ParseLevel(l Line) (Level, error) {
	if err := expect(l, CmdLevel); err != nil {
		return Level{}, err
	}
	var v Level
	r := argReader{line: l}
	if s, ok := r.get("depth"); ok {
		v.Depth, r.err = parseInt(CmdLevel, "depth", s, 1)
	}
	if s, ok := r.get("nodes"); ok {
		v.Nodes, r.err = parseCount(CmdLevel, "nodes", s)
	}
	if s, ok := r.get("move-time"); ok {
		v.MoveTime, r.err = parseSeconds(CmdLevel, "move-time", s)
		if r.err == nil && v.MoveTime == 0 {
			r.err = fmt.Errorf("level: move-time must be more than 0 seconds, not %s", s)
		}
	}
	if s, ok := r.get("time"); ok {
		v.Clock = true
		v.Time, r.err = parseSeconds(CmdLevel, "time", s)
	}
	if s, ok := r.get("moves"); ok {
		v.Moves, r.err = parseInt(CmdLevel, "moves", s, 1)
	}
	if s, ok := r.get("inc"); ok {
		v.Inc, r.err = parseSeconds(CmdLevel, "inc", s)
	}
	if _, ok := r.get("infinite"); ok {
		v.Infinite = true
	}
	if r.err != nil {
		return Level{}, r.err
	}
	return v, v.Check()
}

// Check reports a level that breaks the rules of ParseLevel.
func (v Level) Check() error {
	switch {
	case v.Depth < 0:
		return fmt.Errorf("level: depth must be at least 1, not %d", v.Depth)
	case v.MoveTime < 0:
		return fmt.Errorf("level: move-time must be more than 0 seconds, not %s", FormatSeconds(v.MoveTime))
	case v.Time < 0 || v.Inc < 0:
		return errors.New("level: time and inc must not be negative")
	case v.Moves < 0:
		return fmt.Errorf("level: moves must be at least 1, not %d", v.Moves)
	case !v.Clock && v.Moves != 0:
		return errors.New("level: moves= needs time=, the time left for those moves")
	case !v.Clock && v.Inc != 0:
		return errors.New("level: inc= needs time=, the time left on the clock")
	case !v.Clock && v.Time != 0:
		return errors.New("level: Time is set but Clock is not, so time= would not be written")
	case v.Infinite && (v.Depth != 0 || v.Nodes != 0 || v.MoveTime != 0 || v.Clock):
		return errors.New("level: infinite takes no limit; it searches until stop")
	case !v.Infinite && v.Depth == 0 && v.Nodes == 0 && v.MoveTime == 0 && !v.Clock:
		return errors.New("level: no limit given; want depth=, nodes=, move-time=, time= or infinite")
	}
	return nil
}

// Done is the engine's answer to a search, "the engine's move" and
// "optionally, the expected answer from the opponent":
//
//	done move="<MoveString>" [ponder="<MoveString>"]
//
// Both are UHP MoveStrings; the ponder move is spelled in the position after
// the move.
type Done struct {
	Move   string
	Ponder string // "" for none
}

// NewDone spells best, a legal move of g, and ponder, the expected answer
// (core.NoMove for none), each in its own position. g is not changed.
func NewDone(g *core.Game, best, ponder core.Move) Done {
	d := Done{Move: uhp.FormatMove(best, g)}
	if ponder != core.NoMove {
		c := g.Clone()
		c.Play(best)
		d.Ponder = uhp.FormatMove(ponder, c)
	}
	return d
}

// Line writes the answer.
func (d Done) Line() Line {
	l := NewLine(CmdDone, Pair("move", d.Move))
	if d.Ponder != "" {
		l.Args = append(l.Args, Pair("ponder", d.Ponder))
	}
	return l
}

// ParseDone reads done; move= is required, an empty ponder= counts as none.
func ParseDone(l Line) (Done, error) {
	if err := expect(l, CmdDone); err != nil {
		return Done{}, err
	}
	move, ok, err := single(l, "move")
	if err != nil {
		return Done{}, err
	}
	if !ok {
		return Done{}, errors.New("done: move= is missing")
	}
	var d Done
	if d.Move, err = normalizeMove(move); err != nil {
		return Done{}, fmt.Errorf("done: move: %w", err)
	}
	ponder, _, err := single(l, "ponder")
	if err != nil {
		return Done{}, err
	}
	if strings.TrimSpace(ponder) != "" {
		if d.Ponder, err = normalizeMove(ponder); err != nil {
			return Done{}, fmt.Errorf("done: ponder: %w", err)
		}
	}
	return d, nil
}

// Best reads the move in g's position and checks it is legal.
func (d Done) Best(g *core.Game) (core.Move, error) { return ReadMove(d.Move, g) }

// PonderMove reads the expected answer in the position after the move,
// and checks both; it returns core.NoMove and no error when there is none.
func (d Done) PonderMove(g *core.Game) (core.Move, error) {
	if d.Ponder == "" {
		return core.NoMove, nil
	}
	moves, err := ReadMoves(g, []string{d.Move, d.Ponder})
	if err != nil {
		return core.NoMove, err
	}
	return moves[1], nil
}

// ID is the engine's id line, for example
//
//	id name=Scan version=3.1 author="Fabien Letouzey" country=France
//
// Empty fields are not written; other arguments are kept in Extra.
type ID struct {
	Name, Version, Author, Country string
	Extra                          []Arg
}

// Line writes the id line.
func (id ID) Line() Line {
	var args []Arg
	for _, f := range [...]struct{ name, value string }{
		{"name", id.Name}, {"version", id.Version}, {"author", id.Author}, {"country", id.Country},
	} {
		if f.value != "" {
			args = append(args, Pair(f.name, f.value))
		}
	}
	return NewLine(CmdID, append(args, id.Extra...)...)
}

// ParseID reads an id line; every field is optional.
func ParseID(l Line) (ID, error) {
	if err := expect(l, CmdID); err != nil {
		return ID{}, err
	}
	var id ID
	for _, f := range [...]struct {
		name string
		to   *string
	}{{"name", &id.Name}, {"version", &id.Version}, {"author", &id.Author}, {"country", &id.Country}} {
		v, _, err := single(l, f.name)
		if err != nil {
			return ID{}, err
		}
		*f.to = v
	}
	id.Extra = extra(l, "name", "version", "author", "country")
	return id, nil
}

// Error is the answer error message="...", "for anything that cannot be
// done, on its own line, never in place of a done that is owed"
// (hub-hive.md).
type Error struct {
	Message string
}

// ErrorOf returns the answer that reports err.
func ErrorOf(err error) Error { return Error{Message: err.Error()} }

// Line writes the answer. A message cannot carry a double quote, which Hub
// has no escape for: Line.String writes any as an apostrophe, and line
// breaks as spaces.
func (e Error) Line() Line { return NewLine(CmdError, Pair("message", e.Message)) }

// ParseError reads error; the message is optional.
func ParseError(l Line) (Error, error) {
	if err := expect(l, CmdError); err != nil {
		return Error{}, err
	}
	m, _, err := single(l, "message")
	return Error{Message: m}, err
}

package hub

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
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
func (Hub) Line() Line { return New(CmdHub) }

// Line writes the bare command.
func (Init) Line() Line { return New(CmdInit) }

// Line writes the bare command.
func (PonderHit) Line() Line { return New(CmdPonderHit) }

// Line writes the bare command.
func (Stop) Line() Line { return New(CmdStop) }

// Line writes the bare command.
func (NewGame) Line() Line { return New(CmdNewGame) }

// Line writes the bare command.
func (Ping) Line() Line { return New(CmdPing) }

// Line writes the bare command.
func (Quit) Line() Line { return New(CmdQuit) }

// Line writes the bare command.
func (Wait) Line() Line { return New(CmdWait) }

// Line writes the bare command.
func (Ready) Line() Line { return New(CmdReady) }

// Line writes the bare command.
func (Pong) Line() Line { return New(CmdPong) }

// SetParam is set-param name=... value=...: the GUI sets an engine
// parameter, before init.
type SetParam struct {
	Name  string
	Value string
}

// Line writes the command.
func (s SetParam) Line() Line {
	return New(CmdSetParam, Pair("name", s.Name), Pair("value", s.Value))
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
func (g Go) Line() Line { return New(CmdGo, FlagArg(string(g.Mode))) }

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
	return New(CmdLevel, args...)
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

// Info is an info line, search information the engine prints "with
// progressive search information" before done. hub-hive.md:
//
//	info depth=D score=S nodes=N time=T nps=K pv="m1;m2;m3"
//
// "Other engines can use any subset, or even add their own fields": Has
// says which fields the line has, and Extra keeps the others, in order.
type Info struct {
	Has       InfoField
	Depth     int           // depth=: the depth of the iteration, in plies
	MeanDepth float64       // mean-depth=: the average leaf depth
	Score     Score         // score=: from the side to move's point of view
	Nodes     uint64        // nodes=: "64-bit integer"
	Time      time.Duration // time=: the time searched so far, written in seconds
	NPS       float64       // nps=: the speed in millions of nodes per second, as Scan gives it
	PV        []string      // pv=: the principal variation, UHP MoveStrings from the searched position
	Extra     []Arg
}

// InfoField is a set of the fields of an Info line, one bit each.
type InfoField uint8

// The fields of Info, in the order Line writes them (Scan's).
const (
	InfoDepth InfoField = 1 << iota
	InfoMeanDepth
	InfoScore
	InfoNodes
	InfoTime
	InfoNPS
	InfoPV
)

// NewInfo returns the info line hivebridge prints after each iteration:
// depth, score, nodes, time, nps (when elapsed is not 0) and pv, which
// WriteMoves spells from the searched position.
func NewInfo(depth int, score Score, nodes uint64, elapsed time.Duration, pv []string) Info {
	i := Info{Has: InfoDepth | InfoScore | InfoNodes | InfoTime | InfoPV, Depth: depth, Score: score, Nodes: nodes, Time: elapsed, PV: pv}
	if elapsed > 0 {
		i.Has |= InfoNPS
		i.NPS = math.Round(float64(nodes)/elapsed.Seconds()/1e3) / 1e3
	}
	return i
}

// Line writes the info line, its fields in Scan's order, then Extra.
func (i Info) Line() Line {
	var args []Arg
	if i.Has&InfoDepth != 0 {
		args = append(args, Pair("depth", strconv.Itoa(i.Depth)))
	}
	if i.Has&InfoMeanDepth != 0 {
		args = append(args, Pair("mean-depth", formatReal(i.MeanDepth)))
	}
	if i.Has&InfoScore != 0 {
		args = append(args, Pair("score", i.Score.String()))
	}
	if i.Has&InfoNodes != 0 {
		args = append(args, Pair("nodes", strconv.FormatUint(i.Nodes, 10)))
	}
	if i.Has&InfoTime != 0 {
		args = append(args, Pair("time", FormatSeconds(i.Time)))
	}
	if i.Has&InfoNPS != 0 {
		args = append(args, Pair("nps", formatReal(i.NPS)))
	}
	if i.Has&InfoPV != 0 {
		args = append(args, Pair("pv", FormatMoveList(i.PV)))
	}
	return New(CmdInfo, append(args, i.Extra...)...)
}

// ParseInfo reads an info line. Every field it knows must parse; the
// others go to Extra.
func ParseInfo(l Line) (Info, error) {
	if err := expect(l, CmdInfo); err != nil {
		return Info{}, err
	}
	var i Info
	r := argReader{line: l}
	if s, ok := r.get("depth"); ok {
		i.Has |= InfoDepth
		i.Depth, r.err = parseInt(CmdInfo, "depth", s, 0)
	}
	if s, ok := r.get("mean-depth"); ok {
		i.Has |= InfoMeanDepth
		i.MeanDepth, r.err = parseNumber(CmdInfo, "mean-depth", s)
	}
	if s, ok := r.get("score"); ok {
		i.Has |= InfoScore
		var f float64
		f, r.err = parseNumber(CmdInfo, "score", s)
		i.Score = Score(f)
	}
	if s, ok := r.get("nodes"); ok {
		i.Has |= InfoNodes
		i.Nodes, r.err = parseUint(CmdInfo, "nodes", s)
	}
	if s, ok := r.get("time"); ok {
		i.Has |= InfoTime
		i.Time, r.err = parseSeconds(CmdInfo, "time", s)
	}
	if s, ok := r.get("nps"); ok {
		i.Has |= InfoNPS
		i.NPS, r.err = parseNumber(CmdInfo, "nps", s)
	}
	if s, ok := r.get("pv"); ok {
		i.Has |= InfoPV
		if i.PV, r.err = ParseMoveList(s); r.err != nil {
			r.err = fmt.Errorf("info: pv: %w", r.err)
		}
	}
	if r.err != nil {
		return Info{}, r.err
	}
	i.Extra = extra(l, "depth", "mean-depth", "score", "nodes", "time", "nps", "pv")
	return i, nil
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
	l := New(CmdDone, Pair("move", d.Move))
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
	return New(CmdID, append(args, id.Extra...)...)
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

// ParamType is the type of an engine parameter. Hub v2: "The allowed types
// are: type=bool, type=int min=... max=..., type=real min=... max=...,
// type=string, type=enum values="... ... ..."". A param line may have no
// type (the GUI "handles all engine parameters as strings"); a type this
// package does not know is kept, and its values are taken as strings.
type ParamType string

// The parameter types of Hub v2.
const (
	TypeBool   ParamType = "bool"
	TypeInt    ParamType = "int"
	TypeReal   ParamType = "real"
	TypeString ParamType = "string"
	TypeEnum   ParamType = "enum"
)

// The parameters hub-hive.md declares for hivebridge.
const (
	ParamVariant = "variant" // the game type of a pos without one
	ParamThreads = "threads"
	ParamHash    = "hash" // MiB
	ParamPonder  = "ponder"
)

// Param is a param line, the declaration of one engine parameter: its
// name, current value, type and the type's constraints. Min and Max are
// kept as written ("" for no bound), since the GUI deals in strings; Check
// reads them.
type Param struct {
	Name   string
	Value  string
	Type   ParamType
	Min    string
	Max    string
	Values []string // the choices of an enum
	Extra  []Arg
}

// BoolParam declares a bool parameter.
func BoolParam(name string, value bool) Param {
	return Param{Name: name, Value: strconv.FormatBool(value), Type: TypeBool}
}

// IntParam declares an int parameter with its bounds.
func IntParam(name string, value, minimum, maximum int) Param {
	return Param{Name: name, Value: strconv.Itoa(value), Type: TypeInt, Min: strconv.Itoa(minimum), Max: strconv.Itoa(maximum)}
}

// RealParam declares a real parameter with its bounds.
func RealParam(name string, value, minimum, maximum float64) Param {
	return Param{Name: name, Value: formatReal(value), Type: TypeReal, Min: formatReal(minimum), Max: formatReal(maximum)}
}

// StringParam declares a string parameter.
func StringParam(name, value string) Param {
	return Param{Name: name, Value: value, Type: TypeString}
}

// EnumParam declares an enum parameter and its choices, which are written
// separated by spaces and so cannot hold one.
func EnumParam(name, value string, values ...string) Param {
	return Param{Name: name, Value: value, Type: TypeEnum, Values: values}
}

// VariantParam declares hub-hive.md's variant parameter, the game type of
// positions that name none:
//
//	param name=variant value=Base type=enum values="Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP"
func VariantParam(value core.GameType) Param {
	return EnumParam(ParamVariant, uhp.FormatGameType(value), VariantValues()...)
}

// VariantValues returns the eight GameTypeStrings in hub-hive.md's order:
// by number of expansions, then Mosquito, Ladybug, Pillbug.
func VariantValues() []string {
	var out []string
	for n := 0; n <= 3; n++ {
		for t := core.GameType(0); t < core.AllGameTypes; t++ {
			if bits.OnesCount8(uint8(t)) == n {
				out = append(out, uhp.FormatGameType(t))
			}
		}
	}
	return out
}

// Line writes the declaration: name, value, type, then the constraints.
func (p Param) Line() Line {
	args := []Arg{Pair("name", p.Name), Pair("value", p.Value)}
	if p.Type != "" {
		args = append(args, Pair("type", string(p.Type)))
	}
	if p.Min != "" {
		args = append(args, Pair("min", p.Min))
	}
	if p.Max != "" {
		args = append(args, Pair("max", p.Max))
	}
	if len(p.Values) > 0 {
		args = append(args, Pair("values", strings.Join(p.Values, " ")))
	}
	return New(CmdParam, append(args, p.Extra...)...)
}

// ParseParam reads a param line. Name and value are required; the
// constraints must suit the type (int bounds are whole numbers, real bounds
// numbers, an enum has choices), and the value must satisfy them.
func ParseParam(l Line) (Param, error) {
	if err := expect(l, CmdParam); err != nil {
		return Param{}, err
	}
	var p Param
	var fields [6]string
	var has [6]bool
	for k, name := range [...]string{"name", "value", "type", "min", "max", "values"} {
		var err error
		if fields[k], has[k], err = single(l, name); err != nil {
			return Param{}, err
		}
	}
	p.Name, p.Value, p.Type, p.Min, p.Max = fields[0], fields[1], ParamType(fields[2]), fields[3], fields[4]
	if v := strings.Fields(fields[5]); len(v) > 0 {
		p.Values = v
	}
	if p.Name == "" {
		return Param{}, errors.New("param: name= is missing")
	}
	if !has[1] {
		return Param{}, fmt.Errorf("param %s: value= is missing", p.Name)
	}
	if err := p.checkBounds(); err != nil {
		return Param{}, err
	}
	if err := p.Check(p.Value); err != nil {
		return Param{}, err
	}
	p.Extra = extra(l, "name", "value", "type", "min", "max", "values")
	return p, nil
}

// checkBounds checks the syntax of the type's constraints.
func (p Param) checkBounds() error {
	switch p.Type {
	case TypeInt, TypeReal:
		for _, b := range [...]struct{ name, text string }{{"min", p.Min}, {"max", p.Max}} {
			if b.text == "" {
				continue
			}
			if _, err := p.compare(b.text, b.text); err != nil {
				return fmt.Errorf("param %s: %s: %w", p.Name, b.name, err)
			}
		}
		if p.Min != "" && p.Max != "" {
			if c, _ := p.compare(p.Min, p.Max); c > 0 {
				return fmt.Errorf("param %s: min %s is above max %s", p.Name, p.Min, p.Max)
			}
		}
	case TypeEnum:
		if len(p.Values) == 0 {
			return fmt.Errorf("param %s: type=enum needs values=\"...\", the choices", p.Name)
		}
	}
	return nil
}

// compare reads a and b as values of an int or real parameter and
// compares them: -1, 0 or +1. Whole numbers are compared as integers, so
// that bounds beyond 2^53 stay exact. The error names the first that is no
// number of the type.
func (p Param) compare(a, b string) (int, error) {
	if p.Type == TypeInt {
		var n [2]int64
		for k, s := range [...]string{a, b} {
			var err error
			if n[k], err = strconv.ParseInt(s, 10, 64); err != nil {
				return 0, fmt.Errorf("'%s' is not a whole number", s)
			}
		}
		return cmpOrder(n[0] < n[1], n[0] > n[1]), nil
	}
	x, err := parseReal(a)
	if err != nil {
		return 0, err
	}
	y, err := parseReal(b)
	if err != nil {
		return 0, err
	}
	return cmpOrder(x < y, x > y), nil
}

func cmpOrder(less, more bool) int {
	switch {
	case less:
		return -1
	case more:
		return 1
	}
	return 0
}

// Check reports whether value suits the parameter: true or false for a
// bool, a whole number for an int, a number for a real, within Min and Max
// when they are given, one of Values for an enum; any text for other types.
// An engine answers a set-param that fails with error message="...".
func (p Param) Check(value string) error {
	switch p.Type {
	case TypeBool:
		if value != "true" && value != "false" {
			return fmt.Errorf("parameter %s: '%s' is not true or false", p.Name, value)
		}
	case TypeInt, TypeReal:
		if _, err := p.compare(value, value); err != nil {
			return fmt.Errorf("parameter %s: %w", p.Name, err)
		}
		if c, err := p.compare(value, p.Min); err == nil && c < 0 {
			return fmt.Errorf("parameter %s: %s is below the minimum %s", p.Name, value, p.Min)
		}
		if c, err := p.compare(value, p.Max); err == nil && c > 0 {
			return fmt.Errorf("parameter %s: %s is above the maximum %s", p.Name, value, p.Max)
		}
	case TypeEnum:
		for _, c := range p.Values {
			if value == c {
				return nil
			}
		}
		return fmt.Errorf("parameter %s: '%s' is not one of %s", p.Name, value, strings.Join(p.Values, ", "))
	}
	return nil
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
func (e Error) Line() Line { return New(CmdError, Pair("message", e.Message)) }

// ParseError reads error; the message is optional.
func ParseError(l Line) (Error, error) {
	if err := expect(l, CmdError); err != nil {
		return Error{}, err
	}
	m, _, err := single(l, "message")
	return Error{Message: m}, err
}

// Numbers.

// parseInt reads a whole number of at least minimum.
func parseInt(cmd, name, s string, minimum int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s: %s is out of range: %s", cmd, name, s)
		}
		return 0, fmt.Errorf("%s: %s must be a whole number, not '%s'", cmd, name, s)
	}
	if n < minimum {
		return 0, fmt.Errorf("%s: %s must be at least %d, not %s", cmd, name, minimum, s)
	}
	return n, nil
}

// parseUint reads a whole number from 0, up to 2^64-1.
func parseUint(cmd, name, s string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s: %s is out of range: %s", cmd, name, s)
		}
		return 0, fmt.Errorf("%s: %s must be a whole number from 0, not '%s'", cmd, name, s)
	}
	return n, nil
}

// parseCount reads a whole number from 1.
func parseCount(cmd, name, s string) (uint64, error) {
	n, err := parseUint(cmd, name, s)
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: %s must be at least 1, not %s", cmd, name, s)
	}
	return n, err
}

// parseNumber reads a real number.
func parseNumber(cmd, name, s string) (float64, error) {
	f, err := parseReal(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %s must be a number, not '%s'", cmd, name, s)
	}
	return f, nil
}

// parseSeconds reads a time: "Time is measured in seconds (real number)."
// It must not be negative, and is kept to the nanosecond.
func parseSeconds(cmd, name, s string) (time.Duration, error) {
	f, err := parseReal(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %s must be a number of seconds, not '%s'", cmd, name, s)
	}
	if f < 0 {
		return 0, fmt.Errorf("%s: %s must not be negative, not %s", cmd, name, s)
	}
	ns := math.Round(f * 1e9)
	if ns >= math.MaxInt64 {
		return 0, fmt.Errorf("%s: %s is out of range: %s seconds", cmd, name, s)
	}
	return time.Duration(ns), nil
}

// FormatSeconds writes a duration as Hub writes times: seconds, as a
// decimal number with as many digits after the point as it needs (none for
// whole seconds, at most nine). The text is exact, so it reads back as the
// same duration.
func FormatSeconds(d time.Duration) string {
	sign := ""
	u := uint64(d)
	if d < 0 {
		sign, u = "-", uint64(-d)
	}
	sec, ns := u/1e9, u%1e9
	if ns == 0 {
		return sign + strconv.FormatUint(sec, 10)
	}
	frac := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	return sign + strconv.FormatUint(sec, 10) + "." + frac
}

package hub_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// decode reads a line of either direction.
func decode(t testing.TB, s string) hub.Message {
	t.Helper()
	l := mustParse(t, s)
	m, err := hub.DecodeCommand(l)
	if err != nil {
		t.Fatalf("DecodeCommand(%q): %v", s, err)
	}
	if _, ok := m.(hub.Unknown); !ok {
		return m
	}
	if m, err = hub.DecodeAnswer(l); err != nil {
		t.Fatalf("DecodeAnswer(%q): %v", s, err)
	}
	return m
}

// The lines of hub-hive.md, with numbers where it has placeholders, decode
// to typed messages that write the same lines back, byte for byte.
func TestHubHiveExamples(t *testing.T) {
	for _, tc := range []struct {
		line string
		want hub.Message
	}{
		// Moves and positions.
		{`done move="bG1 -wS1"`, hub.Done{Move: "bG1 -wS1"}},
		{`done move=wS1`, hub.Done{Move: "wS1"}},
		{`done move=pass`, hub.Done{Move: "pass"}},
		{`pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"`,
			hub.Pos{Variant: allExpansions, Moves: []string{"wS1", "bG1 -wS1", "wA1 wS1/"}}},
		{`pos game="Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"`,
			hub.Pos{Variant: allExpansions, Moves: []string{"wS1", "bG1 -wS1", "wA1 wS1/"}, AsGame: true,
				State: core.StateInProgress, Turn: core.Turn{Color: core.White, Number: 3}}},
		{`error message="illegal move 3 (bG1 -wS1): It's not that player's turn."`,
			hub.Error{Message: "illegal move 3 (bG1 -wS1): It's not that player's turn."}},
		// Initialisation.
		{"hub", hub.Hub{}},
		{"id name=hivebridge version=0.1.0 author=\"hivebridge authors\"", hub.ID{Name: "hivebridge", Version: "0.1.0", Author: "hivebridge authors"}},
		{`param name=variant value=Base type=enum values="Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP"`, hub.VariantParam(core.Base)},
		{"param name=threads value=1 type=int min=1 max=64", hub.IntParam("threads", 1, 1, 64)},
		{"param name=hash value=64 type=int min=1 max=4096", hub.IntParam("hash", 64, 1, 4096)},
		{"param name=multipv value=1 type=int min=1 max=256", hub.IntParam("multipv", 1, 1, 256)},
		{"param name=ponder value=false type=bool", hub.BoolParam("ponder", false)},
		{"wait", hub.Wait{}},
		{"set-param name=threads value=4", hub.SetParam{Name: "threads", Value: "4"}},
		{"set-param name=variant value=Base+MLP", hub.SetParam{Name: "variant", Value: "Base+MLP"}},
		{"init", hub.Init{}},
		{"ready", hub.Ready{}},
		// Search.
		{"level depth=6", hub.Level{Depth: 6}},
		{"level nodes=1000000", hub.Level{Nodes: 1000000}},
		{"level move-time=2.5", hub.Level{MoveTime: 2500 * time.Millisecond}},
		{"level moves=40 time=300", hub.Level{Moves: 40, Clock: true, Time: 300 * time.Second}},
		{"level time=60 inc=1", hub.Level{Clock: true, Time: time.Minute, Inc: time.Second}},
		{"level infinite", hub.Level{Infinite: true}},
		{"go think", hub.Go{Mode: hub.Think}},
		{"go ponder", hub.Go{Mode: hub.Ponder}},
		{"go analyze", hub.Go{Mode: hub.Analyze}},
		{`info depth=5 score=0.25 nodes=12345 time=1.5 nps=0.008 pv="wS1;bG1 -wS1;wA1 wS1/"`,
			hub.Info{Has: hub.InfoDepth | hub.InfoScore | hub.InfoNodes | hub.InfoTime | hub.InfoNPS | hub.InfoPV,
				Depth: 5, Score: 0.25, Nodes: 12345, Time: 1500 * time.Millisecond, NPS: 0.008,
				PV: []string{"wS1", "bG1 -wS1", "wA1 wS1/"}}},
		{"info depth=9 score=993 pv=wA1", hub.Info{Has: hub.InfoDepth | hub.InfoScore | hub.InfoPV, Depth: 9, Score: hub.WinIn(7), PV: []string{"wA1"}}},
		{"info depth=4 score=0.3 pv=wG1 multipv=2", hub.Info{Has: hub.InfoDepth | hub.InfoScore | hub.InfoPV, Depth: 4, Score: 0.3, PV: []string{"wG1"}, Extra: []hub.Arg{hub.Pair("multipv", "2")}}},
		{`done move="wA1 bG1\" ponder="bS1 -bG1"`, hub.Done{Move: `wA1 bG1\`, Ponder: "bS1 -bG1"}},
		{"ping", hub.Ping{}},
		{"pong", hub.Pong{}},
		{"ponder-hit", hub.PonderHit{}},
		{"stop", hub.Stop{}},
		{"new-game", hub.NewGame{}},
		{"quit", hub.Quit{}},
		// Hub v2's own lines that a Hive peer reads the same way.
		{`id name=Scan version=3.1 author="Fabien Letouzey" country=France`, hub.ID{Name: "Scan", Version: "3.1", Author: "Fabien Letouzey", Country: "France"}},
		{`param name=variant value=normal type=enum values="normal killer bt frisian losing"`, hub.EnumParam("variant", "normal", "normal", "killer", "bt", "frisian", "losing")},
		{"param name=book value=true type=bool", hub.BoolParam("book", true)},
		{"level move-time=1", hub.Level{MoveTime: time.Second}},
		{"level moves=9 time=291.587", hub.Level{Moves: 9, Clock: true, Time: 291587 * time.Millisecond}},
		{"done move=32-28 ponder=17-22", hub.Done{Move: "32-28", Ponder: "17-22"}},
	} {
		got := decode(t, tc.line)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s\ndecodes as %#v\nwant       %#v", tc.line, got, tc.want)
		}
		if s := got.Line().String(); s != tc.line {
			t.Errorf("%s\nis written %s", tc.line, s)
		}
	}
}

// hub-hive.md's two forms of a position are "the same information split":
// they load as the same game, whose canonical spelling is the one shown.
func TestHubHivePositionsAgree(t *testing.T) {
	var games []*core.Game
	for _, s := range []string{
		`pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"`,
		`pos game="Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"`,
		`pos moves="wS1;bG1 -wS1;wA1 wS1/"`,
	} {
		p, err := hub.ParsePos(mustParse(t, s))
		if err != nil {
			t.Fatal(err)
		}
		g, err := p.Load(allExpansions)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		games = append(games, g)
	}
	for _, g := range games[1:] {
		if !sameGame(g, games[0]) {
			t.Errorf("the forms of one position load as different games")
		}
	}
	if s := hub.PosOf(games[0]).Line().String(); s != `pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"` {
		t.Errorf("PosOf writes %s", s)
	}
	// The GameString hivebridge writes has the turn the moves lead to.
	if s := hub.GamePosOf(games[0]).Line().String(); s != `pos game="Base+MLP;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1/"` {
		t.Errorf("GamePosOf writes %s", s)
	}
}

// Lines that decode to what they mean but are written back in canonical
// form: quotes only where needed, numbers in their shortest form, known
// arguments in a fixed order.
func TestCanonicalForms(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{`id name=hivebridge version=X.Y.Z author="..."`, "id name=hivebridge version=X.Y.Z author=..."},
		{`info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv="32-28 17-22 28x17x22"`,
			`info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8 pv="32-28 17-22 28x17x22"`},
		{"level time=291.5870 moves=09", "level moves=9 time=291.587"},
		{"level time=60 inc=0", "level time=60"},
		{"level move-time=1e-3", "level move-time=0.001"},
		{"done move=\"  bG1   -wS1 \" ponder=\"\"", `done move="bG1 -wS1"`},
		{"go think mystery=1", "go think"},
		{"info custom=x depth=3", "info depth=3 custom=x"},
		{"param type=int max=8 name=t min=1 value=2 note=x", "param name=t value=2 type=int min=1 max=8 note=x"},
		{"param name=x value=y", "param name=x value=y"},
		{"error", `error message=""`},
	} {
		if s := decode(t, tc.in).Line().String(); s != tc.out {
			t.Errorf("%s\nis written %s\nwant       %s", tc.in, s, tc.out)
		}
	}
}

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want hub.Level
	}{
		{"level depth=1", hub.Level{Depth: 1}},
		{"level depth=+12", hub.Level{Depth: 12}},
		{"level nodes=18446744073709551615", hub.Level{Nodes: 1<<64 - 1}},
		{"level move-time=0.000000001", hub.Level{MoveTime: 1}},
		{"level move-time=10", hub.Level{MoveTime: 10 * time.Second}},
		{"level time=0", hub.Level{Clock: true}},                                              // sudden death, flag fallen
		{"level time=120", hub.Level{Clock: true, Time: 2 * time.Minute}},                     // sudden death
		{"level moves=1 time=0.5", hub.Level{Clock: true, Moves: 1, Time: time.Second / 2}},   // x/y
		{"level time=5 inc=0.1", hub.Level{Clock: true, Time: 5 * time.Second, Inc: 1e8}},     // Fischer
		{"level moves=3 time=5 inc=2", hub.Level{Clock: true, Moves: 3, Time: 5e9, Inc: 2e9}}, // both, which the spec allows
		{"level infinite", hub.Level{Infinite: true}},
		{`level infinite=""`, hub.Level{Infinite: true}},
		{"level depth=8 move-time=3", hub.Level{Depth: 8, MoveTime: 3 * time.Second}},
		{"level nodes=5000 time=30", hub.Level{Nodes: 5000, Clock: true, Time: 30 * time.Second}},
		{"level depth=3 unknown=1", hub.Level{Depth: 3}},
	} {
		got, err := hub.ParseLevel(mustParse(t, tc.in))
		if err != nil || got != tc.want {
			t.Errorf("ParseLevel(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		back, err := hub.ParseLevel(got.Line())
		if err != nil || back != got {
			t.Errorf("%q: %q reads back as %+v, %v", tc.in, got.Line(), back, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"level time=abc", "level: time must be a number of seconds, not 'abc'"},
		{"level time=", "time= has no value"},
		{"level depth=abc", "level: depth must be a whole number, not 'abc'"},
		{"level depth=0", "level: depth must be at least 1, not 0"},
		{"level depth=-3", "depth must be at least 1"},
		{"level depth=2.5", "depth must be a whole number"},
		{"level depth=99999999999999999999", "depth is out of range"},
		{"level nodes=0", "nodes must be at least 1"},
		{"level nodes=-1", "nodes must be a whole number"},
		{"level nodes=1e6", "nodes must be a whole number"},
		{"level move-time=0", "move-time must be more than 0 seconds"},
		{"level move-time=-1", "move-time must not be negative"},
		{"level move-time=1s", "move-time must be a number of seconds, not '1s'"},
		{"level move-time=inf", "move-time must be a number of seconds"},
		{"level move-time=NaN", "move-time must be a number of seconds"},
		{"level time=1e300", "time is out of range"},
		{"level time=-5", "time must not be negative"},
		{"level moves=0 time=5", "moves must be at least 1"},
		{"level moves=x time=5", "moves must be a whole number"},
		{"level inc=x time=5", "inc must be a number of seconds"},
		{"level moves=40", "moves= needs time="},
		{"level inc=2", "inc= needs time="},
		{"level infinite depth=5", "infinite takes no limit"},
		{"level infinite time=5", "infinite takes no limit"},
		{"level", "level: no limit given; want depth=, nodes=, move-time=, time= or infinite"},
		{"level foo=1", "no limit given"},
		{"level depth=3 depth=4", "level: depth given twice"},
		{"level infinite infinite", "infinite given twice"},
		{"go think", "a level line was expected"},
	} {
		l, err := hub.Parse(tc.in)
		if err == nil {
			var v hub.Level
			v, err = hub.ParseLevel(l)
			if err == nil {
				t.Errorf("ParseLevel(%q) = %+v, want an error", tc.in, v)
				continue
			}
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseLevel(%q): %q does not say %q", tc.in, err, tc.want)
		}
	}
}

func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"}, {time.Second, "1"}, {1500 * time.Millisecond, "1.5"}, {1, "0.000000001"},
		{291587 * time.Millisecond, "291.587"}, {-time.Second / 4, "-0.25"},
		{1<<63 - 1, "9223372036.854775807"}, {-1 << 63, "-9223372036.854775808"},
	} {
		if s := hub.FormatSeconds(tc.d); s != tc.want {
			t.Errorf("FormatSeconds(%d) = %q, want %q", tc.d, s, tc.want)
		}
	}
}

func TestParseInfo(t *testing.T) {
	i, err := hub.ParseInfo(mustParse(t, `info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv="" hashfull=12 note="two words"`))
	if err != nil {
		t.Fatal(err)
	}
	want := hub.Info{
		Has:   hub.InfoDepth | hub.InfoMeanDepth | hub.InfoScore | hub.InfoNodes | hub.InfoTime | hub.InfoNPS | hub.InfoPV,
		Depth: 21, MeanDepth: 20.8, Score: -0.01, Nodes: 31261613, Time: 3906 * time.Millisecond, NPS: 8,
		Extra: []hub.Arg{hub.Pair("hashfull", "12"), hub.Pair("note", "two words")},
	}
	if !reflect.DeepEqual(i, want) {
		t.Errorf("ParseInfo = %#v\nwant %#v", i, want)
	}
	if i, err := hub.ParseInfo(mustParse(t, "info")); err != nil || !reflect.DeepEqual(i, hub.Info{}) {
		t.Errorf("ParseInfo(info) = %#v, %v", i, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"info depth=D", "info: depth must be a whole number, not 'D'"},
		{"info depth=-1", "depth must be at least 0"},
		{"info score=S", "info: score must be a number, not 'S'"},
		{"info score=nan", "score must be a number"},
		{"info nodes=N", "nodes must be a whole number"},
		{"info time=T", "time must be a number of seconds"},
		{"info nps=K", "nps must be a number"},
		{"info mean-depth=x", "mean-depth must be a number"},
		{`info pv="wS1;;bS1 wS1-"`, "info: pv: move 2 of the list is empty"},
		{"info depth=1 depth=2", "depth given twice"},
	} {
		if _, err := hub.ParseInfo(mustParse(t, tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseInfo(%q): %v, want an error that says %q", tc.in, err, tc.want)
		}
	}
}

func TestNewInfo(t *testing.T) {
	i := hub.NewInfo(7, -1.25, 2_000_000, 4*time.Second, []string{"wS1", "bS1 wS1-"})
	if s := i.Line().String(); s != `info depth=7 score=-1.25 nodes=2000000 time=4 nps=0.5 pv="wS1;bS1 wS1-"` {
		t.Errorf("NewInfo: %s", s)
	}
	i = hub.NewInfo(1, 0, 0, 0, nil)
	if s := i.Line().String(); s != `info depth=1 score=0 nodes=0 time=0 pv=""` {
		t.Errorf("NewInfo at time 0: %s", s)
	}
}

func TestParseParam(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"param name=threads value=1 type=int min=1 max=N", "param threads: max: 'N' is not a whole number"},
		{"param name=t value=1 type=int min=1.5", "min: '1.5' is not a whole number"},
		{"param name=t value=5 type=int min=1 max=4", "parameter t: 5 is above the maximum 4"},
		{"param name=t value=0 type=int min=1 max=4", "parameter t: 0 is below the minimum 1"},
		{"param name=t value=x type=int", "parameter t: 'x' is not a whole number"},
		{"param name=t value=2 type=int min=5 max=4", "param t: min 5 is above max 4"},
		{"param name=r value=0.5 type=real min=1", "below the minimum 1"},
		{"param name=r value=abc type=real", "'abc' is not a number"},
		{"param name=b value=yes type=bool", "parameter b: 'yes' is not true or false"},
		{"param name=e value=z type=enum values=\"a b\"", "parameter e: 'z' is not one of a, b"},
		{"param name=e value=z type=enum", "type=enum needs values="},
		{"param value=1", "param: name= is missing"},
		{"param name=x", "param x: value= is missing"},
		{"param name=x value=1 value=2", "param: value given twice"},
	} {
		if p, err := hub.ParseParam(mustParse(t, tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseParam(%q) = %#v, %v; want an error that says %q", tc.in, p, err, tc.want)
		}
	}
	for _, in := range []string{
		"param name=t value=9223372036854775807 type=int min=9223372036854775806 max=9223372036854775807",
		"param name=r value=0.5 type=real min=-1 max=1e3",
		`param name=s value="" type=string`,
		"param name=c value=red type=colour choices=x",
		"param name=u value=anything",
	} {
		p, err := hub.ParseParam(mustParse(t, in))
		if err != nil {
			t.Errorf("ParseParam(%q): %v", in, err)
			continue
		}
		if back, err := hub.ParseParam(p.Line()); err != nil || !reflect.DeepEqual(back, p) {
			t.Errorf("ParseParam(%q) does not round-trip: %#v, %v", in, back, err)
		}
	}
	if err := hub.IntParam("t", 9223372036854775806, 0, 9223372036854775806).Check("9223372036854775807"); err == nil {
		t.Errorf("an int bound beyond 2^53 is not compared exactly")
	}
	v := hub.VariantParam(allExpansions)
	for _, ok := range hub.VariantValues() {
		if err := v.Check(ok); err != nil {
			t.Errorf("variant %s: %v", ok, err)
		}
		if _, err := uhp.ParseGameType(ok); err != nil {
			t.Errorf("variant %s is no GameTypeString: %v", ok, err)
		}
	}
	if len(hub.VariantValues()) != int(core.AllGameTypes) {
		t.Errorf("VariantValues = %q", hub.VariantValues())
	}
	if err := v.Check("Base+PLM"); err == nil {
		t.Errorf("variant Base+PLM is one of the enum's choices")
	}
	if got := hub.RealParam("r", 0.5, 0, 2).Line().String(); got != "param name=r value=0.5 type=real min=0 max=2" {
		t.Errorf("RealParam: %s", got)
	}
	if got := hub.StringParam("book", "").Line().String(); got != `param name=book value="" type=string` {
		t.Errorf("StringParam: %s", got)
	}
}

func TestParseOthers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"go", "go: think, ponder or analyze is missing"},
		{"go fast", "go: think, ponder or analyze is missing"},
		{"go think ponder", "go: think and ponder both given"},
		{"set-param value=1", "set-param: name= is missing"},
		{`set-param name="" value=1`, "set-param: name= is missing"},
		{"set-param name=x", `set-param x: value= is missing (value="" sets the empty string)`},
		{"set-param name=x name=y value=1", "set-param: name given twice"},
		{"done", "done: move= is missing"},
		{`done move=""`, "done: move: empty move"},
		{`done move="wS1;bS1 wS1-"`, "done: move: 'wS1;bS1 wS1-' is a list of moves where one move is wanted"},
		{`done move=wS1 ponder="a;b"`, "done: ponder: 'a;b' is a list"},
		{"done move=wS1 move=wS2", "done: move given twice"},
		{"id name=a name=b", "id: name given twice"},
		{"error message=a message=b", "error: message given twice"},
	} {
		if _, err := decode2(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error that says %q", tc.in, err, tc.want)
		}
	}
	if _, err := hub.ParseGo(mustParse(t, "level infinite")); err == nil {
		t.Errorf("ParseGo reads a level line")
	}
}

// decode2 decodes a line of either direction, returning the error.
func decode2(s string) (hub.Message, error) {
	l, err := hub.Parse(s)
	if err != nil {
		return nil, err
	}
	m, err := hub.DecodeCommand(l)
	if _, unknown := m.(hub.Unknown); err == nil && unknown {
		m, err = hub.DecodeAnswer(l)
	}
	return m, err
}

func TestDecodeDirections(t *testing.T) {
	// Each side treats the other side's lines, and lines nobody knows, as
	// Unknown, to be ignored; a message is never returned with an error.
	for _, s := range []string{"info depth=x", "done", "id name=a name=b", "param name=x", "pong", "wait", "frobnicate a=1"} {
		m, err := hub.ReadCommand(s)
		if u, ok := m.(hub.Unknown); err != nil || !ok || u.Line().String() != s {
			t.Errorf("ReadCommand(%q) = %#v, %v; want Unknown", s, m, err)
		}
	}
	for _, s := range []string{"level depth=x", "go", "pos variant=X", "set-param", "ping", "hub", "frobnicate a=1"} {
		m, err := hub.ReadAnswer(s)
		if u, ok := m.(hub.Unknown); err != nil || !ok || u.Line().String() != s {
			t.Errorf("ReadAnswer(%q) = %#v, %v; want Unknown", s, m, err)
		}
	}
	for _, s := range []string{"level depth=x", "go", "pos variant=X", "set-param"} {
		if m, err := hub.ReadCommand(s); err == nil || m != nil {
			t.Errorf("ReadCommand(%q) = %#v, %v; want nil and an error", s, m, err)
		}
	}
	for _, s := range []string{"info depth=x", "done", "param name=x"} {
		if m, err := hub.ReadAnswer(s); err == nil || m != nil {
			t.Errorf("ReadAnswer(%q) = %#v, %v; want nil and an error", s, m, err)
		}
	}
	if _, err := hub.ReadCommand("  "); err != hub.ErrEmptyLine {
		t.Errorf("ReadCommand of a blank line: %v", err)
	}
	if _, err := hub.ReadAnswer(`x a="`); err == nil || !strings.Contains(err.Error(), "unterminated quote") {
		t.Errorf("ReadAnswer of a bad line: %v", err)
	}
	// Commands without arguments ignore the ones they are given.
	if m, err := hub.ReadCommand("stop now=1"); err != nil || m != (hub.Stop{}) {
		t.Errorf("stop now=1: %#v, %v", m, err)
	}
}

// Every message, written and read back, is the same value.
func TestMessageRoundTrip(t *testing.T) {
	g := core.NewGame(allExpansions)
	for _, m := range []string{"wS1", "bG1 -wS1", "wA1 wS1/", "bQ -bG1"} {
		mv, err := hub.ReadMove(m, g)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(mv)
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	msgs := []hub.Message{
		hub.Hub{}, hub.Init{}, hub.PonderHit{}, hub.Stop{}, hub.NewGame{}, hub.Ping{}, hub.Quit{},
		hub.Wait{}, hub.Ready{}, hub.Pong{},
		hub.SetParam{Name: "x", Value: ""}, hub.SetParam{Name: "name with=odd", Value: "a b=c"},
		hub.Go{Mode: hub.Think}, hub.Go{Mode: hub.Ponder}, hub.Go{Mode: hub.Analyze},
		hub.PosOf(g), hub.GamePosOf(g), hub.Pos{DefaultVariant: true}, hub.Pos{DefaultVariant: true, Moves: []string{"wS1"}},
		hub.Level{Depth: 3, Nodes: 7, MoveTime: 3, Clock: true, Time: 5, Moves: 2, Inc: 1},
		hub.Level{Infinite: true},
		hub.Info{}, hub.NewInfo(3, hub.LossIn(4), 99, time.Millisecond, hub.WriteMoves(g, l.Moves()[:3])),
		hub.Info{Has: hub.InfoMeanDepth | hub.InfoPV, MeanDepth: 2.25, PV: []string{}, Extra: []hub.Arg{hub.FlagArg("f"), hub.Pair("g", "")}},
		hub.NewDone(g, l.At(0), l.At(1)), hub.NewDone(g, l.At(2), core.NoMove), hub.Done{Move: "pass"},
		hub.ID{}, hub.ID{Name: "n", Country: "c c", Extra: []hub.Arg{hub.Pair("email", "a@b")}},
		hub.VariantParam(core.WithPillbug), hub.IntParam(hub.ParamThreads, 2, 1, 8), hub.BoolParam(hub.ParamPonder, true),
		hub.RealParam("r", -0.5, -1, 1), hub.StringParam("s", "two words"), hub.EnumParam("e", "b", "a", "b"),
		hub.Param{Name: "p", Value: "v", Type: "colour", Min: "x", Extra: []hub.Arg{hub.Pair("q", "1")}},
		hub.Error{Message: "anything at all = fine"}, hub.Error{},
	}
	for _, m := range msgs {
		text := m.Line().String()
		back := decode(t, text)
		if norm(back) != norm(m) {
			t.Errorf("%#v\nis written %s\nand reads %#v", m, text, back)
		}
	}
}

// norm prints a message with %#v after normalising the empty slices that
// a line cannot tell from nil.
func norm(m hub.Message) string {
	switch v := m.(type) {
	case hub.Info:
		if len(v.PV) == 0 {
			v.PV = nil
		}
		m = v
	}
	return fmt.Sprintf("%#v", m)
}

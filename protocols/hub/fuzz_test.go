package hub_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

// lineSeeds returns lines of every shape the spec and the dialect show,
// and malformed ones the lexer must reject.
func lineSeeds() []string {
	return []string{
		"", " ", "ping", "ping\r\n", "go think", "level infinite", "level moves=9 time=291.587",
		`id name=Scan version=3.1 author="Fabien Letouzey" country=France`,
		`param name=variant value=Base type=enum values="Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP"`,
		`pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"`,
		`pos game="Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"`,
		`info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv="32-28 17-22"`,
		`info depth=4 score=0.3 pv="wS1;bG1 -wS1" multipv=2`, `info pv=wS1 multipv=-1`, `info pv=wA1 multipv=99999999999999999999`,
		`done move="bG1 -wS1" ponder=wS1`, `error message="..."`, `x a=""`, `x a = b`, `x a="b\" c`,
		`x a="`, `x a="b"c`, `x a=b"c"`, `x a=b=c`, `x =b`, `"go"`, "x a=\"b\nc\"", "x a=b\x00", "x\x01", "x é=ü\xff",
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range lineSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := hub.Parse(s)
		if err != nil {
			if errors.Is(err, hub.ErrEmptyLine) {
				if strings.Trim(s, " \t\n\v\f\r") != "" {
					t.Fatalf("Parse(%q) calls a line with words empty", s)
				}
				return
			}
			var se *hub.SyntaxError
			if !errors.As(err, &se) || se.Column < 1 || se.Column > len(s) {
				t.Fatalf("Parse(%q): %v, want a *SyntaxError within the line", s, err)
			}
			return
		}
		if err := l.Check(); err != nil {
			t.Fatalf("Parse(%q) = %#v, which Check rejects: %v", s, l, err)
		}
		text := l.String()
		if strings.ContainsAny(text, "\r\n") {
			t.Fatalf("Parse(%q).String() = %q spans lines", s, text)
		}
		back, err := hub.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, written %q, which does not parse: %v", s, l, text, err)
		}
		if !sameLine(back, l) {
			t.Fatalf("Parse(%q) = %#v, written %q, which reads %#v", s, l, text, back)
		}
		if back.String() != text {
			t.Fatalf("%q is written %q, then %q", s, text, back.String())
		}
		// The typed layer never panics, and what it reads it writes back
		// as a line that reads the same.
		for _, decode := range []func(hub.Line) (hub.Message, error){hub.DecodeCommand, hub.DecodeAnswer} {
			m, err := decode(l)
			if err != nil {
				if m != nil {
					t.Fatalf("%q: a message and an error", s)
				}
				continue
			}
			again, err := decode(mustParse(t, m.Line().String()))
			if err != nil || !reflect.DeepEqual(again, m) && fmtMsg(again) != fmtMsg(m) {
				t.Fatalf("%q decodes as %#v, written %q, which decodes as %#v, %v", s, m, m.Line(), again, err)
			}
			// An info line read as a report of a search of the start:
			// a legal line, a line number from 1 or none.
			if info, ok := m.(hub.Info); ok {
				g := core.NewGame(fuzzDefault)
				if p, ok := info.Progress(g); ok {
					c := g.Clone()
					for _, pm := range p.PV {
						if err := c.RuleBroken(pm); err != nil {
							t.Fatalf("%q: an illegal PV move: %v", s, err)
						}
						c.Play(pm)
					}
					if p.MultiPV < 0 || p.Move != p.PV[0] {
						t.Fatalf("%q: reported line %d, move %v of PV %v", s, p.MultiPV, p.Move, p.PV)
					}
				}
			}
		}
	})
}

// fmtMsg prints a message, nil and empty slices alike.
func fmtMsg(m hub.Message) string { return norm(m) }

// The default variant of a pos line without one, in the fuzz target.
const fuzzDefault = allExpansions

func FuzzHivePosition(f *testing.F) {
	for _, s := range []string{
		"pos", "pos variant=Base", `pos variant=Base+MLP moves="wS1;bG1 -wS1;wA1 wS1/"`,
		`pos game="Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"`,
		`pos moves="wS1;bG1 -wS1;bG1 -wS1"`, `pos moves="wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 wQ\;bB1 bQ/;wB1 wQ"`,
		`pos game="Base;InProgress;White[2];wS1;bS1"`, "pos variant=base+plm", `pos moves="pass"`,
		`pos variant=Base moves="wS1;;bS1"`, "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
		"pos variant=Base board=-1,0:wQ;0,0:wS1/bB1;1,0:bS1;2,0:bQ turn=White[4] last=bB1",
		`pos variant=Base+P board=-1,0:wQ;0,0:wS1;1,0:bS1;2,0:bQ;-1,1:wP;0,1:bA1 turn=White[4] moves="wP -wQ"`,
		"pos board=0,0:wS1;2,0:bS1 turn=White[2]", "pos board= turn=White[1]", "pos board=0,0:wQ turn=Black[1] last=wQ",
	} {
		f.Add(s)
	}
	for _, g := range randomGames(f) {
		f.Add(hub.PosOf(g).Line().String())
		f.Add(hub.GamePosOf(g).Line().String())
		if s, err := core.NewGameAt(g.CurrentPosition()); err == nil {
			f.Add(hub.PosOf(s).Line().String())
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := hub.Parse(s)
		if err != nil {
			return
		}
		l.Command = hub.CmdPos // read every line as a position
		p, err := hub.ParsePos(l)
		if err != nil {
			return
		}
		// The position, written and read, is the same value.
		text := p.Line().String()
		p2, err := hub.ParsePos(mustParse(t, text))
		if err != nil || !reflect.DeepEqual(p2, p) {
			t.Fatalf("%q reads as %#v, written %q, which reads as %#v, %v", s, p, text, p2, err)
		}
		g, err := p.Load(fuzzDefault)
		if err != nil {
			var me *hub.MoveError
			var se *core.SetUpError
			switch {
			case g != nil:
				t.Fatalf("%q: Load gave a game and the error %v", s, err)
			case p.Board != nil && errors.As(err, &se):
			case !errors.As(err, &me) || me.Index < 1 || me.Index > len(p.Moves):
				t.Fatalf("%q: Load = %v; want a *MoveError naming a move, or a board's *core.SetUpError", s, err)
			}
			return
		}
		if len(p.Moves) != g.MovesPlayed() {
			t.Fatalf("%q: %d moves load as a game of %d", s, len(p.Moves), g.MovesPlayed())
		}
		// The game, written in either form and read back, is the same
		// game, whatever the engine's default variant.
		for _, q := range []hub.Pos{hub.PosOf(g), hub.GamePosOf(g)} {
			text := q.Line().String()
			q2, err := hub.ParsePos(mustParse(t, text))
			if err != nil {
				t.Fatalf("%q: %q does not read: %v", s, text, err)
			}
			g2, err := q2.Load(core.Base)
			if err != nil {
				t.Fatalf("%q: %q does not load: %v", s, text, err)
			}
			if !sameGame(g2, g) || g2.StartKey() != g.StartKey() {
				t.Fatalf("%q: %q loads as %s, want %s", s, text, hub.PosOf(g2).Line(), hub.PosOf(g).Line())
			}
		}
	})
}

// FuzzParseBoard reads random board= values: an error or stacks that are
// written back as a value that reads the same, never a panic.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{
		"", "0,0:wS1", "-1,0:wQ;0,0:wS1/bB1;1,0:bS1;2,-1:bQ", " 10,-20 : wq ; 11,-20:bA3/Wb2 ", "0,0:wS1;",
		"0,0", "0:wS1", "0,+1:wS1", "0,1234567:wS1", "0,0:", "0,0:wS1//wB1", "0,0:wS3", "-,-:wQ", "0,0:wQ;0,0:wQ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stacks, err := hub.ParseBoard(s)
		if err != nil {
			return
		}
		text := hub.FormatBoard(stacks)
		back, err := hub.ParseBoard(text)
		if err != nil || !reflect.DeepEqual(back, stacks) || hub.FormatBoard(back) != text {
			t.Fatalf("%q reads as %v, written %q, which reads as %v, %v", s, stacks, text, back, err)
		}
	})
}

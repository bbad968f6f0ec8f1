package hub_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/protocols/hub"
)

// sameLine compares two lines, a nil and an empty argument list alike.
func sameLine(a, b hub.Line) bool {
	if len(a.Args) == 0 && len(b.Args) == 0 {
		return a.Command == b.Command
	}
	return reflect.DeepEqual(a, b)
}

func TestParseLine(t *testing.T) {
	p, f := hub.Pair, hub.FlagArg
	for _, tc := range []struct {
		in    string
		want  hub.Line
		canon string // String() of the result; "" when it is in itself
	}{
		// "possibly with 0 arguments"
		{"ping", hub.NewLine("ping"), ""},
		{"  ping  ", hub.NewLine("ping"), "ping"},
		{"ping\r\n", hub.NewLine("ping"), "ping"},
		{"ping\n", hub.NewLine("ping"), "ping"},
		{"\tready\t", hub.NewLine("ready"), "ready"},
		// The spec's own lines.
		{"id name=Scan version=3.1 author=\"Fabien Letouzey\" country=France",
			hub.NewLine("id", p("name", "Scan"), p("version", "3.1"), p("author", "Fabien Letouzey"), p("country", "France")), ""},
		{`param name=variant value=normal type=enum values="normal killer bt frisian losing"`,
			hub.NewLine("param", p("name", "variant"), p("value", "normal"), p("type", "enum"), p("values", "normal killer bt frisian losing")), ""},
		{"level moves=9 time=291.587", hub.NewLine("level", p("moves", "9"), p("time", "291.587")), ""},
		{`pos pos=BeeeWW moves="38-15 5-41 48-26"`, hub.NewLine("pos", p("pos", "BeeeWW"), p("moves", "38-15 5-41 48-26")), ""},
		{"go think", hub.NewLine("go", f("think")), ""},
		{"level infinite", hub.NewLine("level", f("infinite")), ""},
		{`error message="..."`, hub.NewLine("error", p("message", "...")), "error message=..."},
		// "Some arguments act as a flag and don't have a value"
		{"go think extra", hub.NewLine("go", f("think"), f("extra")), ""},
		{"x a b=1 c", hub.NewLine("x", f("a"), p("b", "1"), f("c")), ""},
		// Quoting is "required if they contain a special character (such
		// as a space or '=') or are empty"; it is allowed everywhere.
		{`x a=""`, hub.NewLine("x", p("a", "")), ""},
		{`x a="b=c"`, hub.NewLine("x", p("a", "b=c")), ""},
		{`x a="b c"`, hub.NewLine("x", p("a", "b c")), ""},
		{`x a="b"`, hub.NewLine("x", p("a", "b")), "x a=b"},
		{`x a="  b  "`, hub.NewLine("x", p("a", "  b  ")), ""},
		{"x a=\"b\tc\"", hub.NewLine("x", p("a", "b\tc")), ""},
		{"x a=\"\x01\"", hub.NewLine("x", p("a", "\x01")), ""},
		{`x a="'"`, hub.NewLine("x", p("a", "'")), "x a='"},
		// No escape inside quotes: a backslash is a character.
		{`x a="b\" c`, hub.NewLine("x", p("a", `b\`), f("c")), `x a=b\ c`},
		{`x a=b\c`, hub.NewLine("x", p("a", `b\c`)), ""},
		// Blanks around '=', as Scan reads them.
		{"x a = b", hub.NewLine("x", p("a", "b")), "x a=b"},
		{"x a= \"b c\"", hub.NewLine("x", p("a", "b c")), `x a="b c"`},
		{"x a =b c", hub.NewLine("x", p("a", "b"), f("c")), "x a=b c"},
		// Words are anything but blanks, controls, '=' and '"'.
		{"x a=wS1/ b=\\wS1 c=-wS1", hub.NewLine("x", p("a", "wS1/"), p("b", `\wS1`), p("c", "-wS1")), ""},
		{"x a=Base+MLP;InProgress;White[1]", hub.NewLine("x", p("a", "Base+MLP;InProgress;White[1]")), ""},
		{"x nom=é", hub.NewLine("x", p("nom", "é")), ""},
		{"x-y a-b=c-d", hub.NewLine("x-y", p("a-b", "c-d")), ""},
		// Duplicates are kept; Get returns the first.
		{"x a=1 a=2", hub.NewLine("x", p("a", "1"), p("a", "2")), ""},
	} {
		got, err := hub.Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !sameLine(got, tc.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
		canon := tc.canon
		if canon == "" {
			canon = tc.in
		}
		if s := got.String(); s != canon {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, s, canon)
		}
		if again, err := hub.Parse(got.String()); err != nil || !sameLine(again, got) {
			t.Errorf("Parse(%q) does not round-trip: %#v, %v", got.String(), again, err)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // substrings of the message
	}{
		{`pos moves="wS1;bG1 -wS1`, []string{"unterminated quote", "moves", "column 11"}},
		{`x a="`, []string{"unterminated quote", "value of a"}},
		{`x a=""" b`, []string{"a quote right after the closing quote", "value of a"}},
		{`x a="b"c`, []string{"'c' right after the closing quote", "separated by blanks"}},
		{`x a="b"é`, []string{"'é' right after the closing quote"}},
		{"x a=\"b\"\xff", []string{"byte 0xff right after the closing quote"}},
		{"x a=\"b\"\x01", []string{"byte 0x01 right after the closing quote"}},
		{`x a=b"c"`, []string{"quote inside the unquoted value of a", "quote the whole value"}},
		{`x a=b=c`, []string{"value of a contains '='", "must be quoted"}},
		{`x a==b`, []string{"a= has no value"}},
		{`x a=`, []string{"a= has no value", `a=""`}},
		{`x a= `, []string{"a= has no value"}},
		{`x =b`, []string{"'=' without an argument name"}},
		{`x = b`, []string{"'=' without an argument name"}},
		{`=b`, []string{"starts with '='"}},
		{`x "a"`, []string{"quoted text without an argument name"}},
		{`"go" think`, []string{"starts with a quote", "never quoted"}},
		{`go"think"`, []string{"quote right after the command go"}},
		{`go think"x"`, []string{"quote right after the argument name think"}},
		{`go=think`, []string{"'=' right after the command go"}},
		{"x a=\"b\nc\"", []string{"line break inside the quoted value of a"}},
		{"x a=\"b\rc\"", []string{"line break inside the quoted value of a"}},
		{"x a=b\x00", []string{"control character 0x00", "value of a"}},
		{"x a=\x7f", []string{"control character 0x7f", "value of a"}},
		{"x\x01", []string{"control character 0x01", "after the command x"}},
		{"x a\x01", []string{"control character 0x01", "after the argument name a"}},
		{"x \x1b", []string{"control character 0x1b", "where an argument should be"}},
		{"\x00", []string{"control character 0x00", "where the command should be"}},
	} {
		l, err := hub.Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) = %#v, want an error", tc.in, l)
			continue
		}
		var se *hub.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): %T %v, want a *SyntaxError", tc.in, err, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Parse(%q): %q does not say %q", tc.in, err, w)
			}
		}
		if !reflect.DeepEqual(l, hub.Line{}) {
			t.Errorf("Parse(%q) returned %#v with its error", tc.in, l)
		}
	}
	for _, in := range []string{"", " ", "\t\r\n", "\r\n", "\v\f"} {
		if _, err := hub.Parse(in); !errors.Is(err, hub.ErrEmptyLine) {
			t.Errorf("Parse(%q): %v, want ErrEmptyLine", in, err)
		}
	}
}

func TestLineHelpers(t *testing.T) {
	l, err := hub.Parse(`x a=1 a=2 f e="" g=h`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		value     string
		has, flag bool
	}{
		{"a", "1", true, false},
		{"f", "", true, true},
		{"e", "", true, true}, // "You can consider that the value is the empty string."
		{"g", "h", true, false},
		{"z", "", false, false},
		{"A", "", false, false}, // names are compared exactly
	} {
		v, ok := l.Get(tc.name)
		if v != tc.value || ok != tc.has || l.Has(tc.name) != tc.has || l.Flag(tc.name) != tc.flag {
			t.Errorf("%s: Get = %q, %v; Has = %v; Flag = %v; want %q, %v, %v", tc.name, v, ok, l.Has(tc.name), l.Flag(tc.name), tc.value, tc.has, tc.flag)
		}
	}
}

// A line that Parse could not return is still written on one line, and
// Check says why it is not exact.
func TestLineStringUnprintable(t *testing.T) {
	for _, tc := range []struct {
		l    hub.Line
		want string
		why  string
	}{
		{hub.NewLine("error", hub.Pair("message", `move 3 "bG1 -wS1": no`)), `error message="move 3 'bG1 -wS1': no"`, "quote"},
		{hub.NewLine("error", hub.Pair("message", "two\nlines\r\n")), `error message="two lines  "`, "line break"},
		{hub.NewLine("x\ny"), "x y", "not a word"},
		{hub.NewLine("x", hub.Pair("", "v")), "x =v", "not a word"},
		{hub.NewLine("x", hub.Arg{Name: "f", Value: "v", Flag: true}), "x f=v", "flag f has a value"},
		{hub.NewLine(""), "", "not a word"},
	} {
		if s := tc.l.String(); s != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.l, s, tc.want)
		}
		if err := tc.l.Check(); err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%#v.Check() = %v, want it to say %q", tc.l, err, tc.why)
		}
		if strings.ContainsAny(tc.l.String(), "\r\n") {
			t.Errorf("%#v.String() spans lines", tc.l)
		}
	}
}

// randomLine builds a line that Check accepts, from words and values that
// exercise every quoting rule.
func randomLine(r *rand.Rand) hub.Line {
	wordBytes := []byte("abcxyzABC0123456789-_+/\\;:.,[]()'!?*&%$#@~`^|<>{}")
	valueBytes := append([]byte(" \t=\x01\x1f\x7f\x0b\x0c"), wordBytes...)
	word := func() string {
		n := 1 + r.IntN(6)
		b := make([]byte, n)
		for i := range b {
			b[i] = wordBytes[r.IntN(len(wordBytes))]
		}
		if r.IntN(8) == 0 {
			return string(b) + "é\xff"
		}
		return string(b)
	}
	value := func() string {
		switch r.IntN(6) {
		case 0:
			return ""
		case 1:
			return word()
		}
		n := r.IntN(12)
		b := make([]byte, n)
		for i := range b {
			b[i] = valueBytes[r.IntN(len(valueBytes))]
		}
		return string(b)
	}
	l := hub.Line{Command: word()}
	for n := r.IntN(6); n > 0; n-- {
		if r.IntN(4) == 0 {
			l.Args = append(l.Args, hub.FlagArg(word()))
		} else {
			l.Args = append(l.Args, hub.Pair(word(), value()))
		}
	}
	return l
}

func TestLineRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		l := randomLine(r)
		if err := l.Check(); err != nil {
			t.Fatalf("generated %#v: %v", l, err)
		}
		s := l.String()
		got, err := hub.Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) of %#v: %v", s, l, err)
		}
		if !sameLine(got, l) {
			t.Fatalf("Parse(%q) = %#v, want %#v", s, got, l)
		}
		// Blanks anywhere between words change nothing.
		loose := strings.ReplaceAll(s, " ", " \t ")
		if !strings.Contains(s, `"`) {
			if got, err := hub.Parse(" " + loose + "\r\n"); err != nil || !sameLine(got, l) {
				t.Fatalf("Parse(%q) = %#v, %v, want %#v", loose, got, err, l)
			}
		}
	}
}

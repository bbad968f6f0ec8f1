package hub

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core/engine"
)

// Line is one line of the protocol, in either direction. Hub v2: "All lines
// (both from and to the engine) have the form: <command> <arg>=<val>
// <arg>=<val> ... possibly with 0 arguments."
//
// Args keeps every argument in the order written, the ones this package
// does not know included: "Both the engine and the GUI should ignore
// commands and arguments that they don't understand", and ignoring is the
// reader's choice, not the lexer's. A line without arguments has nil Args.
type Line struct {
	Command string
	Args    []Arg
}

// Arg is one argument of a line: name=value, or a flag. Hub v2: "Some
// arguments act as a flag and don't have a value; the "=val" part is then
// omitted. You can consider that the value is the empty string." Flag
// records which of the two spellings was used, so that a line prints back
// as it was read; a flag's Value is "".
type Arg struct {
	Name  string
	Value string
	Flag  bool
}

// NewLine returns a line of the command with the arguments.
func NewLine(command string, args ...Arg) Line {
	if len(args) == 0 {
		args = nil
	}
	return Line{Command: command, Args: args}
}

// Pair returns the argument name=value.
func Pair(name, value string) Arg { return Arg{Name: name, Value: value} }

// FlagArg returns the flag name, an argument without "=val".
func FlagArg(name string) Arg { return Arg{Name: name, Flag: true} }

// Get returns the value of the first argument called name, and whether
// there is one; a flag's value is "". Names are compared exactly: Hub is
// written in lower case and Scan compares names as they are.
func (l Line) Get(name string) (string, bool) {
	for _, a := range l.Args {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Has reports whether the line has an argument called name, flag or not.
func (l Line) Has(name string) bool {
	_, ok := l.Get(name)
	return ok
}

// Flag reports whether the first argument called name is a flag or,
// what the spec lets a reader take for the same thing, has an empty value
// (name="").
func (l Line) Flag(name string) bool {
	v, ok := l.Get(name)
	return ok && v == ""
}

// count returns the number of arguments called name.
func (l Line) count(name string) int {
	n := 0
	for _, a := range l.Args {
		if a.Name == name {
			n++
		}
	}
	return n
}

// isBlank reports whether c separates words. Hub v2 names only the space
// ("additional spaces have no special meaning in the protocol"); Scan, the
// spec author's engine, skips every character C's isspace accepts, and so
// does this package, so that a tab or the carriage return of a CRLF line end
// is a separator too.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// isWord reports whether c may appear in a command word, an argument name
// or an unquoted value. As in Scan's reader: anything but a control
// character, a blank, '=' and '"'. Bytes from 0x80 are word characters, so
// UTF-8 text passes through untouched.
func isWord(c byte) bool {
	return c >= 0x20 && c != 0x7f && c != ' ' && c != '=' && c != '"'
}

// isWordString reports whether s is a non-empty run of word characters,
// which is when a value can be written without quotes.
func isWordString(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWord(s[i]) {
			return false
		}
	}
	return true
}

// SyntaxError is a line that is not of the form <command> <arg>=<val> ...
// Its message says what is wrong in words fit for the answer
// `error message="..."`, and where: Column counts bytes from 1.
type SyntaxError struct {
	Column int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (column %d)", e.Msg, e.Column) }

// ErrEmptyLine is what Parse returns for a line with nothing but blanks.
// It is not a syntax error: a session skips such lines without an answer.
const ErrEmptyLine = engine.Error("empty line")

func syntaxErr(i int, format string, args ...any) error {
	return &SyntaxError{Column: i + 1, Msg: fmt.Sprintf(format, args...)}
}

// control is the error of a control character outside quotes.
func control(s string, i int, where string) error {
	return syntaxErr(i, "control character 0x%02x %s (quote the value that holds it)", s[i], where)
}

// glued is the error of a character that is not a blank right after a
// word: quotes open only at the start of a value, after name=.
func glued(s string, i int, after string) error {
	if s[i] == '"' {
		return syntaxErr(i, "quote right after %s: only a whole value, after name=, can be quoted", after)
	}
	return control(s, i, "after "+after)
}

// Parse reads one line. The grammar is Hub v2's:
//
//   - Words are separated by blanks (any run of spaces, tabs or other ASCII
//     white space); blanks before the command and after the last argument,
//     and so a line end of "\n" or "\r\n", are ignored.
//   - The first word is the command. A word is a non-empty run of
//     characters other than blanks, control characters, '=' and '"'.
//   - Each further word is an argument name, followed either by '=' and a
//     value, or by nothing, which makes it a flag. Blanks around the '=' are
//     allowed, as Scan allows them.
//   - A value is a word, or a quoted value: "Values can be quoted with
//     double quotes. It is in fact required if they contain a special
//     character (such as a space or '=') or are empty." The quoted value is
//     every byte up to the next '"'. There is no escape inside quotes (Hub
//     has none: "a value can never contain `"`", hub-hive.md), so a
//     backslash is an ordinary character and a value cannot hold a quote.
//     A quoted value may hold any other byte but a line break, and must be
//     followed by a blank or the end of the line.
//
// Everything else is a *SyntaxError: an unterminated quote, '=' with no
// name before it or no value after it, a quote or '=' inside an unquoted
// value (quote the whole value), text glued to a closing quote, a control
// character outside quotes. A line of blanks only is ErrEmptyLine.
func Parse(s string) (Line, error) {
	i := skipBlanks(s, 0)
	if i == len(s) {
		return Line{}, ErrEmptyLine
	}
	start := i
	i = skipWord(s, i)
	if i == start {
		switch s[i] {
		case '=':
			return Line{}, syntaxErr(i, "the line starts with '=' where the command should be")
		case '"':
			return Line{}, syntaxErr(i, "the line starts with a quote where the command should be: a command is never quoted")
		}
		return Line{}, control(s, i, "where the command should be")
	}
	l := Line{Command: s[start:i]}
	if i < len(s) && !isBlank(s[i]) {
		if s[i] == '=' {
			return Line{}, syntaxErr(i, "'=' right after the command %s: a line starts with a command word, then name=value arguments", l.Command)
		}
		return Line{}, glued(s, i, "the command "+l.Command)
	}
	for {
		i = skipBlanks(s, i)
		if i == len(s) {
			return l, nil
		}
		start = i
		i = skipWord(s, i)
		if i == start {
			switch s[i] {
			case '=':
				return Line{}, syntaxErr(i, "'=' without an argument name before it")
			case '"':
				return Line{}, syntaxErr(i, "quoted text without an argument name: write name=\"...\"")
			}
			return Line{}, control(s, i, "where an argument should be")
		}
		name := s[start:i]
		j := skipBlanks(s, i)
		if j == len(s) || s[j] != '=' {
			// A flag, unless something is glued to its name.
			if i < len(s) && !isBlank(s[i]) {
				return Line{}, glued(s, i, "the argument name "+name)
			}
			l.Args = append(l.Args, Arg{Name: name, Flag: true})
			continue
		}
		eq := j
		j = skipBlanks(s, j+1)
		if j == len(s) {
			return Line{}, syntaxErr(eq, "%s= has no value (write %s=\"\" for an empty one)", name, name)
		}
		if s[j] == '"' {
			end := strings.IndexByte(s[j+1:], '"')
			if end < 0 {
				return Line{}, syntaxErr(j, "unterminated quote in the value of %s", name)
			}
			value := s[j+1 : j+1+end]
			if k := strings.IndexAny(value, "\r\n"); k >= 0 {
				return Line{}, syntaxErr(j+1+k, "line break inside the quoted value of %s", name)
			}
			i = j + 1 + end + 1
			if i < len(s) && !isBlank(s[i]) {
				return Line{}, syntaxErr(i, "%s right after the closing quote of the value of %s: arguments are separated by blanks", charAt(s, i), name)
			}
			l.Args = append(l.Args, Arg{Name: name, Value: value})
			continue
		}
		vstart := j
		i = skipWord(s, j)
		if i == vstart {
			if s[i] == '=' {
				return Line{}, syntaxErr(eq, "%s= has no value (write %s=\"\" for an empty one)", name, name)
			}
			return Line{}, control(s, i, "in the value of "+name)
		}
		if i < len(s) && !isBlank(s[i]) {
			switch s[i] {
			case '"':
				return Line{}, syntaxErr(i, "quote inside the unquoted value of %s: quote the whole value", name)
			case '=':
				return Line{}, syntaxErr(i, "the value of %s contains '=' and must be quoted", name)
			default:
				return Line{}, control(s, i, "in the value of "+name)
			}
		}
		l.Args = append(l.Args, Arg{Name: name, Value: s[vstart:i]})
	}
}

// charAt names the character at s[i] for an error message, in words for a
// quote (which a message of the answer error cannot carry) and for bytes
// that do not print.
func charAt(s string, i int) string {
	c := s[i]
	switch {
	case c == '"':
		return "a quote"
	case isWord(c) && c < utf8.RuneSelf:
		return "'" + s[i:i+1] + "'"
	case c >= utf8.RuneSelf:
		if r, n := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || n > 1 {
			return "'" + s[i:i+n] + "'"
		}
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func skipBlanks(s string, i int) int {
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return i
}

func skipWord(s string, i int) int {
	for i < len(s) && isWord(s[i]) {
		i++
	}
	return i
}

// String writes the line in canonical form: one space between words, and
// a value quoted only when it must be, that is when it is empty or holds a
// character that cannot appear in a word (the spec's "special character
// (such as a space or '=')"), which is also when Scan's writer quotes. A
// flag is written as its bare name, unless it carries a value, which wins.
//
// For every line Parse returns, Parse(l.String()) gives l back. A line Parse
// could not have returned (see Check) is still written on one line, never
// two: a quote in a value, which Hub cannot carry, becomes an apostrophe,
// and a line break anywhere becomes a space.
func (l Line) String() string {
	var b strings.Builder
	b.WriteString(oneLine(l.Command))
	for _, a := range l.Args {
		b.WriteByte(' ')
		b.WriteString(oneLine(a.Name))
		if a.Flag && a.Value == "" {
			continue
		}
		b.WriteByte('=')
		if isWordString(a.Value) {
			b.WriteString(a.Value)
			continue
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(oneLine(a.Value), `"`, "'"))
		b.WriteByte('"')
	}
	return b.String()
}

// oneLine replaces line breaks by spaces.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	}
	return s
}

// Check reports what keeps the line from being written exactly: a command
// or argument name that is not a word, a value with a quote or a line
// break, a flag with a value. Lines from Parse always pass.
func (l Line) Check() error {
	if !isWordString(l.Command) {
		return fmt.Errorf("command %q is not a word: want a run of characters other than blanks, control characters, '=' and '\"'", l.Command)
	}
	for _, a := range l.Args {
		if !isWordString(a.Name) {
			return fmt.Errorf("%s: argument name %q is not a word", l.Command, a.Name)
		}
		if a.Flag && a.Value != "" {
			return fmt.Errorf("%s: flag %s has a value", l.Command, a.Name)
		}
		if strings.ContainsAny(a.Value, "\"\r\n") {
			return fmt.Errorf("%s: the value of %s holds a quote or a line break, which Hub cannot carry", l.Command, a.Name)
		}
	}
	return nil
}

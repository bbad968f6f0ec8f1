package translate

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
)

// Spec says which backend to use, in the one syntax of every --backend
// flag: "native" (the default), "uhp:<program> [args...]",
// "hub:<program> [args...]" or "hivejson://host:port[?frame-length=utf8]".
type Spec struct {
	Kind    string   // native, uhp, hub or hivejson
	Program string   // uhp and hub: the program to start
	Args    []string // uhp and hub: its arguments
	Address string   // hivejson: host:port
	// FrameLength is what a JSON module's frame lengths count:
	// hivejson://host:port?frame-length=utf8 for a module on a newer
	// version of the framing library, which counts UTF-8 bytes.
	FrameLength hivejson.FrameLength
}

// ParseSpec reads a backend spec. A program and its arguments are split
// as a shell would split words (blanks separate them; quotes and
// backslashes keep blanks in a word), but no shell ever runs: nothing in a
// spec can start another command.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s == "native":
		return Spec{Kind: "native"}, nil
	case strings.HasPrefix(s, "hivejson://"):
		addr, query, _ := strings.Cut(strings.TrimPrefix(s, "hivejson://"), "?")
		if addr == "" || !strings.Contains(addr, ":") {
			return Spec{}, fmt.Errorf("backend %q: want hivejson://host:port", s)
		}
		sp := Spec{Kind: "hivejson", Address: addr}
		options, err := url.ParseQuery(query)
		if err != nil {
			return Spec{}, fmt.Errorf("backend %q: %w", s, err)
		}
		for name, values := range options {
			if name != "frame-length" || len(values) != 1 {
				return Spec{}, fmt.Errorf("backend %q: the one option of hivejson:// is frame-length=utf16|utf8, once", s)
			}
			if sp.FrameLength, err = hivejson.ParseFrameLength(values[0]); err != nil {
				return Spec{}, fmt.Errorf("backend %q: %w", s, err)
			}
		}
		return sp, nil
	}
	kind, command, found := strings.Cut(s, ":")
	if !found || (kind != "uhp" && kind != "hub") {
		return Spec{}, fmt.Errorf("unknown backend %q: want native, uhp:<program> [args...], hub:<program> [args...] or hivejson://host:port", s)
	}
	words, err := splitWords(command)
	if err != nil {
		return Spec{}, fmt.Errorf("backend %q: %w", s, err)
	}
	if len(words) == 0 {
		return Spec{}, fmt.Errorf("backend %q names no program", s)
	}
	return Spec{Kind: kind, Program: words[0], Args: words[1:]}, nil
}

// String writes the spec as ParseSpec reads it, each word of a program
// and its arguments quoted when ParseSpec would otherwise split or unquote
// it.
func (sp Spec) String() string {
	switch sp.Kind {
	case "native":
		return "native"
	case "hivejson":
		if sp.FrameLength != hivejson.UTF16Units {
			return "hivejson://" + sp.Address + "?frame-length=" + sp.FrameLength.String()
		}
		return "hivejson://" + sp.Address
	}
	words := make([]string, 0, 1+len(sp.Args))
	for _, w := range append([]string{sp.Program}, sp.Args...) {
		switch {
		case w != "" && !strings.ContainsAny(w, " \t\n'\"\\"):
			words = append(words, w)
		case !strings.Contains(w, "'"):
			words = append(words, "'"+w+"'")
		default:
			words = append(words, `"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(w)+`"`)
		}
	}
	return sp.Kind + ":" + strings.Join(words, " ")
}

// splitWords splits s into words as a POSIX shell would, without any
// expansion: blanks separate words, single quotes keep everything
// literally, double quotes keep blanks and let a backslash escape " and \,
// and a backslash outside quotes keeps the next character.
func splitWords(s string) ([]string, error) {
	var (
		words  []string
		word   strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated ' quote")
			}
			word.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				word.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			word.WriteByte(s[i])
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// Config sets up the backends that Open starts.
type Config struct {
	// Log receives the backend's diagnostics and its engine's standard
	// error, never protocol output.
	Log zerolog.Logger
	// Timeouts bound every wait on an engine process.
	Timeouts Timeouts
	// EngineOptions are "Name=Value" settings, checked against the options
	// the backend declares and applied before it is used.
	EngineOptions []string
	// OnRestart, if set, is told each time an engine process is started
	// again after a failure.
	OnRestart func()
}

// Timeouts bound the waits on an engine process.
type Timeouts struct {
	Start   time.Duration // from start to the end of the info answer
	Command time.Duration // one ordinary command
	// Margin is added to a bestmove time limit before the engine counts
	// as hung; Depth bounds a bestmove depth search, which has no time.
	Margin time.Duration
	Depth  time.Duration
	// Grace is how long an interrupted engine has to answer before its
	// whole process group is killed.
	Grace time.Duration
}

// WithDefaults returns c with DefaultTimeouts where it sets none, as
// every backend needs them.
func (c Config) WithDefaults() Config {
	if c.Timeouts == (Timeouts{}) {
		c.Timeouts = DefaultTimeouts()
	}
	return c
}

// DefaultTimeouts are generous enough for any sound engine on a loaded
// machine and short enough that a hung one is noticed.
func DefaultTimeouts() Timeouts {
	return Timeouts{
		Start:   10 * time.Second,
		Command: 5 * time.Second,
		Margin:  2 * time.Second,
		Depth:   10 * time.Minute,
		Grace:   500 * time.Millisecond,
	}
}

// Open starts the backend that spec names and applies cfg.EngineOptions.
func Open(ctx context.Context, spec string, cfg Config) (Engine, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults()
	var e Engine
	switch sp.Kind {
	case "native":
		e = NewNative()
	case "uhp":
		e, err = StartUHP(ctx, sp.Program, sp.Args, cfg)
	case "hub":
		e, err = StartHub(ctx, sp.Program, sp.Args, cfg)
	case "hivejson":
		e, err = DialJSON(ctx, sp.Address, sp.FrameLength, cfg)
	}
	if err != nil {
		return nil, err
	}
	if err := ApplyOptions(e, cfg.EngineOptions); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// ApplyOptions sets "Name=Value" options on e, each checked against the
// options e declares; an unknown name fails with the list of valid ones.
func ApplyOptions(e Engine, settings []string) error {
	for _, setting := range settings {
		name, value, found := strings.Cut(setting, "=")
		if !found || name == "" {
			return fmt.Errorf("engine option %q: want Name=Value", setting)
		}
		opt := findOption(e.Options(), name)
		if opt == nil {
			var names []string
			for _, o := range e.Options() {
				names = append(names, o.Name)
			}
			valid := strings.Join(names, ", ")
			if valid == "" {
				valid = "none"
			}
			return fmt.Errorf("engine option %q: %s declares no such option; valid names: %s", name, e.Info().ID, valid)
		}
		if err := opt.Set(value); err != nil {
			return fmt.Errorf("engine option %q: %w", name, err)
		}
	}
	return nil
}

func findOption(opts []*engine.Option, name string) *engine.Option {
	for _, o := range opts {
		if strings.EqualFold(o.Name, name) {
			return o
		}
	}
	return nil
}

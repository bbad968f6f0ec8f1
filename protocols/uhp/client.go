package uhp

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Client is the viewer side of UHP: it sends commands to an engine and
// reads its answers, each ending with ok. It knows nothing of processes:
// whoever starts the engine gives it the engine's output and input. Every
// wait takes a context, so a silent engine can never hang the caller; an
// answer abandoned at a deadline can still be awaited afterwards.
type Client struct {
	*LineReader
	w io.Writer
}

// NewClient returns a client that writes commands to w and reads answers
// from r, with a goroutine that reads r until it ends.
func NewClient(r io.Reader, w io.Writer) *Client {
	return &Client{LineReader: NewLineReader(r, maxLine), w: w}
}

// ErrEngineGone is returned once the engine's output has ended.
const ErrEngineGone engine.Error = "the engine's output ended"

// EngineError is an err or invalidmove line of an engine's answer.
type EngineError struct {
	Kind    string // "err" or "invalidmove"
	Message string
}

func (e *EngineError) Error() string { return e.Kind + " " + e.Message }

// Send writes one command line.
func (c *Client) Send(command string) error {
	_, err := io.WriteString(c.w, command+"\n")
	return err
}

// Await reads the lines of one answer up to its ok and returns those
// before it, calling each (if not nil) with every line as it arrives. An
// answer holding an err or invalidmove line returns its lines and an
// *EngineError. If ctx ends first, the lines read so far are returned with
// ctx's error and the rest of the answer stays to be read by the next
// Await.
func (c *Client) Await(ctx context.Context, each func(string)) ([]string, error) {
	var lines []string
	var engineErr error
	for {
		line, err := c.Next(ctx)
		if err != nil {
			return lines, err
		}
		line = strings.TrimRight(line, "\r")
		if line == "ok" {
			return lines, engineErr
		}
		if kind, msg, found := strings.Cut(line, " "); found && (kind == "err" || kind == "invalidmove") && engineErr == nil {
			engineErr = &EngineError{Kind: kind, Message: msg}
		}
		lines = append(lines, line)
		if each != nil {
			each(line)
		}
	}
}

// Do sends a command and awaits its whole answer.
func (c *Client) Do(ctx context.Context, command string) ([]string, error) {
	if err := c.Send(command); err != nil {
		return nil, err
	}
	return c.Await(ctx, nil)
}

// ParseInfo reads the lines of an info answer: "id Name" and an optional
// line of capabilities (Mosquito;Ladybug;Pillbug).
func ParseInfo(lines []string) (engine.Info, error) {
	var info engine.Info
	for _, line := range lines {
		if rest, ok := strings.CutPrefix(line, "id "); ok {
			info.ID = strings.TrimSpace(rest)
			continue
		}
		for _, capability := range strings.Split(line, ";") {
			switch strings.TrimSpace(capability) {
			case "Mosquito":
				info.Expansions |= core.WithMosquito
			case "Ladybug":
				info.Expansions |= core.WithLadybug
			case "Pillbug":
				info.Expansions |= core.WithPillbug
			}
		}
	}
	if info.ID == "" {
		return info, fmt.Errorf("the engine's info answer has no id line: %q", lines)
	}
	return info, nil
}

// FormatCapabilities writes the capability line of info for a set of
// expansions, empty for none.
func FormatCapabilities(t core.GameType) string {
	var caps []string
	if t&core.WithMosquito != 0 {
		caps = append(caps, "Mosquito")
	}
	if t&core.WithLadybug != 0 {
		caps = append(caps, "Ladybug")
	}
	if t&core.WithPillbug != 0 {
		caps = append(caps, "Pillbug")
	}
	return strings.Join(caps, ";")
}

// ParseOption reads one line of an options answer,
// "Name;type;value;default;...".
func ParseOption(line string) (*engine.Option, error) {
	f := strings.Split(line, ";")
	if len(f) < 4 || f[0] == "" {
		return nil, fmt.Errorf("%q is not an option line: want Name;type;value;default;...", line)
	}
	o := &engine.Option{Name: f[0], Type: engine.OptionType(f[1]), Default: f[3]}
	o.Declare(f[2])
	switch o.Type {
	case engine.BoolOption:
	case engine.IntOption, engine.DoubleOption:
		if len(f) != 6 {
			return nil, fmt.Errorf("%q is not an option line: a %s option ends with ;min;max", line, o.Type)
		}
		o.Min, o.Max = f[4], f[5]
	case engine.EnumOption:
		o.Choices = f[4:]
	default:
		return nil, fmt.Errorf("%q is not an option line: unknown type %q", line, f[1])
	}
	return o, nil
}

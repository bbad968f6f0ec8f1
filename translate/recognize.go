package translate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The wrong program given as a backend is recognised from the first line it
// prints, and refused at once with what it looks like and the spec to use,
// rather than after the start timeout. A UHP engine prints its info answer
// on start, unprompted: "id <name>", its capabilities and ok. A Hub engine
// prints nothing until it is sent hub, which it answers with "id
// name=...". Anything else is a banner of the program's own: an engine
// started without the argument that makes it speak the protocol (Scan
// needs "hub"), or no engine at all.

// probeAfter is how long a program given as a UHP engine may stay silent
// before it is sent hub, to which a Hub engine answers at once and a UHP
// engine that is only slow to start answers err, after its info; at most
// half the start timeout, so that there is time for the answer.
const probeAfter = 500 * time.Millisecond

// tongue is what a program's first line says it speaks.
type tongue int

const (
	speaksNothing tongue = iota // a banner of its own
	speaksUHP
	speaksHub
)

// tongueOf reads the first line a program printed.
func tongueOf(line string) tongue {
	line = strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(line, "id "):
		// A Hub id has name=value arguments; a UHP id is free text.
		if l, err := hub.Parse(line); err == nil {
			for _, a := range l.Args {
				if !a.Flag {
					return speaksHub
				}
			}
		}
		return speaksUHP
	case line == "ok" || strings.HasPrefix(line, "err ") || strings.HasPrefix(line, "invalidmove "):
		return speaksUHP
	}
	return speaksNothing
}

// lineSource is an engine's output as firstLine reads it: a UHP client's
// uhp.LineReader or a Hub client's hub.LineReader (each protocol reads its
// peers with a reader of its own).
type lineSource interface {
	Next(ctx context.Context) (string, error)
}

// firstLine returns the first line of the program's output that is not
// blank, within start. probe, if not nil, is called once the program has
// been silent for probeAfter (or half of start, if less); probed says
// whether it was.
func firstLine(ctx context.Context, start time.Duration, out lineSource, probe func() error) (line string, probed bool, err error) {
	for {
		wait := ctx
		cancel := context.CancelFunc(func() {})
		if probe != nil && !probed {
			wait, cancel = context.WithTimeout(ctx, min(probeAfter, start/2))
		}
		line, err = out.Next(wait)
		cancel()
		switch {
		case err == nil && strings.TrimSpace(line) == "":
			continue
		case err == nil:
			return strings.TrimRight(line, "\r"), probed, nil
		case ctx.Err() == nil && wait.Err() != nil:
			probed = true
			if err := probe(); err != nil {
				return "", probed, fmt.Errorf("%w: %w", uhp.ErrEngineGone, err)
			}
			continue
		}
		return "", probed, err
	}
}

// wrongProgram is the error that refuses a program that is no engine of the
// protocol wanted: it says what the program looks like, from its first
// line, and the spec to use when it speaks the other protocol.
func wrongProgram(program string, args []string, want string, first string) error {
	first = strings.TrimSpace(first)
	if len(first) > 80 {
		first = first[:77] + "..."
	}
	switch t := tongueOf(first); {
	case t == speaksHub && want == "uhp":
		return fmt.Errorf("engine %q speaks Hub, not UHP (it answered hub with %q): use the backend spec %q", program, first, Spec{Kind: "hub", Program: program, Args: args})
	case t == speaksUHP && want == "hub":
		return fmt.Errorf("engine %q speaks UHP, not Hub (it printed %q): use the backend spec %q", program, first, Spec{Kind: "uhp", Program: program, Args: args})
	case want == "uhp":
		return fmt.Errorf("engine %q does not speak UHP as started: it printed %q, where a UHP engine prints its \"id <name>\" line; does it need an argument to speak UHP?", program, first)
	}
	return fmt.Errorf("engine %q does not speak Hub as started: it answered hub with %q, where a Hub engine answers \"id name=...\"; does it need an argument to speak Hub, as Scan needs \"hub\" (\"hub:scan hub\")?", program, first)
}

package hub

import (
	"context"
	"errors"
	"io"
	"strings"
)

// Client is the GUI side of Hub: it sends commands to an engine and reads
// its answers. It knows nothing of processes: whoever starts the engine
// gives it the engine's output and input. Every wait takes a context, so a
// silent engine can never hang the caller, and an answer abandoned at a
// deadline stays to be read by the next wait.
type Client struct {
	*LineReader
	w io.Writer
}

// NewClient returns a client that writes commands to w and reads answers
// from r, with a goroutine that reads r until it ends.
func NewClient(r io.Reader, w io.Writer) *Client {
	return &Client{LineReader: newLineReader(r, defaultMaxLine), w: w}
}

// Send writes one command.
func (c *Client) Send(m Message) error {
	_, err := io.WriteString(c.w, m.Line().String()+"\n")
	return err
}

// Answer is one line the engine printed: its text, and the typed answer,
// or the reason the line is none (Scan prints free text while it
// initialises, which the spec tells the GUI to ignore).
type Answer struct {
	Text    string
	Message Message // nil when Err is set
	Err     error
}

// Await reads answers up to the first of command want, which it returns,
// typed; each (if not nil) is called with every answer before it, blank
// lines aside. If the line of want does not read (done without a move),
// Await returns its error: the engine has answered, badly. If ctx ends
// first, Await returns ctx's error, and the rest of the answer stays to be
// read; once the engine's output has ended or can no longer be read, an
// error that is ErrEngineGone.
func (c *Client) Await(ctx context.Context, want string, each func(Answer)) (Message, error) {
	for {
		text, err := c.Next(ctx)
		if err != nil {
			return nil, err
		}
		l, err := Parse(text)
		if errors.Is(err, ErrEmptyLine) {
			continue
		}
		a := Answer{Text: strings.TrimRight(text, "\r\n"), Err: err}
		if err == nil {
			a.Message, a.Err = DecodeAnswer(l)
			if l.Command == want {
				return a.Message, a.Err
			}
		}
		if each != nil {
			each(a)
		}
	}
}

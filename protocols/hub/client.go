package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Client is the GUI side of Hub: it sends commands to an engine and reads
// its answers. It knows nothing of processes: whoever starts the engine
// gives it the engine's output and input. Every wait takes a context, so a
// silent engine can never hang the caller, and an answer abandoned at a
// deadline stays to be read by the next wait.
type Client struct {
	w     io.Writer
	lines chan string   // closed when the engine's output ends
	ended chan struct{} // closed when the engine's output ends
	mu    sync.Mutex
	err   error // why the output ended
}

// NewClient returns a client that writes commands to w and reads answers
// from r, with a goroutine that reads r until it ends.
func NewClient(r io.Reader, w io.Writer) *Client {
	c := &Client{w: w, lines: make(chan string, 64), ended: make(chan struct{})}
	go c.read(r)
	return c
}

func (c *Client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), defaultMaxLine)
	for sc.Scan() {
		c.lines <- sc.Text()
	}
	err := sc.Err()
	if err == nil {
		err = io.EOF
	}
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.lines) // after every line read: Await sees them all first
	close(c.ended)
}

// Ended is closed once the engine's output has ended and been read whole:
// only then may the engine's process be waited for, which closes its pipes.
func (c *Client) Ended() <-chan struct{} { return c.ended }

// ErrEngineGone is returned once the engine's output has ended.
const ErrEngineGone = constError("the engine's output ended")

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
		select {
		case text, open := <-c.lines:
			if !open {
				c.mu.Lock()
				err := c.err
				c.mu.Unlock()
				if err == io.EOF {
					return nil, ErrEngineGone
				}
				// A line too long to read, or a broken pipe: nothing more
				// will be read from this engine either way.
				return nil, fmt.Errorf("%w: %v", ErrEngineGone, err)
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
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

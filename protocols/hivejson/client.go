package hivejson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
)

// The controller's side of the protocol: hivebridge driving an AI module.
// A Client sends one request at a time on a connection and reads frames
// until the reply comes, skipping what is not a reply; it does not dial,
// retry or judge the turn it gets (translate's JSON backend does that).

// Errors of a Client's exchanges, wrapped with the details.
const (
	// ErrPeerError: the module answered with an error frame, or with a
	// reply that carries an error key ("A reply with an error key ...
	// loses the game by penalty", wire doc).
	ErrPeerError engine.Error = "hivejson: the module answered with an error"
	// ErrPeerClosed: the module closed the connection before its reply.
	ErrPeerClosed engine.Error = "hivejson: the module closed the connection"
	// ErrNoReply: the reply did not come before the exchange's deadline
	// (it wraps os.ErrDeadlineExceeded too).
	ErrNoReply engine.Error = "hivejson: no reply before the deadline"
	// ErrGarbage: the module sent a frame that is no message at all (the
	// framing error or the decoding error is wrapped too).
	ErrGarbage engine.Error = "hivejson: the module sent a frame that is not a message"
)

// Client is the controller's side of one connection to an AI module. It is
// not safe for concurrent use, and the protocol has one request in flight
// at a time anyway. After an exchange fails the stream may be out of step
// (a late reply may still come), so the caller should close the connection
// and dial again.
type Client struct {
	conn net.Conn
	dec  *Decoder
	out  []byte
	// OnSkip, if set, is told of each frame skipped while waiting for a
	// reply: a frame that is a message, but not the reply awaited.
	OnSkip func(raw json.RawMessage, why string)
}

// NewClient returns a Client on conn that accepts frames of up to maxLen
// UTF-16 code units (maxLen <= 0: DefaultMaxLen).
func NewClient(conn net.Conn, maxLen int) *Client {
	return &Client{conn: conn, dec: NewDecoder(maxLen)}
}

// SetFrameLength makes the Client read the module's frame lengths, and its
// limit, in l.
func (c *Client) SetFrameLength(l FrameLength) { c.dec.SetFrameLength(l) }

// Greet sends a Greetings request and returns the module's answer.
func (c *Client) Greet(ctx context.Context, requestID string) (*GreetingsResponse, error) {
	var resp *GreetingsResponse
	err := c.exchange(ctx, NewGreetingsRequest(requestID), func(m Message) bool {
		resp, _ = m.(*GreetingsResponse)
		return resp != nil
	})
	return resp, err
}

// ChooseTurn sends req and returns the module's reply. A reply with an
// error key is returned with an error wrapping ErrPeerError. The turn is
// not checked: that needs the game (see MoveOf).
//
// Replies are not matched to the request by id: "The controller checks
// neither" (wire doc), so real modules need not echo it right, and with one
// request in flight per connection, and a new connection after any
// failure, the next Choose Turn reply is the answer.
func (c *Client) ChooseTurn(ctx context.Context, req *ChooseTurnRequest) (*ChooseTurnResponse, error) {
	var resp *ChooseTurnResponse
	err := c.exchange(ctx, req, func(m Message) bool {
		resp, _ = m.(*ChooseTurnResponse)
		return resp != nil
	})
	if err == nil && resp.Failed() {
		err = fmt.Errorf("%w: %s", ErrPeerError, resp.Error)
	}
	return resp, err
}

// Alive reports whether the module still holds the connection open, as
// far as can be told within wait: a module may close a connection it
// finds idle, and a request sent on it would fail for no fault of the
// module's. Whatever the module did send since is kept for the next
// exchange to read.
func (c *Client) Alive(wait time.Duration) bool {
	if err := c.conn.SetReadDeadline(time.Now().Add(wait)); err != nil {
		return false
	}
	var buf [512]byte
	n, err := c.conn.Read(buf[:])
	c.dec.Feed(buf[:n])
	return err == nil || errors.Is(err, os.ErrDeadlineExceeded)
}

// exchange writes req and reads frames until reply accepts one. Its
// deadline is ctx's, set on the connection for the write and every read;
// when ctx ends early the pending read or write ends at once.
//
// While waiting, a frame that is a message but not the reply (a
// Greetings reply to a Choose Turn, a request, an object of an unknown
// type) is skipped; an error frame, which a module sends for a frame it
// cannot read, fails the exchange; so does a frame that is not a message
// at all. hivebridge never answers any of them: a controller has nothing to
// say to a module that does not answer what it asked.
func (c *Client) exchange(ctx context.Context, req any, reply func(Message) bool) error {
	deadline, _ := ctx.Deadline() // none: the zero time, no deadline
	if err := c.conn.SetDeadline(deadline); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Now()) })
	defer stop()
	var err error
	if c.out, err = AppendFrame(c.out[:0], req); err != nil {
		return err
	}
	if _, err := c.conn.Write(c.out); err != nil {
		return c.ioError(ctx, err)
	}
	for {
		raw, err := c.dec.ReadFrame(c.conn)
		if err != nil {
			return c.ioError(ctx, err)
		}
		m, err := ParseMessage(raw)
		switch {
		case errors.Is(err, ErrUnknownRequest) || errors.Is(err, ErrUnknownMessage):
			c.skip(raw, err.Error())
			continue
		case err != nil:
			return fmt.Errorf("%w: %w", ErrGarbage, err)
		}
		if e, ok := m.(*ErrorFrame); ok {
			return fmt.Errorf("%w frame: %s", ErrPeerError, e.Message)
		}
		if reply(m) {
			return nil
		}
		c.skip(raw, fmt.Sprintf("%T is not the reply awaited", m))
	}
}

func (c *Client) skip(raw json.RawMessage, why string) {
	if c.OnSkip != nil {
		c.OnSkip(raw, why)
	}
}

// ioError says why reading or writing failed: ctx ended, the deadline
// passed, the module hung up, or it sent a malformed frame.
func (c *Client) ioError(ctx context.Context, err error) error {
	var fe *FrameError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return ctx.Err()
	case ctx.Err() != nil, errors.Is(err, os.ErrDeadlineExceeded):
		if stalled := c.dec.Stalled(); stalled != nil {
			return fmt.Errorf("%w: %w: %w", ErrNoReply, os.ErrDeadlineExceeded, stalled)
		}
		return fmt.Errorf("%w: %w", ErrNoReply, os.ErrDeadlineExceeded)
	case errors.Is(err, io.EOF), errors.Is(err, ErrTruncated), errors.Is(err, net.ErrClosed), errors.Is(err, io.ErrClosedPipe):
		return fmt.Errorf("%w: %w", ErrPeerClosed, err)
	case errors.As(err, &fe):
		return fmt.Errorf("%w: %w", ErrGarbage, err)
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		// A reset or broken pipe: the module is gone.
		return fmt.Errorf("%w: %w", ErrPeerClosed, err)
	}
	return err
}

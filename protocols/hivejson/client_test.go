package hivejson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// pipeModule runs a scripted module on one end of a pipe: it reads one
// request and does what act says with it. It returns a Client on the
// other end.
func pipeModule(t *testing.T, act func(conn net.Conn, req Message)) *Client {
	t.Helper()
	ours, theirs := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		theirs.SetDeadline(time.Now().Add(5 * time.Second))
		raw, err := NewDecoder(0).ReadFrame(theirs)
		if err != nil {
			t.Errorf("module: %v", err)
			return
		}
		m, err := ParseMessage(raw)
		if err != nil {
			t.Errorf("module: %v", err)
			return
		}
		act(theirs, m)
	}()
	t.Cleanup(func() {
		ours.Close()
		theirs.Close()
		<-done
	})
	return NewClient(ours, 0)
}

func writeAll(conn net.Conn, frames ...string) {
	for _, f := range frames {
		if _, err := conn.Write([]byte(f)); err != nil {
			return
		}
	}
}

// rawFrame frames a body as is, valid JSON or not.
func rawFrame(body string) string { return fmt.Sprintf("%d#%s", len(body), body) }

func mustFrame(v any) string {
	f, err := EncodeFrame(v)
	if err != nil {
		panic(err)
	}
	return string(f)
}

func chooseTurnOf(t *testing.T) *ChooseTurnRequest {
	t.Helper()
	req, err := NewChooseTurnRequest("q1", "g1", 1, core.NewGame(core.Base))
	if err != nil {
		t.Fatal(err)
	}
	return &req
}

// TestClientSkipsUnrelatedFrames: frames that are messages but not the
// reply are skipped, and a reply is taken whatever id it echoes ("The
// controller checks neither").
func TestClientSkipsUnrelatedFrames(t *testing.T) {
	c := pipeModule(t, func(conn net.Conn, req Message) {
		hello := NewGreetingsRequest("k")
		writeAll(conn,
			mustFrame(hello.Reply(GreetingsResponse{Name: "chatty", Active: true})),
			mustFrame(hello),
			rawFrame(`{"foo":1}`),
			mustFrame(ChooseTurnResponse{ResponseType: TypeChooseTurn, RequestID: "someone else's", Turn: Turn{TurnType: TurnPlacement, PieceType: NameSpider, Destination: "0,0"}}))
	})
	var skipped []string
	c.OnSkip = func(_ json.RawMessage, why string) { skipped = append(skipped, why) }
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := c.ChooseTurn(ctx, chooseTurnOf(t))
	if err != nil || resp.TurnType != TurnPlacement || resp.ID() != "someone else's" {
		t.Fatalf("ChooseTurn = %+v, %v", resp, err)
	}
	if len(skipped) != 3 {
		t.Errorf("skipped %d frames (%q), want 3", len(skipped), skipped)
	}
}

// TestClientErrors: every way a module can fail an exchange is an error
// that says which.
func TestClientErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		act     func(conn net.Conn)
		timeout time.Duration
		is      error
		words   string
	}{
		{"error frame", func(conn net.Conn) { writeAll(conn, mustFrame(NewErrorFrame(errors.New("Unexpected token")))) }, 0, ErrPeerError, "Unexpected token"},
		{"error key", func(conn net.Conn) {
			writeAll(conn, rawFrame(`{"response_type":"Choose Turn","response_id":"q1","error":"I give up"}`))
		}, 0, ErrPeerError, "I give up"},
		{"invalid JSON", func(conn net.Conn) { writeAll(conn, rawFrame("not json!")) }, 0, ErrGarbage, "not valid JSON"},
		{"no message", func(conn net.Conn) { writeAll(conn, rawFrame("[1]")) }, 0, ErrGarbage, "not a JSON object"},
		{"no header", func(conn net.Conn) { writeAll(conn, `{"response_type":"Choose Turn"}`) }, 0, ErrGarbage, "no '#'"},
		{"hang up", func(conn net.Conn) { conn.Close() }, 0, ErrPeerClosed, "closed"},
		{"hang up mid-frame", func(conn net.Conn) {
			writeAll(conn, `80#{"response_type":`)
			conn.Close()
		}, 0, ErrPeerClosed, "closed"},
		{"silence", func(conn net.Conn) { conn.Read(make([]byte, 1)) }, 100 * time.Millisecond, ErrNoReply, "deadline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pipeModule(t, func(conn net.Conn, _ Message) { tc.act(conn) })
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			start := time.Now()
			_, err := c.ChooseTurn(ctx, chooseTurnOf(t))
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.words) {
				t.Errorf("ChooseTurn = %v, want %q saying %q", err, tc.is, tc.words)
			}
			if time.Since(start) > 2*time.Second {
				t.Errorf("the error took %s", time.Since(start))
			}
			if tc.is == ErrNoReply && !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("%v does not wrap os.ErrDeadlineExceeded", err)
			}
		})
	}
}

// TestClientCancel: a cancelled exchange ends at once with the context's
// error.
func TestClientCancel(t *testing.T) {
	c := pipeModule(t, func(conn net.Conn, _ Message) { conn.Read(make([]byte, 1)) })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Greet(ctx, "hi"); !errors.Is(err, context.Canceled) {
		t.Errorf("Greet = %v, want context.Canceled", err)
	}
}

// TestClientAlive: a connection the module has closed is told from one it
// holds open, and what the module sent meanwhile is kept.
func TestClientAlive(t *testing.T) {
	ours, theirs := net.Pipe()
	defer ours.Close()
	c := NewClient(ours, 0)
	if !c.Alive(time.Millisecond) {
		t.Error("an open, silent connection is not alive")
	}
	go writeAll(theirs, rawFrame(`{"response_type":"Greetings","name":"early"}`))
	if !c.Alive(time.Second) {
		t.Error("a connection with a frame waiting is not alive")
	}
	theirs.Close()
	if c.Alive(time.Second) {
		t.Error("a closed connection is alive")
	}
	if raw, err := c.dec.Next(); err != nil || !strings.Contains(string(raw), "early") {
		t.Errorf("the frame read while probing: %s, %v", raw, err)
	}
}

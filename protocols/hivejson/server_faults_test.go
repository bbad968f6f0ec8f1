package hivejson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/accept/accepttest"
)

// TestServerInvalidUTF8: frames with bytes that are not valid UTF-8, in
// their header, in a body that is not JSON, or in the strings of a
// request, are answered as their like in valid UTF-8 would be (the strings
// read with U+FFFD in place of each bad byte, as encoding/json reads
// them), every answer is ASCII, and the connection goes on.
func TestServerInvalidUTF8(t *testing.T) {
	addr := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), Log: zerolog.Nop()})
	c := dialServer(t, addr)
	frame := func(body string) []byte { return []byte(fmt.Sprintf("%d#%s", UTF16Len([]byte(body)), body)) }
	var turn bytes.Buffer
	if err := json.Compact(&turn, readFixture(t, "choose_turn_midgame.json")); err != nil {
		t.Fatal(err)
	}
	badTurn := bytes.Replace(turn.Bytes(), []byte(`"request_id":"7pNQ4"`), []byte("\"request_id\":\"7p\xffQ4\""), 1)
	for i, tc := range []struct {
		name  string
		frame []byte
		check func(raw json.RawMessage) error
	}{
		{"header", []byte("1\xff2#{}"), wantError("not a decimal number")},
		{"body", frame("{\xfe}"), wantError("not valid JSON")},
		{"greetings", frame("{\"request_type\":\"Greetings\",\"request_id\":\"a\xc3b\",\"system_version\":\"0.1.0\"}"), func(raw json.RawMessage) error {
			if r, ok := mustParse(raw).(*GreetingsResponse); !ok || r.ID() != "a\uFFFDb" {
				return fmt.Errorf("answered %s, want the greeting of request a\uFFFDb", raw)
			}
			return nil
		}},
		{"choose turn", frame(string(badTurn)), func(raw json.RawMessage) error {
			if r, ok := mustParse(raw).(*ChooseTurnResponse); !ok || r.Failed() || r.ID() != "7p\uFFFDQ4" {
				return fmt.Errorf("answered %s, want a turn for request 7p\uFFFDQ4", raw)
			}
			return nil
		}},
	} {
		c.write(tc.frame, 0)
		raw := c.readRaw()
		if !isASCII(raw) || !utf8.Valid(raw) {
			t.Errorf("%s: answered with bytes beyond ASCII: %q", tc.name, raw)
		}
		if err := tc.check(raw); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		c.greet(fmt.Sprint("after-", i))
	}
}

// wantError checks that a frame is an error frame that says words.
func wantError(words string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		if e, ok := mustParse(raw).(*ErrorFrame); !ok || !bytes.Contains([]byte(e.Message), []byte(words)) {
			return fmt.Errorf("answered %s, want an error frame saying %q", raw, words)
		}
		return nil
	}
}

func mustParse(raw json.RawMessage) Message {
	m, _ := ParseMessage(raw)
	return m
}

// TestServerControllerLeaves: a controller that leaves while its request
// is searched, with an hour to answer, has the search cancelled at once,
// and its connection ends.
func TestServerControllerLeaves(t *testing.T) {
	searching := make(chan struct{}, 1)
	ended := make(chan error, 1)
	addr := startServer(t, ServerConfig{
		Searcher: searchFunc(func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error) {
			searching <- struct{}{}
			<-ctx.Done()
			ended <- ctx.Err()
			return core.NoMove, ctx.Err()
		}),
		Log: zerolog.Nop(),
	})
	c := dialServer(t, addr)
	c.send(hourAwayRequest(t))
	<-searching
	c.conn.Close()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the search ended with %v, want it cancelled", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the search goes on after the controller left")
	}
}

// TestServerMaxTime: MaxTime bounds the thinking of a request whose
// deadline is an hour away, and a frame sent while it thinks is answered
// after it, in order.
func TestServerMaxTime(t *testing.T) {
	var (
		mu     sync.Mutex
		limits []time.Duration
		left   []time.Duration
	)
	addr := startServer(t, ServerConfig{
		Searcher: searchFunc(func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error) {
			d, _ := ctx.Deadline()
			mu.Lock()
			limits, left = append(limits, limit.Time), append(left, time.Until(d))
			mu.Unlock()
			return stalling(ctx, g, limit)
		}),
		MaxTime: 200 * time.Millisecond,
		Margin:  100 * time.Millisecond,
		Log:     zerolog.Nop(),
	})
	c := dialServer(t, addr)
	c.send(hourAwayRequest(t))
	c.send(NewGreetingsRequest("behind"))
	if r := c.readTurn(); r.Failed() || r.TurnType == "" {
		t.Errorf("answered %+v, want a turn", r)
	}
	if r, ok := c.read().(*GreetingsResponse); !ok || r.ID() != "behind" {
		t.Errorf("the frame sent during the search answered with %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(limits) != 1 || limits[0] != 200*time.Millisecond || left[0] > 300*time.Millisecond {
		t.Errorf("searched for %v, stopped after %v; want 200ms, stopped within 300ms", limits, left)
	}
}

// TestBudgetMaxTime: MaxTime caps the time to think, with or without a
// deadline, and the search is stopped a Margin after it; a shorter grant
// is left as it is.
func TestBudgetMaxTime(t *testing.T) {
	s := NewServer(ServerConfig{DefaultTime: 2 * time.Second, Margin: time.Second, MaxTime: 10 * time.Second})
	t0 := time.UnixMilli(1_405_582_952_293)
	ms := func(d time.Duration) *int64 { v := t0.Add(d).UnixMilli(); return &v }
	for _, tc := range []struct {
		name      string
		deadline  *int64
		think, by time.Duration
	}{
		{"null", nil, 2 * time.Second, 3 * time.Second},
		{"an hour", ms(time.Hour), 10 * time.Second, 11 * time.Second},
		{"a minute", ms(time.Minute), 10 * time.Second, 11 * time.Second},
		{"short", ms(500 * time.Millisecond), 300 * time.Millisecond, 400 * time.Millisecond},
	} {
		req := &ChooseTurnRequest{RequestTimestamp: t0.UnixMilli(), ResponseDeadline: tc.deadline}
		think, by := s.budget(req, t0)
		if think != tc.think || by.Sub(t0) != tc.by {
			t.Errorf("%s: think %s, answer by +%s; want %s, +%s", tc.name, think, by.Sub(t0), tc.think, tc.by)
		}
	}
	s = NewServer(ServerConfig{DefaultTime: 5 * time.Second, Margin: time.Second, MaxTime: time.Second})
	if think, by := s.budget(&ChooseTurnRequest{}, t0); think != time.Second || by.Sub(t0) != 2*time.Second {
		t.Errorf("a null deadline over MaxTime: think %s, answer by +%s; want 1s, +2s", think, by.Sub(t0))
	}
}

// TestServeTemporaryAcceptError: a module out of file descriptors waits
// and accepts again rather than ending; a lasting error ends Serve.
func TestServeTemporaryAcceptError(t *testing.T) {
	s := NewServer(ServerConfig{Searcher: searchFunc(func(context.Context, *core.Game, engine.Limit) (core.Move, error) {
		return core.NoMove, errors.New("no search expected")
	})})
	l := &accepttest.FailingListener{Errs: []error{
		accepttest.Err(syscall.EMFILE),
		accepttest.Err(syscall.ECONNABORTED),
		accepttest.Err(syscall.EINVAL),
	}}
	if err := s.Serve(context.Background(), l); !errors.Is(err, syscall.EINVAL) || l.Calls != 3 {
		t.Errorf("Serve returned %v after %d accepts; want EINVAL after 3", err, l.Calls)
	}
}

// hourAwayRequest is the midgame Choose Turn request, sent now with its
// response_deadline an hour away.
func hourAwayRequest(t *testing.T) *ChooseTurnRequest {
	t.Helper()
	req := fixtureRequest(t, "choose_turn_midgame.json")
	req.RequestTimestamp = time.Now().UnixMilli()
	deadline := req.RequestTimestamp + time.Hour.Milliseconds()
	req.ResponseDeadline = &deadline
	return req
}

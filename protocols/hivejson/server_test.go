package hivejson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
)

// searchFunc is a Searcher made of a function.
type searchFunc func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error)

func (f searchFunc) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	return f(ctx, g, limit)
}

// firstLegal answers every search with the core's first legal move.
func firstLegal(_ context.Context, g *core.Game, _ engine.Limit) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0), nil
}

// stalling thinks until it is stopped, and then has nothing.
func stalling(ctx context.Context, _ *core.Game, _ engine.Limit) (core.Move, error) {
	<-ctx.Done()
	return core.NoMove, ctx.Err()
}

// testGreeting is the identity of the greetings_reply.frame fixture.
func testGreeting() GreetingsResponse {
	return GreetingsResponse{
		Name:        "hivebridge",
		Version:     "0.1.0",
		LongName:    "hivebridge \u2013 Hive bridge",
		Description: "Any Hive engine behind one protocol \U0001F41D",
		Author:      "hivebridge authors",
		ProjectURL:  "https://github.com/hivebridge/hivebridge",
		Language:    "Go",
	}
}

// startServer serves cfg on a loopback port until the test ends, then
// checks that Serve returned and left no goroutine behind.
func startServer(t *testing.T, cfg ServerConfig) string {
	t.Helper()
	before := runtime.NumGoroutine()
	if cfg.Greeting.Name == "" {
		cfg.Greeting = testGreeting()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewServer(cfg).Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Serve did not return after its context ended")
		}
		checkGoroutines(t, before)
	})
	return l.Addr().String()
}

// checkGoroutines fails if more goroutines run than before, once those
// ending have had time to.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines left (%d before):\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// controller is a test's side of a connection to a Server.
type controller struct {
	t    *testing.T
	conn net.Conn
	dec  *Decoder
}

func dialServer(t *testing.T, addr string) *controller {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &controller{t: t, conn: conn, dec: NewDecoder(0)}
}

// write sends bytes in pieces of the given size (0: at once).
func (c *controller) write(b []byte, piece int) {
	c.t.Helper()
	c.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if piece <= 0 {
		piece = len(b)
	}
	for len(b) > 0 {
		n := min(piece, len(b))
		if _, err := c.conn.Write(b[:n]); err != nil {
			c.t.Fatal(err)
		}
		b = b[n:]
	}
}

func (c *controller) send(v any) {
	c.t.Helper()
	f, err := EncodeFrame(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.write(f, 0)
}

// readRaw returns the next frame within 5 s.
func (c *controller) readRaw() json.RawMessage {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, err := c.dec.ReadFrame(c.conn)
	if err != nil {
		c.t.Fatalf("reading a reply: %v", err)
	}
	return raw
}

func (c *controller) read() Message {
	c.t.Helper()
	raw := c.readRaw()
	m, err := ParseMessage(raw)
	if err != nil {
		c.t.Fatalf("reply %s: %v", raw, err)
	}
	return m
}

// greet sends a Greetings request with id and checks the reply is its
// answer.
func (c *controller) greet(id string) {
	c.t.Helper()
	c.send(NewGreetingsRequest(id))
	r, ok := c.read().(*GreetingsResponse)
	if !ok || r.ID() != id || !r.Active {
		c.t.Fatalf("Greetings %s answered with %#v", id, r)
	}
}

func (c *controller) readTurn() *ChooseTurnResponse {
	c.t.Helper()
	m := c.read()
	r, ok := m.(*ChooseTurnResponse)
	if !ok {
		c.t.Fatalf("reply %#v, want a Choose Turn response", m)
	}
	return r
}

// fixtureRequest decodes a Choose Turn fixture.
func fixtureRequest(t *testing.T, name string) *ChooseTurnRequest {
	t.Helper()
	var req ChooseTurnRequest
	if err := json.Unmarshal(readFixture(t, name), &req); err != nil {
		t.Fatal(err)
	}
	return &req
}

// answerWith makes a searcher that answers each position with the move of
// the turn the test gave for its turn_number.
func answerWith(t *testing.T, turns map[int]Turn) engine.Searcher {
	return searchFunc(func(_ context.Context, g *core.Game, _ engine.Limit) (core.Move, error) {
		turn, ok := turns[g.Ply()]
		if !ok {
			return core.NoMove, fmt.Errorf("no turn for ply %d", g.Ply())
		}
		return MoveOf(turn, g)
	})
}

// TestServerFixtures answers the fixtures of hivejson-wire.md on one
// connection, sent a few bytes at a time and then packed into one write:
// the Greetings reply and the two Choose Turn replies are the fixtures'
// bytes exactly, and the end of a game is answered with an error.
func TestServerFixtures(t *testing.T) {
	addr := startServer(t, ServerConfig{
		Searcher: answerWith(t, map[int]Turn{
			16: {TurnType: TurnMovement, Source: "1,1", Destination: "3,-1"},
			8:  {TurnType: TurnSpecialAbility, AbilityUser: "0,0", Source: "-2,0", Destination: "1,-1"},
		}),
		Log: zerolog.Nop(),
	})
	var gameOver ChooseTurnRequest
	if err := json.Unmarshal(readFixture(t, "game_over_state.json"), &gameOver.GameState); err != nil {
		t.Fatal(err)
	}
	gameOver.RequestType, gameOver.RequestID, gameOver.GameID = TypeChooseTurn, "end01", "g-end"
	overFrame, _ := EncodeFrame(&gameOver)

	stream := [][]byte{
		readFixture(t, "greetings_request.frame"),
		frameFixture(t, "choose_turn_midgame.json"),
		frameFixture(t, "choose_turn_pillbug.json"),
		overFrame,
	}
	want := [][]byte{
		readFixture(t, "greetings_reply.frame"),
		readFixture(t, "choose_turn_midgame.reply.frame"),
		readFixture(t, "choose_turn_pillbug.reply.frame"),
	}
	check := func(c *controller) {
		for i, w := range want {
			if got, _ := AppendRawFrame(nil, c.readRaw()); !bytes.Equal(got, w) {
				t.Errorf("reply %d\n got %s\nwant %s", i, got, w)
			}
		}
		r := c.readTurn()
		if !r.Failed() || r.ID() != "end01" || r.GameID != "g-end" || !strings.Contains(string(r.Error), "over") {
			t.Errorf("the end of a game answered with %+v, want an error that says it is over", r)
		}
	}
	c := dialServer(t, addr)
	for _, f := range stream {
		c.write(f, 7)
	}
	check(c)
	c.write(bytes.Join(stream, nil), 0)
	check(c)
}

// TestServerErrorFramesNotAnswered sends error frames, and responses,
// which ask nothing: none is answered, and the next request is.
func TestServerErrorFramesNotAnswered(t *testing.T) {
	addr := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), Log: zerolog.Nop()})
	c := dialServer(t, addr)
	c.write(readFixture(t, "error.frame"), 0)
	c.send(NewErrorFrame(errors.New("your last frame was bad")))
	c.write([]byte(`15#{"error":"bad"}`), 0)
	c.write([]byte(`16#{"success":true}`), 0)
	c.send(&ChooseTurnResponse{ResponseType: TypeChooseTurn, ResponseID: "x", Turn: Turn{TurnType: TurnForfeit}})
	hello := NewGreetingsRequest("theirs")
	c.send(hello.Reply(testGreeting()))
	c.greet("after-errors") // the first frame back answers this
}

// TestServerMalformedFrames sends every kind of bad frame the reference
// server answers ("non-numeric length, invalid JSON, unknown request
// type"): each gets exactly one error frame, and the connection goes on.
func TestServerMalformedFrames(t *testing.T) {
	addr := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), MaxFrame: 4096, Log: zerolog.Nop()})
	c := dialServer(t, addr)
	for i, tc := range []struct{ frame, words string }{
		{`abc#{"request_type":"Greetings"}`, "not a decimal number"},
		{`-1#{}`, "negative"},
		{rawFrame(`hello`), "not valid JSON"},
		{`{"request_type":"Greetings"}`, "no '#'"},
		{rawFrame(`{"request_type":1}`), "malformed message"},
		{rawFrame(`{"request_type":"Dance!"}`), `unknown request type "Dance!"`},
		{rawFrame(`[1,2]`), "not a JSON object"},
		{rawFrame(`{}`), "no request_type"},
		{`99999#{}`, "over the limit"},
		{`"#{}`, "no '#'"},
	} {
		c.write([]byte(tc.frame), 0)
		id := fmt.Sprintf("after-%d", i)
		c.send(NewGreetingsRequest(id))
		e, ok := c.read().(*ErrorFrame)
		if !ok || e.Success || !strings.Contains(e.Message, tc.words) {
			t.Errorf("%s: answered %#v, want an error frame saying %q", tc.frame, e, tc.words)
			continue
		}
		if r, ok := c.read().(*GreetingsResponse); !ok || r.ID() != id {
			t.Fatalf("%s: the next request was answered with %#v", tc.frame, r)
		}
	}
}

// TestServerUnanswerable: a Choose Turn that cannot be answered with a
// legal offered turn, or whose search fails, gets a reply with an error
// key (the controller then ends the game, rather than waiting forever).
func TestServerUnanswerable(t *testing.T) {
	failing := searchFunc(func(context.Context, *core.Game, engine.Limit) (core.Move, error) {
		return core.NoMove, errors.New("the engine fell over")
	})
	addr := startServer(t, ServerConfig{Searcher: failing, Log: zerolog.Nop()})
	c := dialServer(t, addr)
	for _, tc := range []struct {
		name  string
		edit  func(r *ChooseTurnRequest)
		words string
	}{
		{"inconsistent", func(r *ChooseTurnRequest) { r.GameState.PlayerTurn = ColorBlack }, "player_turn"},
		{"board no game reaches", func(r *ChooseTurnRequest) {
			r.GameState.TurnHistory = nil
			r.GameState.Board.Pieces["40,0"] = []Piece{{ColorWhite, NameGrasshopper}}
		}, "the hive is split"},
		{"nothing legal offered", func(r *ChooseTurnRequest) {
			r.GameState.PossibleTurns = &PossibleTurns{Movement: map[string][]string{"0,0": {"40,0"}}}
		}, "offers no turn"},
		{"search fails", func(*ChooseTurnRequest) {}, "fell over"},
	} {
		req := fixtureRequest(t, "choose_turn_midgame.json")
		req.RequestID = tc.name
		tc.edit(req)
		c.send(req)
		r := c.readTurn()
		if !r.Failed() || r.ID() != tc.name || r.GameID != "KqwSQ" || r.TurnType != "" || !strings.Contains(string(r.Error), tc.words) {
			t.Errorf("%s: answered %+v (error %s), want an error saying %q", tc.name, r, r.Error, tc.words)
		}
	}
}

// TestServerOffersOnly: the answer is always a turn the request offered,
// even when the searcher prefers one the controller left out of its lists,
// and when only one move is offered no search is made.
func TestServerOffersOnly(t *testing.T) {
	searches := 0
	var mu sync.Mutex
	addr := startServer(t, ServerConfig{
		Searcher: searchFunc(func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error) {
			mu.Lock()
			searches++
			mu.Unlock()
			return firstLegal(ctx, g, limit)
		}),
		Log: zerolog.Nop(),
	})
	c := dialServer(t, addr)
	req := fixtureRequest(t, "choose_turn_midgame.json")
	g, err := GameOf(req.GameState)
	if err != nil {
		t.Fatal(err)
	}
	// Offer two turns, neither of them the core's first legal move.
	var l core.MoveList
	g.GenerateMoves(&l)
	first, _ := TurnOf(l.At(0), g)
	offered := []Turn{
		{TurnType: TurnMovement, Source: "1,1", Destination: "3,-1"},
		{TurnType: TurnPlacement, PieceType: NameAnt, Destination: "0,-2"},
	}
	if first == offered[0] || first == offered[1] {
		t.Fatalf("the first legal move %+v is offered", first)
	}
	req.GameState.PossibleTurns = &PossibleTurns{
		Placement: &PlacementTurns{PieceTypes: []string{NameAnt}, Positions: []string{"0,-2"}},
		Movement:  map[string][]string{"1,1": {"3,-1"}},
	}
	c.send(req)
	if r := c.readTurn(); r.Failed() || (r.Turn != offered[0] && r.Turn != offered[1]) {
		t.Errorf("answered %+v, want one of the offered %+v", r, offered)
	}
	// One move only, offered twice over: answered without a search, as a
	// Movement rather than the Special Ability.
	pill := fixtureRequest(t, "choose_turn_pillbug.json")
	pill.GameState.PossibleTurns = &PossibleTurns{
		Movement:       map[string][]string{"-2,0": {"-1,1"}},
		SpecialAbility: map[string]map[string][]string{"0,0": {"-2,0": {"-1,1"}}},
	}
	c.send(pill)
	if r := c.readTurn(); r.Turn != (Turn{TurnType: TurnMovement, Source: "-2,0", Destination: "-1,1"}) {
		t.Errorf("the only move answered as %+v", r.Turn)
	}
	mu.Lock()
	defer mu.Unlock()
	if searches != 1 {
		t.Errorf("%d searches, want 1 (none for the only move)", searches)
	}
}

// TestServerDeadlines: a search that never ends on its own is stopped in
// time for the answer to meet the request's response_deadline (or, without
// one, DefaultTime plus Margin), and a turn is still answered. What is
// asserted exactly is the deadline the search was given, as time left when
// it started: the wall-clock time of the whole exchange is only checked
// against a hang, since a loaded machine may delay any reply.
func TestServerDeadlines(t *testing.T) {
	var mu sync.Mutex
	var limits, left []time.Duration
	addr := startServer(t, ServerConfig{
		Searcher: searchFunc(func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error) {
			deadline, ok := ctx.Deadline()
			mu.Lock()
			limits = append(limits, limit.Time)
			if ok {
				left = append(left, time.Until(deadline))
			}
			mu.Unlock()
			return stalling(ctx, g, limit)
		}),
		DefaultTime: 150 * time.Millisecond,
		Margin:      100 * time.Millisecond,
		Log:         zerolog.Nop(),
	})
	c := dialServer(t, addr)
	const hang = 5 * time.Second
	for _, tc := range []struct {
		name     string
		deadline time.Duration // 0: null
	}{
		{"deadline", 600 * time.Millisecond},
		{"null", 0},
	} {
		req := fixtureRequest(t, "choose_turn_midgame.json")
		req.RequestTimestamp = time.Now().UnixMilli()
		if tc.deadline > 0 {
			d := req.RequestTimestamp + tc.deadline.Milliseconds()
			req.ResponseDeadline = &d
		}
		start := time.Now()
		c.send(req)
		r := c.readTurn()
		if r.Failed() || r.TurnType == "" {
			t.Errorf("%s: answered %+v, want a turn", tc.name, r)
		}
		if took := time.Since(start); took > hang {
			t.Errorf("%s: answered after %s", tc.name, took)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(limits) != 2 || limits[0] != 400*time.Millisecond || limits[1] != 150*time.Millisecond {
		t.Errorf("search limits %v, want [400ms 150ms]", limits)
	}
	// 600 ms less a reserve for the answer's journey (a fifth of the time,
	// at most the Margin: 100 ms); without a deadline, DefaultTime and the
	// Margin.
	if len(left) != 2 || left[0] > 500*time.Millisecond || left[0] <= 0 || left[1] > 250*time.Millisecond || left[1] <= 0 {
		t.Errorf("the searches were stopped after %v, want at most [500ms 250ms]", left)
	}
}

func TestBudget(t *testing.T) {
	s := NewServer(ServerConfig{DefaultTime: 2 * time.Second, Margin: time.Second})
	t0 := time.UnixMilli(1_405_582_952_293)
	ms := func(d time.Duration) *int64 { v := t0.Add(d).UnixMilli(); return &v }
	for _, tc := range []struct {
		name      string
		stamp     int64
		deadline  *int64
		think, by time.Duration
	}{
		{"null", t0.UnixMilli(), nil, 2 * time.Second, 3 * time.Second},
		{"a minute", t0.UnixMilli(), ms(time.Minute), 58 * time.Second, 59 * time.Second},
		{"short", t0.UnixMilli(), ms(500 * time.Millisecond), 300 * time.Millisecond, 400 * time.Millisecond},
		{"past", t0.UnixMilli(), ms(-time.Second), 24 * time.Millisecond, 32 * time.Millisecond},
		{"no timestamp", 0, ms(10 * time.Second), 8 * time.Second, 9 * time.Second},
		{"absurd", 1, ms(1 << 62), time.Hour - 2*time.Second, time.Hour - time.Second},
	} {
		req := &ChooseTurnRequest{RequestTimestamp: tc.stamp, ResponseDeadline: tc.deadline}
		think, by := s.budget(req, t0)
		if think != tc.think || by.Sub(t0) != tc.by {
			t.Errorf("%s: think %s, answer by +%s; want %s, +%s", tc.name, think, by.Sub(t0), tc.think, tc.by)
		}
	}
}

// TestServerIdle: a connection that sends nothing, or stops inside a
// frame, is closed after the idle timeout.
func TestServerIdle(t *testing.T) {
	addr := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), IdleTimeout: 300 * time.Millisecond, Log: zerolog.Nop()})
	for _, opening := range []string{"", "30#{\"request_type\":"} {
		c := dialServer(t, addr)
		c.write([]byte(opening), 0)
		start := time.Now()
		c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, err := c.conn.Read(make([]byte, 64))
		if err != io.EOF || n != 0 {
			t.Errorf("opening %q: read %d bytes, %v; want the connection closed", opening, n, err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("opening %q: closed after %s", opening, took)
		}
	}
	// A connection in use is not idle.
	c := dialServer(t, addr)
	for i := range 4 {
		time.Sleep(100 * time.Millisecond) // the pace under test: 400ms in all, past the idle timeout, never 300ms idle
		c.greet(fmt.Sprint("busy-", i))
	}
}

// TestServerWriteTimeout: a controller that stops reading is dropped
// when an answer cannot be written in time.
func TestServerWriteTimeout(t *testing.T) {
	ours, theirs := net.Pipe() // no buffer: a write waits for a read
	defer theirs.Close()
	s := NewServer(ServerConfig{Greeting: testGreeting(), Searcher: searchFunc(firstLegal), WriteTimeout: 100 * time.Millisecond, Log: zerolog.Nop()})
	done := make(chan error, 1)
	go func() { done <- s.ServeConn(context.Background(), ours) }()
	f, _ := EncodeFrame(NewGreetingsRequest("never-read"))
	theirs.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := theirs.Write(f); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("ServeConn = %v, want the write deadline exceeded", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeConn still writing to a controller that does not read")
	}
}

// TestServerManyControllers plays a game on each of many connections at
// once, each controller with its own game, as the original controller
// asks: Greetings, then a Choose Turn with the whole game_state at every
// turn of the AI's. Every answer must be a legal turn of that game.
func TestServerManyControllers(t *testing.T) {
	addr := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), Log: zerolog.Nop()})
	const controllers, plies = 16, 24
	var wg sync.WaitGroup
	errs := make(chan error, controllers)
	for i := range controllers {
		wg.Go(func() {
			errs <- playOneGame(addr, i, plies)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// playOneGame is one controller of TestServerManyControllers: it asks for
// every move of a game of its own type.
func playOneGame(addr string, i, plies int) error {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	client := NewClient(conn, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if hello, err := client.Greet(ctx, fmt.Sprint("hello-", i)); err != nil || !hello.Active {
		return fmt.Errorf("controller %d: Greetings: %+v, %v", i, hello, err)
	}
	g := core.NewGame(core.GameType(i) % core.AllGameTypes)
	for g.Ply() < plies && !g.Over() {
		req, err := NewChooseTurnRequest(fmt.Sprintf("r%d-%d", i, g.Ply()), fmt.Sprint("game-", i), time.Now().UnixMilli(), g)
		if err != nil {
			return err
		}
		resp, err := client.ChooseTurn(ctx, &req)
		if err != nil {
			return fmt.Errorf("controller %d ply %d: %v", i, g.Ply(), err)
		}
		if resp.ID() != req.RequestID || resp.GameID != req.GameID {
			return fmt.Errorf("controller %d ply %d: reply to %s of %s", i, g.Ply(), resp.ID(), resp.GameID)
		}
		m, err := MoveOf(resp.Turn, g)
		if err != nil {
			return fmt.Errorf("controller %d ply %d: %v", i, g.Ply(), err)
		}
		g.Play(m)
	}
	return nil
}

// TestServerLimits: a connection over MaxConns, or one that Admit refuses,
// is answered with one error frame that says why, and closed; a place
// freed by a controller that leaves is taken by the next.
func TestServerLimits(t *testing.T) {
	var admitted atomic.Int32
	addr := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), MaxConns: 2, Log: zerolog.Nop(),
		Admit: func(conn net.Conn) error {
			if admitted.Add(1) == 4 {
				return errors.New("not from there")
			}
			return nil
		}})
	refused := func(c *controller, want string) {
		t.Helper()
		c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		msg, ok := c.read().(*ErrorFrame)
		if !ok || msg.Message != want {
			t.Errorf("refused with %+v, want an error frame %q", msg, want)
		}
		if _, err := c.conn.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("after the refusal: %v, want the connection closed", err)
		}
	}
	first, second := dialServer(t, addr), dialServer(t, addr)
	first.greet("1")
	second.greet("2")
	refused(dialServer(t, addr), "hivejson: the module has reached its limit of 2 connections; try again later")
	refused(dialServer(t, addr), "not from there")
	first.conn.Close()
	// Once the server has seen the first leave, its place is free.
	deadline := time.Now().Add(5 * time.Second)
	for {
		third := dialServer(t, addr)
		third.send(NewGreetingsRequest("3"))
		third.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, ok := third.read().(*GreetingsResponse); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the place of a controller that left was never freed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	second.greet("2 again")
}

// TestServerFrameLength: a controller that counts frame lengths in UTF-8
// bytes, as newer versions of the framing library do, is read right with
// FrameLength UTF8Bytes; read as UTF-16 units, its frame with text beyond
// ASCII never ends, and once the connection has idled it is answered with
// an error frame that names the setting, then closed. Frames back to back
// show the count at once, and the stream goes on in step.
func TestServerFrameLength(t *testing.T) {
	body := `{"request_type":"Greetings","request_id":"n\u00f1","system_version":"0.1.0 \u00f1"}`
	body = strings.NewReplacer(`\u00f1`, "\u00f1").Replace(body) // two UTF-8 bytes, one UTF-16 unit, twice
	byteFrame := []byte(fmt.Sprintf("%d#%s", len(body), body))

	bytesServer := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), FrameLength: UTF8Bytes, Log: zerolog.Nop()})
	c := dialServer(t, bytesServer)
	c.write(byteFrame, 0)
	if r, ok := c.read().(*GreetingsResponse); !ok || r.ID() != "n\u00f1" {
		t.Errorf("answered %+v, want the greeting", r)
	}

	unitsServer := startServer(t, ServerConfig{Searcher: searchFunc(firstLegal), IdleTimeout: 300 * time.Millisecond, Log: zerolog.Nop()})
	c = dialServer(t, unitsServer)
	next, _ := EncodeFrame(NewGreetingsRequest("in step"))
	c.write(append(append([]byte{}, byteFrame...), next...), 0)
	e, ok := c.read().(*ErrorFrame)
	const why = "set frame-length utf8"
	if !ok || !strings.HasSuffix(e.Message, why) || !strings.Contains(e.Message, "the peer counts frame lengths in the other unit") {
		t.Errorf("frames back to back answered %+v, want an error frame ending %q", e, why)
	}
	if r, ok := c.read().(*GreetingsResponse); !ok || r.ID() != "in step" {
		t.Errorf("the frame after answered with %+v, want the greeting: the stream out of step", r)
	}
	c = dialServer(t, unitsServer)
	c.write(byteFrame, 0)
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if e, ok := c.read().(*ErrorFrame); !ok || !strings.HasSuffix(e.Message, why) {
		t.Errorf("a stalled frame answered %+v, want an error frame ending %q", e, why)
	}
	if _, err := c.conn.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("after the stalled frame: %v, want the connection closed", err)
	}
}

// TestServerShutdown: when the server's context ends, a search in
// progress is stopped and still answered, an idle connection is closed,
// and Serve returns.
func TestServerShutdown(t *testing.T) {
	before := runtime.NumGoroutine()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	searching := make(chan struct{}, 1)
	s := NewServer(ServerConfig{
		Greeting: testGreeting(),
		Searcher: searchFunc(func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error) {
			searching <- struct{}{}
			return stalling(ctx, g, limit)
		}),
		DefaultTime: time.Hour,
		Log:         zerolog.Nop(),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	idle := dialServer(t, l.Addr().String())
	idle.greet("idle")
	busy := dialServer(t, l.Addr().String())
	busy.send(fixtureRequest(t, "choose_turn_midgame.json"))
	<-searching
	cancel()
	if r := busy.readTurn(); r.Failed() || r.TurnType == "" {
		t.Errorf("the search in progress was answered with %+v", r)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	idle.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := idle.conn.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("idle connection after shutdown: %v, want it closed", err)
	}
	if _, err := net.DialTimeout("tcp", l.Addr().String(), time.Second); err == nil {
		t.Error("the listener still accepts after shutdown")
	}
	checkGoroutines(t, before)
}

// FuzzServerConn sends arbitrary bytes to a connection handler, which
// reads frame lengths in UTF-16 units or UTF-8 bytes: it must not panic,
// must answer only with well-formed frames, and must end when the
// controller hangs up.
func FuzzServerConn(f *testing.F) {
	for _, name := range []string{"greetings_request.frame", "error.frame", "greetings_reply.frame"} {
		f.Add(readFixture(f, name))
	}
	f.Add(frameFixture(f, "choose_turn_pillbug.json"))
	f.Add([]byte(`abc#{}5#hello2#{}26#{"request_type":"Dance!"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ours, theirs := net.Pipe()
		// Both counts of frame lengths, by the input's length.
		length := FrameLength(len(data) % 2)
		s := NewServer(ServerConfig{Greeting: testGreeting(), Searcher: searchFunc(firstLegal), MaxFrame: 1 << 16, FrameLength: length, Log: zerolog.Nop()})
		served := make(chan error, 1)
		go func() { served <- s.ServeConn(context.Background(), ours) }()
		replies := make(chan []byte, 1)
		go func() {
			b, _ := io.ReadAll(theirs)
			replies <- b
		}()
		theirs.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := theirs.Write(data); err != nil {
			t.Fatalf("the server stopped reading: %v", err)
		}
		theirs.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not end when the controller hung up")
		}
		// A frame cut short by the hang-up is left undecoded below.
		out := <-replies
		d := NewDecoder(0)
		d.Feed(out)
		for {
			raw, err := d.Next()
			if err == ErrNeedMore {
				break
			}
			if err != nil {
				t.Fatalf("the server wrote a malformed frame: %v\n%q", err, out)
			}
			if _, err := ParseMessage(raw); err != nil {
				t.Fatalf("the server wrote %s: %v", raw, err)
			}
		}
	})
}

// reportingSearcher answers as answerWith does, reporting before it the
// depth, score and nodes of its search of the move it will answer.
type reportingSearcher struct{ answer engine.Searcher }

func (r reportingSearcher) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	m, err := r.answer.BestMove(ctx, g, limit, nil)
	if err == nil && report != nil {
		report(engine.Progress{Move: m, Depth: 4, Score: engine.EvalScore(37), Nodes: 1234})
	}
	return m, err
}

// TestServerLogsSearch checks that the debug log says what the search said
// of the turn the server answered with: its depth, score and nodes.
func TestServerLogsSearch(t *testing.T) {
	logs := &syncbuf.Buffer{}
	addr := startServer(t, ServerConfig{
		Searcher: reportingSearcher{answerWith(t, map[int]Turn{16: {TurnType: TurnMovement, Source: "1,1", Destination: "3,-1"}})},
		Log:      zerolog.New(logs).Level(zerolog.DebugLevel),
	})
	c := dialServer(t, addr)
	c.write(frameFixture(t, "choose_turn_midgame.json"), 0)
	if r := c.readTurn(); r.Failed() {
		t.Fatalf("Choose Turn failed: %+v", r)
	}
	want := `"depth":4,"score":0.37,"forced":false,"nodes":1234`
	if !strings.Contains(logs.String(), want) || !strings.Contains(logs.String(), "search of the chosen turn") {
		t.Errorf("the debug log lacks %s:\n%s", want, logs.String())
	}
}

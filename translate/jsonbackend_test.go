package translate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/translate"
)

// fakeModule is a Choose-Turn JSON AI module for tests. It answers every
// Choose Turn with the first turn the request offers, except the first one
// it is asked, which it answers in the way its mode says (a module that
// misbehaves once), so that tests can check that the backend recovers.
type fakeModule struct {
	t    *testing.T
	mode string
	l    net.Listener

	mu         sync.Mutex
	conns      []net.Conn
	misbehaved bool
	requests   []*hivejson.ChooseTurnRequest
	handlers   sync.WaitGroup
}

// startModule serves a fake module in mode on a loopback port until the
// test ends.
func startModule(t *testing.T, mode string) *fakeModule {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeModule{t: t, mode: mode, l: l}
	m.handlers.Go(func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			m.mu.Lock()
			m.conns = append(m.conns, conn)
			m.mu.Unlock()
			m.handlers.Go(func() { m.serve(conn) })
		}
	})
	t.Cleanup(func() {
		l.Close()
		m.mu.Lock()
		for _, c := range m.conns {
			c.Close()
		}
		m.mu.Unlock()
		m.handlers.Wait()
	})
	return m
}

func (m *fakeModule) spec() string { return "hivejson://" + m.l.Addr().String() }

// connections counts the connections the module has accepted.
func (m *fakeModule) connections() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.conns)
}

// lastRequest returns the last Choose Turn request received.
func (m *fakeModule) lastRequest() *hivejson.ChooseTurnRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.requests) == 0 {
		return nil
	}
	return m.requests[len(m.requests)-1]
}

func (m *fakeModule) serve(conn net.Conn) {
	dec := hivejson.NewDecoder(0)
	send := func(v any) {
		f, err := hivejson.EncodeFrame(v)
		if err != nil {
			m.t.Error(err)
		}
		conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
		conn.Write(f)
	}
	if m.mode == "utf8" {
		// A module on a newer version of the framing library: its
		// text beyond ASCII as is, its lengths in UTF-8 bytes.
		send = func(v any) {
			b, err := json.Marshal(v)
			if err != nil {
				m.t.Error(err)
			}
			conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
			fmt.Fprintf(conn, "%d#%s", len(b), b)
		}
	}
	for {
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		raw, err := dec.ReadFrame(conn)
		if err != nil {
			return
		}
		msg, err := hivejson.ParseMessage(raw)
		if err != nil {
			m.t.Errorf("fake module: %v", err)
			return
		}
		switch r := msg.(type) {
		case *hivejson.GreetingsRequest:
			if m.mode == "nogreet" {
				continue
			}
			name := "fake-" + m.mode
			if m.mode == "utf8" {
				name = "fake-\u00f1"
			}
			send(r.Reply(hivejson.GreetingsResponse{Name: name, Version: "1.0", Active: m.mode != "inactive"}))
		case *hivejson.ChooseTurnRequest:
			// The request must hold a game_state that rebuilds.
			if _, err := hivejson.GameOf(r.GameState); err != nil {
				m.t.Errorf("fake module: the request's game_state: %v", err)
			}
			m.mu.Lock()
			m.requests = append(m.requests, r)
			misbehave := !m.misbehaved
			m.misbehaved = true
			m.mu.Unlock()
			good := r.Reply(r.GameState.PossibleTurns.Turns()[0])
			if !misbehave {
				send(good)
				continue
			}
			switch m.mode {
			case "timeout":
				continue // never answers this one
			case "disconnect":
				conn.Close()
				return
			case "errorframe":
				send(hivejson.NewErrorFrame(errors.New("Unexpected token } in JSON")))
			case "errorkey":
				send(r.Refuse(errors.New("the fake module gives up")))
			case "illegal":
				send(r.Reply(hivejson.Turn{TurnType: hivejson.TurnForfeit}))
			case "garbage":
				conn.Write([]byte("9#not json!"))
			case "chatty":
				// Unrelated frames before the reply are skipped.
				hello := hivejson.NewGreetingsRequest("from-the-module")
				send(hello.Reply(hivejson.GreetingsResponse{Name: "chatty", Active: true}))
				send(hello)
				send(good)
			default:
				send(good)
			}
		}
	}
}

// jsonConfig has short timeouts, so that a silent module is noticed
// quickly.
func jsonConfig() translate.Config {
	return translate.Config{Log: zerolog.Nop(), Timeouts: fakeengine.Timeouts()}
}

// midGame returns a Base+MLP game a few moves in.
func midGame(t *testing.T) *core.Game {
	t.Helper()
	g := core.NewGame(core.AllExpansions)
	var l core.MoveList
	for range 6 {
		g.GenerateMoves(&l)
		g.Play(l.At(l.Len() / 2))
	}
	return g
}

// TestJSONModuleRecovers: a module that times out, hangs up, answers with
// an error frame or an error key, an illegal turn or garbage gives an
// error that says so, and the next search dials it again and gets a legal
// move.
func TestJSONModuleRecovers(t *testing.T) {
	for _, tc := range []struct{ mode, words string }{
		{"timeout", "did not answer Choose Turn within 500ms"},
		{"disconnect", "closed the connection instead of answering Choose Turn"},
		{"errorframe", "answered Choose Turn with an error: hivejson: the module answered with an error frame: Unexpected token } in JSON"},
		{"errorkey", `answered Choose Turn with an error: hivejson: the module answered with an error: "the fake module gives up"`},
		{"illegal", `answered {"turn_type":"Forfeit"}, which is not a legal turn`},
		{"garbage", "answered Choose Turn with garbage"},
		{"chatty", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			fake := startModule(t, tc.mode)
			e := openModule(t, fake.spec())
			g := midGame(t)
			if err := e.NewGame(context.Background(), g); err != nil {
				t.Fatal(err)
			}
			limit := engine.Limit{Time: 200 * time.Millisecond}
			start := time.Now()
			m, err := e.BestMove(context.Background(), limit, nil)
			took := time.Since(start)
			if tc.words == "" {
				if err != nil || !g.Legal(m) {
					t.Fatalf("BestMove = %v, %v; want a legal move", m, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "JSON AI module fake-"+tc.mode+" 1.0") || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("BestMove = %v, %v; want an error naming the module and saying %q", m, err, tc.words)
			}
			if took > time.Second {
				t.Errorf("the error took %s", took)
			}
			m, err = e.BestMove(context.Background(), limit, nil)
			if err != nil || !g.Legal(m) {
				t.Fatalf("BestMove after the failure = %v, %v; want a legal move", m, err)
			}
			if n := fake.connections(); n != 2 {
				t.Errorf("%d connections, want 2: one failed, one dialled again", n)
			}
		})
	}
}

// TestJSONModuleGreetings: the module's Greetings reply names the engine;
// a module that says it is not active, or does not answer, or is not
// there, is refused at once; and there are no options to set.
func TestJSONModuleGreetings(t *testing.T) {
	fake := startModule(t, "good")
	e := openModule(t, fake.spec())
	if info := e.Info(); info.ID != "fake-good 1.0" || info.Expansions != core.AllExpansions {
		t.Errorf("Info = %+v", info)
	}
	if len(e.Options()) != 0 {
		t.Errorf("Options = %v, want none", e.Options())
	}
	cfg := jsonConfig()
	cfg.EngineOptions = []string{"Hash=8"}
	if _, err := translate.Open(context.Background(), fake.spec(), cfg); err == nil || !strings.Contains(err.Error(), "fake-good 1.0 declares no such option; valid names: none") {
		t.Errorf("Open with an option = %v", err)
	}

	inactive := startModule(t, "inactive")
	if _, err := translate.Open(context.Background(), inactive.spec(), jsonConfig()); err == nil || !strings.Contains(err.Error(), "fake-inactive 1.0 at "+inactive.l.Addr().String()+" says it is not active") {
		t.Errorf("Open(inactive) = %v", err)
	}

	silent := startModule(t, "nogreet")
	cfg = jsonConfig()
	cfg.Timeouts.Start = 200 * time.Millisecond
	start := time.Now()
	if _, err := translate.Open(context.Background(), silent.spec(), cfg); err == nil || !strings.Contains(err.Error(), "did not answer Greetings within 200ms") {
		t.Errorf("Open(silent) = %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Open(silent) took %s", took)
	}

	l, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := l.Addr().String()
	l.Close()
	if _, err := translate.Open(context.Background(), "hivejson://"+gone, jsonConfig()); err == nil || !strings.Contains(err.Error(), "cannot reach the JSON AI module at "+gone) {
		t.Errorf("Open(nothing there) = %v", err)
	}
}

// TestJSONModuleFrameLength reaches a module that counts frame lengths in
// UTF-8 bytes and says its name beyond ASCII: with frame-length=utf8 in
// its spec it is read right; without, the greeting never ends, and the
// error says which frame-length to set.
func TestJSONModuleFrameLength(t *testing.T) {
	fake := startModule(t, "utf8")
	e := openModule(t, fake.spec()+"?frame-length=utf8")
	if id := e.Info().ID; id != "fake-\u00f1 1.0" {
		t.Errorf("ID %q", id)
	}
	g := midGame(t)
	e.NewGame(context.Background(), g)
	if m, err := e.BestMove(context.Background(), engine.Limit{Depth: 1}, nil); err != nil || !g.Legal(m) {
		t.Errorf("BestMove = %v, %v", m, err)
	}
	cfg := jsonConfig()
	cfg.Timeouts.Start = 300 * time.Millisecond
	_, err := translate.Open(context.Background(), fake.spec(), cfg)
	if err == nil || !strings.Contains(err.Error(), "did not answer Greetings within 300ms") || !strings.HasSuffix(err.Error(), "set frame-length utf8") {
		t.Errorf("Open without frame-length = %v, want the greeting missed and the setting named", err)
	}
}

// TestJSONModuleRequests checks what the module is sent: the whole game,
// its complete possible_turns, a response_deadline for a time limit and
// null for a depth, one game_id while the game goes on, and a new one for
// a new game; and the module is dialled again when it goes away between
// searches.
func TestJSONModuleRequests(t *testing.T) {
	fake := startModule(t, "good")
	e := openModule(t, fake.spec())
	ctx := context.Background()
	g := midGame(t)
	e.NewGame(ctx, g)
	if _, err := e.BestMove(ctx, engine.Limit{Time: 300 * time.Millisecond}, nil); err != nil {
		t.Fatal(err)
	}
	req := fake.lastRequest()
	want, _ := hivejson.StateOf(g)
	if req.ResponseDeadline == nil || *req.ResponseDeadline != req.RequestTimestamp+300 {
		t.Errorf("response_deadline %v for a timestamp of %d and 300ms", req.ResponseDeadline, req.RequestTimestamp)
	}
	if len(req.GameState.TurnHistory) != g.Ply() || len(req.GameState.PossibleTurns.Turns()) != len(want.PossibleTurns.Turns()) {
		t.Errorf("the request's game_state is not the game's")
	}
	rebuilt, err := hivejson.GameOf(req.GameState)
	if err != nil || rebuilt.Hash() != g.Hash() {
		t.Errorf("the request's game_state rebuilds to another game: %v", err)
	}
	firstGame := req.GameID

	// The game goes on: the same game_id; a depth limit sends no deadline.
	var l core.MoveList
	g.GenerateMoves(&l)
	if err := e.Play(ctx, l.At(0)); err != nil {
		t.Fatal(err)
	}
	g.Play(l.At(0))
	m, err := e.BestMove(ctx, engine.Limit{Depth: 3}, nil)
	if err != nil || !g.Legal(m) {
		t.Fatalf("BestMove(depth) = %v, %v", m, err)
	}
	if req := fake.lastRequest(); req.ResponseDeadline != nil || req.GameID != firstGame || req.GameState.TurnNumber != g.Ply() {
		t.Errorf("depth request: deadline %v, game %s (first %s), turn %d", req.ResponseDeadline, req.GameID, firstGame, req.GameState.TurnNumber)
	}
	if err := e.Undo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if req := fake.lastRequest(); req.GameID != firstGame || req.GameState.TurnNumber != g.Ply()-2 {
		t.Errorf("after undo: game %s (first %s), turn %d", req.GameID, firstGame, req.GameState.TurnNumber)
	}

	// Another game: another game_id. The module closes the connection in
	// between, as a module does with idle ones: the search dials again
	// rather than fail.
	fake.mu.Lock()
	for _, c := range fake.conns {
		c.Close()
	}
	fake.mu.Unlock()
	e.NewGame(ctx, core.NewGame(core.Base))
	m, err = e.BestMove(ctx, engine.Limit{Depth: 1}, nil)
	if err != nil || m == core.NoMove {
		t.Fatalf("BestMove after the module hung up = %v, %v", m, err)
	}
	if n := fake.connections(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
	if req := fake.lastRequest(); req.GameID == firstGame || req.GameState.TurnNumber != 0 {
		t.Errorf("new game: game %s (first %s), turn %d", req.GameID, firstGame, req.GameState.TurnNumber)
	}
}

// TestJSONModuleSetUp: a game set up from a position (a Hub GUI's pos
// board=, say) is sent to the module as a game_state without turn_history,
// the board as it stands; the module's turn is read in that state's
// coordinates; and a second set-up game, even with no move in either, is
// another game, with another game_id.
func TestJSONModuleSetUp(t *testing.T) {
	fake := startModule(t, "good")
	e := openModule(t, fake.spec())
	ctx := context.Background()
	played := midGame(t)
	g, err := core.NewGameAt(played.CurrentPosition())
	if err != nil {
		t.Fatal(err)
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	g.Play(l.At(l.Len() - 1))
	if err := e.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	m, err := e.BestMove(ctx, engine.Limit{Depth: 1}, nil)
	if err != nil || !g.Legal(m) {
		t.Fatalf("BestMove = %v, %v; want a legal move", m, err)
	}
	req := fake.lastRequest()
	if req.GameState.TurnHistory != nil || req.GameState.TurnNumber != g.Ply() {
		t.Errorf("the request of a set-up game has %d turns of history, turn_number %d", len(req.GameState.TurnHistory), req.GameState.TurnNumber)
	}
	rebuilt, err := hivejson.GameOf(req.GameState)
	if err != nil || !rebuilt.SetUp() || rebuilt.Ply() != g.Ply() {
		t.Fatalf("the request's game_state does not rebuild as a set-up game: %v", err)
	}
	// The fake answers the first offered turn: the move of that turn in g.
	want, err := hivejson.MoveOf(req.GameState.PossibleTurns.Turns()[0], g)
	if err != nil || m != want {
		t.Errorf("BestMove = %v, want %v (%v)", m, want, err)
	}
	first := req.GameID
	other, err := core.NewGameAt(midGame(t).CurrentPosition())
	if err != nil {
		t.Fatal(err)
	}
	other.GenerateMoves(&l)
	other.Play(l.At(0))
	other2, _ := core.NewGameAt(other.CurrentPosition())
	e.NewGame(ctx, other2)
	if _, err := e.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if fake.lastRequest().GameID == first {
		t.Errorf("another set-up game kept the game_id %s", first)
	}
}

// openModule opens the backend of the fake module at spec, with
// jsonConfig, and closes it when the test ends.
func openModule(t *testing.T, spec string) translate.Engine {
	t.Helper()
	e, err := translate.Open(context.Background(), spec, jsonConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

package hivegametest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is a stand-in served over HTTP with a bot ("hydra") and a human
// ("alice") registered.
type env struct {
	t     *testing.T
	s     *Server
	ts    *httptest.Server
	clock *fakeClock
}

const (
	botEmail = "hydra@bots.example"
	botPass  = "hunter2"
)

func newEnv(t *testing.T) *env {
	t.Helper()
	clk := &fakeClock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.Now})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	s.AddUser("hydra", botEmail, botPass, true)
	s.AddUser("alice", "alice@example.com", "pw", false)
	return &env{t: t, s: s, ts: ts, clock: clk}
}

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	body   string
}

// json decodes the body as an envelope.
func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body %q is not JSON: %v", r.body, err)
	}
	return m
}

// data returns the envelope's data after checking success.
func (r reply) data(t *testing.T, success bool) map[string]any {
	t.Helper()
	m := r.json(t)
	if m["success"] != success {
		t.Fatalf("success = %v, want %v: %s", m["success"], success, r.body)
	}
	return m["data"].(map[string]any)
}

// do sends a request with an optional bearer token and JSON body.
func (e *env) do(method, path, token, body string) reply {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		e.t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, string(b)}
}

// login gets a token for the bot.
func (e *env) login() string {
	e.t.Helper()
	r := e.do("POST", "/api/v1/auth/token", "", `{"email":"`+botEmail+`","password":"`+botPass+`"}`)
	if r.status != 200 {
		e.t.Fatalf("login: %d %s", r.status, r.body)
	}
	return r.data(e.t, true)["token"].(string)
}

// play posts a move for the bot and returns the reply's data and success.
func (e *env) play(token, id, move string) (map[string]any, bool) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]string{"game_id": id, "piece_pos": move})
	r := e.do("POST", "/api/v1/bot/games/play", token, string(body))
	if r.status != 200 {
		e.t.Fatalf("play %q: %d %s", move, r.status, r.body)
	}
	m := r.json(e.t)
	return m["data"].(map[string]any), m["success"] == true
}

// mustPlay plays a move that must succeed and returns the new history.
func (e *env) mustPlay(token, id, move string) string {
	e.t.Helper()
	d, ok := e.play(token, id, move)
	if !ok {
		e.t.Fatalf("play %q: %v", move, d)
	}
	return d["history"].(string)
}

// playErr plays a move that must fail and returns its error text.
func (e *env) playErr(token, id, move string) string {
	e.t.Helper()
	d, ok := e.play(token, id, move)
	if ok {
		e.t.Fatalf("play %q succeeded: %v", move, d)
	}
	return d["error"].(string)
}

// control sends a control for the bot; it returns data and success.
func (e *env) control(token, id, control string) (map[string]any, bool) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]string{"game_id": id, "control": control})
	r := e.do("POST", "/api/v1/bot/games/control", token, string(body))
	m := r.json(e.t)
	return m["data"].(map[string]any), m["success"] == true
}

// game fetches one game's row through the API.
func (e *env) game(token, id string) map[string]any {
	e.t.Helper()
	d := e.do("GET", "/api/v1/bot/game/"+id, token, "").data(e.t, true)
	games := d["games"].([]any)
	if len(games) != 1 {
		e.t.Fatalf("game/%s: %d games", id, len(games))
	}
	return games[0].(map[string]any)
}

// newGame makes alice challenge the bot with spec and the bot accept over
// the API; it returns the game's nanoid.
func (e *env) newGame(token string, spec ChallengeSpec) string {
	e.t.Helper()
	id, err := e.s.Challenge("alice", "hydra", spec)
	if err != nil {
		e.t.Fatal(err)
	}
	d := e.do("GET", "/api/v1/bot/challenge/accept/"+id, token, "").data(e.t, true)
	if got := d["game"].(map[string]any)["game_id"]; got != id {
		e.t.Fatalf("game_id %v, want the challenge's %s", got, id)
	}
	return id
}

// ids lists the nanoids of a games reply.
func ids(d map[string]any) []string {
	var out []string
	for _, g := range d["games"].([]any) {
		out = append(out, g.(map[string]any)["nanoid"].(string))
	}
	return out
}

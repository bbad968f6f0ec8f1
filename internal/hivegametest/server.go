package hivegametest

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configures a Server. The zero value is a server on the real clock
// with the site's token lifetime.
type Options struct {
	// Now is the server's clock, for token expiry, game clocks and
	// timestamps: a test that controls it can expire a token or flag a
	// player without waiting. Nil means time.Now.
	Now func() time.Time
	// TokenLifetime is how long a token lasts before its 60 s of leeway;
	// zero means the site's 100 minutes.
	TokenLifetime time.Duration
	// Secret is the HS256 key tokens are signed with; nil means a fixed
	// test key.
	Secret []byte
}

// Server is the stand-in for hivegame.com. Its state (users, challenges,
// games, faults, counters) is guarded by one mutex, so requests are served
// one at a time, as a database transaction per request would order them.
type Server struct {
	now      func() time.Time
	lifetime time.Duration
	secret   []byte
	closed   chan struct{}
	close    sync.Once

	mu           sync.Mutex
	users        map[string]*user // by UUID
	byEmail      map[string]*user // by lower-cased e-mail address
	byName       map[string]*user // by lower-cased username
	games        map[string]*game // by nanoid
	gameOrder    []string
	challenges   map[string]*challenge // by nanoid
	chalOrder    []string
	faults       []*Fault
	requests     map[string]int
	attempts     map[string]int
	tokensIssued int
}

// user is a row of the site's users table, as far as the bot API reads it.
type user struct {
	id, username, email, password string
	bot                           bool
}

// New returns a Server with no users, challenges or games.
func New(opts Options) *Server {
	s := &Server{
		now:        opts.Now,
		lifetime:   opts.TokenLifetime,
		secret:     opts.Secret,
		closed:     make(chan struct{}),
		users:      map[string]*user{},
		byEmail:    map[string]*user{},
		byName:     map[string]*user{},
		games:      map[string]*game{},
		challenges: map[string]*challenge{},
		requests:   map[string]int{},
		attempts:   map[string]int{},
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.lifetime == 0 {
		s.lifetime = 100 * time.Minute
	}
	if s.secret == nil {
		s.secret = []byte("hivegametest secret")
	}
	return s
}

// Close releases every request held by a FaultHang, so that an
// httptest.Server can shut down even if its client never gave up. Call it
// before closing the httptest.Server.
func (s *Server) Close() { s.close.Do(func() { close(s.closed) }) }

// Handler returns the site's HTTP interface, for httptest.NewServer.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

// AddUser creates an account and returns its UUID. The e-mail address is
// stored lower-cased, as the site's sign-up validates it; bot marks the
// account as a bot, which the site's admins do by hand. A username or
// address already taken panics: it is a mistake in the test's set-up.
func (s *Server) AddUser(username, email, password string, bot bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	email = strings.ToLower(email)
	if s.byEmail[email] != nil || s.byName[strings.ToLower(username)] != nil {
		panic(fmt.Sprintf("hivegametest: user %q or address %q already exists", username, email))
	}
	u := &user{id: newUUID(), username: username, email: email, password: password, bot: bot}
	s.users[u.id] = u
	s.byEmail[email] = u
	s.byName[strings.ToLower(username)] = u
	return u.id
}

// TokensIssued reports how many tokens POST /api/v1/auth/token has handed
// out, so that a test can tell whether a client logs in again or reuses
// its token.
func (s *Server) TokensIssued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokensIssued
}

// Requests reports how many requests have arrived for a path (any method,
// faults included).
func (s *Server) Requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

// PlayAttempts reports how many POST /api/v1/bot/games/play requests named
// the game, applied or not: a client that posts one move twice shows here.
func (s *Server) PlayAttempts(nanoid string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts[nanoid]
}

// PlaysApplied reports how many moves have been applied to the game, by
// the API or by PlayAs (automatic passes not counted).
func (s *Server) PlaysApplied(nanoid string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.games[nanoid]; g != nil {
		return g.plays
	}
	return 0
}

// FaultKind is a way for the stand-in to misbehave. None of these exist in
// the site's source (which has no rate limiter, notes §8); they are what a
// proxy, an overloaded server or a network can do to a client.
type FaultKind int

// The faults a test can inject.
const (
	// FaultServerError answers 500 with a plain-text body, doing nothing.
	FaultServerError FaultKind = iota + 1
	// FaultTooManyRequests answers 429 with a Retry-After header (whole
	// seconds, from Fault.RetryAfter), doing nothing.
	FaultTooManyRequests
	// FaultHang holds the request, doing nothing, until the client gives up
	// (its context ends) or the Server is closed; the connection is then
	// dropped without an answer.
	FaultHang
	// FaultLoseAnswer serves the request (a play is applied) and then
	// closes the connection without sending the answer.
	FaultLoseAnswer
)

// Fault makes the next Count requests (one if Count is zero) whose path
// starts with PathPrefix (any path if empty) misbehave as Kind says.
type Fault struct {
	Kind       FaultKind
	Count      int
	PathPrefix string
	RetryAfter time.Duration
}

// InjectFault queues a fault. Faults are taken in the order they were
// injected, each by the requests that match it.
func (s *Server) InjectFault(f Fault) {
	if f.Count <= 0 {
		f.Count = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// ClearFaults drops every queued fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault counts the request and returns the fault it is to suffer (a
// zero Fault for none).
func (s *Server) takeFault(path string) Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[path]++
	for k, f := range s.faults {
		if !strings.HasPrefix(path, f.PathPrefix) {
			continue
		}
		f.Count--
		if f.Count == 0 {
			s.faults = append(s.faults[:k], s.faults[k+1:]...)
		}
		return *f
	}
	return Fault{}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	f := s.takeFault(r.URL.Path)
	switch f.Kind {
	case FaultServerError:
		plainText(w, http.StatusInternalServerError, "Internal Server Error")
		return
	case FaultTooManyRequests:
		w.Header().Set("Retry-After", strconv.Itoa(int((f.RetryAfter+time.Second-1)/time.Second)))
		plainText(w, http.StatusTooManyRequests, "Too Many Requests")
		return
	case FaultHang:
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
		panic(http.ErrAbortHandler)
	case FaultLoseAnswer:
		s.route(httptest.NewRecorder(), r)
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	s.route(w, r)
}

// route dispatches as the site's actix App does: a resource matches its
// exact path (a {param} is one non-empty segment) and its method; anything
// else falls through to the web app's pages.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	match := func(method, pattern string) (string, bool) {
		if r.Method != method {
			return "", false
		}
		ps := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
		if len(ps) != len(segs) {
			return "", false
		}
		param := ""
		for k, p := range ps {
			if p == "{}" {
				if segs[k] == "" {
					return "", false
				}
				v, err := url.PathUnescape(segs[k])
				if err != nil {
					v = segs[k]
				}
				param = v
			} else if p != segs[k] {
				return "", false
			}
		}
		return param, true
	}
	if _, ok := match("POST", "/api/v1/auth/token"); ok {
		s.handleToken(w, r)
		return
	}
	if _, ok := match("GET", "/api/v1/auth/id"); ok {
		s.handleIdentity(w, r)
		return
	}
	if _, ok := match("POST", "/api/v1/bot/games/play"); ok {
		s.handlePlay(w, r)
		return
	}
	if _, ok := match("POST", "/api/v1/bot/games/control"); ok {
		s.handleControl(w, r)
		return
	}
	if id, ok := match("GET", "/api/v1/bot/game/{}"); ok {
		s.handleGame(w, r, id)
		return
	}
	if _, ok := match("GET", "/api/v1/bot/games/ongoing"); ok {
		s.handleGameList(w, r, false)
		return
	}
	if _, ok := match("GET", "/api/v1/bot/games/pending"); ok {
		s.handleGameList(w, r, true)
		return
	}
	if id, ok := match("GET", "/api/v1/bot/user/{}"); ok {
		s.handleUser(w, r, id)
		return
	}
	if _, ok := match("GET", "/api/v1/bot/challenges/"); ok {
		s.handleChallenges(w, r)
		return
	}
	if id, ok := match("GET", "/api/v1/bot/challenge/accept/{}"); ok {
		s.handleAccept(w, r, id)
		return
	}
	if id, ok := match("DELETE", "/api/v1/bot/challenge/{}"); ok {
		s.handleDeleteChallenge(w, r, id)
		return
	}
	if _, ok := match("DELETE", "/api/v1/bot/challenges/"); ok {
		s.handleDeleteChallenges(w, r)
		return
	}
	if _, ok := match("POST", "/api/v1/bot/challenges/"); ok {
		s.handleCreateChallenge(w, r)
		return
	}
	// The site answers other paths with its web app (Leptos), an HTML page
	// rather than JSON; its exact text and status were not determined.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte("<!DOCTYPE html><html><head><title>Not Found</title></head><body><h1>404 Not Found</h1></body></html>"))
}

// writeJSON writes a body as actix's HttpResponse::json does with a
// serde_json Value: keys sorted (a map's encoding sorts them), no HTML
// escaping, no trailing newline.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		plainText(w, http.StatusInternalServerError, "Json serialize error: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// plainText is how actix answers an error of its own (ResponseError's
// default): the error's text as text/plain.
func plainText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg))
}

// succeed writes {"success":true,"data":data}.
func succeed(w http.ResponseWriter, data map[string]any) {
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "data": data})
}

// failure writes the bot handlers' handled failure: HTTP 200,
// {"success":false,"data":{"error":msg}}.
func failure(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusOK, map[string]any{"success": false, "data": map[string]any{"error": msg}})
}

// newUUID returns a random (version 4) UUID in its hyphenated form.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// nanoidAlphabet is the nanoid crate's default alphabet.
const nanoidAlphabet = "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// newNanoid returns a 12-character nanoid not yet used by a game or a
// challenge (NewChallenge::new re-rolls one a game already has). The caller
// holds s.mu.
func (s *Server) newNanoid() string {
	for {
		var b [12]byte
		_, _ = rand.Read(b[:])
		for k := range b {
			b[k] = nanoidAlphabet[b[k]&63]
		}
		id := string(b[:])
		if s.games[id] == nil && s.challenges[id] == nil {
			return id
		}
	}
}

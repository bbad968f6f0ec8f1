package hivegame_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

const botPassword = "s3cret!pass"

// fakeClock is the time of both the fake site and the client under test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// answer is one canned answer of the fake site.
type answer struct {
	status int
	header http.Header
	body   string
}

// fakeSite answers as hivegame.com does (research notes §1-§7): the token
// endpoint mints HS256 JWTs that last 100 minutes; the Auth extractor
// refuses a missing, unknown or expired (past exp + 60 s) token with 401
// and data.message; routes are matched on the exact method and path, and
// anything else falls through to an HTML page.
type fakeSite struct {
	clock *fakeClock

	mu         sync.Mutex
	logins     int
	loginDelay time.Duration
	loginReply *answer // instead of a token
	opaque     bool    // mint tokens whose exp cannot be read
	tokens     map[string]time.Time
	seq        int
	expireNext int // answer the next authenticated requests 401 ExpiredSignature
	hits       map[string]int
	bodies     map[string]string
	headers    map[string]http.Header
	routes     map[string]func(r *http.Request) answer
}

func newFakeSite(clock *fakeClock) *fakeSite {
	return &fakeSite{
		clock:   clock,
		tokens:  map[string]time.Time{},
		hits:    map[string]int{},
		bodies:  map[string]string{},
		headers: map[string]http.Header{},
		routes:  map[string]func(r *http.Request) answer{},
	}
}

func (s *fakeSite) route(op string, a answer) {
	s.routes[op] = func(*http.Request) answer { return a }
}

func (s *fakeSite) hitCount(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[op]
}

func (s *fakeSite) loginCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

// mint makes a token as encode.rs's jwt_encode does.
func (s *fakeSite) mint(email string) string {
	s.seq++
	exp := s.clock.now().Add(100 * time.Minute)
	if s.opaque {
		tok := fmt.Sprintf("opaque-%d", s.seq)
		s.tokens[tok] = exp
		return tok
	}
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"typ":"JWT","alg":"HS256"}`))
	claims := enc.EncodeToString(fmt.Appendf(nil, `{"sub":%q,"iss":"hivegame.com","exp":%d,"n":%d}`, email, exp.Unix(), s.seq))
	mac := hmac.New(sha256.New, []byte("the site's secret"))
	mac.Write([]byte(head + "." + claims))
	tok := head + "." + claims + "." + enc.EncodeToString(mac.Sum(nil))
	s.tokens[tok] = exp
	return tok
}

func (s *fakeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op := r.Method + " " + r.URL.EscapedPath()
	s.mu.Lock()
	s.hits[op]++
	s.bodies[op] = string(body)
	s.headers[op] = r.Header.Clone()
	a := s.answer(op, r, body)
	s.mu.Unlock()
	if a.status == 0 {
		a.status = http.StatusOK
	}
	for k, v := range a.header {
		w.Header()[k] = v
	}
	w.WriteHeader(a.status)
	io.WriteString(w, a.body)
}

// answer decides the answer; it is called with s.mu held.
func (s *fakeSite) answer(op string, r *http.Request, body []byte) answer {
	if op == "POST /api/v1/auth/token" {
		s.logins++
		if s.loginDelay > 0 {
			s.mu.Unlock()
			time.Sleep(s.loginDelay)
			s.mu.Lock()
		}
		if r.Header.Get("Content-Type") != "application/json" {
			return answer{status: 400, body: "Content type error"}
		}
		var req struct{ Email, Password *string }
		if err := json.Unmarshal(body, &req); err != nil || req.Email == nil || req.Password == nil {
			return answer{status: 400, body: "Json deserialize error: missing field"}
		}
		if s.loginReply != nil {
			return *s.loginReply
		}
		if *req.Email != botMail {
			return answer{status: 400, body: `{"data":{"message":"Not found: Not found."},"success":false}`}
		}
		if *req.Password != botPassword {
			return answer{status: 400, body: bodyBadPassword}
		}
		return answer{body: `{"data":{"token":"` + s.mint(*req.Email) + `"},"success":true}`}
	}
	handler, ok := s.routes[op]
	if !ok {
		return answer{status: 404, header: http.Header{"Content-Type": {"text/html"}}, body: bodyHTMLFallthru}
	}
	// auth_.rs: the word after the first space, whatever the scheme.
	words := strings.Split(r.Header.Get("Authorization"), " ")
	if len(words) < 2 {
		return answer{status: 401, body: bodyNoToken}
	}
	exp, known := s.tokens[words[1]]
	switch {
	case !known:
		return answer{status: 401, body: `{"data":{"message":"InvalidSignature"},"success":false}`}
	case s.clock.now().After(exp.Add(60 * time.Second)):
		return answer{status: 401, body: bodyExpired}
	case s.expireNext > 0:
		s.expireNext--
		return answer{status: 401, body: bodyExpired}
	}
	return handler(r)
}

func newTestClient(t *testing.T, site *fakeSite) *hivegame.Client {
	t.Helper()
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	c, err := hivegame.NewClient(srv.URL+"/", hivegame.Credentials{Email: botMail, Password: botPassword}, srv.Client(), site.clock.now)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

const (
	opPending = "GET /api/v1/bot/games/pending"
	opPlay    = "POST /api/v1/bot/games/play"
)

// TestClientLogsInLazily: no request before the first call, one login for
// many calls, and the header the site reads.
func TestClientLogsInLazily(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPending, answer{body: gamesBody(rowInProgress)})
	c := newTestClient(t, site)
	if site.loginCount() != 0 {
		t.Fatal("NewClient logged in")
	}
	for range 3 {
		games, err := c.Pending(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != 1 || !games[0].IsTurnOf(botID) {
			t.Fatalf("games %+v", games)
		}
	}
	if n := site.loginCount(); n != 1 {
		t.Errorf("%d logins, want 1", n)
	}
	if got := site.headers[opPending].Get("Authorization"); !strings.HasPrefix(got, "Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.") {
		t.Errorf("Authorization %q", got)
	}
	if got := site.bodies["POST /api/v1/auth/token"]; got != `{"email":"bot@example.com","password":"s3cret!pass"}` {
		t.Errorf("login body %s", got)
	}
}

// TestClientRenewsBeforeExpiry: the token's exp is read, and a new token
// fetched once less than RenewMargin is left, before the site would
// refuse it.
func TestClientRenewsBeforeExpiry(t *testing.T) {
	clock := &fakeClock{t: epoch}
	site := newFakeSite(clock)
	site.route(opPending, answer{body: gamesBody()})
	c := newTestClient(t, site)
	if err := c.Login(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	clock.add(100*time.Minute - hivegame.RenewMargin - time.Second) // 5 min 1 s left
	if _, err := c.Pending(testCtx(t)); err != nil || site.loginCount() != 1 {
		t.Fatalf("with more than the margin left: %v, %d logins", err, site.loginCount())
	}
	clock.add(2 * time.Second) // 4 min 59 s left
	if _, err := c.Pending(testCtx(t)); err != nil || site.loginCount() != 2 {
		t.Fatalf("within the margin: %v, %d logins, want 2", err, site.loginCount())
	}
	clock.add(time.Minute)
	if _, err := c.Pending(testCtx(t)); err != nil || site.loginCount() != 2 {
		t.Fatalf("with the new token: %v, %d logins, want 2", err, site.loginCount())
	}
	if n := site.hitCount(opPending); n != 3 {
		t.Errorf("%d requests, want 3 (none refused)", n)
	}
	if exp, ok := hivegame.TokenExpiry(strings.TrimPrefix(site.headers[opPending].Get("Authorization"), "Bearer ")); !ok || !exp.Equal(epoch.Add(195*time.Minute+time.Second).Truncate(time.Second)) {
		t.Errorf("TokenExpiry = %v, %v", exp, ok)
	}
}

// TestClientReloginOn401: a 401 ExpiredSignature (the site's clock ahead
// of the client's, say) makes the client log in and send the request once
// more; it succeeds.
func TestClientReloginOn401(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPending, answer{body: gamesBody(rowInProgress)})
	c := newTestClient(t, site)
	if err := c.Login(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	site.mu.Lock()
	site.expireNext = 1
	site.mu.Unlock()
	games, err := c.Pending(testCtx(t))
	if err != nil || len(games) != 1 {
		t.Fatalf("Pending = %v, %v", games, err)
	}
	if site.loginCount() != 2 || site.hitCount(opPending) != 2 {
		t.Errorf("%d logins and %d requests, want 2 and 2", site.loginCount(), site.hitCount(opPending))
	}
}

// TestClientReloginOnce: when the new token is refused too, the error is
// the site's, after one retry only.
func TestClientReloginOnce(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPending, answer{body: gamesBody()})
	site.expireNext = 100
	c := newTestClient(t, site)
	_, err := c.Pending(testCtx(t))
	var ae *hivegame.APIError
	if !errors.As(err, &ae) || !ae.TokenRejected() || !ae.Auth() || ae.Op != opPending {
		t.Fatalf("Pending = %v, want a refused token", err)
	}
	if site.loginCount() != 2 || site.hitCount(opPending) != 2 {
		t.Errorf("%d logins and %d requests, want 2 and 2", site.loginCount(), site.hitCount(opPending))
	}
}

// TestClientOpaqueToken: a token whose exp cannot be read is used until
// the site refuses it.
func TestClientOpaqueToken(t *testing.T) {
	clock := &fakeClock{t: epoch}
	site := newFakeSite(clock)
	site.opaque = true
	site.route(opPending, answer{body: gamesBody()})
	c := newTestClient(t, site)
	for _, step := range []time.Duration{0, 90 * time.Minute, 20 * time.Minute} {
		clock.add(step)
		if _, err := c.Pending(testCtx(t)); err != nil {
			t.Fatal(err)
		}
	}
	if site.loginCount() != 2 || site.hitCount(opPending) != 4 {
		t.Errorf("%d logins and %d requests, want 2 and 4", site.loginCount(), site.hitCount(opPending))
	}
}

// TestClientPlay posts the move as play.rs reads it and gives the site's
// history back.
func TestClientPlay(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPlay, answer{body: bodyPlayed})
	c := newTestClient(t, site)
	move, err := hivegame.FormatMove(3, "bQ", `\bG1`)
	if err != nil {
		t.Fatal(err)
	}
	history, err := c.Play(testCtx(t), "qaTq1dsIi3-i", move)
	if err != nil {
		t.Fatal(err)
	}
	if moves, err := hivegame.ParseHistory(history); err != nil || len(moves) != 4 || moves[3] != mv("bQ", `\bG1`) {
		t.Errorf("history %q: %v, %v", history, moves, err)
	}
	if got, want := site.bodies[opPlay], `{"game_id":"qaTq1dsIi3-i","piece_pos":"bQ \\bG1"}`; got != want {
		t.Errorf("body %s, want %s", got, want)
	}
	if ct := site.headers[opPlay].Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
}

// TestClientPlayNotRetried: neither a refused token nor a refused move
// makes Play send the move again; the refused token is dropped, so the
// next call logs in.
func TestClientPlayNotRetried(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPlay, answer{body: bodyNotYourTurn})
	site.route(opPending, answer{body: gamesBody()})
	c := newTestClient(t, site)

	site.expireNext = 1
	_, err := c.Play(testCtx(t), "qaTq1dsIi3-i", "bG1 -wS1")
	var ae *hivegame.APIError
	if !errors.As(err, &ae) || !ae.TokenRejected() {
		t.Fatalf("Play with a refused token = %v", err)
	}
	if site.hitCount(opPlay) != 1 || site.loginCount() != 1 {
		t.Fatalf("%d plays and %d logins, want 1 and 1", site.hitCount(opPlay), site.loginCount())
	}
	if _, err := c.Pending(testCtx(t)); err != nil || site.loginCount() != 2 || site.hitCount(opPending) != 1 {
		t.Fatalf("the next call: %v, %d logins (want 2), %d requests (want 1)", err, site.loginCount(), site.hitCount(opPending))
	}

	_, err = c.Play(testCtx(t), "qaTq1dsIi3-i", "bG1 -wS1")
	if !errors.As(err, &ae) || ae.Status != 200 || ae.Message != "Not your turn" || ae.Auth() || ae.Temporary() {
		t.Fatalf("Play out of turn = %v", err)
	}
	if site.hitCount(opPlay) != 2 {
		t.Errorf("%d plays, want 2", site.hitCount(opPlay))
	}

	for _, m := range []string{"pass", " pass ", "pass x", ""} {
		if _, err := c.Play(testCtx(t), "qaTq1dsIi3-i", m); err == nil || (strings.TrimSpace(m) != "" && !errors.Is(err, hivegame.ErrPass)) {
			t.Errorf("Play(%q) = %v", m, err)
		}
	}
	if site.hitCount(opPlay) != 2 {
		t.Errorf("a pass or an empty move was posted")
	}
}

// TestClientEndpoints calls every other endpoint on its exact method and
// path (the trailing slash of /api/v1/bot/challenges/ included; the fake
// site answers anything else with an HTML page, as the real one does).
func TestClientEndpoints(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route("GET /api/v1/bot/games/ongoing", answer{body: gamesBody(rowInProgress, rowOldNotStarted)})
	site.route("GET /api/v1/bot/game/qaTq1dsIi3-i", answer{body: gamesBody(rowInProgress)})
	site.route("GET /api/v1/bot/game/H1-jt7m6dZfi", answer{body: gamesBody(rowInProgress)}) // the wrong game
	site.route("GET /api/v1/bot/game/nothere12345", answer{body: bodyGameNotFound})
	site.route("GET /api/v1/bot/challenges/", answer{body: challengesBody(challengeDirect, challengeOwnOld)})
	site.route("GET /api/v1/bot/challenge/accept/H1-jt7m6dZfi", answer{body: bodyAccepted})
	site.route("GET /api/v1/bot/challenge/accept/Zx_9-aaBBcc1", answer{body: `{"data":{"bot":"b","game":{"turn":0}},"success":true}`})
	site.route("POST /api/v1/bot/challenges/", answer{body: `{"data":{"bot":"b","bot_username":"u","challenge":` + challengeDirect + `},"success":true}`})
	site.route("DELETE /api/v1/bot/challenge/H1-jt7m6dZfi", answer{body: bodyDeleted})
	site.route("POST /api/v1/bot/games/control", answer{body: bodyControl})
	site.route("GET /api/v1/auth/id", answer{body: bodyIdentity})
	c := newTestClient(t, site)
	ctx := testCtx(t)

	if gs, err := c.Ongoing(ctx); err != nil || len(gs) != 2 {
		t.Errorf("Ongoing = %d games, %v", len(gs), err)
	}
	if g, err := c.Game(ctx, "qaTq1dsIi3-i"); err != nil || g.Nanoid != "qaTq1dsIi3-i" || g.Turn != 3 {
		t.Errorf("Game = %+v, %v", g, err)
	}
	if _, err := c.Game(ctx, "H1-jt7m6dZfi"); err == nil {
		t.Error("Game took another game's row")
	}
	var ae *hivegame.APIError
	if _, err := c.Game(ctx, "nothere12345"); !errors.As(err, &ae) || ae.Message != "Not found: Not found." || ae.Op != "GET /api/v1/bot/game/nothere12345" {
		t.Errorf("Game of an unknown id = %v", err)
	}
	if cs, err := c.Challenges(ctx); err != nil || len(cs) != 2 {
		t.Errorf("Challenges = %v, %v", cs, err)
	}
	if g, err := c.Accept(ctx, "H1-jt7m6dZfi"); err != nil || g.GameID != "H1-jt7m6dZfi" || g.UUID == "" {
		t.Errorf("Accept = %+v, %v", g, err)
	}
	if g, err := c.Accept(ctx, "Zx_9-aaBBcc1"); err != nil || g.GameID != "Zx_9-aaBBcc1" {
		t.Errorf("Accept without a game_id = %+v, %v", g, err)
	}
	req := hivegame.CreateChallengeRequest{GameType: "MLP", Visibility: hivegame.VisibilityDirect, Opponent: "alice",
		ColorChoice: hivegame.ColorRandom, TimeControl: hivegame.BotTimeControl{Kind: hivegame.RealTime, BaseMinutes: 5, IncrementSeconds: 3}, Rated: true}
	if ch, err := c.CreateChallenge(ctx, req); err != nil || ch.ChallengeID != "H1-jt7m6dZfi" {
		t.Errorf("CreateChallenge = %+v, %v", ch, err)
	}
	if got := site.bodies["POST /api/v1/bot/challenges/"]; !strings.Contains(got, `"time_control":{"RealTime":{"base":5,"increment":3}}`) {
		t.Errorf("challenge body %s", got)
	}
	if err := c.DeleteChallenge(ctx, "H1-jt7m6dZfi"); err != nil {
		t.Errorf("DeleteChallenge: %v", err)
	}
	if r, err := c.Control(ctx, "qaTq1dsIi3-i", hivegame.ControlResign); err != nil || !r.Finished {
		t.Errorf("Control = %+v, %v", r, err)
	}
	if got := site.bodies["POST /api/v1/bot/games/control"]; got != `{"game_id":"qaTq1dsIi3-i","control":"resign"}` {
		t.Errorf("control body %s", got)
	}
	if id, err := c.Identity(ctx); err != nil || id != botID {
		t.Errorf("Identity = %q, %v", id, err)
	}
	site.route("GET /api/v1/auth/id", answer{body: bodyIdentityOld})
	if id, err := c.Identity(ctx); err == nil {
		t.Errorf("Identity of an older site = %q", id)
	}

	// Refused before any request.
	before := site.hitCount("GET /api/v1/bot/game/")
	for _, id := range []string{"", "../games/pending", "a/b", "a?b", "é"} {
		if _, err := c.Game(ctx, id); err == nil {
			t.Errorf("Game(%q) accepted", id)
		}
	}
	if _, err := c.Control(ctx, "qaTq1dsIi3-i", "draw"); err == nil {
		t.Error("Control(draw) accepted")
	}
	if site.hitCount("GET /api/v1/bot/game/") != before || site.hitCount("POST /api/v1/bot/games/control") != 1 {
		t.Error("a refused call reached the site")
	}
	if site.loginCount() != 1 {
		t.Errorf("%d logins, want 1", site.loginCount())
	}
}

// TestClientFallThrough: a path the API does not have is an HTML page,
// read as a Plain error.
func TestClientFallThrough(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	c := newTestClient(t, site) // no routes: every API path falls through
	_, err := c.Challenges(testCtx(t))
	var ae *hivegame.APIError
	if !errors.As(err, &ae) || !ae.Plain || ae.Status != 404 || ae.Auth() || ae.Temporary() {
		t.Fatalf("Challenges = %v", err)
	}
}

// TestClientLoginRefused: the token endpoint's refusals are Auth errors,
// and neither the password nor the email reaches an error's text.
func TestClientLoginRefused(t *testing.T) {
	for _, reply := range []*answer{
		nil, // the wrong password below
		{status: 400, body: `{"data":{"message":"Not found: bot@example.com"},"success":false}`},
		{status: 400, body: "Json deserialize error: invalid type: string \"s3cret!pass\", expected bot@example.com"},
		{status: 404, body: `{"data":{"message":"No user found by that email address"},"success":false}`},
	} {
		site := newFakeSite(&fakeClock{t: epoch})
		site.route(opPending, answer{body: gamesBody()})
		site.loginReply = reply
		srv := httptest.NewServer(site)
		creds := hivegame.Credentials{Email: botMail, Password: botPassword}
		if reply == nil {
			creds.Password = "wrong password"
		}
		c, err := hivegame.NewClient(srv.URL, creds, srv.Client(), site.clock.now)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Pending(testCtx(t))
		srv.Close()
		var ae *hivegame.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("Pending = %v", err)
		}
		if ae.Auth() == ae.Plain {
			t.Errorf("%v: Auth %v", err, ae.Auth())
		}
		if msg := err.Error(); strings.Contains(msg, creds.Password) || strings.Contains(msg, botMail) {
			t.Errorf("the credentials leak: %s", msg)
		}
		if site.hitCount(opPending) != 0 || site.loginCount() != 1 {
			t.Errorf("%d requests after a refused login, %d logins", site.hitCount(opPending), site.loginCount())
		}
	}
}

// TestCredentialsRedacted: no way of printing Credentials shows them.
func TestCredentialsRedacted(t *testing.T) {
	creds := hivegame.Credentials{Email: botMail, Password: botPassword}
	b, _ := json.Marshal(creds)
	for _, s := range []string{
		fmt.Sprint(creds), fmt.Sprintf("%v %+v %#v %s %q %x", creds, creds, creds, creds, creds, creds),
		fmt.Sprintf("%v", &creds), string(b), fmt.Sprintf("%v", struct{ C hivegame.Credentials }{creds}),
	} {
		if strings.Contains(s, botPassword) || strings.Contains(s, botMail) {
			t.Errorf("printed: %s", s)
		}
	}
}

// TestClientConcurrentLogin: calls made together share one login.
func TestClientConcurrentLogin(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.loginDelay = 50 * time.Millisecond
	site.route(opPending, answer{body: gamesBody(rowInProgress)})
	c := newTestClient(t, site)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			_, err := c.Pending(testCtx(t))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := site.loginCount(); n != 1 {
		t.Errorf("%d logins, want 1", n)
	}
}

// TestClientTemporary: a proxy's 503 with Retry-After is returned, not
// retried.
func TestClientTemporary(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPending, answer{status: 503, header: http.Header{"Retry-After": {"7"}}, body: "<html><body>Service Unavailable</body></html>"})
	c := newTestClient(t, site)
	_, err := c.Pending(testCtx(t))
	var ae *hivegame.APIError
	if !errors.As(err, &ae) || !ae.Temporary() || ae.RetryAfter != 7*time.Second || !ae.Plain {
		t.Fatalf("Pending = %v", err)
	}
	if site.hitCount(opPending) != 1 {
		t.Errorf("%d requests, want 1", site.hitCount(opPending))
	}
}

// TestClientDeadline: the context's deadline is the request's.
func TestClientDeadline(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.routes[opPending] = func(r *http.Request) answer {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
		return answer{body: gamesBody()}
	}
	c := newTestClient(t, site)
	if err := c.Login(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Pending(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("Pending = %v after %v", err, time.Since(start))
	}
}

// TestClientBodyLimit: an answer larger than MaxBodyBytes is refused.
func TestClientBodyLimit(t *testing.T) {
	site := newFakeSite(&fakeClock{t: epoch})
	site.route(opPending, answer{body: strings.Repeat(" ", hivegame.MaxBodyBytes+1)})
	c := newTestClient(t, site)
	if _, err := c.Pending(testCtx(t)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("Pending = %v", err)
	}
}

func TestNewClient(t *testing.T) {
	creds := hivegame.Credentials{Email: botMail, Password: botPassword}
	for _, u := range []string{"", "hivegame.com", "ftp://hivegame.com", "https://", "https://hivegame.com/?x=1", "https://user:pw@hivegame.com/#f", "://"} {
		if _, err := hivegame.NewClient(u, creds, nil, nil); err == nil {
			t.Errorf("NewClient(%q) accepted", u)
		} else if strings.Contains(err.Error(), "pw@") {
			t.Errorf("NewClient(%q): the URL's password in %v", u, err)
		}
	}
	if _, err := hivegame.NewClient("https://hivegame.com", hivegame.Credentials{Email: botMail}, nil, nil); err == nil {
		t.Error("NewClient without a password accepted")
	}
	if _, err := hivegame.NewClient("https://hivegame.com", creds, nil, nil); err != nil {
		t.Error(err)
	}
}

func TestTokenExpiry(t *testing.T) {
	enc := base64.RawURLEncoding
	tok := func(claims string) string {
		return enc.EncodeToString([]byte(`{"typ":"JWT","alg":"HS256"}`)) + "." + enc.EncodeToString([]byte(claims)) + ".c2ln"
	}
	if exp, ok := hivegame.TokenExpiry(tok(`{"sub":"bot@example.com","iss":"hivegame.com","exp":1748778000}`)); !ok || exp.Unix() != 1748778000 {
		t.Errorf("TokenExpiry = %v, %v", exp, ok)
	}
	padded := enc.EncodeToString([]byte(`{"exp":1748778000.0}`)) + "=="
	if exp, ok := hivegame.TokenExpiry("a." + padded + ".b"); !ok || exp.Unix() != 1748778000 {
		t.Errorf("a padded payload: %v, %v", exp, ok)
	}
	for _, bad := range []string{"", "a.b", "a.b.c.d", tok(`{"sub":"x"}`), tok(`{"exp":"soon"}`), tok(`{"exp":-1}`), tok(`{"exp":1e300}`), "a.!!!.c", tok(`[1]`)} {
		if exp, ok := hivegame.TokenExpiry(bad); ok {
			t.Errorf("TokenExpiry(%q) = %v", bad, exp)
		}
	}
}

package hivegametest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The token endpoint's bodies and the token itself (notes §2.1–2.2).
func TestTokenEndpoint(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ body, want string }{
		{`{"email":"nobody@example.com","password":"x"}`, `{"data":{"message":"Not found: Not found."},"success":false}`},
		{`{"email":"alice@example.com","password":"pw"}`, `{"data":{"message":"Not a bot"},"success":false}`},
		{`{"email":"hydra@bots.example","password":"wrong"}`, `{"data":{"message":"error running server function: Password does not match."},"success":false}`},
	} {
		r := e.do("POST", "/api/v1/auth/token", "", c.body)
		if r.status != http.StatusBadRequest || r.body != c.want || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s %s, want 400 %s", c.body, r.status, r.header.Get("Content-Type"), r.body, c.want)
		}
	}
	r := e.do("POST", "/api/v1/auth/token", "", `{"email":"hydra@bots.example"}`)
	if r.status != 400 || r.body != "Json deserialize error: missing field `password` at line 1 column 30" {
		t.Errorf("missing password: %d %q", r.status, r.body)
	}
	// The sub is the login as sent; the username works as a login too.
	for _, login := range []string{"HYDRA@bots.example", "hydra"} {
		r := e.do("POST", "/api/v1/auth/token", "", `{"email":"`+login+`","password":"hunter2"}`)
		tok := r.data(t, true)["token"].(string)
		if !strings.HasPrefix(r.body, `{"data":{"token":"eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.`) {
			t.Errorf("token body %s", r.body)
		}
		payload, err := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
		if err != nil {
			t.Fatal(err)
		}
		want := `{"sub":"` + login + `","iss":"hivegame.com","exp":` + itoa64(e.clock.Now().Add(100*time.Minute).Unix()) + `}`
		if string(payload) != want {
			t.Errorf("claims %s, want %s", payload, want)
		}
		id := e.do("GET", "/api/v1/auth/id", tok, "").data(t, true)
		if id["bot"] != botEmail || id["user_id"] == "" {
			t.Errorf("auth/id: %v", id)
		}
	}
	if n := e.s.TokensIssued(); n != 2 {
		t.Errorf("TokensIssued = %d", n)
	}
}

func itoa64(n int64) string { b, _ := json.Marshal(n); return string(b) }

// The Auth extractor's statuses and exact bodies (notes §2.4).
func TestAuthFailures(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	parts := strings.Split(tok, ".")
	forge := func(header, payload string) string {
		msg := base64.RawURLEncoding.EncodeToString([]byte(header)) + "." + base64.RawURLEncoding.EncodeToString([]byte(payload))
		return msg + "." + e.s.sign(msg)
	}
	exp := itoa64(e.clock.Now().Add(time.Hour).Unix())
	for _, c := range []struct {
		name, auth string
		status     int
		message    string
	}{
		{"no header", "", 401, "No token provided"},
		{"scheme only", "Bearer", 401, "No token provided"},
		{"two spaces", "Bearer  " + tok, 401, "InvalidToken"},
		{"garbage", "Bearer garbage", 401, "InvalidToken"},
		{"bad signature", "Bearer " + parts[0] + "." + parts[1] + ".AAAA", 401, "InvalidSignature"},
		{"other algorithm", "Bearer " + base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS512"}`)) + "." + parts[1] + "." + parts[2], 401, "InvalidAlgorithm"},
		{"no exp", "Bearer " + forge(`{"typ":"JWT","alg":"HS256"}`, `{"sub":"hydra","iss":"x"}`), 401, "JSON error: missing field `exp` at line 1 column 25"},
		{"negative exp", "Bearer " + forge(`{"typ":"JWT","alg":"HS256"}`, `{"sub":"hydra","iss":"x","exp":-5}`), 401, "Missing required claim: exp"},
		{"an audience", "Bearer " + forge(`{"alg":"HS256"}`, `{"sub":"hydra","iss":"x","exp":`+exp+`,"aud":"y"}`), 401, "InvalidAudience"},
		{"a human", "Bearer " + forge(`{"alg":"HS256"}`, `{"sub":"alice@example.com","iss":"x","exp":`+exp+`}`), 401, "Not a bot"},
		{"nobody", "Bearer " + forge(`{"alg":"HS256"}`, `{"sub":"ghost","iss":"x","exp":`+exp+`}`), 400, "User not found"},
	} {
		req, _ := http.NewRequest("GET", e.ts.URL+"/api/v1/bot/games/ongoing", nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := e.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		resp.Body.Close()
		want := `{"data":{"message":"` + c.message + `"},"success":false}`
		if resp.StatusCode != c.status || b.String() != want {
			t.Errorf("%s: %d %s, want %d %s", c.name, resp.StatusCode, b.String(), c.status, want)
		}
	}
	// Any scheme word will do.
	req, _ := http.NewRequest("GET", e.ts.URL+"/api/v1/bot/games/ongoing", nil)
	req.Header.Set("Authorization", "Token "+tok)
	if resp, err := e.ts.Client().Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("Token scheme: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// A token works until exp plus 60 s of leeway, then ExpiredSignature.
func TestTokenExpiryWithLeeway(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	e.clock.Advance(100*time.Minute + 60*time.Second)
	if r := e.do("GET", "/api/v1/bot/games/pending", tok, ""); r.status != 200 {
		t.Errorf("at exp+60s: %d %s", r.status, r.body)
	}
	e.clock.Advance(time.Second)
	r := e.do("GET", "/api/v1/bot/games/pending", tok, "")
	if r.status != 401 || r.body != `{"data":{"message":"ExpiredSignature"},"success":false}` {
		t.Errorf("at exp+61s: %d %s", r.status, r.body)
	}
	// A short lifetime for tests that want expiry without a fake clock's
	// arithmetic.
	s := New(Options{Now: e.clock.Now, TokenLifetime: time.Minute})
	tok = s.issueToken("x", e.clock.Now())
	if _, msg := s.verifyToken(tok, e.clock.Now().Add(2*time.Minute+time.Second)); msg != "ExpiredSignature" {
		t.Errorf("1-minute token after 2m1s: %q", msg)
	}
}

// A body that is not the request's JSON is a plain-text 400 before the
// token is looked at.
func TestMalformedBodyBeforeAuth(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ path, body, want string }{
		{"/api/v1/bot/games/play", `{`, "Json deserialize error: EOF while parsing an object at line 1 column 1"},
		{"/api/v1/bot/games/play", ``, "Json deserialize error: EOF while parsing a value at line 1 column 0"},
		{"/api/v1/bot/games/play", `{"game_id":"x"}`, "Json deserialize error: missing field `piece_pos` at line 1 column 15"},
		{"/api/v1/bot/games/control", `{"game_id":5,"control":"resign"}`, "Json deserialize error: invalid type: integer `5`, expected a string at line 1 column 12"},
		{"/api/v1/bot/games/control", `{"game_id":"a","control":"resign"} x`, "Json deserialize error: trailing characters at line 1 column 36"},
		{"/api/v1/bot/challenges/", `{}`, "Json deserialize error: missing field `game_type` at line 1 column 2"},
		{"/api/v1/bot/challenges/", `{"game_type":"Foo"}`, "Json deserialize error: Found \"Foo\" which is not a valid game type string at line 1 column 18"},
		{"/api/v1/bot/challenges/", `{"game_type":"MLP","visibility":"Secret"}`, "Json deserialize error: unknown variant `Secret`, expected one of `Direct`, `Public`, `Private` at line 1 column 40"},
	} {
		req, _ := http.NewRequest("POST", e.ts.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer not-a-token")
		resp, err := e.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || b.String() != c.want || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("%s %s: %d %q, want 400 %q", c.path, c.body, resp.StatusCode, b.String(), c.want)
		}
	}
	req, _ := http.NewRequest("POST", e.ts.URL+"/api/v1/bot/games/play", strings.NewReader(`{"game_id":"a","piece_pos":"wS1"}`))
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || b.String() != "Content type error" {
		t.Errorf("no Content-Type: %d %q", resp.StatusCode, b.String())
	}
}

// Only the registered paths answer; the rest is the web app's 404 page.
func TestRoutesAreExact(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/bot/challenges"},
		{"GET", "/api/v1/bot/games/pending/"},
		{"POST", "/api/v1/bot/games/pending"},
		{"GET", "/api/v1/bot/challenge/accept/"},
		{"GET", "/api/v1/bot/game/"},
		{"HEAD", "/api/v1/auth/id"},
	} {
		r := e.do(c.method, c.path, tok, "")
		if r.status != 404 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.header.Get("Content-Type"))
		}
	}
	if r := e.do("GET", "/api/v1/bot/user/not-a-uuid", tok, ""); r.status != 404 || !strings.HasPrefix(r.body, "UUID parsing failed") {
		t.Errorf("user/not-a-uuid: %d %q", r.status, r.body)
	}
	alice := e.s.byName["alice"].id
	d := e.do("GET", "/api/v1/bot/user/"+alice, tok, "").data(t, true)
	if u := d["user"].(map[string]any); u["username"] != "alice" || u["bot"] != false || len(u["ratings"].(map[string]any)) != 5 {
		t.Errorf("user: %v", d)
	}
}

package hivegame

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// RenewMargin is how long before its exp a token is replaced. The site's
// tokens last 100 minutes and it has no refresh endpoint (encode.rs
// jwt_encode), so the client logs in again; the margin covers the clocks
// of the two machines disagreeing and a request that takes a while.
const RenewMargin = 5 * time.Minute

// minTokenUse is how long a token just obtained is used at least, even
// when its exp says it is already within RenewMargin: with a clock far
// ahead of the site's, the client would otherwise log in before every
// request. A token that really is spent is caught by the site's 401.
const minTokenUse = 30 * time.Second

// MaxBodyBytes bounds the body of an answer the client reads. The site's
// largest answers are game lists (a few kilobytes a game); anything much
// larger is not the site.
const MaxBodyBytes = 4 << 20

// DefaultTimeout is the deadline the client gives a request whose context
// has none, so that no call can hang on a peer for ever. Callers should
// set their own (hive-hydra, the site's own bot runner, uses 10 s).
const DefaultTimeout = 30 * time.Second

// Credentials are a bot account's email and password, which POST
// /api/v1/auth/token takes (encode.rs, struct Bot). The site also takes
// the username in the email field (User::find_for_login, version N).
//
// They never appear in a log or an error: every fmt verb, slog and
// encoding/json print them as "[redacted]", and the client takes them out
// of the texts it is answered with.
type Credentials struct {
	Email    string
	Password string
}

// Format prints the credentials redacted, whatever the verb.
func (Credentials) Format(f fmt.State, _ rune) {
	io.WriteString(f, "hivegame.Credentials{[redacted]}")
}

// LogValue logs the credentials redacted.
func (Credentials) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// MarshalJSON writes the credentials redacted; the login request has its
// own body type.
func (Credentials) MarshalJSON() ([]byte, error) { return []byte(`"[redacted]"`), nil }

// tokenRequest is POST /api/v1/auth/token's body, {"email","password"}.
type tokenRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Client calls hivegame.com's bot API for one bot account. It logs in when
// it first needs a token, and again when the token comes within
// RenewMargin of its expiry or the site refuses it. Its methods may be
// called from several goroutines; they share one token and log in one at
// a time.
//
// Every method takes a context, whose deadline is the request's: callers
// set one (DefaultTimeout applies when they do not). A method makes one
// request, or two when the token was refused and a new one is fetched
// (three with the login), and never retries otherwise: a failed request is
// the caller's to retry, after resynchronising where it matters (Play).
type Client struct {
	base  string
	creds Credentials
	hc    *http.Client
	now   func() time.Time

	// loginSem lets one login run at a time; a channel, so that waiting
	// for it respects the caller's context.
	loginSem chan struct{}

	mu      sync.Mutex
	token   string
	renewAt time.Time // zero: the token's exp could not be read
}

// NewClient makes a client of the site at baseURL ("https://hivegame.com",
// or a test server's address; a path prefix is kept) for the account of
// creds. httpClient nil means a new http.Client; now nil means time.Now,
// the clock against which tokens' expiry and Retry-After dates are read.
func NewClient(baseURL string, creds Credentials, httpClient *http.Client, now func() time.Time) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("hivegame: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("hivegame: base URL %q is not http(s)://host[/path]", u.Redacted())
	}
	if creds.Email == "" || creds.Password == "" {
		return nil, errors.New("hivegame: the credentials need both an email (or username) and a password")
	}
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	if now == nil {
		now = time.Now
	}
	return &Client{
		base:     strings.TrimRight(u.String(), "/"),
		creds:    creds,
		hc:       httpClient,
		now:      now,
		loginSem: make(chan struct{}, 1),
	}, nil
}

// Login logs in now, whatever token the client holds: POST
// /api/v1/auth/token. The other methods log in by themselves when they
// need to; Login is for checking the credentials at start. A refusal is an
// *APIError whose Auth is true.
func (c *Client) Login(ctx context.Context) error {
	select {
	case c.loginSem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("hivegame: waiting to log in: %w", ctx.Err())
	}
	defer func() { <-c.loginSem }()
	return c.login(ctx)
}

// login fetches a token and keeps it; the caller holds loginSem.
func (c *Client) login(ctx context.Context) error {
	data, err := c.send(ctx, http.MethodPost, "/api/v1/auth/token", tokenRequest{c.creds.Email, c.creds.Password}, "")
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) {
			ae.login = true
			ae.Message = c.redact(ae.Message)
		}
		return err
	}
	tok, err := DecodeToken(data)
	if err != nil {
		return err
	}
	now := c.now()
	var renewAt time.Time
	if exp, ok := TokenExpiry(tok); ok {
		renewAt = exp.Add(-RenewMargin)
		if earliest := now.Add(minTokenUse); renewAt.Before(earliest) {
			renewAt = earliest
		}
	}
	c.mu.Lock()
	c.token, c.renewAt = tok, renewAt
	c.mu.Unlock()
	return nil
}

// redact takes the credentials out of a text the site answered with (a
// serde message quoting the request, say).
func (c *Client) redact(s string) string {
	for _, secret := range []string{c.creds.Password, c.creds.Email} {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[redacted]")
		}
	}
	return s
}

// TokenExpiry reads a JWT's exp claim, without checking its signature (the
// key is the site's): the payload is the second of the token's three
// base64url parts, and exp is in Unix seconds (encode.rs Claims). ok is
// false for anything else.
func TokenExpiry(token string) (exp time.Time, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return time.Time{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return time.Time{}, false
	}
	var claims struct {
		Exp *json.Number `json:"exp"`
	}
	if json.Unmarshal(payload, &claims) != nil || claims.Exp == nil {
		return time.Time{}, false
	}
	secs, err := claims.Exp.Float64()
	if err != nil || secs <= 0 || secs > 1e12 {
		return time.Time{}, false
	}
	return time.Unix(int64(secs), 0), true
}

// currentToken gives a token to send: the one held while it is fresh,
// else a new one.
func (c *Client) currentToken(ctx context.Context) (string, error) {
	if tok, ok := c.freshToken(); ok {
		return tok, nil
	}
	select {
	case c.loginSem <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("hivegame: waiting to log in: %w", ctx.Err())
	}
	defer func() { <-c.loginSem }()
	// Another call may have logged in while this one waited.
	if tok, ok := c.freshToken(); ok {
		return tok, nil
	}
	if err := c.login(ctx); err != nil {
		return "", err
	}
	tok, _ := c.freshToken()
	return tok, nil
}

func (c *Client) freshToken() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token == "" || (!c.renewAt.IsZero() && !c.now().Before(c.renewAt)) {
		return "", false
	}
	return c.token, true
}

// dropToken forgets tok, if it is still the one held, so that the next
// request logs in.
func (c *Client) dropToken(tok string) {
	c.mu.Lock()
	if c.token == tok {
		c.token, c.renewAt = "", time.Time{}
	}
	c.mu.Unlock()
}

// call makes an authenticated request. When the site refuses the token
// (APIError.TokenRejected), the token is dropped and, if retry is set, the
// client logs in and sends the request once more: the Auth extractor
// refused it before its handler ran.
func (c *Client) call(ctx context.Context, method, path string, body any, retry bool) (json.RawMessage, error) {
	tok, err := c.currentToken(ctx)
	if err != nil {
		return nil, err
	}
	data, err := c.send(ctx, method, path, body, tok)
	var ae *APIError
	if err == nil || !errors.As(err, &ae) || !ae.TokenRejected() {
		return data, err
	}
	c.dropToken(tok)
	if !retry {
		return nil, err
	}
	if tok, err = c.currentToken(ctx); err != nil {
		return nil, err
	}
	return c.send(ctx, method, path, body, tok)
}

// send makes one request and decodes the envelope of its answer.
func (c *Client) send(ctx context.Context, method, path string, body any, token string) (json.RawMessage, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	op := method + " " + path
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("hivegame: %s: %w", op, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("hivegame: %s: %w", op, err)
	}
	if body != nil {
		// actix's Json extractor refuses any other type: 400 "Content
		// type error".
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if token != "" {
		// The extractor takes the word after the first space, so the
		// scheme word is not checked; "Bearer" is what the site's own
		// clients send.
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("hivegame: %s: %w", op, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("hivegame: %s: reading the answer (HTTP %d): %w", op, resp.StatusCode, err)
	}
	if len(raw) > MaxBodyBytes {
		return nil, fmt.Errorf("hivegame: %s: the answer (HTTP %d) is larger than %d bytes", op, resp.StatusCode, MaxBodyBytes)
	}
	data, err := DecodeEnvelope(resp.StatusCode, resp.Header, raw, c.now())
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) {
			ae.Op = op
		}
		return nil, err
	}
	return data, nil
}

// checkNanoid refuses an id that is not a nanoid (nanoid!(12)'s alphabet
// is A-Z a-z 0-9 _ -; a UUID fits it too), so that no id can change the
// path it is put in, and an empty one does not reach a page of the web
// site instead of the API.
func checkNanoid(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("hivegame: %q is not a game or challenge id", truncate(id, 64))
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("hivegame: %q is not a game or challenge id", id)
		}
	}
	return nil
}

// Pending lists the games in which it is the bot's turn: GET
// /api/v1/bot/games/pending. That includes a new game at turn 0 where the
// bot is White, and a game whose opponent the site just made pass.
func (c *Client) Pending(ctx context.Context) ([]Game, error) {
	data, err := c.call(ctx, http.MethodGet, "/api/v1/bot/games/pending", nil, true)
	if err != nil {
		return nil, err
	}
	return DecodeGames(data)
}

// Ongoing lists every unfinished game of the bot, whoever is to move: GET
// /api/v1/bot/games/ongoing.
func (c *Client) Ongoing(ctx context.Context) ([]Game, error) {
	data, err := c.call(ctx, http.MethodGet, "/api/v1/bot/games/ongoing", nil, true)
	if err != nil {
		return nil, err
	}
	return DecodeGames(data)
}

// Game reads one game, the bot's or anyone's: GET
// /api/v1/bot/game/{nanoid}, which answers a list of one. An unknown
// nanoid, or an aborted game (abort deletes it), is an *APIError
// "Not found...".
func (c *Client) Game(ctx context.Context, nanoid string) (Game, error) {
	if err := checkNanoid(nanoid); err != nil {
		return Game{}, err
	}
	data, err := c.call(ctx, http.MethodGet, "/api/v1/bot/game/"+nanoid, nil, true)
	if err != nil {
		return Game{}, err
	}
	games, err := DecodeGames(data)
	if err != nil {
		return Game{}, err
	}
	for _, g := range games {
		if g.Nanoid == nanoid {
			return g, nil
		}
	}
	return Game{}, fmt.Errorf("hivegame: GET /api/v1/bot/game/%s answered %d games, none of them %s", nanoid, len(games), nanoid)
}

// Challenges lists the bot's own challenges and those addressed to it:
// GET /api/v1/bot/challenges/ (with its trailing slash; without it the
// path is one of the web site's pages). Others' public challenges are not
// listed. Use Challenge.IsOwn to tell the bot's own, which it cannot
// accept.
func (c *Client) Challenges(ctx context.Context) ([]Challenge, error) {
	data, err := c.call(ctx, http.MethodGet, "/api/v1/bot/challenges/", nil, true)
	if err != nil {
		return nil, err
	}
	return DecodeChallenges(data)
}

// Accept accepts a challenge and so starts its game, whose nanoid is the
// challenge's: GET /api/v1/bot/challenge/accept/{nanoid} (a GET, though
// it changes things). Accepting a real-time challenge deletes every
// real-time challenge of both players. The site refuses the bot's own
// challenges ("You can't accept your own challenges!") and direct ones
// addressed to another ("This is not your challenge").
func (c *Client) Accept(ctx context.Context, challengeID string) (AcceptedGame, error) {
	if err := checkNanoid(challengeID); err != nil {
		return AcceptedGame{}, err
	}
	data, err := c.call(ctx, http.MethodGet, "/api/v1/bot/challenge/accept/"+challengeID, nil, true)
	if err != nil {
		return AcceptedGame{}, err
	}
	g, err := DecodeAccepted(data)
	if err != nil {
		return AcceptedGame{}, err
	}
	if g.GameID == "" {
		g.GameID = challengeID
	}
	return g, nil
}

// CreateChallenge creates a challenge: POST /api/v1/bot/challenges/. A
// request the site's checks refuse is an *APIError with its reason (see
// CreateChallengeRequest); a body its JSON extractor cannot read is a
// Plain 400.
func (c *Client) CreateChallenge(ctx context.Context, req CreateChallengeRequest) (Challenge, error) {
	data, err := c.call(ctx, http.MethodPost, "/api/v1/bot/challenges/", req, true)
	if err != nil {
		return Challenge{}, err
	}
	return DecodeChallenge(data)
}

// DeleteChallenge deletes a challenge the bot made or one addressed to it,
// which is how a bot declines: DELETE /api/v1/bot/challenge/{nanoid}
// (version N; older sites have no delete and fall through to a web page,
// a Plain error).
func (c *Client) DeleteChallenge(ctx context.Context, challengeID string) error {
	if err := checkNanoid(challengeID); err != nil {
		return err
	}
	data, err := c.call(ctx, http.MethodDelete, "/api/v1/bot/challenge/"+challengeID, nil, true)
	if err != nil {
		return err
	}
	_, err = DecodeDeleted(data)
	return err
}

// Play posts a move, as FormatMove writes it: POST /api/v1/bot/games/play
// with {"game_id": nanoid, "piece_pos": move}. It gives the game's new
// history, in which the site spells the move its own way and appends any
// pass it made for the opponent.
//
// Play sends the move once and never again by itself, not even when the
// site refuses the token: a move whose answer is lost (a timeout, a broken
// connection) may have been played, and one that was refused may be
// refused again for a reason the caller must see. The caller reads the
// game again (Game) and decides from its history and turn. A refused token
// is dropped, so the next call logs in afresh. A pass is never sent
// (ErrPass).
func (c *Client) Play(ctx context.Context, nanoid, move string) (string, error) {
	if err := checkNanoid(nanoid); err != nil {
		return "", err
	}
	if words := strings.Fields(move); len(words) == 0 {
		return "", errors.New("hivegame: an empty move")
	} else if words[0] == "pass" {
		return "", ErrPass
	}
	data, err := c.call(ctx, http.MethodPost, "/api/v1/bot/games/play", PlayRequest{GameID: nanoid, PiecePos: move}, false)
	if err != nil {
		return "", err
	}
	return DecodePlayed(data)
}

// Control resigns or aborts a game: POST /api/v1/bot/games/control with
// control ControlResign (from turn 2 on) or ControlAbort (before turn 2;
// it deletes the game). The site refuses a repeat with "Control already
// sent". Draw offers are not available over HTTP.
func (c *Client) Control(ctx context.Context, nanoid, control string) (ControlResult, error) {
	if err := checkNanoid(nanoid); err != nil {
		return ControlResult{}, err
	}
	if control != ControlResign && control != ControlAbort {
		return ControlResult{}, fmt.Errorf("hivegame: control %q is neither %q nor %q, the two the site takes over HTTP", truncate(control, 40), ControlResign, ControlAbort)
	}
	data, err := c.call(ctx, http.MethodPost, "/api/v1/bot/games/control", ControlRequest{GameID: nanoid, Control: control}, true)
	if err != nil {
		return ControlResult{}, err
	}
	return DecodeControl(data)
}

// Identity gives the bot's own user id (a UUID), which the games name as
// white_id, black_id and current_player_id: GET /api/v1/auth/id. Older
// sites answer only the email; then this is an error, and the id is to be
// taken from the bot's games.
func (c *Client) Identity(ctx context.Context) (string, error) {
	data, err := c.call(ctx, http.MethodGet, "/api/v1/auth/id", nil, true)
	if err != nil {
		return "", err
	}
	id, err := DecodeIdentity(data)
	if err != nil {
		return "", err
	}
	if id.UserID == "" {
		return "", errors.New("hivegame: GET /api/v1/auth/id did not give a user_id (an older site); take the bot's id from its games")
	}
	return id.UserID, nil
}

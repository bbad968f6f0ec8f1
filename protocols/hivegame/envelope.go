package hivegame

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxMessage is how many bytes of an error's text an APIError keeps. The
// site's own messages are a line; a proxy's HTML page or a framework's
// serde message can be long, and an error is for a log line.
const MaxMessage = 300

// MaxRetryAfter bounds the wait read from a Retry-After header: a longer
// one is read as this much. No proxy means more, and it keeps the
// arithmetic of a hostile header from overflowing.
const MaxRetryAfter = 24 * time.Hour

// APIError is an answer of the site (or of whatever stands in front of
// it) that is not a success: a handled failure, which the site sends as
// HTTP 200 {"success":false,"data":{"error":...}}; an auth failure, 401
// or 400 with data.message; or a body that is not the site's JSON at all.
type APIError struct {
	// Op is the request, "POST /api/v1/bot/games/play"; the Client sets
	// it, DecodeEnvelope leaves it empty.
	Op string
	// Status is the HTTP status: 200 for a failure the handler reported
	// (the status says nothing there; success does).
	Status int
	// Message is data.error (the handlers' failures), else data.message
	// (the Auth extractor's and the token endpoint's), else the text of a
	// body that is not the envelope; shortened to MaxMessage bytes, valid
	// UTF-8, without control characters. The texts differ between
	// versions of the site ("Not your turn", "Invalid action: It is not
	// this player's turn"...), so branch on Status, Auth, Temporary and
	// TokenRejected rather than on the words.
	Message string
	// Plain is true when the body was not the site's JSON envelope:
	// actix-web's plain-text 400 "Json deserialize error: ..." or
	// "Content type error", an HTML page for a path the API does not have
	// (it falls through to the site's web pages), a proxy's 5xx.
	Plain bool
	// RetryAfter is the wait a Retry-After header asked for (see
	// ParseRetryAfter), zero without one. The site itself sends none: it
	// has no rate limiter (apis/src/main.rs); a proxy in front might.
	RetryAfter time.Duration

	// login marks the token endpoint's answer, whose 4xx refusals are
	// about the credentials.
	login bool
}

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("hivegame: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	switch {
	case e.Plain:
		fmt.Fprintf(&b, "HTTP %d %s, not the site's JSON answer", e.Status, http.StatusText(e.Status))
		if e.Message != "" {
			fmt.Fprintf(&b, ": %q", e.Message)
		}
	case e.Status == http.StatusOK:
		b.WriteString("refused: ")
		b.WriteString(e.Message)
	default:
		fmt.Fprintf(&b, "HTTP %d: %s", e.Status, e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %v)", e.RetryAfter)
	}
	return b.String()
}

// Auth reports whether the request failed for its credentials: any 401
// (the Auth extractor's "No token provided", "ExpiredSignature", "Not a
// bot"...), the extractor's 400 "User not found" (the token's email
// matches no user), or the token endpoint refusing the email and password
// (400 "Not found: Not found.", "Not a bot", "...Password does not
// match."; the first version answered 404). Retrying such a request as it
// is cannot succeed, but see TokenRejected.
func (e *APIError) Auth() bool {
	switch {
	case e.Status == http.StatusUnauthorized:
		return true
	case e.Plain:
		return false
	case e.login && e.Status >= 400 && e.Status < 500:
		return true
	}
	return e.Status == http.StatusBadRequest && e.Message == "User not found"
}

// TokenRejected reports whether the token itself was refused, so that a
// new one may succeed: 401 with jsonwebtoken's ExpiredSignature,
// InvalidToken or InvalidSignature (apis/src/api/v1/auth/auth_.rs maps the
// decode error's Display, which for these prints the variant's name).
func (e *APIError) TokenRejected() bool {
	if e.Status != http.StatusUnauthorized || e.Plain {
		return false
	}
	switch e.Message {
	case "ExpiredSignature", "InvalidToken", "InvalidSignature":
		return true
	}
	return false
}

// Temporary reports whether the same request may succeed later: 429 Too
// Many Requests or a 5xx (the site's own 500 "Database connection error",
// a proxy's 502 or 503). RetryAfter says how long to wait when the answer
// said.
func (e *APIError) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// envelope is every bot answer's body (apis/src/api/v1/bot/*.rs, built
// with serde_json::json!, whose objects come out with sorted keys; key
// order does not matter to encoding/json).
type envelope struct {
	Success *bool           `json:"success"`
	Data    json.RawMessage `json:"data"`
}

// DecodeEnvelope reads an answer's status, header and body, and gives its
// data when it is {"success":true,"data":...} with a 2xx status; anything
// else is an *APIError. now is only for a Retry-After given as a date.
func DecodeEnvelope(status int, header http.Header, body []byte, now time.Time) (json.RawMessage, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil || env.Success == nil {
		return nil, newAPIError(status, header, plainText(body), true, now)
	}
	if *env.Success && status >= 200 && status < 300 {
		return env.Data, nil
	}
	return nil, newAPIError(status, header, dataMessage(env.Data), false, now)
}

func newAPIError(status int, header http.Header, msg string, plain bool, now time.Time) *APIError {
	e := &APIError{Status: status, Message: msg, Plain: plain}
	if v := header.Get("Retry-After"); v != "" {
		e.RetryAfter, _ = ParseRetryAfter(v, now)
	}
	return e
}

// dataMessage is a failure's text: data.error from the handlers, else
// data.message from the Auth extractor and the token endpoint, else the
// data itself as text.
func dataMessage(data json.RawMessage) string {
	var d struct {
		Error   *string `json:"error"`
		Message *string `json:"message"`
	}
	if json.Unmarshal(data, &d) == nil {
		switch {
		case d.Error != nil:
			return cleanText(*d.Error, false)
		case d.Message != nil:
			return cleanText(*d.Message, false)
		}
	}
	if len(data) == 0 || string(data) == "null" {
		return ""
	}
	return cleanText(string(data), true)
}

// plainText is the text of a body that is not the envelope, its white
// space collapsed (an HTML page is mostly indentation).
func plainText(body []byte) string {
	if len(body) > 4*MaxMessage {
		body = body[:4*MaxMessage]
	}
	return cleanText(string(body), true)
}

// cleanText makes s fit for a log line: valid UTF-8, control characters
// as spaces, runs of white space as one when collapse is set, at most
// MaxMessage bytes.
func cleanText(s string, collapse bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	if collapse {
		s = strings.Join(strings.Fields(s), " ")
	}
	return truncate(s, MaxMessage)
}

// truncate cuts s to at most n bytes at a rune boundary, marking the cut
// with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ParseRetryAfter reads a Retry-After header's value (RFC 9110 §10.2.3):
// delay-seconds, or an HTTP-date, which is measured from now (a date past
// is no wait). ok is false for anything else. The wait is at most
// MaxRetryAfter.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return 0, false
			}
		}
		secs, err := strconv.ParseUint(v, 10, 64)
		if err != nil || secs > uint64(MaxRetryAfter/time.Second) {
			return MaxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	switch d := t.Sub(now); {
	case d <= 0:
		return 0, true
	case d > MaxRetryAfter:
		return MaxRetryAfter, true
	default:
		return d, true
	}
}

// field decodes data's member key into v. The site's data is always an
// object; a missing or null member means the answer is not what the
// endpoint sends.
func field(data json.RawMessage, key string, v any) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return fmt.Errorf("hivegame: the answer's data is not an object: %w", err)
	}
	raw, ok := members[key]
	if !ok || string(raw) == "null" {
		return fmt.Errorf("hivegame: the answer's data has no %q", key)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("hivegame: the answer's %q: %w", key, err)
	}
	return nil
}

// DecodeToken reads POST /api/v1/auth/token's data: {"token": "<jwt>"}
// (the token handler in apis/src/api/v1/auth/).
func DecodeToken(data json.RawMessage) (string, error) {
	var tok string
	if err := field(data, "token", &tok); err != nil {
		return "", err
	}
	if tok == "" {
		return "", fmt.Errorf("hivegame: the answer's token is empty")
	}
	return tok, nil
}

// DecodeGames reads the data of GET /api/v1/bot/games/pending,
// .../ongoing and .../game/{nanoid}: {"bot", "bot_username", "games":
// [Game...]} (apis/src/api/v1/bot/games.rs). Each game must have the ids
// a bot needs to play it: nanoid, white_id, black_id, current_player_id.
func DecodeGames(data json.RawMessage) ([]Game, error) {
	var games []Game
	if err := field(data, "games", &games); err != nil {
		return nil, err
	}
	for i := range games {
		g := &games[i]
		switch {
		case g.Nanoid == "":
			return nil, fmt.Errorf("hivegame: game %d of the answer has no nanoid", i)
		case g.WhiteID == "" || g.BlackID == "" || g.CurrentPlayerID == "":
			return nil, fmt.Errorf("hivegame: game %s of the answer lacks white_id, black_id or current_player_id", truncate(g.Nanoid, 40))
		}
	}
	return games, nil
}

// DecodeChallenges reads GET /api/v1/bot/challenges/'s data: {"bot",
// "bot_username", "challenges": [ChallengeResponse...]}: the bot's own
// challenges and those addressed to it, never others' public ones.
func DecodeChallenges(data json.RawMessage) ([]Challenge, error) {
	var cs []Challenge
	if err := field(data, "challenges", &cs); err != nil {
		return nil, err
	}
	for i := range cs {
		if cs[i].ChallengeID == "" {
			return nil, fmt.Errorf("hivegame: challenge %d of the answer has no challenge_id", i)
		}
	}
	return cs, nil
}

// DecodeChallenge reads POST /api/v1/bot/challenges/'s data: {"bot",
// "bot_username", "challenge": ChallengeResponse}.
func DecodeChallenge(data json.RawMessage) (Challenge, error) {
	var c Challenge
	if err := field(data, "challenge", &c); err != nil {
		return Challenge{}, err
	}
	if c.ChallengeID == "" {
		return Challenge{}, fmt.Errorf("hivegame: the answer's challenge has no challenge_id")
	}
	return c, nil
}

// DecodeAccepted reads GET /api/v1/bot/challenge/accept/{nanoid}'s data:
// {"bot", "bot_username", "game": GameResponse}. GameID may be empty if
// the site's GameResponse has another name for it; the game's nanoid is
// the challenge's anyway.
func DecodeAccepted(data json.RawMessage) (AcceptedGame, error) {
	var g AcceptedGame
	if err := field(data, "game", &g); err != nil {
		return AcceptedGame{}, err
	}
	return g, nil
}

// DecodePlayed reads POST /api/v1/bot/games/play's data: {"bot",
// "bot_username", "history": "<the game's new history>"}, and gives the
// history. It is the site's normalisation of the move sent (another
// reference piece, perhaps), followed by any pass it made.
func DecodePlayed(data json.RawMessage) (string, error) {
	var h string
	if err := field(data, "history", &h); err != nil {
		return "", err
	}
	return h, nil
}

// DecodeControl reads POST /api/v1/bot/games/control's data: {"bot",
// "bot_username", "game_id", "finished"}. finished may be missing from
// an abort's answer, whose game the site has deleted.
func DecodeControl(data json.RawMessage) (ControlResult, error) {
	var r ControlResult
	if err := json.Unmarshal(data, &r); err != nil {
		return ControlResult{}, fmt.Errorf("hivegame: the control answer's data: %w", err)
	}
	return r, nil
}

// DecodeDeleted reads DELETE /api/v1/bot/challenge/{nanoid}'s data:
// {"bot", "bot_username", "challenge_id"}, and gives the id deleted.
func DecodeDeleted(data json.RawMessage) (string, error) {
	var id string
	if err := field(data, "challenge_id", &id); err != nil {
		return "", err
	}
	return id, nil
}

// Identity is GET /api/v1/auth/id's data
// (apis/src/api/v1/auth/get_identity_handler.rs).
type Identity struct {
	// Bot is the email of the token's account.
	Bot string `json:"bot"`
	// UserID is the account's UUID; older versions do not send it.
	UserID string `json:"user_id"`
}

// DecodeIdentity reads GET /api/v1/auth/id's data: {"bot": email,
// "user_id": uuid} in newer versions, {"bot": email} before.
func DecodeIdentity(data json.RawMessage) (Identity, error) {
	var id Identity
	if err := json.Unmarshal(data, &id); err != nil {
		return Identity{}, fmt.Errorf("hivegame: the identity answer's data: %w", err)
	}
	return id, nil
}

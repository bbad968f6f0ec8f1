package hivegame_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

var epoch = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)

// TestEnvelopeSuccess reads the data whatever the order of the keys: the
// site writes them sorted, a stand-in may not.
func TestEnvelopeSuccess(t *testing.T) {
	for _, body := range []string{
		`{"data":{"token":"abc"},"success":true}`,
		`{"success":true,"data":{"token":"abc"}}`,
		"{ \"success\" : true ,\n \"data\" : { \"token\" : \"abc\" , \"extra\": [] } }",
	} {
		data, err := hivegame.DecodeEnvelope(200, nil, []byte(body), epoch)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if tok, err := hivegame.DecodeToken(data); err != nil || tok != "abc" {
			t.Errorf("%s: token %q, %v", body, tok, err)
		}
	}
}

// TestEnvelopeErrors decodes each kind of failure the site (and what may
// stand in front of it) answers.
func TestEnvelopeErrors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		status     int
		header     http.Header
		body       string
		message    string
		plain      bool
		auth       bool
		token      bool
		temporary  bool
		retryAfter time.Duration
		text       string // a part of Error()
	}{
		{name: "handled failure, HTTP 200", status: 200, body: bodyNotYourTurn, message: "Not your turn", text: "refused: Not your turn"},
		{name: "handled failure, keys unsorted", status: 200, body: `{"success":false,"data":{"error":"Invalid input"}}`, message: "Invalid input"},
		{name: "older engine text", status: 200, body: `{"data":{"error":"Not a valid game move: This move isn't valid. turn: 5, piece: wA1, current_position: q:16, r:16, target_position: q:15, r:17."},"success":false}`,
			message: "Not a valid game move: This move isn't valid. turn: 5, piece: wA1, current_position: q:16, r:16, target_position: q:15, r:17."},
		{name: "expired token", status: 401, body: bodyExpired, message: "ExpiredSignature", auth: true, token: true, text: "HTTP 401: ExpiredSignature"},
		{name: "malformed token", status: 401, body: `{"data":{"message":"InvalidToken"},"success":false}`, message: "InvalidToken", auth: true, token: true},
		{name: "bad signature", status: 401, body: `{"data":{"message":"InvalidSignature"},"success":false}`, message: "InvalidSignature", auth: true, token: true},
		{name: "no token", status: 401, body: bodyNoToken, message: "No token provided", auth: true},
		{name: "not a bot", status: 401, body: `{"data":{"message":"Not a bot"},"success":false}`, message: "Not a bot", auth: true},
		{name: "user not found", status: 400, body: bodyUserNotFound, message: "User not found", auth: true},
		{name: "actix JSON error", status: 400, body: bodyJSONError, message: bodyJSONError, plain: true, text: "HTTP 400 Bad Request, not the site's JSON answer"},
		{name: "actix content type", status: 400, body: "Content type error", message: "Content type error", plain: true},
		{name: "body too large", status: 413, body: "A payload reached size limit.", message: "A payload reached size limit.", plain: true},
		{name: "HTML fall-through", status: 404, body: bodyHTMLFallthru, plain: true,
			message: `<!DOCTYPE html> <html lang="en"> <head> <title>hivegame.com</title> </head> <body> <main>Page not found</main> </body> </html>`},
		{name: "proxy 502", status: 502, header: http.Header{"Retry-After": {"120"}}, body: bodyProxy502, plain: true, temporary: true, retryAfter: 2 * time.Minute,
			message: "<html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> <hr><center>nginx</center> </body> </html>",
			text:    "(retry after 2m0s)"},
		{name: "proxy 429 with a date", status: 429, header: http.Header{"Retry-After": {"Sun, 01 Jun 2025 10:00:30 GMT"}}, body: "Too Many Requests", message: "Too Many Requests",
			plain: true, temporary: true, retryAfter: 30 * time.Second},
		{name: "429 JSON without Retry-After", status: 429, body: `{"success":false,"data":{"error":"slow down"}}`, message: "slow down", temporary: true},
		{name: "database down", status: 500, body: bodyDBUnavailable, message: "Database connection error", temporary: true},
		{name: "empty 503", status: 503, header: http.Header{"Retry-After": {"soon"}}, plain: true, temporary: true},
		{name: "empty 200", status: 200, plain: true},
		{name: "JSON but not the envelope", status: 200, body: `{"token":"abc"}`, message: `{"token":"abc"}`, plain: true},
		{name: "success not a bool", status: 200, body: `{"success":"true","data":{}}`, message: `{"success":"true","data":{}}`, plain: true},
		{name: "success with an error status", status: 500, body: `{"success":true,"data":{"token":"x"}}`, message: `{"token":"x"}`, temporary: true},
		{name: "error not a string", status: 200, body: `{"success":false,"data":{"error":{"code":7}}}`, message: `{"error":{"code":7}}`},
		{name: "no data", status: 200, body: `{"success":false}`},
		{name: "control characters", status: 200, body: `{"success":false,"data":{"error":"a\u001b[31mb\nc"}}`, message: "a [31mb c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := hivegame.DecodeEnvelope(tc.status, tc.header, []byte(tc.body), epoch)
			var ae *hivegame.APIError
			if !errors.As(err, &ae) {
				t.Fatalf("DecodeEnvelope = %s, %v; want an *APIError", data, err)
			}
			if ae.Status != tc.status || ae.Message != tc.message || ae.Plain != tc.plain || ae.Auth() != tc.auth ||
				ae.TokenRejected() != tc.token || ae.Temporary() != tc.temporary || ae.RetryAfter != tc.retryAfter {
				t.Errorf("got %+v (auth %v, token %v, temporary %v)", *ae, ae.Auth(), ae.TokenRejected(), ae.Temporary())
			}
			if !strings.Contains(ae.Error(), tc.text) {
				t.Errorf("Error() = %q, want it to contain %q", ae.Error(), tc.text)
			}
		})
	}
}

// TestEnvelopeTruncates keeps a long body's text short and valid UTF-8.
func TestEnvelopeTruncates(t *testing.T) {
	long := strings.Repeat("é", 5000)
	for _, body := range []string{long, `{"success":false,"data":{"error":"` + long + `"}}`, "\xff\xfe" + long[:1001]} {
		_, err := hivegame.DecodeEnvelope(502, nil, []byte(body), epoch)
		var ae *hivegame.APIError
		if !errors.As(err, &ae) {
			t.Fatal(err)
		}
		if len(ae.Message) > hivegame.MaxMessage+len("…") || !utf8.ValidString(ae.Message) || !strings.HasSuffix(ae.Message, "…") {
			t.Errorf("message of %d bytes, valid %v: %q...", len(ae.Message), utf8.ValidString(ae.Message), ae.Message[:20])
		}
	}
}

// TestLoginRefusalIsAuth: the token endpoint's 400s are about the
// credentials; its texts differ by version.
func TestLoginRefusalIsAuth(t *testing.T) {
	_, err := hivegame.DecodeEnvelope(400, nil, []byte(bodyBadPassword), epoch)
	var ae *hivegame.APIError
	if !errors.As(err, &ae) || ae.Auth() {
		t.Fatalf("without the client, a 400 with any message but %q is not an auth failure: %v", "User not found", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"120", 2 * time.Minute, true},
		{" 5 ", 5 * time.Second, true},
		{"86400", 24 * time.Hour, true},
		{"86401", hivegame.MaxRetryAfter, true},
		{"99999999999999999999999", hivegame.MaxRetryAfter, true},
		{"Sun, 01 Jun 2025 10:01:00 GMT", time.Minute, true},       // IMF-fixdate
		{"Sunday, 01-Jun-25 10:00:10 GMT", 10 * time.Second, true}, // RFC 850
		{"Sun Jun  1 10:00:03 2025", 3 * time.Second, true},        // asctime
		{"Sat, 31 May 2025 10:00:00 GMT", 0, true},                 // past
		{"Fri, 01 Jun 2125 10:00:00 GMT", hivegame.MaxRetryAfter, true},
		{"", 0, false},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"5s", 0, false},
		{"soon", 0, false},
	} {
		got, ok := hivegame.ParseRetryAfter(tc.in, epoch)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDecodeData(t *testing.T) {
	dec := func(body string) []byte {
		data, err := hivegame.DecodeEnvelope(200, nil, []byte(body), epoch)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if h, err := hivegame.DecodePlayed(dec(bodyPlayed)); err != nil || h != `wS1 ;bG1 -wS1;wA1 wS1/;bQ \bG1;` {
		t.Errorf("DecodePlayed = %q, %v", h, err)
	}
	if id, err := hivegame.DecodeIdentity(dec(bodyIdentity)); err != nil || id.UserID != botID || id.Bot != botMail {
		t.Errorf("DecodeIdentity = %+v, %v", id, err)
	}
	if id, err := hivegame.DecodeIdentity(dec(bodyIdentityOld)); err != nil || id.UserID != "" {
		t.Errorf("DecodeIdentity (older) = %+v, %v", id, err)
	}
	if r, err := hivegame.DecodeControl(dec(bodyControl)); err != nil || r.GameID != "qaTq1dsIi3-i" || !r.Finished {
		t.Errorf("DecodeControl = %+v, %v", r, err)
	}
	if id, err := hivegame.DecodeDeleted(dec(bodyDeleted)); err != nil || id != "H1-jt7m6dZfi" {
		t.Errorf("DecodeDeleted = %q, %v", id, err)
	}
	g, err := hivegame.DecodeAccepted(dec(bodyAccepted))
	if err != nil || g.GameID != "H1-jt7m6dZfi" || g.WhitePlayer.UID != aliceID || g.BlackPlayer.Username != "hivebridge-bot" || g.Turn != 0 || *g.TimeBase != 300 {
		t.Errorf("DecodeAccepted = %+v, %v", g, err)
	}
	for _, bad := range []string{`{}`, `{"token":""}`, `{"token":7}`, `"x"`} {
		if tok, err := hivegame.DecodeToken([]byte(bad)); err == nil {
			t.Errorf("DecodeToken(%s) = %q", bad, tok)
		}
	}
}

package hivegame_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// FuzzDecode feeds an answer (status, Retry-After, body) through every
// decoder of the site's answers: the envelope, then the body's data as
// each endpoint's, and the body as a history string. Nothing may panic;
// an envelope error is an *APIError whose status is the answer's and
// whose message is short, valid UTF-8 and free of control characters; the
// clocks never go below zero nor above what the row stored; a history
// that parses is written back by FormatHistory, and that reads back as
// the same moves and is written the same again; each of its moves is one
// that FormatMove writes for its turn; a time control that reads is
// written and read back the same.
func FuzzDecode(f *testing.F) {
	for _, seed := range []struct {
		status     int
		retryAfter string
		body       string
	}{
		{200, "", gamesBody(rowInProgress, rowFinishedDraw, rowOldNotStarted)},
		{200, "", gamesBody()},
		{200, "", challengesBody(challengeDirect, challengeOwnOld)},
		{200, "", `{"data":{"bot":"b","bot_username":"u","challenge":` + challengeDirect + `},"success":true}`},
		{200, "", bodyPlayed},
		{200, "", bodyAccepted},
		{200, "", bodyIdentity},
		{200, "", bodyControl},
		{200, "", bodyDeleted},
		{200, "", `{"data":{"token":"eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3NDg3NzgwMDB9.c2ln"},"success":true}`},
		{200, "", bodyNotYourTurn},
		{200, "", bodyGameNotFound},
		{401, "", bodyExpired},
		{400, "", bodyUserNotFound},
		{400, "", bodyJSONError},
		{404, "", bodyHTMLFallthru},
		{502, "120", bodyProxy502},
		{429, "Sun, 01 Jun 2025 10:00:30 GMT", "Too Many Requests"},
		{500, "", bodyDBUnavailable},
		{200, "", `wS1 ;bG1 -wS1;wA1 wS1/;bQ \bG1;pass ;wG1 bQ-;`},
		{200, "", "wS1;bG1 -wS1;wA1 wS1/"},
		{200, "", `{"Correspondence":{"mode":"TotalTimeEach","days":20}}`},
		{200, "", `{"data":{"games":[{"nanoid":"x","white_id":"w","black_id":"b","current_player_id":"b","turn":1,"game_status":"InProgress","last_interaction":"2025-06-01T10:00:00Z","black_time_left":-9223372036854775808,"white_time_left":9223372036854775807,"time_mode":"Real Time","time_base":-1,"history":"wS1 ;;"}]},"success":true}`},
	} {
		f.Add(seed.status, seed.retryAfter, []byte(seed.body))
	}
	now := time.Date(2025, 6, 1, 10, 5, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, status int, retryAfter string, body []byte) {
		header := http.Header{}
		if retryAfter != "" {
			header.Set("Retry-After", retryAfter)
		}
		if d, ok := hivegame.ParseRetryAfter(retryAfter, now); d < 0 || d > hivegame.MaxRetryAfter || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v", retryAfter, d, ok)
		}
		data, err := hivegame.DecodeEnvelope(status, header, body, now)
		if err != nil {
			checkAPIError(t, err, status)
			data = body // the decoders must stand any bytes
		}
		checkGames(t, data, now)
		if cs, err := hivegame.DecodeChallenges(data); err == nil {
			for i := range cs {
				_, _ = cs[i].TimeControl()
				_ = cs[i].IsOwn(botID)
			}
		}
		_, _ = hivegame.DecodeChallenge(data)
		_, _ = hivegame.DecodeAccepted(data)
		_, _ = hivegame.DecodePlayed(data)
		_, _ = hivegame.DecodeControl(data)
		_, _ = hivegame.DecodeIdentity(data)
		_, _ = hivegame.DecodeDeleted(data)
		if tok, err := hivegame.DecodeToken(data); err == nil {
			_, _ = hivegame.TokenExpiry(tok)
		}
		_, _ = hivegame.TokenExpiry(string(body))
		checkHistory(t, string(body))
		checkHistory(t, retryAfter)
		checkTimeControl(t, body)
	})
}

func checkAPIError(t *testing.T, err error, status int) {
	var ae *hivegame.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("DecodeEnvelope gave %T %v, want an *APIError", err, err)
	}
	if ae.Status != status {
		t.Fatalf("APIError.Status %d, want %d", ae.Status, status)
	}
	if len(ae.Message) > hivegame.MaxMessage+len("…") || !utf8.ValidString(ae.Message) ||
		strings.ContainsFunc(ae.Message, func(r rune) bool { return unicode.IsControl(r) }) {
		t.Fatalf("APIError.Message %q", ae.Message)
	}
	if ae.RetryAfter < 0 || ae.RetryAfter > hivegame.MaxRetryAfter {
		t.Fatalf("APIError.RetryAfter %v", ae.RetryAfter)
	}
	_ = ae.Error()
	if ae.TokenRejected() && !ae.Auth() {
		t.Fatalf("a refused token that is not an auth failure: %+v", *ae)
	}
}

func checkGames(t *testing.T, data []byte, now time.Time) {
	games, err := hivegame.DecodeGames(data)
	if err != nil {
		return
	}
	for i := range games {
		g := &games[i]
		r, over := g.Result()
		if (!over && r != hivegame.ResultUnknown) || over != g.IsFinished() {
			t.Fatalf("Result %v, %v; IsFinished %v", r, over, g.IsFinished())
		}
		_ = g.IsTurnOf(botID)
		_, _ = g.TimeControl()
		for _, c := range []hivegame.Color{hivegame.White, hivegame.Black} {
			stored := g.WhiteTimeLeft
			if c == hivegame.Black {
				stored = g.BlackTimeLeft
			}
			for _, at := range []time.Time{now, now.Add(-100 * 365 * 24 * time.Hour), now.Add(100 * 365 * 24 * time.Hour)} {
				left := g.TimeLeft(c, at)
				if left < 0 || (stored == nil && left != 0) || (stored != nil && left > time.Duration(max(*stored, 0))) {
					t.Fatalf("TimeLeft(%v) = %v, stored %v", c, left, stored)
				}
			}
		}
		checkHistory(t, g.History)
		if b, err := json.Marshal(g); err != nil || !json.Valid(b) {
			t.Fatalf("a decoded game does not marshal: %v", err)
		}
	}
}

func checkHistory(t *testing.T, s string) {
	moves, err := hivegame.ParseHistory(s)
	if err != nil {
		var he *hivegame.HistoryError
		if !errors.As(err, &he) {
			t.Fatalf("ParseHistory(%q): %T %v", s, err, err)
		}
		return
	}
	out, err := hivegame.FormatHistory(moves)
	if err != nil {
		t.Fatalf("FormatHistory of ParseHistory(%q): %v", s, err)
	}
	back, err := hivegame.ParseHistory(out)
	if err != nil || !slices.Equal(back, moves) {
		t.Fatalf("%q: read %v, written %q, read back %v, %v", s, moves, out, back, err)
	}
	if again, err := hivegame.FormatHistory(back); err != nil || again != out {
		t.Fatalf("%q written again as %q, %v", out, again, err)
	}
	for ply, m := range moves {
		if m.Pass {
			continue
		}
		want := m.Piece
		if ply > 0 {
			want += " " + m.Destination
		}
		if got, err := hivegame.FormatMove(ply, m.Piece, m.Destination); err != nil || got != want {
			t.Fatalf("FormatMove(%d, %q, %q) = %q, %v; want %q", ply, m.Piece, m.Destination, got, err, want)
		}
	}
}

func checkTimeControl(t *testing.T, body []byte) {
	var tc hivegame.BotTimeControl
	if json.Unmarshal(body, &tc) != nil {
		return
	}
	b, err := json.Marshal(tc)
	if err != nil {
		t.Fatalf("%s read as %+v, which does not marshal: %v", body, tc, err)
	}
	var back hivegame.BotTimeControl
	if err := json.Unmarshal(b, &back); err != nil || back != tc {
		t.Fatalf("%s read as %+v, written %s, read back %+v, %v", body, tc, b, back, err)
	}
}

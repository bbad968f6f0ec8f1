package hivegametest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// The injected faults (an extension beyond the site) and the counters.
func TestFaults(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Color: ColorBlack})

	e.s.InjectFault(Fault{Kind: FaultServerError, PathPrefix: "/api/v1/bot/games/"})
	if r := e.do("GET", "/api/v1/auth/id", tok, ""); r.status != 200 {
		t.Errorf("a fault for another path struck: %d", r.status)
	}
	if r := e.do("GET", "/api/v1/bot/games/pending", tok, ""); r.status != 500 {
		t.Errorf("500 fault: %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/api/v1/bot/games/pending", tok, ""); r.status != 200 {
		t.Errorf("after the fault: %d", r.status)
	}

	e.s.InjectFault(Fault{Kind: FaultTooManyRequests, Count: 2, RetryAfter: 2500 * time.Millisecond})
	for range 2 {
		if r := e.do("GET", "/api/v1/bot/games/ongoing", tok, ""); r.status != 429 || r.header.Get("Retry-After") != "3" {
			t.Errorf("429 fault: %d Retry-After %q", r.status, r.header.Get("Retry-After"))
		}
	}

	// A hang holds the request until the client gives up.
	e.s.InjectFault(Fault{Kind: FaultHang})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.ts.URL+"/api/v1/bot/games/ongoing", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, err := e.ts.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("hung request answered: %d", resp.StatusCode)
	} else if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hung request: %v", err)
	}

	// A lost answer: the move is made, the client hears nothing.
	e.s.InjectFault(Fault{Kind: FaultLoseAnswer, PathPrefix: "/api/v1/bot/games/play"})
	req, _ = http.NewRequest("POST", e.ts.URL+"/api/v1/bot/games/play", strings.NewReader(`{"game_id":"`+id+`","piece_pos":"wS1"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, err := e.ts.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("lost answer arrived: %d", resp.StatusCode)
	}
	if g, _ := e.s.Game(id); g.History != "wS1 ;" || g.Plays != 1 {
		t.Errorf("after the lost answer: %+v", g)
	}
	// A client that posts the move again is refused: at ply 1 a bare piece
	// does not even parse.
	if got := e.playErr(tok, id, "wS1"); got != "Invalid move format: expected 'piece position'" {
		t.Errorf("repeated first move: %q", got)
	}
	if n, a := e.s.PlaysApplied(id), e.s.PlayAttempts(id); n != 1 || a != 2 {
		t.Errorf("PlaysApplied %d PlayAttempts %d, want 1 and 2", n, a)
	}
	if n := e.s.Requests("/api/v1/bot/games/pending"); n != 2 {
		t.Errorf("Requests(pending) = %d", n)
	}
	if n := e.s.Requests("/api/v1/bot/games/ongoing"); n != 3 {
		t.Errorf("Requests(ongoing) = %d", n)
	}
}

// Close releases a hung request whose client never gives up.
func TestCloseReleasesHang(t *testing.T) {
	e := newEnv(t)
	e.s.InjectFault(Fault{Kind: FaultHang})
	done := make(chan error, 1)
	go func() {
		resp, err := e.ts.Client().Get(e.ts.URL + "/api/v1/auth/id")
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	for e.s.Requests("/api/v1/auth/id") == 0 {
		time.Sleep(time.Millisecond)
	}
	e.s.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("hung request answered")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not release the hung request")
	}
}

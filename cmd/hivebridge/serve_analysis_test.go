package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// TestServeWebSocketAnalysis: a browser's analysis over the daemon's
// WebSocket. A session sets MultiPV (the daemon allows it up to 32), asks
// for bestmove infinite, and sees each completed depth come as three
// reports of legal moves, lines 3, 2 and 1 (multipv=K), deeper and deeper;
// a stop message, read while the search runs, ends it at once with a
// legal move and ok, and is answered ok in its turn.
func TestServeWebSocketAnalysis(t *testing.T) {
	d := startDaemon(t)
	conn, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.ReadMessage() // info
	const position = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-"
	g := uhptest.Load(t, position)
	wsDo(t, conn, "newgame "+position)
	if got := wsDo(t, conn, "options set MultiPV 3"); got != "MultiPV;int;3;1;1;32\nok\n" {
		t.Fatalf("options set MultiPV 3: %q", got)
	}
	if err := conn.WriteMessage(websocket.TextMessage, []byte("bestmove infinite")); err != nil {
		t.Fatal(err)
	}
	// Reports until depth 4's line 1.
	var reports []string
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	for len(reports) == 0 || !strings.HasSuffix(reports[len(reports)-1], ";multipv=1") || reportDepth(t, reports[len(reports)-1]) < 4 {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("after %q: %v", reports, err)
		}
		reports = append(reports, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	stopped := time.Now()
	if err := conn.WriteMessage(websocket.TextMessage, []byte("stop")); err != nil {
		t.Fatal(err)
	}
	for i, r := range reports {
		p, err := uhp.ParseProgress(r, g)
		if err != nil {
			t.Fatalf("report %d %q: %v", i, r, err)
		}
		if want := 3 - i%3; p.MultiPV != want || p.Depth != i/3+1 {
			t.Errorf("report %d %q: line %d of depth %d, want line %d of depth %d", i, r, p.MultiPV, p.Depth, want, i/3+1)
		}
	}
	var answer []string
	for len(answer) == 0 || answer[len(answer)-1] != "ok" {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("after %q: %v", answer, err)
		}
		answer = append(answer, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	if took := time.Since(stopped); took > 5*time.Second {
		t.Errorf("the search answered %v after stop", took)
	}
	if len(answer) < 2 {
		t.Fatalf("answer %q", answer)
	}
	if m, err := uhp.ParseMove(answer[len(answer)-2], g); err != nil || g.RuleBroken(m) != nil {
		t.Errorf("stopped, it answered %q: %v", answer[len(answer)-2], err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, data, err := conn.ReadMessage(); err != nil || string(data) != "ok\n" {
		t.Errorf("stop in its turn answered %q, %v", data, err)
	}
}

// reportDepth reads the depth of a report MoveString;Depth;Score;....
func reportDepth(t *testing.T, report string) int {
	t.Helper()
	fields := strings.Split(report, ";")
	if len(fields) < 3 {
		t.Fatalf("%q is no report", report)
	}
	d, err := strconv.Atoi(fields[1])
	if err != nil {
		t.Fatalf("%q is no report: %v", report, err)
	}
	return d
}

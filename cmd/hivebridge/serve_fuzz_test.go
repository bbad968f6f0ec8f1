package main

import (
	"bufio"
	"bytes"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The daemon fuzzed whole: arbitrary bytes as a TCP session and as the
// messages of a WebSocket session of a real server with its archive on.
// A panic anywhere in the daemon ends the fuzzing process, so a crasher is
// any input that brings it down; after each input a fresh session must
// still be answered.

// fuzzDaemon starts the daemon the fuzz targets share: a SQLite archive,
// searches cut short so that an input's commands are answered quickly.
func fuzzDaemon(f *testing.F) *testDaemon {
	db := filepath.Join(f.TempDir(), "games.db")
	return startDaemon(f, "--db", db, "--max-search-time", "100ms", "--max-search-depth", "2",
		"--session-max-perft", "2", "--pool-size", "2", "--idle-timeout", "5s", "--max-line", strconv.Itoa(fuzzMaxLine))
}

// fuzzMaxLine is the fuzzed daemon's --max-line.
const fuzzMaxLine = 4096

// fuzzSeeds are sessions a viewer would hold, and some a probe did.
var fuzzSeeds = []string{
	"newgame Base+MLP\nplay wQ\nvalidmoves\nbestmove depth 1\nundo\n",
	"newgame Base;InProgress;White[2];wS1;bS1 -wS1\nbestmove time 00:00:01\nplay forfeit x\xff\n",
	"\xff\n\xc3\x28\nnewgame\xff Base\n",
	"options\noptions set ReportIntermediateBestMoves True\nnewgame Base+M\nbestmove\n",
	"perft 2\nnewgame Base\nperft 2\nhistory\nhelp\nexit\n",
	"newgame remote\npass\nplay wA1\nundo 5\ninfo extra\n",
}

func FuzzServeTCP(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	d := fuzzDaemon(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		conn, err := net.Dial("tcp", d.uhpAddr)
		if err != nil {
			t.Fatalf("the daemon no longer accepts: %v", err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		go conn.Write(input)
		// One ok for the info answer, then one for each command line
		// sent (a blank line has no answer), or fewer if a line ends the
		// session (exit) or the deadline comes.
		want := 1
		lines := bytes.Split(input, []byte("\n"))
		for _, line := range lines[:len(lines)-1] {
			if len(line) > fuzzMaxLine || len(strings.Fields(string(line))) > 0 {
				want++
			}
		}
		r := bufio.NewReader(conn)
		for oks := 0; oks < want; {
			line, err := r.ReadString('\n')
			if err != nil {
				break
			}
			if line == "ok\n" {
				oks++
			}
		}
		conn.Close()
		checkFresh(t, d)
	})
}

func FuzzServeWebSocket(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	d := fuzzDaemon(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		ws, _, err := websocket.DefaultDialer.Dial("ws://"+d.httpAddr+"/uhp", nil)
		if err != nil {
			t.Fatalf("the daemon no longer accepts WebSocket sessions: %v", err)
		}
		defer ws.Close()
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := ws.ReadMessage(); err != nil {
			t.Fatalf("no info answer: %v", err)
		}
		for i, message := range bytes.Split(input, []byte("\n")) {
			kind := websocket.TextMessage
			if i%7 == 6 {
				kind = websocket.BinaryMessage
			}
			if ws.WriteMessage(kind, message) != nil {
				break
			}
			// The answer ends with ok, in its last message; a blank
			// message has none.
			if len(bytes.TrimSpace(message)) == 0 && kind == websocket.TextMessage {
				continue
			}
			ended := false
			for !ended {
				_, data, err := ws.ReadMessage()
				if err != nil {
					ended = true
					break
				}
				if strings.HasSuffix(string(data), "ok\n") {
					break
				}
			}
			if ended {
				break
			}
		}
		ws.Close()
		checkFresh(t, d)
	})
}

// checkFresh fails t unless a fresh session is answered.
func checkFresh(t *testing.T, d *testDaemon) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", d.uhpAddr, 2*time.Second)
	if err != nil {
		t.Fatalf("the daemon no longer accepts: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "id hivebridge") {
		t.Fatalf("a fresh session was answered %q, %v", line, err)
	}
}

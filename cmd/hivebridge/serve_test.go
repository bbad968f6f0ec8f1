package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// daemon is a hivebridge serve running in the test process.
type testDaemon struct {
	uhpAddr, httpAddr string
	hubAddr, jsonAddr string          // when asked for
	stop              func() error    // SIGTERM, in effect: returns serve's error
	goroutines        int             // before it started
	out               *syncbuf.Buffer // its standard output and error: the log
}

// startDaemon runs hivebridge serve with args plus listeners on free ports,
// and returns once it listens on all of them (--hub and --hivejson too,
// when args ask for them).
func startDaemon(t testing.TB, args ...string) *testDaemon {
	t.Helper()
	out := &syncbuf.Buffer{}
	d := &testDaemon{goroutines: runtime.NumGoroutine(), out: out}
	ctx, cancel := context.WithCancel(context.Background())
	root := NewCmdRoot()
	root.SetArgs(append([]string{"serve", "--uhp", "127.0.0.1:0", "--http", "127.0.0.1:0", "--log-level", "disabled", "--db", "none"}, args...))
	root.SetOut(out)
	root.SetErr(out)
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	listening := regexp.MustCompile(`(uhp|http|hub|hivejson) listening on (\S+)`)
	wantHub, wantJSON := slices.Contains(args, "--hub"), slices.Contains(args, "--hivejson")
	started := false
	t.Cleanup(func() {
		if !started {
			cancel()
			t.Logf("serve's output:\n%s", out.String())
		}
	})
	waitFor(t, 10*time.Second, "serve to listen", func() bool {
		select {
		case err := <-done:
			t.Fatalf("serve ended before listening: %v", err)
		default:
		}
		for _, m := range listening.FindAllStringSubmatch(out.String(), -1) {
			switch m[1] {
			case "uhp":
				d.uhpAddr = m[2]
			case "http":
				d.httpAddr = m[2]
			case "hub":
				d.hubAddr = m[2]
			case "hivejson":
				d.jsonAddr = m[2]
			}
		}
		return d.uhpAddr != "" && d.httpAddr != "" && (!wantHub || d.hubAddr != "") && (!wantJSON || d.jsonAddr != "")
	})
	started = true
	stopped := false
	d.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("serve did not stop")
			return nil
		}
	}
	t.Cleanup(func() {
		if err := d.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
		d.checkNoGoroutineLeft(t)
	})
	return d
}

// checkNoGoroutineLeft fails if the daemon left goroutines behind.
func (d *testDaemon) checkNoGoroutineLeft(t testing.TB) {
	t.Helper()
	// The test's own HTTP keep-alive connections are not the daemon's.
	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > d.goroutines+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines left (%d before):\n%s", runtime.NumGoroutine(), d.goroutines, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tcpSession is a UHP client on a TCP connection.
type tcpSession struct {
	conn net.Conn
	in   *bufio.Reader
}

func dialTCP(t *testing.T, addr string) *tcpSession {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &tcpSession{conn: conn, in: bufio.NewReader(conn)}
}

// pairViewers connects two viewers, to the daemons at whiteAddr and
// blackAddr, that ask for remote games, the first with whiteNewgame and the
// second, once the first waits for a partner, with "newgame remote Base",
// so that they are paired. Their answers to newgame are left to read.
func pairViewers(t *testing.T, whiteAddr, blackAddr, whiteNewgame string) (white, black *tcpSession) {
	t.Helper()
	white = dialTCP(t, whiteAddr)
	white.answer(t)
	black = dialTCP(t, blackAddr)
	black.answer(t)
	fmt.Fprintln(white.conn, whiteNewgame)
	waitSeeking(t)
	fmt.Fprintln(black.conn, "newgame remote Base")
	return white, black
}

// answer reads lines up to ok (or the end of the connection).
func (s *tcpSession) answer(t *testing.T) []string {
	t.Helper()
	s.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	var lines []string
	for {
		line, err := s.in.ReadString('\n')
		if err != nil {
			return lines
		}
		line = strings.TrimRight(line, "\n")
		if line == "ok" {
			return lines
		}
		lines = append(lines, line)
	}
}

func (s *tcpSession) do(t *testing.T, command string) []string {
	t.Helper()
	fmt.Fprintln(s.conn, command)
	return s.answer(t)
}

// dialWS opens a WebSocket session and reads its info answer.
func dialWS(t *testing.T, addr string, header http.Header) (*websocket.Conn, *http.Response, error) {
	conn, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/uhp", header)
	if err == nil {
		t.Cleanup(func() { conn.Close() })
	}
	return conn, resp, err
}

func wsDo(t *testing.T, conn *websocket.Conn, command string) string {
	t.Helper()
	if err := conn.WriteMessage(websocket.TextMessage, []byte(command)); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, data, err := conn.ReadMessage()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return string(data)
}

// TestServeConcurrentSessions plays games in many TCP and WebSocket
// sessions at once, each answer checked against the session's own game.
func TestServeConcurrentSessions(t *testing.T) {
	d := startDaemon(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	play := func(do func(string) []string) {
		defer wg.Done()
		g := core.NewGame(core.AllExpansions)
		do("newgame Base+MLP")
		for g.Ply() < 12 && !g.Over() {
			answer := do("bestmove depth 1")
			m, err := uhp.ParseMove(answer[len(answer)-1], g)
			if err == nil {
				err = g.RuleBroken(m)
			}
			if err != nil {
				errs <- fmt.Errorf("bestmove answered %q: %v", answer, err)
				return
			}
			text := uhp.FormatMove(m, g)
			g.Play(m)
			if got := do("play " + text); len(got) != 1 || got[0] != uhptest.MustDescribe(t, g).String() {
				errs <- fmt.Errorf("play %s answered %q", text, got)
				return
			}
		}
	}
	for range 20 {
		s := dialTCP(t, d.uhpAddr)
		s.answer(t) // info
		wg.Add(1)
		go play(func(c string) []string { return s.do(t, c) })
	}
	for range 20 {
		conn, _, err := dialWS(t, d.httpAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		conn.ReadMessage() // info
		wg.Add(1)
		go play(func(c string) []string {
			answer := strings.Split(strings.TrimSuffix(wsDo(t, conn, c), "\n"), "\n")
			if answer[len(answer)-1] != "ok" {
				errs <- fmt.Errorf("%s: WebSocket answer without ok: %q", c, answer)
			}
			return answer[:len(answer)-1]
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestServeWebSocketInfo checks the info answer on connect, one command per
// message and the whole answer in one message.
func TestServeWebSocketInfo(t *testing.T) {
	d := startDaemon(t)
	conn, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, info, _ := conn.ReadMessage()
	if string(info) != "id hivebridge v"+version+"\nMosquito;Ladybug;Pillbug\nok\n" {
		t.Fatalf("info message %q", info)
	}
	if got := wsDo(t, conn, "newgame Base"); got != "Base;NotStarted;White[1]\nok\n" {
		t.Fatalf("newgame answered %q", got)
	}
	if got := wsDo(t, conn, "newgame\nvalidmoves"); got != "err Send one command per message.\nok\n" {
		t.Fatalf("two commands answered %q", got)
	}
	// Two searches of the native backend at depth 2: both counted, with
	// their nodes and the depth of their last iteration.
	for range 2 {
		if got := wsDo(t, conn, "bestmove depth 2"); !strings.HasSuffix(got, "\nok\n") || strings.HasPrefix(got, "err") {
			t.Fatalf("bestmove answered %q", got)
		}
		wsDo(t, conn, "newgame Base")
	}
	resp, err := http.Get("http://" + d.httpAddr + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get("http://" + d.httpAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	for _, series := range []string{"hivebridge_sessions{protocol=\"uhp-ws\"} 1", "hivebridge_commands_total{command=\"newgame\",protocol=\"uhp-ws\"} 3", "hivebridge_command_duration_seconds_bucket", "hivebridge_engine_restarts_total 0", "process_resident_memory_bytes",
		"hivebridge_searches_total{backend=\"native\",outcome=\"move\"} 2", "hivebridge_search_nodes_total{backend=\"native\"} ",
		"hivebridge_search_depth_plies_bucket{backend=\"native\",le=\"1\"} 0", "hivebridge_search_depth_plies_bucket{backend=\"native\",le=\"2\"} 2"} {
		if !strings.Contains(body.String(), series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
}

// midgame is a position where a search takes much of the time it is given
// (all of it while its best move keeps changing).
const midgame = `Base+MLP;InProgress;White[19];wM;bP wM\;wA1 -wM;bB1 bP-;wA2 \wM;bB2 bB1\;wQ wM/;bQ bB2/;wA2 bQ\;bM bQ/;wG1 wA2-;bL bM/;wS1 wG1/;bA1 -bM;wS2 wS1/;bB2 bP\;wA1 -bL;bA1 bB1\;wP \wQ;bA1 wA2\;wA1 bB2\;bL -bM;wA1 /bA1;bL -wS2;wA1 \bM;bA1 wP/;wA2 \bA1;bA2 bB1\;wA3 wS2\;bA3 bA1-;wG2 -wP;bB2 /bA2;wA2 \wS2;bA3 \bA1;wB1 wA3/;bG1 -bA3`

// TestServePoolExhaustion: with one engine and room for one waiting
// search, a third search is refused at once and the waiting one gives up
// at the pool's deadline; each with a clear error.
func TestServePoolExhaustion(t *testing.T) {
	// Each step waits for the one before to have happened: the first
	// search holds the engine for at least 3 s (given 10 s, the native
	// searcher's time management may stop once its move has held, but not
	// before 30% of the time), the second waits for it from then and gives
	// up 1.5 s later, the third comes while the second waits.
	d := startDaemon(t, "--pool-size", "1", "--pool-queue", "1", "--pool-wait", "1500ms")
	sessions := make([]*tcpSession, 3)
	for i := range sessions {
		sessions[i] = dialTCP(t, d.uhpAddr)
		sessions[i].answer(t)
		sessions[i].do(t, "newgame "+midgame) // a search that uses much of its time
	}
	fmt.Fprintln(sessions[0].conn, "bestmove time 00:00:10") // holds the only engine
	waitGoroutines(t, "the first search to hold the only engine", 1, running("translate.(*Native).BestMove"))
	fmt.Fprintln(sessions[1].conn, "bestmove time 00:00:01") // waits, then gives up
	waitGoroutines(t, "the second search to wait for an engine", 1, parkedIn("translate.(*Pool).Acquire"))
	third := sessions[2].do(t, "bestmove time 00:00:01")
	if len(third) != 1 || !strings.Contains(third[0], "err all 1 engines are busy and 1 searches already wait for one") {
		t.Errorf("third search: %q", third)
	}
	second := sessions[1].answer(t)
	if len(second) != 1 || !strings.Contains(second[0], "err no engine came free within 1.5s") {
		t.Errorf("waiting search: %q", second)
	}
	if first := sessions[0].answer(t); len(first) != 1 || strings.HasPrefix(first[0], "err") {
		t.Errorf("first search: %q", first)
	}
	if got := sessions[1].do(t, "bestmove depth 1"); len(got) != 1 || strings.HasPrefix(got[0], "err") {
		t.Errorf("the session goes on: %q", got)
	}
}

// TestServeLimits: idle timeout, oversized input, session limit, each a
// clear error rather than a silent close.
func TestServeLimits(t *testing.T) {
	d := startDaemon(t, "--idle-timeout", "300ms", "--max-line", "100", "--max-sessions", "2", "--session-max-perft", "2")
	a := dialTCP(t, d.uhpAddr)
	a.answer(t)
	a.do(t, "newgame Base")
	if got := a.do(t, "perft 3"); len(got) != 1 || got[0] != "err Unable to calculate perft(3): this engine allows at most 2." {
		t.Errorf("perft past --session-max-perft: %q", got)
	}
	// The published counts from the start of Base: 4, then 96.
	if got := a.do(t, "perft 2"); len(got) != 2 || !strings.HasPrefix(got[0], "depth=1 nodes=4 ") || !strings.HasPrefix(got[1], "depth=2 nodes=96 ") {
		t.Errorf("perft 2: %q", got)
	}
	if got := a.do(t, "newgame "+strings.Repeat("x", 200)); len(got) != 1 || got[0] != "err The command is longer than 100 bytes." {
		t.Errorf("long line: %q", got)
	}
	if got := a.do(t, "newgame"); len(got) != 1 || got[0] != "Base;NotStarted;White[1]" {
		t.Errorf("after a long line the session goes on: %q", got)
	}
	ws, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.ReadMessage()
	third := dialTCP(t, d.uhpAddr)
	if got := third.answer(t); len(got) != 1 || got[0] != "err The server has reached its limit of 2 sessions; try again later." {
		t.Errorf("third session: %q", got)
	}
	if got := a.answer(t); len(got) != 1 || got[0] != "err No command for 300ms: the session is closed." {
		t.Errorf("idle TCP session: %q", got)
	}
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, msg, _ := ws.ReadMessage()
	if string(msg) != "err No command for 300ms: the session is closed.\nok\n" {
		t.Errorf("idle WebSocket session: %q", msg)
	}
	if _, _, err := ws.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Errorf("idle WebSocket session closed with %v", err)
	}
	big, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	big.ReadMessage()
	big.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", 200)))
	big.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := big.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
		t.Errorf("oversized WebSocket message: %v, want close 1009", err)
	}
}

// TestServeTokenAndOrigin: a token on every listener, and browser Origins
// checked.
func TestServeTokenAndOrigin(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600)
	d := startDaemon(t, "--token-file", tokenFile, "--allow-origin", "https://hive.example")
	for first, want := range map[string]string{
		"newgame":     "err Authentication required: send 'auth <token>' as the first line.",
		"auth wrong":  "err Bad token.",
		"auth s3cret": "id hivebridge v" + version,
	} {
		s := dialTCP(t, d.uhpAddr)
		fmt.Fprintln(s.conn, first)
		if got := s.answer(t); len(got) == 0 || got[0] != want {
			t.Errorf("TCP first line %q: %q, want %q", first, got, want)
		}
	}
	// A WebSocket with a wrong token in its request is refused before the
	// upgrade; one without a token sends it as its first message (a
	// browser can set no header, and the address is logged by proxies).
	bad := http.Header{"Authorization": {"Bearer wrong"}}
	if _, resp, err := dialWS(t, d.httpAddr, bad); err == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("WebSocket with a wrong token: %v", err)
	}
	for first, want := range map[string]string{
		"newgame":     "err Authentication required: send 'auth <token>' as the first message.\nok\n",
		"auth wrong":  "err Bad token.\nok\n",
		"auth s3cret": "id hivebridge v" + version + "\nMosquito;Ladybug;Pillbug\nok\n",
	} {
		conn, _, err := dialWS(t, d.httpAddr, nil)
		if err != nil {
			t.Fatalf("WebSocket without token: %v", err)
		}
		if got := wsDo(t, conn, first); got != want {
			t.Errorf("WebSocket first message %q: %q, want %q", first, got, want)
		}
	}
	good := http.Header{"Authorization": {"Bearer s3cret"}}
	if _, _, err := dialWS(t, d.httpAddr, good); err != nil {
		t.Errorf("WebSocket with token: %v", err)
	}
	resp, err := http.Get("http://" + d.httpAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/metrics without token: %v", resp.StatusCode)
	}
	// The viewer page and its files hold no secret: they are served to
	// anyone, and the page asks for the token.
	for path, want := range map[string]int{"/": 200, "/assets/app.js": 200, "/assets/nope.js": 404, "/healthz": 401, "/elsewhere": 401} {
		resp, err := http.Get("http://" + d.httpAddr + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s without token: %d, want %d", path, resp.StatusCode, want)
		}
	}
	for origin, ok := range map[string]bool{
		"https://evil.example": false,
		"https://hive.example": true,
		"http://" + d.httpAddr: true,
	} {
		h := http.Header{"Authorization": {"Bearer s3cret"}, "Origin": {origin}}
		_, resp, err := dialWS(t, d.httpAddr, h)
		if ok != (err == nil) || (!ok && resp.StatusCode != http.StatusForbidden) {
			t.Errorf("Origin %s: %v", origin, err)
		}
	}
}

// TestServeShutdownLetsSearchFinish: a search in flight at shutdown is
// not cut short. The backend is an engine process that answers 300 ms
// late and dies of the SIGINT that stopping a search sends it, so a search
// cut short would be answered err.
func TestServeShutdownLetsSearchFinish(t *testing.T) {
	spec, _ := fakeengine.ArgSpec(t, "uhp", "always-slow")
	d := startDaemon(t, "--grace", "5s", "--backend", spec, "--hub", "127.0.0.1:0")
	tcp := dialTCP(t, d.uhpAddr)
	tcp.answer(t)
	tcp.do(t, "newgame Base")
	ws, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.ReadMessage()
	wsDo(t, ws, "newgame Base")
	fmt.Fprintln(tcp.conn, "bestmove depth 3")
	ws.WriteMessage(websocket.TextMessage, []byte("bestmove depth 3"))
	waitGoroutines(t, "both searches to be in flight", 2, running("translate.(*UHPProcess).BestMove"))
	stopped := make(chan error, 1)
	go func() { stopped <- d.stop() }()
	if got := tcp.answer(t); len(got) != 1 || strings.HasPrefix(got[0], "err") {
		t.Errorf("the TCP session's search in flight at shutdown: %q", got)
	}
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, got, err := ws.ReadMessage(); err != nil || strings.HasPrefix(string(got), "err") {
		t.Errorf("the WebSocket session's search in flight at shutdown: %q, %v", got, err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// TestServeShutdownWithSearchInFlight: the search in progress finishes
// within the grace period and is answered; then every session is closed,
// serve returns, and nothing is left running.
func TestServeShutdownWithSearchInFlight(t *testing.T) {
	d := startDaemon(t, "--grace", "5s")
	busy := dialTCP(t, d.uhpAddr)
	busy.answer(t)
	busy.do(t, "newgame "+midgame)
	idle := dialTCP(t, d.uhpAddr)
	idle.answer(t)
	fmt.Fprintln(busy.conn, "bestmove time 00:00:01")
	waitGoroutines(t, "the search to be under way", 1, running("translate.(*Native).BestMove"))
	start := time.Now()
	stopped := make(chan error, 1)
	go func() { stopped <- d.stop() }()
	if got := busy.answer(t); len(got) != 1 || strings.HasPrefix(got[0], "err") {
		t.Errorf("search in flight: %q", got)
	}
	if err := <-stopped; err != nil {
		t.Errorf("serve: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("shutdown took %v", took)
	}
	// Each client is told why its session ends, then it is closed.
	for _, s := range []*tcpSession{busy, idle} {
		if got := s.answer(t); !slices.Equal(got, []string{"err The server is shutting down: the session is closed."}) {
			t.Errorf("at shutdown a session was told %q", got)
		}
		s.conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := s.in.ReadString('\n'); err == nil {
			t.Errorf("a session was not closed")
		}
	}
	if c, err := net.Dial("tcp", d.uhpAddr); err == nil {
		c.Close()
		t.Errorf("still accepting after shutdown")
	}
}

// TestServeShutdownCutsLongSearch: a search longer than the grace period
// is cancelled when it ends, and still answered with a move.
func TestServeShutdownCutsLongSearch(t *testing.T) {
	d := startDaemon(t, "--grace", "300ms")
	s := dialTCP(t, d.uhpAddr)
	s.answer(t)
	s.do(t, "newgame "+midgame)
	fmt.Fprintln(s.conn, "bestmove time 00:01:00")
	waitGoroutines(t, "the search to be under way", 1, running("translate.(*Native).BestMove"))
	start := time.Now()
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("shutdown took %v", took)
	}
}

// TestServePairViewers: two viewers who start remote games play each
// other, each play answered with the other's reply; a forfeit ends the game
// for both.
func TestServePairViewers(t *testing.T) {
	d := startDaemon(t, "--pair-viewers", "--pair-wait", "5s")
	white, black := pairViewers(t, d.uhpAddr, d.uhpAddr, "newgame remote Base")
	if got := white.answer(t); len(got) != 1 || got[0] != "Base;NotStarted;White[1]" {
		t.Fatalf("white's newgame: %q", got)
	}
	fmt.Fprintln(white.conn, "play wS1")
	if got := black.answer(t); len(got) != 1 || got[0] != "Base;InProgress;Black[1];wS1" {
		t.Fatalf("black's newgame holds white's move: %q", got)
	}
	fmt.Fprintln(black.conn, "play bG1 wS1-")
	if got := white.answer(t); strings.Join(got, "|") != "Base;InProgress;Black[1];wS1|bG1 wS1-|Base;InProgress;White[2];wS1;bG1 wS1-" {
		t.Fatalf("white's play: %q", got)
	}
	fmt.Fprintln(white.conn, "play forfeit lunch")
	if got := white.answer(t); len(got) != 1 || got[0] != "Base;BlackWins;White[2];wS1;bG1 wS1-" {
		t.Fatalf("white's forfeit: %q", got)
	}
	got := black.answer(t)
	if len(got) != 3 || got[0] != "Base;InProgress;White[2];wS1;bG1 wS1-" || got[1] != "Base;BlackWins;White[2];wS1;bG1 wS1-" || !strings.Contains(got[2], "White forfeited: lunch") {
		t.Fatalf("black's play after white's forfeit: %q", got)
	}
	// Nobody to pair with: the backend plays.
	d2 := startDaemon(t, "--pair-viewers", "--pair-wait", "100ms")
	solo := dialTCP(t, d2.uhpAddr)
	solo.answer(t)
	solo.do(t, "options set DefaultBestMoveTime 0.1")
	if got := solo.do(t, "newgame remote Base Black"); len(got) != 1 || !strings.HasPrefix(got[0], "Base;InProgress;Black[1];w") {
		t.Fatalf("unpaired remote game: %q", got)
	}
}

// TestServeHubAndJSON serves Hub and the Choose-Turn JSON API beside UHP:
// a Hub GUI's handshake and search, and a JSON controller's greeting and
// request, each answered with a legal move.
func TestServeHubAndJSON(t *testing.T) {
	d := startDaemon(t, "--hub", "127.0.0.1:0", "--hivejson", "127.0.0.1:0")
	gui := dialTCP(t, d.hubAddr)
	fmt.Fprintln(gui.conn, "hub")
	var lines []string
	gui.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		line, err := gui.in.ReadString('\n')
		if err != nil {
			t.Fatalf("hub handshake: %v after %q", err, lines)
		}
		lines = append(lines, strings.TrimSpace(line))
		if lines[len(lines)-1] == "wait" {
			break
		}
	}
	if !strings.HasPrefix(lines[0], "id name=hivebridge") {
		t.Errorf("hub answered %q", lines)
	}
	fmt.Fprintln(gui.conn, "init")
	if line, _ := gui.in.ReadString('\n'); strings.TrimSpace(line) != "ready" {
		t.Errorf("init answered %q", line)
	}
	fmt.Fprintln(gui.conn, "pos\nlevel depth=1\ngo think")
	for {
		line, err := gui.in.ReadString('\n')
		if err != nil {
			t.Fatalf("go think: %v", err)
		}
		if strings.HasPrefix(line, "done") {
			if !regexp.MustCompile(`^done move=w[SBGA]1\b`).MatchString(line) {
				t.Errorf("done line %q", line)
			}
			break
		}
	}

	conn, err := net.Dial("tcp", d.jsonAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := hivejson.NewClient(conn, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hello, err := client.Greet(ctx, "1")
	if err != nil || hello.Name != "hivebridge" {
		t.Fatalf("greetings: %+v %v", hello, err)
	}
	g := core.NewGame(core.AllExpansions)
	g.Play(core.MakeMove(mustPiece(t, "wS1"), core.Origin))
	req, err := hivejson.NewChooseTurnRequest("2", "game", time.Now().UnixMilli(), g)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.ChooseTurn(ctx, &req)
	if err != nil {
		t.Fatalf("choose turn: %v", err)
	}
	m, err := hivejson.MoveOf(resp.Turn, g)
	if err != nil {
		t.Fatalf("the answer is no legal move: %+v: %v", resp, err)
	}
	if m.Piece().Color() != core.Black {
		t.Errorf("answered a move of %s", m.Piece())
	}
}

func mustPiece(t *testing.T, name string) core.Piece {
	p, err := uhp.ParsePiece(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServeWebSocketLiveThinking: with ReportIntermediateBestMoves on, the
// lines bestmove reports while it searches reach the WebSocket as messages
// of their own, before the last message, which ends with ok and whose last
// move is the answer; with the option off, the answer is one message as
// before.
func TestServeWebSocketLiveThinking(t *testing.T) {
	d := startDaemon(t)
	conn, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.ReadMessage() // info
	const position = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-"
	gs, err := uhp.ParseGameString(position)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gs.Load()
	if err != nil {
		t.Fatal(err)
	}
	wsDo(t, conn, "newgame "+position)
	// readAnswer reads messages up to the one that ends with ok.
	readAnswer := func() []string {
		var messages []string
		conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				t.Fatalf("after %q: %v", messages, err)
			}
			messages = append(messages, string(data))
			if strings.HasSuffix(string(data), "\nok\n") || string(data) == "ok\n" {
				return messages
			}
		}
	}
	// legalMove checks a line of bestmove's answer, a bare MoveString or a
	// report "MoveString;Depth;Score;PV...", and returns its move.
	legalMove := func(line string) string {
		text, _, _ := strings.Cut(line, ";")
		m, err := uhp.ParseMove(text, g)
		if err == nil {
			err = g.RuleBroken(m)
		}
		if err != nil {
			t.Fatalf("bestmove line %q: %v", line, err)
		}
		return text
	}

	if got := wsDo(t, conn, "options set ReportIntermediateBestMoves True"); got != "ReportIntermediateBestMoves;bool;True;False\nok\n" {
		t.Fatalf("options set: %q", got)
	}
	conn.WriteMessage(websocket.TextMessage, []byte("bestmove depth 3"))
	messages := readAnswer()
	if len(messages) < 2 {
		t.Fatalf("bestmove with intermediate reports came as %d message: %q", len(messages), messages)
	}
	var lines []string
	for i, msg := range messages {
		msgLines := strings.Split(strings.TrimSuffix(msg, "\n"), "\n")
		if i < len(messages)-1 && slices.Contains(msgLines, "ok") {
			t.Fatalf("message %d of %q holds ok before the answer ends", i, messages)
		}
		lines = append(lines, msgLines...)
	}
	lines = lines[:len(lines)-1] // ok
	for _, line := range lines {
		legalMove(line)
	}
	answered := legalMove(lines[len(lines)-1])

	// The answer is the session's: it plays.
	if got := wsDo(t, conn, "play "+answered); !strings.HasPrefix(got, "Base+MLP;InProgress;Black[4];") {
		t.Fatalf("play %s: %q", answered, got)
	}
	m, _ := uhp.ParseMove(answered, g)
	g.Play(m)

	wsDo(t, conn, "options set ReportIntermediateBestMoves False")
	conn.WriteMessage(websocket.TextMessage, []byte("bestmove depth 3"))
	messages = readAnswer()
	if len(messages) != 1 {
		t.Fatalf("bestmove without reports came as %d messages: %q", len(messages), messages)
	}
	lines = strings.Split(strings.TrimSuffix(messages[0], "\n"), "\n")
	if len(lines) != 2 || strings.Contains(lines[0], ";") {
		t.Fatalf("bestmove without reports answered %q", messages[0])
	}
	legalMove(lines[0])
	// Nothing else is left on the wire: the next message answers the next
	// command.
	if got := wsDo(t, conn, "undo"); got != position+"\nok\n" {
		t.Fatalf("undo answered %q", got)
	}
}

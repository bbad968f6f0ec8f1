package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The attacks of the adversarial probe (issue "Nothing a client sends
// takes the daemon down"), each performed as described; after each the
// daemon still runs and a fresh session is answered within a bound.

// checkAlive fails t unless a fresh UHP session is answered within a few
// seconds, a search included.
func checkAlive(t *testing.T, d *testDaemon) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", d.uhpAddr, time.Second)
	if err != nil {
		t.Fatalf("the daemon no longer accepts: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	s := &tcpSession{conn: conn, in: bufio.NewReader(conn)}
	if info := s.answer(t); len(info) == 0 || !strings.HasPrefix(info[0], "id hivebridge") {
		t.Fatalf("a fresh session was answered %q", info)
	}
	s.do(t, "newgame Base")
	if got := s.do(t, "bestmove depth 1"); len(got) != 1 || strings.HasPrefix(got[0], "err") {
		t.Fatalf("a fresh session's search was answered %q", got)
	}
}

// TestAttackInvalidUTF8 sends command words that are not UTF-8 (the
// Prometheus client panics on such a label) on every listener.
func TestAttackInvalidUTF8(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	d := startDaemon(t, "--hub", "127.0.0.1:0", "--hivejson", "127.0.0.1:0", "--db", db)
	// A game in progress on another session throughout: none is lost.
	kept := dialTCP(t, d.uhpAddr)
	kept.answer(t)
	kept.do(t, "newgame Base")
	kept.do(t, "play wS1")
	s := dialTCP(t, d.uhpAddr)
	s.answer(t)
	for _, command := range []string{"\xff", "newgame\xff", "play forfeit x\xff", "\xc3\x28 \xa0\xa1"} {
		got := s.do(t, command)
		if len(got) != 1 || got[0] != "err The command is not valid UTF-8." {
			t.Errorf("UHP over TCP: %q answered %q", command, got)
		}
	}
	checkAlive(t, d)

	ws, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.ReadMessage() // info
	for _, command := range []string{"\xff", "play wA1\xff"} {
		// gorilla/websocket sends a text message as given, valid or not,
		// as an attacker's client would.
		if got := wsDo(t, ws, command); got != "err The command is not valid UTF-8.\nok\n" {
			t.Errorf("WebSocket: %q answered %q", command, got)
		}
	}
	if got := wsDo(t, ws, "newgame Base"); got != "Base;NotStarted;White[1]\nok\n" {
		t.Errorf("after bad bytes the WebSocket session answered %q", got)
	}

	hub, err := net.Dial("tcp", d.hubAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	fmt.Fprint(hub, "\xff\nping\n")
	hub.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(hub)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("Hub: no pong after a line of bad bytes: %v", err)
		}
		if !utf8.ValidString(line) {
			t.Errorf("Hub echoed bad bytes: %q", line)
		}
		if strings.TrimSpace(line) == "pong" {
			break
		}
	}

	// The JSON API: a frame whose text is not UTF-8 is answered (or
	// refused) and the module goes on.
	jc, err := net.Dial("tcp", d.jsonAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer jc.Close()
	body := "{\"type\":\"Greetings\",\"id\":\"\xff\"}"
	fmt.Fprintf(jc, "%d\n%s", len(body), body)
	jc.SetReadDeadline(time.Now().Add(5 * time.Second))
	reply := make([]byte, 4096)
	n, _ := jc.Read(reply)
	if n == 0 || !utf8.Valid(reply[:n]) {
		t.Errorf("JSON: a frame of bad bytes was answered %q", reply[:n])
	}
	checkAlive(t, d)
	kept.do(t, "play bS1 -wS1")
	kept.do(t, "validmoves") // its answer proves the move before it kept
	if games, moves := archivedMoves(t, db); games < 1 || moves < 2 {
		t.Errorf("the archive holds %d games and %d moves, want the game in progress with its 2 moves", games, moves)
	}
	if got := metric(t, d.httpAddr, `hivebridge_commands_total{command="other",protocol="uhp-tcp"}`); got < 1 {
		t.Errorf(`commands_total{command="other"} = %v, want the bad words counted there`, got)
	}
}

// TestAttackLabelsDoNotGrow sends 300 distinct unknown commands: the
// metrics keep one "other" series for all of them.
func TestAttackLabelsDoNotGrow(t *testing.T) {
	d := startDaemon(t)
	s := dialTCP(t, d.uhpAddr)
	s.answer(t)
	before := metricsSize(t, d.httpAddr)
	for i := range 300 {
		s.do(t, fmt.Sprintf("x%d%s", i, strings.Repeat("y", 1000)))
	}
	after := metricsSize(t, d.httpAddr)
	if after > before+1000 {
		t.Errorf("/metrics grew from %d to %d bytes with 300 unknown commands", before, after)
	}
	if got := metric(t, d.httpAddr, `hivebridge_commands_total{command="other",protocol="uhp-tcp"}`); got != 300 {
		t.Errorf(`commands_total{command="other"} = %v, want 300`, got)
	}
}

func metricsSize(t *testing.T, addr string) int {
	t.Helper()
	body := httpGet(t, addr, "/metrics")
	// The Go collector's figures change length from one read to the
	// next; the daemon's own series are what may not grow.
	n := 0
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "hivebridge_") {
			n += len(line) + 1
		}
	}
	return n
}

// tokenDaemon starts a daemon that requires the token "s3cret".
func tokenDaemon(t *testing.T, args ...string) *testDaemon {
	t.Helper()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return startDaemon(t, append([]string{"--token-file", token}, args...)...)
}

// TestAttackMemoryBeforeAuth sends an endless first line to a daemon with
// a token: it is refused once it passes --max-line, not kept.
func TestAttackMemoryBeforeAuth(t *testing.T) {
	d := tokenDaemon(t, "--max-line", "4096")
	conn, err := net.Dial("tcp", d.uhpAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		chunk := []byte("auth " + strings.Repeat("x", 64*1024))
		for range 1000 { // 64 MB, unless refused first
			if _, err := conn.Write(chunk); err != nil {
				return
			}
		}
	}()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if line != "err The auth line is longer than 4096 bytes.\n" {
		t.Errorf("an endless auth line was answered %q, %v", line, err)
	}
	conn.Close()
	good := dialTCP(t, d.uhpAddr)
	fmt.Fprintln(good.conn, "auth s3cret")
	if info := good.answer(t); len(info) == 0 || !strings.HasPrefix(info[0], "id ") {
		t.Errorf("the right token was answered %q", info)
	}
}

// TestAttackSlotsBeforeAuth: clients trickling an auth line a byte at a
// time neither hold session slots nor outlast --auth-timeout, and a client
// with the token gets in meanwhile.
func TestAttackSlotsBeforeAuth(t *testing.T) {
	d := tokenDaemon(t, "--max-sessions", "2", "--auth-timeout", "1500ms", "--max-unauthenticated", "8")
	var wg sync.WaitGroup
	ended := make(chan time.Duration, 5)
	for range 5 {
		conn, err := net.Dial("tcp", d.uhpAddr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			go func() {
				for _, b := range []byte("auth " + strings.Repeat("x", 100)) {
					if _, err := conn.Write([]byte{b}); err != nil {
						return
					}
					time.Sleep(100 * time.Millisecond) // the trickle is the attack: each byte pushes back an idle timeout
				}
			}()
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			io.ReadAll(conn)
			ended <- time.Since(start)
		}()
	}
	// The right token gets in while the daemon reads the tricklers' lines.
	waitGoroutines(t, "the daemon to read the 5 tricklers' auth lines", 5, running("daemon.readAuthLine"))
	for range 2 {
		good := dialTCP(t, d.uhpAddr)
		start := time.Now()
		fmt.Fprintln(good.conn, "auth s3cret")
		if info := good.answer(t); len(info) == 0 || !strings.HasPrefix(info[0], "id ") || time.Since(start) > 2*time.Second {
			t.Errorf("the right token, beside 5 tricklers, was answered %q after %v", info, time.Since(start))
		}
	}
	wg.Wait()
	close(ended)
	for took := range ended {
		if took > 4*time.Second {
			t.Errorf("a trickling client was held %v, past --auth-timeout 1.5s", took)
		}
	}
	req, _ := http.NewRequest("GET", "http://"+d.httpAddr+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `hivebridge_failed_logins_total{protocol="uhp-tcp"} 5`+"\n") {
		t.Errorf("failed logins not counted as 5:\n%s", body)
	}
}

// TestAttackUnauthenticatedLimit: beyond --max-unauthenticated, a
// connection that has not logged in is refused at once.
func TestAttackUnauthenticatedLimit(t *testing.T) {
	d := tokenDaemon(t, "--max-unauthenticated", "2")
	for range 2 {
		conn, err := net.Dial("tcp", d.uhpAddr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
	}
	waitGoroutines(t, "the daemon to wait for both connections' auth lines", 2, running("daemon.readAuthLine"))
	if got := refusedLine(t, d.uhpAddr); got != "err Too many connections are waiting to log in (2); try again later.\nok\n" {
		t.Errorf("a third silent connection was answered %q", got)
	}
}

// TestAttackBearerScheme: the scheme of Authorization is case-insensitive
// (RFC 7235, 2.1).
func TestAttackBearerScheme(t *testing.T) {
	d := tokenDaemon(t)
	for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER  s3cret"} {
		req, _ := http.NewRequest("GET", "http://"+d.httpAddr+"/healthz", nil)
		req.Header.Set("Authorization", auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("Authorization: %s answered %d", auth, resp.StatusCode)
		}
	}
}

// TestAttackDisconnectMidSearch: with one engine in the pool, a client
// that asks for an endless search (or perft) and leaves frees the engine
// at once, on every protocol.
func TestAttackDisconnectMidSearch(t *testing.T) {
	d := startDaemon(t, "--pool-size", "1", "--pool-wait", "3s", "--hivejson", "127.0.0.1:0", "--session-max-perft", "7")
	// Each client leaves once its search holds the engine.
	searching := func() {
		t.Helper()
		waitGoroutines(t, "the search to be under way", 1, running("translate.(*Native).BestMove"))
	}
	// uhpSearch leaves a UHP session once its command's search is under way.
	uhpSearch := func(command string) func() {
		return func() {
			s := dialTCP(t, d.uhpAddr)
			s.answer(t)
			s.do(t, "newgame "+midgame)
			fmt.Fprintln(s.conn, command)
			searching()
			s.conn.Close()
		}
	}
	leave := map[string]func(){
		"uhp bestmove time":  uhpSearch("bestmove time 99999:00:00"),
		"uhp bestmove depth": uhpSearch("bestmove depth 200"),
		"uhp perft": func() {
			s := dialTCP(t, d.uhpAddr)
			s.answer(t)
			s.do(t, "newgame "+midgame)
			fmt.Fprintln(s.conn, "perft 7")
			// Its first depth is answered once it holds the engine.
			if line, err := s.in.ReadString('\n'); !strings.HasPrefix(line, "depth=1 ") {
				t.Fatalf("perft 7 began with %q, %v", line, err)
			}
			s.conn.Close()
		},
		"websocket bestmove": func() {
			ws, _, err := dialWS(t, d.httpAddr, nil)
			if err != nil {
				t.Fatal(err)
			}
			ws.ReadMessage()
			wsDo(t, ws, "newgame "+midgame)
			ws.WriteMessage(websocket.TextMessage, []byte("bestmove time 99999:00:00"))
			searching()
			ws.Close()
		},
		"json an hour away": func() {
			conn, err := net.Dial("tcp", d.jsonAddr)
			if err != nil {
				t.Fatal(err)
			}
			gs, err := uhp.ParseGameString(midgame)
			if err != nil {
				t.Fatal(err)
			}
			g, err := gs.Load()
			if err != nil {
				t.Fatal(err)
			}
			req, err := hivejson.NewChooseTurnRequest("r", "g", time.Now().UnixMilli(), g)
			if err != nil {
				t.Fatal(err)
			}
			hour := time.Now().Add(time.Hour).UnixMilli()
			req.ResponseDeadline = &hour
			ctx, cancel := context.WithCancel(context.Background())
			asked := make(chan struct{})
			go func() {
				defer close(asked)
				hivejson.NewClient(conn, 0).ChooseTurn(ctx, &req)
			}()
			searching()
			cancel()
			<-asked
			conn.Close()
		},
	}
	for name, attack := range leave {
		t.Log(name)
		attack()
		start := time.Now()
		checkAlive(t, d)
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s: after the client left, a fresh search waited %v", name, took)
		}
	}
}

// TestAttackSearchCaps: a search beyond --max-search-time or
// --max-search-depth is cut to them.
func TestAttackSearchCaps(t *testing.T) {
	d := startDaemon(t, "--max-search-time", "1s", "--max-search-depth", "3", "--session-max-perft", "9")
	s := dialTCP(t, d.uhpAddr)
	s.answer(t)
	s.do(t, "newgame "+midgame)
	for _, command := range []string{"bestmove time 99999:00:00", "bestmove depth 200", "bestmove"} {
		start := time.Now()
		got := s.do(t, command)
		if len(got) != 1 || strings.HasPrefix(got[0], "err") || time.Since(start) > 3*time.Second {
			t.Errorf("%s answered %q after %v; want a move within the 1 s cap", command, got, time.Since(start))
		}
	}
	start := time.Now()
	got := s.do(t, "perft 9")
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "err Unable to calculate perft(") || time.Since(start) > 3*time.Second {
		t.Errorf("perft 9 answered %q after %v; want it stopped at the 1 s cap", got, time.Since(start))
	}
}

// TestAttackHTTPConnections: idle HTTP connections beyond --max-http-conns
// are closed at once, and the daemon serves on.
func TestAttackHTTPConnections(t *testing.T) {
	d := startDaemon(t, "--max-http-conns", "4")
	var conns []net.Conn
	for range 12 {
		c, err := net.Dial("tcp", d.httpAddr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	closed := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF || errors.Is(err, syscall.ECONNRESET) {
			closed++
		}
	}
	if closed != 8 {
		t.Errorf("%d of 12 idle HTTP connections closed at once, want 8 (--max-http-conns 4)", closed)
	}
	for _, c := range conns {
		c.Close()
	}
	waitFor(t, 5*time.Second, "an HTTP answer once the idle connections closed", func() bool {
		return healthzStatus(d.httpAddr, "127.0.0.1") == http.StatusOK
	})
}

// healthzStatus GETs /healthz with the given Host header.
func healthzStatus(addr, host string) int {
	req, _ := http.NewRequest("GET", "http://"+addr+"/healthz", nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestAttackDNSRebinding: a page of another domain that resolves to
// 127.0.0.1 sends its own Host, and is refused; loopback names and
// --public-host ones are served.
func TestAttackDNSRebinding(t *testing.T) {
	d := startDaemon(t, "--public-host", "hive.example.org")
	_, port, _ := net.SplitHostPort(d.httpAddr)
	for host, want := range map[string]int{
		"127.0.0.1:" + port:        200,
		"localhost:" + port:        200,
		"[::1]:" + port:            200,
		"app.localhost":            200,
		"hive.example.org:" + port: 200,
		"HIVE.example.org.":        200,
		"evil.example:" + port:     421,
		"127.0.0.1.evil.example":   421,
		"192.168.1.10:" + port:     421,
	} {
		if got := healthzStatus(d.httpAddr, host); got != want {
			t.Errorf("Host %s: %d, want %d", host, got, want)
		}
	}
	h := http.Header{"Origin": {"http://evil.example:" + port}}
	dialer := websocket.Dialer{NetDial: func(network, _ string) (net.Conn, error) { return net.Dial(network, d.httpAddr) }}
	if _, resp, err := dialer.Dial("ws://evil.example:"+port+"/uhp", h); err == nil || resp == nil || resp.StatusCode != 421 {
		t.Errorf("a rebound page's WebSocket: %v", err)
	}
}

// TestAttackLimitsOfZero: limits that would refuse or drop everyone are
// refused at start.
func TestAttackLimitsOfZero(t *testing.T) {
	for _, args := range [][]string{
		{"--idle-timeout", "0"}, {"--max-sessions", "0"}, {"--max-unauthenticated", "0"},
		{"--auth-timeout", "0"}, {"--max-search-time", "0"}, {"--max-search-depth", "0"}, {"--max-http-conns", "-1"},
	} {
		root := NewCmdRoot()
		out := &syncbuf.Buffer{}
		root.SetOut(out)
		root.SetErr(out)
		root.SetArgs(append([]string{"serve", "--uhp", "127.0.0.1:0", "--db", "none", "--log-level", "disabled"}, args...))
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("serve %s: %v, want it refused", strings.Join(args, " "), err)
		}
	}
}

// TestAttackExposedWithoutToken: a listener beyond loopback without a
// token is warned of.
func TestAttackExposedWithoutToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := NewCmdRoot()
	out := &syncbuf.Buffer{}
	root.SetOut(out)
	root.SetErr(out)
	root.SetArgs([]string{"serve", "--uhp", "0.0.0.0:0", "--db", "none"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	waitFor(t, 10*time.Second, "serve to listen", func() bool { return strings.Contains(out.String(), "listening on") })
	cancel()
	<-done
	if !strings.Contains(out.String(), "without --token-file") {
		t.Errorf("no warning of a listener beyond loopback without a token:\n%s", out.String())
	}
}

// TestAttackOutOfFileDescriptors runs the daemon with few file
// descriptors left and connects until accept fails: it goes on serving
// once the connections close, and never stops.
func TestAttackOutOfFileDescriptors(t *testing.T) {
	d := startDaemon(t, "--log-level", "warn") // its failed accepts are logged
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skip(err)
	}
	// A descriptor kept in reserve, freed once the others are all taken,
	// makes room for one more connection, which accept then has none for.
	reserve, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer reserve.Close()
	fds, _ := os.ReadDir("/proc/self/fd")
	low := old
	low.Cur = uint64(len(fds) + 24)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip(err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer restore() // should the test fail first: the tests after it need their descriptors
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 40 {
		c, err := net.DialTimeout("tcp", d.uhpAddr, 200*time.Millisecond)
		if err != nil {
			continue
		}
		conns = append(conns, c)
	}
	reserve.Close()
	if c, err := net.DialTimeout("tcp", d.uhpAddr, 200*time.Millisecond); err == nil {
		conns = append(conns, c)
	}
	waitFor(t, 10*time.Second, "the daemon's accept to fail", func() bool {
		return strings.Contains(d.out.String(), "accept failed")
	})
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	restore()
	checkAlive(t, d)
}

// TestAttackEngineLeftAtFailedStart: a backend started before a later
// start-up error (a port in use) is stopped.
func TestAttackEngineLeftAtFailedStart(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	spec, _ := fakeengine.ArgSpec(t, "uhp", "native") // its Cleanup checks the fake is gone
	root := NewCmdRoot()
	out := &syncbuf.Buffer{}
	root.SetOut(out)
	root.SetErr(out)
	root.SetArgs([]string{"serve", "--uhp", busy.Addr().String(), "--db", "none", "--log-level", "disabled", "--backend", spec})
	if err := root.Execute(); err == nil {
		t.Fatal("serve on a port in use started")
	}
}

// TestAttackEngineOutlivesKilledDaemon: a uhp: engine dies with a daemon
// killed by SIGKILL, which leaves it no chance to stop its engines.
func TestAttackEngineOutlivesKilledDaemon(t *testing.T) {
	// An engine that does not notice its input end: only the kernel's
	// signal at its parent's death stops it. ArgSpec's Cleanup checks it
	// is gone.
	spec, dir := fakeengine.ArgSpec(t, "uhp", "stays")
	cmd := exec.Command(os.Args[0], "uhp", "--backend", spec)
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The info answer comes once the backend has started.
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.HasPrefix(line, "id ") {
		t.Fatalf("no info answer: %q, %v", line, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) == 0 {
		t.Fatal("the fake engine did not start")
	}
	cmd.Process.Kill()
	cmd.Wait()
}

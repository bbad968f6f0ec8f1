package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/protocols/hivejson"
)

// from dials from another loopback address, 127.0.0.2, which --allow-from
// 127.0.0.1 does not list.
func from() *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 5 * time.Second}
}

// dialRefused dials addr from 127.0.0.2, which the lists of these tests
// leave out, giving the server 10 seconds to say why it refuses.
func dialRefused(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := from().Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	return conn
}

// refusedLine dials addr from 127.0.0.2 and returns what the server says
// before it closes the connection.
func refusedLine(t *testing.T, addr string) string {
	t.Helper()
	conn := dialRefused(t, addr)
	defer conn.Close()
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("%s: %v after %q; want the connection closed", addr, err, b)
	}
	return string(b)
}

// refusedFrame dials a JSON listener from 127.0.0.2 and returns the error
// frame it answers with.
func refusedFrame(t *testing.T, addr string) string {
	t.Helper()
	conn := dialRefused(t, addr)
	defer conn.Close()
	return readErrorFrame(t, conn)
}

func readErrorFrame(t *testing.T, conn net.Conn) string {
	t.Helper()
	raw, err := hivejson.NewDecoder(0).ReadFrame(conn)
	if err != nil {
		t.Fatalf("no frame: %v", err)
	}
	msg, err := hivejson.ParseMessage(raw)
	e, ok := msg.(*hivejson.ErrorFrame)
	if err != nil || !ok {
		t.Fatalf("answered %s, want an error frame", raw)
	}
	return e.Message
}

// TestServeAllowFrom refuses, on every listener, a client --allow-from
// does not list, with the protocol's own error, and counts each refusal;
// a listed client is served.
func TestServeAllowFrom(t *testing.T) {
	d := startDaemon(t, "--hub", "127.0.0.1:0", "--hivejson", "127.0.0.1:0", "--allow-from", "127.0.0.1,::1")
	const refusal = "Connections from 127.0.0.2 are not allowed (--allow-from)."
	if got := refusedLine(t, d.uhpAddr); got != "err "+refusal+"\nok\n" {
		t.Errorf("UHP over TCP: %q", got)
	}
	if got := refusedLine(t, d.hubAddr); got != `error message="`+refusal+`"`+"\n" {
		t.Errorf("Hub over TCP: %q", got)
	}
	if got := refusedFrame(t, d.jsonAddr); got != refusal {
		t.Errorf("JSON: %q", got)
	}
	ws := websocket.Dialer{NetDialContext: from().DialContext, HandshakeTimeout: 5 * time.Second}
	if _, resp, err := ws.Dial("ws://"+d.httpAddr+"/uhp", nil); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("WebSocket: %v, want 403", err)
	}
	client := &http.Client{Transport: &http.Transport{DialContext: from().DialContext}, Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + d.httpAddr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || strings.TrimSpace(string(body)) != refusal {
		t.Errorf("/healthz: %d %q", resp.StatusCode, body)
	}
	// From 127.0.0.1, listed: served, and the five refusals counted.
	s := dialTCP(t, d.uhpAddr)
	if got := s.answer(t); len(got) == 0 || got[0] != "id hivebridge v"+version {
		t.Errorf("listed client: %q", got)
	}
	if got := metric(t, d.httpAddr, `hivebridge_refusals_total{reason="allow_from"}`); got != 5 {
		t.Errorf("allow_from refusals counted %v, want 5", got)
	}
}

// TestHivejsonLimits gives hivebridge hivejson the limits serve has: an
// address list, a connection limit, a frame size limit and an idle
// timeout, each refusal an error frame.
func TestHivejsonLimits(t *testing.T) {
	addr := startHivejson(t, "--allow-from", "127.0.0.1", "--max-sessions", "1", "--max-frame", "200", "--idle-timeout", "500ms")
	if got := refusedFrame(t, addr); got != "Connections from 127.0.0.2 are not allowed (--allow-from)." {
		t.Errorf("unlisted client: %q", got)
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := hivejson.NewClient(conn, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := client.Greet(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	second, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	second.SetReadDeadline(time.Now().Add(10 * time.Second))
	if got := readErrorFrame(t, second); got != "hivejson: the module has reached its limit of 1 connections; try again later" {
		t.Errorf("second connection: %q", got)
	}
	io.WriteString(conn, "300#"+strings.Repeat(" ", 300))
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if got := readErrorFrame(t, conn); !regexp.MustCompile(`^hivejson: frame length is over the limit .*the limit is 200 UTF-16 code units$`).MatchString(got) {
		t.Errorf("long frame: %q", got)
	}
	start := time.Now()
	if _, err := conn.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("idle connection: %v, want it closed", err)
	}
	if idle := time.Since(start); idle > 5*time.Second {
		t.Errorf("closed after %v idle", idle)
	}
}

// TestServeSessionOptions: a UHP or Hub session sets the Threads and
// HashMB of the engines that serve its searches, up to the operator's
// bounds; above them it gets an error, and its searches go on.
func TestServeSessionOptions(t *testing.T) {
	d := startDaemon(t, "--hub", "127.0.0.1:0", "--pool-hash-mb", "8", "--session-max-threads", "2", "--session-max-hash", "32", "--pool-size", "1")
	s := dialTCP(t, d.uhpAddr)
	s.answer(t)
	if got := strings.Join(s.do(t, "options get HashMB"), "|"); got != "HashMB;int;8;8;1;32" {
		t.Errorf("options get HashMB: %q; want the pool's 8, up to 32", got)
	}
	if got := strings.Join(s.do(t, "options get Threads"), "|"); got != "Threads;int;1;1;1;2" {
		t.Errorf("options get Threads: %q", got)
	}
	for _, c := range [][2]string{
		{"options set HashMB 64", `err Unable to set option: option HashMB takes a whole number from 1 to 32, not "64".`},
		{"options set Threads 3", `err Unable to set option: option Threads takes a whole number from 1 to 2, not "3".`},
		{"options set HashMB 32", "HashMB;int;32;8;1;32"},
		{"options set Threads 2", "Threads;int;2;1;1;2"},
		{"newgame Base", "Base;NotStarted;White[1]"},
		{"bestmove depth 1", "wS1"}, // or any placement of White's first turn
		{"options set HashMB 0", `err Unable to set option: option HashMB takes a whole number from 1 to 32, not "0".`},
		{"options get RepetitionDraw", "RepetitionDraw;bool;True;True"},
	} {
		command, want := c[0], c[1]
		if got := strings.Join(s.do(t, command), "|"); got != want && !(command == "bestmove depth 1" && regexp.MustCompile(`^w[SGBALMP]1$`).MatchString(got)) {
			t.Errorf("%s: %q, want %q", command, got, want)
		}
	}

	gui := dialTCP(t, d.hubAddr)
	fmt.Fprintln(gui.conn, "hub")
	var params []string
	gui.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		line, err := gui.in.ReadString('\n')
		if err != nil {
			t.Fatalf("hub handshake: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "wait" {
			break
		}
		if strings.HasPrefix(line, "param name=threads") || strings.HasPrefix(line, "param name=hash") {
			params = append(params, line)
		}
	}
	if got, want := strings.Join(params, "|"), "param name=threads value=1 type=int min=1 max=2|param name=hash value=8 type=int min=1 max=32"; got != want {
		t.Errorf("Hub params %q, want %q", got, want)
	}
	fmt.Fprintln(gui.conn, "set-param name=hash value=64\nping")
	line, _ := gui.in.ReadString('\n')
	if !strings.HasPrefix(line, "error message=") || !strings.Contains(line, "64") {
		t.Errorf("set-param hash=64 answered %q, want an error", line)
	}
}

package main

import (
	"bufio"
	"context"
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
var from = &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 5 * time.Second}

// refusedLine dials addr from 127.0.0.2 and returns what the server says
// before it closes the connection.
func refusedLine(t *testing.T, addr string) string {
	t.Helper()
	conn, err := from.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
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
	conn, err := from.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
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
	d.waitListeners(t)
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
	ws := websocket.Dialer{NetDialContext: from.DialContext, HandshakeTimeout: 5 * time.Second}
	if _, resp, err := ws.Dial("ws://"+d.httpAddr+"/uhp", nil); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("WebSocket: %v, want 403", err)
	}
	client := &http.Client{Transport: &http.Transport{DialContext: from.DialContext}, Timeout: 5 * time.Second}
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
	if got := metric(t, d.httpAddr, `hivebridge_refusals_total{reason="allow_from"}`); got != "5" {
		t.Errorf("allow_from refusals counted %s, want 5", got)
	}
}

// metric reads one sample of the daemon's /metrics.
func metric(t *testing.T, addr, name string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if value, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return value
		}
	}
	return "none"
}

// waitListeners waits until the daemon has said where its Hub and JSON
// listeners are.
func (d *daemon) waitListeners(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for d.hubAddr == "" || d.jsonAddr == "" {
		if time.Now().After(deadline) {
			t.Fatal("no hub or hivejson listener")
		}
		time.Sleep(10 * time.Millisecond)
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

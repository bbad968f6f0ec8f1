package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// The chaos test's shape: two daemons, one whose backend is a UHP engine
// process and one whose backend is a Hub engine process, each serving
// sessions of all four kinds while its backend processes are killed at
// random and misbehave at random (the chaos fakes hang at 1% of searches
// and print garbage at 3%).
const (
	chaosSessionsPerKind = 25 // per daemon and kind: 2 x 4 x 25 = 200 sessions
	chaosPlies           = 12 // each game's cap, after its opening: 200 games under -race in well under a minute
	chaosOpeningPlies    = 4
	chaosKillEvery       = 100 * time.Millisecond
	chaosPoolSize        = 6
	chaosAnswerWait      = 90 * time.Second // far longer than any recovery (a hung engine costs 1s + 2s + 0.5s and a restart), even queued for an engine under -race
	chaosMaxErrors       = 10               // protocol errors after which a session gives up, with them
	chaosMaxHeap         = 1 << 30          // the daemons' heap, race detector included
)

// chaosResult is what one session saw.
type chaosResult struct {
	kind      string
	completed bool     // its game reached its end or its cap with legal moves only
	errors    []string // the protocol errors it was answered with
	broken    error    // anything else: a promise of the daemon broken
	latencies []time.Duration
}

// TestServeChaos is the daemon under load while its backends fail: 200
// sessions of UHP over TCP and WebSocket, Hub over TCP and the JSON API over
// TCP play games against two daemons, one with a UHP backend and one with a
// Hub backend, while a killer SIGKILLs their backend processes at random
// and the backends themselves hang and print garbage at random. Every
// session must complete its game with legal moves in its own game, or be
// answered with clear protocol errors; none may see another's game, hang or
// lose its connection; and when the daemons stop, no goroutine or engine
// process is left, the daemons' memory having stayed bounded throughout.
func TestServeChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("two daemons, 200 sessions and their backends killed at random")
	}
	began := time.Now()
	uhpSpec, uhpDir := fakeengine.ArgSpec(t, "uhp", "chaos")
	hubSpec, hubDir := fakeengine.ArgSpec(t, "hub", "chaos")
	daemons := []*testDaemon{}
	for _, spec := range []string{uhpSpec, hubSpec} {
		daemons = append(daemons, startDaemon(t, "--backend", spec, "--hub", "127.0.0.1:0", "--hivejson", "127.0.0.1:0",
			"--pool-size", strconv.Itoa(chaosPoolSize), "--pool-wait", "60s", "--max-sessions", "1000"))
	}

	stop := make(chan struct{})
	var background sync.WaitGroup
	var kills atomic.Int64
	background.Go(func() { killAtRandom(stop, &kills, uhpDir, hubDir) })
	var peakHeap atomic.Uint64
	background.Go(func() { watchHeap(stop, &peakHeap) })
	// Attackers meanwhile: clients that leave in the middle of endless
	// searches on both daemons, and, on a third daemon that requires a
	// token, clients that trickle or flood their first line while a
	// client with the token logs in again and again.
	var left atomic.Int64
	background.Go(func() { leaveMidSearch(stop, daemons, &left) })
	guarded := tokenDaemon(t, "--max-sessions", "2", "--max-unauthenticated", "16", "--auth-timeout", "2s")
	background.Go(func() { trickleAuth(stop, guarded, 12) })
	var longestLogin time.Duration
	var loginFailures []string
	background.Go(func() { longestLogin, loginFailures = loginUnderAttack(stop, guarded) })

	results := make(chan chaosResult, 8*chaosSessionsPerKind)
	var sessions sync.WaitGroup
	id := 0
	for _, d := range daemons {
		for _, kind := range []string{"uhp-tcp", "uhp-ws", "hub-tcp", "hivejson"} {
			for range chaosSessionsPerKind {
				id++
				session := id
				sessions.Go(func() { results <- chaosSession(d, kind, session) })
			}
		}
	}
	sessions.Wait()
	close(stop)
	background.Wait()
	close(results)
	// Both stopped before either counts what it left: each daemon's
	// count of goroutines includes the other's while it runs.
	for _, d := range daemons {
		if err := d.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	}

	var completed, gaveUp, protocolErrors int
	errorKinds := map[string]int{}
	var latencies []time.Duration
	byKind := map[string][2]int{}
	for r := range results {
		if r.broken != nil {
			t.Errorf("%s: %v", r.kind, r.broken)
			continue
		}
		latencies = append(latencies, r.latencies...)
		protocolErrors += len(r.errors)
		k := byKind[r.kind]
		if r.completed {
			completed++
			k[0]++
		} else {
			gaveUp++
			k[1]++
		}
		byKind[r.kind] = k
		for _, e := range r.errors {
			if strings.TrimSpace(e) == "" {
				t.Errorf("%s: an empty error: no error is clear without words", r.kind)
			}
			errorKinds[r.kind+": "+errorKind(e)]++
		}
	}
	if kills.Load() == 0 {
		t.Error("no backend process was killed: the test tested nothing")
	}
	if left.Load() == 0 {
		t.Error("no client left in the middle of a search")
	}
	if len(loginFailures) > 0 || longestLogin > 3*time.Second {
		t.Errorf("beside the tricklers, logins with the token failed %d times (%q) and took up to %v", len(loginFailures), loginFailures, longestLogin)
	}
	if peak := peakHeap.Load(); peak > chaosMaxHeap {
		t.Errorf("the daemons' heap reached %d MB", peak>>20)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))]
	}
	hangs, garbage := 0, 0
	for _, dir := range []string{uhpDir, hubDir} {
		h, g := fakeengine.ChaosCount(dir)
		hangs, garbage = hangs+h, garbage+g
	}
	for kind, n := range errorKinds {
		t.Logf("%5d  %s", n, kind)
	}
	t.Logf("chaos: the backends hung %d times and printed garbage %d times; %d clients left in the middle of a search; logins beside the tricklers took up to %v", hangs, garbage, left.Load(), longestLogin.Round(time.Millisecond))
	t.Logf("chaos: %d sessions (%v: completed, gave up after %d errors), %d completed, %d gave up; %d protocol errors; %d backend processes killed; %d searches, p50 %v, p99 %v, max %v; peak heap %d MB; %v",
		completed+gaveUp, byKind, chaosMaxErrors, completed, gaveUp, protocolErrors, kills.Load(), len(latencies),
		pct(0.5).Round(time.Millisecond), pct(0.99).Round(time.Millisecond), pct(1).Round(time.Millisecond), peakHeap.Load()>>20, time.Since(began).Round(time.Second))
}

// errorKind is an error message without the details that differ from one
// to the next (numbers, quoted text), so that alike errors count together.
func errorKind(msg string) string {
	msg = regexp.MustCompile(`"[^"]*"|[0-9]+(\.[0-9]+)?(ms|s|µs)?`).ReplaceAllString(msg, "_")
	if len(msg) > 140 {
		msg = msg[:140] + "..."
	}
	return msg
}

// killAtRandom SIGKILLs a backend process of the fakes with their marks in
// dirs every chaosKillEvery until stop, counting the kills. A process is
// checked to be one of the fakes first, so that a reused process id is
// never killed.
func killAtRandom(stop <-chan struct{}, kills *atomic.Int64, dirs ...string) {
	rng := rand.New(rand.NewPCG(1, 2))
	tick := time.NewTicker(chaosKillEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		dir := dirs[rng.IntN(len(dirs))]
		pids, _ := filepath.Glob(filepath.Join(dir, "pid-*"))
		var alive []int
		for _, p := range pids {
			pid, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(p), "pid-"))
			if fakeengine.IsFake(pid, dir) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			continue
		}
		if syscall.Kill(alive[rng.IntN(len(alive))], syscall.SIGKILL) == nil {
			kills.Add(1)
		}
	}
}

// watchHeap keeps the peak of the heap in use until stop.
func watchHeap(stop <-chan struct{}, peak *atomic.Uint64) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// chaosOpening is session id's own start position, so that an answer for
// another session's game shows.
func chaosOpening(id int) *core.Game {
	g, err := referee.RandomOpening(core.AllExpansions, chaosOpeningPlies, 7, uint64(id))
	if err != nil {
		panic(err)
	}
	return g
}

// chaosSession plays one session of kind against d.
func chaosSession(d *testDaemon, kind string, id int) chaosResult {
	r := chaosResult{kind: kind}
	var err error
	switch kind {
	case "uhp-tcp", "uhp-ws":
		err = chaosUHP(d, kind, id, &r)
	case "hub-tcp":
		err = chaosHub(d, id, &r)
	case "hivejson":
		err = chaosJSON(d, id, &r)
	}
	if err != nil && !errors.Is(err, errGaveUp) {
		r.broken = fmt.Errorf("session %d: %w", id, err)
	}
	return r
}

// chaosError is an error of the chaos test's own.
type chaosError string

func (e chaosError) Error() string { return string(e) }

// errGaveUp ends a session that was answered with chaosMaxErrors protocol
// errors: it was answered clearly, as promised, and stops there.
const errGaveUp chaosError = "too many protocol errors"

// protocolError records an error the daemon answered with.
func (r *chaosResult) protocolError(msg string) error {
	r.errors = append(r.errors, msg)
	if len(r.errors) >= chaosMaxErrors {
		return errGaveUp
	}
	return nil
}

// uhpTransport sends one UHP command and returns the lines of its answer
// before ok.
type uhpTransport func(command string) ([]string, error)

// dialUHP opens a UHP session over TCP or WebSocket and reads its info
// answer.
func dialUHP(d *testDaemon, kind string) (uhpTransport, func(), error) {
	if kind == "uhp-ws" {
		conn, _, err := websocket.DefaultDialer.Dial("ws://"+d.httpAddr+"/uhp", nil)
		if err != nil {
			return nil, nil, err
		}
		read := func() ([]string, error) {
			conn.SetReadDeadline(time.Now().Add(chaosAnswerWait))
			_, data, err := conn.ReadMessage()
			if err != nil {
				return nil, err
			}
			text, found := strings.CutSuffix(string(data), "ok\n")
			if !found {
				return nil, fmt.Errorf("a message that does not end with ok: %q", data)
			}
			return strings.Split(strings.TrimSuffix(text, "\n"), "\n"), nil
		}
		if _, err := read(); err != nil {
			conn.Close()
			return nil, nil, err
		}
		return func(command string) ([]string, error) {
			conn.SetWriteDeadline(time.Now().Add(chaosAnswerWait))
			if err := conn.WriteMessage(websocket.TextMessage, []byte(command)); err != nil {
				return nil, err
			}
			return read()
		}, func() { conn.Close() }, nil
	}
	conn, err := net.DialTimeout("tcp", d.uhpAddr, 10*time.Second)
	if err != nil {
		return nil, nil, err
	}
	in := bufio.NewReader(conn)
	read := func() ([]string, error) {
		conn.SetReadDeadline(time.Now().Add(chaosAnswerWait))
		var lines []string
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return lines, fmt.Errorf("%w after %q", err, lines)
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "ok" {
				return lines, nil
			}
			lines = append(lines, line)
		}
	}
	if _, err := read(); err != nil {
		conn.Close()
		return nil, nil, err
	}
	return func(command string) ([]string, error) {
		conn.SetWriteDeadline(time.Now().Add(chaosAnswerWait))
		if _, err := fmt.Fprintln(conn, command); err != nil {
			return nil, err
		}
		return read()
	}, func() { conn.Close() }, nil
}

// chaosUHP plays a game in a UHP session: bestmove for each ply, each answer
// a legal move of the session's own game, played back with play, whose
// GameString must be the session's own.
func chaosUHP(d *testDaemon, kind string, id int, r *chaosResult) error {
	do, closeConn, err := dialUHP(d, kind)
	if err != nil {
		return err
	}
	defer closeConn()
	g := chaosOpening(id)
	gs, err := uhp.Describe(g)
	if err != nil {
		return err
	}
	want := gs.String()
	if got, err := do("newgame " + want); err != nil || len(got) != 1 || got[0] != want {
		return fmt.Errorf("newgame answered %q, %v; want %s", got, err, want)
	}
	for plies := 0; plies < chaosPlies && !g.Over(); {
		asked := time.Now()
		answer, err := do("bestmove time 00:00:01")
		if err != nil {
			return fmt.Errorf("bestmove: %w", err)
		}
		r.latencies = append(r.latencies, time.Since(asked))
		if len(answer) == 0 {
			return errors.New("bestmove answered nothing but ok")
		}
		last := answer[len(answer)-1]
		if msg, isErr := strings.CutPrefix(last, "err "); isErr {
			if err := r.protocolError(msg); err != nil {
				return err
			}
			continue
		}
		m, err := uhp.ParseMove(last, g)
		if err == nil {
			err = g.RuleBroken(m)
		}
		if err != nil {
			return fmt.Errorf("bestmove answered %q in %s: not a legal move of the session's game: %v", last, describe(g), err)
		}
		text := uhp.FormatMove(m, g)
		g.Play(m)
		plies++
		want := describe(g)
		if got, err := do("play " + text); err != nil || len(got) != 1 || got[0] != want {
			return fmt.Errorf("play %s answered %q, %v; want the session's own game %s", text, got, err, want)
		}
	}
	r.completed = true
	return nil
}

// chaosHub plays a game in a Hub session: pos, level and go think for each
// ply, each done a legal move of the session's own position; error lines
// on the way are the protocol errors.
func chaosHub(d *testDaemon, id int, r *chaosResult) error {
	conn, err := net.DialTimeout("tcp", d.hubAddr, 10*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	in := bufio.NewReader(conn)
	send := func(ms ...hub.Message) error {
		conn.SetWriteDeadline(time.Now().Add(chaosAnswerWait))
		for _, m := range ms {
			if _, err := fmt.Fprintln(conn, m.Line().String()); err != nil {
				return err
			}
		}
		return nil
	}
	// await reads answers up to one of command want, recording the
	// error lines before it.
	await := func(want string) (hub.Message, error) {
		conn.SetReadDeadline(time.Now().Add(chaosAnswerWait))
		for {
			text, err := in.ReadString('\n')
			if err != nil {
				return nil, fmt.Errorf("awaiting %s: %w", want, err)
			}
			l, err := hub.Parse(text)
			if errors.Is(err, hub.ErrEmptyLine) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("the daemon printed %q: %v", text, err)
			}
			m, err := hub.DecodeAnswer(l)
			if e, ok := m.(hub.Error); ok {
				if err := r.protocolError(e.Message); err != nil {
					return nil, err
				}
				continue
			}
			if l.Command == want {
				return m, err
			}
		}
	}
	if err := send(hub.Hub{}); err != nil {
		return err
	}
	if _, err := await(hub.CmdWait); err != nil {
		return err
	}
	if err := send(hub.Init{}); err != nil {
		return err
	}
	if _, err := await(hub.CmdReady); err != nil {
		return err
	}
	g := chaosOpening(id)
	for plies := 0; plies < chaosPlies && !g.Over(); plies++ {
		asked := time.Now()
		if err := send(hub.PosOf(g), hub.Level{MoveTime: time.Second}, hub.Go{Mode: hub.Think}); err != nil {
			return err
		}
		answer, err := await(hub.CmdDone)
		if err != nil {
			return err
		}
		r.latencies = append(r.latencies, time.Since(asked))
		done := answer.(hub.Done)
		m, err := done.Best(g)
		if err == nil {
			err = g.RuleBroken(m)
		}
		if err != nil {
			return fmt.Errorf("done move=%s in %s: not a legal move of the session's position: %v", done.Move, describe(g), err)
		}
		g.Play(m)
	}
	r.completed = true
	return nil
}

// chaosJSON plays a game as a Choose-Turn controller: each reply must
// answer the session's own request, in its own game, with a legal turn it
// offered; an error frame or a reply with an error key is a protocol
// error, after which the controller connects again, as the wire doc says.
func chaosJSON(d *testDaemon, id int, r *chaosResult) error {
	var conn net.Conn
	var client *hivejson.Client
	connect := func() error {
		if conn != nil {
			conn.Close()
		}
		var err error
		if conn, err = net.DialTimeout("tcp", d.jsonAddr, 10*time.Second); err != nil {
			return err
		}
		client = hivejson.NewClient(conn, 0)
		ctx, cancel := context.WithTimeout(context.Background(), chaosAnswerWait)
		defer cancel()
		_, err = client.Greet(ctx, fmt.Sprint("hello-", id))
		return err
	}
	if err := connect(); err != nil {
		return err
	}
	defer func() { conn.Close() }()
	g := chaosOpening(id)
	gameID := fmt.Sprint("game-", id)
	for plies := 0; plies < chaosPlies && !g.Over(); {
		req, err := hivejson.NewChooseTurnRequest(fmt.Sprintf("r%d-%d", id, g.Ply()), gameID, time.Now().UnixMilli(), g)
		if err != nil {
			return err
		}
		deadline := time.Now().Add(2 * time.Second).UnixMilli()
		req.ResponseDeadline = &deadline
		ctx, cancel := context.WithTimeout(context.Background(), chaosAnswerWait)
		asked := time.Now()
		resp, err := client.ChooseTurn(ctx, &req)
		cancel()
		if errors.Is(err, hivejson.ErrPeerError) {
			if err := r.protocolError(err.Error()); err != nil {
				return err
			}
			if err := connect(); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("Choose Turn: %w", err)
		}
		r.latencies = append(r.latencies, time.Since(asked))
		if resp.ID() != req.RequestID || resp.GameID != gameID {
			return fmt.Errorf("request %s of %s answered as %s of %s", req.RequestID, gameID, resp.ID(), resp.GameID)
		}
		m, err := hivejson.MoveOf(resp.Turn, g)
		if err == nil {
			err = g.RuleBroken(m)
		}
		if err != nil {
			return fmt.Errorf("answered %+v in %s: not a legal turn of the session's game: %v", resp.Turn, describe(g), err)
		}
		g.Play(m)
		plies++
	}
	r.completed = true
	return nil
}

// describe writes g's GameString for a message; a game played from the
// empty board always has one.
func describe(g *core.Game) string {
	gs, err := uhp.Describe(g)
	if err != nil {
		return err.Error()
	}
	return gs.String()
}

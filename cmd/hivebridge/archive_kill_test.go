package main

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/internal/writehold"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// childDaemon is hivebridge serve in a process of its own: this test
// binary run as hivebridge, so that it can be killed outright.
type childDaemon struct {
	cmd      *exec.Cmd
	httpAddr string
	stderr   *syncbuf.Buffer
	exited   chan struct{}
}

// startChild starts hivebridge serve --http on a free port with args, and
// returns once it listens. The test kills it at its end if it still runs.
func startChild(t *testing.T, args ...string) *childDaemon {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--http", "127.0.0.1:0", "--log-level", "info"}, args...)...)
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	c := &childDaemon{cmd: cmd, stderr: &syncbuf.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() { c.kill(t) })
	addr := make(chan string, 1)
	go func() {
		listening := regexp.MustCompile(`^http listening on (\S+)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case c.httpAddr = <-addr:
	case <-c.exited:
		t.Fatalf("serve exited before listening:\n%s", c.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not listen within 30s:\n%s", c.stderr.String())
	}
	return c
}

// kill sends SIGKILL and waits for the process to be gone.
func (c *childDaemon) kill(t *testing.T) {
	c.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		t.Error("the daemon did not die of SIGKILL within 10s")
	}
}

// killedPlayer plays one WebSocket game of random legal moves until the
// connection breaks. It keeps every move it sent, how many were answered,
// and how many were answered before some later answer: the archive's
// promise is that those are kept, and the one answered last may not be.
type killedPlayer struct {
	mu        sync.Mutex
	sent      []string // the moves sent, the last maybe unanswered
	acked     string   // the last GameString answered
	answered  int      // moves answered
	confirmed int      // moves answered before a later answer
}

func (p *killedPlayer) play(addr string, seed uint64) {
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/uhp", nil)
	if err != nil {
		return
	}
	defer conn.Close()
	do := func(command string) (string, bool) {
		conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if conn.WriteMessage(websocket.TextMessage, []byte(command)) != nil {
			return "", false
		}
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, data, err := conn.ReadMessage()
		if err == nil {
			p.mu.Lock()
			p.confirmed = p.answered
			p.mu.Unlock()
		}
		return strings.TrimSuffix(string(data), "\nok\n"), err == nil
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := conn.ReadMessage(); err != nil { // the info answer on connect
		return
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	if _, ok := do("newgame Base"); !ok {
		return
	}
	for {
		moves, ok := do("validmoves")
		if !ok {
			return
		}
		list := strings.Split(moves, ";")
		move := list[rng.IntN(len(list))]
		p.mu.Lock()
		p.sent = append(p.sent, move)
		p.mu.Unlock()
		answer, ok := do("play " + move)
		if !ok || strings.HasPrefix(answer, "err") || strings.HasPrefix(answer, "invalidmove") {
			return
		}
		p.mu.Lock()
		p.acked, p.answered = answer, p.answered+1
		p.mu.Unlock()
		if !strings.Contains(answer, ";InProgress;") {
			return
		}
	}
}

func (p *killedPlayer) state() (acked string, sent []string, answered, confirmed int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.acked, p.sent, p.answered, p.confirmed
}

// TestArchiveSurvivesSIGKILL: 20 WebSocket games in play when the daemon
// is killed with SIGKILL; restarted on the same SQLite file, the daemon
// has every move it answered, marks each unfinished game interrupted, and
// any viewer can play it on from the archive's GameString.
func TestArchiveSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon processes")
	}
	killTest(t, filepath.Join(t.TempDir(), "games.db"))
}

// TestArchiveSurvivesSIGKILLPostgres is the same against PostgreSQL: the
// killed daemon's advisory lock goes with its connections, and the next
// daemon finds its games.
func TestArchiveSurvivesSIGKILLPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon processes")
	}
	killTest(t, pgtest.Start(t).URL)
}

func killTest(t *testing.T, db string) {
	const games = 20
	first := startChild(t, "--db", db)
	players := make([]*killedPlayer, games)
	var wg sync.WaitGroup
	for i := range players {
		players[i] = &killedPlayer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			players[i].play(first.httpAddr, uint64(i))
		}()
	}
	// Kill it mid-game: once every game has a few moves.
	waitForState(t, 30*time.Second, "the games to reach 6 plies each", func() (bool, string) {
		least := 1 << 30
		for _, p := range players {
			_, _, n, _ := p.state()
			least = min(least, n)
		}
		return least >= 6, "the daemon's log:\n" + first.stderr.String()
	})
	first.kill(t)
	wg.Wait()

	second := startChild(t, "--db", db)
	store := archivetest.Read(t, db)
	// The new daemon marks the games interrupted at its start, or at its
	// next look once PostgreSQL has seen the old one's connections go.
	waitFor(t, 15*time.Second, "the new daemon to mark the games interrupted", func() bool {
		_, total, err := store.List(context.Background(), archive.Filter{Page: 1, PerPage: archive.MaxPerPage, Status: archive.Playing})
		if err != nil {
			t.Fatal(err)
		}
		return total == 0
	})
	list, total, err := store.List(context.Background(), archive.Filter{Page: 1, PerPage: archive.MaxPerPage})
	if err != nil {
		t.Fatal(err)
	}
	if total != games {
		t.Fatalf("%d games archived, want %d", total, games)
	}
	archived := map[int64][]string{}
	for _, g := range list {
		full, err := store.Get(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range full.Moves {
			archived[g.ID] = append(archived[g.ID], m.Text)
		}
	}
	interrupted, lagging := 0, 0
	for i, p := range players {
		acked, sent, answered, confirmed := p.state()
		// The archive holds every move answered before a later answer
		// (the one answered last may be missing), and nothing but moves
		// sent: the game is the one whose moves are the longest prefix.
		var (
			g    archive.Game
			kept []string
		)
		for _, candidate := range list {
			moves := archived[candidate.ID]
			if len(moves) > len(kept) && len(moves) <= len(sent) && slices.Equal(moves, sent[:len(moves)]) {
				g, kept = candidate, moves
			}
		}
		if len(kept) < confirmed || g.ID == 0 {
			t.Errorf("player %d: %d of its moves archived (%q), want at least the %d answered before a later answer (of %d answered, %d sent: %q)",
				i, len(kept), kept, confirmed, answered, len(sent), sent)
			continue
		}
		if len(kept) < answered {
			lagging++
		}
		if !strings.Contains(acked, ";InProgress;") {
			continue // it ended before the kill
		}
		interrupted++
		if g.Status != archive.Interrupted || g.How != "interrupted" || g.Ended.IsZero() {
			t.Errorf("player %d's game: %+v, want it interrupted", i, g)
		}
		// Any viewer plays it on from the archive's GameString.
		conn, _, err := dialWS(t, second.httpAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		conn.ReadMessage()
		if got := wsDo(t, conn, "newgame "+g.GameString); got != g.GameString+"\nok\n" {
			t.Errorf("player %d: newgame %s answered %q", i, g.GameString, got)
		}
		if got := wsDo(t, conn, "validmoves"); strings.HasPrefix(got, "err") {
			t.Errorf("player %d: the resumed game has no moves: %q", i, got)
		}
		conn.Close()
	}
	if interrupted == 0 {
		t.Error("every game ended before the kill: nothing was interrupted")
	}
	t.Logf("%d games interrupted by SIGKILL, %d finished before; %d lacked the move answered last", interrupted, games-interrupted, lagging)
}

// TestJournaledEndsSurviveSIGKILL: games end while the archive holds its
// writes up (another process holds SQLite's write lock, or a PostgreSQL
// lock on the moves), and each session's next command is answered: the
// end, not committed, is kept in the end journal. The daemon is then
// killed with SIGKILL, its writes never committed; restarted once the
// database is free, it writes every such game from the journal, finished
// with each of its moves, rather than leaving it interrupted.
func TestJournaledEndsSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon processes")
	}
	t.Run("sqlite", func(t *testing.T) { journalKillTest(t, filepath.Join(t.TempDir(), "games.db")) })
	t.Run("postgres", func(t *testing.T) { journalKillTest(t, pgtest.Start(t).URL) })
}

func journalKillTest(t *testing.T, db string) {
	const sessions = 6
	first := startChild(t, "--db", db)
	conns := make([]*websocket.Conn, sessions)
	played := make([][]string, sessions)
	for i := range conns {
		conn, _, err := dialWS(t, first.httpAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		conn.ReadMessage()
		conns[i] = conn
		wsDo(t, conn, "newgame Base")
		for range 3 + i%2 {
			move := strings.Split(strings.TrimSuffix(wsDo(t, conn, "validmoves"), "\nok\n"), ";")[i%3]
			if got := wsDo(t, conn, "play "+move); !strings.Contains(got, ";InProgress;") {
				t.Fatalf("play %s: %q", move, got)
			}
			played[i] = append(played[i], move)
		}
		wsDo(t, conn, "validmoves") // the last move is kept
	}
	release := writehold.Hold(t, db)
	for _, conn := range conns {
		// The new game ends the last one; the command after it is
		// answered only once that end is kept.
		if got := wsDo(t, conn, "newgame Base"); !strings.HasPrefix(got, "Base;NotStarted;") {
			t.Fatalf("newgame: %q", got)
		}
		if got := wsDo(t, conn, "validmoves"); strings.HasPrefix(got, "err") {
			t.Fatalf("validmoves: %q", got)
		}
	}
	first.kill(t)
	release()

	startChild(t, "--db", db)
	store := archivetest.Read(t, db)
	games := archivetest.AllGames(t, store)
	if len(games) != sessions {
		t.Fatalf("%d games archived, want %d", len(games), sessions)
	}
	for _, g := range games {
		var moves []string
		for _, m := range g.Moves {
			moves = append(moves, m.Text)
		}
		i := slices.IndexFunc(played, func(p []string) bool { return slices.Equal(p, moves) })
		if i < 0 || g.Status != archive.Finished || g.How != "abandoned" {
			t.Errorf("game %d: %s, %s, moves %q; want one of %q, finished, abandoned", g.ID, g.Status, g.How, moves, played)
		}
	}
}

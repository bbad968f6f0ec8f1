package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// playRandomGame plays plies random legal moves in a WebSocket session
// (fewer if the game ends), then leaves; it returns the moves answered,
// failing the test on any error: the archive must never stop a game.
func playRandomGame(t *testing.T, addr string, seed uint64, plies int, between func(ply int)) int {
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/uhp", nil)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer conn.Close()
	do := func(command string) string {
		conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
		conn.WriteMessage(websocket.TextMessage, []byte(command))
		conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Errorf("%s: %v", command, err)
			return "err"
		}
		return strings.TrimSuffix(string(data), "\nok\n")
	}
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	conn.ReadMessage() // the info answer on connect
	rng := rand.New(rand.NewPCG(seed, 2))
	do("newgame Base")
	played := 0
	for played < plies {
		between(played)
		moves := strings.Split(do("validmoves"), ";")
		answer := do("play " + moves[rng.IntN(len(moves))])
		if strings.HasPrefix(answer, "err") || strings.HasPrefix(answer, "invalidmove") {
			t.Errorf("play: %q", answer)
			return played
		}
		played++
		if !strings.Contains(answer, ";InProgress;") {
			break
		}
	}
	return played
}

// metric reads one series of the daemon's /metrics.
func metric(t *testing.T, addr, series string) float64 {
	t.Helper()
	body := []byte(httpGet(t, addr, "/metrics"))
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("no %s in /metrics", series)
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}

// healthz reads the daemon's /healthz.
func healthz(t *testing.T, addr string) string {
	t.Helper()
	return httpGet(t, addr, "/healthz")
}

// httpGet returns the body of the daemon's answer to GET path, whatever
// its status.
func httpGet(t *testing.T, addr, path string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// archivedMoves counts the moves the archive holds, in all games.
func archivedMoves(t *testing.T, db string) (games, moves int) {
	t.Helper()
	store := archivetest.Read(t, db)
	list, total, err := store.List(context.Background(), archive.Filter{Page: 1, PerPage: archive.MaxPerPage})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range list {
		full, err := store.Get(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		moves += len(full.Moves)
	}
	store.Close()
	return total, moves
}

const (
	notArchivedMoves = `hivebridge_archive_not_archived_total{what="moves"}`
	notArchivedGames = `hivebridge_archive_not_archived_total{what="games"}`
	pendingGames     = `hivebridge_archive_pending_games`
)

// TestArchiveLostUnderLoad stops PostgreSQL under 100 playing WebSocket
// sessions. Every session finishes its game; the daemon says it is
// degraded, holds the games that ended, and writes them once PostgreSQL is
// back. Then, with PostgreSQL stopped again and room to hold only two
// games, ten games are played: the counter of moves not archived is
// exactly what the archive lacks.
func TestArchiveLostUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	pg := pgtest.Start(t)
	d := startDaemon(t, "--db", pg.URL)

	const sessions, plies = 100, 16
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		played   int
		stopOnce sync.Once
		stopped  = make(chan struct{})
		reached  sync.WaitGroup
	)
	reached.Add(sessions)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := playRandomGame(t, d.httpAddr, uint64(i), plies, func(ply int) {
				if ply == plies/2 {
					// Half-way, each game waits for the database
					// to stop under it: on a busy machine the
					// games could otherwise end before it does.
					reached.Done()
					<-stopped
				}
			})
			if n < plies/2 {
				reached.Done() // ended early by the rules
			}
			mu.Lock()
			played += n
			mu.Unlock()
		}()
	}
	go func() {
		reached.Wait() // most sessions half-way: stop the database under them
		stopOnce.Do(func() {
			pg.Stop(t)
			close(stopped)
		})
	}()
	wg.Wait()
	<-stopped
	sessionsEnded(t, d.httpAddr)
	if h := healthz(t, d.httpAddr); !strings.HasPrefix(h, "degraded: archive ") {
		t.Errorf("/healthz with PostgreSQL stopped: %q", h)
	}
	if n := metric(t, d.httpAddr, pendingGames); n == 0 {
		t.Error("no game held while PostgreSQL is stopped")
	}
	pg.Start(t)
	waitForState(t, 20*time.Second, "the held games to be written once PostgreSQL came back", func() (bool, string) {
		held := metric(t, d.httpAddr, pendingGames)
		return held == 0, fmt.Sprintf("%v games held", held)
	})
	if h := healthz(t, d.httpAddr); h != "ok\n" {
		t.Errorf("/healthz once PostgreSQL is back: %q", h)
	}
	games, moves := archivedMoves(t, pg.URL)
	if lost := metric(t, d.httpAddr, notArchivedMoves); games != sessions || moves != played || lost != 0 {
		t.Errorf("%d games and %d moves archived, %v counted lost; want %d and %d, none lost", games, moves, lost, sessions, played)
	}
	d.stop()

	// Stopped again, with room for two games: eight are lost whole.
	pg.Stop(t)
	d = startDaemonAfter(t, pg, "--archive-backlog", "2")
	played = 0
	for i := range 10 {
		played += playRandomGame(t, d.httpAddr, uint64(1000+i), 8, func(int) {})
	}
	sessionsEnded(t, d.httpAddr)
	// A game's end reaches the keeper on a goroutine of its own after its
	// session has ended: wait until all ten are held or counted lost.
	waitForState(t, 10*time.Second, "all 10 games to be held or counted lost", func() (bool, string) {
		held, lost := metric(t, d.httpAddr, pendingGames), metric(t, d.httpAddr, notArchivedGames)
		return held+lost >= 10, fmt.Sprintf("%v held, %v lost", held, lost)
	})
	lostMoves, lostGames := metric(t, d.httpAddr, notArchivedMoves), metric(t, d.httpAddr, notArchivedGames)
	pg.Start(t)
	waitFor(t, 20*time.Second, "the held games to be written once PostgreSQL came back", func() bool {
		return metric(t, d.httpAddr, pendingGames) == 0
	})
	games2, moves2 := archivedMoves(t, pg.URL)
	if missing := played - (moves2 - moves); float64(missing) != lostMoves || lostGames != 8 || games2-games != 2 {
		t.Errorf("%d moves played, %d archived, %v counted lost; %d games archived, %v counted lost (want 8)", played, moves2-moves, lostMoves, games2-games, lostGames)
	}
}

// sessionsEnded waits until the daemon has ended every session the
// clients left (and so recorded how their games ended).
func sessionsEnded(t *testing.T, addr string) {
	t.Helper()
	waitFor(t, 30*time.Second, "the sessions whose clients left to end", func() bool {
		return metric(t, addr, `hivebridge_sessions{protocol="uhp-ws"}`) == 0
	})
}

// startDaemonAfter starts a daemon on the archive while PostgreSQL is
// stopped: it opens the archive first (a daemon needs its database at
// start), then the database goes.
func startDaemonAfter(t *testing.T, pg *pgtest.Server, args ...string) *testDaemon {
	t.Helper()
	pg.Start(t)
	d := startDaemon(t, append([]string{"--db", pg.URL}, args...)...)
	pg.Stop(t)
	return d
}

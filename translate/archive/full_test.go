package archive

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/internal/syncbuf"
)

// TestKeeperSQLiteFull fills the SQLite file's room while 20 games are
// played: SQLite's own max_page_count makes every write that needs a new
// page fail with SQLITE_FULL, as a full disk does. The games play on; the
// keeper logs the failure, reports itself unhealthy, and counts as not
// archived exactly the games and moves that the archive lacks.
func TestKeeperSQLiteFull(t *testing.T) {
	store := open(t, filepath.Join(t.TempDir(), "games.db"), "serve")
	sq := store.(*sqlStore)
	ctx := context.Background()
	var pages int
	if err := sq.write.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// The write pool holds its one connection, so the limit stays on it:
	// room for a few pages of games and moves beyond the schema.
	if _, err := sq.write.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages+3)); err != nil {
		t.Fatal(err)
	}
	var (
		logs                 syncbuf.Buffer
		lostGames, lostMoves atomic.Int64
	)
	k := NewKeeper(store, KeeperConfig{Log: zerolog.New(&logs), Pause: 10 * time.Millisecond, Backoff: time.Millisecond, Backlog: 5,
		OnLost: func(g, m int) {
			lostGames.Add(int64(g))
			lostMoves.Add(int64(m))
		}})

	// Fifteen games at once fill the file; five more begin once it is
	// full, and are never started in the archive.
	const games, first, plies = 20, 15, 60
	recorders := make([]*Recorder, games)
	play := func(from, to int) {
		var wg sync.WaitGroup
		for i := from; i < to; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{White: Viewer, Black: "native"})
				var moves []string
				for ply := range plies {
					// Moves long enough to fill pages quickly.
					moves = append(moves, fmt.Sprintf("wA%d-%s", ply, strings.Repeat("x", 40)))
					r.Played(moves[ply], Viewer)
					r.Settle() // as a session does before its next command
				}
				r.Ended(End{How: "disconnect"}, "Base;InProgress;White[1];"+strings.Join(moves, ";"))
				recorders[i] = r
			}()
		}
		played := make(chan struct{})
		go func() {
			wg.Wait()
			close(played)
		}()
		select {
		case <-played:
		case <-time.After(60 * time.Second):
			t.Fatal("the games did not finish within 60s of the archive filling")
		}
	}
	play(0, first)
	play(first, games)
	for _, r := range recorders {
		r.Settle()
	}
	if err := k.Health(ctx); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("Health with the archive full: %v, want SQLite's full error", err)
	}
	if !strings.Contains(logs.String(), "archive writes failing") || !strings.Contains(logs.String(), "full") {
		t.Errorf("nothing logged of the archive filling up:\n%s", logs.String())
	}
	k.Close()

	// What the archive lacks is what was counted.
	missingGames, missingMoves := 0, 0
	for _, r := range recorders {
		id := r.ID()
		if id == 0 {
			missingGames++
			missingMoves += plies
			continue
		}
		g, err := store.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range g.Moves {
			if m.Text != r.moves[i].Text {
				t.Fatalf("game %d: move %d archived as %q, played as %q", id, i, m.Text, r.moves[i].Text)
			}
		}
		missingMoves += plies - len(g.Moves)
	}
	if missingMoves == 0 {
		t.Fatal("the archive holds every move: it never filled up")
	}
	if int64(missingGames) != lostGames.Load() || int64(missingMoves) != lostMoves.Load() {
		t.Errorf("the archive lacks %d games and %d moves; %d and %d were counted not archived",
			missingGames, missingMoves, lostGames.Load(), lostMoves.Load())
	}
	t.Logf("%d games and %d moves of %d not archived, all counted", missingGames, missingMoves, games*plies)
}

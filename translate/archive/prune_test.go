package archive

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPrune deletes the games that started before the date and are no
// longer in progress, with their moves, and leaves the others: a game in
// progress, however old, and the newer games. More games than a prune
// transaction takes are deleted all the same.
func TestPrune(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		now := time.Now()
		old, recent := now.AddDate(0, 0, -10), now.Add(-time.Hour)
		game := func(started time.Time, end *End) int64 {
			t.Helper()
			id, err := s.Start(ctx, Start{Source: "uhp-ws", GameType: "Base", White: Viewer, Black: "native", Started: started,
				GameString: "Base;InProgress;Black[1];wS1", Moves: []Move{{Ply: 0, Text: "wS1", By: Viewer, At: started}}})
			if err != nil {
				t.Fatal(err)
			}
			if end != nil {
				if err := s.Update(ctx, id, Change{From: 1, White: Viewer, Black: "native", GameString: "Base;InProgress;Black[1];wS1", End: end}); err != nil {
					t.Fatal(err)
				}
			}
			return id
		}
		finished := game(old, &End{How: "disconnect", At: old})
		interrupted := game(old, &End{How: "interrupted", At: old})
		playing := game(old, nil)
		kept := game(recent, &End{How: "disconnect", At: recent})
		// Many more old games, written at once.
		tx, err := s.write.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		many := 2*pruneBatch + 3
		for range many {
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO games (owner, source, game_type, white, black, status, started_ms, ended_ms, game_string)
				VALUES (?, 'match', 'Base', 'a', 'b', ?, ?, ?, 'Base;NotStarted;White[1]')`), s.owner, string(Finished), ms(old), ms(old)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}

		n, err := s.Prune(ctx, now.AddDate(0, 0, -1))
		if err != nil || n != many+2 {
			t.Fatalf("Prune: %d games, %v; want %d", n, err, many+2)
		}
		for _, id := range []int64{finished, interrupted} {
			if _, err := s.Get(ctx, id); err == nil {
				t.Errorf("game %d is still there", id)
			}
			var moves int
			if err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM moves WHERE game = ?`), id).Scan(&moves); err != nil || moves != 0 {
				t.Errorf("game %d: %d moves left (%v)", id, moves, err)
			}
		}
		games, total, err := s.List(ctx, Filter{Page: 1, PerPage: 10})
		if err != nil || total != 2 || games[0].ID != kept || games[1].ID != playing {
			t.Errorf("left %+v (%d, %v); want the recent game and the one in progress", games, total, err)
		}
		if n, err := s.Prune(ctx, now.AddDate(0, 0, -1)); n != 0 || err != nil {
			t.Errorf("Prune again: %d, %v", n, err)
		}
	})
}

// TestOpenUnwritable: a SQLite path the process cannot write is said
// plainly, not as SQLite's "out of memory (14)" (SQLITE_CANTOPEN).
func TestOpenUnwritable(t *testing.T) {
	cases := map[string]string{
		"/proc/hivebridge-nope/games.db": "archive /proc/hivebridge-nope/games.db: cannot create its directory /proc/hivebridge-nope: no such file or directory",
		"/proc/hivebridge-games.db":      "archive /proc/hivebridge-games.db: cannot create it: ",
	}
	if os.Geteuid() != 0 { // root may write anywhere
		dir := filepath.Join(t.TempDir(), "locked")
		os.Mkdir(dir, 0o555)
		cases[filepath.Join(dir, "games.db")] = "archive " + filepath.Join(dir, "games.db") + ": cannot create it: permission denied"
	}
	for path, says := range cases {
		_, err := Open(context.Background(), path, "serve")
		if err == nil || !strings.Contains(err.Error(), says) || strings.Contains(err.Error(), "out of memory") {
			t.Errorf("Open(%s): %v, want an error saying %q", path, err, says)
		}
	}
}

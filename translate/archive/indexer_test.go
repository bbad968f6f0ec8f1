package archive

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/internal/pgtest"
)

// marked returns whether the archive marks game as ended and not yet
// indexed for the explorer, and how many explorer rows it has.
func marked(t *testing.T, s *sqlStore, game int64) (bool, int) {
	t.Helper()
	var mark, rows int
	if err := s.read.QueryRow(s.q(`SELECT explorer_pending FROM games WHERE id = ?`), game).Scan(&mark); err != nil {
		t.Fatal(err)
	}
	if err := s.read.QueryRow(s.q(`SELECT COUNT(*) FROM explorer WHERE game = ?`), game).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	return mark == 1, rows
}

// endAlone writes the end of a game with result in a transaction of its
// own, outside the writer: what a daemon killed after its end's commit,
// before the explorer's index of it, leaves.
func endAlone(t *testing.T, s *sqlStore, moves, result string) int64 {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	gs := "Base;InProgress;White[1];" + moves
	id, err := s.Start(ctx, Start{Source: "uhp-ws", GameType: "Base", White: "native", Black: "native", Started: at, GameString: gs})
	if err != nil {
		t.Fatal(err)
	}
	var ms []Move
	for _, m := range strings.Split(moves, ";") {
		ms = append(ms, Move{Ply: len(ms), Text: m, By: "native", At: at})
	}
	end := End{Result: result, How: "state", At: at}
	if result == "" {
		end.How = "disconnect"
	}
	op := s.updateOp(id, Change{Moves: ms, GameString: gs, End: &end})
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.run(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestEndIndexedAfterItsCommit: a game's end marks it, and its
// transaction leaves the explorer alone; the writer indexes it after, and
// the explorer's answer, asked at once, has it (indexNow), the mark
// cleared.
func TestEndIndexedAfterItsCommit(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		s := open(t, db, "serve").(*sqlStore)
		g := explorerGames[0]
		alone := endAlone(t, s, g.moves, g.result)
		if pending, rows := marked(t, s, alone); !pending || rows != 0 {
			t.Errorf("after the end's own transaction: marked %v, %d explorer rows; want marked and none", pending, rows)
		}
		through := endGame(t, s, g.moves, g.result) // through the writer, which holds it in hand
		if start := explore(t, s, ""); len(start) != 1 || start[0].white != 1 || len(start[0].games) != 1 || start[0].games[0] != through {
			t.Fatalf("the explorer at once: %+v; want the game ended through the writer alone", start)
		}
		if pending, rows := marked(t, s, through); pending || rows != 4 {
			t.Errorf("indexed: marked %v, %d explorer rows; want unmarked and 4", pending, rows)
		}
		// The game's end written again after it was indexed (a write
		// tried again) marks it again, and is not counted twice.
		if err := s.Update(context.Background(), through, Change{From: 4, GameString: "Base;InProgress;White[1];" + g.moves,
			End: &End{Result: g.result, How: "state", At: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		if start := explore(t, s, ""); len(start) != 1 || start[0].white != 1 {
			t.Fatalf("the end written again: %+v; want one game", start)
		}
		if pending, _ := marked(t, s, through); pending {
			t.Error("the end written again is still marked once the writer indexed what it held")
		}
		indexEnded(t, s) // the game ended alone, swept
		if pending, rows := marked(t, s, alone); pending || rows != 4 {
			t.Errorf("swept: marked %v, %d explorer rows; want unmarked and 4", pending, rows)
		}
		checkCounts(t, s)
	})
}

// TestSweepAfterKill: the games a writer ended and did not index (a
// daemon killed between the two transactions) are indexed by the next
// writer to open the archive, before it answers, and not by a reader.
func TestSweepAfterKill(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		s := open(t, db, "serve").(*sqlStore)
		var ids []int64
		for _, g := range explorerGames {
			ids = append(ids, endAlone(t, s, g.moves, g.result))
		}
		s.Close()
		reader := open(t, db, Reader).(*sqlStore)
		if pending, rows := marked(t, reader, ids[0]); !pending || rows != 0 {
			t.Errorf("opened by a reader: marked %v, %d explorer rows; want marked and none", pending, rows)
		}
		s = open(t, db, "serve").(*sqlStore)
		for i, id := range ids {
			pending, rows := marked(t, s, id)
			want := len(strings.Split(explorerGames[i].moves, ";"))
			if explorerGames[i].result == "" {
				want = 0
			}
			if pending || rows != want {
				t.Errorf("game %d: marked %v, %d explorer rows; want unmarked and %d", id, pending, rows, want)
			}
		}
		if start := explore(t, s, ""); len(start) != 2 || start[0].white != 2 || start[0].b != 1 || start[1].d != 1 {
			t.Fatalf("swept, at the start: %+v", start)
		}
		checkCounts(t, s)
	})
}

// TestIndexBesideTheWriter: with PostgreSQL the explorer's index runs
// beside the writer, so that a write committed while an index
// transaction is held up (here by a lock on the explorer's counts, as
// another daemon's index may hold them) does not wait for it; and the
// index, once let go, has the game.
func TestIndexBesideTheWriter(t *testing.T) {
	db := pgtest.Start(t).URL
	s := open(t, db, "serve").(*sqlStore)
	ctx := context.Background()
	locker, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close()
	lock, err := locker.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	if _, err := lock.ExecContext(ctx, `LOCK TABLE explorer_moves IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	g := explorerGames[0]
	ended := endGame(t, s, g.moves, g.result)
	indexed := make(chan error, 1)
	go func() { indexed <- s.indexNow(ctx) }()
	// The index transaction is held up once it waits for the lock.
	waitFor(t, 10*time.Second, "an index transaction to wait for the explorer's counts", func() bool {
		var waiting int
		if err := locker.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_locks
			WHERE NOT granted AND relation = 'explorer_moves'::regclass`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		return waiting > 0
	})
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if _, err := s.Start(wctx, Start{Source: "uhp-ws", GameType: "Base", White: "native", Black: "native", Started: at,
		GameString: "Base;InProgress;White[1];wS1", Moves: []Move{{Ply: 0, Text: "wS1", By: "native", At: at}}}); err != nil {
		t.Fatalf("a game started while an index transaction waits: %v", err)
	}
	select {
	case err := <-indexed:
		t.Fatalf("the index ended (%v) while the explorer's counts were locked", err)
	default:
	}
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-indexed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the index did not end within 10s of the lock's release")
	}
	if pending, rows := marked(t, s, ended); pending || rows != 4 {
		t.Errorf("indexed: marked %v, %d explorer rows; want unmarked and 4", pending, rows)
	}
	checkCounts(t, s)
}

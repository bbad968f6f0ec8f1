package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/internal/pgtest"
)

// stores runs a test against each database: a SQLite file, and a
// PostgreSQL server of the test's own when one is installed.
func stores(t *testing.T, test func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		test(t, filepath.Join(t.TempDir(), "games.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		test(t, pgtest.Start(t).URL)
	})
}

func open(t testing.TB, db string, role Role) Store {
	t.Helper()
	s, err := Open(context.Background(), db, role)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStoreRoundTrip(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve")
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		id, err := s.Start(ctx, Start{Source: "uhp-ws", GameType: "Base+MLP", White: Viewer, Black: "native", Started: t0,
			GameString: "Base+MLP;InProgress;Black[1];wS1",
			Moves:      []Move{{Ply: 0, Text: "wS1", By: Viewer, At: t0.Add(time.Second)}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Update(ctx, id, Change{From: 1, Moves: []Move{{Ply: 1, Text: "bS1 wS1-", By: "native", At: t0.Add(2 * time.Second)}},
			White: Viewer, Black: "native", GameString: "Base+MLP;InProgress;White[2];wS1;bS1 wS1-"}); err != nil {
			t.Fatal(err)
		}
		// An undo of one move and another in its place.
		if err := s.Update(ctx, id, Change{From: 1, Moves: []Move{{Ply: 1, Text: "bG1 wS1-", By: "native", At: t0.Add(3 * time.Second)}},
			White: Viewer, Black: "native", GameString: "Base+MLP;InProgress;White[2];wS1;bG1 wS1-"}); err != nil {
			t.Fatal(err)
		}
		end := &End{Result: "BlackWins", How: "forfeit", Reason: "White forfeited: tired", At: t0.Add(4 * time.Second)}
		if err := s.Update(ctx, id, Change{From: 2, White: Viewer, Black: "native", GameString: "Base+MLP;BlackWins;White[2];wS1;bG1 wS1-", End: end}); err != nil {
			t.Fatal(err)
		}
		g, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != Finished || g.Result != "BlackWins" || g.How != "forfeit" || g.Reason != end.Reason || !g.Ended.Equal(end.At) ||
			!g.Started.Equal(t0) || g.Plies != 2 || g.GameString != "Base+MLP;BlackWins;White[2];wS1;bG1 wS1-" || g.Source != "uhp-ws" {
			t.Errorf("got %+v", g)
		}
		want := []Move{{0, "wS1", Viewer, t0.Add(time.Second)}, {1, "bG1 wS1-", "native", t0.Add(3 * time.Second)}}
		if len(g.Moves) != len(want) {
			t.Fatalf("moves %+v, want %+v", g.Moves, want)
		}
		for i, m := range g.Moves {
			if m.Ply != want[i].Ply || m.Text != want[i].Text || m.By != want[i].By || !m.At.Equal(want[i].At) {
				t.Errorf("move %d: %+v, want %+v", i, m, want[i])
			}
		}
		if _, err := s.Get(ctx, id+100); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get of an unknown id: %v, want ErrNotFound", err)
		}
		if err := s.Update(ctx, id+100, Change{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("Update of an unknown id: %v, want ErrNotFound", err)
		}
	})
}

// TestBatchWithAFailingWrite commits a batch of three writes whose second
// fails (moves of a game that does not exist): the writer runs a batch
// without savepoints first, and must then run it again with one for each
// write, so that the two others are kept and the failing one alone reports
// its error.
func TestBatchWithAFailingWrite(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		var ids []int64
		for i := range 2 {
			id, err := s.Start(ctx, Start{Key: fmt.Sprint("batch-", i), Source: "uhp-ws", GameType: "Base", White: Viewer, Black: "native",
				Started: t0, GameString: "Base;NotStarted;White[1]"})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		played := func(id int64) Change {
			return Change{From: 0, Moves: []Move{{Ply: 0, Text: "wS1", By: Viewer, At: t0.Add(time.Second)}},
				White: Viewer, Black: "native", GameString: "Base;InProgress;Black[1];wS1"}
		}
		batch := []*writeOp{
			{run: s.updateOp(ids[0], played(ids[0])).run, done: make(chan error, 1)},
			{run: s.updateOp(ids[1]+100, played(ids[1]+100)).run, done: make(chan error, 1)},
			{run: s.updateOp(ids[1], played(ids[1])).run, done: make(chan error, 1)},
		}
		s.commit(batch)
		for i, op := range batch {
			err := <-op.done
			if (err != nil) != (i == 1) {
				t.Errorf("write %d of the batch: %v", i, err)
			}
		}
		for _, id := range ids {
			g, err := s.Get(ctx, id)
			if err != nil || g.Plies != 1 || len(g.Moves) != 1 || g.Moves[0].Text != "wS1" {
				t.Errorf("game %d after the batch: %+v, %v", id, g, err)
			}
		}
	})
}

func TestStoreList(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve")
		day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
		// Ten games, one a day: even days A vs B (White wins), odd days
		// C vs A (a draw, in Base+M); the last two stay in progress.
		for i := range 10 {
			white, black, gt, result := "A", "B", "Base", "WhiteWins"
			if i%2 == 1 {
				white, black, gt, result = "C", "A", "Base+M", "Draw"
			}
			id, err := s.Start(ctx, Start{Source: "match", GameType: gt, White: white, Black: black, Started: day.AddDate(0, 0, i), GameString: gt + ";NotStarted;White[1]"})
			if err != nil {
				t.Fatal(err)
			}
			if i < 8 {
				if err := s.Update(ctx, id, Change{White: white, Black: black, GameString: gt + ";" + result + ";White[1]", End: &End{Result: result, How: "state", At: day.AddDate(0, 0, i).Add(time.Hour)}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		list := func(query string) ([]Game, int) {
			t.Helper()
			f, err := ParseFilterQuery(query)
			if err != nil {
				t.Fatal(err)
			}
			games, total, err := s.List(ctx, f)
			if err != nil {
				t.Fatalf("%s: %v", query, err)
			}
			return games, total
		}
		days := func(games []Game) string {
			var b strings.Builder
			for _, g := range games {
				b.WriteString(g.Started.Format("02 "))
			}
			return strings.TrimSpace(b.String())
		}
		for _, c := range []struct {
			query, days string
			total       int
		}{
			{"", "10 09 08 07 06 05 04 03 02 01", 10},
			{"per_page=3", "10 09 08", 10},
			{"per_page=3&page=4", "01", 10},
			{"player=A", "10 09 08 07 06 05 04 03 02 01", 10},
			{"player=B", "09 07 05 03 01", 5},
			{"player=C&result=Draw", "08 06 04 02", 4},
			{"type=Base%2BM", "10 08 06 04 02", 5},
			{"result=WhiteWins&since=2025-03-03&until=2025-03-08", "07 05 03", 3},
			{"status=playing", "10 09", 2},
			{"until=2025-03-02T00:00:00Z", "01", 1},
			{"player=nobody", "", 0},
		} {
			games, total := list(c.query)
			if got := days(games); got != c.days || total != c.total {
				t.Errorf("%q: days %q of %d, want %q of %d", c.query, got, total, c.days, c.total)
			}
		}
		f, _ := ParseFilterQuery("per_page=5&page=3")
		if _, _, err := s.List(ctx, f); !errors.Is(err, ErrPastEnd) {
			t.Errorf("page past the end: %v, want ErrPastEnd", err)
		}
		f, _ = ParseFilterQuery("player=nobody&page=1")
		if games, _, err := s.List(ctx, f); err != nil || len(games) != 0 {
			t.Errorf("the first page of nothing: %v %v, want an empty page", games, err)
		}
		outcomes, err := s.Outcomes(ctx)
		if err != nil || len(outcomes) != 8 {
			t.Fatalf("outcomes %v %v, want the 8 finished games", outcomes, err)
		}
	})
}

// TestInterruptOrphans: a writer's games in progress are left alone while
// it lives, and marked interrupted (ended at their last move) once it is
// gone; a reader never marks them.
func TestInterruptOrphans(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		first, err := Open(ctx, db, "serve")
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		id, err := first.Start(ctx, Start{Source: "uhp-ws", GameType: "Base", White: Viewer, Black: Viewer, Started: t0,
			GameString: "Base;InProgress;Black[1];wA1", Moves: []Move{{Ply: 0, Text: "wA1", By: Viewer, At: t0.Add(time.Minute)}}})
		if err != nil {
			t.Fatal(err)
		}
		second := open(t, db, "serve")
		if n, err := second.InterruptOrphans(ctx); n != 0 || err != nil {
			t.Fatalf("while the first writer lives: %d interrupted, %v", n, err)
		}
		first.Close()
		// PostgreSQL ends the closed session's lock on its own time.
		waitFor(t, 10*time.Second, "the first writer's game to be found orphaned", func() bool {
			n, err := second.InterruptOrphans(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n == 1
		})
		g, err := second.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != Interrupted || !g.Ended.Equal(t0.Add(time.Minute)) || g.GameString != "Base;InProgress;Black[1];wA1" {
			t.Errorf("got %+v", g)
		}
	})
}

func TestOpenErrorNamesTheDatabase(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	os.WriteFile(notADir, []byte("x"), 0o644)
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte(strings.Repeat("this is not a database ", 200)), 0o644)
	newer := filepath.Join(dir, "newer.db")
	s, err := Open(context.Background(), newer, Reader)
	if err != nil {
		t.Fatal(err)
	}
	s.(*sqlStore).write.Exec(`UPDATE schema_version SET version = 99`)
	s.Close()
	for _, c := range []struct{ db, want string }{
		{filepath.Join(notADir, "games.db"), filepath.Join(notADir, "games.db")},
		{garbage, "not a database"},
		{newer, "version 99, newer than"},
		{"postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=2", "archive postgres://nobody:xxxxx@127.0.0.1:1/none"},
	} {
		_, err := Open(context.Background(), c.db, "serve")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%s): %v, want an error with %q", c.db, err, c.want)
		}
	}
	if s, err := Open(context.Background(), "none", "serve"); s != nil || err != nil {
		t.Errorf(`Open("none"): %v %v, want no store`, s, err)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if p, _ := DefaultPath(); p != "/data/hivebridge/games.db" {
		t.Errorf("with XDG_DATA_HOME: %s", p)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if p, _ := DefaultPath(); p != "/home/u/.local/share/hivebridge/games.db" {
		t.Errorf("without: %s", p)
	}
}

// TestHeartbeatAfterRestart: a PostgreSQL restart drops every daemon's
// advisory lock; a writer's heartbeat takes its lock again, so that its
// games in progress are not taken for a dead daemon's.
func TestHeartbeatAfterRestart(t *testing.T) {
	pg := pgtest.Start(t)
	ctx := context.Background()
	first := open(t, pg.URL, "serve")
	if _, err := first.Start(ctx, Start{Source: "uhp-ws", GameType: "Base", White: Viewer, Black: Viewer, Started: time.Now(), GameString: "Base;NotStarted;White[1]"}); err != nil {
		t.Fatal(err)
	}
	pg.Stop(t)
	pg.Start(t)
	if err := first.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	second := open(t, pg.URL, "serve")
	if n, err := second.InterruptOrphans(ctx); n != 0 || err != nil {
		t.Errorf("after the restart and a heartbeat: %d games interrupted (%v), want none: the first writer lives", n, err)
	}
}

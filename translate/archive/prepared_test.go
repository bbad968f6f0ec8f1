package archive

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestChunkTexts: the writer's statements of many rows take them in
// chunks that add up to the rows, of few sizes (so few texts): in SQLite
// the most a statement takes, or a power of two; in PostgreSQL all of
// them up to its bound, whose text does not depend on the number.
func TestChunkTexts(t *testing.T) {
	for _, columns := range [][]column{idColumns(), namesColumns(), movesColumns(), endColumns()} {
		sizes := map[int]bool{}
		for n := 1; n <= 1000; n++ {
			left, parts := n, 0
			for left > 0 {
				c := sqliteDialect.chunk(left, columns)
				if c < 1 || c > left || c > sqliteDialect.rows(columns) {
					t.Fatalf("%d columns: chunk(%d) = %d", len(columns), left, c)
				}
				sizes[c] = true
				left -= c
				parts++
			}
			// A chunk of the most, then one per bit of what is left.
			if most := sqliteDialect.rows(columns); parts > n/most+bitsSet(n%most) {
				t.Errorf("%d columns: %d rows in %d statements", len(columns), n, parts)
			}
		}
		if want := bitLen(sqliteDialect.rows(columns)) + 1; len(sizes) > want {
			t.Errorf("%d columns: %d sizes of statement, want at most %d", len(columns), len(sizes), want)
		}
		if got := postgresDialect.chunk(700, columns); got != 700 {
			t.Errorf("PostgreSQL: chunk(700) = %d, want all 700", got)
		}
	}
}

func bitsSet(n int) (k int) {
	for ; n > 0; n &= n - 1 {
		k++
	}
	return k
}

func bitLen(n int) (k int) {
	for ; n > 0; n >>= 1 {
		k++
	}
	return k
}

// TestWriterKeepsItsStatements: under games in flight at once, in
// batches of every size, the writer of a SQLite archive keeps a few dozen
// texts prepared and runs its statements through them, and every move is
// in the archive.
func TestWriterKeepsItsStatements(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"), "serve").(*sqlStore)
	k := NewKeeper(s, KeeperConfig{})
	const games, plies = 300, 12
	ids := make([]int64, games)
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			var moves []string
			r := k.Begin("test", "Base", benchGameString(moves), nil, Viewer, Players{})
			for i := range plies {
				moves = append(moves, "wA"+strconv.Itoa(i))
				r.Played(moves[i], Viewer)
				if g%3 == 0 {
					r.Settle() // some sessions wait for each move: batches of all sizes
				}
			}
			r.Ended(End{How: "disconnect", At: time.Now()}, benchGameString(moves))
			ids[g] = r.ID()
		})
	}
	wg.Wait()
	k.Close()
	s.prepared.mu.Lock()
	kept := len(s.prepared.kept)
	s.prepared.mu.Unlock()
	// Starts, moves, names, ends, and the explorer's three: each at most
	// one text per power of two below its most rows, and the most.
	t.Logf("%d texts kept prepared", kept)
	if kept == 0 || kept > 60 {
		t.Errorf("%d texts kept prepared, want a few dozen", kept)
	}
	for _, id := range ids {
		g, err := s.Get(context.Background(), id)
		if err != nil || len(g.Moves) != plies || g.Status == Playing {
			t.Fatalf("game %d: %d moves, %s, %v; want %d, ended", id, len(g.Moves), g.Status, err, plies)
		}
	}
}

// TestPrepareWaitsWithoutTheLock: a text is prepared on SQLite's one
// writing connection, so the prepare waits while another holds that
// connection in a transaction; that transaction must still look up its
// statements and commit, and the text is kept once it has. (Holding the
// lock through the prepare deadlocked the two until the writer's context
// ended: the CI run of 634b275, TestStartsTogether.)
func TestPrepareWaitsWithoutTheLock(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"), "serve").(*sqlStore)
	p := newPreparedStatements(s.write)
	defer p.close()
	const first, second = "SELECT count(*) FROM games", "SELECT count(*) FROM moves"
	p.statement(first)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitsBefore := s.write.Stats().WaitCount
	prepared := make(chan struct{})
	go func() {
		p.prepareWanted(ctx)
		close(prepared)
	}()
	waitFor(t, 5*time.Second, "the prepare to wait for the writing connection", func() bool {
		return s.write.Stats().WaitCount != waitsBefore
	})
	rows, err := p.in(tx, nil).QueryContext(ctx, second)
	if err != nil {
		t.Fatalf("the transaction's statement while a prepare waited: %v", err)
	}
	rows.Close()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	<-prepared
	if p.statement(first) == nil {
		t.Errorf("%q was not kept once the transaction had committed", first)
	}
}

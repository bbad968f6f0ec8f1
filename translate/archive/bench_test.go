package archive

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/internal/pgtest"
)

// BenchmarkMoveSQLite is the cost of archiving one move in a SQLite file,
// from 32 games a CPU played at once (go test -bench Move -run ^$).
func BenchmarkMoveSQLite(b *testing.B) {
	benchmarkMove(b, filepath.Join(b.TempDir(), "games.db"))
}

// BenchmarkMovePostgres is the same in PostgreSQL.
func BenchmarkMovePostgres(b *testing.B) {
	benchmarkMove(b, pgtest.Start(b).URL)
}

func benchmarkMove(b *testing.B, db string) {
	s, err := Open(context.Background(), db, "serve")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	k := NewKeeper(s, KeeperConfig{})
	defer k.Close()
	b.SetParallelism(32) // 32 goroutines a CPU
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		r := k.Begin("bench", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{})
		for i := 0; pb.Next(); i++ {
			r.Played("wA"+strconv.Itoa(i), Viewer)
		}
		r.Ended(End{How: "disconnect", At: time.Now()}, "Base;InProgress;Black[1];wA1")
	})
}

// BenchmarkWriter is the writer alone under the daemon's load shape:
// games in flight at once (1, 100, 10,000), each a session that records a
// move and settles it before its next, as a session's next command waits
// for its game's last write. It reports the moves archived a second (go
// test -bench Writer -run ^$ ./translate/archive; the PostgreSQL ones
// need HIVEBRIDGE_PG_TESTS=1 or a local server).
func BenchmarkWriter(b *testing.B) {
	for _, games := range []int{1, 100, 10000} {
		b.Run("sqlite/games="+strconv.Itoa(games), func(b *testing.B) {
			benchmarkWriter(b, filepath.Join(b.TempDir(), "games.db"), games)
		})
	}
	for _, games := range []int{1, 100, 10000} {
		b.Run("postgres/games="+strconv.Itoa(games), func(b *testing.B) {
			benchmarkWriter(b, pgtest.Start(b).URL, games)
		})
	}
}

// benchGamePlies is the length of each game BenchmarkWriter plays.
const benchGamePlies = 60

func benchmarkWriter(b *testing.B, db string, games int) {
	s, err := Open(context.Background(), db, "serve")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	k := NewKeeper(s, KeeperConfig{})
	defer k.Close()
	// The b.N moves are shared out among the games, as evenly as they go.
	per := max(1, b.N/games)
	start := time.Now()
	var wg sync.WaitGroup
	for g := range games {
		n := per
		if g == 0 {
			n += max(0, b.N-per*games)
		}
		wg.Go(func() {
			// A session plays games of benchGamePlies moves, one after
			// the other: a real game's length, well under MaxPlies.
			var (
				r     *Recorder
				moves []string
			)
			for i := range n {
				if i%benchGamePlies == 0 {
					if r != nil {
						r.Ended(End{How: "disconnect", At: time.Now()}, benchGameString(moves))
					}
					moves = moves[:0]
					r = k.Begin("bench", "Base", benchGameString(moves), nil, Viewer, Players{})
				}
				moves = append(moves, "wA"+strconv.Itoa(i))
				r.Played(moves[len(moves)-1], Viewer)
				r.Settle()
			}
			if r != nil {
				r.Ended(End{How: "disconnect", At: time.Now()}, benchGameString(moves))
				r.Settle()
			}
		})
	}
	wg.Wait()
	moves := max(b.N, per*games)
	b.ReportMetric(float64(moves)/time.Since(start).Seconds(), "moves/s")
}

// benchGameString is the GameString of a game of Base in progress with
// moves (their texts are not Hive's: the archive does not read them).
func benchGameString(moves []string) string {
	gs, _ := gameStringAfter("Base;NotStarted;White[1]", moves)
	return gs
}

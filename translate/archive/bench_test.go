package archive

import (
	"context"
	"path/filepath"
	"strconv"
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
			r.Played("wA"+strconv.Itoa(i), Viewer, "Base;InProgress;Black[1];wA1")
		}
		r.Ended(End{How: "disconnect", At: time.Now()}, "Base;InProgress;Black[1];wA1")
	})
}

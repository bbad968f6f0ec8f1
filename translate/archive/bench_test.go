package archive

import (
	"path/filepath"
	"strconv"
	"strings"
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
	s := open(b, db, "serve")
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
	s := open(b, db, "serve")
	k := NewKeeper(s, KeeperConfig{})
	defer k.Close()
	inFlight(b, games, "moves/s", func(_, n int) {
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

// inFlight runs games sessions at once, each doing its share of the b.N
// units of work (as evenly as they go: session g does n of them), and
// reports the units done a second, named unit. The setup before it is
// left out of the timing.
func inFlight(b *testing.B, games int, unit string, session func(g, n int)) {
	b.ResetTimer()
	per := max(1, b.N/games)
	start := time.Now()
	var wg sync.WaitGroup
	for g := range games {
		n := per
		if g == 0 {
			n += max(0, b.N-per*games)
		}
		wg.Go(func() { session(g, n) })
	}
	wg.Wait()
	b.ReportMetric(float64(max(b.N, per*games))/time.Since(start).Seconds(), unit)
}

// benchGameString is the GameString of a game of Base in progress with
// moves (their texts are not Hive's: the archive does not read them).
func benchGameString(moves []string) string {
	gs, _ := gameStringAfter("Base;NotStarted;White[1]", moves)
	return gs
}

// BenchmarkEnds is the writer under games that end quickly: games in
// flight at once (1, 100, 1,000), each a session that plays games of
// benchEndPlies real moves (so that each end is indexed for the explorer),
// settling each move and the end as a session's next command waits for
// them, one game after the other. It reports the games ended a second (go
// test -bench Ends -run ^$ ./translate/archive).
func BenchmarkEnds(b *testing.B) {
	openings := readOpenings(b)
	for _, games := range []int{1, 100, 1000} {
		b.Run("sqlite/games="+strconv.Itoa(games), func(b *testing.B) {
			benchmarkEnds(b, filepath.Join(b.TempDir(), "games.db"), games, openings)
		})
	}
	for _, games := range []int{1, 100, 1000} {
		b.Run("postgres/games="+strconv.Itoa(games), func(b *testing.B) {
			benchmarkEnds(b, pgtest.Start(b).URL, games, openings)
		})
	}
}

// benchEndPlies is the length of each game BenchmarkEnds plays: a game
// that ends quickly, all of it in the explorer.
const benchEndPlies = 8

func benchmarkEnds(b *testing.B, db string, games int, openings [][]string) {
	s := open(b, db, "serve")
	k := NewKeeper(s, KeeperConfig{})
	defer k.Close()
	inFlight(b, games, "ends/s", func(g, n int) {
		for i := range n {
			moves, result := benchGame(openings, g*n+i)
			moves = moves[:benchEndPlies]
			r := k.Begin("bench", "Base+MLP", "Base+MLP;NotStarted;White[1]", nil, Viewer, Players{})
			for _, m := range moves {
				r.Played(m, Viewer)
				r.Settle()
			}
			gs, _ := gameStringAfter("Base+MLP;NotStarted;White[1]", moves)
			r.Ended(End{Result: result, How: "state", At: time.Now()}, strings.Replace(gs, ";InProgress;", ";"+result+";", 1))
			r.Settle()
		}
	})
}

// BenchmarkEndBatch is the writer's transaction of benchEndBatch games'
// ends, each adding the game's last move and indexing its benchEndPlies
// plies: run together (addAll), or each alone as the writer ran them
// before it ran ends together (go test -bench EndBatch -run ^$
// ./translate/archive). It reports the time of one end.
func BenchmarkEndBatch(b *testing.B) {
	openings := readOpenings(b)
	for _, db := range []string{"sqlite", "postgres"} {
		for _, together := range []bool{true, false} {
			b.Run(db+"/together="+strconv.FormatBool(together), func(b *testing.B) {
				name := filepath.Join(b.TempDir(), "games.db")
				if db == "postgres" {
					name = pgtest.Start(b).URL
				}
				benchmarkEndBatch(b, name, together, openings)
			})
		}
	}
}

// benchEndBatch is how many ends BenchmarkEndBatch commits in a
// transaction: the ends of a few seconds at a thousand sessions.
const benchEndBatch = 100

func benchmarkEndBatch(b *testing.B, db string, together bool, openings [][]string) {
	s := open(b, db, "serve").(*sqlStore)
	const from = "Base+MLP;NotStarted;White[1]"
	for i := range b.N {
		b.StopTimer()
		starts := make([]*writeOp, benchEndBatch)
		games := make([][]Move, benchEndBatch)
		results := make([]string, benchEndBatch)
		for j := range starts {
			texts, result := benchGame(openings, i*benchEndBatch+j)
			for ply, text := range texts[:benchEndPlies] {
				games[j] = append(games[j], Move{Ply: ply, Text: text, By: Viewer, At: time.Now()})
			}
			gs, _ := gameStringAfter(from, texts[:benchEndPlies-1])
			starts[j] = s.startOp(Start{Key: strconv.Itoa(i*benchEndBatch + j), Source: "bench", GameType: "Base+MLP",
				White: Viewer, Black: "native", Started: time.Now(), GameString: gs, Moves: games[j][:benchEndPlies-1]})
			starts[j].done, results[j] = make(chan error, 1), result
		}
		s.commit(starts)
		ends := make([]*writeOp, benchEndBatch)
		for j, op := range starts {
			if err := <-op.done; err != nil {
				b.Fatal(err)
			}
			texts := make([]string, benchEndPlies)
			for k, m := range games[j] {
				texts[k] = m.Text
			}
			gs, _ := gameStringAfter(from, texts)
			end := End{Result: results[j], How: "state", At: time.Now()}
			ends[j] = s.updateOp(op.id, Change{From: benchEndPlies - 1, Moves: games[j][benchEndPlies-1:],
				GameString: strings.Replace(gs, ";InProgress;", ";"+results[j]+";", 1), End: &end, Synced: true})
			ends[j].done = make(chan error, 1)
			if !together {
				ends[j].added = nil
			}
		}
		b.StartTimer()
		s.commit(ends)
		b.StopTimer()
		for _, op := range ends {
			if err := <-op.done; err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchEndBatch), "ns/end")
}

// BenchmarkWriterPaced is the writer under a daemon's pace: one session
// goroutine a CPU, each playing its turn in each of its games in flight
// round the games, so that a game's next move comes long after its last
// write has ended and, as in a daemon whose players think, its Settle
// seldom waits. Its allocations a move (-benchmem) are what the archive
// adds to a busy daemon's garbage (go test -bench WriterPaced -benchmem
// -run ^$ ./translate/archive).
func BenchmarkWriterPaced(b *testing.B) {
	b.Run("sqlite/games=10000", func(b *testing.B) {
		benchmarkWriterPaced(b, filepath.Join(b.TempDir(), "games.db"), 10000)
	})
	b.Run("postgres/games=10000", func(b *testing.B) {
		benchmarkWriterPaced(b, pgtest.Start(b).URL, 10000)
	})
}

func benchmarkWriterPaced(b *testing.B, db string, games int) {
	s := open(b, db, "serve")
	k := NewKeeper(s, KeeperConfig{})
	defer k.Close()
	recorders := make([]*Recorder, games)
	moves := make([][]string, games)
	for g := range recorders {
		recorders[g] = k.Begin("bench", "Base", benchGameString(nil), nil, Viewer, Players{})
	}
	b.ResetTimer()
	for i := range b.N {
		g := i % games
		if len(moves[g]) == benchGamePlies {
			recorders[g].Ended(End{How: "disconnect", At: time.Now()}, benchGameString(moves[g]))
			moves[g] = moves[g][:0]
			recorders[g] = k.Begin("bench", "Base", benchGameString(nil), nil, Viewer, Players{})
		}
		moves[g] = append(moves[g], "wA"+strconv.Itoa(i))
		recorders[g].Played(moves[g][len(moves[g])-1], Viewer)
	}
	b.StopTimer()
	for _, r := range recorders {
		r.Settle()
	}
}

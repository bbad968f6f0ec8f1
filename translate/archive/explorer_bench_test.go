package archive

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// The explorer's benchmark: an archive of generated games (250,000 by
// default, HIVEBRIDGE_EXPLORER_GAMES to change), and the explorer's query
// timed over positions of every popularity. HIVEBRIDGE_EXPLORER_DB names
// the archive: a SQLite file, built if it holds no game and kept for the
// next run; "postgres" for a server of the benchmark's own (built each
// run); or a postgres:// URL, a database built if it holds no game and kept
// like the file. Without it the benchmark is skipped:
//
//	HIVEBRIDGE_EXPLORER_DB=/tmp/explorer.db go test -run '^$' -bench Explorer -benchtime 1x ./translate/archive

// openingsFile holds Base+MLP openings of six random plies.
const openingsFile = "../../testdata/openings-mlp.txt"

// readOpenings returns the moves of each opening of openingsFile.
func readOpenings(tb testing.TB) [][]string {
	f, err := os.Open(openingsFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			gs, err := uhp.ParseGameString(line)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, gs.Moves)
		}
	}
	return out
}

// benchGame generates game i: one of the openings, chosen with a skew (a
// uniform number cubed: a few openings in many games, most in few), cut after 0 to 6 of
// its plies, then random legal moves to 36 to 48 plies; its result drawn
// 45% White, 10% draws, 45% Black. Game i is the same at every call.
func benchGame(openings [][]string, i int) ([]string, string) {
	rng := rand.New(rand.NewPCG(uint64(i), 27))
	pick := int(float64(len(openings)) * rng.Float64() * rng.Float64() * rng.Float64())
	opening := openings[pick][:rng.IntN(7)]
	g := core.NewGame(core.AllExpansions, core.RepetitionDraw(false))
	moves := make([]string, 0, 48)
	for _, text := range opening {
		m, err := uhp.ParseMove(text, g)
		if err != nil {
			panic(err)
		}
		moves = append(moves, uhp.FormatMove(m, g))
		g.Play(m)
	}
	var l core.MoveList
	for n := 36 + rng.IntN(13); len(moves) < n && !g.Over(); {
		g.GenerateMoves(&l)
		m := l.At(rng.IntN(l.Len()))
		moves = append(moves, uhp.FormatMove(m, g))
		g.Play(m)
	}
	result := "WhiteWins"
	switch r := rng.IntN(20); {
	case r < 2:
		result = "Draw"
	case r < 11:
		result = "BlackWins"
	}
	return moves, result
}

// buildExplorerArchive imports n generated games into s, 5,000 a
// transaction.
func buildExplorerArchive(b *testing.B, s Store, n int) {
	openings := readOpenings(b)
	ctx := context.Background()
	start := time.Now()
	for from := 0; from < n; from += 5000 {
		var batch []Imported
		for i := from; i < min(n, from+5000); i++ {
			moves, result := benchGame(openings, i)
			r, err := records.New(core.AllExpansions, moves)
			if err != nil {
				b.Fatal(err)
			}
			r.White, r.Black, r.Result = "w"+strconv.Itoa(i%97), "b"+strconv.Itoa(i%89), result
			batch = append(batch, Imported{Source: "bench", Record: r, Started: time.Unix(int64(1.7e9)+int64(i), 0)})
		}
		if _, err := s.Import(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("built %d games in %s", n, time.Since(start).Round(time.Second))
}

// benchPositions returns the keys of positions of the generated games:
// the start, positions two to eight plies in (the openings' common
// ones), and positions 12 to 28 plies in (mostly in one game), each
// labelled by its depth.
func benchPositions(b *testing.B, games int) map[string][]uint64 {
	openings := readOpenings(b)
	out := map[string][]uint64{}
	seen := map[uint64]bool{}
	for i := 0; i < games; i += max(1, games/400) {
		moves, _ := benchGame(openings, i)
		g := core.NewGame(core.AllExpansions, core.RepetitionDraw(false))
		for ply, text := range moves[:min(len(moves), 29)] {
			o := core.Orient(g)
			label := ""
			switch {
			case ply == 0:
				label = "start"
			case ply >= 2 && ply <= 8 && ply%2 == 0:
				label = "plies 2-8"
			case ply >= 12 && ply%8 == 4:
				label = "plies 12-28"
			}
			if label != "" && !seen[o.Key()] {
				seen[o.Key()] = true
				out[label] = append(out[label], o.Key())
			}
			m, err := uhp.ParseMove(text, g)
			if err != nil {
				b.Fatal(err)
			}
			g.Play(m)
		}
	}
	return out
}

func BenchmarkExplorer(b *testing.B) {
	db := os.Getenv("HIVEBRIDGE_EXPLORER_DB")
	if db == "" {
		b.Skip("HIVEBRIDGE_EXPLORER_DB names no archive to build or read")
	}
	games := 250_000
	if v := os.Getenv("HIVEBRIDGE_EXPLORER_GAMES"); v != "" {
		var err error
		if games, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	switch {
	case db == "postgres":
		db = pgtest.Start(b).URL
	case strings.HasPrefix(db, "postgres://"), filepath.IsAbs(db):
	default:
		b.Fatal("HIVEBRIDGE_EXPLORER_DB: want an absolute path, postgres or a postgres:// URL")
	}
	ctx := context.Background()
	s, err := Open(ctx, db, "import")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, total, err := s.List(ctx, Filter{PerPage: 1}); err != nil {
		b.Fatal(err)
	} else if total == 0 {
		buildExplorerArchive(b, s, games)
	} else {
		games = total
	}
	positions := benchPositions(b, games)
	b.ResetTimer()
	for b.Loop() {
		var all []time.Duration
		for _, label := range []string{"start", "plies 2-8", "plies 12-28"} {
			var took []time.Duration
			through := 0
			for _, key := range positions[label] {
				t0 := time.Now()
				found, err := s.Explore(ctx, key, 5)
				took = append(took, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range found {
					through += m.Total()
				}
			}
			// The start is asked as often as the others, so that its
			// figure is not one sample.
			if label == "start" {
				for range 200 {
					t0 := time.Now()
					if _, err := s.Explore(ctx, positions[label][0], 5); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(t0))
				}
			}
			slices.Sort(took)
			all = append(all, took...)
			b.Logf("%-12s %4d queries over %4d positions, %8.1f games a position: p50 %v, p99 %v, max %v", label, len(took),
				len(positions[label]), float64(through)/float64(len(positions[label])),
				took[len(took)/2], took[len(took)*99/100], took[len(took)-1])
		}
		slices.Sort(all)
		b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
		fmt.Fprintf(os.Stderr, "%s: %d games, %d queries: p50 %v, p99 %v\n", s.Name(), games, len(all), all[len(all)/2], all[len(all)*99/100])
	}
}

// BenchmarkExplorerIndex is the explorer's index of the games that end
// when many end at once: each iteration indexes benchIndexBatch more
// generated games (benchGame) in one of the writer's transactions, into
// an archive that grows with the iterations, so that the figure (µs a
// game) is of an archive of benchIndexBatch times b.N games; run it with a
// fixed count (go test -run '^$' -bench ExplorerIndex -benchtime 60x
// ./translate/archive). The games have no rows in games, the foreign key
// off: it measures the explorer's tables.
func BenchmarkExplorerIndex(b *testing.B) {
	openings := readOpenings(b)
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			name := filepath.Join(b.TempDir(), "games.db")
			if db == "postgres" {
				name = pgtest.Start(b).URL
			}
			benchmarkExplorerIndex(b, open(b, name, "serve").(*sqlStore), openings)
		})
	}
}

// benchIndexBatch is how many games BenchmarkExplorerIndex indexes in a
// transaction: as the writer did when 10,000 games ended within 20 s.
const benchIndexBatch = 300

func benchmarkExplorerIndex(b *testing.B, s *sqlStore, openings [][]string) {
	ctx := context.Background()
	off := `PRAGMA foreign_keys = OFF`
	if s.d.dollar {
		off = `ALTER TABLE explorer DROP CONSTRAINT explorer_game_fkey`
	}
	if _, err := s.write.ExecContext(ctx, off); err != nil {
		b.Fatal(err)
	}
	id := int64(1)
	for b.Loop() {
		b.StopTimer()
		games := make([]indexedGame, benchIndexBatch)
		for j := range games {
			moves, result := benchGame(openings, int(id))
			games[j] = indexedGame{id: id, result: resultCode(result), rows: explorerRowsOf("Base+MLP", moves)}
			id++
		}
		b.StartTimer()
		tx, err := s.write.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.d.indexAll(ctx, s.writerTx(tx), games); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		s.prepared.prepareWanted(ctx)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(id-1), "µs/game")
}

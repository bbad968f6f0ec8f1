package archive

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// randomRecords returns n random legal games of Base+MLP, 40 to 120 plies
// long, as records between two players.
func randomRecords(t testing.TB, n int, seed uint64) []Imported {
	rng := rand.New(rand.NewPCG(seed, 26))
	var (
		l   core.MoveList
		out []Imported
	)
	for i := range n {
		g := core.NewGame(core.AllExpansions, core.RepetitionDraw(false))
		var moves []string
		for target := 40 + rng.IntN(80); g.Ply() < target && !g.Over(); {
			g.GenerateMoves(&l)
			m := l.At(rng.IntN(l.Len()))
			moves = append(moves, uhp.FormatMove(m, g))
			g.Play(m)
		}
		r, err := records.New(core.AllExpansions, moves)
		if err != nil {
			t.Fatal(err)
		}
		r.White, r.Black, r.Date = fmt.Sprint("p", i%50), fmt.Sprint("q", i%70), "2024.05.06"
		if g.Over() {
			r.Result = core.StateOf(g).String()
		}
		out = append(out, Imported{Source: "import", Record: r, Started: time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)})
	}
	return out
}

// TestImport keeps games from records in both databases: each once,
// however often imported, its moves and end read back.
func TestImport(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "import")
		games := randomRecords(t, 30, 1)
		if added, err := s.Import(ctx, games[:20]); err != nil || added != 20 {
			t.Fatalf("first import: %d added, %v", added, err)
		}
		if added, err := s.Import(ctx, games); err != nil || added != 10 {
			t.Fatalf("second import: %d added, %v; want the 10 new", added, err)
		}
		list, total, err := s.List(ctx, Filter{PerPage: 100})
		if err != nil || total != 30 {
			t.Fatalf("%d games archived, %v", total, err)
		}
		for _, g := range list {
			full, err := s.Get(ctx, g.ID)
			if err != nil || full.Status != Finished || full.Plies != len(full.Moves) || full.Source != "import" {
				t.Fatalf("game %d: %+v, %v", g.ID, full, err)
			}
			want, _ := records.Record{GameType: core.AllExpansions, Moves: textsOf(full.Moves)}.UHPString()
			if full.GameString != want || (full.Result == "") != (full.How == "unknown") {
				t.Errorf("game %d: %q (%s, %s), moves give %q", g.ID, full.GameString, full.Result, full.How, want)
			}
		}
	})
}

func textsOf(moves []Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, m.Text)
	}
	return out
}

// BenchmarkImport is games import's work: games from records kept in the
// archive 500 a transaction, in games a second (go test -run '^$' -bench
// Import ./translate/archive).
func BenchmarkImport(b *testing.B) {
	games := randomRecords(b, 2000, 2)
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "games.db"), "import")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ResetTimer()
	n := 0
	for i := range b.N {
		batch := make([]Imported, 0, 500)
		for _, g := range games {
			g.Record.Date = fmt.Sprint("2024.05.", 1+i%28) // a new game each round
			g.Record.White += fmt.Sprint("-", i)
			batch = append(batch, g)
			if len(batch) == cap(batch) {
				added, err := s.Import(context.Background(), batch)
				if err != nil || added != len(batch) {
					b.Fatal(added, err)
				}
				n += added
				batch = batch[:0]
			}
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "games/s")
}

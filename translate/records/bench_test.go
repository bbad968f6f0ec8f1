package records_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// corpus returns n random legal games of Base+MLP of realistic length (40
// to 120 plies, as BoardSpace's human games run), written in format f.
func corpus(b *testing.B, n int, f records.Format) []byte {
	rng := rand.New(rand.NewPCG(1, 23))
	var (
		l    core.MoveList
		recs []records.Record
	)
	for range n {
		g := core.NewGame(core.AllExpansions, core.RepetitionDraw(false))
		r := records.Record{GameType: core.AllExpansions, White: "alice", Black: "bob"}
		for target := 40 + rng.IntN(80); g.Ply() < target && !g.Over(); {
			g.GenerateMoves(&l)
			m := l.At(rng.IntN(l.Len()))
			r.Moves = append(r.Moves, uhp.FormatMove(m, g))
			g.Play(m)
		}
		recs = append(recs, r)
	}
	var buf bytes.Buffer
	if err := records.Write(&buf, f, recs...); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkConvert is games convert's work on a file of 1,000 games: read
// (every move checked) and written as GameStrings, in games a second (go
// test -run '^$' -bench Convert ./translate/records).
func BenchmarkConvert(b *testing.B) {
	for _, f := range []records.Format{records.PGN, records.GameString, records.JSONL} {
		b.Run(string(f), func(b *testing.B) {
			const games = 1000
			data := corpus(b, games, f)
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for range b.N {
				recs, errs := records.Read("corpus", data)
				if len(errs) > 0 || len(recs) != games {
					b.Fatal(len(recs), errs)
				}
				if err := records.Write(io.Discard, records.GameString, recs...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(games*b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

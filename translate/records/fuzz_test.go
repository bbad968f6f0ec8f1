package records_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hivebridge/hivebridge/translate/records"
)

// FuzzRead feeds any bytes to Read, which tells the format and replays
// every game: it must not panic, and every game it returns must be written
// in every format and read back to the same GameString.
func FuzzRead(f *testing.F) {
	for _, pattern := range []string{"../../protocols/sgf/testdata/*", "../../protocols/pgn/testdata/*/*.pgn"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("Base;InProgress;White[2];wS1;bS1 wS1-\n"))
	f.Add([]byte(`{"game_type":"Base+M","moves":[{"move":"wM","comment":"0.35@7 0.982s"},{"move":"bM wM-"}]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, _ := records.Read("fuzz", data)
		for _, r := range recs {
			want, err := records.Record{GameType: r.GameType, Moves: r.Moves}.Replay()
			if err != nil {
				t.Fatalf("a game read does not replay: %v", err)
			}
			for _, f := range records.Formats() {
				var buf bytes.Buffer
				if err := records.Write(&buf, f, r); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				back, errs := records.Read("written", buf.Bytes())
				if len(errs) > 0 || len(back) != 1 {
					t.Fatalf("%s: read back %d games, %v:\n%s", f, len(back), errs, buf.Bytes())
				}
				got, err := back[0].Replay()
				if err != nil || got.Ply() != want.Ply() || got.PositionKey() != want.PositionKey() {
					t.Fatalf("%s: read back a different game:\n%s", f, buf.Bytes())
				}
			}
		}
	})
}

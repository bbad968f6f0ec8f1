// Package archivetest holds the test set-up that the daemon's and the
// command's archive tests share: running a test on each database, and
// reading back what was archived. It is imported by tests only. The
// archive package's own tests keep theirs, since they cannot import a
// package that imports archive.
package archivetest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// EachDB runs a test on a SQLite file and on a PostgreSQL server of its
// own (unless -short).
func EachDB(t *testing.T, test func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) {
		test(t, filepath.Join(t.TempDir(), "games.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		if testing.Short() {
			t.Skip("starts PostgreSQL")
		}
		test(t, pgtest.Start(t).URL)
	})
}

// Read opens an archive as a reader for the test, closed when it ends.
func Read(t *testing.T, db string) archive.Store {
	t.Helper()
	s, err := archive.Open(context.Background(), db, archive.Reader)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// AllGames returns every archived game with its moves, oldest first.
func AllGames(t *testing.T, s archive.Store) []archive.Game {
	t.Helper()
	list, _, err := s.List(context.Background(), archive.Filter{Page: 1, PerPage: archive.MaxPerPage})
	if err != nil {
		t.Fatal(err)
	}
	var out []archive.Game
	for i := len(list) - 1; i >= 0; i-- {
		g, err := s.Get(context.Background(), list[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// MoveTexts gives each move of g as "text/by", comma-separated.
func MoveTexts(g archive.Game) string {
	var parts []string
	for _, m := range g.Moves {
		parts = append(parts, m.Text+"/"+m.By)
	}
	return strings.Join(parts, ", ")
}

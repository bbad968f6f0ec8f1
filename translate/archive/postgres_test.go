package archive

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/internal/pgtest"
)

// TestWriterPlansByKey: the writer's connections find the games a batch
// changes by their key, however small the table was when the statement
// was planned, where the readers' connections, planning as PostgreSQL
// does by default, scan a small table whole.
func TestWriterPlansByKey(t *testing.T) {
	s := open(t, pgtest.Start(t).URL, "serve").(*sqlStore)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO games (owner, game_key, source, game_type, white, black, status, started_ms, game_string)
			SELECT 1, 'k' || g, 'uhp', 'Base', 'w', 'b', 'playing', g, 'Base;NotStarted;White[1]' FROM generate_series(1, 20) g`,
		`ANALYZE games`,
	} {
		if _, err := s.read.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	plan := func(db *sql.DB) string {
		t.Helper()
		rows, err := db.QueryContext(ctx, `EXPLAIN WITH v (id) AS (SELECT * FROM unnest($1::bigint[]))
			UPDATE games SET plies = games.plies + 1 FROM v WHERE games.id = v.id`, []int64{3, 5, 8})
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}
	if got := plan(s.read); !strings.Contains(got, "Seq Scan on games") {
		t.Errorf("a reader's plan does not scan the table, so this test shows nothing:\n%s", got)
	}
	if got := plan(s.write); strings.Contains(got, "Seq Scan on games") || !strings.Contains(got, "Index Scan using games_pkey") {
		t.Errorf("the writer's plan does not find the games by their id:\n%s", got)
	}
}

// Package writehold holds up an archive's writes for a test: another
// connection holds SQLite's write lock, or a PostgreSQL lock on the moves'
// table that lets nobody else write them, as a busy or stuck database
// would.
package writehold

import (
	"database/sql"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"             // the "sqlite" driver
)

// Hold holds up the writes of the archive db (a SQLite file or a
// postgres:// URL) until the function it returns is called.
func Hold(t testing.TB, db string) (release func()) {
	t.Helper()
	driver, begin := "sqlite", []string{"BEGIN IMMEDIATE"}
	if strings.HasPrefix(db, "postgres://") {
		driver, begin = "pgx", []string{"BEGIN", "LOCK TABLE moves IN EXCLUSIVE MODE"}
	}
	conn, err := sql.Open(driver, db)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetMaxOpenConns(1)
	for _, stmt := range begin {
		if _, err := conn.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		if _, err := conn.Exec("ROLLBACK"); err != nil {
			t.Error(err)
		}
		conn.Close()
	}
}

package referee

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// testMigrations are the versions of the distributed tests' tables, in
// order, as the archive keeps its own (translate/archive's migrations):
// version i+1 is reached by testMigrations()[i], and a released version is
// never edited. The tables live beside the archive's, in the same
// database, but are the referee's: the archive knows nothing of tests.
//
// match_tests is a test: its settings (TestSettings, as JSON), its games,
// its state, and engine A's results over the pairs counted so far, which
// each report updates under the row's lock; match_pairs is a game pair,
// free, leased to a worker until lease_until, or done with the records
// and archive ids of its two games and its place (counted) in the order
// the test counted its pairs.
func testMigrations() [][]string {
	return [][]string{{
		`CREATE TABLE match_tests (
			id BIGSERIAL PRIMARY KEY,
			settings JSONB NOT NULL,
			games INTEGER NOT NULL,
			state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'decided', 'done', 'stopped')),
			stopped TEXT NOT NULL DEFAULT '',
			created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
			ended_at TIMESTAMPTZ,
			pairs_done INTEGER NOT NULL DEFAULT 0,
			a_white_wins INTEGER NOT NULL DEFAULT 0,
			a_white_losses INTEGER NOT NULL DEFAULT 0,
			a_white_draws INTEGER NOT NULL DEFAULT 0,
			a_black_wins INTEGER NOT NULL DEFAULT 0,
			a_black_losses INTEGER NOT NULL DEFAULT 0,
			a_black_draws INTEGER NOT NULL DEFAULT 0,
			penta_ww INTEGER NOT NULL DEFAULT 0,
			penta_wd INTEGER NOT NULL DEFAULT 0,
			penta_wl INTEGER NOT NULL DEFAULT 0,
			penta_dd INTEGER NOT NULL DEFAULT 0,
			penta_ld INTEGER NOT NULL DEFAULT 0,
			penta_ll INTEGER NOT NULL DEFAULT 0,
			llr DOUBLE PRECISION NOT NULL DEFAULT 0)`,
		`CREATE TABLE match_pairs (
			test BIGINT NOT NULL REFERENCES match_tests (id) ON DELETE CASCADE,
			pair INTEGER NOT NULL,
			state TEXT NOT NULL DEFAULT 'free' CHECK (state IN ('free', 'leased', 'done')),
			worker TEXT NOT NULL DEFAULT '',
			lease_token TEXT,
			lease_until TIMESTAMPTZ,
			claims INTEGER NOT NULL DEFAULT 0,
			counted INTEGER,
			reported_at TIMESTAMPTZ,
			games JSONB,
			archive_ids BIGINT[],
			PRIMARY KEY (test, pair))`,
		// The pairs a claim looks among: those not done.
		`CREATE INDEX match_pairs_undone ON match_pairs (test, pair) WHERE state <> 'done'`,
	}}
}

// testsLock is the advisory lock that keeps two processes from migrating
// the tables at once ("TEST"), apart from the archive's locks (whose first
// key is "HIVE").
const testsLock = 0x54455354

// migrateTests brings the tables to the last version in one transaction.
// A database whose tables are newer than this binary is refused rather
// than written wrongly.
func migrateTests(ctx context.Context, db *pgxpool.Pool) error {
	return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, testsLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS match_schema_version (version INTEGER NOT NULL)`); err != nil {
			return err
		}
		migrations, have := testMigrations(), 0
		err := tx.QueryRow(ctx, `SELECT version FROM match_schema_version`).Scan(&have)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if _, err := tx.Exec(ctx, `INSERT INTO match_schema_version (version) VALUES (0)`); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if have > len(migrations) {
			return fmt.Errorf("its match tables are version %d, newer than this hivebridge knows (%d): use a newer hivebridge", have, len(migrations))
		}
		for v := have; v < len(migrations); v++ {
			for _, stmt := range migrations[v] {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("migrating the match tables to version %d: %w", v+1, err)
				}
			}
		}
		_, err = tx.Exec(ctx, `UPDATE match_schema_version SET version = $1`, len(migrations))
		return err
	})
}

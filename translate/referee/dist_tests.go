package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// A distributed test is a match kept in PostgreSQL, played by any number
// of workers on any number of machines, as fishtest and OpenBench spread a
// test over their workers; the database is all they share. Each game pair
// (the two games of an opening, colours swapped) is a row that a worker
// claims for a time, a lease, with SELECT ... FOR UPDATE SKIP LOCKED, so
// that two workers never claim one pair at once and none waits on another.
// The worker renews its lease while it plays (Heartbeat) and reports the
// pair when both games are over (Report); a worker that dies lets its lease
// run out, and another claims the pair again under a new token. A report
// names its lease's token, and the database takes it only while that token
// holds the pair, so every pair counts exactly once, however late a worker
// presumed dead reports. Each report counts its pair into the test's row,
// under that row's lock, and runs the SPRT on all the pairs counted: the
// test is decided, or done, by the report that makes it so, and workers
// claim no pair of a test that is not open. Times are the database's
// (now()), so that the machines' clocks need not agree.

// TestState is where a test stands.
type TestState string

// The states of a test: open while pairs are to be played; then decided
// by its SPRT, done with all its pairs, or stopped by a game that voids the
// match (an engine refused hivebridge's command, as Run stops on).
const (
	TestOpen    TestState = "open"
	TestDecided TestState = "decided"
	TestDone    TestState = "done"
	TestStopped TestState = "stopped"
)

// queryTimeout bounds every query of the tests: a database that does not
// answer in that time is taken for down, and the caller tries again later.
const queryTimeout = 10 * time.Second

// Tests are the distributed tests of a PostgreSQL database.
type Tests struct {
	db  *pgxpool.Pool
	log zerolog.Logger
}

// OpenTests opens the tests of the PostgreSQL database at dsn (a
// postgres:// URL, the archive's --db), migrating their tables.
func OpenTests(ctx context.Context, dsn string, log zerolog.Logger) (*Tests, error) {
	fail := func(err error) error { return fmt.Errorf("match tests in %s: %w", archive.Redact(dsn), err) }
	conf, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fail(err)
	}
	if _, named := conf.ConnConfig.RuntimeParams["application_name"]; !named {
		conf.ConnConfig.RuntimeParams["application_name"] = "hivebridge match tests"
	}
	db, err := pgxpool.NewWithConfig(ctx, conf)
	if err != nil {
		return nil, fail(err)
	}
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	if err := migrateTests(qctx, db); err != nil {
		db.Close()
		return nil, fail(err)
	}
	return &Tests{db: db, log: log}, nil
}

// Close closes the connections.
func (t *Tests) Close() { t.db.Close() }

// query bounds a query's context by queryTimeout.
func query(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, queryTimeout)
}

// ErrNoTest is the error of a test the database does not hold.
var ErrNoTest = errors.New("no such test")

// Create adds a test of games games (an even number: the test plays pairs)
// with its pairs, all free, and returns its id. The settings are checked
// as a match's are, short of opening the engines, which are the workers'.
func (t *Tests) Create(ctx context.Context, s TestSettings, games int) (int64, error) {
	if err := checkTest(s, games); err != nil {
		return 0, err
	}
	settings, err := json.Marshal(s)
	if err != nil {
		return 0, err
	}
	ctx, cancel := query(ctx)
	defer cancel()
	var id int64
	err = pgx.BeginFunc(ctx, t.db, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO match_tests (settings, games) VALUES ($1, $2) RETURNING id`, settings, games).Scan(&id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO match_pairs (test, pair) SELECT $1, k FROM generate_series(0, $2 - 1) AS k`, id, games/2)
		return err
	})
	return id, err
}

// checkTest checks the settings of a test of games games.
func checkTest(s TestSettings, games int) error {
	if games < 2 || games%2 != 0 {
		return fmt.Errorf("a distributed test plays game pairs: its number of games must be even and at least 2, not %d", games)
	}
	cfg, err := s.Config(games, translate.Config{})
	if err != nil {
		return err
	}
	return cfg.check()
}

// Extend gives an open or done test more games (an even number, more than
// it has), with their pairs, and opens it again if it was done: a test
// that ran all its games and wants more. A decided or stopped test stays
// as it is.
func (t *Tests) Extend(ctx context.Context, id int64, games int) error {
	ctx, cancel := query(ctx)
	defer cancel()
	return pgx.BeginFunc(ctx, t.db, func(tx pgx.Tx) error {
		var (
			have  int
			state TestState
		)
		err := tx.QueryRow(ctx, `SELECT games, state FROM match_tests WHERE id = $1 FOR UPDATE`, id).Scan(&have, &state)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("test %d: %w", id, ErrNoTest)
		case err != nil:
			return err
		case games <= have || games%2 != 0:
			return fmt.Errorf("test %d has %d games: give it an even number more than that, not %d", id, have, games)
		case state != TestOpen && state != TestDone:
			return fmt.Errorf("test %d is %s: it takes no more games", id, state)
		}
		if _, err := tx.Exec(ctx, `UPDATE match_tests SET games = $2, state = 'open', ended_at = NULL WHERE id = $1`, id, games); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO match_pairs (test, pair) SELECT $1, k FROM generate_series($2, $3 - 1) AS k`, id, have/2, games/2)
		return err
	})
}

// Latest returns the id of the newest test, or ErrNoTest.
func (t *Tests) Latest(ctx context.Context) (int64, error) {
	ctx, cancel := query(ctx)
	defer cancel()
	var id int64
	err := t.db.QueryRow(ctx, `SELECT id FROM match_tests ORDER BY id DESC LIMIT 1`).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, ErrNoTest
	}
	return id, err
}

// CountOpen returns how many tests are open: a worker told to stop when
// idle stops once none is.
func (t *Tests) CountOpen(ctx context.Context) (int, error) {
	ctx, cancel := query(ctx)
	defer cancel()
	var n int
	err := t.db.QueryRow(ctx, `SELECT count(*) FROM match_tests WHERE state = 'open'`).Scan(&n)
	return n, err
}

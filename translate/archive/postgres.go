package archive

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"

	// pgx: the maintained pure-Go PostgreSQL driver, through database/sql
	// for the store (the same SQL as SQLite's), its own config for the
	// writer's connection settings, and natively for LISTEN/NOTIFY.
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// lockClass is the first key of every advisory lock the archive takes
// ("HIVE"); the second is an owner's id, or 0 for migrations.
const lockClass = 0x48495645

var postgresDialect = dialect{
	serial: "BIGSERIAL PRIMARY KEY",
	lock:   fmt.Sprintf("SELECT pg_advisory_xact_lock(%d, 0)", lockClass),
	dollar: true,
}

// Redact hides the password of a database URL, for messages.
func Redact(db string) string {
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://..."
	}
	return u.Redacted()
}

// openPostgres opens the archive in the PostgreSQL database at dsn. A
// writer holds a session advisory lock keyed by its owner id on a
// connection of its own for as long as it lives: PostgreSQL lets go of it
// when that connection ends, so the games of a daemon that died are found
// by any other.
func openPostgres(ctx context.Context, dsn string, role Role) (Store, error) {
	name := Redact(dsn)
	fail := func(err error) error { return fmt.Errorf("archive %s: %w", name, err) }
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fail(err)
	}
	db.SetMaxOpenConns(32)
	db.SetMaxIdleConns(32)
	write, err := openWriterPool(dsn)
	if err != nil {
		db.Close()
		return nil, fail(err)
	}
	s := &sqlStore{name: name, d: postgresDialect, read: db, write: write}
	s.deadOwners = func(ctx context.Context, owners []int64) ([]int64, error) { return s.unlockedOwners(ctx, owners) }
	closeBoth := func() {
		db.Close()
		write.Close()
	}
	if err := db.PingContext(ctx); err != nil {
		closeBoth()
		return nil, fail(err)
	}
	if err := migrate(ctx, db, postgresDialect); err != nil {
		closeBoth()
		return nil, fail(err)
	}
	if role != Reader {
		if s.owner, err = s.register(ctx, string(role)); err != nil {
			closeBoth()
			return nil, fail(err)
		}
		lock := &ownerLock{db: db, owner: s.owner}
		if err := lock.hold(ctx); err != nil {
			closeBoth()
			return nil, fail(err)
		}
		s.release, s.heartbeat = lock.release, lock.hold
	}
	if role != Reader {
		s.sweepAtStart(ctx)
	}
	s.indexApart = true
	s.startWriter()
	return s, nil
}

// openWriterPool opens the connections the writer's statements run on.
// Each of them finds the rows it changes by a key (a game's id, its key,
// a position), and PostgreSQL plans a statement kept prepared once, for
// the table as it was then: a batch's updates of games planned while the
// archive held a few hundred games scanned the whole table at every batch
// for as long as the plan lived (scripts/archive-load.sh, quick games, a
// fresh archive: 6,186 scans reading 7.6 million rows in 35 s, the
// batch's statement 3.1 s of PostgreSQL's 4.7 s of CPU). So these
// connections plan without sequential scans, and keep one plan a
// statement rather than plan the batch's statement again at each run,
// which cost 0.15 ms a batch. With both, the same load (20 s of it): the
// batch's statement 1.0 s, PostgreSQL's CPU 2.2 s against 2.5 s with the
// first alone.
func openWriterPool(dsn string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["enable_seqscan"] = "off"
	cfg.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	return db, nil
}

// ownerLock is a writer's advisory lock, on a connection of its own.
type ownerLock struct {
	db    *sql.DB
	owner int64
	mu    sync.Mutex
	conn  *sql.Conn
}

// hold takes the lock if its connection is gone (PostgreSQL restarted, or
// the connection cut): until then, other daemons take this one's games for
// those of a daemon that died.
func (l *ownerLock) hold(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		if l.conn.PingContext(ctx) == nil {
			return nil
		}
		l.conn.Close()
		l.conn = nil
	}
	// A connection the pool kept from before a restart fails at its
	// first statement (the pool checks one only a second after its last
	// use): the next try takes another.
	var err error
	for range 3 {
		var conn *sql.Conn
		if conn, err = l.db.Conn(ctx); err != nil {
			return err
		}
		if _, err = conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, $2)`, lockClass, l.owner); err == nil {
			l.conn = conn
			return nil
		}
		conn.Close()
		if ctx.Err() != nil {
			break
		}
	}
	return err
}

func (l *ownerLock) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		l.conn.Close()
	}
}

// unlockedOwners returns those of owners whose advisory lock nobody holds.
func (s *sqlStore) unlockedOwners(ctx context.Context, owners []int64) ([]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT objid::bigint FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND classid = $1::oid AND objsubid = 2
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, lockClass)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	alive := map[int64]bool{}
	for rows.Next() {
		var o int64
		if err := rows.Scan(&o); err != nil {
			return nil, err
		}
		alive[o] = true
	}
	var dead []int64
	for _, o := range owners {
		if !alive[o] {
			dead = append(dead, o)
		}
	}
	return dead, rows.Err()
}

package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	// A pure-Go SQLite (the C library translated to Go): the binary stays
	// one static file built by the Go toolchain alone, without cgo.
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteDialect is SQLite's SQL.
var sqliteDialect = dialect{serial: "INTEGER PRIMARY KEY AUTOINCREMENT"}

// sqliteDSN opens path in WAL mode with synchronous=NORMAL: a transaction
// is durable once committed against the death of the process (SIGKILL
// included: the WAL is in the operating system's hands), and only a power
// loss can take the last ones back. Writers wait for each other up to the
// busy timeout; a write transaction takes the lock at its start. The
// writer keeps its statement journal (the pages a statement of many rows
// changes, in case it fails halfway) in memory rather than in a temporary
// file: at 10,000 sessions, writing it was a fifth of the writer's time.
// Its page cache stays SQLite's 2 MiB: 32 MiB took the explorer's index
// of 300 games in a transaction from 381 to 389 to 311 to 320 µs a game at
// 18,000 games (BenchmarkExplorerIndex), but under the load it cost the
// daemon 23 to 80 MB and showed no gain (scripts/archive-load.sh, SQLite:
// quick games' p99 1.15 and 1.09 ms against 1.02 and 1.08 without it;
// 10,000 games ending at once 2.74 and 2.67 ms against 2.84 and 2.80 with
// neither it nor the tables without rowids; 2026-11-27).
func sqliteDSN(path string, write bool) string {
	dsn := path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	if write {
		dsn += "&_txlock=immediate&_pragma=temp_store(memory)"
	}
	return dsn
}

// openSQLite opens (creating if need be) the archive in the file at path.
func openSQLite(ctx context.Context, path string, role Role) (Store, error) {
	fail := func(err error) error { return fmt.Errorf("archive %s: %w", path, err) }
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return nil, creatable(path)
	}
	write, err := sql.Open("sqlite", sqliteDSN(path, true))
	if err != nil {
		return nil, fail(err)
	}
	write.SetMaxOpenConns(1)
	read, err := sql.Open("sqlite", sqliteDSN(path, false))
	if err != nil {
		write.Close()
		return nil, fail(err)
	}
	read.SetMaxOpenConns(4)
	s := &sqlStore{name: path, d: sqliteDialect, read: read, write: write, prepared: newPreparedStatements(write)}
	s.deadOwners = func(_ context.Context, owners []int64) ([]int64, error) { return deadLockFiles(path, owners) }
	if err := migrate(ctx, write, sqliteDialect); err != nil {
		s.Close()
		if lite, ok := errors.AsType[*sqlite.Error](err); ok && lite.Code()&0xff == sqlite3.SQLITE_CANTOPEN {
			if why := creatable(path); why != nil {
				return nil, why
			}
		}
		return nil, fail(err)
	}
	if role != Reader {
		if s.owner, err = s.register(ctx, string(role)); err != nil {
			s.Close()
			return nil, fail(err)
		}
		if s.release, err = holdLockFile(path, s.owner); err != nil {
			s.Close()
			return nil, fail(err)
		}
	}
	if role != Reader {
		s.sweepAtStart(ctx)
	}
	s.startWriter()
	return s, nil
}

// creatable says why the archive's file cannot be opened for writing
// (created if missing), or its directory take the files SQLite keeps next
// to it (the WAL and its index), or nil: it is asked when SQLite could not
// open the file, and says only "unable to open database file: out of
// memory (14)" (SQLITE_CANTOPEN).
func creatable(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("archive %s: cannot create its directory %s: %w", path, dir, pathCause(err))
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("archive %s: cannot create it: %w", path, pathCause(err))
	}
	f.Close()
	probe, err := os.CreateTemp(dir, ".hivebridge-probe-*")
	if err != nil {
		return fmt.Errorf("archive %s: cannot create files next to it in %s (SQLite's journal): %w", path, dir, pathCause(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// pathCause is the cause of a file operation's error, without the path
// and operation that the message of the caller says its own way
// ("permission denied", "read-only file system").
func pathCause(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	return err
}

// A process that writes to a SQLite archive holds an flock on a file of
// its own, <db>-owners/<id>, while it lives; the kernel lets go of it when
// the process dies, however it dies. A game in progress whose owner's file
// can be locked by another has lost its process.

func lockFileName(db string, owner int64) string {
	return filepath.Join(db+"-owners", strconv.FormatInt(owner, 10))
}

func holdLockFile(db string, owner int64) (func(), error) {
	name := lockFileName(db, owner)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", name, err)
	}
	return func() {
		os.Remove(name)
		f.Close()
	}, nil
}

func deadLockFiles(db string, owners []int64) ([]int64, error) {
	var dead []int64
	for _, o := range owners {
		name := lockFileName(db, o)
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if errors.Is(err, os.ErrNotExist) {
			dead = append(dead, o)
			continue
		}
		if err != nil {
			return nil, err
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			dead = append(dead, o)
			os.Remove(name)
		}
		f.Close()
		if err != nil && !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, err
		}
	}
	return dead, nil
}

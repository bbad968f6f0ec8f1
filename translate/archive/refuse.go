package archive

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// The causes of a write the database refused for what it holds, as
// RefusalCause names them: a fixed set, so that they can label a metric.
const (
	// RefusedData: a value the database cannot take (PostgreSQL's
	// SQLSTATE class 22, data exception, and 54, a limit exceeded;
	// SQLite's SQLITE_MISMATCH and SQLITE_TOOBIG).
	RefusedData = "data"
	// RefusedConstraint: a constraint of the schema (class 23, and 44;
	// SQLITE_CONSTRAINT).
	RefusedConstraint = "constraint"
	// RefusedStatement: a statement the database will not run as it
	// stands (class 42, syntax error or access rule violation, and 21;
	// SQLITE_RANGE, a parameter out of range).
	RefusedStatement = "statement"
	// RefusedMissing: a change to a game the archive does not hold.
	RefusedMissing = "missing"
)

// RefusalCauses lists every cause RefusalCause returns.
func RefusalCauses() []string {
	return []string{RefusedData, RefusedConstraint, RefusedStatement, RefusedMissing}
}

// RefusalCause says why the database refused a write for what it holds,
// or "" for any other failure. A refused write fails again however often
// it is tried, so the keeper drops it (logged and counted) instead of
// taking it for an outage: tried again for ever, it would hold up every
// write after it. Everything else, the outages (PostgreSQL's classes 08
// connection, 53 insufficient resources, 57 operator intervention, 58
// system error, a serialization failure, a network error, a timeout;
// SQLite's SQLITE_BUSY, SQLITE_IOERR, SQLITE_FULL...), is tried again.
func RefusalCause(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, ErrNotFound) {
		return RefusedMissing
	}
	if pg, ok := errors.AsType[*pgconn.PgError](err); ok {
		if len(pg.Code) != 5 {
			return ""
		}
		switch pg.Code[:2] {
		case "22", "54":
			return RefusedData
		case "23", "44":
			return RefusedConstraint
		case "42", "21":
			return RefusedStatement
		}
		return ""
	}
	if lite, ok := errors.AsType[*sqlite.Error](err); ok {
		switch lite.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_TOOBIG:
			return RefusedData
		case sqlite3.SQLITE_CONSTRAINT:
			return RefusedConstraint
		case sqlite3.SQLITE_RANGE:
			return RefusedStatement
		}
	}
	return ""
}

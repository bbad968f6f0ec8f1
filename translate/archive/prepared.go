package archive

import (
	"context"
	"database/sql"
	"runtime"
	"sync"
	"sync/atomic"
)

// txRunner runs statements in a transaction: a *sql.Tx, or a preparedTx,
// which runs the texts it has kept as prepared statements.
type txRunner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// preparedStatements keeps the writer's statements prepared on a SQLite
// archive's writing connection. SQLite compiles a statement's text into a
// program before it runs it, and the writer runs a few texts over and
// over (one per kind of statement and number of rows: see dialect.chunk):
// compiling them again at each run was a third of the writer's CPU under a
// load of quick games (perf, scripts/archive-load.sh -s 500 -t 100ms,
// 2026-11-27). PostgreSQL needs none of it: pgx keeps its statements
// prepared by their text already.
//
// A text is prepared between the writer's transactions, after the first
// that ran it (wanted): the writing connection is SQLite's only one, held
// by the transaction while it runs, so a statement cannot be prepared for
// the database (database/sql's, kept across transactions) inside one.
type preparedStatements struct {
	db     *sql.DB
	mu     sync.Mutex
	kept   map[string]*sql.Stmt
	wanted map[string]bool
}

// maxPrepared bounds the texts kept: the writer's come to about sixty
// (seven kinds of statement, eight or nine numbers of rows each); a text
// beyond the bound runs unkept.
const maxPrepared = 256

func newPreparedStatements(db *sql.DB) *preparedStatements {
	return &preparedStatements{db: db, kept: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// in returns tx as a txRunner that runs the texts kept as prepared
// statements, yielding before each unless waiting counts a session (see
// preparedTx); tx itself when p is nil.
func (p *preparedStatements) in(tx *sql.Tx, waiting *atomic.Int64) txRunner {
	if p == nil {
		return tx
	}
	return preparedTx{tx: tx, p: p, waiting: waiting}
}

// statement returns the statement kept for query, or nil, having noted
// that query is wanted.
func (p *preparedStatements) statement(query string) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.kept[query]
	if st == nil && len(p.kept)+len(p.wanted) < maxPrepared {
		p.wanted[query] = true
	}
	return st
}

// prepareWanted prepares the texts run since the last call that were not
// kept; the caller holds no transaction of the database. A text that does
// not prepare is not kept (its statement's own run reported the error).
// The lock is not held while preparing: a prepare waits for the writing
// connection, and whoever holds that connection in a transaction may need
// the lock to look up its statements (statement), so holding it would
// deadlock the two until ctx ended.
func (p *preparedStatements) prepareWanted(ctx context.Context) {
	if p == nil {
		return
	}
	p.mu.Lock()
	queries := make([]string, 0, len(p.wanted))
	for query := range p.wanted {
		queries = append(queries, query)
	}
	clear(p.wanted)
	p.mu.Unlock()
	for _, query := range queries {
		st, err := p.db.PrepareContext(ctx, query)
		if err != nil {
			continue
		}
		p.mu.Lock()
		if p.kept[query] == nil && len(p.kept) < maxPrepared {
			p.kept[query] = st
			st = nil
		}
		p.mu.Unlock()
		if st != nil {
			st.Close()
		}
	}
}

// close closes the statements kept.
func (p *preparedStatements) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, st := range p.kept {
		st.Close()
	}
	clear(p.kept)
}

// writerTx is tx, a transaction of the writer's, as its statements run:
// through the texts kept prepared, yielding before each unless a session
// waits for the writer (preparedTx).
func (s *sqlStore) writerTx(tx *sql.Tx) txRunner {
	return s.prepared.in(tx, &s.waiting)
}

// preparedTx is a transaction that runs the texts kept as prepared
// statements. Before each statement, unless a session waits for the
// writer (waiting), it lets the goroutines waiting to run go first
// (runtime.Gosched): the writer's batch is a burst of CPU (SQLite runs in
// the daemon's process), 5 to 20 ms at 10,000 sessions, that held one of
// the machine's two cores from the sessions' commands until the Go
// scheduler took it back. Yielding before each of its statements (in
// SQLite, at most 40 moves each: dialect.rows) put the p99 after the ramp
// at 802 and 909 µs against 1.03 and 1.05 ms without
// (scripts/archive-load.sh -s 10000 -d 40s -r 10s -t 2s, SQLite, two
// rounds interleaved; 641 and 682 µs without an archive). A batch that a
// session waits for goes on without yielding: the others would come
// before the one it keeps waiting.
type preparedTx struct {
	tx      *sql.Tx
	p       *preparedStatements
	waiting *atomic.Int64
}

// yield lets the goroutines waiting to run go first, unless a session
// waits for the writer.
func (t preparedTx) yield() {
	if t.waiting == nil || t.waiting.Load() == 0 {
		runtime.Gosched()
	}
}

func (t preparedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.yield()
	if st := t.p.statement(query); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t preparedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.yield()
	if st := t.p.statement(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

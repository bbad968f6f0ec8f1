package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// writer is the goroutine a store's writes go through. It commits the
// writes waiting for it in one transaction (group commit): the commits of
// ten thousand sessions cost the database a few, not ten thousand. A
// write nobody waits for (the keeper's, in the background of a session)
// may wait up to gatherWindow for others to share its transaction; a
// session that comes to wait for one (Recorder.Settle, through hurry) has
// it committed at once. So a busy daemon commits moves by the hundred,
// and a session that plays fast waits no longer than for its own commit.
// The writes gathered go with the one waited for: committing that one
// alone (0aa8853) doubled the commands that waited, since the writes left
// gathering were waited for in turn, and cost the daemon 25% more CPU and
// PostgreSQL twice its own, for no better p99 (scripts/archive-load.sh -s
// 500 -t 100ms, two rounds each, interleaved, 2026-11-27).
type writer struct {
	// pending holds the writes not taken yet, in the order they came:
	// a write is added without waiting for the writer, which wakes only
	// when the time it is to take them comes sooner (wake), not at each
	// write. due is the earliest of their times (by); urgent says one
	// has a caller waiting for it; closed that the writer has stopped
	// taking writes.
	mu      sync.Mutex
	pending []*writeOp
	due     time.Time
	urgent  bool
	closed  bool
	wake    chan struct{}

	hurried chan struct{} // a session has started waiting
	waiting atomic.Int64  // sessions waiting for a write now
	// lowered, when not nil, takes the writer's work that nobody waits
	// for to a goroutine whose thread runs at a lower priority than the
	// sessions' (runLowerPriority), which tells loweredDone when each is
	// done: see runLowered.
	lowered     chan func()
	loweredDone chan struct{}
	gather      time.Duration // how long a patient write waits for company
	stop        chan struct{}
	done        chan struct{}

	// The explorer's index of the games ended (indexer.go): toIndex
	// holds those committed and not indexed yet; sweep says the archive
	// may mark more than toIndex holds; indexAsked brings an index now.
	// indexApart says the index runs in a goroutine of its own (index1)
	// rather than in the writer's turn; indexWake tells that goroutine
	// that ends came into hand, and indexDone is closed once whichever
	// goroutine indexes has stopped.
	indexMu    sync.Mutex
	toIndex    []indexedGame
	sweep      atomic.Bool
	indexAsked chan chan struct{}
	indexApart bool
	indexWake  chan struct{}
	indexDone  chan struct{}
}

// gatherWindow is the longest the first write of a transaction that
// nobody waits for waits for more (a game played fast asks for less: see
// Recorder.Played). Nobody waits for it: a session that comes to
// wait hurries the writer (hurry), so the window costs no answer any
// time, and the longer it is the fewer transactions a busy daemon commits.
// scripts/archive-load.sh, 1,000 sessions, SQLite: the daemon's CPU 5.2 s
// against 6.7 s at 10 ms, p99 640 µs against 818 µs; 10,000 sessions,
// PostgreSQL: its CPU 3.2 s against 5.0 to 5.3 s (2026-11-26, one run
// each, none of the sessions waiting). At 10,000 sessions, SQLite, the p99
// of the commands after the ramp was 842 µs at 300 ms, 1.0 to 1.4 ms at
// 100 ms and 2.2 ms at 20 ms: the writer's CPU comes in fewer bursts.
const gatherWindow = 300 * time.Millisecond

// maxBatch bounds the writes of one transaction: a window's writes at
// 10,000 sessions (about 2,900 moves a second).
const maxBatch = 2048

// writeOp is one write waiting for the writer.
type writeOp struct {
	// run is the write alone, in the transaction given.
	run func(ctx context.Context, tx *sql.Tx) error
	// game is the id of the game written (0 for a start, whose id is not
	// known yet): the writes of one game run in the order they came.
	game int64
	// added, when not nil, is what run writes when the write only adds
	// moves to a game (Change.Append), a move's usual write, or adds
	// moves and ends it (Change.Synced), a game's usual end: the writer
	// runs all of those of a transaction together (addAll).
	added *addition
	// start, when not nil, is what run writes when the write starts a
	// game (storable): the writer runs the starts of a transaction that
	// have a key together, in one statement. id is the game's id once
	// started.
	start *Start
	id    int64
	// indexed, when not nil, is the game this write ends, to be indexed
	// for the explorer once it is committed (indexer.go).
	indexed *indexedGame
	// by, when not zero, says the write's caller is not waiting for it:
	// it may wait until then for others to share its transaction.
	by   time.Time
	done chan error
	// finish, when not nil, is told how the write went in place of done,
	// in the writer's goroutine (offer).
	finish func(error)
}

// addition is a write that adds moves to a game (Change.Append), and
// names its players when white and black are not empty; and ends it when
// end is not nil.
type addition struct {
	moves        []Move
	white, black string
	end          *ending
}

// ending is what the end of a game written as an addition sets in the
// game's row besides its players: its GameString and plies, and how it
// ended.
type ending struct {
	gameString string
	plies      int
	end        End
}

// patientKey marks the context of a write nobody waits for; its value is
// the write's patience (a time.Duration).
type patientKey struct{}

// patiently returns ctx for a write whose caller does not wait for it,
// which may wait for others to share its transaction for as long as
// patience, or the writer's gathering window when that is shorter (or
// patience is 0).
func patiently(ctx context.Context, patience time.Duration) context.Context {
	return context.WithValue(ctx, patientKey{}, patience)
}

// startWriter starts the goroutine that commits the writes: one for both
// databases. SQLite has one writer at a time; PostgreSQL, whose commits
// could wait on its disk side by side, spent 40% less CPU with one writer
// than with four once writes were gathered (fewer and larger
// transactions; scripts/archive-load.sh at 10,000 sessions, PostgreSQL's
// own CPU 5.2 to 5.9 s a run against 9.1 to 9.5 s, and the daemon's p99
// 43 to 44 ms against 54 to 58 ms, back to back). One writer also keeps
// the writes of a game in order: a write given up by its caller but still
// under way is committed before the write that tries it again.
func (s *sqlStore) startWriter() {
	s.gather = gatherWindow
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	s.wake, s.hurried = make(chan struct{}, 1), make(chan struct{}, 1)
	s.indexAsked = make(chan chan struct{})
	s.indexWake, s.indexDone = make(chan struct{}, 1), s.done
	if s.indexApart {
		s.indexDone = make(chan struct{})
		go func() {
			defer close(s.indexDone)
			s.index1()
		}()
	}
	s.lowered, s.loweredDone = startLowered()
	go func() {
		defer close(s.done)
		if s.lowered != nil {
			defer close(s.lowered)
		}
		s.write1()
	}()
}

// stopWriter stops the writer, the writes in hand committed first, and
// then the explorer's index, the ends in hand indexed first.
func (s *sqlStore) stopWriter() {
	if s.stop != nil {
		close(s.stop)
		<-s.done
		<-s.indexDone
	}
}

// write1 commits the batches of writes, one after the other, and the
// explorer's index of the games they end a gathering window after the
// first of them (indexer.go), or when asked (indexNow), or before it
// stops. It commits the writes pending once the first of their times
// (by) has come, or at once when one of them has a caller waiting for it
// or a session waits.
func (s *sqlStore) write1() {
	timer, indexTimer := time.NewTimer(time.Hour), time.NewTimer(time.Hour)
	timer.Stop()
	indexTimer.Stop()
	var indexDue <-chan time.Time
	indexAsked := s.indexAsked
	if s.indexApart {
		indexAsked = nil // index1's
	}
	for {
		if !s.indexApart {
			indexDue = s.indexDueBy(indexTimer, indexDue)
		}
		var gatherDue <-chan time.Time
		switch wait, some := s.untilDue(); {
		case some && wait <= 0:
			s.commitTaken(s.take(false))
			continue
		case some:
			timer.Reset(wait)
			gatherDue = timer.C
		}
		select {
		case <-s.stop:
			for batch := s.take(true); len(batch) > 0; batch = s.take(true) {
				s.commit(batch)
			}
			if !s.indexApart {
				s.indexInHand()
			}
			return
		case <-s.wake:
		case <-s.hurried:
		case <-gatherDue:
		case <-indexDue:
			indexDue = nil
			s.runLowered(func() { s.indexPending() })
		case reply := <-indexAsked:
			s.indexInHand()
			close(reply)
		}
		timer.Stop()
	}
}

// enqueue adds op to the writes pending, and reports whether the writer
// takes it (not once it has stopped). It wakes the writer only when op
// is to be taken sooner than those pending: when it is the first, or has
// a caller waiting for it, or an earlier time (by), or fills a batch.
func (s *sqlStore) enqueue(op *writeOp) bool {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false
	}
	s.pending = append(s.pending, op)
	sooner := !s.urgent
	switch {
	case op.by.IsZero():
		s.urgent = true
	case len(s.pending) == 1 || op.by.Before(s.due):
		s.due = op.by
	default:
		sooner = len(s.pending) == maxBatch
	}
	s.mu.Unlock()
	if sooner {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return true
}

// untilDue returns how long until the writes pending are to be
// committed (0 or less for now), and whether any is.
func (s *sqlStore) untilDue() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case len(s.pending) == 0:
		return 0, false
	case s.urgent || len(s.pending) >= maxBatch || s.waiting.Load() > 0:
		return 0, true
	}
	return time.Until(s.due), true
}

// take returns the next batch of the writes pending (at most maxBatch),
// and with closing stops taking more.
func (s *sqlStore) take(closing bool) []*writeOp {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = s.closed || closing
	n := min(len(s.pending), maxBatch)
	batch := s.pending[:n:n]
	s.pending = append([]*writeOp(nil), s.pending[n:]...)
	s.urgent, s.due = false, time.Time{}
	for _, op := range s.pending {
		if op.by.IsZero() {
			s.urgent = true
		} else if s.due.IsZero() || op.by.Before(s.due) {
			s.due = op.by
		}
	}
	return batch
}

// commitTaken commits a batch the writer has taken: at a lower priority
// than the sessions' when nobody waits for it (runLowered), and otherwise
// in the writer's goroutine, so that a session waiting for its write is
// not held behind the other sessions' commands on a busy machine.
func (s *sqlStore) commitTaken(batch []*writeOp) {
	if s.waiting.Load() > 0 || slices.ContainsFunc(batch, (*writeOp).awaited) {
		s.commit(batch)
		return
	}
	s.runLowered(func() { s.commit(batch) })
}

// startLowered starts the goroutine that runs the writer's work at a
// lower priority (runLowered), and returns the channel that takes it and
// the one it tells of each done, or nils where a thread's priority cannot
// be lowered; closing work ends the goroutine, and its thread with it.
func startLowered() (work chan func(), done chan struct{}) {
	ready := make(chan bool)
	work, done = make(chan func()), make(chan struct{})
	go runLowerPriority(work, done, ready, nil)
	if !<-ready {
		return nil, nil
	}
	return work, done
}

// runLowerPriority runs each function work takes, and tells done, on an
// OS thread of its own at a lower priority than the sessions'
// (lowerThisThread), and tells ready whether it could. Once lowered it
// never unlocks that thread, so that the runtime ends the thread with the
// goroutine rather than hand its priority to others; it tells locked (when not nil)
// once it holds its thread. Started on the main thread, which the runtime
// would park rather than end, it hands over to a goroutine that cannot
// run there while it holds it.
func runLowerPriority(work chan func(), done chan struct{}, ready chan<- bool, locked chan<- struct{}) {
	runtime.LockOSThread()
	if locked != nil {
		close(locked)
	}
	if onMainThread() {
		next := make(chan struct{})
		go runLowerPriority(work, done, ready, next)
		<-next
		runtime.UnlockOSThread()
		return
	}
	ok := lowerThisThread()
	ready <- ok
	if !ok {
		runtime.UnlockOSThread()
		return
	}
	for f := range work {
		f()
		done <- struct{}{}
	}
}

// runLowered runs f, the writer's work that nobody waits for (a batch of
// patient writes, the explorer's index), on the lowered goroutine's
// thread, and returns once it is done. SQLite's work is the calling
// goroutine's own, in bursts of milliseconds a commit: run at a lower
// priority it gives the cores to the sessions' commands whenever both
// want them. The work a caller waits for stays in the writer's goroutine:
// handing every batch to another thread cost a game played alone, each
// move waited for, three times its time a move (BenchmarkWriter, 1 game).
func (s *sqlStore) runLowered(f func()) {
	if s.lowered == nil {
		f()
		return
	}
	s.lowered <- f
	<-s.loweredDone
}

// awaited reports whether op's caller waits for it (it has no time to
// wait for company until: see setBy).
func (op *writeOp) awaited() bool { return op.by.IsZero() }

// hurry tells the writer that a session waits for a write: until release
// is called, it commits what it holds without gathering more.
func (s *sqlStore) hurry() (release func()) {
	s.waiting.Add(1)
	select {
	case s.hurried <- struct{}{}:
	default:
	}
	return func() { s.waiting.Add(-1) }
}

// commit runs a batch of writes in one transaction and tells each how it
// went. The writes run together first (runTogether); should one of them
// fail, that transaction is rolled back and the batch run again with each
// write alone in a savepoint of its own, so that the one failing leaves
// the others. (Every write may run again: see inTx.) Savepoints in every
// batch would make SQLite copy each page a write touches into its
// subjournal, about a quarter of the writer's CPU, for failures that
// hardly ever come.
func (s *sqlStore) commit(batch []*writeOp) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs, failed, err := s.runBatch(ctx, batch, false)
	if failed && (len(batch) > 1 || batch[0].added != nil) {
		errs, _, err = s.runBatch(ctx, batch, true)
	}
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
	}
	s.indexLater(batch, errs)
	for i, op := range batch {
		if op.finish != nil {
			op.finish(errs[i])
			continue
		}
		op.done <- errs[i]
	}
	s.prepared.prepareWanted(ctx)
}

// runBatch runs the writes of batch in one transaction, together or each
// alone in a savepoint of its own (isolate), and commits it unless a write
// failed without one (failed). It returns each write's error, and an error
// that every write shares (the transaction's).
func (s *sqlStore) runBatch(ctx context.Context, batch []*writeOp, isolate bool) (errs []error, failed bool, err error) {
	errs = make([]error, len(batch))
	for _, op := range batch {
		op.id = 0 // set again by the start that runs now, if it succeeds
	}
	if !isolate {
		if errs, failure, tried := s.runInOneStatement(ctx, batch); tried {
			if failure != nil {
				errs = make([]error, len(batch))
				for i := range errs {
					errs[i] = failure
				}
				return errs, true, nil
			}
			return errs, false, nil
		}
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return errs, false, err
	}
	if !isolate {
		if i, err := s.runTogether(ctx, tx, batch); err != nil {
			tx.Rollback()
			errs[i] = err
			return errs, true, nil
		}
		return errs, false, tx.Commit()
	}
	for i, op := range batch {
		if _, err = tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
			break
		}
		if errs[i] = op.run(ctx, tx); errs[i] != nil {
			if _, err = tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT w"); err != nil {
				// The database rolled the whole transaction back
				// (SQLite does on a full disk): every write in it
				// failed of the same cause.
				err = errs[i]
			}
		} else {
			_, err = tx.ExecContext(ctx, "RELEASE SAVEPOINT w")
		}
		if err != nil {
			break
		}
	}
	if err != nil {
		tx.Rollback()
		return errs, false, err
	}
	return errs, false, tx.Commit()
}

// runTogether runs the writes of batch in tx: the starts, the additions
// of moves and the synced ends together (addAll), the others each alone,
// the writes of one game in the order they came. It returns the first
// error and the index of the write that failed (for those run together,
// the first of them).
func (s *sqlStore) runTogether(ctx context.Context, tx *sql.Tx, batch []*writeOp) (int, error) {
	var (
		group   []*writeOp // starts and additions not run yet, one a game
		groupAt int        // the index of the first
		grouped = make(map[gameKey]bool, len(batch))
	)
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		err := s.addAll(ctx, tx, group)
		group = group[:0]
		clear(grouped)
		return err
	}
	for i, op := range batch {
		together := op.added != nil || (op.start != nil && op.start.Key != "")
		key := op.groupKey()
		if key != (gameKey{}) && grouped[key] {
			if err := flush(); err != nil {
				return groupAt, err
			}
		}
		if together {
			if len(group) == 0 {
				groupAt = i
			}
			group = append(group, op)
			grouped[key] = true
			continue
		}
		if err := op.run(ctx, tx); err != nil {
			return i, err
		}
	}
	return groupAt, flush()
}

// gameKey names a game among the writes of a batch: a start by its key,
// another write by its game's id; the zero gameKey names none.
type gameKey struct {
	key string
	id  int64
}

// groupKey names the game op writes (gameKey). A key made a string
// ("id 42") cost each write an allocation, and a map of them sized by its
// growth, as much as a tenth of a move's bytes (BenchmarkWriterPaced).
func (op *writeOp) groupKey() gameKey {
	switch {
	case op.start != nil && op.start.Key != "":
		return gameKey{key: op.start.Key}
	case op.game != 0:
		return gameKey{id: op.game}
	}
	return gameKey{}
}

// rowCounts are the rows of each table that a group of writes run
// together adds (sizeOf).
type rowCounts struct{ starts, moves, named, ended int }

// sizeOf counts the rows that the writes of group, run together (addAll,
// runInOneStatement), add: a start's row and its moves, an addition's
// moves and its end's row, or else its naming's.
func sizeOf(group []*writeOp) (n rowCounts) {
	for _, op := range group {
		switch {
		case op.start != nil:
			n.starts++
			n.moves += len(op.start.Moves)
		case op.added != nil:
			n.moves += len(op.added.moves)
			if op.added.end != nil {
				n.ended++
			} else if op.added.white != "" || op.added.black != "" {
				n.named++
			}
		}
	}
	return n
}

// addEndRow adds to ended (of endColumns) the row of an addition that
// ends its game (e, op.added.end).
func (op *writeOp) addEndRow(ended *table, e *ending) {
	ended.add(op.game, e.gameString, int64(e.plies), string(e.end.status()), ms(e.end.At),
		e.end.Result, e.end.How, e.end.Reason, op.added.white, op.added.black, explorerMark(op.indexed))
}

// addNamesRow adds to named (of namesColumns) the row of an addition that
// names its game's players.
func (op *writeOp) addNamesRow(named *table) {
	named.add(op.game, op.added.white, op.added.black)
}

// rows returns how many rows of columns one statement takes. PostgreSQL
// takes a column's rows as one array, so up to a thousand; the SQLite
// driver binds each parameter by looking for it among all of them (in
// time quadratic in their number: at 5,000 parameters it was most of an
// import's time), so some 200 parameters a statement.
func (d dialect) rows(columns []column) int {
	if d.dollar {
		return 1000
	}
	return max(1, 200/len(columns))
}

// chunk returns how many of n rows of columns the writer's next statement
// takes: as many as one takes (rows), or in SQLite, when fewer are left,
// the largest power of two of them, so that the writer's texts are few
// and each is kept prepared (preparedStatements). PostgreSQL's text is
// the same for any number of rows.
func (d dialect) chunk(n int, columns []column) int {
	most := d.rows(columns)
	if d.dollar || n >= most {
		return min(n, most)
	}
	return 1 << (bits.Len(uint(n)) - 1)
}

// addAll runs additions of moves to games, one a game, in one statement
// for all their moves, one for the players named and one for the rows of
// the games they end (in chunks of dialect.chunk rows; those to be indexed
// for the explorer marked so: indexer.go), all at once: PostgreSQL answers each
// statement in a round trip of its own, and SQLite steps through each
// statement's program once per run besides its rows (and compiles it, the
// first time: see preparedStatements), so that a statement a move costs a
// busy archive more than the work it does. A game that is not archived
// fails the statement (its moves' foreign key), or is one row fewer than
// the games named or ended (ErrNotFound); a move the archive holds
// already (an end tried again whose first try was committed unheard of)
// fails the moves' key: the batch then runs again, each write alone.
func (s *sqlStore) addAll(ctx context.Context, tx *sql.Tx, group []*writeOp) error {
	alone, err := s.startAll(ctx, tx, group)
	if err != nil {
		return err
	}
	run := s.writerTx(tx)
	size := sizeOf(group)
	moves, named, ended := newTable(movesColumns(), size.moves), newTable(namesColumns(), size.named), newTable(endColumns(), size.ended)
	for _, op := range group {
		if op.start != nil {
			if !alone[op] {
				for _, m := range op.start.Moves {
					moves.add(op.id, int64(m.Ply), m.Text, m.By, ms(m.At))
				}
			}
			continue
		}
		for _, m := range op.added.moves {
			moves.add(op.game, int64(m.Ply), m.Text, m.By, ms(m.At))
		}
		if e := op.added.end; e != nil {
			op.addEndRow(ended, e)
		} else if op.added.white != "" || op.added.black != "" {
			op.addNamesRow(named)
		}
	}
	for from, to := range s.d.chunks(named) {
		with, args := s.d.with("v", named, from, to)
		res, err := run.ExecContext(ctx, with+` UPDATE games SET white = COALESCE(NULLIF(v.white, ''), games.white),
			black = COALESCE(NULLIF(v.black, ''), games.black) FROM v WHERE games.id = v.id`, args...)
		if err != nil {
			return err
		}
		if got, err := res.RowsAffected(); err == nil && got != int64(to-from) {
			return fmt.Errorf("%d of %d games to name the players of: %w", got, to-from, ErrNotFound)
		}
	}
	for from, to := range s.d.chunks(moves) {
		with, args := s.d.with("v", moves, from, to)
		if _, err := run.ExecContext(ctx, with+` INSERT INTO moves (game, ply, text, by_player, at_ms)
			SELECT game, ply, text, by_player, at_ms FROM v`, args...); err != nil {
			return err
		}
	}
	for from, to := range s.d.chunks(ended) {
		with, args := s.d.with("v", ended, from, to)
		res, err := run.ExecContext(ctx, with+` UPDATE games SET white = COALESCE(NULLIF(v.white, ''), games.white),
			black = COALESCE(NULLIF(v.black, ''), games.black), game_string = v.game_string, plies = v.plies,
			status = v.status, ended_ms = v.ended_ms, result = v.result, how = v.how, reason = v.reason,
			explorer_pending = v.explorer_pending FROM v WHERE games.id = v.id`, args...)
		if err != nil {
			return err
		}
		if got, err := res.RowsAffected(); err == nil && got != int64(to-from) {
			return fmt.Errorf("%d of %d games to end: %w", got, to-from, ErrNotFound)
		}
	}
	return nil
}

// startAll inserts the rows of the starts of group in one statement (of
// at most dialect.rows rows), and sets the id of each whose key the archive did
// not hold yet, whose moves addAll then adds; a start whose key it holds
// (a start tried again, whose first try was committed unheard of) runs
// alone, as its write does, and is returned in alone.
func (s *sqlStore) startAll(ctx context.Context, tx *sql.Tx, group []*writeOp) (alone map[*writeOp]bool, err error) {
	alone = map[*writeOp]bool{}
	var starts []*writeOp
	for _, op := range group {
		if op.start != nil {
			starts = append(starts, op)
		}
	}
	for len(starts) > 0 {
		n := s.d.chunk(len(starts), startColumns())
		rows, byKey := newTable(startColumns(), n), map[string]*writeOp{}
		for _, op := range starts[:n] {
			op.addStartRow(rows, s.owner)
			byKey[op.start.Key] = op
		}
		with, args := s.d.with("v", rows, 0, n)
		res, err := s.writerTx(tx).QueryContext(ctx, with+` INSERT INTO games (owner, game_key, source, game_type, white, black, status, started_ms, game_string, plies)
			SELECT owner, game_key, source, game_type, white, black, status, started_ms, game_string, plies FROM v WHERE true
			ON CONFLICT (game_key) DO NOTHING RETURNING id, game_key`, args...)
		if err != nil {
			return nil, err
		}
		for res.Next() {
			var (
				id  int64
				key string
			)
			if err := res.Scan(&id, &key); err != nil {
				res.Close()
				return nil, err
			}
			if op := byKey[key]; op != nil {
				op.id = id
			}
		}
		res.Close()
		if err := res.Err(); err != nil {
			return nil, err
		}
		for _, op := range starts[:n] {
			if op.id == 0 {
				if err := op.run(ctx, tx); err != nil {
					return nil, err
				}
				alone[op] = true
			}
		}
		starts = starts[n:]
	}
	return alone, nil
}

// addStartRow adds to started (of startColumns) the row of a start, by
// the archive owner.
func (op *writeOp) addStartRow(started *table, owner int64) {
	st := op.start
	started.add(owner, st.Key, st.Source, st.GameType, st.White, st.Black, string(Playing), ms(st.Started), st.GameString, int64(len(st.Moves)))
}

// movesColumns are the columns of a move's row.
func movesColumns() []column {
	return []column{{"game", "bigint"}, {"ply", "integer"}, {"text", "text"}, {"by_player", "text"}, {"at_ms", "bigint"}}
}

// namesColumns are those that name a game's players.
func namesColumns() []column {
	return []column{{"id", "bigint"}, {"white", "text"}, {"black", "text"}}
}

// endColumns are those of a game's row that its end sets.
func endColumns() []column {
	return []column{{"id", "bigint"}, {"game_string", "text"}, {"plies", "integer"}, {"status", "text"}, {"ended_ms", "bigint"},
		{"result", "text"}, {"how", "text"}, {"reason", "text"}, {"white", "text"}, {"black", "text"}, {"explorer_pending", "integer"}}
}

// startColumns are those of a game's row at its start.
func startColumns() []column {
	return []column{{"owner", "bigint"}, {"game_key", "text"}, {"source", "text"}, {"game_type", "text"}, {"white", "text"},
		{"black", "text"}, {"status", "text"}, {"started_ms", "bigint"}, {"game_string", "text"}, {"plies", "integer"}}
}

// offer hands op to the writer, and reports whether it took it (not
// once it has stopped): op.finish is then told how it went, in the
// writer's goroutine.
func (s *sqlStore) offer(op *writeOp, patience time.Duration) bool {
	s.setBy(op, patience)
	return s.enqueue(op)
}

// setBy sets the time until which op may wait for others to share its
// transaction: patience, or the writer's gathering window when that is
// shorter or patience is 0.
func (s *sqlStore) setBy(op *writeOp, patience time.Duration) {
	if s.gather > 0 {
		if patience <= 0 || patience > s.gather {
			patience = s.gather
		}
		op.by = time.Now().Add(patience)
	}
}

// inTx runs the write op in the writer's next transaction, and returns
// once it is committed or has failed. A write whose ctx ends first may
// still be committed: the archive's writes are made to be tried again
// safely.
func (s *sqlStore) inTx(ctx context.Context, op *writeOp) error {
	op.done = make(chan error, 1)
	if patience, ok := ctx.Value(patientKey{}).(time.Duration); ok {
		s.setBy(op, patience)
	}
	if !s.enqueue(op) {
		return errors.New("the archive is closed")
	}
	select {
	case err := <-op.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

package archive

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The explorer's index of a game is written after its end, in a
// transaction of its own that nobody waits for, rather than in the end's:
// a session that asks for a new game the moment its last one ends waited
// for that end's commit (the SIGKILL promise, before the end journal:
// journal.go), and indexing its plies
// (two tables, and the check that the explorer lacks the game) was a third
// of that commit's work. Under a load of quick games
// (scripts/archive-load.sh -s 500 -t 100ms, 2026-11-27, two rounds) the
// new game's median wait went from 1.0 to 0.6 ms with SQLite and from 3.1
// to 2.1 ms with PostgreSQL, and the p99 of all commands from 1.40 to 1.50
// ms to 1.08 to 1.16 ms, and from 3.28 to 3.35 ms to 2.47 to 2.49 ms.
//
// The end's transaction marks the game (games.explorer_pending), so that
// no index is lost to a daemon killed between the two: the index's
// transaction claims the marks of the games it indexes (UPDATE ...
// RETURNING, so that of two daemons on one PostgreSQL archive only one
// indexes a game), and a writer that starts, or whose index failed, sweeps
// the marks left, replaying those games' moves as the explorer's migration
// does. The writer keeps the ended games' rows in hand meanwhile (toIndex),
// so that it need not read back what it has just written.

// indexDelay is how long after the first end in hand the writer indexes
// the ends it holds: the writer's gathering window, so that the ends of a
// busy daemon are indexed by the dozen.
const indexDelay = gatherWindow

// maxIndexBatch bounds the games one index transaction takes; more wait
// for the next, due at once.
const maxIndexBatch = 1024

// sweepBatch is how many marked games one index transaction sweeps.
const sweepBatch = 1000

// indexLater takes the games whose ends batch committed (those with a
// nil error in errs) into the writer's hand, to be indexed.
func (s *sqlStore) indexLater(batch []*writeOp, errs []error) {
	s.indexMu.Lock()
	for i, op := range batch {
		if errs[i] == nil && op.indexed != nil {
			s.toIndex = append(s.toIndex, *op.indexed)
		}
	}
	s.indexMu.Unlock()
	select {
	case s.indexWake <- struct{}{}:
	default:
	}
}

// index1 runs the explorer's index in a goroutine of its own, beside the
// writer, when the archive is PostgreSQL (indexApart): its transactions
// run on a connection of their own, so that a new game, which waits for
// its last game's end to be committed, no longer waits behind an index
// transaction as well. When 10,000 games end within some 20 s
// (scripts/archive-load.sh -s 10000 -d 120s -a postgres, one round of
// each, 2026-11-27) the time sessions waited for the archive fell from
// 108 to 39 s, the new games' p90 from 10.4 to 4.0 ms and p99 from 86 to
// 42 ms. SQLite has one writing connection, so there the index runs in
// the writer's turn (write1), after the writes due. Like write1, it
// indexes the ends in hand a gathering window after the first of them
// came, or at once when asked (indexNow), or before it stops.
func (s *sqlStore) index1() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var due <-chan time.Time
	for {
		due = s.indexDueBy(timer, due)
		select {
		case <-s.done:
			s.indexInHand()
			return
		case <-s.indexWake:
		case <-due:
			due = nil
			s.indexPending()
		case reply := <-s.indexAsked:
			s.indexInHand()
			close(reply)
		}
	}
}

// indexDueBy returns when the next index is due, for the loop that
// indexes (write1 or index1): due, unless none is due yet and ends are in
// hand or a sweep is wanted, when timer is started for a gathering
// window (indexDelay) and its channel returned.
func (s *sqlStore) indexDueBy(timer *time.Timer, due <-chan time.Time) <-chan time.Time {
	if due == nil && (s.inHand() > 0 || s.sweep.Load()) {
		timer.Reset(indexDelay)
		return timer.C
	}
	return due
}

// inHand returns how many ended games wait in hand to be indexed.
func (s *sqlStore) inHand() int {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	return len(s.toIndex)
}

// explorerMark is the value of games.explorer_pending that an end
// writes: 1 when the game is to be indexed.
func explorerMark(g *indexedGame) int64 {
	if g != nil {
		return 1
	}
	return 0
}

// indexPending indexes the games in hand (up to maxIndexBatch) and, when
// a sweep is due, those the archive marks as ended but not indexed, in
// one transaction, and reports whether it committed. Should it fail, the
// games stay marked, and the next sweeps them. Only the goroutine that
// indexes (the writer's, or index1) takes games out of hand; commit (in
// tests, another goroutine) adds them.
func (s *sqlStore) indexPending() bool {
	s.indexMu.Lock()
	games := slices.Clone(s.toIndex[:min(len(s.toIndex), maxIndexBatch)])
	s.indexMu.Unlock()
	for i := range games {
		games[i] = games[i].withRows()
	}
	sweep := s.sweep.Swap(false)
	if len(games) == 0 && !sweep {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	more, err := s.indexIn(ctx, games, sweep)
	s.indexMu.Lock()
	if err != nil {
		// The marks are the truth: the games in hand are swept again.
		more = true
		s.toIndex = nil
	} else {
		s.toIndex = s.toIndex[len(games):]
	}
	s.indexMu.Unlock()
	if more {
		s.sweep.Store(true)
	}
	return err == nil
}

// indexInHand indexes all the games in hand, unless a transaction fails.
func (s *sqlStore) indexInHand() {
	for s.inHand() > 0 && s.indexPending() {
	}
}

// indexIn runs one index transaction: the games in hand whose marks it
// claims, and when sweeping, up to sweepBatch marked games besides; it
// reports whether more marked games may be left to sweep.
func (s *sqlStore) indexIn(ctx context.Context, games []indexedGame, sweep bool) (more bool, err error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	run := s.writerTx(tx)
	ids := make([]int64, len(games))
	for i, g := range games {
		ids[i] = g.id
	}
	claimed, err := s.claim(ctx, run, ids)
	if err != nil {
		return false, err
	}
	fresh := games[:0:0]
	for _, g := range games {
		if claimed[g.id] {
			// A game's end written twice is in hand twice.
			delete(claimed, g.id)
			fresh = append(fresh, g)
		}
	}
	if sweep {
		var swept []indexedGame
		if swept, more, err = s.sweepMarked(ctx, tx); err != nil {
			return false, err
		}
		fresh = append(fresh, swept...)
	}
	if err := s.d.indexAll(ctx, run, fresh); err != nil {
		return false, err
	}
	return more, tx.Commit()
}

// claim takes the explorer marks of the games ids, and returns those it
// took: a game pruned, or claimed by another writer, is not among them.
func (s *sqlStore) claim(ctx context.Context, run txRunner, ids []int64) (map[int64]bool, error) {
	claimed := map[int64]bool{}
	rows := newTable(idColumns(), len(ids))
	for _, id := range ids {
		rows.add(id)
	}
	for from, to := range s.d.chunks(rows) {
		with, args := s.d.with("v", rows, from, to)
		res, err := run.QueryContext(ctx, with+` UPDATE games SET explorer_pending = 0 FROM v
			WHERE games.id = v.game AND games.explorer_pending = 1 RETURNING games.id`, args...)
		if err != nil {
			return nil, fmt.Errorf("claiming games for the explorer: %w", err)
		}
		for res.Next() {
			var id int64
			if err := res.Scan(&id); err != nil {
				res.Close()
				return nil, err
			}
			claimed[id] = true
		}
		res.Close()
		if err := res.Err(); err != nil {
			return nil, err
		}
	}
	return claimed, nil
}

// sweepMarked claims up to sweepBatch of the games the archive marks as
// not indexed yet, in one statement, and returns them read back and
// replayed for the explorer, and whether more may be left (it claimed
// some: the next sweep finds none, or the rest).
func (s *sqlStore) sweepMarked(ctx context.Context, tx *sql.Tx) ([]indexedGame, bool, error) {
	rows, err := tx.QueryContext(ctx, s.q(`UPDATE games SET explorer_pending = 0
		WHERE explorer_pending = 1 AND id IN (SELECT id FROM games WHERE explorer_pending = 1 ORDER BY id LIMIT ?) RETURNING id`), sweepBatch)
	if err != nil {
		return nil, false, fmt.Errorf("claiming the games the explorer lacks: %w", err)
	}
	var mine []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, false, err
		}
		mine = append(mine, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	games, err := readIndexed(ctx, tx, s.d, mine)
	return games, len(mine) > 0, err
}

// readIndexed reads the games ids (at most a thousand) back from the
// archive, their first ExplorerPlies moves replayed for the explorer.
func readIndexed(ctx context.Context, tx *sql.Tx, d dialect, ids []any) ([]indexedGame, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	type game struct {
		gameType string
		result   string
		moves    []string
	}
	in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	rows, err := tx.QueryContext(ctx, d.rebind(`SELECT id, game_type, result FROM games WHERE id IN `+in), ids...)
	if err != nil {
		return nil, err
	}
	games := map[int64]*game{}
	for rows.Next() {
		var (
			id int64
			g  game
		)
		if err := rows.Scan(&id, &g.gameType, &g.result); err != nil {
			rows.Close()
			return nil, err
		}
		games[id] = &g
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, d.rebind(`SELECT game, text FROM moves WHERE game IN `+in+` AND ply < ? ORDER BY game, ply`),
		append(ids, ExplorerPlies)...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var (
			id   int64
			text string
		)
		if err := rows.Scan(&id, &text); err != nil {
			rows.Close()
			return nil, err
		}
		games[id].moves = append(games[id].moves, text)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	indexed := make([]indexedGame, 0, len(ids))
	for _, id := range ids {
		if g := games[id.(int64)]; g != nil {
			indexed = append(indexed, indexedGame{id: id.(int64), result: resultCode(g.result), rows: explorerRowsOf(g.gameType, g.moves)})
		}
	}
	return indexed, nil
}

// sweepAtStart indexes for the explorer the games whose index a daemon
// killed left undone, before the writer starts: at most the ends of a
// gathering window. Should it fail, the writer sweeps them later.
func (s *sqlStore) sweepAtStart(ctx context.Context) {
	if s.sweepAll(ctx) != nil {
		s.sweep.Store(true)
	}
}

// sweepAll indexes all the games the archive marks as not indexed yet.
func (s *sqlStore) sweepAll(ctx context.Context) error {
	for more := true; more; {
		var err error
		if more, err = s.indexIn(ctx, nil, true); err != nil {
			return err
		}
	}
	return nil
}

// indexNow indexes the ends in the writer's hand before it returns, so
// that a daemon's explorer answers with every game it has ended; it asks
// only when the writer holds some.
func (s *sqlStore) indexNow(ctx context.Context) error {
	if s.wake == nil || s.inHand() == 0 {
		return nil
	}
	defer s.hurry()()
	reply := make(chan struct{})
	select {
	case s.indexAsked <- reply:
	case <-s.indexDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-reply:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

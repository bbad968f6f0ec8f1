package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestStatus is a test as the database holds it: what its coordinator
// shows while it waits, and what match --status prints, as OpenBench's
// test page shows a test.
type TestStatus struct {
	ID       int64
	Settings TestSettings
	Games    int // the games planned
	Counted
	Leased  int // pairs being played now
	Created time.Time
	Ended   time.Time // zero while the test is open

	// The rest is filled by Status only (Summary leaves it out): what
	// takes reading every pair.

	// Played are the games of the counted pairs, in game order, as the
	// pairs' rows keep them (the moves are in the archive), and
	// ArchiveIDs the archive's id of each (0 for one it lacks).
	Played     []GameRecord
	ArchiveIDs []int64
	Workers    []WorkerTally // by games played, most first
	Leases     []LeaseInfo   // the pairs being played, by pair
}

// WorkerTally is what one worker played of a test: the pairs it reported
// that were counted, and engine A's results in them.
type WorkerTally struct {
	Worker string
	Pairs  int
	Score  Score
}

// LeaseInfo is a pair being played: by whom, until when its lease runs
// unless renewed, and how many times it has been claimed (more than once
// when a lease ran out).
type LeaseInfo struct {
	Pair   int
	Worker string
	Until  time.Time
	Claims int
}

// Summary reads the test's row: where it stands and A's results, without
// its games (a read the coordinator makes every poll).
func (t *Tests) Summary(ctx context.Context, id int64) (TestStatus, error) {
	ctx, cancel := query(ctx)
	defer cancel()
	tx, err := t.db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return TestStatus{}, err
	}
	defer tx.Rollback(ctx)
	return summary(ctx, tx, id)
}

// List reads the newest n tests' rows (Summary), newest first: the web
// page's list of tests.
func (t *Tests) List(ctx context.Context, n int) ([]TestStatus, error) {
	ctx, cancel := query(ctx)
	defer cancel()
	tx, err := t.db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, `SELECT id FROM match_tests ORDER BY id DESC LIMIT $1`, n)
	if err != nil {
		return nil, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, err
	}
	out := make([]TestStatus, 0, len(ids))
	for _, id := range ids {
		st, err := summary(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func summary(ctx context.Context, tx pgx.Tx, id int64) (TestStatus, error) {
	st := TestStatus{ID: id}
	var (
		settings []byte
		ended    *time.Time
	)
	dest := []any{&settings, &st.Games, &st.State, &st.Stopped, &st.PairsDone, &st.Created, &ended}
	for _, f := range statsFields(&st.Stats) {
		dest = append(dest, f)
	}
	err := tx.QueryRow(ctx, `SELECT settings, games, state, stopped, pairs_done, created_at, ended_at, `+statsColumns+`
		FROM match_tests WHERE id = $1`, id).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, fmt.Errorf("test %d: %w", id, ErrNoTest)
	}
	if err != nil {
		return st, err
	}
	if ended != nil {
		st.Ended = *ended
	}
	st.Stats.sumTotal()
	if err := json.Unmarshal(settings, &st.Settings); err != nil {
		return st, fmt.Errorf("test %d's settings: %w", id, err)
	}
	if st.Settings.SPRT != nil {
		st.SPRT = &SPRTState{Test: *st.Settings.SPRT}
		st.SPRT.Update(st.Stats)
	}
	err = tx.QueryRow(ctx, `SELECT count(*) FROM match_pairs WHERE test = $1 AND state = 'leased' AND lease_until >= now()`, id).Scan(&st.Leased)
	return st, err
}

// Status reads the whole test: its row, and every pair done or leased,
// in one snapshot.
func (t *Tests) Status(ctx context.Context, id int64) (TestStatus, error) {
	ctx, cancel := query(ctx)
	defer cancel()
	tx, err := t.db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return TestStatus{}, err
	}
	defer tx.Rollback(ctx)
	st, err := summary(ctx, tx, id)
	if err != nil {
		return st, err
	}
	rows, err := tx.Query(ctx, `SELECT pair, state, worker, lease_until, claims, games, archive_ids FROM match_pairs
		WHERE test = $1 AND state <> 'free' ORDER BY pair`, id)
	if err != nil {
		return st, err
	}
	defer rows.Close()
	workers := map[string]*WorkerTally{}
	for rows.Next() {
		var (
			pair, claims  int
			state, worker string
			until         *time.Time
			gamesJSON     []byte
			ids           []int64
		)
		if err := rows.Scan(&pair, &state, &worker, &until, &claims, &gamesJSON, &ids); err != nil {
			return st, err
		}
		if state == "leased" {
			li := LeaseInfo{Pair: pair, Worker: worker, Claims: claims}
			if until != nil {
				li.Until = *until
			}
			st.Leases = append(st.Leases, li)
			continue
		}
		games, err := pairGames(gamesJSON)
		if err != nil {
			return st, fmt.Errorf("test %d pair %d: %w", id, pair, err)
		}
		w := workers[worker]
		if w == nil {
			w = &WorkerTally{Worker: worker}
			workers[worker] = w
		}
		w.Pairs++
		var tally Stats
		countPair(&tally, games)
		w.Score.Wins += tally.Total.Wins
		w.Score.Losses += tally.Total.Losses
		w.Score.Draws += tally.Total.Draws
		st.Played = append(st.Played, games...)
		for i := range games {
			id := int64(0)
			if i < len(ids) {
				id = ids[i]
			}
			st.ArchiveIDs = append(st.ArchiveIDs, id)
		}
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	for _, w := range workers {
		st.Workers = append(st.Workers, *w)
	}
	sort.Slice(st.Workers, func(i, j int) bool {
		if st.Workers[i].Pairs != st.Workers[j].Pairs {
			return st.Workers[i].Pairs > st.Workers[j].Pairs
		}
		return st.Workers[i].Worker < st.Workers[j].Worker
	})
	return st, nil
}

// pairGames reads a done pair's games, in game order.
func pairGames(data []byte) ([]GameRecord, error) {
	var rows []pairGame
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, err
	}
	games := make([]GameRecord, len(rows))
	for i, r := range rows {
		g, err := r.record()
		if err != nil {
			return nil, err
		}
		games[i] = g
	}
	sortGames(games)
	return games, nil
}

// Result is the test as a match's result, for the match's table: the
// games of its counted pairs, A's statistics over them, the SPRT, why it
// ended early, and the time from its creation to its end (or now).
func (st TestStatus) Result() Result {
	end := st.Ended
	if end.IsZero() {
		end = time.Now()
	}
	return Result{Games: st.Played, Stats: st.Stats, SPRT: st.SPRT, Stopped: st.Stopped, Elapsed: end.Sub(st.Created)}
}

// Wait follows the test until it is no longer open, reading its row every
// poll, and calls progress (if not nil) with each reading that differs
// from the last (pairs counted, pairs leased, state). It returns the last
// reading, with ctx's error when ctx ended first. A reading that fails
// (the database down) is logged and made again at the next poll, each
// bounded by its own deadline; the wait itself ends only with the test or
// ctx, as a test of thousands of games may take days.
func (t *Tests) Wait(ctx context.Context, id int64, poll time.Duration, progress func(TestStatus)) (TestStatus, error) {
	var last TestStatus
	first := true
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		st, err := t.Summary(ctx, id)
		switch {
		case errors.Is(err, ErrNoTest):
			return last, err
		case err != nil && ctx.Err() == nil:
			t.log.Warn().Err(err).Int64("test", id).Msg("match test: reading the test failed; reading it again")
		case err == nil:
			changed := first || st.PairsDone != last.PairsDone || st.Leased != last.Leased || st.State != last.State
			if changed && progress != nil {
				progress(st)
			}
			first, last = false, st
			if st.State != TestOpen {
				return st, nil
			}
		}
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-tick.C:
		}
	}
}

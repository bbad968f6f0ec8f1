package referee

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Lease is a worker's claim on a game pair of a test, held until its
// time runs out unless renewed (Heartbeat). Token tells this claim from
// every other of the same pair: the database takes the pair's report only
// while the token holds it.
type Lease struct {
	Test   int64
	Pair   int // the pair's number k: games 2k and 2k+1
	Token  string
	Claims int // the times the pair has been claimed, this one included
	// Games and Settings are the test's, when the pair was claimed.
	Games    int
	Settings TestSettings
}

// The reasons a lease's pair is not counted.
var (
	// ErrLeaseLost: the lease ran out and another worker claimed the
	// pair, which is theirs to report now.
	ErrLeaseLost = errors.New("the lease is lost: another worker claimed the pair")
	// ErrTestClosed: the test was decided, done or stopped meanwhile.
	ErrTestClosed = errors.New("the test is no longer open")
)

// Claim leases worker a pair of an open test for lease: a pair nobody
// holds, or one whose lease has run out, the oldest test's first. Tests
// whose ids are in skip are passed over (those the worker cannot play).
// It returns nil when there is no pair to claim. Pairs that other claims
// hold locked are skipped, not waited for: any number of workers claim at
// once, each a different pair. (The test's row is read, not locked: a pair
// claimed as its test is decided is given up at its first heartbeat.)
func (t *Tests) Claim(ctx context.Context, worker string, lease time.Duration, skip []int64) (*Lease, error) {
	token := make([]byte, 16)
	rand.Read(token)
	l := &Lease{Token: hex.EncodeToString(token)}
	if skip == nil {
		skip = []int64{} // NULL would pass over every test
	}
	ctx, cancel := query(ctx)
	defer cancel()
	var settings []byte
	err := t.db.QueryRow(ctx, `WITH c AS (
			SELECT p.test, p.pair FROM match_pairs p JOIN match_tests t ON t.id = p.test
			WHERE t.state = 'open' AND (p.state = 'free' OR (p.state = 'leased' AND p.lease_until < now()))
				AND NOT (p.test = ANY($4::bigint[]))
			ORDER BY p.test, p.pair
			LIMIT 1
			FOR UPDATE OF p SKIP LOCKED)
		UPDATE match_pairs p SET state = 'leased', worker = $1, lease_token = $2,
			lease_until = now() + $3::double precision * interval '1 second', claims = p.claims + 1
		FROM c, match_tests t
		WHERE p.test = c.test AND p.pair = c.pair AND t.id = p.test
		RETURNING p.test, p.pair, p.claims, t.games, t.settings`,
		worker, l.Token, lease.Seconds(), skip).Scan(&l.Test, &l.Pair, &l.Claims, &l.Games, &settings)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	}
	if err := json.Unmarshal(settings, &l.Settings); err != nil {
		return nil, fmt.Errorf("test %d's settings: %w", l.Test, err)
	}
	return l, nil
}

// Heartbeat renews the lease for lease from now. It fails with
// ErrLeaseLost when another worker has claimed the pair, and with
// ErrTestClosed when the test is no longer open: either way the worker
// should stop playing the pair, whose report would not count.
func (t *Tests) Heartbeat(ctx context.Context, l *Lease, lease time.Duration) error {
	ctx, cancel := query(ctx)
	defer cancel()
	tag, err := t.db.Exec(ctx, `UPDATE match_pairs p SET lease_until = now() + $4::double precision * interval '1 second'
		WHERE p.test = $1 AND p.pair = $2 AND p.lease_token = $3 AND p.state = 'leased'
			AND EXISTS (SELECT 1 FROM match_tests t WHERE t.id = p.test AND t.state = 'open')`,
		l.Test, l.Pair, l.Token, lease.Seconds())
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var state TestState
	if err := t.db.QueryRow(ctx, `SELECT state FROM match_tests WHERE id = $1`, l.Test).Scan(&state); err != nil {
		return err
	}
	if state != TestOpen {
		return ErrTestClosed
	}
	return ErrLeaseLost
}

// Release gives the pair back before its lease runs out (the worker stops,
// or cannot play the test), so that another worker claims it at once. A
// lease already lost is left alone.
func (t *Tests) Release(ctx context.Context, l *Lease) error {
	ctx, cancel := query(ctx)
	defer cancel()
	_, err := t.db.Exec(ctx, `UPDATE match_pairs SET state = 'free', worker = '', lease_token = NULL, lease_until = NULL
		WHERE test = $1 AND pair = $2 AND lease_token = $3 AND state = 'leased'`, l.Test, l.Pair, l.Token)
	return err
}

// Counted is a test after a pair's report.
type Counted struct {
	State     TestState
	Stopped   string // why it ended early, when it did
	PairsDone int
	Stats     Stats      // engine A's results over the pairs counted
	SPRT      *SPRTState // when the test has one
}

// Report counts the finished games of the lease's pair (games 2k and 2k+1,
// in any order) into its test, with the ids the archive gave them (0 for
// a game it lacks), in one transaction under the test row's lock: the
// pair is marked done, A's results and the SPRT brought up to date, and
// the test decided, done or stopped when this pair makes it so. The
// report is refused, and nothing counted, when the token no longer holds
// the pair (ErrLeaseLost) or the test is no longer open (ErrTestClosed);
// a lease that has run out but that nobody has claimed since still
// counts. Reporting again a pair this lease already reported changes
// nothing and succeeds (a report whose answer was lost may be sent
// again).
func (t *Tests) Report(ctx context.Context, l *Lease, games []GameRecord, archiveIDs []int64) (Counted, error) {
	games = append([]GameRecord(nil), games...)
	sortGames(games)
	if len(games) != 2 || games[0].Index != 2*l.Pair || games[1].Index != 2*l.Pair+1 || len(archiveIDs) != 2 {
		return Counted{}, fmt.Errorf("pair %d of test %d: a report takes games %d and %d and their two archive ids", l.Pair, l.Test, 2*l.Pair, 2*l.Pair+1)
	}
	rows := make([]pairGame, len(games))
	for i, g := range games {
		rows[i] = pairGameOf(g)
	}
	gamesJSON, err := json.Marshal(rows)
	if err != nil {
		return Counted{}, err
	}
	ctx, cancel := query(ctx)
	defer cancel()
	tx, err := t.db.Begin(ctx)
	if err != nil {
		return Counted{}, err
	}
	defer tx.Rollback(ctx)
	c, s, total, err := lockTest(ctx, tx, l.Test)
	if err != nil {
		return Counted{}, err
	}
	var (
		pairState string
		token     *string
	)
	if err := tx.QueryRow(ctx, `SELECT state, lease_token FROM match_pairs WHERE test = $1 AND pair = $2 FOR UPDATE`,
		l.Test, l.Pair).Scan(&pairState, &token); err != nil {
		return Counted{}, err
	}
	switch {
	case token == nil || *token != l.Token:
		return Counted{}, ErrLeaseLost
	case pairState == "done":
		return c, nil // this lease's report, counted already
	case c.State != TestOpen:
		// The pair is nobody's to play now: it is freed, for a test
		// given more games later.
		if _, err := tx.Exec(ctx, `UPDATE match_pairs SET state = 'free', worker = '', lease_token = NULL, lease_until = NULL
			WHERE test = $1 AND pair = $2`, l.Test, l.Pair); err != nil {
			return Counted{}, err
		}
		if err := tx.Commit(ctx); err != nil {
			return Counted{}, err
		}
		return Counted{}, ErrTestClosed
	}
	countPair(&c.Stats, games)
	c.PairsDone++
	c.State, c.Stopped, c.SPRT = verdictOf(s, c.Stats, games, c.PairsDone, total/2)
	if _, err := tx.Exec(ctx, `UPDATE match_pairs SET state = 'done', lease_until = NULL, reported_at = now(),
		counted = $3, games = $4, archive_ids = $5 WHERE test = $1 AND pair = $2`,
		l.Test, l.Pair, c.PairsDone, gamesJSON, archiveIDs); err != nil {
		return Counted{}, err
	}
	args := []any{l.Test, c.PairsDone, string(c.State), c.Stopped, llrOf(c.SPRT)}
	for _, f := range statsFields(&c.Stats) {
		args = append(args, *f)
	}
	if _, err := tx.Exec(ctx, `UPDATE match_tests SET pairs_done = $2, state = $3, stopped = $4, llr = $5,
		ended_at = CASE WHEN $3 = 'open' THEN NULL ELSE now() END,
		(`+statsColumns+`) = ($6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
		WHERE id = $1`, args...); err != nil {
		return Counted{}, err
	}
	return c, tx.Commit(ctx)
}

// lockTest reads a test's row in tx, locked until tx ends, so that its
// reports count one after the other: where it stands, its settings and
// its number of games.
func lockTest(ctx context.Context, tx pgx.Tx, id int64) (c Counted, s TestSettings, games int, err error) {
	var settings []byte
	dest := []any{&settings, &games, &c.State, &c.Stopped, &c.PairsDone}
	for _, f := range statsFields(&c.Stats) {
		dest = append(dest, f)
	}
	err = tx.QueryRow(ctx, `SELECT settings, games, state, stopped, pairs_done, `+statsColumns+`
		FROM match_tests WHERE id = $1 FOR UPDATE`, id).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, s, 0, fmt.Errorf("test %d: %w", id, ErrNoTest)
	}
	if err != nil {
		return c, s, 0, err
	}
	c.Stats.sumTotal()
	if err := json.Unmarshal(settings, &s); err != nil {
		return c, s, 0, fmt.Errorf("test %d's settings: %w", id, err)
	}
	if s.SPRT != nil {
		c.SPRT = &SPRTState{Test: *s.SPRT}
		c.SPRT.Update(c.Stats)
	}
	return c, s, games, nil
}

// llrOf is the LLR the test's row keeps (0 without an SPRT), for those who
// read the table with SQL.
func llrOf(s *SPRTState) float64 {
	if s == nil {
		return 0
	}
	return s.LLR
}

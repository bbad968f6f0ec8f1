package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dialect is what differs between SQLite and PostgreSQL in the store's SQL.
type dialect struct {
	serial string // an auto-numbered primary key column
	lock   string // takes the migration lock inside a transaction
	dollar bool   // placeholders are $1, $2... rather than ?
}

// rebind turns the ? placeholders of q into the dialect's.
func (d dialect) rebind(q string) string {
	if !d.dollar {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// sqlStore is the Store of both databases, through database/sql.
type sqlStore struct {
	name  string
	d     dialect
	read  *sql.DB
	write *sql.DB // SQLite: one connection, so that writers queue in Go rather than on the file lock
	owner int64   // this process's row in owners; 0 for a reader
	// prepared are the writer's statements kept prepared (SQLite's; nil
	// for PostgreSQL).
	prepared *preparedStatements
	// deadOwners returns those of owners whose process has stopped.
	deadOwners func(ctx context.Context, owners []int64) ([]int64, error)
	release    func() // lets go of what marks this process alive
	heartbeat  func(ctx context.Context) error

	writer
	closeOnce sync.Once
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func (s *sqlStore) Name() string { return s.name }

func (s *sqlStore) q(query string) string { return s.d.rebind(query) }

// register adds this process to owners and returns its id.
func (s *sqlStore) register(ctx context.Context, kind string) (int64, error) {
	host, _ := os.Hostname()
	var id int64
	err := s.write.QueryRowContext(ctx, s.q(`INSERT INTO owners (kind, host, pid, started_ms) VALUES (?, ?, ?, ?) RETURNING id`),
		short(kind), short(host), os.Getpid(), ms(time.Now())).Scan(&id)
	return id, err
}

// Start and Update store every text storable and within the archive's
// bounds (storableStart, storableChange): whatever a client sent, the
// database is never handed text it refuses.
func (s *sqlStore) Start(ctx context.Context, st Start) (int64, error) {
	op := s.startOp(st)
	if err := s.inTx(ctx, op); err != nil {
		return 0, err // the writer may still be running it
	}
	return op.id, nil
}

// startOp returns the write of Start.
func (s *sqlStore) startOp(st Start) *writeOp {
	st = storableStart(st)
	op := &writeOp{start: &st}
	op.run = func(ctx context.Context, tx *sql.Tx) error {
		// A start whose commit the process never heard of (the
		// connection cut as it committed) is found by its key and
		// brought up to date, rather than archived twice.
		key := sql.NullString{String: st.Key, Valid: st.Key != ""}
		var id int64
		err := tx.QueryRowContext(ctx, s.q(`INSERT INTO games (owner, game_key, source, game_type, white, black, status, started_ms, game_string, plies)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_key) DO NOTHING RETURNING id`),
			s.owner, key, st.Source, st.GameType, st.White, st.Black, string(Playing), ms(st.Started), st.GameString, len(st.Moves)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			err = tx.QueryRowContext(ctx, s.q(`UPDATE games SET white = ?, black = ?, game_string = ?, plies = ? WHERE game_key = ? RETURNING id`),
				st.White, st.Black, st.GameString, len(st.Moves), key).Scan(&id)
			if err == nil {
				_, err = tx.ExecContext(ctx, s.q(`DELETE FROM moves WHERE game = ?`), id)
			}
		}
		if err != nil {
			return err
		}
		op.id = id
		return s.insertMoves(ctx, tx, id, st.Moves)
	}
	return op
}

// keepEnded writes an ended game whole from its line in the end journal
// (journal.go): its start by its key, every move and its end, in one
// transaction, unless the archive holds it finished already (its commit
// came before the process died, and the explorer may have indexed it). A
// game the archive holds unfinished (in play when its process died, and
// since marked interrupted) is brought to its end.
func (s *sqlStore) keepEnded(ctx context.Context, st Start, end End) error {
	start := s.startOp(st)
	op := &writeOp{}
	op.run = func(ctx context.Context, tx *sql.Tx) error {
		op.indexed = nil
		var status string
		err := tx.QueryRowContext(ctx, s.q(`SELECT status FROM games WHERE game_key = ?`), start.start.Key).Scan(&status)
		switch {
		case err == nil && status == string(Finished):
			return nil
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if err := start.run(ctx, tx); err != nil {
			return err
		}
		ended := s.updateOp(start.id, Change{From: len(start.start.Moves), GameString: start.start.GameString, End: &end})
		op.indexed = ended.indexed
		return ended.run(ctx, tx)
	}
	return s.inTx(ctx, op)
}

func (s *sqlStore) insertMoves(ctx context.Context, tx *sql.Tx, id int64, moves []Move) error {
	for _, m := range moves {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO moves (game, ply, text, by_player, at_ms) VALUES (?, ?, ?, ?, ?)`),
			id, m.Ply, m.Text, m.By, ms(m.At)); err != nil {
			return err
		}
	}
	return nil
}

func (s *sqlStore) Update(ctx context.Context, id int64, c Change) error {
	// The game's start has been committed before the first of its
	// updates, and the writer runs its updates in the order they came.
	return s.inTx(ctx, s.changeOp(id, c))
}

// changeOp returns the write of Update: an addition of moves
// (Change.Append), or updateOp's write.
func (s *sqlStore) changeOp(id int64, c Change) *writeOp {
	if c.Append {
		a := additionOf(c)
		return &writeOp{game: id, run: s.add(id, a), added: a}
	}
	return s.updateOp(id, c)
}

// offerUpdate is Update handed to the writer without waiting for it
// (offer): finish is told how it went, in the writer's goroutine. It
// reports whether the writer took it (not once it has stopped).
func (s *sqlStore) offerUpdate(id int64, c Change, patience time.Duration, finish func(error)) bool {
	op := s.changeOp(id, c)
	op.finish = finish
	return s.offer(op, patience)
}

// updateOp returns the write of Update for a change that is not an
// addition (Change.Append): run alone (update), and, for an end that only
// adds moves (Change.Synced), as an addition that ends the game, which
// the writer runs together with the others of its transaction (addAll).
func (s *sqlStore) updateOp(id int64, c Change) *writeOp {
	c, plies := storableChange(c)
	// A game that ends finished with a result is indexed for the
	// explorer; its moves are replayed beside the end's commit, in a
	// goroutine of their own rather than in the writer's, which every
	// game shares (replayBeside).
	var indexed *indexedGame
	if c.End != nil && c.End.status() == Finished {
		if g := (indexedGame{id: id, result: resultCode(c.End.Result)}); g.result >= 0 {
			g.replaying = replayBeside(c.GameString)
			indexed = &g
		}
	}
	op := &writeOp{game: id, run: s.update(id, c, plies, indexed), indexed: indexed}
	if c.End != nil && c.Synced {
		op.added = &addition{moves: c.Moves, white: c.White, black: c.Black,
			end: &ending{gameString: c.GameString, plies: plies, end: *c.End}}
	}
	return op
}

// update returns the write of a storable change c alone: the moves from
// ply From on replaced, the row brought up to date (the game then holds
// plies), and the game marked to be indexed for the explorer when it ends
// with a result (indexed; indexer.go).
func (s *sqlStore) update(id int64, c Change, plies int, indexed *indexedGame) func(ctx context.Context, tx *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM moves WHERE game = ? AND ply >= ?`), id, c.From); err != nil {
			return err
		}
		if err := s.insertMoves(ctx, tx, id, c.Moves); err != nil {
			return err
		}
		var (
			res sql.Result
			err error
		)
		if c.End == nil {
			res, err = tx.ExecContext(ctx, s.q(`UPDATE games SET white = COALESCE(NULLIF(?, ''), white), black = COALESCE(NULLIF(?, ''), black),
				game_string = ?, plies = ? WHERE id = ?`),
				c.White, c.Black, c.GameString, plies, id)
		} else {
			res, err = tx.ExecContext(ctx, s.q(`UPDATE games SET white = COALESCE(NULLIF(?, ''), white), black = COALESCE(NULLIF(?, ''), black),
				game_string = ?, plies = ?,
				status = ?, ended_ms = ?, result = ?, how = ?, reason = ?, explorer_pending = ? WHERE id = ?`),
				c.White, c.Black, c.GameString, plies, string(c.End.status()), ms(c.End.At), c.End.Result, c.End.How, c.End.Reason,
				explorerMark(indexed), id)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n != 1 {
			return fmt.Errorf("game %d: %w", id, ErrNotFound)
		}
		return nil
	}
}

func (s *sqlStore) InterruptOrphans(ctx context.Context) (int, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT DISTINCT owner FROM games WHERE status = ? AND owner <> ?`), string(Playing), s.owner)
	if err != nil {
		return 0, err
	}
	var owners []int64
	for rows.Next() {
		var o int64
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return 0, err
		}
		owners = append(owners, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(owners) == 0 {
		return 0, err
	}
	dead, err := s.deadOwners(ctx, owners)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range dead {
		res, err := s.write.ExecContext(ctx, s.q(`UPDATE games SET status = ?, how = ?, reason = ?,
			ended_ms = COALESCE((SELECT MAX(at_ms) FROM moves WHERE moves.game = games.id), started_ms)
			WHERE status = ? AND owner = ?`),
			string(Interrupted), "interrupted", "the process playing it stopped", string(Playing), o)
		if err != nil {
			return n, err
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	return n, nil
}

// gameColumns are the columns scanGame reads, in its order.
const gameColumns = `id, source, game_type, white, black, status, started_ms, ended_ms, result, how, reason, game_string, plies`

type scanner interface{ Scan(dest ...any) error }

func scanGame(r scanner) (Game, error) {
	var (
		g       Game
		status  string
		started int64
		ended   sql.NullInt64
	)
	err := r.Scan(&g.ID, &g.Source, &g.GameType, &g.White, &g.Black, &status, &started, &ended, &g.Result, &g.How, &g.Reason, &g.GameString, &g.Plies)
	g.Status, g.Started = Status(status), fromMS(started)
	if ended.Valid {
		g.Ended = fromMS(ended.Int64)
	}
	return g, err
}

func (s *sqlStore) List(ctx context.Context, f Filter) ([]Game, int, error) {
	if err := f.check(); err != nil {
		return nil, 0, err
	}
	var (
		where []string
		args  []any
	)
	add := func(cond string, arg any) {
		where = append(where, cond)
		args = append(args, arg)
	}
	if f.Player != "" {
		where = append(where, "(white = ? OR black = ?)")
		args = append(args, f.Player, f.Player)
	}
	if f.GameType != "" {
		add("game_type = ?", f.GameType)
	}
	if f.Result != "" {
		add("result = ?", f.Result)
	}
	if f.Status != "" {
		add("status = ?", string(f.Status))
	}
	if !f.Since.IsZero() {
		add("started_ms >= ?", ms(f.Since))
	}
	if !f.Until.IsZero() {
		add("started_ms < ?", ms(f.Until))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM games`+cond), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if f.PerPage <= 0 {
		f.PerPage = DefaultPerPage
	}
	if f.Page <= 0 {
		f.Page = 1
	}
	if f.Page > 1 && f.offset() >= total {
		return nil, total, fmt.Errorf("%w: page %d of %d per page, and %d games pass the filter", ErrPastEnd, f.Page, f.PerPage, total)
	}
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT `+gameColumns+` FROM games`+cond+` ORDER BY started_ms DESC, id DESC LIMIT ? OFFSET ?`),
		append(args, f.PerPage, f.offset())...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	games := []Game{}
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, 0, err
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	rows.Close()
	if err := s.catchUpAll(ctx, games); err != nil {
		return nil, 0, err
	}
	return games, total, nil
}

func (s *sqlStore) Get(ctx context.Context, id int64) (Game, error) {
	g, err := scanGame(s.read.QueryRowContext(ctx, s.q(`SELECT `+gameColumns+` FROM games WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, err
	}
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT ply, text, by_player, at_ms FROM moves WHERE game = ? ORDER BY ply`), id)
	if err != nil {
		return Game{}, err
	}
	defer rows.Close()
	g.Moves = []Move{}
	for rows.Next() {
		var (
			m  Move
			at int64
		)
		if err := rows.Scan(&m.Ply, &m.Text, &m.By, &at); err != nil {
			return Game{}, err
		}
		m.At = fromMS(at)
		g.Moves = append(g.Moves, m)
	}
	if err := rows.Err(); err != nil {
		return Game{}, err
	}
	var after []string
	for _, m := range g.Moves[min(g.Plies, len(g.Moves)):] {
		after = append(after, m.Text)
	}
	catchUp(&g, after)
	return g, nil
}

func (s *sqlStore) Outcomes(ctx context.Context) ([]Outcome, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT white, black, result FROM games WHERE status = ? AND result <> '' ORDER BY id`), string(Finished))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Outcome
	for rows.Next() {
		var o Outcome
		if err := rows.Scan(&o.White, &o.Black, &o.Result); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// pruneBatch bounds the games one transaction of Prune deletes, so that
// the first prune of a large archive holds the writer (SQLite's one
// connection) a short while at a time, between the games' own writes.
const pruneBatch = 500

func (s *sqlStore) Prune(ctx context.Context, before time.Time) (int, error) {
	n := 0
	for {
		deleted, chosen, err := s.pruneSome(ctx, before)
		n += deleted
		if err != nil {
			return n, fmt.Errorf("pruning the games started before %s: %w", before.UTC().Format(time.RFC3339), err)
		}
		if chosen < pruneBatch {
			return n, nil
		}
	}
}

// pruneSome deletes up to pruneBatch of the games Prune deletes, oldest
// first, in one transaction, and returns how many it deleted of how many
// it chose (another daemon pruning at once may delete some first). The
// games are chosen by id first, so that the moves deleted are exactly
// those of the games deleted, whatever ends meanwhile.
func (s *sqlStore) pruneSome(ctx context.Context, before time.Time) (deleted, chosen int, err error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.q(`SELECT id FROM games WHERE started_ms < ? AND status <> ? ORDER BY started_ms LIMIT ?`),
		ms(before), string(Playing), pruneBatch)
	if err != nil {
		return 0, 0, err
	}
	var (
		ids   []any
		marks []string
	)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, 0, err
		}
		ids, marks = append(ids, id), append(marks, "?")
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return 0, 0, err
	}
	in := "(" + strings.Join(marks, ", ") + ")"
	if err := s.d.unindex(ctx, tx, ids); err != nil {
		return 0, 0, err
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM moves WHERE game IN `+in), ids...); err != nil {
		return 0, 0, err
	}
	res, err := tx.ExecContext(ctx, s.q(`DELETE FROM games WHERE id IN `+in), ids...)
	if err != nil {
		return 0, 0, err
	}
	n, _ := res.RowsAffected()
	if err := tx.Commit(); err != nil {
		return 0, 0, err
	}
	return int(n), len(ids), nil
}

func (s *sqlStore) Heartbeat(ctx context.Context) error {
	if s.heartbeat == nil {
		return nil
	}
	return s.heartbeat(ctx)
}

// Close stops the writer (the writes in hand committed first), lets go
// of the process's mark, and closes the database; again, it does nothing.
func (s *sqlStore) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.stopWriter()
		s.prepared.close()
		if s.release != nil {
			s.release()
		}
		err = s.read.Close()
		if s.write != s.read {
			if werr := s.write.Close(); err == nil {
				err = werr
			}
		}
	})
	return err
}

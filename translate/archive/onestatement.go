package archive

import (
	"context"
	"fmt"
	"strings"
)

// runInOneStatement runs a PostgreSQL batch whose writes are all starts
// with a key and additions (one a game: the usual batch of a busy daemon)
// as one statement committed on its own: the starts' rows and their moves,
// the additions' moves, the players named and the ends, each a
// data-modifying WITH query of it. A transaction of separate statements
// costs PostgreSQL a round trip each, BEGIN and COMMIT included, and a
// session that waits for a commit (a new game for its last game's end)
// waits for all of them. It reports whether it ran the batch (tried); when
// the statement failed (failed, its error), nothing of it was committed, and the
// batch runs again, each write alone, as a transaction's would. A start
// whose key the archive holds already (tried again after a commit never
// heard of) is left out of the statement, moves and all, and runs after
// it as runBatch runs it; a game the archive does not hold fails the
// statement (its moves' foreign key), or is a row missing from those the
// statement returns, which fails that write alone.
func (s *sqlStore) runInOneStatement(ctx context.Context, batch []*writeOp) (errs []error, failed error, tried bool) {
	if !s.d.dollar {
		return nil, nil, false
	}
	seen := make(map[gameKey]bool, len(batch))
	for _, op := range batch {
		key := op.groupKey()
		if (op.added == nil && (op.start == nil || op.start.Key == "")) || key == (gameKey{}) || seen[key] {
			return nil, nil, false
		}
		seen[key] = true
	}
	size := sizeOf(batch)
	var (
		starts, moves      = newTable(startColumns(), size.starts), newTable(keyedMovesColumns(), size.moves)
		named, ended       = newTable(namesColumns(), size.named), newTable(endColumns(), size.ended)
		byKey              = map[string]*writeOp{}
		namedOps, endedOps = map[int64]int{}, map[int64]int{} // the index in batch of each game's write
	)
	for i, op := range batch {
		if st := op.start; st != nil {
			op.addStartRow(starts, s.owner)
			byKey[st.Key] = op
			for _, m := range st.Moves {
				moves.add(int64(0), st.Key, int64(m.Ply), m.Text, m.By, ms(m.At))
			}
			continue
		}
		for _, m := range op.added.moves {
			moves.add(op.game, "", int64(m.Ply), m.Text, m.By, ms(m.At))
		}
		if e := op.added.end; e != nil {
			op.addEndRow(ended, e)
			endedOps[op.game] = i
		} else if op.added.white != "" || op.added.black != "" {
			op.addNamesRow(named)
			namedOps[op.game] = i
		}
	}
	var (
		tables []string
		args   []any
	)
	for _, t := range []struct {
		name string
		rows *table
	}{
		{"st", starts},
		{"mv", moves},
		{"nm", named},
		{"en", ended},
	} {
		body, a := unnestRows(t.rows, 0, t.rows.len(), len(args))
		tables = append(tables, tableHead(t.name, t.rows.columns)+body)
		args = append(args, a...)
	}
	rows, err := s.write.QueryContext(ctx, `WITH `+strings.Join(tables, ", ")+`,
		started AS (INSERT INTO games (owner, game_key, source, game_type, white, black, status, started_ms, game_string, plies)
			SELECT owner, game_key, source, game_type, white, black, status, started_ms, game_string, plies FROM st WHERE true
			ON CONFLICT (game_key) DO NOTHING RETURNING id, game_key),
		moved AS (INSERT INTO moves (game, ply, text, by_player, at_ms)
			SELECT COALESCE(started.id, mv.game), mv.ply, mv.text, mv.by_player, mv.at_ms
			FROM mv LEFT JOIN started ON started.game_key = mv.game_key WHERE mv.game_key = '' OR started.id IS NOT NULL),
		named AS (UPDATE games SET white = COALESCE(NULLIF(nm.white, ''), games.white), black = COALESCE(NULLIF(nm.black, ''), games.black)
			FROM nm WHERE games.id = nm.id RETURNING games.id),
		ended AS (UPDATE games SET white = COALESCE(NULLIF(en.white, ''), games.white),
			black = COALESCE(NULLIF(en.black, ''), games.black), game_string = en.game_string, plies = en.plies,
			status = en.status, ended_ms = en.ended_ms, result = en.result, how = en.how, reason = en.reason,
			explorer_pending = en.explorer_pending FROM en WHERE games.id = en.id RETURNING games.id)
		SELECT 'started', id, game_key FROM started UNION ALL SELECT 'named', id, '' FROM named UNION ALL SELECT 'ended', id, '' FROM ended`, args...)
	if err != nil {
		return nil, err, true
	}
	errs = make([]error, len(batch))
	for rows.Next() {
		var (
			what, key string
			id        int64
		)
		if err := rows.Scan(&what, &id, &key); err != nil {
			rows.Close()
			return nil, err, true
		}
		switch what {
		case "started":
			byKey[key].id = id
		case "named":
			delete(namedOps, id)
		case "ended":
			delete(endedOps, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		// The statement failed as it ran: nothing of it is committed.
		return nil, err, true
	}
	// The games left are those the statement did not find.
	for _, missing := range []map[int64]int{namedOps, endedOps} {
		for game, i := range missing {
			errs[i] = fmt.Errorf("game %d: %w", game, ErrNotFound)
		}
	}
	var again []*writeOp
	var at []int
	for i, op := range batch {
		if op.start != nil && op.id == 0 {
			again, at = append(again, op), append(at, i)
		}
	}
	if len(again) > 0 {
		againErrs, _, err := s.runBatch(ctx, again, true)
		for j, i := range at {
			errs[i] = againErrs[j]
			if err != nil {
				errs[i] = err
			}
		}
	}
	return errs, nil, true
}

// keyedMovesColumns are those of a move's row in runInOneStatement: the
// game's id, or for a game started in the same statement, its key.
func keyedMovesColumns() []column {
	return []column{{"game", "bigint"}, {"game_key", "text"}, {"ply", "integer"}, {"text", "text"}, {"by_player", "text"}, {"at_ms", "bigint"}}
}

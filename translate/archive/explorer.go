package archive

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The opening explorer: for a position, every move played from it in the
// archive's finished games, how often, and how those games ended. Two
// tables keep it. explorer has a row for each of the first ExplorerPlies
// plies of each finished game with a result: the orientation-free key of
// the position before the ply (core.Orient), the ply's move in that
// position's canonical frame, the game and the result; its index on
// (position, move, game) gives a move's games newest first. explorer_moves
// counts them: a row for each position and move, with how many of its
// games White won, drew and Black won, kept up to date with every game
// indexed or pruned, so that the explorer's answer for the start position,
// which every game passes, reads a few rows rather than all the games.
// A game counts once for a move from a position, however often it played
// it there (a shuffle that repeats a position).

// ExplorerPlies is how many plies of each game the explorer indexes. An
// opening is the first few turns of each side (the Queen is down by the
// fourth), and a position after thirty plies is, in practice, met in one
// game only: its row would answer nobody but that game's own replay, while
// each ply indexed costs every game's end a row in each table.
const ExplorerPlies = 30

// ExplorerMove is one move played from a position, in the position's
// canonical frame (Move; core.Orientation.Board puts it on a board), with
// the results of the games that played it and some of those games' ids,
// newest first.
type ExplorerMove struct {
	Move  core.OrientedMove
	White int
	Draws int
	Black int
	Games []int64
}

// Total is how many games played the move.
func (m ExplorerMove) Total() int { return m.White + m.Draws + m.Black }

// explorerRow is one ply of a game as the explorer keeps it.
type explorerRow struct {
	ply      int
	position uint64
	move     core.OrientedMove
}

// resultCode is how explorer keeps a result: 1 White won, 2 Black won, 0
// a draw; -1 says the result is none of those, and the game not indexed.
func resultCode(result string) int64 {
	switch result {
	case "WhiteWins":
		return 1
	case "BlackWins":
		return 2
	case "Draw":
		return 0
	}
	return -1
}

// explorerRowsOf replays a game's first ExplorerPlies moves (UHP
// MoveStrings, any engine's spelling) and returns a row for each: where a
// move does not read or play, the rows stop before it. The moves were
// checked when they were played; the replay is lenient where records from
// other programs are (a Queen on a first turn, no repetition draw).
func explorerRowsOf(gameType string, moves []string) []explorerRow {
	t, err := uhp.ParseGameType(gameType)
	if err != nil {
		return nil
	}
	g := core.NewGame(t, core.RepetitionDraw(false), core.QueenOnFirstTurn(true))
	rows := make([]explorerRow, 0, min(len(moves), ExplorerPlies))
	for ply, text := range moves[:min(len(moves), ExplorerPlies)] {
		m, err := uhp.ParseMove(text, g)
		if err != nil {
			break
		}
		o := core.Orient(g)
		om, ok := o.Canonical(g, m)
		if !ok || g.PlayChecked(m) != nil {
			break
		}
		rows = append(rows, explorerRow{ply: ply, position: o.Key(), move: om})
	}
	return rows
}

// explorerRowsOfGameString is explorerRowsOf a GameString's moves; a
// GameString that does not read gives none.
func explorerRowsOfGameString(gameString string) []explorerRow {
	gs, err := uhp.ParseGameString(gameString)
	if err != nil {
		return nil
	}
	return explorerRowsOf(uhp.FormatGameType(gs.Type), gs.Moves)
}

// indexedGame is a game for the explorer's tables: its id, result code
// and rows, or the replay that brings them (replaying).
type indexedGame struct {
	id        int64
	result    int64
	rows      []explorerRow
	replaying *replay
}

// replay is a game's plies being replayed for the explorer in a
// goroutine of their own (replayBeside): rows, once done is closed.
type replay struct {
	done chan struct{}
	rows []explorerRow
}

// replayBeside replays a game's GameString for the explorer in a
// goroutine, beside its end's commit rather than before it. A session
// that asks for a new game the moment its last one ends waited for that
// end's commit (the SIGKILL promise; since the end journal, journal.go, it
// need not when it finds the end not committed), and the replay (some 130 µs a game
// of 30 plies, most of it core.Orient) was on that wait's path: the end's
// write was handed to the writer only once it was done. The rows are
// needed only by the index, a gathering window later. Under quick games
// (scripts/archive-load.sh -s 500 -t 100ms, three rounds of each build
// interleaved, 2026-11-27) the new game's median wait went from 1.83 to
// 1.84 ms to 1.68 to 1.73 ms with PostgreSQL and the p99 after the ramp
// from 2.14 to 2.17 ms to 1.99 to 2.03 ms; with SQLite 556 to 601 µs to
// 541 to 578 µs, and 0.96 to 1.10 ms to 0.93 to 1.08 ms.
func replayBeside(gameString string) *replay {
	r := &replay{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.rows = explorerRowsOfGameString(gameString)
	}()
	return r
}

// withRows returns g with its rows, its replay waited for.
func (g indexedGame) withRows() indexedGame {
	if g.replaying != nil {
		<-g.replaying.done
		g.rows, g.replaying = g.replaying.rows, nil
	}
	return g
}

func explorerColumns() []column {
	return []column{{"game", "bigint"}, {"ply", "integer"}, {"position", "bigint"}, {"move", "bigint"}, {"result", "integer"}}
}

func explorerCountColumns() []column {
	return []column{{"position", "bigint"}, {"move", "bigint"}, {"white", "integer"}, {"draws", "integer"}, {"black", "integer"}}
}

// index adds games to the explorer's tables: their rows, in statements of
// many rows, and their counts, one statement a batch of positions and
// moves in the order of their key (so that two archives' writers that
// count the same positions at once take their rows' locks in one order,
// and PostgreSQL has no deadlock to break).
func (d dialect) index(ctx context.Context, tx txRunner, games []indexedGame) error {
	type pair struct {
		position int64
		move     int64
	}
	size := 0
	for _, g := range games {
		if g.result >= 0 {
			size += len(g.rows)
		}
	}
	var (
		rows   = newTable(explorerColumns(), size)
		counts = map[pair]*[3]int64{}
	)
	for _, g := range games {
		if g.result < 0 {
			continue
		}
		seen := map[pair]bool{}
		for _, r := range g.rows {
			p := pair{int64(r.position), int64(r.move)}
			rows.add(g.id, int64(r.ply), p.position, p.move, g.result)
			if seen[p] {
				continue
			}
			seen[p] = true
			c := counts[p]
			if c == nil {
				c = new([3]int64)
				counts[p] = c
			}
			c[[3]int{1, 0, 2}[g.result]]++
		}
	}
	for from, to := range d.chunks(rows) {
		with, args := d.with("v", rows, from, to)
		if _, err := tx.ExecContext(ctx, with+` INSERT INTO explorer (game, ply, position, move, result)
			SELECT game, ply, position, move, result FROM v`, args...); err != nil {
			return fmt.Errorf("indexing for the explorer: %w", err)
		}
	}
	pairs := make([]pair, 0, len(counts))
	for p := range counts {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmp.Or(cmp.Compare(a.position, b.position), cmp.Compare(a.move, b.move)) })
	for len(pairs) > 0 {
		n := d.chunk(len(pairs), explorerCountColumns())
		batch := newTable(explorerCountColumns(), n)
		for _, p := range pairs[:n] {
			c := counts[p]
			batch.add(p.position, p.move, c[0], c[1], c[2])
		}
		with, args := d.with("v", batch, 0, n)
		if _, err := tx.ExecContext(ctx, with+` INSERT INTO explorer_moves (position, move, white, draws, black)
			SELECT position, move, white, draws, black FROM v WHERE true ORDER BY position, move
			ON CONFLICT (position, move) DO UPDATE SET white = explorer_moves.white + excluded.white,
			draws = explorer_moves.draws + excluded.draws, black = explorer_moves.black + excluded.black`, args...); err != nil {
			return fmt.Errorf("counting for the explorer: %w", err)
		}
		pairs = pairs[n:]
	}
	return nil
}

// unindex takes games out of the explorer's tables: their counts taken
// back, then their rows deleted. A game written again (its end's write
// tried again) or pruned goes through it.
func (d dialect) unindex(ctx context.Context, tx *sql.Tx, ids []any) error {
	in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	if _, err := tx.ExecContext(ctx, d.rebind(`UPDATE explorer_moves SET white = explorer_moves.white - x.white,
		draws = explorer_moves.draws - x.draws, black = explorer_moves.black - x.black
		FROM (SELECT position, move, SUM(CASE WHEN result = 1 THEN 1 ELSE 0 END) AS white,
			SUM(CASE WHEN result = 0 THEN 1 ELSE 0 END) AS draws, SUM(CASE WHEN result = 2 THEN 1 ELSE 0 END) AS black
			FROM (SELECT DISTINCT game, position, move, result FROM explorer WHERE game IN `+in+`) AS d GROUP BY position, move) AS x
		WHERE explorer_moves.position = x.position AND explorer_moves.move = x.move`), ids...); err != nil {
		return fmt.Errorf("taking games out of the explorer's counts: %w", err)
	}
	if _, err := tx.ExecContext(ctx, d.rebind(`DELETE FROM explorer WHERE game IN `+in), ids...); err != nil {
		return fmt.Errorf("taking games out of the explorer: %w", err)
	}
	return nil
}

// Explore returns every move played from the position whose key is
// position (core.Orientation.Key) in the archive's finished games, the
// most played first, each with up to games of its games' ids, newest
// first (ExplorerGames pages on).
func (s *sqlStore) Explore(ctx context.Context, position uint64, games int) ([]ExplorerMove, error) {
	if err := s.indexNow(ctx); err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT move, white, draws, black FROM explorer_moves
		WHERE position = ? AND white + draws + black > 0 ORDER BY white + draws + black DESC, move`), int64(position))
	if err != nil {
		return nil, err
	}
	moves := []ExplorerMove{}
	for rows.Next() {
		var (
			m  ExplorerMove
			om int64
		)
		if err := rows.Scan(&om, &m.White, &m.Draws, &m.Black); err != nil {
			rows.Close()
			return nil, err
		}
		m.Move = core.OrientedMove(om)
		moves = append(moves, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if games <= 0 {
		return moves, nil
	}
	for i := range moves {
		if moves[i].Games, err = s.ExplorerGames(ctx, position, moves[i].Move, 0, games); err != nil {
			return nil, err
		}
	}
	return moves, nil
}

// ExplorerGames returns up to n ids of the games that played move from
// position, newest first: those before the game before when it is not 0,
// so that a page's last id asks for the next page.
func (s *sqlStore) ExplorerGames(ctx context.Context, position uint64, move core.OrientedMove, before int64, n int) ([]int64, error) {
	if err := s.indexNow(ctx); err != nil {
		return nil, err
	}
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT DISTINCT game FROM explorer WHERE position = ? AND move = ? AND game < ?
		ORDER BY game DESC LIMIT ?`), int64(position), int64(move), before, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// indexAll indexes the games ended (indexer.go), those the explorer does
// not have already: an end tried again after its first try was committed
// and indexed marks the game again, and would count its moves twice.
// Which games the explorer has is one query for all of them (of at most
// dialect.rows games), not one a game: the writer indexes the ends in its
// hand together.
func (d dialect) indexAll(ctx context.Context, tx txRunner, games []indexedGame) error {
	var (
		fresh []indexedGame
		ids   = newTable(idColumns(), len(games))
	)
	for _, g := range games {
		if g.result >= 0 && len(g.rows) > 0 {
			fresh = append(fresh, g)
			ids.add(g.id)
		}
	}
	had := map[int64]bool{}
	for from, to := range d.chunks(ids) {
		with, args := d.with("v", ids, from, to)
		rows, err := tx.QueryContext(ctx, with+` SELECT game FROM v WHERE EXISTS (SELECT 1 FROM explorer WHERE explorer.game = v.game)`, args...)
		if err != nil {
			return fmt.Errorf("finding the games the explorer has: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			had[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if len(had) > 0 {
		fresh = slices.DeleteFunc(fresh, func(g indexedGame) bool { return had[g.id] })
	}
	return d.index(ctx, tx, fresh)
}

// idColumns are the columns of a list of games' ids.
func idColumns() []column { return []column{{"game", "bigint"}} }

// indexArchived indexes the finished games already in the archive, in
// the migration that makes the explorer's tables: a thousand games at a
// time, in order of id, their first ExplorerPlies moves read and replayed.
func indexArchived(ctx context.Context, tx *sql.Tx, d dialect) error {
	after := int64(0)
	for {
		rows, err := tx.QueryContext(ctx, d.rebind(`SELECT id FROM games
			WHERE status = ? AND result IN ('WhiteWins', 'BlackWins', 'Draw') AND id > ? ORDER BY id LIMIT 1000`), string(Finished), after)
		if err != nil {
			return err
		}
		var ids []any
		for rows.Next() {
			if err := rows.Scan(&after); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, after)
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(ids) == 0 {
			return err
		}
		indexed, err := readIndexed(ctx, tx, d, ids)
		if err != nil {
			return err
		}
		if err := d.index(ctx, tx, indexed); err != nil {
			return err
		}
	}
}

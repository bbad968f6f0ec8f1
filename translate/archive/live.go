package archive

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// A game's row holds its GameString and the plies it holds (plies): both
// as of the game's last write other than a move's (Change.Append), which
// adds the move alone and leaves the row, so that a move costs the
// database one row and a busy archive about half the pages it wrote when
// it rewrote the row at every move. A reader brings such a row up to date
// from the moves after it: a game in progress's GameString is its
// previous one with the moves added and the turn moved on.

// gameStringAfter returns the GameString of a game in progress that was
// gs after moves more (UHP's GameString:
// GameTypeString;GameStateString;TurnString followed by ;MoveString for
// each move): InProgress (NotStarted without a move), the turn that of the
// plies it then holds, the moves added. It reports false for a gs that is not a GameString of a
// game that goes on (NotStarted or InProgress).
func gameStringAfter(gs string, moves []string) (string, bool) {
	fields := strings.Split(gs, ";")
	if len(fields) < 3 || (fields[1] != "NotStarted" && fields[1] != "InProgress") {
		return "", false
	}
	plies := len(fields) - 3 + len(moves)
	var b strings.Builder
	b.Grow(len(gs) + 16 + 8*len(moves))
	b.WriteString(fields[0])
	if plies == 0 {
		b.WriteString(";NotStarted;")
	} else {
		b.WriteString(";InProgress;")
	}
	b.WriteString(turnAfter(plies))
	for _, m := range fields[3:] {
		b.WriteByte(';')
		b.WriteString(m)
	}
	for _, m := range moves {
		b.WriteByte(';')
		b.WriteString(m)
	}
	return b.String(), true
}

// isGameStringAfter reports whether gs is gameStringAfter(row, the texts
// of moves), without making it: the keeper asks at every move.
func isGameStringAfter(gs, row string, moves []Move) bool {
	typ, rest, ok := strings.Cut(row, ";")
	if !ok || !strings.HasPrefix(gs, typ+";") {
		return false
	}
	state, rest, ok := strings.Cut(rest, ";")
	if !ok || (state != "NotStarted" && state != "InProgress") {
		return false
	}
	_, earlier, _ := strings.Cut(rest, ";") // the row's moves, after its turn
	plies := len(moves)
	if earlier != "" {
		plies += strings.Count(earlier, ";") + 1
	}
	want := "InProgress"
	if plies == 0 {
		want = "NotStarted"
	}
	gs = gs[len(typ)+1:]
	gs, ok = strings.CutPrefix(gs, want+";")
	if !ok {
		return false
	}
	gs, ok = strings.CutPrefix(gs, turnAfter(plies))
	if !ok {
		return false
	}
	if earlier != "" {
		if gs, ok = strings.CutPrefix(gs, ";"+earlier); !ok {
			return false
		}
	}
	for _, m := range moves {
		if gs, ok = strings.CutPrefix(gs, ";"); !ok {
			return false
		}
		if gs, ok = strings.CutPrefix(gs, m.Text); !ok {
			return false
		}
	}
	return gs == ""
}

// catchUp brings up to date the row of a game whose moves go past it (g's
// plies): its GameString and plies from the moves after it.
func catchUp(g *Game, after []string) {
	if len(after) == 0 {
		return
	}
	if gs, ok := gameStringAfter(g.GameString, after); ok {
		g.GameString = gs
	}
	g.Plies += len(after)
}

// catchUpAll brings up to date the rows of those of games not finished
// (only a game in progress, or interrupted in progress, has moves past
// its row), with one query for all of them.
func (s *sqlStore) catchUpAll(ctx context.Context, games []Game) error {
	var (
		ids   []any
		marks []string
		at    = map[int64]int{}
	)
	for i, g := range games {
		if g.Status != Finished {
			ids, marks, at[g.ID] = append(ids, g.ID), append(marks, "?"), i
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT m.game, m.text FROM moves m JOIN games g ON g.id = m.game
		WHERE m.game IN (`+strings.Join(marks, ", ")+`) AND m.ply >= g.plies ORDER BY m.game, m.ply`), ids...)
	if err != nil {
		return err
	}
	defer rows.Close()
	after := map[int64][]string{}
	for rows.Next() {
		var (
			id   int64
			text string
		)
		if err := rows.Scan(&id, &text); err != nil {
			return err
		}
		after[id] = append(after[id], text)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for id, texts := range after {
		catchUp(&games[at[id]], texts)
	}
	return nil
}

// add returns the write of an Append change's storable addition a
// (additionOf) alone: its moves, and its players when named, once the game
// is known to be archived.
func (s *sqlStore) add(id int64, a *addition) func(ctx context.Context, tx *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		var n int64
		if a.white != "" || a.black != "" {
			res, err := tx.ExecContext(ctx, s.q(`UPDATE games SET white = COALESCE(NULLIF(?, ''), white), black = COALESCE(NULLIF(?, ''), black) WHERE id = ?`), a.white, a.black, id)
			if err != nil {
				return err
			}
			n, _ = res.RowsAffected()
		} else if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM games WHERE id = ?`), id).Scan(&n); err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("game %d: %w", id, ErrNotFound)
		}
		return s.insertMoves(ctx, tx, id, a.moves)
	}
}

// additionOf returns the storable addition of an Append change.
func additionOf(c Change) *addition {
	c, _ = storableChange(c)
	return &addition{moves: c.Moves, white: c.White, black: c.Black}
}

package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// Imported is a game from a record file, to keep in the archive as
// finished.
type Imported struct {
	// Source says where it came from ("import").
	Source string
	Record records.Record
	// Started is when it was played, as well as the record says (the
	// import's time when it says nothing a time can be read from).
	Started time.Time
}

// importKey is the key that makes an imported game the same game when it
// is imported again, from the same file or another format of it (a
// BoardSpace SGF and the PGN Mzinga makes of it): its type, players, the
// day it was played (UTC) when the record says, and moves.
func importKey(g Imported) string {
	r := g.Record
	day := ""
	if t, ok := r.Played(); ok {
		day = t.UTC().Format("2006-01-02")
	}
	h := sha256.New()
	for _, part := range append([]string{uhp.FormatGameType(r.GameType), r.White, r.Black, day}, r.Moves...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "import:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// Import keeps games from record files as finished games, in one
// transaction, and returns how many it added: a game imported before (the
// same type, players, date and moves) is kept once.
func (s *sqlStore) Import(ctx context.Context, games []Imported) (added int, err error) {
	if len(games) == 0 {
		return 0, nil
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	for len(games) > 0 {
		n := min(len(games), s.d.rows(importColumns()))
		rows := newTable(importColumns(), n)
		byKey := map[string]Imported{}
		for _, g := range games[:n] {
			r, key := g.Record, importKey(g)
			byKey[key] = g
			result, how := r.Result, r.How
			if how == "" {
				how = "state"
				if result == "" {
					how = "unknown"
				}
			}
			gs, err := r.UHPString()
			if err != nil {
				return added, err
			}
			rows.add(s.owner, key, short(g.Source), uhp.FormatGameType(r.GameType), short(orViewer(r.White)), short(orViewer(r.Black)),
				string(Finished), ms(g.Started), ms(g.Started), short(result), short(how), storableGameString(gs), int64(min(len(r.Moves), MaxPlies)))
		}
		with, args := s.d.with("v", rows, 0, n)
		res, err := tx.QueryContext(ctx, with+` INSERT INTO games (owner, game_key, source, game_type, white, black, status, started_ms, ended_ms, result, how, game_string, plies)
			SELECT owner, game_key, source, game_type, white, black, status, started_ms, ended_ms, result, how, game_string, plies FROM v WHERE true
			ON CONFLICT (game_key) DO NOTHING RETURNING id, game_key`, args...)
		if err != nil {
			return added, err
		}
		var (
			moves   = newTable(movesColumns(), 0)
			indexed []indexedGame
		)
		for res.Next() {
			var (
				id  int64
				key string
			)
			if err := res.Scan(&id, &key); err != nil {
				res.Close()
				return added, err
			}
			added++
			g := byKey[key]
			if code := resultCode(g.Record.Result); code >= 0 {
				indexed = append(indexed, indexedGame{id: id, result: code, rows: explorerRowsOf(uhp.FormatGameType(g.Record.GameType), g.Record.Moves)})
			}
			for ply, m := range g.Record.Moves[:min(len(g.Record.Moves), MaxPlies)] {
				moves.add(id, int64(ply), short(m), short(orViewer(side(g.Record, ply))), ms(g.Started))
			}
		}
		res.Close()
		if err := res.Err(); err != nil {
			return added, err
		}
		for from, k := 0, 0; from < moves.len(); from += k {
			k = min(moves.len()-from, s.d.rows(moves.columns))
			with, args := s.d.with("v", moves, from, from+k)
			if _, err := tx.ExecContext(ctx, with+` INSERT INTO moves (game, ply, text, by_player, at_ms) SELECT game, ply, text, by_player, at_ms FROM v`, args...); err != nil {
				return added, err
			}
		}
		if err := s.d.index(ctx, tx, indexed); err != nil {
			return added, err
		}
		games = games[n:]
	}
	return added, tx.Commit()
}

// importColumns are those of an imported game's row.
func importColumns() []column {
	return []column{{"owner", "bigint"}, {"game_key", "text"}, {"source", "text"}, {"game_type", "text"}, {"white", "text"},
		{"black", "text"}, {"status", "text"}, {"started_ms", "bigint"}, {"ended_ms", "bigint"}, {"result", "text"}, {"how", "text"},
		{"game_string", "text"}, {"plies", "integer"}}
}

// side is the player of a record's ply.
func side(r records.Record, ply int) string {
	if ply%2 == 0 {
		return r.White
	}
	return r.Black
}

func orViewer(name string) string {
	if strings.TrimSpace(name) == "" {
		return Viewer
	}
	return name
}

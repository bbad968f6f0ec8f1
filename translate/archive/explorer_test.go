package archive

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// explorerGames are four finished games and one unfinished. The first two
// open alike, mirrored (Black's Spider east of White's, then west), so
// that the explorer counts them as one position and one move.
var explorerGames = []struct {
	moves  string
	result string // "" for a game that ends without one
}{
	{"wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "WhiteWins"},
	{"wS1;bS1 -wS1;wQ wS1-;bQ -bS1", "BlackWins"},
	{"wG1;bG1 wG1-;wQ -wG1;bQ bG1-", "Draw"},
	{"wS1;bG1 wS1/;wQ -wS1", "WhiteWins"},
	{"wS1;bA1 wS1-", ""},
}

// endGame archives a game of Base with moves, ended with result (none
// when result is empty: a disconnect), and returns its id.
func endGame(t *testing.T, s Store, moves, result string) int64 {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	texts := strings.Split(moves, ";")
	var ms []Move
	for i, m := range texts {
		ms = append(ms, Move{Ply: i, Text: m, By: "native", At: at})
	}
	gs := "Base;InProgress;White[1];" + moves
	id, err := s.Start(ctx, Start{Source: "uhp-ws", GameType: "Base", White: "native", Black: "native", Started: at, GameString: gs, Moves: ms})
	if err != nil {
		t.Fatal(err)
	}
	end := End{Result: result, How: "state", At: at}
	if result == "" {
		end.How = "disconnect"
	}
	if err := s.Update(ctx, id, Change{From: len(ms), GameString: gs, End: &end}); err != nil {
		t.Fatal(err)
	}
	return id
}

// explored is what the explorer answers for the position after moves (a
// GameString's moves of Base), each move written on that board.
type explored struct {
	move          string
	white, d, b   int
	games         []int64
	canonicalMove core.OrientedMove
}

func explore(t *testing.T, s Store, moves string) []explored {
	t.Helper()
	gs := "Base;InProgress;White[1]"
	if moves != "" {
		gs += ";" + moves
	}
	parsed, err := uhp.ParseGameString(gs)
	if err != nil {
		t.Fatal(err)
	}
	g, err := parsed.Load()
	if err != nil {
		t.Fatal(err)
	}
	o := core.Orient(g)
	found, err := s.Explore(context.Background(), o.Key(), 10)
	if err != nil {
		t.Fatal(err)
	}
	var out []explored
	for _, m := range found {
		bm, ok := o.Board(g, m.Move)
		if !ok || !g.Legal(bm) {
			t.Fatalf("after %q: the explorer's move %#x is not a legal move here", moves, m.Move)
		}
		out = append(out, explored{uhp.FormatMove(bm, g), m.White, m.Draws, m.Black, m.Games, m.Move})
	}
	return out
}

// TestExplorer archives the games of explorerGames and reads the explorer
// back at the start and after the first move, where the mirrored games
// meet: each move's counts and games (newest first, paged) are those the
// games' moves and results say, the game without a result is left out,
// and an end written twice counts once.
func TestExplorer(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve")
		var ids []int64
		for _, g := range explorerGames {
			ids = append(ids, endGame(t, s, g.moves, g.result))
		}
		// The end of game 4 written again, as a write tried again is.
		gs := "Base;InProgress;White[1];" + explorerGames[3].moves
		if err := s.Update(ctx, ids[3], Change{From: 3, GameString: gs, End: &End{Result: "WhiteWins", How: "state", At: time.Now()}}); err != nil {
			t.Fatal(err)
		}

		start := explore(t, s, "")
		if len(start) != 2 || start[0].move != "wS1" || start[0].white != 2 || start[0].d != 0 || start[0].b != 1 ||
			start[1].move != "wG1" || start[1].white != 0 || start[1].d != 1 || start[1].b != 0 {
			t.Fatalf("at the start: %+v; want wS1 (2-0-1) and wG1 (0-1-0)", start)
		}
		if want := []int64{ids[3], ids[1], ids[0]}; !slices.Equal(start[0].games, want) {
			t.Errorf("wS1's games %v, want %v (newest first, the unfinished game left out)", start[0].games, want)
		}

		// After wS1 the two mirrored Spiders are one move, written as
		// one of its two spellings on this board.
		after := explore(t, s, "wS1")
		if len(after) != 2 || !strings.HasPrefix(after[0].move, "bS1 ") || after[0].white != 1 || after[0].b != 1 ||
			!strings.HasPrefix(after[1].move, "bG1 ") || after[1].white != 1 {
			t.Fatalf("after wS1: %+v; want bS1 beside wS1 (1-0-1) and bG1 (1-0-0)", after)
		}
		// The same position seen mirrored has the same moves.
		mirrored := explore(t, s, "wS1;bS1 -wS1")
		straight := explore(t, s, "wS1;bS1 wS1-")
		if len(mirrored) != 1 || len(straight) != 1 || mirrored[0].canonicalMove != straight[0].canonicalMove ||
			mirrored[0].move == straight[0].move {
			t.Errorf("the mirrored positions' moves: %+v and %+v; want one move, spelled for each board", mirrored, straight)
		}

		// Three plies in, the mirrored games still meet.
		if deep := explore(t, s, "wS1;bS1 wS1-;wQ -wS1"); len(deep) != 1 || !strings.HasPrefix(deep[0].move, "bQ ") || deep[0].white != 1 || deep[0].b != 1 {
			t.Errorf("after three plies: %+v; want bQ (1-0-1)", deep)
		}

		// Paging the games: one at a time, each page after the last.
		var paged []int64
		before := int64(0)
		o := core.Orient(core.NewGame(core.Base))
		for {
			page, err := s.ExplorerGames(ctx, o.Key(), start[0].canonicalMove, before, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			paged, before = append(paged, page...), page[len(page)-1]
		}
		if !slices.Equal(paged, start[0].games) {
			t.Errorf("paged one at a time: %v, want %v", paged, start[0].games)
		}
	})
}

// TestExplorerImportPruneMigrate indexes imported games, takes pruned
// games out of the counts, and indexes the games an archive held before
// it had an explorer (the migration to schema version 3).
func TestExplorerImportPruneMigrate(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		var imported []Imported
		for _, g := range explorerGames {
			r, err := records.New(core.Base, strings.Split(g.moves, ";"))
			if err != nil {
				t.Fatal(err)
			}
			r.White, r.Black, r.Result = "a", "b", g.result
			imported = append(imported, Imported{Source: "import", Record: r, Started: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)})
		}
		if added, err := s.Import(ctx, imported); err != nil || added != len(imported) {
			t.Fatalf("import: %d, %v", added, err)
		}
		if start := explore(t, s, ""); len(start) != 2 || start[0].white != 2 || start[0].b != 1 || start[1].d != 1 {
			t.Fatalf("imported, at the start: %+v", start)
		}

		// An archive from before the explorer: its tables emptied and
		// its schema set back to version 2, then opened again.
		for _, q := range []string{`DELETE FROM explorer`, `DELETE FROM explorer_moves`, `DROP TABLE explorer`, `DROP TABLE explorer_moves`,
			`DROP INDEX games_explorer_pending`, `ALTER TABLE games DROP COLUMN explorer_pending`, `UPDATE schema_version SET version = 2`} {
			if _, err := s.write.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		s = open(t, db, "serve").(*sqlStore)
		if start := explore(t, s, ""); len(start) != 2 || start[0].white != 2 || start[0].b != 1 || start[1].d != 1 {
			t.Fatalf("migrated, at the start: %+v", start)
		}

		if n, err := s.Prune(ctx, time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil || n != len(imported) {
			t.Fatalf("prune: %d, %v", n, err)
		}
		if start := explore(t, s, ""); len(start) != 0 {
			t.Errorf("pruned, the start still has %+v", start)
		}
	})
}

// TestExplorerRows checks the rows a game gives: its first ExplorerPlies
// plies, the position before each and its move, and none past a move that
// does not play.
func TestExplorerRows(t *testing.T) {
	rows := explorerRowsOf("Base", strings.Split("wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wZ9 x", ";"))
	if len(rows) != 4 {
		t.Fatalf("%d rows, want the 4 plies before the one that does not read", len(rows))
	}
	if o := core.Orient(core.NewGame(core.Base)); rows[0].position != o.Key() || rows[0].ply != 0 {
		t.Errorf("the first row is not the start position's")
	}
	if len(explorerRowsOf("Base+Q", []string{"wS1"})) != 0 || len(explorerRowsOfGameString("not a game")) != 0 {
		t.Error("rows from a game that does not read")
	}
}

// TestExplorerWithoutRowids: an archive of schema version 4, whose
// explorer tables SQLite kept with rowids, opened again has them without
// (withoutRowids), every row and count kept.
func TestExplorerWithoutRowids(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "games.db")
	s := open(t, db, "serve").(*sqlStore)
	for _, g := range explorerGames {
		endGame(t, s, g.moves, g.result)
	}
	want := explore(t, s, "")
	var wantRows int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM explorer`).Scan(&wantRows); err != nil || wantRows == 0 {
		t.Fatalf("%d explorer rows (%v)", wantRows, err)
	}
	for _, q := range []string{
		`CREATE TABLE explorer_old AS SELECT * FROM explorer`, `DROP TABLE explorer`,
		`CREATE TABLE explorer (game BIGINT NOT NULL REFERENCES games (id), ply INTEGER NOT NULL, position BIGINT NOT NULL,
			move BIGINT NOT NULL, result INTEGER NOT NULL, PRIMARY KEY (game, ply))`,
		`INSERT INTO explorer SELECT * FROM explorer_old`, `DROP TABLE explorer_old`,
		`CREATE INDEX explorer_position ON explorer (position, move, game DESC)`,
		`CREATE TABLE explorer_moves_old AS SELECT * FROM explorer_moves`, `DROP TABLE explorer_moves`,
		`CREATE TABLE explorer_moves (position BIGINT NOT NULL, move BIGINT NOT NULL, white INTEGER NOT NULL,
			draws INTEGER NOT NULL, black INTEGER NOT NULL, PRIMARY KEY (position, move))`,
		`INSERT INTO explorer_moves SELECT * FROM explorer_moves_old`, `DROP TABLE explorer_moves_old`,
		`UPDATE schema_version SET version = 4`,
	} {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	withRowids := 0
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master
		WHERE name IN ('explorer', 'explorer_moves') AND sql NOT LIKE '%WITHOUT ROWID'`).Scan(&withRowids); err != nil || withRowids != 2 {
		t.Fatalf("version 4's tables: %d with rowids (%v), want 2", withRowids, err)
	}
	s.Close()
	s = open(t, db, "serve").(*sqlStore)
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master
		WHERE name IN ('explorer', 'explorer_moves') AND sql NOT LIKE '%WITHOUT ROWID'`).Scan(&withRowids); err != nil || withRowids != 0 {
		t.Fatalf("migrated: %d tables with rowids (%v), want none", withRowids, err)
	}
	if got := explore(t, s, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("migrated, at the start: %+v; want %+v", got, want)
	}
	var rows int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM explorer`).Scan(&rows); err != nil || rows != wantRows {
		t.Errorf("migrated: %d explorer rows (%v), want %d", rows, err, wantRows)
	}
	checkCounts(t, s)
	endGame(t, s, explorerGames[0].moves, explorerGames[0].result)
	if got := explore(t, s, ""); len(got) == 0 || got[0].white != want[0].white+1 {
		t.Errorf("a game indexed after the migration: %+v", got)
	}
}

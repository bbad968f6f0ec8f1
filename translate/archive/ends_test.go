package archive

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// truthDB returns a second, empty archive beside db: a SQLite file in
// its directory, or another database of its PostgreSQL server.
func truthDB(t *testing.T, db string) string {
	t.Helper()
	if !strings.HasPrefix(db, "postgres://") {
		return filepath.Join(filepath.Dir(db), "truth.db")
	}
	admin, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE truth"); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(db, "/postgres?", "/truth?", 1)
}

// endsGame is a game of the ends' test: generated moves (benchGame), a
// result, and its id in each archive.
type endsGame struct {
	key    string
	moves  []Move
	result string
	ids    [2]int64
}

// gameStringOf is the GameString of a game of Base+MLP after moves, in
// state.
func gameStringOf(moves []Move, state string) string {
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Text
	}
	gs, _ := gameStringAfter("Base+MLP;NotStarted;White[1]", texts)
	if state != "" {
		gs = strings.Replace(gs, ";InProgress;", ";"+state+";", 1)
	}
	return gs
}

// endOf is game g's end written as the recorder writes it: its moves from
// from on, and synced when the archive holds those before and none after.
// Every seventh game ends interrupted and every fifth without a result;
// the others as their result says, by the rules or a resignation.
func (g *endsGame) endOf(i, from int, synced bool, at time.Time) Change {
	end := End{Result: g.result, How: "state", At: at.Add(time.Duration(i) * time.Millisecond)}
	state := g.result
	switch {
	case i%7 == 3:
		end = End{How: "interrupted", Reason: "the process stopped", At: end.At}
		state = ""
	case i%5 == 1:
		end = End{How: "disconnect", Reason: fmt.Sprint("gone ", i), At: end.At}
		state = ""
	case i%3 == 0:
		end.How, end.Reason = "resignation", "resigned"
	}
	c := Change{From: from, Moves: g.moves[from:], GameString: gameStringOf(g.moves, state), End: &end, Synced: synced}
	if i%4 == 0 {
		c.White, c.Black = fmt.Sprint("white ", i), fmt.Sprint("black ", i)
	}
	return c
}

// write is one write of the ends' test, made for either archive (which:
// 0 the one whose writer runs the batch, 1 the one that runs each alone).
type write func(s *sqlStore, which int) *writeOp

// alone runs each write's own run in a transaction of its own, as the
// archive wrote a game's end before the writer ran ends together, and
// returns their errors.
func alone(t *testing.T, s *sqlStore, writes []write) []error {
	t.Helper()
	ctx := context.Background()
	errs := make([]error, len(writes))
	for i, w := range writes {
		op := w(s, 1)
		tx, err := s.write.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if errs[i] = op.run(ctx, tx); errs[i] != nil {
			tx.Rollback()
			continue
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return errs
}

// dump returns the archive's rows, its games named by their keys: the
// games, their moves, the explorer's rows and its counts.
func dump(t *testing.T, s *sqlStore) []string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT 'game', game_key, source, game_type, white, black, status, started_ms, COALESCE(ended_ms, -1), result, how, reason, game_string, plies
			FROM games ORDER BY game_key`,
		`SELECT 'move', g.game_key, m.ply, m.text, m.by_player, m.at_ms FROM moves m JOIN games g ON g.id = m.game ORDER BY g.game_key, m.ply`,
		`SELECT 'explorer', g.game_key, e.ply, e.position, e.move, e.result FROM explorer e JOIN games g ON g.id = e.game ORDER BY g.game_key, e.ply`,
		`SELECT 'count', position, move, white, draws, black FROM explorer_moves ORDER BY position, move`,
	} {
		rows, err := s.read.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			line := make([]string, len(vals))
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				line[i] = fmt.Sprint(v)
			}
			out = append(out, strings.Join(line, "|"))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// checkCounts checks the explorer's counts against its rows, each game
// counted once for a move from a position however often it played it
// there, and that the games it indexed are those finished with a result:
// a game counted twice (an end tried again) or not at all fails it.
func checkCounts(t *testing.T, s *sqlStore) {
	t.Helper()
	type pair struct{ position, move int64 }
	want := map[pair][3]int{}
	rows, err := s.read.Query(`SELECT DISTINCT game, position, move, result FROM explorer`)
	if err != nil {
		t.Fatal(err)
	}
	indexed := map[int64]bool{}
	for rows.Next() {
		var (
			game, result int64
			p            pair
		)
		if err := rows.Scan(&game, &p.position, &p.move, &result); err != nil {
			t.Fatal(err)
		}
		c := want[p]
		c[[3]int{1, 0, 2}[result]]++
		want[p], indexed[game] = c, true
	}
	rows.Close()
	got := map[pair][3]int{}
	rows, err = s.read.Query(`SELECT position, move, white, draws, black FROM explorer_moves WHERE white + draws + black > 0`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var (
			p pair
			c [3]int
		)
		if err := rows.Scan(&p.position, &p.move, &c[0], &c[1], &c[2]); err != nil {
			t.Fatal(err)
		}
		got[p] = c
	}
	rows.Close()
	if len(got) != len(want) {
		t.Errorf("the explorer counts %d positions and moves, its rows have %d", len(got), len(want))
	}
	for p, c := range want {
		if got[p] != c {
			t.Errorf("position %#x move %#x: counted %v, its rows say %v", p.position, p.move, got[p], c)
		}
	}
	rows, err = s.read.Query(`SELECT id FROM games WHERE status = 'finished' AND result IN ('WhiteWins', 'BlackWins', 'Draw')`)
	if err != nil {
		t.Fatal(err)
	}
	finished := 0
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		finished++
		if !indexed[id] {
			t.Errorf("game %d finished with a result and is not in the explorer", id)
		}
	}
	rows.Close()
	if finished != len(indexed) {
		t.Errorf("%d games in the explorer, %d finished with a result", len(indexed), finished)
	}
}

// TestEndsTogether writes batches of many games' ends, mixed with starts
// and additions of moves of other games, a game's addition and end in one
// batch, ends tried again after their first try was committed unheard of,
// and ends of a game the archive does not hold, through the writer, and
// the same writes each alone in a transaction of its own (as the archive
// wrote ends before the writer ran them together) in another archive: the
// two hold the same rows, explorer counts included, and each write fails
// or succeeds alike. The first batch must commit run together, without
// the writer's rerun of each write alone.
func TestEndsTogether(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := [2]*sqlStore{open(t, db, "serve").(*sqlStore), open(t, truthDB(t, db), "serve").(*sqlStore)}
		t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		openings := readOpenings(t)
		game := func(key string, i int) *endsGame {
			texts, result := benchGame(openings, i)
			g := &endsGame{key: key, result: result}
			for ply, text := range texts {
				by := "native"
				if ply%2 == 0 {
					by = Viewer
				}
				g.moves = append(g.moves, Move{Ply: ply, Text: text, By: by, At: t0.Add(time.Duration(ply) * time.Second)})
			}
			return g
		}
		// started archives the game's first n moves in both archives.
		started := func(g *endsGame, n int) {
			for w := range s {
				id, err := s[w].Start(ctx, Start{Key: g.key, Source: "uhp-ws", GameType: "Base+MLP", White: Viewer, Black: "native",
					Started: t0, GameString: gameStringOf(g.moves[:n], ""), Moves: g.moves[:n]})
				if err != nil {
					t.Fatal(err)
				}
				g.ids[w] = id
			}
		}
		// setUp writes c to the game in both archives, alone.
		setUp := func(g *endsGame, c Change) {
			for w := range s {
				if err := s[w].Update(ctx, g.ids[w], c); err != nil {
					t.Fatal(err)
				}
			}
		}
		ended := func(g *endsGame, c Change) write {
			return func(st *sqlStore, w int) *writeOp { return st.updateOp(g.ids[w], c) }
		}
		added := func(g *endsGame, from, to int, white, black string) write {
			c := Change{From: from, Moves: g.moves[from:to], White: white, Black: black, Append: true}
			return func(st *sqlStore, w int) *writeOp {
				return st.changeOp(g.ids[w], c)
			}
		}
		start := func(g *endsGame, n int) write {
			return func(st *sqlStore, _ int) *writeOp {
				return st.startOp(Start{Key: g.key, Source: "uhp-tcp", GameType: "Base+MLP", White: "engine", Black: Viewer,
					Started: t0.Add(time.Minute), GameString: gameStringOf(g.moves[:n], ""), Moves: g.moves[:n]})
			}
		}
		// together runs writes in one batch of the writer (commit), or
		// only run together when together: then no write may fail.
		together := func(writes []write, runTogether bool) []error {
			batch := make([]*writeOp, len(writes))
			for i, w := range writes {
				batch[i] = w(s[0], 0)
				batch[i].done = make(chan error, 1)
			}
			if runTogether {
				errs, failed, err := s[0].runBatch(ctx, batch, false)
				if failed || err != nil {
					t.Fatalf("the batch failed run together: %v, %v", errs, err)
				}
				return errs
			}
			s[0].commit(batch)
			errs := make([]error, len(batch))
			for i, op := range batch {
				errs[i] = <-op.done
			}
			return errs
		}
		compare := func(what string, writes []write, runTogether bool) {
			t.Helper()
			got, want := together(writes, runTogether), alone(t, s[1], writes)
			for w := range s {
				indexEnded(t, s[w])
			}
			for i := range writes {
				if (got[i] == nil) != (want[i] == nil) || RefusalCause(got[i]) != RefusalCause(want[i]) {
					t.Errorf("%s: write %d: %v in the batch, %v alone", what, i, got[i], want[i])
				}
			}
			if d0, d1 := dump(t, s[0]), dump(t, s[1]); !slices.Equal(d0, d1) {
				for i := range max(len(d0), len(d1)) {
					if i >= len(d0) || i >= len(d1) || d0[i] != d1[i] {
						t.Fatalf("%s: the archives differ from row %d (%d and %d rows):\nbatch: %v\nalone: %v", what, i, len(d0), len(d1),
							d0[min(i, len(d0)-1)], d1[min(i, len(d1)-1)])
					}
				}
			}
			for w := range s {
				checkCounts(t, s[w])
			}
		}

		// The first batch: 45 ends (more than a statement's rows in
		// SQLite), each a game's last two moves or none (every fifth),
		// mixed with the starts of eight games and additions to eight
		// others; a game whose addition and end are both in it; and an
		// end tried again, of a game without moves to add, whose first
		// try was committed.
		var first []write
		for i := range 45 {
			g := game(fmt.Sprint("end-", i), i)
			n := len(g.moves) - 2
			if i%5 == 0 {
				n = len(g.moves)
			}
			started(g, n/2)
			setUp(g, Change{From: n / 2, Moves: g.moves[n/2 : n], Append: true})
			first = append(first, ended(g, g.endOf(i, n, true, t0)))
			if i%6 == 0 {
				a := game(fmt.Sprint("add-", i), 100+i)
				started(a, 3)
				first = append(first, added(a, 3, 5, map[bool]string{true: "alice"}[i%12 == 0], ""))
				first = append(first, start(game(fmt.Sprint("new-", i), 200+i), i%4))
			}
		}
		both := game("both", 300)
		n := len(both.moves)
		started(both, n-3)
		first = append(first, added(both, n-3, n-1, "", ""), ended(both, both.endOf(300, n-1, true, t0)))
		again := game("again", 301)
		started(again, len(again.moves))
		setUp(again, again.endOf(302, len(again.moves), true, t0)) // 302: an end with a result, which the explorer counts
		first = append(first, ended(again, again.endOf(302, len(again.moves), true, t0)))
		compare("the first batch", first, true)

		// The second batch: more ends, with two ends of a game the
		// archive does not hold (one with moves to add, one without),
		// and ends tried again with moves, synced (its moves' key
		// fails the batch run together) and not: the writer runs it
		// again, each write alone.
		var second []write
		for i := range 12 {
			g := game(fmt.Sprint("late-", i), 400+i)
			started(g, len(g.moves)-1-i%2)
			second = append(second, ended(g, g.endOf(i, len(g.moves)-1-i%2, true, t0)))
		}
		missing := game("missing", 500)
		missing.ids = [2]int64{1 << 40, 1 << 40}
		second = append(second, ended(missing, missing.endOf(2, len(missing.moves)-2, true, t0)),
			ended(missing, missing.endOf(4, len(missing.moves), true, t0)))
		for i, synced := range []bool{true, false} {
			g := game(fmt.Sprint("retried-", i), 600+i)
			n := len(g.moves) - 2
			started(g, n)
			setUp(g, g.endOf(2, n, true, t0))
			second = append(second, ended(g, g.endOf(2, n, synced, t0)))
		}
		compare("the second batch", second, false)

		// The third: ends, and the end of a game the archive does not
		// hold that adds no move and has no result to index, which
		// fails the batch's one UPDATE of the games' rows alone.
		var third []write
		for i := range 3 {
			g := game(fmt.Sprint("last-", i), 700+i)
			started(g, len(g.moves)-1)
			third = append(third, ended(g, g.endOf(i, len(g.moves)-1, true, t0)))
		}
		third = append(third, ended(missing, missing.endOf(1, len(missing.moves), true, t0))) // 1: a disconnect
		compare("the third batch", third, false)

		// The fourth: a game a write, as a busy daemon's batches are
		// (PostgreSQL runs them as one statement: runInOneStatement):
		// ends with moves and without, starts with moves, additions
		// naming a player, and a start tried again after its first try
		// was committed unheard of.
		var fourth []write
		for i := range 20 {
			g := game(fmt.Sprint("busy-", i), 800+i)
			switch i % 4 {
			case 0, 1:
				started(g, len(g.moves)-i%2)
				fourth = append(fourth, ended(g, g.endOf(i, len(g.moves), true, t0)))
			case 2:
				fourth = append(fourth, start(g, 1+i%3))
			case 3:
				started(g, 2)
				fourth = append(fourth, added(g, 2, 4, "bob", ""))
			}
		}
		retried := game("busy-retried", 900)
		started(retried, 2)
		fourth = append(fourth, start(retried, 3))
		compare("the fourth batch", fourth, true)
		if indexed := indexedGames(t, s[0]); indexed < 40 {
			t.Errorf("the explorer has %d games: the batches ended too few with a result to test it", indexed)
		}
	})
}

// indexEnded brings the explorer up to date, as the writer does in the
// background: the games ended in the writer's hand first, then those the
// archive marks (ended by writes run here rather than by the writer's
// goroutine), read back and replayed.
func indexEnded(t *testing.T, s *sqlStore) {
	t.Helper()
	ctx := context.Background()
	if err := s.indexNow(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.sweepAll(ctx); err != nil {
		t.Fatal(err)
	}
}

// indexedGames returns how many games the explorer has.
func indexedGames(t *testing.T, s *sqlStore) int {
	t.Helper()
	var n int
	if err := s.read.QueryRow(`SELECT COUNT(DISTINCT game) FROM explorer`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

package archive

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/internal/writehold"
)

// journalFiles returns the journal files in dir and their sizes.
func journalFiles(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*"+journalSuffix))
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	for _, name := range names {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		sizes[filepath.Base(name)] = fi.Size()
	}
	return sizes
}

// TestEndJournaledNotWaited: a game ends while the database holds its
// writes up; the session's next command (Settle) finds the end not
// committed and appends the game to the journal rather than wait for the
// database (the keeper's timeout is 20 s). Once the database takes writes
// again the game is archived whole, its line is done (the file emptied),
// and a keeper closed with every game written leaves no journal behind.
func TestEndJournaledNotWaited(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		store := open(t, db, "serve")
		dir := filepath.Join(t.TempDir(), "journal")
		var journaled atomic.Int64
		k := NewKeeper(store, KeeperConfig{Timeout: 20 * time.Second, Journal: dir, OnJournaled: func() { journaled.Add(1) }})
		r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{White: "native", Black: Viewer})
		r.Played("wS1", "native")
		r.Played("bS1 wS1-", Viewer)
		r.Settle()
		release := writehold.Hold(t, db)
		r.PlayedLast("wQ -wS1", "native")
		r.Ended(End{How: "state", Result: "WhiteWins"}, "Base;WhiteWins;Black[2];wS1;bS1 wS1-;wQ -wS1")
		settled := make(chan struct{})
		go func() {
			r.Settle()
			close(settled)
		}()
		select {
		case <-settled:
		case <-time.After(10 * time.Second):
			release()
			t.Fatal("Settle waited for the database that holds the end's write up")
		}
		if journaled.Load() != 1 {
			t.Errorf("%d games journaled, want 1", journaled.Load())
		}
		files := journalFiles(t, dir)
		var held int64
		for _, size := range files {
			held += size
		}
		if len(files) != 2 || held == 0 {
			t.Errorf("journal files %v: want two, one holding the game", files)
		}
		release()
		id := r.ID() // waits for the end's write
		g, err := store.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != Finished || g.Result != "WhiteWins" || len(g.Moves) != 3 || g.Moves[2].Text != "wQ -wS1" {
			t.Errorf("archived %+v, want it finished, WhiteWins, with its 3 moves", g)
		}
		waitFor(t, 5*time.Second, "the journal to be emptied once the game is written", func() bool {
			for _, size := range journalFiles(t, dir) {
				if size != 0 {
					return false
				}
			}
			return true
		})
		k.Close()
		if files := journalFiles(t, dir); len(files) != 0 {
			t.Errorf("journal files %v left by a keeper that wrote every game", files)
		}
	})
}

// deadJournal writes games to a journal in dir as a process killed after
// appending them would leave it: its files closed (their locks gone) and
// not removed. It returns their paths.
func deadJournal(t *testing.T, dir string, games ...*endedGame) (paths []string) {
	t.Helper()
	j, err := openEndJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if _, err := j.add(g.line()); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range j.files {
		f.Close()
		paths = append(paths, f.Name())
	}
	return paths
}

// journaledGame is an ended game of Base with moves (a GameString's),
// its key key.
func journaledGame(key, moves, result string) *endedGame {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := &endedGame{start: Start{Key: key, Source: "uhp-ws", GameType: "Base", Started: at}, white: "native", black: Viewer,
		gameString: "Base;" + result + ";White[1];" + moves, end: End{Result: result, How: "state", At: at.Add(time.Minute)}}
	for i, m := range strings.Split(moves, ";") {
		g.moves = append(g.moves, Move{Ply: i, Text: m, By: "native", At: at.Add(time.Duration(i) * time.Second)})
	}
	return g
}

// TestJournalReplayed: a keeper opening the archive writes the games that
// a killed process's journal holds, each as it ended, whatever the archive
// held of it: nothing (its start never committed), its first moves (its
// end not committed), or the game marked interrupted by a sweep; a game
// the archive holds finished already (its commit came before the kill) is
// left as it is, and the explorer counts it once. A line cut short by the
// kill is skipped, a live process's journal is left alone, and the dead
// journal's files are removed.
func TestJournalReplayed(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		store := open(t, db, "serve")
		dir := filepath.Join(t.TempDir(), "journal")
		unstarted := journaledGame("unstarted", "wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "WhiteWins")
		started := journaledGame("started", "wS1;bS1 -wS1;wQ wS1-;bQ -bS1", "BlackWins")
		interrupted := journaledGame("interrupted", "wG1;bG1 wG1-;wQ -wG1;bQ bG1-", "Draw")
		finished := journaledGame("finished", "wS1;bG1 wS1/;wQ -wS1", "WhiteWins")

		st := started.start
		st.White, st.Black = started.white, started.black
		st.GameString, st.Moves = "Base;InProgress;Black[2];wS1;bS1 -wS1;wQ wS1-", started.moves[:3]
		startedID, err := store.Start(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		st = interrupted.start
		st.White, st.Black = interrupted.white, interrupted.black
		st.GameString, st.Moves = "Base;InProgress;White[2];wG1;bG1 wG1-", interrupted.moves[:2]
		interruptedID, err := store.Start(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Update(ctx, interruptedID, Change{From: 2, GameString: st.GameString,
			End: &End{How: "interrupted", Reason: "the process playing it stopped", At: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		st = finished.start
		st.White, st.Black = finished.white, finished.black
		st.GameString, st.Moves = finished.gameString, finished.moves
		finishedID, err := store.Start(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Update(ctx, finishedID, Change{From: 3, GameString: finished.gameString, End: &finished.end}); err != nil {
			t.Fatal(err)
		}
		before := explore(t, store, "")

		dead := deadJournal(t, dir, unstarted, started, interrupted, finished)
		// A line cut short: the process was killed as it wrote it.
		f, err := os.OpenFile(dead[0], os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"key":"cut","moves":[{"t":"wS`)
		f.Close()
		live, err := openEndJournal(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := live.add(journaledGame("live", "wS1", "InProgress").line()); err != nil {
			t.Fatal(err)
		}

		k := NewKeeper(store, KeeperConfig{Journal: dir})
		defer k.Close()
		games, _, err := store.List(ctx, Filter{Page: 1, PerPage: MaxPerPage})
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[string]*endedGame{"unstarted": unstarted, "started": started, "interrupted": interrupted, "finished": finished}
		if len(games) != 4 {
			t.Fatalf("%d games archived, want 4 (the live journal's game left alone)", len(games))
		}
		for _, listed := range games {
			g, err := store.Get(ctx, listed.ID)
			if err != nil {
				t.Fatal(err)
			}
			var want *endedGame
			for _, w := range byKey {
				if w.gameString == g.GameString {
					want = w
				}
			}
			if want == nil {
				t.Errorf("game %d %q is none of the journal's", g.ID, g.GameString)
				continue
			}
			if g.Status != Finished || g.Result != want.end.Result || g.How != "state" || g.Plies != len(want.moves) ||
				len(g.Moves) != len(want.moves) || !g.Ended.Equal(want.end.At) || g.White != "native" || g.Black != Viewer {
				t.Errorf("game %d: %+v, want %s finished %s with %d moves", g.ID, g, want.start.Key, want.end.Result, len(want.moves))
			}
			for i, m := range g.Moves {
				if i < len(want.moves) && (m.Text != want.moves[i].Text || !m.At.Equal(want.moves[i].At)) {
					t.Errorf("game %d ply %d: %+v, want %+v", g.ID, i, m, want.moves[i])
				}
			}
			if want == started && g.ID != startedID || want == interrupted && g.ID != interruptedID || want == finished && g.ID != finishedID {
				t.Errorf("game %s archived again as %d rather than brought to its end", want.start.Key, g.ID)
			}
		}
		// At the start: wS1 twice before (finished), and now four times
		// (finished once, unstarted, started) and wG1 once (interrupted).
		after := explore(t, store, "")
		if len(before) != 1 || before[0].white != 1 {
			t.Fatalf("the explorer before: %+v, want wS1 won by White once", before)
		}
		if len(after) != 2 || after[0].move != "wS1" || after[0].white != 2 || after[0].b != 1 ||
			after[1].move != "wG1" || after[1].d != 1 {
			t.Errorf("the explorer after: %+v; want wS1 2-0-1 (the finished game counted once) and wG1 0-1-0", after)
		}
		files := journalFiles(t, dir)
		for _, name := range dead {
			if _, ok := files[filepath.Base(name)]; ok {
				t.Errorf("the dead journal's %s is left after its games were written", name)
			}
		}
		for _, f := range live.files {
			if _, ok := files[filepath.Base(f.Name())]; !ok {
				t.Errorf("the live journal's %s was taken", f.Name())
			}
		}
		live.close()
	})
}

// TestJournalTakesTurns: the journal writes to one file until it passes
// journalLimit, then to the other once every game in that one is
// committed; a file whose games all are is emptied, and a game's line
// told done twice counts once.
func TestJournalTakesTurns(t *testing.T) {
	j, err := openEndJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	line := journaledGame("k", "wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "WhiteWins").line()
	add := func() *journalTicket {
		t.Helper()
		ticket, err := j.add(line)
		if err != nil {
			t.Fatal(err)
		}
		return ticket
	}
	sizes := func() [2]int64 {
		var s [2]int64
		for i, f := range j.files {
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			s[i] = fi.Size()
		}
		return s
	}
	var first []*journalTicket
	for sizes()[0] < journalLimit {
		first = append(first, add())
	}
	held := add() // the other file: every game in it is committed
	if held.file != 1 || sizes()[1] == 0 {
		t.Fatalf("past the limit the game went to file %d (sizes %v), want 1", held.file, sizes())
	}
	for _, ticket := range first {
		ticket.done()
		ticket.done()
	}
	if s := sizes(); s[0] != 0 || s[1] == 0 {
		t.Fatalf("sizes %v once the first file's games were committed: want it emptied, the second kept", s)
	}
	// The second file past the limit, its first game not committed: the
	// journal takes the first again.
	for sizes()[1] < journalLimit {
		add().done()
	}
	if next := add(); next.file != 0 {
		t.Fatalf("past the limit the game went to file %d, want 0", next.file)
	} else {
		next.done()
	}
	if s := sizes(); s[0] != 0 || s[1] < journalLimit {
		t.Fatalf("sizes %v: want the first emptied, the second held by its first game", s)
	}
	held.done()
	if s := sizes(); s != [2]int64{} {
		t.Fatalf("sizes %v with every game committed, want both empty", s)
	}
}

// FuzzJournalLine: any line a journal file holds is read without a panic,
// and a line read is the line its game writes again (the start and end it
// replays lose nothing of it).
func FuzzJournalLine(f *testing.F) {
	f.Add([]byte(`{"key":"k","source":"uhp-ws","game_type":"Base","white":"native","black":"viewer","started_ms":1767323045000,` +
		`"game_string":"Base;WhiteWins;White[1];wS1","moves":[{"t":"wS1","b":"native","a":1767323045000}],"result":"WhiteWins","how":"state","ended_ms":1767323105000}`))
	f.Add([]byte(`{"key":"cut","moves":[{"t":"wS`))
	f.Add([]byte(`{"key":"k","moves":null,"started_ms":-9223372036854775808}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var l journalLine
		if json.Unmarshal(data, &l) != nil {
			return
		}
		st, end := l.start(), l.end()
		g := &endedGame{start: st, white: st.White, black: st.Black, moves: st.Moves, gameString: st.GameString, end: end}
		again := g.line()
		if l.Moves == nil {
			l.Moves = []journalMove{}
		}
		if !reflect.DeepEqual(again, l) {
			t.Errorf("read %+v, written again %+v", l, again)
		}
	})
}

// TestDefaultJournal: the journal sits beside a SQLite file (the default
// one too), and for PostgreSQL beside the default archive under a name of
// the URL's own, the same for the same URL; no archive, no journal.
func TestDefaultJournal(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	for db, want := range map[string]string{
		"none":            "",
		"":                "/data/hivebridge/games.db.ends",
		"/tmp/x/games.db": "/tmp/x/games.db.ends",
	} {
		if got, err := DefaultJournal(db); err != nil || got != want {
			t.Errorf("DefaultJournal(%q) = %q, %v; want %q", db, got, err, want)
		}
	}
	one, _ := DefaultJournal("postgres://u@host/one")
	again, _ := DefaultJournal("postgres://u@host/one")
	other, _ := DefaultJournal("postgresql://u@host/two")
	if filepath.Dir(one) != "/data/hivebridge" || !strings.HasSuffix(one, journalSuffix) || one != again || one == other {
		t.Errorf("PostgreSQL journals %q, %q, %q: want one per URL beside the default archive", one, again, other)
	}
}

// TestJournaledBacklogNotLost: a game whose end the database could not
// take while the keeper lived (another process held its writes
// throughout) but the end journal kept is not counted lost when the
// keeper closes, and the next keeper to open the archive writes it whole.
func TestJournaledBacklogNotLost(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		store := open(t, db, "serve")
		dir := filepath.Join(t.TempDir(), "journal")
		var lostGames, lostMoves, journaled atomic.Int64
		cfg := KeeperConfig{Timeout: 300 * time.Millisecond, Attempts: 1, Pause: time.Hour, Journal: dir,
			OnJournaled: func() { journaled.Add(1) },
			OnLost:      func(games, moves int) { lostGames.Add(int64(games)); lostMoves.Add(int64(moves)) }}
		k := NewKeeper(store, cfg)
		r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{White: "native", Black: Viewer})
		r.Played("wS1", "native")
		r.Played("bS1 wS1-", Viewer)
		r.Settle()
		id := r.ID()
		release := writehold.Hold(t, db)
		r.PlayedLast("wQ -wS1", "native")
		r.Ended(End{How: "state", Result: "WhiteWins"}, "Base;WhiteWins;Black[2];wS1;bS1 wS1-;wQ -wS1")
		r.Settle()
		if journaled.Load() != 1 {
			t.Fatalf("%d games journaled, want 1", journaled.Load())
		}
		k.Close()
		if lostGames.Load() != 0 || lostMoves.Load() != 0 {
			t.Errorf("closing counted %d games and %d moves lost that the journal keeps", lostGames.Load(), lostMoves.Load())
		}
		if files := journalFiles(t, dir); len(files) == 0 {
			t.Fatal("the journal was removed with a game in it")
		}
		release()
		NewKeeper(store, KeeperConfig{Journal: dir}).Close()
		waitFor(t, 10*time.Second, "the journaled game archived whole", func() bool {
			g, err := store.Get(context.Background(), id)
			return err == nil && g.Status == Finished && g.Result == "WhiteWins" && len(g.Moves) == 3
		})
	})
}

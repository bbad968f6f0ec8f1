package archive

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// TestGameStringAfter checks the GameString readers make of a row and the
// moves after it against the GameStrings UHP writes of random games of
// every game type played out by core: from any ply of a game to any later
// one still in progress, and refused from a game that has ended.
func TestGameStringAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	var l core.MoveList
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for range 4 {
			g := core.NewGame(gt)
			var (
				strings []string // the GameString at each ply
				moves   []string
			)
			describe := func() {
				gs, err := uhp.Describe(g)
				if err != nil {
					t.Fatal(err)
				}
				strings = append(strings, gs.String())
			}
			describe()
			for g.Ply() < 80 && !g.Over() {
				g.GenerateMoves(&l)
				m := l.At(rng.IntN(l.Len()))
				moves = append(moves, uhp.FormatMove(m, g))
				g.Play(m)
				describe()
			}
			for from := range strings {
				for to := from; to < len(strings); to++ {
					got, ok := gameStringAfter(strings[from], moves[from:to])
					last := to == len(strings)-1 && g.Over()
					switch {
					case last && ok && got == strings[to]:
						t.Fatalf("%s: an ended game's GameString made from a game in progress's: %q", uhp.FormatGameType(gt), got)
					case last:
					case !ok || got != strings[to]:
						t.Fatalf("%s, plies %d to %d: got %q, %v; want %q", uhp.FormatGameType(gt), from, to, got, ok, strings[to])
					case !isGameStringAfter(strings[to], strings[from], asMoves(moves[from:to])):
						t.Fatalf("%s, plies %d to %d: isGameStringAfter(%q, %q) false", uhp.FormatGameType(gt), from, to, strings[to], strings[from])
					case to < len(moves) && isGameStringAfter(strings[to], strings[from], asMoves(moves[from:to+1])):
						t.Fatalf("%s, plies %d to %d: isGameStringAfter(%q, %q) with a move more true", uhp.FormatGameType(gt), from, to, strings[to], strings[from])
					case to > from && isGameStringAfter(strings[to], strings[from], asMoves(moves[from:to-1])):
						t.Fatalf("%s, plies %d to %d: isGameStringAfter(%q, %q) with a move less true", uhp.FormatGameType(gt), from, to, strings[to], strings[from])
					}
				}
			}
			if g.Over() {
				if _, ok := gameStringAfter(strings[len(strings)-1], []string{"wA1"}); ok {
					t.Errorf("moves added to an ended game's GameString %q", strings[len(strings)-1])
				}
			}
		}
	}
	for _, bad := range []string{"", "Base", "Base;InProgress", "Base;WhiteWins;Black[3];wS1;bS1 wS1-"} {
		if got, ok := gameStringAfter(bad, []string{"wA1"}); ok {
			t.Errorf("gameStringAfter(%q) = %q, want refused", bad, got)
		}
	}
}

// TestAppendsTogether runs through the writer a batch of moves' writes
// (Change.Append) of several games, one of them not archived: those run
// together in one statement, which the missing game fails, so that the
// batch runs again write by write; the missing game alone gets ErrNotFound,
// and the others are read back, their rows brought up to date from the
// moves after them (Get and List alike), one with its players named.
func TestAppendsTogether(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		var ids []int64
		for i := range 3 {
			id, err := s.Start(ctx, Start{Key: fmt.Sprint("append-", i), Source: "uhp-ws", GameType: "Base", White: Viewer, Black: "native",
				Started: t0, GameString: "Base;InProgress;Black[1];wS1", Moves: []Move{{Ply: 0, Text: "wS1", By: Viewer, At: t0}}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		move := func(ply int, text string) Move {
			return Move{Ply: ply, Text: text, By: Viewer, At: t0.Add(time.Duration(ply) * time.Second)}
		}
		add := func(id int64, moves ...Move) *writeOp {
			c := Change{From: moves[0].Ply, Moves: moves, Append: true}
			op := s.changeOp(id, c)
			op.done = make(chan error, 1)
			return op
		}
		named := func(op *writeOp, white, black string) *writeOp {
			op.added.white, op.added.black = white, black
			op.run = s.add(op.game, op.added)
			return op
		}
		batch := []*writeOp{
			add(ids[0], move(1, "bS1 wS1-")),
			add(ids[1], move(1, "bS1 wS1-"), move(2, "wQ -wS1")),
			add(ids[2]+100, move(1, "bS1 wS1-")),
			named(add(ids[2], move(1, "bS1 /wS1")), "alice", "bob"),
			add(ids[0], move(2, "wQ -wS1")), // a game's second write in the batch, after its first
		}
		s.commit(batch)
		for i, op := range batch {
			err := <-op.done
			if i == 2 {
				if RefusalCause(err) != RefusedMissing {
					t.Errorf("the missing game's write: %v, want %v", err, ErrNotFound)
				}
			} else if err != nil {
				t.Errorf("write %d of the batch: %v", i, err)
			}
		}
		want := map[int64]string{
			ids[0]: "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1",
			ids[1]: "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1",
			ids[2]: "Base;InProgress;White[2];wS1;bS1 /wS1",
		}
		for id, gs := range want {
			g, err := s.Get(ctx, id)
			if err != nil || g.GameString != gs || g.Plies != len(g.Moves) {
				t.Errorf("game %d: %q, %d plies, %d moves, %v; want %q", id, g.GameString, g.Plies, len(g.Moves), err, gs)
			}
			if players := g.White + "/" + g.Black; players != map[bool]string{true: "alice/bob", false: "viewer/native"}[id == ids[2]] {
				t.Errorf("game %d: players %s", id, players)
			}
		}
		listed, _, err := s.List(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range listed {
			if g.GameString != want[g.ID] || g.Plies != 3-boolInt(g.ID == ids[2]) {
				t.Errorf("listed game %d: %q, %d plies; want %q", g.ID, g.GameString, g.Plies, want[g.ID])
			}
		}
	})
}

// TestStartsTogether runs a batch of starts: those with a key go in one
// statement, and one whose key the archive holds already (a start tried
// again after its first try was committed unheard of) runs alone and
// brings that game up to date rather than archiving it twice.
func TestStartsTogether(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		start := func(key string, moves ...string) Start {
			st := Start{Key: key, Source: "uhp-ws", GameType: "Base", White: Viewer, Black: "native", Started: t0,
				GameString: "Base;NotStarted;White[1]"}
			for i, m := range moves {
				st.Moves = append(st.Moves, Move{Ply: i, Text: m, By: Viewer, At: t0})
			}
			if len(moves) == 1 {
				st.GameString = "Base;InProgress;Black[1];" + moves[0]
			}
			return st
		}
		first, err := s.Start(ctx, start("again"))
		if err != nil {
			t.Fatal(err)
		}
		batch := []*writeOp{s.startOp(start("one", "wS1")), s.startOp(start("again", "wG1")), s.startOp(start("two")), s.startOp(start("", "wA1"))}
		for _, op := range batch {
			op.done = make(chan error, 1)
		}
		s.commit(batch)
		ids := map[int64]bool{}
		for i, op := range batch {
			if err := <-op.done; err != nil || op.id == 0 || ids[op.id] {
				t.Fatalf("start %d of the batch: id %d, %v", i, op.id, err)
			}
			ids[op.id] = true
		}
		if batch[1].id != first {
			t.Errorf("the start tried again archived game %d, want the first try's %d", batch[1].id, first)
		}
		for i, want := range []string{"Base;InProgress;Black[1];wS1", "Base;InProgress;Black[1];wG1", "Base;NotStarted;White[1]", "Base;InProgress;Black[1];wA1"} {
			g, err := s.Get(ctx, batch[i].id)
			if err != nil || g.GameString != want || g.Plies != len(g.Moves) || g.Status != Playing {
				t.Errorf("start %d: %+v, %v; want %q", i, g, err, want)
			}
		}
		if _, total, _ := s.List(ctx, Filter{}); total != 4 {
			t.Errorf("%d games archived, want 4", total)
		}
	})
}

func asMoves(texts []string) []Move {
	var moves []Move
	for _, t := range texts {
		moves = append(moves, Move{Text: t})
	}
	return moves
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// beginUnderLongWindow opens a SQLite archive whose writer gathers writes
// for an hour, far past any test's end, and begins a game of one move in
// it; the keeper closes at the test's end.
func beginUnderLongWindow(t *testing.T) (*sqlStore, *Recorder) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"), "serve").(*sqlStore)
	s.gather = time.Hour
	k := NewKeeper(s, KeeperConfig{})
	t.Cleanup(k.Close)
	return s, k.Begin("uhp-ws", "Base", "Base;InProgress;Black[1];wS1", []string{"wS1"}, Viewer, Players{})
}

// TestSettleHurriesTheWriter gives the writer a gathering window far past
// any test's end: a write nobody waits for waits in it, and a session
// that comes to wait for that write (Settle) has it committed at once.
func TestSettleHurriesTheWriter(t *testing.T) {
	s, r := beginUnderLongWindow(t)
	done := make(chan struct{})
	go func() {
		r.Settle()
		r.Played("bS1 wS1-", Viewer)
		r.Settle()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Settle waited out the writer's gathering window")
	}
	g, err := s.Get(context.Background(), r.ID())
	if err != nil || g.GameString != "Base;InProgress;White[2];wS1;bS1 wS1-" || len(g.Moves) != 2 {
		t.Errorf("archived %+v, %v", g, err)
	}
}

// TestFastGameWritesSooner gives the writer a gathering window far past
// any test's end: a game whose moves come 400 ms apart has each move's
// write committed within an eighth of that, with nobody waiting for it
// (no Settle hurries the writer), so that its next command need not wait.
func TestFastGameWritesSooner(t *testing.T) {
	s, r := beginUnderLongWindow(t)
	id := r.ID() // settles the start
	moves := []string{"bS1 wS1-", "wQ -wS1", "bQ bS1-"}
	for i, m := range moves {
		time.Sleep(400 * time.Millisecond)
		r.Played(m, Viewer)
		// Not r.Settle: poll the archive, as another reader would.
		deadline := time.Now().Add(10 * time.Second)
		for {
			g, err := s.Get(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Moves) == i+2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("move %d (%s) waited out the writer's gathering window", i+1, m)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	r.Settle()
}

// TestStopCommitsWhatIsPending gives the writer a gathering window far
// past any test's end: a move's write that nobody waits for is still
// pending when the store closes, and is committed then, not dropped; a
// write after the close is refused at once.
func TestStopCommitsWhatIsPending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path, "serve").(*sqlStore)
	s.gather = time.Hour
	ctx := context.Background()
	id, err := s.Start(ctx, Start{Key: "k", Source: "uhp-ws", GameType: "Base", White: Viewer, Black: Viewer,
		GameString: "Base;NotStarted;White[1]", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	written := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(patiently(ctx, 0), 10*time.Second)
		defer cancel()
		written <- s.Update(ctx, id, Change{Moves: []Move{{Ply: 0, Text: "wS1", By: Viewer, At: time.Now()}}, Append: true, Synced: true})
	}()
	waitFor(t, 5*time.Second, "the write to wait in the writer's list", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.pending) == 1
	})
	s.Close()
	if err := <-written; err != nil {
		t.Errorf("the pending write at the close: %v, want it committed", err)
	}
	if err := s.Update(ctx, id, Change{From: 1, Moves: []Move{{Ply: 1, Text: "bS1 wS1-", By: Viewer, At: time.Now()}}, Append: true, Synced: true}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a write after the close: %v, want the archive closed", err)
	}
	again := open(t, path, "serve")
	if g, err := again.Get(ctx, id); err != nil || len(g.Moves) != 1 || g.Moves[0].Text != "wS1" {
		t.Errorf("the archive after the close: %+v, %v; want the move wS1", g, err)
	}
}

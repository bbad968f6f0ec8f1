package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/internal/writehold"
)

// flaky is a store whose writes fail while down is set.
type flaky struct {
	Store
	down atomic.Bool
}

var errDown = errors.New("database down")

func (f *flaky) Start(ctx context.Context, s Start) (int64, error) {
	if f.down.Load() {
		return 0, errDown
	}
	return f.Store.Start(ctx, s)
}

func (f *flaky) Update(ctx context.Context, id int64, c Change) error {
	if f.down.Load() {
		return errDown
	}
	return f.Store.Update(ctx, id, c)
}

// waitFor polls cond until it holds, and fails the test once timeout has
// passed without it.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", timeout, what)
		}
	}
}

func TestKeeper(t *testing.T) {
	store := &flaky{Store: open(t, filepath.Join(t.TempDir(), "games.db"), "serve")}
	var lostGames, lostMoves atomic.Int64
	k := NewKeeper(store, KeeperConfig{Pause: 20 * time.Millisecond, Backoff: time.Millisecond, OnLost: func(g, m int) {
		lostGames.Add(int64(g))
		lostMoves.Add(int64(m))
	}})
	ctx := context.Background()

	// A viewer's session: the players follow the moves.
	r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, "", Players{})
	r.Played("wS1", "native")
	r.Played("bS1 wS1-", Viewer)
	r.Settle()
	// The database goes: the session plays on, the keeper says so.
	store.down.Store(true)
	r.Played("wQ -wS1", "native")
	r.Played("bQ bS1-", Viewer)
	if err := k.Health(ctx); err == nil {
		t.Error("Health while the database is down: nil")
	}
	g, _ := store.Get(ctx, r.ID())
	if g.Plies != 2 {
		t.Errorf("%d plies archived while down, want the 2 before", g.Plies)
	}
	// It comes back: the next move catches up, after an undo.
	store.down.Store(false)
	r.Settle() // the last write tried while down has failed by now
	waitFor(t, 5*time.Second, "the pause after the failed writes to end", func() bool { return !k.paused() })
	r.Undone(1, "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1")
	r.Played("bG1 bS1-", "native")
	r.Ended(End{Result: "WhiteWins", How: "forfeit", Reason: "Black forfeited"}, "Base;WhiteWins;White[3];wS1;bS1 wS1-;wQ -wS1;bG1 bS1-")
	if err := k.Health(ctx); err != nil {
		t.Errorf("Health once back: %v", err)
	}
	g, err := store.Get(ctx, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range g.Moves {
		texts = append(texts, m.Text+"/"+m.By)
	}
	if g.Status != Finished || g.Result != "WhiteWins" || g.White != "native" || g.Black != Viewer || len(texts) != 4 ||
		texts[3] != "bG1 bS1-/native" || texts[1] != "bS1 wS1-/viewer" {
		t.Errorf("archived %+v with %v", g, texts)
	}
	if lostGames.Load() != 0 || lostMoves.Load() != 0 {
		t.Errorf("lost %d games, %d moves; want none", lostGames.Load(), lostMoves.Load())
	}

	// A game that ends while the database is down is held, and written
	// once it is back.
	held := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{White: Viewer, Black: "native"})
	held.Settle()
	store.down.Store(true)
	held.Played("wA1", Viewer)
	held.Ended(End{How: "disconnect"}, "Base;InProgress;Black[1];wA1")
	held.Settle()
	if k.Pending() != 1 {
		t.Errorf("%d games pending, want 1", k.Pending())
	}
	store.down.Store(false)
	waitFor(t, 5*time.Second, "the held game to be written", func() bool { return k.Pending() == 0 })
	if g, err := store.Get(ctx, held.ID()); err != nil || g.Status != Finished || g.Plies != 1 || g.How != "disconnect" {
		t.Errorf("the held game once the database is back: %+v %v", g, err)
	}

	// Games the keeper still holds when it closes are lost: the moves
	// archived stay, the rest are reported.
	kept := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{White: Viewer, Black: "native"})
	kept.Played("wA1", Viewer)
	kept.Settle()
	store.down.Store(true)
	kept.Played("bA1 wA1-", "native")
	kept.Ended(End{How: "disconnect"}, "Base;InProgress;White[2];wA1;bA1 wA1-")
	never := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{})
	never.Played("wA1", Viewer)
	never.Ended(End{How: "disconnect"}, "Base;InProgress;Black[1];wA1")
	kept.Settle()
	never.Settle()
	if lostGames.Load() != 0 || lostMoves.Load() != 0 {
		t.Errorf("lost %d games, %d moves before the keeper gave up", lostGames.Load(), lostMoves.Load())
	}
	k.Close()
	if lostGames.Load() != 1 || lostMoves.Load() != 2 {
		t.Errorf("lost %d games, %d moves; want 1 game never started and 2 moves (one of each game)", lostGames.Load(), lostMoves.Load())
	}
}

// TestKeeperStartOnce: a start whose commit the keeper never heard of is
// not archived twice when it is tried again.
// TestRecorderGameString checks the GameString a recorder writes when a
// write is more than a move's (here, the one that catches up after the
// database was down): the one it was given last with the moves played
// since, which the recorder makes only then.
func TestRecorderGameString(t *testing.T) {
	store := &flaky{Store: open(t, filepath.Join(t.TempDir(), "games.db"), "serve")}
	k := NewKeeper(store, KeeperConfig{Pause: 20 * time.Millisecond, Backoff: time.Millisecond})
	ctx := context.Background()
	r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, "", Players{})
	r.Played("wS1", "native")
	r.Settle()
	store.down.Store(true)
	r.Played("bS1 wS1-", Viewer)
	r.Played("wQ -wS1", "native")
	store.down.Store(false)
	r.Settle()
	waitFor(t, 5*time.Second, "the pause after the failed writes to end", func() bool { return !k.paused() })
	r.Played("bQ bS1-", Viewer)
	r.Settle()
	g, err := store.Get(ctx, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	const want = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
	if g.GameString != want || g.Plies != 4 || len(g.Moves) != 4 {
		t.Errorf("archived %q, %d plies, %d moves; want %q, 4, 4", g.GameString, g.Plies, len(g.Moves), want)
	}
	var row string
	if err := store.Store.(*sqlStore).read.QueryRowContext(ctx, `SELECT game_string FROM games WHERE id = ?`, r.ID()).Scan(&row); err != nil {
		t.Fatal(err)
	}
	if row != want {
		t.Errorf("the row holds %q, want %q", row, want)
	}
	k.Close()
}

func TestKeeperStartOnce(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"), "serve")
	ctx := context.Background()
	st := Start{Key: "k1", Source: "uhp-ws", GameType: "Base", White: Viewer, Black: Viewer, Started: time.Now(), GameString: "Base;InProgress;Black[1];wA1",
		Moves: []Move{{Ply: 0, Text: "wA1", By: Viewer, At: time.Now()}}}
	id1, err := s.Start(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	st.Moves = append(st.Moves, Move{Ply: 1, Text: "bA1 wA1-", By: Viewer, At: time.Now()})
	st.GameString = "Base;InProgress;White[2];wA1;bA1 wA1-"
	id2, err := s.Start(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := s.Get(ctx, id1)
	if _, total, _ := s.List(ctx, Filter{Page: 1, PerPage: 10}); id1 != id2 || total != 1 || g.Plies != 2 || len(g.Moves) != 2 || g.GameString != st.GameString {
		t.Errorf("ids %d and %d, %d games, %+v", id1, id2, total, g)
	}
}

// gated is a store whose updates wait for a value on open.
type gated struct {
	Store
	open chan struct{}
}

func (g *gated) Update(ctx context.Context, id int64, c Change) error {
	<-g.open
	return g.Store.Update(ctx, id, c)
}

// TestRecorderDoesNotWait: a move is recorded without waiting for its
// write, the game's next move and Settle wait for it, and a game has one
// write under way at most. OnWait is told of each wait for a write under
// way, and of nothing else.
func TestRecorderDoesNotWait(t *testing.T) {
	store := &gated{Store: open(t, filepath.Join(t.TempDir(), "games.db"), "serve"), open: make(chan struct{})}
	var mu sync.Mutex
	var waits []time.Duration
	k := NewKeeper(store, KeeperConfig{Timeout: time.Minute, OnWait: func(d time.Duration) {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
	}})
	ctx := context.Background()
	r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, "", Players{})
	id := r.ID() // the start is not gated
	mu.Lock()
	waits = nil // ID may have waited for the start's commit
	mu.Unlock()
	returned := func(f func()) chan struct{} {
		done := make(chan struct{})
		go func() {
			f()
			close(done)
		}()
		return done
	}
	select {
	case <-returned(func() { r.Played("wS1", Viewer) }):
	case <-time.After(10 * time.Second):
		t.Fatal("Played waited for its write")
	}
	second := returned(func() { r.Played("bS1 wS1-", Viewer) })
	select {
	case <-second:
		t.Fatal("the next move was recorded before the previous one's write ended")
	case <-time.After(50 * time.Millisecond):
	}
	if g, _ := store.Get(ctx, id); g.Plies != 0 {
		t.Errorf("%d plies archived while the write waits, want 0", g.Plies)
	}
	store.open <- struct{}{} // the first move's write
	<-second
	if g, _ := store.Get(ctx, id); g.Plies != 1 {
		t.Errorf("%d plies archived once the next move is recorded, want 1", g.Plies)
	}
	settled := returned(r.Settle)
	select {
	case <-settled:
		t.Fatal("Settle returned while the last move's write waits")
	case <-time.After(50 * time.Millisecond):
	}
	store.open <- struct{}{}
	<-settled
	if g, _ := store.Get(ctx, id); g.Plies != 2 {
		t.Errorf("%d plies archived once settled, want 2", g.Plies)
	}
	// The end of a game does not wait for the move before it: the move
	// that ends a game is answered with both writes under way.
	r.Played("wQ -wS1", Viewer)
	select {
	case <-returned(func() { r.Ended(End{How: "disconnect"}, "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1") }):
	case <-time.After(10 * time.Second):
		t.Fatal("Ended waited for the last move's write")
	}
	if g, _ := store.Get(ctx, id); g.Plies != 2 || g.Status != Playing {
		t.Errorf("before the last move's write: %+v", g)
	}
	close(store.open)
	k.Close() // waits for the last move's write, then the end's
	if g, _ := store.Get(ctx, id); g.Status != Finished || g.How != "disconnect" || g.Plies != 3 {
		t.Errorf("after Close: %+v", g)
	}
	// The second move and the Settle after it each waited at least the
	// 50ms the test held the write back; the first and third moves found
	// nothing under way, and the end waited for nothing.
	mu.Lock()
	defer mu.Unlock()
	if len(waits) != 2 || waits[0] < 50*time.Millisecond || waits[1] < 50*time.Millisecond {
		t.Errorf("OnWait was told of %v; want two waits of 50ms or more", waits)
	}
}

// TestKeeperOnStart: the keeper tells OnStart the id of each game it
// starts in the archive, once, and it is the id the recorder gives.
func TestKeeperOnStart(t *testing.T) {
	store := open(t, filepath.Join(t.TempDir(), "games.db"), "serve")
	var (
		mu      sync.Mutex
		started []int64
	)
	k := NewKeeper(store, KeeperConfig{Pause: 20 * time.Millisecond, Backoff: time.Millisecond, OnStart: func(id int64) {
		mu.Lock()
		started = append(started, id)
		mu.Unlock()
	}})
	defer k.Close()
	for i := range 3 {
		r := k.Begin("uhp-ws", "Base", "Base;InProgress;Black[1];wA1", []string{"wA1"}, Viewer, Players{})
		r.Played("bA1 wA1-", Viewer)
		r.Ended(End{Result: "Draw", How: "state"}, "Base;Draw;White[2];wA1;bA1 wA1-")
		id := r.ID()
		mu.Lock()
		got := slices.Clone(started)
		mu.Unlock()
		if len(got) != i+1 || got[i] != id || id == 0 {
			t.Fatalf("game %d: OnStart was told %v, the recorder's id is %d", i, got, id)
		}
	}
}

// endsSeen is a flaky store that notes whether each end it is given is
// synced (Change.Synced).
type endsSeen struct {
	flaky
	mu     sync.Mutex
	synced map[int64]bool
}

func (e *endsSeen) Update(ctx context.Context, id int64, c Change) error {
	if c.End != nil {
		e.mu.Lock()
		e.synced[id] = c.Synced
		e.mu.Unlock()
	}
	return e.flaky.Update(ctx, id, c)
}

// TestRecorderEndSynced: a game's end is written as synced, the writer
// then adding its moves without deleting any first, only when the
// archive holds the game's moves so far and none after: after a move's
// write that succeeded, or an undo's; not after a write that failed, which
// may have been committed all the same.
func TestRecorderEndSynced(t *testing.T) {
	store := &endsSeen{flaky: flaky{Store: open(t, filepath.Join(t.TempDir(), "games.db"), "serve")}, synced: map[int64]bool{}}
	k := NewKeeper(store, KeeperConfig{Pause: time.Millisecond, Backoff: time.Millisecond, Attempts: 1})
	defer k.Close()
	play := func(failing bool) *Recorder {
		r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{White: Viewer, Black: "native"})
		r.Played("wS1", Viewer)
		r.Settle()
		store.down.Store(failing)
		r.Played("bS1 wS1-", "native")
		r.Settle()
		store.down.Store(false)
		return r
	}
	moved, failed, undone := play(false), play(true), play(false)
	waitFor(t, 5*time.Second, "the pause after the failed write to end", func() bool { return !k.paused() })
	undone.Undone(1, "Base;InProgress;Black[1];wS1")
	for _, r := range []*Recorder{moved, failed, undone} {
		r.Ended(End{How: "disconnect"}, r.gameStringNow())
		r.Settle()
	}
	for _, c := range []struct {
		name  string
		r     *Recorder
		want  bool
		plies int
	}{{"after a move", moved, true, 2}, {"after a failed write", failed, false, 2}, {"after an undo", undone, true, 1}} {
		g, err := store.Get(context.Background(), c.r.ID())
		if got := store.synced[c.r.ID()]; got != c.want || err != nil || g.Plies != c.plies || len(g.Moves) != c.plies || g.Status != Finished {
			t.Errorf("the end %s: synced %v, want %v; archived %d plies, %d moves, %s, %v; want %d", c.name, got, c.want, g.Plies, len(g.Moves), g.Status, err, c.plies)
		}
	}
}

// updatesSeen records each Update: the moves it adds and whether it ends
// the game.
type updatesSeen struct {
	Store
	mu      sync.Mutex
	updates []string
}

func (u *updatesSeen) Update(ctx context.Context, id int64, c Change) error {
	texts := make([]string, len(c.Moves))
	for i, m := range c.Moves {
		texts[i] = m.Text
	}
	u.mu.Lock()
	u.updates = append(u.updates, fmt.Sprintf("%s end=%v", strings.Join(texts, ","), c.End != nil))
	u.mu.Unlock()
	return u.Store.Update(ctx, id, c)
}

func (u *updatesSeen) take() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	got := u.updates
	u.updates = nil
	return got
}

// TestPlayedLast: the move that ends a game is written with the game's
// end, one write; a move recorded as the last but followed by anything
// other than the end is written before it, so that nothing answered after
// it finds it missing.
func TestPlayedLast(t *testing.T) {
	store := &updatesSeen{Store: open(t, filepath.Join(t.TempDir(), "games.db"), "serve")}
	k := NewKeeper(store, KeeperConfig{})
	defer k.Close()
	begin := func() *Recorder {
		r := k.Begin("uhp-ws", "Base", "Base;InProgress;Black[1];wS1", []string{"wS1"}, Viewer, Players{})
		r.Played("bS1 wS1-", "native")
		r.Settle()
		store.take()
		return r
	}

	ended := begin()
	ended.PlayedLast("wQ -wS1", Viewer)
	ended.Ended(End{How: "state", Result: "WhiteWins"}, "Base;WhiteWins;Black[2];wS1;bS1 wS1-;wQ -wS1")
	ended.Settle()
	if got, want := store.take(), []string{"wQ -wS1 end=true"}; !slices.Equal(got, want) {
		t.Errorf("the last move and the end: writes %q, want %q", got, want)
	}

	settled := begin()
	settled.PlayedLast("wQ -wS1", Viewer)
	settled.Settle()
	if got, want := store.take(), []string{"wQ -wS1 end=false"}; !slices.Equal(got, want) {
		t.Errorf("the last move settled without an end: writes %q, want %q", got, want)
	}
	for _, r := range []*Recorder{ended, settled} {
		g, err := store.Get(context.Background(), r.ID())
		if err != nil || len(g.Moves) != 3 {
			t.Errorf("archived %+v, %v; want 3 moves", g, err)
		}
	}
	settled.Ended(End{How: "disconnect"}, "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1")
}

// TestWriteHeldUpIsGivenUp: a move's write that the database holds up
// (handed to the store's writer: Recorder.offer) is given up once a try
// may take no longer (KeeperConfig.Timeout): Settle returns while the
// database still holds it up, without waiting out the database's own
// timeouts (ten seconds), and so does the Settle of a game that ended
// after such a move; the game plays on, and once the database takes
// writes again the archive has both games whole.
func TestWriteHeldUpIsGivenUp(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		store := open(t, db, "serve")
		k := NewKeeper(store, KeeperConfig{Timeout: 300 * time.Millisecond, Attempts: 2, Backoff: time.Millisecond, Pause: 10 * time.Millisecond})
		defer k.Close()
		r := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{})
		ended := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{})
		id, endedID := r.ID(), ended.ID()
		release := writehold.Hold(t, db)
		r.Played("wS1", Viewer)
		// A move, and the game's end while the move's write is held up.
		ended.Played("wS1", Viewer)
		ended.Ended(End{How: "disconnect"}, "Base;InProgress;Black[1];wS1")
		settled := make(chan struct{})
		go func() {
			r.Settle()
			ended.Settle()
			close(settled)
		}()
		select {
		case <-settled:
		case <-time.After(5 * time.Second):
			t.Error("Settle waited for the database that holds the write up")
		}
		release()
		<-settled
		waitFor(t, 10*time.Second, "the ended game to be archived whole", func() bool {
			g, err := store.Get(context.Background(), endedID)
			return err == nil && g.Status == Finished && len(g.Moves) == 1
		})
		r.Played("bS1 wS1-", Viewer)
		r.Ended(End{How: "disconnect"}, "Base;InProgress;White[2];wS1;bS1 wS1-")
		r.Settle()
		var g Game
		waitFor(t, 10*time.Second, "the game to be archived whole", func() bool {
			var err error
			g, err = store.Get(context.Background(), id)
			return err == nil && g.Status == Finished && len(g.Moves) == 2
		})
		if g.Plies != 2 || g.Moves[0].Text != "wS1" || g.Moves[1].Text != "bS1 wS1-" {
			t.Errorf("archived %d plies, %v; want wS1, bS1 wS1-", g.Plies, g.Moves)
		}
	})
}

// TestMoveOfMissingGameRefused: a move's write handed to the store's
// writer (Recorder.offer) for a game the archive no longer holds (deleted
// under the daemon) is refused as missing, once, without pausing the
// keeper's writes; the game's next moves are not written, and another
// game's moves, in the same transaction, are.
func TestMoveOfMissingGameRefused(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		store := open(t, db, "serve")
		var refusals atomic.Int64
		k := NewKeeper(store, KeeperConfig{Pause: time.Hour, OnRefused: func(cause string) {
			if cause != RefusedMissing {
				t.Errorf("refused as %q, want %q", cause, RefusedMissing)
			}
			refusals.Add(1)
		}})
		defer k.Close()
		gone := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{})
		kept := k.Begin("uhp-ws", "Base", "Base;NotStarted;White[1]", nil, Viewer, Players{})
		kept.ID()
		driver, dsn := "sqlite", db+"?_pragma=busy_timeout(10000)"
		if strings.HasPrefix(db, "postgres://") {
			driver, dsn = "pgx", db
		}
		conn, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.Exec(store.(*sqlStore).q(`DELETE FROM games WHERE id = ?`), gone.ID()); err != nil {
			t.Fatal(err)
		}
		gone.Played("wS1", Viewer)
		kept.Played("wS1", Viewer)
		gone.Settle()
		kept.Settle()
		gone.Played("bS1 wS1-", Viewer)
		kept.Played("bS1 wS1-", Viewer)
		gone.Settle()
		kept.Settle()
		if n := refusals.Load(); n != 1 {
			t.Errorf("%d refusals, want 1", n)
		}
		if k.paused() || k.Health(ctx) != nil {
			t.Errorf("the keeper paused (%v) or is unhealthy (%v) after a refusal", k.paused(), k.Health(ctx))
		}
		if g, err := store.Get(ctx, kept.ID()); err != nil || g.Plies != 2 {
			t.Errorf("the other game: %d plies, %v; want 2", g.Plies, err)
		}
	})
}

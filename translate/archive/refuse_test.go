package archive

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

func TestStorableText(t *testing.T) {
	long := strings.Repeat("é", MaxText+5)
	for _, c := range []struct{ in, want string }{
		{"White forfeited: lunch", "White forfeited: lunch"},
		{"x\xff", "x\uFFFD"},
		{"a\x00b", "a\uFFFDb"},
		{"\xc3", "\uFFFD"}, // a sequence cut short
		{long, strings.Repeat("é", MaxText-1) + "…"},
		{strings.Repeat("a", MaxText), strings.Repeat("a", MaxText)},
	} {
		if got := short(c.in); got != c.want || !validText(got) {
			t.Errorf("short(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	moves := make([]string, MaxPlies+3)
	for i := range moves {
		moves[i] = fmt.Sprint("m", i)
	}
	gs := "Base+M;WhiteWins;" + turnAfter(len(moves)) + ";" + strings.Join(moves, ";")
	want := "Base+M;InProgress;White[1001];" + strings.Join(moves[:MaxPlies], ";")
	if got := storableGameString(gs); got != want {
		t.Errorf("a GameString of %d plies kept as %.60q..., want %.60q...", len(moves), got, want)
	}
	for _, gs := range []string{"Base;NotStarted;White[1]", "Base;InProgress;Black[1];wS1", "Base;BlackWins;White[2];wS1;bS1 wS1-"} {
		if got := storableGameString(gs); got != gs {
			t.Errorf("storableGameString(%q) = %q", gs, got)
		}
	}
	for plies, want := range map[int]string{0: "White[1]", 1: "Black[1]", 2: "White[2]", 7: "Black[4]"} {
		if got := turnAfter(plies); got != want {
			t.Errorf("turnAfter(%d) = %s, want %s", plies, got, want)
		}
	}
}

// TestStoreTakesAnyText: text that is not UTF-8, or holds NUL, in every
// field a client may fill, is archived (each bad byte as U+FFFD) rather
// than refused: PostgreSQL refuses both in text (SQLSTATE 22021), and the
// keeper would have taken that for an outage.
func TestStoreTakesAnyText(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve")
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		id, err := s.Start(ctx, Start{Key: "k\xff", Source: "uhp\x00tcp", GameType: "Base\xff", White: "w\xfe", Black: "b\x00", Started: t0,
			GameString: "Base;InProgress;Black[1];wS1\xff", Moves: []Move{{Ply: 0, Text: "wS1\xff", By: "v\x00", At: t0}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Update(ctx, id, Change{From: 1, Moves: []Move{{Ply: 1, Text: "bS1\x00", By: "n\xc3", At: t0}},
			White: "w\xfe", Black: "b\x00", GameString: "Base;BlackWins;White[2];wS1\xff;bS1\x00",
			End: &End{Result: "BlackWins\xff", How: "forfeit\x00", Reason: "White forfeited: x\xff", At: t0}}); err != nil {
			t.Fatal(err)
		}
		g, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		const r = "\uFFFD"
		if g.Source != "uhp"+r+"tcp" || g.GameType != "Base"+r || g.White != "w"+r || g.Black != "b"+r || g.Reason != "White forfeited: x"+r ||
			g.Result != "BlackWins"+r || g.How != "forfeit"+r || g.GameString != "Base;BlackWins;White[2];wS1"+r+";bS1"+r ||
			moveTexts(g) != "wS1"+r+"/v"+r+", bS1"+r+"/n"+r {
			t.Errorf("archived %+v, moves %s", g, moveTexts(g))
		}
	})
}

func moveTexts(g Game) string {
	var parts []string
	for _, m := range g.Moves {
		parts = append(parts, m.Text+"/"+m.By)
	}
	return strings.Join(parts, ", ")
}

// TestRefusalCause classifies real errors of both databases: what a write
// holds (refused: dropped) against an outage (tried again).
func TestRefusalCause(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		id, err := s.Start(ctx, Start{Source: "uhp-ws", GameType: "Base", White: Viewer, Black: Viewer, Started: time.Now(), GameString: "Base;NotStarted;White[1]"})
		if err != nil {
			t.Fatal(err)
		}
		exec := func(query string, args ...any) error {
			_, err := s.write.ExecContext(ctx, s.q(query), args...)
			return err
		}
		move := `INSERT INTO moves (game, ply, text, by_player, at_ms) VALUES (?, 0, 'wS1', 'viewer', 0)`
		if err := exec(move, id); err != nil {
			t.Fatal(err)
		}
		type classified struct {
			what string
			err  error
			want string
		}
		cases := []classified{
			{"a move twice", exec(move, id), RefusedConstraint},
			{"a move of no game", exec(move, id+100), RefusedConstraint},
			{"an unknown game", s.Update(ctx, id+100, Change{}), RefusedMissing},
			{"a cancelled write", func() error {
				cctx, cancel := context.WithCancel(ctx)
				cancel()
				_, err := s.write.ExecContext(cctx, s.q(move), id)
				return err
			}(), ""},
			{"an error of no database", errors.New("connection reset by peer"), ""},
		}
		if s.d.dollar {
			cases = append(cases,
				classified{"text that is not UTF-8", exec(`INSERT INTO owners (kind, host, pid, started_ms) VALUES (?, 'h', 1, 0)`, "x\xff"), RefusedData},
				classified{"a syntax error", exec(`SELEC 1`), RefusedStatement})
		} else {
			cases = append(cases, classified{"a text id", exec(`INSERT INTO games (id, owner, source, game_type, white, black, status, started_ms, game_string) VALUES ('x', 0, '', '', '', '', '', 0, '')`), RefusedData})
		}
		for _, c := range cases {
			if c.err == nil {
				t.Errorf("%s: no error", c.what)
			} else if got := RefusalCause(c.err); got != c.want {
				t.Errorf("%s (%v): cause %q, want %q", c.what, c.err, got, c.want)
			}
		}
		s.Close()
		if err := exec(move, id); err == nil || RefusalCause(err) != "" {
			t.Errorf("a write to a closed database (%v): cause %q, want none", err, RefusalCause(err))
		}
	})
}

// TestBatchWithARefusedWrite commits a batch of three writes whose second
// the database refuses (a move twice over the moves' primary key): in
// PostgreSQL that aborts the whole transaction, so the writer must run
// the batch again with a savepoint a write; the two others are kept, and
// the refused one alone fails, as a refusal.
func TestBatchWithARefusedWrite(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		s := open(t, db, "serve").(*sqlStore)
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		var ids []int64
		for i := range 3 {
			id, err := s.Start(ctx, Start{Key: fmt.Sprint("batch-", i), Source: "uhp-ws", GameType: "Base", White: Viewer, Black: "native",
				Started: t0, GameString: "Base;NotStarted;White[1]"})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		wS1 := Move{Ply: 0, Text: "wS1", By: Viewer, At: t0}
		played := Change{From: 0, Moves: []Move{wS1}, White: Viewer, Black: "native", GameString: "Base;InProgress;Black[1];wS1"}
		twice := played
		twice.Moves = []Move{wS1, wS1}
		batch := []*writeOp{
			{run: s.updateOp(ids[0], played).run, done: make(chan error, 1)},
			{run: s.updateOp(ids[1], twice).run, done: make(chan error, 1)},
			{run: s.updateOp(ids[2], played).run, done: make(chan error, 1)},
		}
		s.commit(batch)
		for i, op := range batch {
			err := <-op.done
			if (err != nil) != (i == 1) || (i == 1 && RefusalCause(err) != RefusedConstraint) {
				t.Errorf("write %d of the batch: %v", i, err)
			}
		}
		for i, id := range ids {
			g, err := s.Get(ctx, id)
			if want := map[bool]int{true: 0, false: 1}[i == 1]; err != nil || g.Plies != want || len(g.Moves) != want {
				t.Errorf("game %d after the batch: %+v, %v", i, g, err)
			}
		}
	})
}

// poisoned is a store whose database refuses the change of a game that
// holds the move "poison": the change sends that move twice, which the
// moves' primary key refuses (a constraint violation, in the batch of
// the real writer).
type poisoned struct {
	Store
	tries atomic.Int32
}

func (p *poisoned) Update(ctx context.Context, id int64, c Change) error {
	for _, m := range c.Moves {
		if m.Text == "poison" {
			p.tries.Add(1)
			c.Moves = append(slices.Clip(c.Moves), m)
			break
		}
	}
	return p.Store.Update(ctx, id, c)
}

// TestKeeperDropsRefusedWrite: a write the database refuses for what it
// holds is tried once, logged, counted and dropped with its game; it is
// not an outage: the keeper does not pause or report itself unhealthy,
// and the other games' writes go on.
func TestKeeperDropsRefusedWrite(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		store := &poisoned{Store: open(t, db, "serve")}
		var (
			lostGames, lostMoves atomic.Int64
			mu                   sync.Mutex
			refusals             []string
		)
		// A pause after a failure as long as the test: a refusal taken
		// for an outage would keep the other game unwritten.
		k := NewKeeper(store, KeeperConfig{Pause: time.Hour, Backoff: time.Millisecond, Timeout: time.Minute,
			OnLost: func(g, m int) {
				lostGames.Add(int64(g))
				lostMoves.Add(int64(m))
			},
			OnRefused: func(cause string) {
				mu.Lock()
				refusals = append(refusals, cause)
				mu.Unlock()
			}})
		bad := k.Begin("uhp-tcp", "Base", "Base;NotStarted;White[1]", nil, "", Players{White: Viewer, Black: "native"})
		good := k.Begin("uhp-tcp", "Base", "Base;NotStarted;White[1]", nil, "", Players{White: Viewer, Black: "native"})
		bad.Played("wS1", Viewer)
		good.Played("wS1", Viewer)
		bad.Played("poison", "native")
		bad.Settle()
		if err := k.Health(ctx); err != nil {
			t.Errorf("Health after a refused write: %v, want nil", err)
		}
		if k.paused() {
			t.Error("the keeper paused its writes after a refused write")
		}
		good.Played("bS1 wS1-", "native")
		good.Settle()
		if g, err := store.Get(ctx, good.ID()); err != nil || g.Plies != 2 {
			t.Errorf("the other game after the refused write: %+v %v, want its 2 plies archived", g, err)
		}
		bad.Played("wQ -wS1", Viewer)
		bad.Ended(End{How: "forfeit", Reason: "Black forfeited"}, "Base;WhiteWins;Black[2];wS1;poison;wQ -wS1")
		good.Ended(End{How: "disconnect"}, "Base;InProgress;White[2];wS1;bS1 wS1-")
		bad.Settle()
		good.Settle()
		k.Close()
		if n := store.tries.Load(); n != 1 {
			t.Errorf("the refused write was tried %d times, want once", n)
		}
		mu.Lock()
		if !slices.Equal(refusals, []string{RefusedConstraint}) {
			t.Errorf("refusals %v, want one of a constraint", refusals)
		}
		mu.Unlock()
		if lostGames.Load() != 0 || lostMoves.Load() != 2 {
			t.Errorf("%d games, %d moves counted not archived; want the 2 moves from the refused one on", lostGames.Load(), lostMoves.Load())
		}
		if g, err := store.Get(ctx, bad.ID()); err != nil || g.Plies != 1 || g.Status != Playing {
			t.Errorf("the refused game: %+v %v, want its first move alone", g, err)
		}
		if g, err := store.Get(ctx, good.ID()); err != nil || g.Plies != 2 || g.Status != Finished {
			t.Errorf("the other game: %+v %v", g, err)
		}
	})
}

// TestLongGameIsCut: a game longer than MaxPlies is archived with its
// first MaxPlies moves and the GameString of the position after them, the
// rest counted as not archived; names and reasons are cut to MaxText.
func TestLongGameIsCut(t *testing.T) {
	stores(t, func(t *testing.T, db string) {
		ctx := context.Background()
		store := open(t, db, "serve")
		var lostGames, lostMoves atomic.Int64
		k := NewKeeper(store, KeeperConfig{Timeout: time.Minute, OnLost: func(g, m int) {
			lostGames.Add(int64(g))
			lostMoves.Add(int64(m))
		}})
		moves := make([]string, MaxPlies+10)
		for i := range moves {
			moves[i] = fmt.Sprint("m", i)
		}
		gs := func(n int) string { return "Base;InProgress;" + turnAfter(n) + ";" + strings.Join(moves[:n], ";") }
		long := strings.Repeat("é", MaxText+100)
		r := k.Begin("uhp-tcp", "Base", gs(MaxPlies+9), moves[:MaxPlies+9], Viewer, Players{White: long, Black: "native"})
		r.Played(moves[MaxPlies+9], "native")
		r.Ended(End{Result: "Draw", How: "forfeit", Reason: long}, gs(MaxPlies+10))
		r.Settle()
		k.Close()
		g, err := store.Get(ctx, r.ID())
		if err != nil {
			t.Fatal(err)
		}
		if g.Plies != MaxPlies || len(g.Moves) != MaxPlies || g.Moves[MaxPlies-1].Text != moves[MaxPlies-1] || g.GameString != gs(MaxPlies) {
			t.Errorf("%d plies, %d moves, GameString %.40q...; want %d, and that of the position after them", g.Plies, len(g.Moves), g.GameString, MaxPlies)
		}
		if utf8.RuneCountInString(g.White) != MaxText || !strings.HasSuffix(g.White, "…") || utf8.RuneCountInString(g.Reason) != MaxText ||
			g.Result != "Draw" || g.Status != Finished {
			t.Errorf("white %q, reason %q, result %s, status %s", g.White, g.Reason, g.Result, g.Status)
		}
		if lostGames.Load() != 0 || lostMoves.Load() != 10 {
			t.Errorf("%d games, %d moves counted not archived, want the 10 moves past MaxPlies", lostGames.Load(), lostMoves.Load())
		}
	})
}

// TestBadFilter: filter text that no archived game could have (not UTF-8,
// a NUL, too long) is refused with an error of the archive's own, by
// ParseFilter and by List, rather than handed to the database, which
// answers PostgreSQL's invalid byte sequence.
func TestBadFilter(t *testing.T) {
	for query, says := range map[string]string{
		"player=%ff":   `player "\xff" is not valid UTF-8`,
		"type=Base%00": `type "Base\x00" holds a NUL character`,
		"player=" + strings.Repeat("a", MaxText+1): "longer than the 200 characters",
	} {
		if _, err := ParseFilterQuery(query); !errors.Is(err, ErrBadFilter) || !strings.Contains(err.Error(), says) {
			t.Errorf("%.40s: %v, want ErrBadFilter saying %s", query, err, says)
		}
	}
	stores(t, func(t *testing.T, db string) {
		s := open(t, db, Reader)
		for _, f := range []Filter{{Player: "\xff"}, {GameType: "a\x00"}, {Result: "\xc3"}} {
			if _, _, err := s.List(context.Background(), f); !errors.Is(err, ErrBadFilter) {
				t.Errorf("List(%+v): %v, want ErrBadFilter", f, err)
			}
		}
	})
}

package referee

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/pgtest"
)

// pgServer is one PostgreSQL server for a test function, each of its
// subtests on a database of its own: a claim looks at every test of its
// database, so subtests sharing one would claim each other's pairs.
type pgServer struct {
	url string
	n   atomic.Int32
}

func startPG(t *testing.T) *pgServer {
	t.Helper()
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	return &pgServer{url: pgtest.Start(t).URL}
}

// database makes a fresh database and returns its URL.
func (s *pgServer) database(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, s.url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("tests%d", s.n.Add(1))
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(s.url, "/postgres?", "/"+name+"?", 1)
}

// tests opens the tests of a fresh database, closed at the test's end.
func (s *pgServer) tests(t *testing.T) (*Tests, string) {
	t.Helper()
	dsn := s.database(t)
	tests, err := OpenTests(context.Background(), dsn, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tests.Close)
	return tests, dsn
}

// testSettings are a test of native against native at depth 1.
func testSettings() TestSettings {
	return TestSettings{White: "native", Black: "native", WhiteName: "A", BlackName: "B", TC: "depth=1",
		GameType: "Base", RandomPlies: 2, Seed: 1, MaxPlies: 200, Disagreement: "draw"}
}

// pairOf makes the records of pair k in which engine A scored first as
// White (game 2k) and second as Black (game 2k+1): 1, 0.5 or 0.
func pairOf(k int, first, second float64) []GameRecord {
	result := func(aWhite bool, score float64) core.Result {
		switch {
		case score == 0.5:
			return core.Draw
		case (score == 1) == aWhite:
			return core.WhiteWins
		}
		return core.BlackWins
	}
	return []GameRecord{
		{Index: 2 * k, AWhite: true, Result: result(true, first), Reason: "white queen surrounded", Plies: 20},
		{Index: 2*k + 1, AWhite: false, Result: result(false, second), Reason: "black queen surrounded", Plies: 21},
	}
}

func mustClaim(t *testing.T, tests *Tests, worker string, lease time.Duration) *Lease {
	t.Helper()
	l, err := tests.Claim(context.Background(), worker, lease, nil)
	if err != nil || l == nil {
		t.Fatalf("%s's claim: %v, %v; want a pair", worker, l, err)
	}
	return l
}

func mustCreate(t *testing.T, tests *Tests, s TestSettings, games int) int64 {
	t.Helper()
	id, err := tests.Create(context.Background(), s, games)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestDistributedLeases: the claim, renewal and report of game pairs, each
// case on a database of its own.
func TestDistributedLeases(t *testing.T) {
	pg := startPG(t)
	ctx := context.Background()

	t.Run("stale report refused", func(t *testing.T) {
		tests, _ := pg.tests(t)
		mustCreate(t, tests, testSettings(), 4)
		old := mustClaim(t, tests, "w1", 150*time.Millisecond)
		time.Sleep(300 * time.Millisecond) // w1's lease runs out
		taken := mustClaim(t, tests, "w2", time.Minute)
		if taken.Pair != old.Pair || taken.Claims != 2 || taken.Token == old.Token {
			t.Fatalf("w2 claimed %+v after w1's lease on pair %d ran out; want that pair, claimed a second time", taken, old.Pair)
		}
		if _, err := tests.Report(ctx, old, pairOf(old.Pair, 1, 1), []int64{1, 2}); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("w1's late report: %v, want ErrLeaseLost", err)
		}
		if err := tests.Heartbeat(ctx, old, time.Minute); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("w1's late heartbeat: %v, want ErrLeaseLost", err)
		}
		c, err := tests.Report(ctx, taken, pairOf(taken.Pair, 0.5, 0), []int64{3, 4})
		if err != nil {
			t.Fatal(err)
		}
		want := PairCounts{LD: 1}
		if c.PairsDone != 1 || c.Stats.Pairs != want || c.Stats.Total != (Score{Losses: 1, Draws: 1}) || c.State != TestOpen {
			t.Fatalf("after w2's report: %+v, want one pair counted, a draw and a loss", c)
		}
		// A report sent again (its answer lost) counts nothing more.
		again, err := tests.Report(ctx, taken, pairOf(taken.Pair, 0.5, 0), []int64{3, 4})
		if err != nil || again.PairsDone != 1 || again.Stats != c.Stats {
			t.Fatalf("w2's report again: %+v, %v; want it taken as counted, once", again, err)
		}
		st, err := tests.Status(ctx, taken.Test)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Played) != 2 || st.ArchiveIDs[0] != 3 || st.ArchiveIDs[1] != 4 || len(st.Workers) != 1 || st.Workers[0].Worker != "w2" {
			t.Fatalf("status: %+v, want w2's two games, archive ids 3 and 4", st)
		}
	})

	t.Run("expired lease reclaimed", func(t *testing.T) {
		tests, _ := pg.tests(t)
		mustCreate(t, tests, testSettings(), 2) // one pair
		l := mustClaim(t, tests, "w1", 300*time.Millisecond)
		for range 3 { // renewed, the lease holds past its first term
			time.Sleep(150 * time.Millisecond)
			if err := tests.Heartbeat(ctx, l, 300*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			if other, err := tests.Claim(ctx, "w2", time.Minute, nil); err != nil || other != nil {
				t.Fatalf("w2 claimed %+v (%v) while w1's lease held", other, err)
			}
		}
		time.Sleep(500 * time.Millisecond) // no renewal: the lease runs out
		again := mustClaim(t, tests, "w2", time.Minute)
		if again.Pair != l.Pair || again.Claims != 2 {
			t.Fatalf("w2 claimed %+v, want pair %d claimed again", again, l.Pair)
		}
		// A pair given back is claimed at once.
		if err := tests.Release(ctx, again); err != nil {
			t.Fatal(err)
		}
		if third := mustClaim(t, tests, "w3", time.Minute); third.Pair != l.Pair || third.Claims != 3 {
			t.Fatalf("w3 claimed %+v, want the pair w2 gave back", third)
		}
	})

	t.Run("decided test not claimed", func(t *testing.T) {
		tests, _ := pg.tests(t)
		s := testSettings()
		s.SPRT = &SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
		decided := mustCreate(t, tests, s, 100)
		other := mustCreate(t, tests, testSettings(), 2)
		// A lease still in play when the test is decided.
		late := mustClaim(t, tests, "late", time.Minute)
		var c Counted
		for n := 0; c.State == TestOpen || n == 0; n++ {
			if n == 40 {
				t.Fatalf("40 pairs won by A and no verdict: %+v", c)
			}
			l := mustClaim(t, tests, "w", time.Minute)
			if l.Test != decided {
				t.Fatalf("claimed a pair of test %d before test %d was decided", l.Test, decided)
			}
			var err error
			if c, err = tests.Report(ctx, l, pairOf(l.Pair, 1, 1), []int64{0, 0}); err != nil {
				t.Fatal(err)
			}
		}
		if c.State != TestDecided || c.SPRT == nil || c.SPRT.Verdict != SPRTH1 || c.Stopped != "SPRT: H1 accepted" {
			t.Fatalf("the test after A won every pair: %+v, want H1 accepted", c)
		}
		if l := mustClaim(t, tests, "w", time.Minute); l.Test != other {
			t.Fatalf("claimed a pair of test %d, want the open test %d's", l.Test, other)
		}
		if l, err := tests.Claim(ctx, "w", time.Minute, nil); err != nil || l != nil {
			t.Fatalf("claimed %+v (%v) with only a decided test's pairs left", l, err)
		}
		if err := tests.Heartbeat(ctx, late, time.Minute); !errors.Is(err, ErrTestClosed) {
			t.Fatalf("a heartbeat for the decided test: %v, want ErrTestClosed", err)
		}
		if _, err := tests.Report(ctx, late, pairOf(late.Pair, 0, 0), []int64{0, 0}); !errors.Is(err, ErrTestClosed) {
			t.Fatalf("a report for the decided test: %v, want ErrTestClosed", err)
		}
		st, err := tests.Summary(ctx, decided)
		if err != nil || st.Stats != c.Stats || st.State != TestDecided || st.Ended.IsZero() {
			t.Fatalf("the decided test: %+v, %v; want the counts of its last report", st, err)
		}
	})

	t.Run("done, then given more games", func(t *testing.T) {
		tests, _ := pg.tests(t)
		id := mustCreate(t, tests, testSettings(), 2)
		l := mustClaim(t, tests, "w", time.Minute)
		c, err := tests.Report(ctx, l, pairOf(l.Pair, 1, 0.5), []int64{0, 0})
		if err != nil || c.State != TestDone {
			t.Fatalf("the one pair reported: %+v, %v; want the test done", c, err)
		}
		if l, err := tests.Claim(ctx, "w", time.Minute, nil); err != nil || l != nil {
			t.Fatalf("claimed %+v (%v) from a done test", l, err)
		}
		if err := tests.Extend(ctx, id, 4); err != nil {
			t.Fatal(err)
		}
		if l := mustClaim(t, tests, "w", time.Minute); l.Pair != 1 || l.Games != 4 {
			t.Fatalf("claimed %+v, want the new pair 1 of 4 games", l)
		}
	})

	t.Run("concurrent claims and reports", func(t *testing.T) {
		tests, _ := pg.tests(t)
		const pairs = 24
		id := mustCreate(t, tests, testSettings(), 2*pairs)
		claimed := make(chan *Lease, pairs)
		var wg sync.WaitGroup
		for w := range pairs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l, err := tests.Claim(ctx, fmt.Sprint("w", w), time.Minute, nil)
				if err != nil || l == nil {
					t.Errorf("claim %d: %v, %v", w, l, err)
					return
				}
				// A wins the even pairs' both games; the odd ones are draws.
				score := 0.5
				if l.Pair%2 == 0 {
					score = 1
				}
				if _, err := tests.Report(ctx, l, pairOf(l.Pair, score, score), []int64{0, 0}); err != nil {
					t.Errorf("report of pair %d: %v", l.Pair, err)
				}
				claimed <- l
			}()
		}
		wg.Wait()
		close(claimed)
		seen := map[int]bool{}
		for l := range claimed {
			if seen[l.Pair] {
				t.Errorf("pair %d claimed twice at once", l.Pair)
			}
			seen[l.Pair] = true
		}
		st, err := tests.Summary(ctx, id)
		want := Stats{AsWhite: Score{Wins: pairs / 2, Draws: pairs / 2}, AsBlack: Score{Wins: pairs / 2, Draws: pairs / 2},
			Total: Score{Wins: pairs, Draws: pairs}, Pairs: PairCounts{WW: pairs / 2, DD: pairs / 2}}
		if err != nil || st.State != TestDone || st.PairsDone != pairs || st.Stats != want {
			t.Fatalf("after %d concurrent reports: %+v, %v; want %+v", pairs, st, err, want)
		}
	})

	t.Run("settings refused", func(t *testing.T) {
		tests, _ := pg.tests(t)
		if _, err := tests.Create(ctx, testSettings(), 3); err == nil {
			t.Fatal("a test of 3 games was created; want it refused: tests play pairs")
		}
		s := testSettings()
		s.TC = "depth=0"
		if _, err := tests.Create(ctx, s, 2); err == nil {
			t.Fatal("a test with a bad time control was created")
		}
	})
}

// TestDistributedSettingsRoundTrip: a match's configuration comes back
// from its settings as it was, named.
func TestDistributedSettingsRoundTrip(t *testing.T) {
	tc := TimeControl{Depth: 3}
	sprt := &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: SPRTNormalized}
	cfg := Config{White: "native", Black: "uhp:engine --x=1", BlackName: "other", WhiteOptions: []string{"Threads=1"},
		Games: 10, TC: TimeControl{MoveTime: 500 * time.Millisecond}, WhiteTC: &tc, RandomPlies: 4, Seed: 1 << 60,
		MaxPlies: 300, SPRT: sprt, Disagreement: DisagreementVoid, TimeMargin: 50 * time.Millisecond,
		Adjudication: Adjudication{Draw: &DrawRule{MoveNumber: 20, MoveCount: 4, Score: 10}}}
	back, err := SettingsOf(cfg, "").Config(10, cfg.Engine)
	if err != nil {
		t.Fatal(err)
	}
	want := cfg
	want.WhiteName, want.Concurrency = "native", 1
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, want)
	}
}

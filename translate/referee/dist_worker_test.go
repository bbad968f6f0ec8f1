package referee

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// TestWorkerPlaysMappedEngines: a worker plays a test whose engine A it
// knows by another spec (--engine A=native), keeps its games in the
// archive under the test's names with their ids in the pairs, and passes
// over an older test whose engine B it cannot start, giving its pair back.
func TestWorkerPlaysMappedEngines(t *testing.T) {
	pg := startPG(t)
	tests, dsn := pg.tests(t)
	ctx := context.Background()
	store, err := archive.Open(ctx, dsn, "worker")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	unplayable := testSettings()
	unplayable.Black, unplayable.BlackName = "uhp:/nonexistent/engine", ""
	stuck := mustCreate(t, tests, unplayable, 2)
	mapped := testSettings()
	mapped.White = "uhp:/elsewhere/engine" // A on the coordinator's machine
	id := mustCreate(t, tests, mapped, 4)

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		mu     sync.Mutex
		played []GameRecord
		pairs  []PairReport
	)
	done := make(chan error, 1)
	go func() {
		done <- RunWorker(runCtx, tests, WorkerConfig{
			Name: "here", Engines: map[string]string{"A": "native"}, Concurrency: 2,
			Lease: 2 * time.Second, Poll: 50 * time.Millisecond,
			Engine: translate.Config{Log: zerolog.Nop()}, Archive: store, Log: zerolog.Nop(),
			OnGame: func(l *Lease, g GameRecord) { mu.Lock(); played = append(played, g); mu.Unlock() },
			OnPair: func(r PairReport) { mu.Lock(); pairs = append(pairs, r); mu.Unlock() },
		})
	}()
	waitCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	final, err := tests.Wait(waitCtx, id, 50*time.Millisecond, func(TestStatus) {})
	if err != nil || final.State != TestDone {
		t.Fatalf("the test: %+v, %v; want it done", final, err)
	}
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not stop within 30s of its context's end")
	}

	st, err := tests.Status(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(st.Played) != 4 || len(played) != 4 || len(pairs) != 2 {
		t.Fatalf("%d games counted, %d played, %d pairs reported; want 4, 4, 2", len(st.Played), len(played), len(pairs))
	}
	for _, r := range pairs {
		if r.Err != nil {
			t.Errorf("pair %d: %v", r.Lease.Pair, r.Err)
		}
	}
	var fromArchive Stats
	for k := range 2 {
		var games []GameRecord
		for i := 2 * k; i < 2*k+2; i++ {
			g, err := store.Get(ctx, st.ArchiveIDs[i])
			if err != nil {
				t.Fatalf("game %d, archive id %d: %v", i, st.ArchiveIDs[i], err)
			}
			rec := st.Played[i]
			white := "B"
			if rec.AWhite {
				white = "A"
			}
			if g.Source != "match" || g.White != white || g.Result != rec.Result.String() || g.Status != archive.Finished {
				t.Errorf("game %d in the archive: %+v; want a finished match game, %s White, %s", i, g, white, rec.Result)
			}
			state, err := core.ParseGameState(g.Result)
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, GameRecord{Index: i, AWhite: g.White == "A", Result: state.Result()})
		}
		countPair(&fromArchive, games)
	}
	if fromArchive != st.Stats {
		t.Errorf("the test's counts %+v differ from those of its games in the archive, %+v", st.Stats, fromArchive)
	}
	other, err := tests.Status(ctx, stuck)
	if err != nil || other.PairsDone != 0 || len(other.Leases) != 0 || other.State != TestOpen {
		t.Errorf("the test the worker cannot play: %+v, %v; want it open, its pair given back", other, err)
	}
}

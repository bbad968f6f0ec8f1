package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/hivegametest"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate"
)

// benchGames is how many games the bot holds at once.
const benchGames = 50

// BenchmarkBotOverhead has one bot account hold benchGames games at once
// against the stand-in, whose other sides play random moves at once, with
// an engine that answers at once, so that what a move costs is the bot's
// own: reading the game, planning, posting, following the answer, and
// the stand-in's serving of it (one request at a time under its lock).
// Each iteration is one move of the bot's. It reports the overhead per
// move (a move's time from seeing the turn to the site taking it, less
// the engine's) at the median and the 99th percentile, the same less the
// post's round trip to the stand-in (own-), and the heap after a
// collection while the games go on.
//
//	go test -run '^$' -bench BotOverhead -benchtime 3000x ./translate/bot
func BenchmarkBotOverhead(b *testing.B) {
	site := hivegametest.New(hivegametest.Options{})
	h := httptest.NewServer(site.Handler())
	defer h.Close()
	defer site.Close()
	site.AddUser("benchbot", "benchbot@example.org", "secret", true)
	humans := make([]string, benchGames)
	for i := range humans {
		humans[i] = fmt.Sprintf("human%02d", i)
		site.AddUser(humans[i], humans[i]+"@example.org", "secret", false)
	}

	var mu sync.Mutex
	// overheads are each move's time but the thinking; own the part of
	// it that is not the post's round trip either.
	var overheads, own []time.Duration
	enough := make(chan struct{})
	cfg := Config{
		Accounts: []Account{{
			Name: "benchbot", Site: h.URL, Credentials: hivegame.Credentials{Email: "benchbot@example.org", Password: "secret"},
			// More than a second, so that an engine that is not
			// interruptible is asked; it answers at once.
			MoveTime: 2 * time.Second, Policy: Policy{MaxGames: benchGames},
		}},
		PollInterval: 100 * time.Millisecond, SweepInterval: time.Second,
	}
	bot, err := New(cfg, Deps{
		Log:      zerolog.Nop(),
		Registry: prometheus.NewRegistry(),
		Open:     func(context.Context, string, translate.Config) (translate.Engine, error) { return &instant{}, nil },
		OnMove: func(r MoveReport) {
			mu.Lock()
			defer mu.Unlock()
			overheads = append(overheads, r.Used-r.Think)
			own = append(own, r.Used-r.Think-r.Post)
			if len(overheads) == b.N {
				close(enough)
			}
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		bot.Run(ctx)
		close(done)
	}()
	people := make(chan struct{})
	go func() {
		defer close(people)
		playPeople(ctx, site, humans)
	}()

	b.ResetTimer()
	start := time.Now()
	var heap runtime.MemStats
	select {
	case <-enough:
	case <-time.After(time.Minute):
		b.Fatalf("only %d moves in a minute", len(overheads))
	}
	elapsed := time.Since(start)
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&heap)
	goroutines := runtime.NumGoroutine()
	cancel()
	<-done
	<-people

	mu.Lock()
	defer mu.Unlock()
	slices.Sort(overheads)
	slices.Sort(own)
	at := func(d []time.Duration, q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Microseconds()) }
	b.ReportMetric(at(overheads, 0.5), "p50-µs/move")
	b.ReportMetric(at(overheads, 0.99), "p99-µs/move")
	b.ReportMetric(at(own, 0.5), "own-p50-µs/move")
	b.ReportMetric(at(own, 0.99), "own-p99-µs/move")
	b.ReportMetric(float64(len(overheads))/elapsed.Seconds(), "moves/s")
	b.ReportMetric(float64(heap.HeapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(heap.Sys)/(1<<20), "sys-MiB")
	b.ReportMetric(float64(goroutines), "goroutines")
}

// playPeople keeps each person in a game with the bot, challenging it
// again when a game ends, and plays a random move wherever one is to move.
// Each game is followed move by move, as the bot follows its own.
func playPeople(ctx context.Context, site *hivegametest.Server, humans []string) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, len(humans))
	games := make([]*gameState, len(humans))
	for ctx.Err() == nil {
		for i, name := range humans {
			g, ok := site.Game(ids[i])
			if !ok && ids[i] != "" {
				continue // not yet accepted
			}
			if ids[i] == "" || g.Finished {
				ids[i], _ = site.Challenge(name, "benchbot", hivegametest.ChallengeSpec{GameType: core.Base})
				games[i] = &gameState{game: newCoreGame(core.Base)}
				continue
			}
			if g.CurrentPlayer != name {
				continue
			}
			entries, err := hivegame.ParseHistory(g.History)
			if err != nil || games[i].follow(ctx, entries) != nil {
				continue
			}
			var l core.MoveList
			games[i].game.GenerateMoves(&l)
			if m := l.At(rng.IntN(l.Len())); m != core.Pass {
				if text, err := siteText(m, games[i].game); err == nil {
					site.PlayAs(name, g.Nanoid, text)
				}
			}
		}
		// Not too often: the stand-in serves one call at a time, and
		// the bot's requests would wait behind the people's.
		time.Sleep(5 * time.Millisecond)
	}
}

// instant is an engine that answers at once with its game's first legal
// move, so that a benchmark measures everything but thinking.
type instant struct{ g *core.Game }

func (e *instant) Info() engine.Info {
	return engine.Info{ID: "instant", Expansions: core.AllExpansions}
}
func (e *instant) Options() []*engine.Option { return nil }
func (e *instant) NewGame(_ context.Context, g *core.Game) error {
	e.g = g.Clone()
	return nil
}
func (e *instant) Play(_ context.Context, m core.Move) error { return e.g.PlayChecked(m) }
func (e *instant) Undo(_ context.Context, n int) error {
	for range n {
		e.g.Undo()
	}
	return nil
}
func (e *instant) BestMove(context.Context, engine.Limit, func(engine.Progress)) (core.Move, error) {
	var l core.MoveList
	e.g.GenerateMoves(&l)
	return l.At(0), nil
}
func (e *instant) Forget(context.Context) error { return nil }
func (e *instant) Close() error                 { return nil }

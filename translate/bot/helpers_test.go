package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/hivegametest"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// The test binary is also the fake engines' (internal/fakeengine).
func TestMain(m *testing.M) { fakeengine.Main(m) }

// world is a stand-in hivegame.com with a clock the test may move on.
type world struct {
	t    *testing.T
	site *hivegametest.Server
	url  string
	skew atomic.Int64 // how far the site's clock is ahead of the real one
}

func newWorld(t *testing.T, lifetime time.Duration) *world {
	t.Helper()
	w := &world{t: t}
	w.site = hivegametest.New(hivegametest.Options{Now: w.now, TokenLifetime: lifetime})
	h := httptest.NewServer(w.site.Handler())
	t.Cleanup(func() {
		w.site.Close()
		h.Close()
	})
	w.url = h.URL
	return w
}

// now is the site's clock.
func (w *world) now() time.Time { return time.Now().Add(time.Duration(w.skew.Load())) }

// advance moves the site's clock on by d.
func (w *world) advance(d time.Duration) { w.skew.Add(int64(d)) }

// account makes a bot account at the site and its configuration: native
// at depth 1, quick.
func (w *world) account(name string) Account {
	email := name + "@example.org"
	w.site.AddUser(name, email, "secret-"+name, true)
	return Account{
		Name: name, Site: w.url,
		Credentials: hivegame.Credentials{Email: email, Password: "secret-" + name},
		Depth:       1, MoveTime: time.Second,
		Policy: Policy{MaxGames: 4},
	}
}

// ongoing lists a bot account's games going on, as the site's API does.
func (w *world) ongoing(name string) []hivegame.Game {
	w.t.Helper()
	c, err := hivegame.NewClient(w.url, hivegame.Credentials{Email: name + "@example.org", Password: "secret-" + name}, nil, w.now)
	if err != nil {
		w.t.Fatal(err)
	}
	games, err := c.Ongoing(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return games
}

// human makes a human account.
func (w *world) human(name string) {
	w.site.AddUser(name, name+"@example.org", "secret-"+name, false)
}

// fastConfig polls often and waits little, for tests.
func fastConfig(accounts ...Account) Config {
	return Config{
		Accounts:     accounts,
		PollInterval: 20 * time.Millisecond, SweepInterval: 150 * time.Millisecond,
		MaxBackoff: 300 * time.Millisecond, RequestTimeout: 2 * time.Second,
		NetworkMargin: 200 * time.Millisecond, FallbackTime: 50 * time.Millisecond,
		Timeouts: fakeengine.Timeouts(),
	}
}

// running is a bot playing until stopped.
type running struct {
	stop func() // cancels Run and waits for it
	reg  *prometheus.Registry
}

// start runs a bot of cfg until the test ends or stop is called; Run must
// return nil within a few seconds of being stopped.
func (w *world) start(cfg Config, deps Deps) *running {
	w.t.Helper()
	reg := prometheus.NewRegistry()
	deps.Registry = reg
	deps.Log = zerolog.New(zerolog.NewTestWriter(w.t)).Level(zerolog.WarnLevel)
	b, err := New(cfg, deps)
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					w.t.Errorf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				w.t.Errorf("Run did not return within 10s of its context ending")
			}
		})
	}
	w.t.Cleanup(stop)
	return &running{stop: stop, reg: reg}
}

// challenge has from challenge to and returns the challenge's id.
func (w *world) challenge(from, to string, spec hivegametest.ChallengeSpec) string {
	w.t.Helper()
	id, err := w.site.Challenge(from, to, spec)
	if err != nil {
		w.t.Fatal(err)
	}
	return id
}

// waitFor waits until cond holds, failing the test after timeout.
func (w *world) waitFor(what string, timeout time.Duration, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			w.t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// game is the game's snapshot; the test fails if there is none.
func (w *world) game(id string) hivegametest.GameSnapshot {
	w.t.Helper()
	g, ok := w.site.Game(id)
	if !ok {
		w.t.Fatalf("no game %s", id)
	}
	return g
}

// waitGame waits for the game of a challenge to exist.
func (w *world) waitGame(id string) {
	w.t.Helper()
	w.waitFor("game "+id+" to start", 5*time.Second, func() bool {
		_, ok := w.site.Game(id)
		return ok
	})
}

// finishOrResign waits until the game is over, or has reached plies plies,
// in which case loser resigns it; it returns the final snapshot.
func (w *world) finishOrResign(id string, plies int, loser string, timeout time.Duration) hivegametest.GameSnapshot {
	w.t.Helper()
	w.waitFor("game "+id+" to end or reach its ply cap", timeout, func() bool {
		g := w.game(id)
		return g.Finished || g.Turn >= plies
	})
	if g := w.game(id); !g.Finished {
		// The resignation may race a move of the bot's: try until one
		// takes.
		w.waitFor(loser+" to resign "+id, 5*time.Second, func() bool {
			return w.site.Resign(loser, id) == nil || w.game(id).Finished
		})
	}
	return w.game(id)
}

// playHuman plays username's side of a game of type t with random legal
// moves (from seed), as a person on the site's web page, until the game
// ends or the test does.
func (w *world) playHuman(username, id string, t core.GameType, seed uint64) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	w.t.Cleanup(func() {
		cancel()
		<-done
	})
	rng := rand.New(rand.NewPCG(seed, 1))
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			time.Sleep(2 * time.Millisecond)
			g, ok := w.site.Game(id)
			if !ok || g.Finished {
				return
			}
			if g.CurrentPlayer != username {
				continue
			}
			text, err := randomSiteMove(g, t, rng)
			if err != nil {
				w.t.Errorf("human %s in %s: %v", username, id, err)
				return
			}
			w.site.PlayAs(username, id, text) // refused if the game moved on meanwhile: tried again
		}
	}()
}

// humanMove waits for username's turn in a game of type t and plays a
// random legal move there.
func (w *world) humanMove(username, id string, t core.GameType, rng *rand.Rand) {
	w.t.Helper()
	w.waitFor(username+"'s turn in "+id, 10*time.Second, func() bool {
		g := w.game(id)
		return g.Finished || g.CurrentPlayer == username
	})
	g := w.game(id)
	if g.Finished {
		w.t.Fatalf("game over: %+v", g)
	}
	text, err := randomSiteMove(g, t, rng)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.site.PlayAs(username, id, text); err != nil {
		w.t.Fatal(err)
	}
}

// randomSiteMove is a random legal move of the game, as the site reads one.
func randomSiteMove(snap hivegametest.GameSnapshot, t core.GameType, rng *rand.Rand) (string, error) {
	g, err := replay(snap, t)
	if err != nil {
		return "", err
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	var moves []core.Move
	for i := range l.Len() {
		if l.At(i) != core.Pass {
			moves = append(moves, l.At(i))
		}
	}
	if len(moves) == 0 {
		return "", errors.New("no move but a pass")
	}
	return siteText(moves[rng.IntN(len(moves))], g)
}

// replay is a snapshot's game of type t, replayed by the rules.
func replay(snap hivegametest.GameSnapshot, t core.GameType) (*core.Game, error) {
	entries, err := hivegame.ParseHistory(snap.History)
	if err != nil {
		return nil, err
	}
	gs := &gameState{game: newCoreGame(t)}
	if err := gs.follow(context.Background(), entries); err != nil {
		return nil, err
	}
	return gs.game, nil
}

// botPlays counts the moves of the game's history played by the side of
// username.
func botPlays(snap hivegametest.GameSnapshot, username string) int {
	entries, _ := hivegame.ParseHistory(snap.History)
	side := 0
	if snap.Black == username {
		side = 1
	}
	n := 0
	for i, e := range entries {
		if i%2 == side && !e.Pass {
			n++
		}
	}
	return n
}

// metric is the value of a counter or gauge, or the count of a histogram,
// with the given labels (those not given match any, and are summed).
func metric(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	next:
		for _, m := range f.GetMetric() {
			for k, v := range labels {
				found := false
				for _, l := range m.GetLabel() {
					found = found || l.GetName() == k && l.GetValue() == v
				}
				if !found {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				sum += m.Counter.GetValue()
			case m.Gauge != nil:
				sum += m.Gauge.GetValue()
			case m.Histogram != nil:
				sum += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return sum
}

// newArchive is a SQLite archive in the test's folder and its keeper;
// closeArchive closes both and returns the store's games.
func newArchive(t *testing.T) (*archive.Keeper, func() []archive.Game) {
	t.Helper()
	ctx := context.Background()
	store, err := archive.Open(ctx, filepath.Join(t.TempDir(), "games.db"), "bot")
	if err != nil {
		t.Fatal(err)
	}
	k := archive.NewKeeper(store, archive.KeeperConfig{})
	closed := false
	t.Cleanup(func() {
		if !closed {
			k.Close()
			store.Close()
		}
	})
	return k, func() []archive.Game {
		k.Close()
		defer store.Close()
		closed = true
		games, _, err := store.List(ctx, archive.Filter{PerPage: 100})
		if err != nil {
			t.Fatal(err)
		}
		return games
	}
}

// control tells flaky engines how to fail: mode is read at each search.
type control struct {
	mode atomic.Value // "", "fail", "hang" or "wait"
	// thinking is told (if it has room) when a search in mode "wait"
	// begins, which then waits for resume to be closed.
	thinking chan struct{}
	resume   chan struct{}
}

func newControl(mode string) *control {
	c := &control{thinking: make(chan struct{}, 1), resume: make(chan struct{})}
	c.mode.Store(mode)
	return c
}

// flaky is a native engine that fails as its control says.
type flaky struct {
	*translate.Native
	c *control
}

func (f flaky) BestMove(ctx context.Context, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	switch f.c.mode.Load() {
	case "fail":
		return core.NoMove, errors.New("the engine fell over")
	case "hang":
		time.Sleep(2 * time.Second) // deaf to ctx, as a hung process is
		return core.NoMove, errors.New("the engine hung")
	case "wait":
		select {
		case f.c.thinking <- struct{}{}:
		default:
		}
		<-f.c.resume
	}
	return f.Native.BestMove(ctx, limit, report)
}

// open opens flaky engines under c.
func (c *control) open(context.Context, string, translate.Config) (translate.Engine, error) {
	return flaky{Native: translate.NewNative(), c: c}, nil
}

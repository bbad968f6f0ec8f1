package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// Deps are what a Bot is given rather than makes: where it logs, counts
// and archives, how it reaches the site and opens engines, and its clock.
// The zero value of each is a working default.
type Deps struct {
	// Log receives structured logs, with the account and game of each.
	// Credentials never reach it.
	Log zerolog.Logger
	// Registry is where the bot's metrics are registered; nil keeps them
	// in a registry of the bot's own, which nothing serves.
	Registry prometheus.Registerer
	// Archive, if not nil, keeps every game the bot plays. Close it after
	// Run has returned.
	Archive *archive.Keeper
	// HTTPClient makes the requests to the site; nil is a client of the
	// bot's own that keeps a connection for each game at once.
	HTTPClient *http.Client
	// Now is the clock against which the site's clocks and tokens are read
	// (time.Now when nil); the bot's own deadlines run on the real clock.
	Now func() time.Time
	// Open opens a game's engine from an account's backend spec;
	// translate.Open when nil. A test passes engines of its own.
	Open func(ctx context.Context, spec string, cfg translate.Config) (translate.Engine, error)
	// OnMove, if not nil, is told of each move the site took from the bot,
	// from the goroutine of the game's turn.
	OnMove func(MoveReport)
}

// MoveReport is one move the bot played, and what it cost.
type MoveReport struct {
	Account, Game string
	// Ply is the move's index in the game's history, passes counted, as
	// the site's turn counts them.
	Ply int
	// Fallback is true when the native quick move was played because the
	// backend failed, missed its deadline or had too little time.
	Fallback bool
	// Given is the move's share of the clock; Used the time from seeing
	// the turn to the site taking the move; Think the part of Used spent
	// choosing the move (the backend's and the quick move's), Post the
	// part spent posting it and hearing the site's answer (and, were it
	// lost, reading the game).
	Given, Used, Think, Post time.Duration
}

// Bot plays games at hivegame.com (or a site speaking its bot API) for its
// accounts, each through its own backend.
type Bot struct {
	cfg      Config
	deps     Deps
	m        *metrics
	accounts []*account
	started  atomic.Bool
	// background are the goroutines that outlive a turn: an engine call
	// abandoned at its deadline, and the closing of engines. Run waits for
	// them.
	background sync.WaitGroup
}

// New checks cfg and makes a bot of it, with these defaults for the
// durations it leaves zero: PollInterval 1s, SweepInterval 10s,
// MaxBackoff 1m, RequestTimeout 10s, NetworkMargin 1s, FallbackTime
// 200ms; and for each account: the site hivegame.com, the native backend,
// MoveTime 10s, MaxGames 1. Nothing is sent to the site before Run.
func New(cfg Config, deps Deps) (*Bot, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if deps.Registry == nil {
		deps.Registry = prometheus.NewRegistry()
	}
	if deps.HTTPClient == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// A turn in flight in every game may post at once; the default
		// of two idle connections a host would open and close most of
		// them each time.
		t.MaxIdleConnsPerHost = 64
		deps.HTTPClient = &http.Client{Transport: t}
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Open == nil {
		deps.Open = translate.Open
	}
	b := &Bot{cfg: cfg, deps: deps, m: newMetrics(deps.Registry)}
	for _, ac := range cfg.Accounts {
		client, err := hivegame.NewClient(ac.Site, ac.Credentials, deps.HTTPClient, deps.Now)
		if err != nil {
			return nil, fmt.Errorf("bot: account %s: %w", ac.Name, err)
		}
		u, _ := url.Parse(ac.Site) // checked by cfg.check
		b.accounts = append(b.accounts, &account{
			b: b, cfg: ac, client: client,
			site:  strings.TrimSuffix(u.Host+u.Path, "/"),
			log:   deps.Log.With().Str("account", ac.Name).Logger(),
			names: map[string]string{}, games: map[string]*gameState{}, judged: map[string]bool{},
			done: make(chan *gameState),
		})
	}
	return b, nil
}

// Run plays until ctx ends, then stops every account's polling and every
// turn in flight, closes every engine and marks the games going on as
// interrupted in the archive (they go on at the site, and a bot started
// again takes them up where they stand), and returns nil. Run may be
// called once.
func (b *Bot) Run(ctx context.Context) error {
	if b.started.Swap(true) {
		return errors.New("bot: Run called twice")
	}
	var wg sync.WaitGroup
	for _, a := range b.accounts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.run(ctx)
		}()
	}
	wg.Wait()
	b.background.Wait()
	return nil
}

// Health is nil while every account polls the site successfully, or says
// which do not and why: not logged in yet, or their last poll failed.
func (b *Bot) Health() error {
	var problems []string
	for _, a := range b.accounts {
		if why := a.health(); why != "" {
			problems = append(problems, a.cfg.Name+": "+why)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New(strings.Join(problems, "; "))
}

// inBackground runs f in a goroutine Run waits for.
func (b *Bot) inBackground(f func()) {
	b.background.Add(1)
	go func() {
		defer b.background.Done()
		f()
	}()
}

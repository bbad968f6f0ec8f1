package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/bot"
	"github.com/hivebridge/hivebridge/translate/daemon"
)

// botSetup is what the bot command runs: the bot's configuration, and
// where it serves its metrics and keeps its games.
type botSetup struct {
	bot  bot.Config
	http string
	db   string
}

// botFlags are the bot command's flags: a configuration file, or one
// account's settings.
type botFlags struct {
	config       string
	name, site   string
	credentials  string
	backend      backendFlags
	moveTime     time.Duration
	depth        int
	maxGames     int
	gameTypes    []string
	timeControls []string
	rated        string
	allow        []string
	refuse       []string
	poll         time.Duration
	margin       time.Duration
	http         string
	db           string
}

// The environment variables that hold a single account's credentials
// when --credentials names no file.
const (
	emailVar    = "HIVEGAME_EMAIL"
	passwordVar = "HIVEGAME_PASSWORD"
)

// NewCmdBot returns the bot command: hivebridge playing at hivegame.com for
// bot accounts. runF runs it with the setup the flags give; nil runs the
// bot (runBot), and a test passes its own to check the flags without
// reaching the site.
func NewCmdBot(runF func(ctx context.Context, cmd *cobra.Command, setup botSetup) error) *cobra.Command {
	if runF == nil {
		runF = runBot
	}
	var f botFlags
	cmd := &cobra.Command{
		Use:   "bot (--config FILE | --name NAME [flags])",
		Short: "Play at hivegame.com for bot accounts, through any backend",
		Long: `Plays at hivegame.com, through its HTTP bot API, for one or more bot accounts
(a site admin marks an account a bot), each through its own backend: native
(the default), "uhp:<program> [args...]", "hub:<program> [args...]" or
hivejson://host:port. It accepts the challenges addressed to an account that
its policy allows (a challenge outside it is left alone), plays each of its
games with an engine of the game's own, and can issue challenges itself.

Each move gets its share of the clock the site says is left (a real-time
clock shared over 25 moves, plus most of the increment, a third of it at
most; a correspondence or untimed game --move-time), less a network margin.
A backend that fails, hangs or misses its deadline is replaced for that move
by a quick move of the native searcher, and started afresh for the next:
the bot does not lose on time for its own slowness. A UHP engine is told
whole seconds, so a move with less than a second is the native searcher's.
Every move is posted once: an answer lost is checked against the game
before anything is sent again. The games live at the site: stopped (SIGTERM,
SIGINT, or killed), the bot takes them up again where they stand when it
starts. A token is renewed before it expires, and again if the site refuses
it.

One account from flags:
  hivebridge bot --name mybot --credentials mybot.cred --backend 'uhp:nokamute uhp'
where mybot.cred holds the account's email (or username) on its first line
and its password on the second, or, without --credentials, the environment
holds them in $HIVEGAME_EMAIL and $HIVEGAME_PASSWORD. Credentials are never
taken from the command line, which every user of the machine can read, and
never logged.

Several accounts from a JSON file (--config); durations are Go's ("1.5s",
"10m"), and every setting but name and the credentials may be left out:
  {
    "poll_interval": "1s",       how often to ask for games to move in and challenges
    "sweep_interval": "10s",     how often to list all games (to see those that ended)
    "max_backoff": "1m",         the longest wait after failures (Retry-After is obeyed)
    "request_timeout": "10s",    the deadline of each request
    "network_margin": "1s",      kept off every clock for the network
    "fallback_time": "200ms",    kept off each move for the native quick move
    "accounts": [
      {
        "name": "mybot",
        "site": "https://hivegame.com",
        "credentials_file": "mybot.cred",
        "backend": "uhp:nokamute uhp",
        "engine_options": ["Threads=2"],
        "move_time": "10s",
        "depth": 0,
        "policy": {
          "game_types": ["Base", "Base+MLP"],
          "rated": "any",
          "time_controls": ["RealTime", "Correspondence", "Untimed"],
          "min_base": "1m", "max_base": "30m", "max_increment": "30s",
          "allow": [], "refuse": ["someone"],
          "max_games": 4
        },
        "challenge": {
          "opponent": "otherbot", "game_type": "Base+MLP", "rated": false,
          "time_control": {"RealTime": {"base": 10, "increment": 5}},
          "color": "Random", "open": 1, "total": 0
        }
      },
      {"name": "second", "email_env": "SECOND_EMAIL", "password_env": "SECOND_PASSWORD"}
    ]
  }
credentials_file is read from the configuration file's folder unless
absolute; email_env and password_env name environment variables instead.
The policy's empty lists accept anything; max_games is 1 unless set. The
challenge (time_control as the site's API spells it: "Untimed",
{"RealTime":{"base":MINUTES,"increment":SECONDS}} or
{"Correspondence":{"mode":"DaysPerMove"|"TotalTimeEach","days":N}}) is
issued whenever the account has none open and plays fewer than open games,
up to total in all (0: no limit).

--http ADDR serves /metrics (Prometheus: games, moves, errors by kind, time
used against time given, the site's latency) and /healthz (200 ok, 503 when
an account cannot poll the site); --db keeps every game in the archive, the
opponent named with the game's link ("someone (hivegame.com/game/NANOID)").
Logs are JSON lines on standard error.`,
		Example: `  HIVEGAME_EMAIL=mybot HIVEGAME_PASSWORD=... hivebridge bot --name mybot --game-type Base+MLP --max-games 3
  hivebridge bot --config bots.json --http :9090 --db ~/bots.db`,
		Args: cobra.NoArgs,
		RunE: serving(func(cmd *cobra.Command) (botSetup, error) { return f.setup(cmd) }, runF),
	}
	fl := cmd.Flags()
	fl.StringVar(&f.config, "config", "", "play for the accounts of this JSON file (see above) rather than one from flags")
	fl.StringVar(&f.name, "name", "", "the account's name in logs, metrics and the archive: its username on the site")
	fl.StringVar(&f.site, "site", bot.DefaultSite, "the site's address")
	fl.StringVar(&f.credentials, "credentials", "", "a file of the account's email (or username) and password, a line each; default $"+emailVar+" and $"+passwordVar)
	f.backend.register(cmd)
	fl.DurationVar(&f.moveTime, "move-time", 10*time.Second, "the most time a move may take, whatever the clock; each move's in an untimed or correspondence game")
	fl.IntVar(&f.depth, "depth", 0, "bound each search to this many plies too (0: by time only)")
	fl.IntVar(&f.maxGames, "max-games", 1, "the most games at once; challenges past it wait")
	fl.StringArrayVar(&f.gameTypes, "game-type", nil, "accept challenges of this game type, Base or Base+MLP (repeatable; default both)")
	fl.StringArrayVar(&f.timeControls, "time-control", nil, "accept challenges of this kind of clock, RealTime, Correspondence or Untimed (repeatable; default all)")
	fl.StringVar(&f.rated, "rated", "any", "accept rated games, casual ones, or any")
	fl.StringArrayVar(&f.allow, "allow", nil, "accept challenges from this username only (repeatable; default anyone)")
	fl.StringArrayVar(&f.refuse, "refuse", nil, "never accept challenges from this username (repeatable)")
	fl.DurationVar(&f.poll, "poll", time.Second, "how often to ask the site for games to move in and for challenges")
	fl.DurationVar(&f.margin, "margin", time.Second, "kept off every clock for the network")
	fl.StringVar(&f.http, "http", "", "serve /metrics and /healthz on this address")
	registerDB(cmd, &f.db)
	return cmd
}

// setup reads the configuration file, or builds one account from the
// flags with its credentials from the file or the environment.
func (f *botFlags) setup(cmd *cobra.Command) (botSetup, error) {
	s := botSetup{http: f.http, db: f.db}
	if f.config != "" {
		// The flags of a single account, which the file replaces.
		for _, name := range []string{"name", "site", "credentials", "backend", "engine-option", "move-time", "depth",
			"max-games", "game-type", "time-control", "rated", "allow", "refuse", "poll", "margin"} {
			if cmd.Flags().Changed(name) {
				return s, fmt.Errorf("--%s and --config exclude each other: the file sets every account", name)
			}
		}
		cfg, err := bot.LoadConfig(f.config, os.Getenv)
		if err != nil {
			return s, fmt.Errorf("--config: %w", err)
		}
		s.bot = cfg
		return s, nil
	}
	if f.name == "" {
		return s, errors.New("give --config FILE, or --name and the account's settings")
	}
	account := bot.Account{
		Name: f.name, Site: f.site, Backend: f.backend.spec, EngineOptions: f.backend.options,
		MoveTime: f.moveTime, Depth: f.depth,
		Policy: bot.Policy{GameTypes: f.gameTypes, Allow: f.allow, Refuse: f.refuse, MaxGames: f.maxGames},
	}
	var err error
	if f.credentials != "" {
		account.Credentials, err = bot.ReadCredentials(f.credentials)
	} else {
		account.Credentials, err = bot.CredentialsFromEnv(os.Getenv, emailVar, passwordVar)
	}
	if err != nil {
		return s, err
	}
	if account.Policy.Rated, err = bot.ParseRated(f.rated); err != nil {
		return s, fmt.Errorf("--rated: %w", err)
	}
	for _, tc := range f.timeControls {
		k, err := bot.ParseTimeKind(tc)
		if err != nil {
			return s, fmt.Errorf("--time-control: %w", err)
		}
		account.Policy.TimeKinds = append(account.Policy.TimeKinds, k)
	}
	s.bot = bot.Config{Accounts: []bot.Account{account}, PollInterval: f.poll, NetworkMargin: f.margin}
	return s, nil
}

// runBot plays until ctx ends, with the archive of --db and the metrics
// and health of --http.
func runBot(ctx context.Context, cmd *cobra.Command, s botSetup) error {
	log := logger(cmd)
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	deps := bot.Deps{Log: log, Registry: reg}
	store, err := archive.Open(ctx, s.db, "bot")
	if err != nil {
		return err
	}
	if store != nil {
		defer store.Close()
		deps.Archive = archive.NewKeeper(store, archive.KeeperConfig{Log: log})
		defer deps.Archive.Close()
	}
	b, err := bot.New(s.bot, deps)
	if err != nil {
		return err
	}
	if s.http != "" {
		l, err := net.Listen("tcp", daemon.Loopback(s.http))
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: botHTTP(b, deps.Archive, reg), ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(l)
		defer srv.Close()
		fmt.Fprintf(cmd.OutOrStdout(), "http listening on %s\n", l.Addr())
	}
	return b.Run(ctx)
}

// botHTTP serves /metrics and /healthz: 503 while an account cannot poll
// the site (it plays no game), "degraded" while the archive takes no
// writes (the games go on).
func botHTTP(b *bot.Bot, keeper *archive.Keeper, reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := b.Health(); err != nil {
			http.Error(w, "unhealthy: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if keeper != nil {
			if err := keeper.Health(r.Context()); err != nil {
				fmt.Fprintln(w, "degraded: "+err.Error())
				return
			}
		}
		fmt.Fprintln(w, "ok")
	})
	return mux
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/records"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// matchFlags are the match command's flags, kept in one value so that the
// command has no package-level state.
type matchFlags struct {
	white, black               string
	whiteOptions, blackOptions []string
	games                      int
	gameType                   string
	tc, whiteTC, blackTC       string
	openings                   string
	randomPlies                int
	seed                       uint64
	concurrency                int
	maxPlies                   int
	timeMargin                 time.Duration
	sprt                       string
	drawRule, resignRule       string
	disagreement               string
	out                        string
	pgn                        string
	db                         string
	resume                     bool
	engines                    []string // a tournament's entrants (--engine)
	format                     string
	whiteName, blackName       string
	test                       testFlags // a distributed test's (distributed.go)
}

// matchConfig is what the match command runs: the referee's configuration
// the flags give, and the flags themselves, which say where the games and
// the summary go and name the openings' file in the table.
type matchConfig struct {
	flags   matchFlags
	referee referee.Config
	// tournament, when not nil, is the tournament --engine asks for:
	// referee is then the match each of its pairings plays.
	tournament *referee.Tournament
}

// NewCmdMatch returns the match command: hivebridge as the referee of a
// match between two engines, each reached through any backend. runF runs
// it with the configuration the flags give; nil plays the match, archived
// (runArchivedMatch), and a test passes its own to check the flags without
// starting an engine or opening the archive.
func NewCmdMatch(runF func(cmd *cobra.Command, cfg matchConfig) error) *cobra.Command {
	if runF == nil {
		runF = runArchivedMatch
	}
	var f matchFlags
	cmd := &cobra.Command{
		Use:   "match --white SPEC --black SPEC [flags] | match --engine name=N,spec=S --engine ... [--format gauntlet|round-robin] [flags] | match --db postgres://... --status [ID]",
		Short: "Referee a match between two engines, or a tournament of several, and rate them",
		Long: `Plays a match between two engines, A (--white) and B (--black), each reached
through any backend spec (native, "uhp:<program> [args...]", ...). hivebridge
holds the canonical game: it asks the engine to move for its move, checks it,
and tells both engines.

Colours alternate: A is White in games 0, 2, 4... and B in games 1, 3, 5...;
games 2k and 2k+1 start from the same opening, so each opening is played from
both sides. Openings come from --openings FILE (one GameString a line; blank
lines, # comments and anything after a tab are skipped, so a --out file serves
as openings; or the games of a PGN, SGF or JSON lines file) or from --random-plies K random legal plies drawn from --seed (the
same seed gives the same openings on every machine and at any concurrency);
with neither, every game starts from the empty board.

Time controls (--tc for both engines, --white-tc and --black-tc for A and B
whichever colour each plays):
  depth=N      search N plies
  movetime=S   S seconds per move (fractions allowed)
  time=S+inc   a clock of S seconds per side, inc seconds added after each
               move; each move is given remaining/30 + inc (at most half the
               remaining time), and an engine whose clock runs out loses.

A UHP engine ("uhp:...") is told its time as UHP writes it, hh:mm:ss, in whole
seconds: with one, a movetime must be a whole number of seconds, and a clock's
first share must be a second or more (a clock of 30 s or more, or an
increment of 1 s or more); anything finer is refused before the match, as it
cannot be told fairly. On a clock, each share is told rounded down to whole
seconds, and as 1 s once it falls under a second (late on a clock without an
increment); the clock is charged the time the engine really took.

An engine that errs loses the game, with the reason recorded: one that crashes,
hangs past its time, answers with an illegal move or loses on time. An engine
that answers a command of hivebridge's with err or invalidmove may have been
sent what it cannot read: that game is void, not scored, and the match stops
there with the engine's answer, exiting non-zero. A game is
drawn by threefold repetition (the same board, by colour and bug of each piece
of each stack, with the same side to move, a third time) or when it reaches
--max-plies plies. Each game starts new engines (so --concurrency K runs K pairs
of engine processes).

A UHP engine states its own verdict of the game in the GameString of every
answer to play and newgame, and the referee hears it after every move. When an
engine says the game is over where the referee's rules say it goes on, or the
reverse (engines differ on repetition, for one), the game ends there as a rules
disagreement, never a forfeit, and no engine is asked for a move in a game it
has said is over. --disagreement scores such a game:
  draw      a draw (the default)
  void      no result: left out of the score, the Elo and the SPRT
  referee   the referee's rules decide: the result they give a game they end;
            in a game they say goes on, the engine that declared it over loses
            (a draw if both did).
Hub engines and JSON AI modules state no verdict, and native plays by the
referee's rules.

--resume goes on with a match an earlier run of the same command left in its
--out FILE (stopped by Ctrl-C, a crash or SIGKILL): FILE.json, written before
the first game, must hold the same settings (engines, options, time controls,
openings, rules; --games may grow); the games FILE holds are counted first and
not played again, a line the kill cut off is dropped, and the SPRT goes on from
where it stood.

A tournament: --engine name=NAME,spec=SPEC[,option=Name=Value...][,tc=TC]
once for each engine (two or more, in place of --white and --black), and
--format round-robin (each engine with each, the default) or gauntlet (the
first with each other), as cutechess-cli's -tournament. Each pairing plays a
match of --games games with the other flags' settings, its engines named by
NAME in the tables, --pgn and --db; the table gives each pairing's score and
Elo, then every engine's rating from one maximum-likelihood fit over all the
games (as games ratings fits the archive's). A tournament takes no --sprt or
--out.

--distributed (with --db postgres://...) makes the match a test kept in
PostgreSQL, its settings in a table and each game pair a row, played by
"hivebridge worker" processes on any number of machines: each claims a pair for
a lease it renews while it plays, a worker that dies loses its pair when its
lease runs out and another plays it again, and every pair counts once. The
command creates the test, plays no game itself, shows the progress until the
SPRT decides or every pair is done, then prints the table. Ctrl-C leaves the
test going on in the database: --test ID follows it again (a larger --games
gives it more games), and --status [ID] prints where a test stands (the latest
by default): the games, A's wins, draws and losses, the game pairs, Elo, the
LLR and its bounds, and each worker's games. --white-name and --black-name name
the engines (their specs by default): a worker's --engine NAME=SPEC plays one
with a spec of its own machine, and the archive names the players so.

--draw and --resign adjudicate games as cutechess-cli's -draw and -resign do,
on the scores the engines report with their moves (off by default): a draw once
both engines have scored within a margin of zero for some moves each, from a
move number on; a loss once the loser has scored itself lost by a margin and
the winner itself won by as much, each for some moves in a row (two-sided
always). Such a game ends "adjudicated", in the table, the PGN's Termination
and the archive.

Progress goes to standard error (a live bar on a terminal, a line per game
otherwise); the final table, from A's point of view, to standard output: wins,
losses and draws per colour, score, Elo difference with its 95% interval, and
likelihood of superiority, and the game pairs (the two games of an opening,
colours swapped) counted as fastchess counts them, with the Elo and normalized
Elo they give. --sprt elo0,elo1[,model] runs a sequential probability ratio
test (alpha = beta = 0.05) and stops the match once it accepts H0 (A is elo0
stronger) or H1 (A is elo1 stronger): by default the generalized SPRT on game
pairs in logistic Elo (fishtest's and fastchess's pentanomial model);
",normalized" tests normalized Elo on pairs, ",trinomial" logistic Elo on
single games. The trinomial LLR is reported beside the model's.

--out FILE writes one line per game as it finishes, tab-separated:
  GameString <TAB> result <TAB> reason <TAB> game=N <TAB> white=A|B <TAB> evals=E1;E2;...
(evals: for each move the engines played, score@depth as the engine that
played it reported it, the score in pieces from its side's view or W<n>/L<n>
for a forced win or loss in n plies, empty where it reported nothing; result is WhiteWins, BlackWins, Draw, or Void for a rules disagreement under
--disagreement void or a refusal of hivebridge's command; after a forfeit, an adjudication or a disagreement the
GameString's own state is the referee's verdict of the board as it was left),
and at the end FILE.json, a summary: the settings, A's results per colour,
score, Elo and its margin, LOS, the SPRT, how the games ended, the number of
forfeits and, apart, of rules disagreements with each one's verdicts and
position, and the wall time.`,
		Example: `  hivebridge match --white native --black 'uhp:mzinga-engine' --games 100 --tc movetime=1 --random-plies 4 --concurrency 4
  hivebridge match --white native --black native --white-tc depth=3 --black-tc depth=1 --games 200 --random-plies 4 --seed 1
  hivebridge match --white 'uhp:./new' --black 'uhp:./old' --games 10000 --tc time=60+1 --sprt 0,10 --out games.tsv
  hivebridge match --engine name=new,spec='uhp:./new' --engine name=nokamute,spec='uhp:nokamute uhp' --engine name=native,spec=native --format gauntlet --games 100 --tc movetime=0.5 --pgn gauntlet.pgn`,
		Args: func(cmd *cobra.Command, args []string) error {
			if f.test.status { // its argument is the test's id
				return cobra.MaximumNArgs(1)(cmd, args)
			}
			return cobra.NoArgs(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if handled, err := runTestView(cmd, &f, args); handled {
				return err
			}
			cfg, err := f.config(cmd)
			if err != nil {
				return err
			}
			t, err := f.tournament(cfg)
			if err != nil {
				return err
			}
			return runF(cmd, matchConfig{flags: f, referee: cfg, tournament: t})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.white, "white", "", "engine A's backend spec; A is White in the even-numbered games")
	fl.StringVar(&f.black, "black", "", "engine B's backend spec; B is White in the odd-numbered games")
	fl.StringArrayVar(&f.whiteOptions, "white-option", nil, "set an option of engine A, Name=Value (repeatable)")
	fl.StringArrayVar(&f.blackOptions, "black-option", nil, "set an option of engine B, Name=Value (repeatable)")
	fl.IntVar(&f.games, "games", 2, "the number of games")
	fl.StringVar(&f.gameType, "gametype", "Base", "the game type of random openings (Base, Base+M, Base+MLP...)")
	fl.StringVar(&f.tc, "tc", "movetime=1", "the time control of both engines: depth=N, movetime=S or time=S+inc")
	fl.StringVar(&f.whiteTC, "white-tc", "", "engine A's time control, replacing --tc")
	fl.StringVar(&f.blackTC, "black-tc", "", "engine B's time control, replacing --tc")
	fl.StringVar(&f.openings, "openings", "", "a file of openings: GameStrings one a line, or the games of a PGN, SGF or JSON lines file")
	fl.IntVar(&f.randomPlies, "random-plies", 0, "start each pair of games after this many random legal plies")
	fl.Uint64Var(&f.seed, "seed", 1, "the seed of the random openings")
	fl.IntVar(&f.concurrency, "concurrency", 1, "the number of games played at once")
	fl.IntVar(&f.maxPlies, "max-plies", referee.DefaultMaxPlies, "adjudicate a game a draw when it reaches this many plies")
	fl.DurationVar(&f.timeMargin, "time-margin", 0, "on a clock, let an engine answer this long past its time before it loses on time, the overrun still charged (cutechess-cli's and fastchess's timemargin), e.g. 50ms")
	fl.StringVar(&f.sprt, "sprt", "", "stop early by a sequential probability ratio test of elo0,elo1[,model] (e.g. 0,10): model logistic (Elo, on game pairs: the default), normalized (nElo, on game pairs) or trinomial (Elo, on single games)")
	fl.StringVar(&f.drawRule, "draw", "", "adjudicate a draw once both engines score within S hundredths of a piece of zero for M moves each from move N: movenumber=N,movecount=M,score=S (cutechess-cli's -draw)")
	fl.StringVar(&f.resignRule, "resign", "", "adjudicate a loss once the loser scores itself S hundredths of a piece or more below zero for M moves in a row and the winner, agreeing, itself as far above: movecount=M,score=S (cutechess-cli's -resign, two-sided)")
	fl.StringVar(&f.disagreement, "disagreement", "draw", "how to score a game ended by a rules disagreement: void, draw or referee")
	fl.StringVar(&f.pgn, "pgn", "", "append every game to this Hive PGN file as it ends: the engines, their time controls, the result, how it ended (Termination) and each engine move's score@depth and time (seconds) as a comment")
	fl.StringVar(&f.out, "out", "", "write every game to this file, a line each (GameString, result, reason, game, who was White, and evals=: each move's score@depth as its engine reported it), and a JSON summary to FILE.json")
	registerDB(cmd, &f.db)
	fl.BoolVar(&f.resume, "resume", false, "go on with the match an earlier run left in --out FILE (stopped by Ctrl-C, a crash or SIGKILL): the games it finished are counted, not played again, and the SPRT goes on from where it stood; the settings must be the same")
	fl.StringArrayVar(&f.engines, "engine", nil, "a tournament's engine, name=NAME,spec=SPEC[,option=Name=Value...][,tc=TC] (repeatable, two or more; in place of --white and --black)")
	fl.StringVar(&f.format, "format", "round-robin", "how a tournament pairs its engines: round-robin (each with each) or gauntlet (the first with each other)")
	fl.StringVar(&f.whiteName, "white-name", "", "engine A's name in the archive (and, in a distributed test, the name workers' --engine maps); default its spec in a distributed test, its id and spec otherwise")
	fl.StringVar(&f.blackName, "black-name", "", "engine B's name, as --white-name")
	f.test.register(cmd)
	return cmd
}

// tournament is the tournament --engine asks for, nil without one.
func (f *matchFlags) tournament(match referee.Config) (*referee.Tournament, error) {
	if len(f.engines) == 0 {
		return nil, nil
	}
	switch {
	case f.white != "" || f.black != "":
		return nil, errors.New("--engine makes a tournament: --white and --black name a match's two engines instead")
	case f.sprt != "":
		return nil, errors.New("--sprt tests two engines: a tournament (--engine) takes none")
	case f.out != "":
		return nil, errors.New("--out writes one match's games: a tournament's go to --pgn or --db")
	}
	t := &referee.Tournament{Match: match}
	var err error
	if t.Format, err = referee.ParseFormat(f.format); err != nil {
		return nil, fmt.Errorf("--format: %w", err)
	}
	for _, text := range f.engines {
		e, err := parseEntrant(text)
		if err != nil {
			return nil, fmt.Errorf("--engine %q: %w", text, err)
		}
		t.Entrants = append(t.Entrants, e)
	}
	if len(t.Entrants) < 2 {
		return nil, errors.New("--engine: a tournament needs two engines or more")
	}
	return t, nil
}

// parseEntrant reads one --engine: name=, spec=, option= (repeatable) and
// tc=, separated by commas, as cutechess-cli's -engine takes them.
func parseEntrant(s string) (referee.Entrant, error) {
	var e referee.Entrant
	for _, part := range strings.Split(s, ",") {
		key, value, ok := strings.Cut(part, "=")
		switch key = strings.TrimSpace(key); {
		case !ok:
			return e, fmt.Errorf("%q: want key=value", part)
		case key == "name":
			e.Name = value
		case key == "spec":
			e.Spec = value
		case key == "option":
			e.Options = append(e.Options, value)
		case key == "tc":
			tc, err := referee.ParseTimeControl(value)
			if err != nil {
				return e, err
			}
			e.TC = &tc
		default:
			return e, fmt.Errorf("unknown key %q: want name, spec, option or tc", key)
		}
	}
	if e.Name == "" || e.Spec == "" {
		return e, errors.New("name= and spec= are needed")
	}
	return e, nil
}

// config checks the flags and turns them into a match configuration.
func (f *matchFlags) config(cmd *cobra.Command) (referee.Config, error) {
	cfg := referee.Config{
		White: f.white, Black: f.black,
		WhiteOptions: f.whiteOptions, BlackOptions: f.blackOptions,
		WhiteName: f.whiteName, BlackName: f.blackName,
		Games: f.games, RandomPlies: f.randomPlies, Seed: f.seed,
		Concurrency: f.concurrency, MaxPlies: f.maxPlies, TimeMargin: f.timeMargin,
		Engine: translate.Config{Log: logger(cmd)},
	}
	if f.maxPlies < 1 {
		return cfg, fmt.Errorf("--max-plies must be at least 1, not %d", f.maxPlies)
	}
	if f.timeMargin < 0 {
		return cfg, fmt.Errorf("--time-margin must be 0 or more, not %s", f.timeMargin)
	}
	if f.resume && f.out == "" {
		return cfg, errors.New("--resume needs --out FILE, the games file an earlier run of this match wrote")
	}
	if (f.whiteName == "") != (f.blackName == "") {
		return cfg, errors.New("--white-name and --black-name name both engines, or neither")
	}
	if len(f.engines) == 0 && (f.white == "" || f.black == "") {
		return cfg, errors.New("--white and --black name the two engines of a match (or --engine, two or more, those of a tournament)")
	}
	var err error
	if cfg.Disagreement, err = referee.ParseDisagreementPolicy(f.disagreement); err != nil {
		return cfg, fmt.Errorf("--disagreement: %w", err)
	}
	if cfg.GameType, err = uhp.ParseGameType(f.gameType); err != nil {
		return cfg, fmt.Errorf("--gametype: %w", err)
	}
	if cfg.TC, err = referee.ParseTimeControl(f.tc); err != nil {
		return cfg, fmt.Errorf("--tc: %w", err)
	}
	for _, side := range []struct {
		flag, value string
		tc          **referee.TimeControl
	}{{"--white-tc", f.whiteTC, &cfg.WhiteTC}, {"--black-tc", f.blackTC, &cfg.BlackTC}} {
		if side.value == "" {
			continue
		}
		tc, err := referee.ParseTimeControl(side.value)
		if err != nil {
			return cfg, fmt.Errorf("%s: %w", side.flag, err)
		}
		*side.tc = &tc
	}
	if f.openings != "" {
		if cmd.Flags().Changed("random-plies") {
			return cfg, errors.New("--openings and --random-plies exclude each other")
		}
		if cmd.Flags().Changed("gametype") {
			return cfg, errors.New("--gametype applies to random openings: each GameString of --openings names its own")
		}
		var err error
		if cfg.Openings, err = readOpenings(f.openings); err != nil {
			return cfg, fmt.Errorf("--openings %s: %w", f.openings, err)
		}
	}
	if f.sprt != "" {
		t, err := referee.ParseSPRT(f.sprt)
		if err != nil {
			return cfg, fmt.Errorf("--sprt: %w", err)
		}
		cfg.SPRT = &t
	}
	if f.drawRule != "" {
		if cfg.Adjudication.Draw, err = referee.ParseDrawRule(f.drawRule); err != nil {
			return cfg, fmt.Errorf("--draw: %w", err)
		}
	}
	if f.resignRule != "" {
		if cfg.Adjudication.Resign, err = referee.ParseResignRule(f.resignRule); err != nil {
			return cfg, fmt.Errorf("--resign: %w", err)
		}
	}
	return cfg, nil
}

// runArchivedMatch opens the archive of --db, unless it is none, and plays
// the match with its games kept there.
func runArchivedMatch(cmd *cobra.Command, cfg matchConfig) error {
	if cfg.flags.test.distributed {
		return runDistributed(cmd, cfg)
	}
	store, err := archive.Open(cmd.Context(), cfg.flags.db, "match")
	if err != nil {
		return err
	}
	if store != nil {
		defer store.Close()
		cfg.referee.Archive = archive.NewKeeper(store, archive.KeeperConfig{Log: logger(cmd)})
		defer cfg.referee.Archive.Close()
	}
	if cfg.tournament != nil {
		cfg.tournament.Match = cfg.referee
		return runTournament(cmd, &cfg.flags, *cfg.tournament)
	}
	return runMatch(cmd, &cfg.flags, cfg.referee)
}

// runMatch plays the match, showing its progress, and prints the table.
// Interrupted, it still prints the table of the games finished.
func runMatch(cmd *cobra.Command, f *matchFlags, cfg referee.Config) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var games *bufio.Writer
	if f.out != "" {
		file, err := openGamesFile(f, &cfg)
		if err != nil {
			return err
		}
		defer file.Close()
		games = bufio.NewWriter(file)
	}
	pgn, err := openPGNLog(f.pgn)
	if err != nil {
		return err
	}
	defer pgn.close()
	bar := newProgressView(cmd.ErrOrStderr())
	cfg.OnMove = bar.thought
	res, runErr := referee.Run(ctx, cfg, func(p referee.Progress) {
		bar.show(p)
		if games != nil {
			// Flushed game by game, so that a match cut short keeps
			// every finished game on disk.
			fmt.Fprintln(games, gameLine(p.Game))
			games.Flush()
		}
		pgn.add(cfg, p.Game)
	})
	if err := pgn.failed(); err != nil {
		return err
	}
	bar.done()
	if runErr != nil && len(res.Games) == 0 {
		return runErr
	}
	printTable(cmd.OutOrStdout(), f, cfg, res)
	if f.out != "" {
		if err := writeSummary(f.out+".json", f, cfg, res); err != nil {
			return err
		}
	}
	if runErr != nil {
		return fmt.Errorf("match stopped after %d games: %v", len(res.Games), runErr)
	}
	for _, g := range res.Games {
		if g.Ending == referee.ByRefusal {
			return fmt.Errorf("match stopped after %d games: %s", len(res.Games), res.Stopped)
		}
	}
	return nil
}

// readOpenings reads the openings of a file: GameStrings a line (with #
// comments and anything after a tab skipped, so that an --out file
// serves), or the games of a PGN, SGF or JSON lines file, each a position
// to start from.
func readOpenings(name string) ([]uhp.GameString, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if f, err := records.Detect(data); err != nil || f == records.GameString {
		return referee.ReadOpenings(bytes.NewReader(data))
	}
	recs, errs := records.Read(name, data)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var out []uhp.GameString
	for i, r := range recs {
		gs, err := r.UHP()
		if err == nil && (gs.State != uhp.InProgress && gs.State != uhp.NotStarted) {
			err = errors.New("the game is already over")
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		out = append(out, gs)
	}
	return out, nil
}

// pgnLog is the --pgn file a match or a tournament appends each game to as
// it ends; the first failure stops the appending, and is the command's
// error once the games are played.
type pgnLog struct {
	file *os.File
	err  error
}

// openPGNLog opens the --pgn file path for appending; nil for none.
func openPGNLog(path string) (*pgnLog, error) {
	if path == "" {
		return nil, nil
	}
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &pgnLog{file: file}, nil
}

// add appends game g of the match cfg.
func (l *pgnLog) add(cfg referee.Config, g referee.GameRecord) {
	if l != nil && l.err == nil {
		l.err = appendPGN(l.file, cfg, g)
	}
}

// failed is the first failure to append, as the command says it.
func (l *pgnLog) failed() error {
	if l == nil || l.err == nil {
		return nil
	}
	return fmt.Errorf("--pgn %s: %w", l.file.Name(), l.err)
}

func (l *pgnLog) close() {
	if l != nil {
		l.file.Close()
	}
}

// appendPGN appends a finished game to the --pgn file, a blank line
// before it when the file holds games already.
func appendPGN(file *os.File, cfg referee.Config, g referee.GameRecord) error {
	gs, err := uhp.ParseGameString(g.GameString)
	if err != nil {
		return err
	}
	r, err := records.New(gs.Type, gs.Moves)
	if err != nil {
		return err
	}
	white, black, whiteTC, blackTC := cfg.White, cfg.Black, cfg.TCOf(true), cfg.TCOf(false)
	if cfg.WhiteName != "" {
		white, black = cfg.WhiteName, cfg.BlackName
	}
	if !g.AWhite {
		white, black, whiteTC, blackTC = black, white, blackTC, whiteTC
	}
	r.White, r.Black, r.Event, r.Site = white, black, "hivebridge match", "hivebridge"
	r.Round, r.Date = strconv.Itoa(g.Index+1), time.Now().UTC().Format("2006.01.02")
	if !g.Void() {
		r.Result = g.Result.String()
	}
	r.Tags = []records.Tag{{Name: "WhiteTimeControl", Value: whiteTC.String()}, {Name: "BlackTimeControl", Value: blackTC.String()},
		{Name: "Termination", Value: resultName(g) + ": " + g.Reason}}
	r.Comments = make([]string, len(r.Moves))
	opening := len(r.Moves) - len(g.Evals)
	for i, e := range g.Evals {
		if i+opening >= 0 {
			r.Comments[i+opening] = pgnComment(e)
		}
	}
	var buf bytes.Buffer
	if info, err := file.Stat(); err == nil && info.Size() > 0 {
		buf.WriteString("\n")
	}
	if err := records.Write(&buf, records.PGN, r); err != nil {
		return err
	}
	_, err = file.Write(buf.Bytes())
	return err
}

// gameLine is one game of the --out file.
func gameLine(r referee.GameRecord) string {
	white := "B"
	if r.AWhite {
		white = "A"
	}
	reason := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(r.Reason)
	evals := make([]string, len(r.Evals))
	for i, e := range r.Evals {
		evals[i] = formatEval(e)
	}
	return fmt.Sprintf("%s\t%s\t%s\tgame=%d\twhite=%s\tevals=%s\tending=%s", r.GameString, resultName(r), reason, r.Index, white, strings.Join(evals, ";"), r.Ending)
}

// pgnComment is the --pgn file's comment on an engine's move: what the
// engine said of it (formatEval) and the seconds it took, to the
// millisecond, as cutechess and fastchess note a move's time.
func pgnComment(e referee.Eval) string {
	return strings.TrimSpace(formatEval(e) + " " + strconv.FormatFloat(e.Took.Seconds(), 'f', 3, 64) + "s")
}

// formatEval writes what an engine said of the move it played, for the
// evals= field of the --out file: the score from the mover's view in
// pieces with two decimals, or W<n>/L<n> for a forced win or loss in n
// plies (n 0 when the engine did not say how far), then @ and the depth;
// empty when the engine said nothing.
func formatEval(e referee.Eval) string {
	var score string
	switch e.Score.Kind {
	case engine.NoScore:
		if e.Depth == 0 {
			return ""
		}
		return "@" + strconv.Itoa(e.Depth)
	case engine.Win:
		score = "W" + strconv.Itoa(e.Score.Plies)
	case engine.Loss:
		score = "L" + strconv.Itoa(e.Score.Plies)
	default:
		score = strconv.FormatFloat(e.Score.Pieces(), 'f', 2, 64)
	}
	return score + "@" + strconv.Itoa(e.Depth)
}

// resultName names a finished game's result: WhiteWins, BlackWins, Draw, or
// Void for a game with none.
func resultName(r referee.GameRecord) string {
	if r.Void() {
		return "Void"
	}
	return r.Result.String()
}

// progressView shows the match's progress on standard error: a bar redrawn
// in place on a terminal, one line per game anywhere else (a log file or a
// pipe, where carriage returns would make a mess).
type progressView struct {
	mu       sync.Mutex // show and thought come from the games' goroutines
	w        io.Writer
	terminal bool
	drawn    bool
	last     referee.Progress
	shown    bool                   // last holds a progress
	thinking [2]*referee.MoveReport // the last move of engine A [0] and B [1]
}

func newProgressView(w io.Writer) *progressView {
	return &progressView{w: w, terminal: isTerminal(w)}
}

// isTerminal reports whether w is a terminal: a character device other
// than the null device, with a TERM that can move the cursor. A stat is
// enough for that and needs no dependency beyond the standard library.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return true
}

// thought records a move an engine played, and redraws the bar with it.
func (v *progressView) thought(r referee.MoveReport) {
	v.mu.Lock()
	defer v.mu.Unlock()
	side := 1
	if r.A {
		side = 0
	}
	v.thinking[side] = &r
	if v.terminal && v.shown {
		v.draw()
	}
}

// engines says each engine's last depth and score: "A d7 +0.45, B d6 W3".
func (v *progressView) engines() string {
	var parts []string
	for i, label := range []string{"A", "B"} {
		r := v.thinking[i]
		if r == nil || (r.Eval.Depth == 0 && r.Eval.Score.Kind == engine.NoScore) {
			continue
		}
		text := label
		if r.Eval.Depth > 0 {
			text += " d" + strconv.Itoa(r.Eval.Depth)
		}
		switch r.Eval.Score.Kind {
		case engine.Win:
			text += " W" + strconv.Itoa(r.Eval.Score.Plies)
		case engine.Loss:
			text += " L" + strconv.Itoa(r.Eval.Score.Plies)
		case engine.Eval:
			text += fmt.Sprintf(" %+.2f", r.Eval.Score.Pieces())
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, ", ")
}

func (v *progressView) show(p referee.Progress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.last, v.shown = p, true
	if v.terminal {
		v.draw()
		return
	}
	v.line()
}

// tally sums up the match so far: A's results, the Elo, the SPRT's
// log-likelihood ratio, and each engine's last depth and score.
func (v *progressView) tally() string {
	p := v.last
	t := p.Stats.Total
	elo, margin := t.Elo()
	tally := fmt.Sprintf("A +%d -%d =%d, Elo %s", t.Wins, t.Losses, t.Draws, formatElo(elo, margin))
	if p.SPRT != nil {
		tally += fmt.Sprintf(", LLR %.2f", p.SPRT.LLR)
	}
	if e := v.engines(); e != "" {
		tally += "; last " + e
	}
	return tally
}

// line writes the game just finished on a line of its own.
func (v *progressView) line() {
	p := v.last
	tally := v.tally()
	white := "B"
	if p.Game.AWhite {
		white = "A"
	}
	fmt.Fprintf(v.w, "game %d/%d (#%d, %s White): %s, %s, %d plies, %s; %s\n",
		p.Done, p.Total, p.Game.Index, white, resultName(p.Game), p.Game.Reason,
		p.Game.Plies, p.Game.Elapsed.Round(time.Millisecond), tally)
}

// draw redraws the bar in place, with each engine's last depth and score.
func (v *progressView) draw() {
	p := v.last
	tally := v.tally()
	const width = 30
	filled := width * p.Done / max(p.Total, 1)
	fmt.Fprintf(v.w, "\r\x1b[K[%s%s] %d/%d, %d playing; %s",
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.Done, p.Total, p.InFlight, tally)
	v.drawn = true
}

// done ends the bar's line, so that what follows starts on a fresh one.
func (v *progressView) done() {
	if v.drawn {
		fmt.Fprintln(v.w)
	}
}

// formatElo writes an Elo difference and its margin: "+147.2 ± 66.0",
// with inf for a score of 0 or 1 or an interval reaching one, and ? when
// the games say nothing of the interval.
func formatElo(diff, margin float64) string {
	d := fmt.Sprintf("%+.1f", diff)
	switch {
	case math.IsInf(diff, 0):
		d = map[bool]string{true: "+inf", false: "-inf"}[diff > 0]
	case math.IsNaN(diff):
		return "?" // no spread to measure by (normalized Elo of identical results)
	}
	switch {
	case math.IsNaN(margin):
		return d + " ± ?"
	case math.IsInf(margin, 0):
		return d + " ± inf"
	}
	return fmt.Sprintf("%s ± %.1f", d, margin)
}

// openingsText says where the openings came from.
func openingsText(f *matchFlags, cfg referee.Config) string {
	switch {
	case len(cfg.Openings) > 0:
		return fmt.Sprintf("%d from %s", len(cfg.Openings), f.openings)
	case cfg.RandomPlies > 0:
		return fmt.Sprintf("%d random plies from seed %d (%s)", cfg.RandomPlies, cfg.Seed, uhp.FormatGameType(cfg.GameType))
	}
	return "the empty board (" + uhp.FormatGameType(cfg.GameType) + ")"
}

// endingCounts counts the games by how they ended; the details of a
// forfeit (which differ from game to game) are cut at the first colon.
func endingCounts(games []referee.GameRecord) map[string]int {
	counts := map[string]int{}
	for _, g := range games {
		kind, _, _ := strings.Cut(g.Reason, ":")
		counts[kind]++
	}
	return counts
}

// endings lists how the games ended, the most frequent first.
func endings(games []referee.GameRecord) []string {
	counts := endingCounts(games)
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if counts[kinds[i]] != counts[kinds[j]] {
			return counts[kinds[i]] > counts[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return out
}

// printTable prints the match's result from engine A's point of view.
func printTable(w io.Writer, f *matchFlags, cfg referee.Config, res referee.Result) {
	fmt.Fprintf(w, "Match: A = %s [%s] vs B = %s [%s]\n", cfg.White, cfg.TCOf(true), cfg.Black, cfg.TCOf(false))
	fmt.Fprintf(w, "Openings: %s; move cap %d plies%s\n", openingsText(f, cfg), cfg.MaxPlies, marginText(cfg.TimeMargin))
	fmt.Fprintf(w, "Games: %d of %d, concurrency %d, wall time %s\n", len(res.Games), cfg.Games, cfg.Concurrency, res.Elapsed.Round(time.Millisecond))
	if res.Stopped != "" {
		fmt.Fprintf(w, "Stopped early: %s\n", res.Stopped)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-12s %6s %6s %6s %6s %8s\n", "", "games", "wins", "losses", "draws", "score")
	for _, row := range []struct {
		name string
		s    referee.Score
	}{{"A as White", res.Stats.AsWhite}, {"A as Black", res.Stats.AsBlack}, {"total", res.Stats.Total}} {
		score := "-"
		if row.s.Games() > 0 {
			score = fmt.Sprintf("%.1f%%", 100*row.s.Ratio())
		}
		fmt.Fprintf(w, "%-12s %6d %6d %6d %6d %8s\n", row.name, row.s.Games(), row.s.Wins, row.s.Losses, row.s.Draws, score)
	}
	fmt.Fprintln(w)
	t := res.Stats.Total
	elo, margin := t.Elo()
	fmt.Fprintf(w, "Score of A: %.1f/%d\n", t.Points(), t.Games())
	fmt.Fprintf(w, "Elo difference (A - B): %s (95%%)\n", formatElo(elo, margin))
	fmt.Fprintf(w, "LOS (A stronger): %.2f%%\n", 100*t.LOS())
	if pairs := res.Stats.Pairs; pairs.Pairs() > 0 {
		e := pairs.Estimate()
		los := "?"
		if !math.IsNaN(e.LOS) {
			los = fmt.Sprintf("%.2f%%", 100*e.LOS)
		}
		fmt.Fprintf(w, "Game pairs: %d, %s; Elo %s, nElo %s, LOS %s\n", pairs.Pairs(), pairs,
			formatElo(e.Elo, e.EloError), formatElo(e.NElo, e.NEloError), los)
	}
	if e := endings(res.Games); len(e) > 0 {
		fmt.Fprintf(w, "Endings: %s\n", strings.Join(e, ", "))
	}
	if o := overheadOf(res.Games); o.moves > 0 {
		fmt.Fprintf(w, "Referee overhead per move (charged to no clock): p50 %s, p99 %s, max %s over %d moves; time losses: %d\n",
			o.p50, o.p99, o.max, o.moves, o.timeLosses)
	}
	if forfeits, disagreements, refusals := countEndings(res.Games); forfeits+disagreements+refusals > 0 {
		how := map[referee.DisagreementPolicy]string{
			referee.DisagreementDraw:    "scored as draws",
			referee.DisagreementVoid:    "left out of the score",
			referee.DisagreementReferee: "scored by the referee's rules",
		}[cfg.Disagreement]
		fmt.Fprintf(w, "Forfeits: %d; rules disagreements: %d (--disagreement %s: %s)", forfeits, disagreements, cfg.Disagreement, how)
		if refusals > 0 {
			fmt.Fprintf(w, "; refusals of hivebridge's commands: %d (void)", refusals)
		}
		fmt.Fprintln(w)
	}
	if s := res.SPRT; s != nil {
		beside := ""
		if s.Test.Model != referee.SPRTTrinomial {
			beside = fmt.Sprintf(" (single games: %.2f)", s.Trinomial)
		}
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g (%s; alpha %g, beta %g): LLR %.2f%s, bounds [%.2f, %.2f]: %s\n",
			s.Test.Elo0, s.Test.Elo1, s.Test.Model.Describe(), s.Test.Alpha, s.Test.Beta, s.LLR, beside, s.Lower, s.Upper, s.Verdict)
	}
}

// overhead is the referee's own time between an engine's answer and the
// next engine's asking (referee.Eval.Overhead), over a match's moves, and
// the games lost on time: what says whether the referee, not the engines,
// made anyone lose on time (fastchess publishes the same two figures).
type overhead struct {
	p50, p99, max time.Duration
	moves         int
	timeLosses    int
}

func overheadOf(games []referee.GameRecord) overhead {
	var all []time.Duration
	var o overhead
	for _, g := range games {
		if g.Ending == referee.ByForfeit && strings.Contains(g.Reason, "loses on time") {
			o.timeLosses++
		}
		for _, e := range g.Evals {
			if e.Overhead > 0 {
				all = append(all, e.Overhead)
			}
		}
	}
	if len(all) == 0 {
		return o
	}
	slices.Sort(all)
	at := func(q float64) time.Duration {
		return all[min(len(all)-1, int(q*float64(len(all))))].Round(time.Microsecond)
	}
	o.p50, o.p99, o.max, o.moves = at(0.5), at(0.99), all[len(all)-1].Round(time.Microsecond), len(all)
	return o
}

// countEndings counts the games lost by an engine's failure and, apart,
// the games ended by a rules disagreement or by an engine's refusal of
// hivebridge's command, which are no engine's failure alone.
func countEndings(games []referee.GameRecord) (forfeits, disagreements, refusals int) {
	for _, g := range games {
		switch g.Ending {
		case referee.ByForfeit:
			forfeits++
		case referee.ByDisagreement:
			disagreements++
		case referee.ByRefusal:
			refusals++
		}
	}
	return forfeits, disagreements, refusals
}

// marginText says the time margin in a table's heading, if there is one.
func marginText(margin time.Duration) string {
	if margin == 0 {
		return ""
	}
	return "; time margin " + margin.String()
}

// summary is the JSON written next to the games file. Numbers that can be
// infinite or undefined are pointers, left out when they are.
type summary struct {
	Settings     matchSettings  `json:"settings"`
	White        string         `json:"white"`
	Black        string         `json:"black"`
	WhiteTC      string         `json:"white_tc"`
	BlackTC      string         `json:"black_tc"`
	Openings     string         `json:"openings"`
	MaxPlies     int            `json:"max_plies"`
	GamesPlanned int            `json:"games_planned"`
	GamesPlayed  int            `json:"games_played"`
	Concurrency  int            `json:"concurrency"`
	AsWhite      wld            `json:"a_as_white"`
	AsBlack      wld            `json:"a_as_black"`
	Total        wld            `json:"a_total"`
	Score        *float64       `json:"score,omitempty"`
	Elo          *float64       `json:"elo,omitempty"`
	EloMargin95  *float64       `json:"elo_margin95,omitempty"`
	LOS          float64        `json:"los"`
	Endings      map[string]int `json:"endings"`
	// Forfeits and RulesDisagreements count two kinds of ending apart:
	// an engine's failure, and a difference of rules that is nobody's.
	Forfeits           int                   `json:"forfeits"`
	RulesDisagreements int                   `json:"rules_disagreements"`
	Refusals           int                   `json:"refusals"` // void games: an engine refused hivebridge's command
	DisagreementPolicy string                `json:"disagreement_policy"`
	Disagreements      []disagreementSummary `json:"disagreements,omitempty"`
	Pairs              *pairsSummary         `json:"pairs,omitempty"`
	OverheadP50MS      float64               `json:"referee_overhead_p50_ms"`
	OverheadP99MS      float64               `json:"referee_overhead_p99_ms"`
	TimeLosses         int                   `json:"time_losses"`
	SPRT               *sprtSummary          `json:"sprt,omitempty"`
	Stopped            string                `json:"stopped,omitempty"`
	WallSeconds        float64               `json:"wall_seconds"`
	GamesFile          string                `json:"games_file"`
}

// disagreementSummary is one game ended by a rules disagreement: both
// verdicts and the position. An engine's verdict is null when its backend
// states none.
type disagreementSummary struct {
	Game        int     `json:"game"`
	Ply         int     `json:"ply"`
	Position    string  `json:"position"`
	Referee     string  `json:"referee"`
	WhiteEngine *string `json:"white_engine"`
	BlackEngine *string `json:"black_engine"`
	Result      string  `json:"result"` // as scored: WhiteWins, BlackWins, Draw or Void
}

func summarizeDisagreement(r referee.GameRecord) disagreementSummary {
	d := r.Disagree
	verdict := func(v referee.Verdict) *string {
		if !v.Stated {
			return nil
		}
		s := v.Result.String()
		return &s
	}
	return disagreementSummary{
		Game: r.Index, Ply: d.Ply, Position: r.GameString, Referee: d.Referee.String(),
		WhiteEngine: verdict(d.Engines[core.White]), BlackEngine: verdict(d.Engines[core.Black]),
		Result: resultName(r),
	}
}

type wld struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}

type sprtSummary struct {
	Elo0         float64 `json:"elo0"`
	Elo1         float64 `json:"elo1"`
	Alpha        float64 `json:"alpha"`
	Beta         float64 `json:"beta"`
	Model        string  `json:"model"` // logistic, normalized (game pairs) or trinomial
	LLR          float64 `json:"llr"`   // the model's, which decides
	TrinomialLLR float64 `json:"trinomial_llr"`
	Lower        float64 `json:"lower"`
	Upper        float64 `json:"upper"`
	Verdict      string  `json:"verdict"`
}

// pairsSummary is engine A's game pairs: the pentanomial counts (pairs
// that scored 0, ½, 1, 1½, 2), and the Elo and normalized Elo they give.
type pairsSummary struct {
	Pentanomial [5]int   `json:"pentanomial"`
	WL          int      `json:"wl"`
	DD          int      `json:"dd"`
	Elo         *float64 `json:"elo"`
	EloMargin95 *float64 `json:"elo_margin95"`
	NElo        *float64 `json:"nelo"`
	NEloMargin  *float64 `json:"nelo_margin95"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// writeSummary writes the match's JSON summary.
func writeSummary(path string, f *matchFlags, cfg referee.Config, res referee.Result) error {
	t := res.Stats.Total
	elo, margin := t.Elo()
	conv := func(s referee.Score) wld { return wld{s.Wins, s.Losses, s.Draws} }
	s := summary{
		Settings: settingsOf(f, cfg),
		White:    cfg.White, Black: cfg.Black,
		WhiteTC: cfg.TCOf(true).String(), BlackTC: cfg.TCOf(false).String(),
		Openings: openingsText(f, cfg), MaxPlies: cfg.MaxPlies,
		GamesPlanned: cfg.Games, GamesPlayed: len(res.Games), Concurrency: cfg.Concurrency,
		AsWhite: conv(res.Stats.AsWhite), AsBlack: conv(res.Stats.AsBlack), Total: conv(t),
		Score: finite(t.Ratio()), Elo: finite(elo), EloMargin95: finite(margin), LOS: t.LOS(),
		Endings: endingCounts(res.Games), Stopped: res.Stopped, WallSeconds: res.Elapsed.Seconds(),
		GamesFile: f.out,
	}
	s.Forfeits, s.RulesDisagreements, s.Refusals = countEndings(res.Games)
	o := overheadOf(res.Games)
	s.OverheadP50MS, s.OverheadP99MS, s.TimeLosses = o.p50.Seconds()*1000, o.p99.Seconds()*1000, o.timeLosses
	s.DisagreementPolicy = cfg.Disagreement.String()
	for _, g := range res.Games {
		if g.Disagree != nil {
			s.Disagreements = append(s.Disagreements, summarizeDisagreement(g))
		}
	}
	if r := res.SPRT; r != nil {
		s.SPRT = &sprtSummary{r.Test.Elo0, r.Test.Elo1, r.Test.Alpha, r.Test.Beta, r.Test.Model.String(), r.LLR, r.Trinomial, r.Lower, r.Upper, r.Verdict.String()}
	}
	if p := res.Stats.Pairs; p.Pairs() > 0 {
		e := p.Estimate()
		s.Pairs = &pairsSummary{p.Pentanomial(), p.WL, p.DD, finite(e.Elo), finite(e.EloError), finite(e.NElo), finite(e.NEloError)}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

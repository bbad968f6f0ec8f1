package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate/analysis"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/records"
)

// analyzeConfig is what analyze runs: a game from a file or the archive,
// the backend and its limit per position, and how to write the analysis.
type analyzeConfig struct {
	file    string // a record file, or "" for --game
	index   int    // which game of the file, from 1
	game    int64  // --game: an archived game's id
	db      string
	backend backendFlags
	limit   engine.Limit
	format  string // pgn, json or table
	fit     []string
}

// defaultAnalyzeDepth is analyze's depth without --depth or --time: a
// whole game in a few seconds on one core.
const defaultAnalyzeDepth = 6

// NewCmdAnalyze returns analyze: a game scored move by move. runF runs it
// with the configuration the flags give; nil analyses (runAnalyze), and a
// test passes its own to check the flags.
func NewCmdAnalyze(runF func(cmd *cobra.Command, cfg analyzeConfig) error) *cobra.Command {
	if runF == nil {
		runF = runAnalyze
	}
	var (
		cfg     analyzeConfig
		seconds float64
	)
	cmd := &cobra.Command{
		Use:   "analyze FILE|--game ID [--depth N|--time S] [--backend SPEC] [--format pgn|json|table]",
		Short: "Score a game move by move: the best moves, and each move's inaccuracies, mistakes and blunders",
		Long: `Scores every position of a game with a backend (the native searcher by
default, or any --backend), from the last position to the first, one engine
keeping what it learns from one position to the next: each move gets the
score of the position it leads to, from White's side, and, where the backend
would have played another, the best move with its score and line. Each move
is classed by what it lost in expected score against the best move, a score
turned into an expected score (1 a win, 0 a loss) by a curve fitted to the
native searcher's self-play games: best (the backend's own choice), good,
inaccuracy (a loss of 0.05 or more), mistake (0.10) or blunder (0.15), the
bounds lichess uses on its own curve. A summary gives each player's count
of each class and mean loss.

The game is the first of FILE (- is standard input; --index picks another),
in any format games convert reads, or --game ID of the archive (--db).

--format pgn writes the game as annotated PGN (each move's comment its
score@depth, class and loss, and the best move and line where it differs;
inaccuracies, mistakes and blunders marked with the NAGs $6, $2 and $4),
which games convert reads back; json the whole analysis; table (the default
on a terminal; pgn elsewhere) a table of the moves and the summary. On a
terminal a progress bar goes to standard error.

--fit FILE... fits the curve again to PGN files that match --pgn wrote (each
move's score as its engine reported it, and the game's result) and prints it.`,
		Example: `  hivebridge analyze game.pgn
  hivebridge analyze --game 42 --depth 8 --format pgn > annotated.pgn
  hivebridge analyze game.sgf --backend 'uhp:nokamute uhp' --time 1 --format json
  hivebridge analyze --fit selfplay.pgn`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(cfg.fit) > 0 {
				return runF(cmd, cfg)
			}
			switch {
			case len(args) == 1 && cmd.Flags().Changed("game"):
				return errors.New("give a FILE or --game ID, not both")
			case len(args) == 1:
				cfg.file = args[0]
			case !cmd.Flags().Changed("game"):
				return errors.New("give a FILE or --game ID")
			case cfg.game < 1:
				return fmt.Errorf("--game %d: want an archived game's id, from 1", cfg.game)
			}
			if cfg.index < 1 {
				return fmt.Errorf("--index %d: want a game's place in the file, from 1", cfg.index)
			}
			switch {
			case cmd.Flags().Changed("depth") && cmd.Flags().Changed("time"):
				return errors.New("give --depth or --time, not both")
			case cmd.Flags().Changed("time"):
				if !(seconds > 0) || seconds > 3600 {
					return fmt.Errorf("--time %g: want seconds a position, more than 0 and at most 3600", seconds)
				}
				cfg.limit = engine.Limit{Time: time.Duration(seconds * float64(time.Second))}
			default:
				if cfg.limit.Depth < 1 {
					return fmt.Errorf("--depth %d: want 1 or more", cfg.limit.Depth)
				}
			}
			if cfg.format == "" {
				cfg.format = "pgn"
				if isTerminal(cmd.OutOrStdout()) {
					cfg.format = "table"
				}
			}
			switch cfg.format {
			case "pgn", "json", "table":
			default:
				return fmt.Errorf("--format %q: want pgn, json or table", cfg.format)
			}
			return runF(cmd, cfg)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&cfg.game, "game", 0, "analyse this game of the archive (--db) rather than a file's")
	f.IntVar(&cfg.index, "index", 1, "which game of FILE, from 1")
	f.StringVar(&cfg.db, "db", "", dbFlagHelp)
	f.IntVar(&cfg.limit.Depth, "depth", defaultAnalyzeDepth, "search each position this many plies")
	f.Float64Var(&seconds, "time", 0, "search each position this many seconds (fractions allowed), in place of --depth")
	f.StringVar(&cfg.format, "format", "", "pgn (annotated), json, or table (the default on a terminal, pgn elsewhere)")
	f.StringSliceVar(&cfg.fit, "fit", nil, "fit the curve to these PGN files of match --pgn and print it, analysing nothing")
	cfg.backend.register(cmd)
	return cmd
}

// runAnalyze analyses the game of cfg and writes it.
func runAnalyze(cmd *cobra.Command, cfg analyzeConfig) error {
	if len(cfg.fit) > 0 {
		return runFit(cmd, cfg.fit)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rec, err := analyzedGame(cmd, cfg)
	if err != nil {
		return err
	}
	e, err := cfg.backend.open(ctx, cmd)
	if err != nil {
		return err
	}
	defer e.Close()
	bar := newAnalyzeBar(cmd.ErrOrStderr(), time.Now())
	a, err := analysis.Analyse(ctx, e, rec, analysis.Config{Limit: cfg.limit, Progress: func(done, total int) {
		bar.update(done, total, time.Now())
	}})
	bar.end()
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	switch cfg.format {
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(a)
	case "table":
		return writeAnalysisTable(out, a)
	}
	return records.Write(out, records.PGN, a.Record(rec))
}

// analyzedGame reads the game cfg names: the index-th of a file, or an
// archived game.
func analyzedGame(cmd *cobra.Command, cfg analyzeConfig) (records.Record, error) {
	if cfg.file == "" {
		store, err := archive.Open(cmd.Context(), cfg.db, archive.Reader)
		if err != nil {
			return records.Record{}, err
		}
		if store == nil {
			return records.Record{}, errors.New("--db none: there is no archive to read --game from")
		}
		defer store.Close()
		g, err := store.Get(cmd.Context(), cfg.game)
		if err != nil {
			return records.Record{}, err
		}
		return archive.RecordOf(g)
	}
	data, err := readRecordFile(cmd, cfg.file)
	if err != nil {
		return records.Record{}, err
	}
	recs, errs := records.Read(cfg.file, data)
	if len(recs) == 0 && len(errs) > 0 {
		return records.Record{}, errors.Join(errs...)
	}
	if cfg.index > len(recs) {
		return records.Record{}, fmt.Errorf("%s: --index %d, but the file holds %d valid games", cfg.file, cfg.index, len(recs))
	}
	return recs[cfg.index-1], nil
}

// runFit fits the curve to the games of files and prints it.
func runFit(cmd *cobra.Command, files []string) error {
	var all []records.Record
	for _, name := range files {
		data, err := readRecordFile(cmd, name)
		if err != nil {
			return err
		}
		recs, errs := records.Read(name, data)
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
		all = append(all, recs...)
	}
	samples := analysis.Samples(all)
	fit, err := analysis.Fit(samples)
	if err != nil {
		return fmt.Errorf("%d games, %d scored positions: %w", len(all), len(samples), err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d games: %s\n", len(all), fit)
	return nil
}

// writeAnalysisTable writes the analysis as a table of its moves, then
// each player's summary.
func writeAnalysisTable(w io.Writer, a *analysis.Analysis) error {
	fmt.Fprintf(w, "%s, %s vs %s, %s: %s", a.GameType, dash(a.White), dash(a.Black), dash(a.Result), a.Engine)
	if a.Depth > 0 {
		fmt.Fprintf(w, " at depth %d\n", a.Depth)
	} else {
		fmt.Fprintf(w, " for %gs a position\n", a.Time)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ply\tmove\tscore\tclass\tloss\tbest")
	for _, p := range a.Plies {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.3f", p.Ply, p.Move, dash(string(p.Score)), dash(string(p.Class)), p.Loss)
		if len(p.Line) > 0 { // else no last cell, which tabwriter would pad with spaces
			fmt.Fprintf(tw, "\t%s (%s)", p.Best, p.BestScore)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for c, p := range a.Players {
		counts := make([]string, 0, len(analysis.Classes()))
		for _, class := range analysis.Classes() {
			counts = append(counts, fmt.Sprintf("%d %s", p.Classes[class], class))
		}
		_, err := fmt.Fprintf(w, "%s (%s): %s; mean loss %.3f over %d moves\n", [2]string{"White", "Black"}[c], dash(p.Name),
			strings.Join(counts, ", "), p.MeanLoss, p.Classed)
		if err != nil {
			return err
		}
	}
	return nil
}

// analyzeBar shows analyze's progress on a terminal: a bar redrawn in
// place at most ten times a second, the positions searched and the time
// left. Elsewhere (a log, a pipe) it shows nothing, as the analysis is
// short and its output says it all.
type analyzeBar struct {
	out   io.Writer
	tty   bool
	start time.Time
	drawn time.Time
	shown bool
}

func newAnalyzeBar(out io.Writer, now time.Time) *analyzeBar {
	return &analyzeBar{out: out, tty: isTerminal(out), start: now}
}

// update draws the bar when it is time to, and always at the end.
func (b *analyzeBar) update(done, total int, now time.Time) {
	if !b.tty || (done < total && now.Sub(b.drawn) < 100*time.Millisecond) {
		return
	}
	b.drawn, b.shown = now, true
	share := float64(done) / float64(max(total, 1))
	const width = 30
	filled := int(share * width)
	left := ""
	if elapsed := now.Sub(b.start); share > 0 && share < 1 {
		left = fmt.Sprintf(", %s left", (time.Duration(float64(elapsed)/share) - elapsed).Round(time.Second))
	}
	fmt.Fprintf(b.out, "\r\x1b[K[%s%s] %3.0f%% %d/%d positions%s", strings.Repeat("=", filled), strings.Repeat(" ", width-filled),
		share*100, done, total, left)
}

// end ends the bar's line.
func (b *analyzeBar) end() {
	if b.shown {
		fmt.Fprintln(b.out)
	}
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai/dataset"
)

// trainDataConfig is what train data runs: the labelling of one match
// --out file into one data file.
type trainDataConfig struct {
	games    string
	out      string
	settings dataset.Settings
	workers  int
	every    int // games between progress lines
}

// NewCmdTrainData returns the train data command, which labels the quiet
// positions of self-play games with search scores (see package dataset).
// runF runs it with the configuration the flags give; nil labels
// (runTrainData), and a test passes its own to check the flags.
func NewCmdTrainData(runF func(cmd *cobra.Command, cfg trainDataConfig) error) *cobra.Command {
	if runF == nil {
		runF = runTrainData
	}
	cfg := trainDataConfig{settings: dataset.DefaultSettings()}
	cmd := &cobra.Command{
		Use:   "data [--out FILE] [--depth N] [--workers N] GAMES.tsv",
		Short: "Label the quiet positions of self-play games with search scores",
		Long: `Reads the finished games of a match --out file, chooses their quiet positions
and labels each with the score of a native search of --depth plies (from the
side to move's point of view, in the engine's units) and the game's result,
and appends them to --out (default: GAMES with .tsv replaced by .hbd), a file
of package ai/dataset's format: each game's moves once, and per position its
ply and score.

A position is kept from ply --skip on when it is not repeated in its game, no
Queen has five neighbours, the side to move has two moves or more, a search of
one ply stays within --margin of the static evaluation, the label search finds
no forced result, and its best move does not close in on an enemy Queen with
three neighbours or more (Hive's capture).

Resumable: run again with the same flags, it reads back the games --out holds
(dropping a record that a kill cut off) and labels the rest; a game whose moves
an earlier one played (the two games of a pair when one engine at one depth
plays itself) is labelled once. The file is the same whatever --workers and
however often the run was stopped. Ctrl-C stops it between records.`,
		Example: `  hivebridge train data --workers 2 games-0000.tsv
  hivebridge train data --depth 4 --out positions.hbd selfplay.tsv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.games = args[0]
			if cfg.out == "" {
				cfg.out = strings.TrimSuffix(cfg.games, ".tsv") + ".hbd"
			}
			if cfg.workers == 0 {
				cfg.workers = runtime.NumCPU()
			}
			if cfg.workers < 0 {
				return fmt.Errorf("--workers %d: want 1 or more, or 0 for one per core", cfg.workers)
			}
			if cfg.out == cfg.games {
				return errors.New("--out names the games file itself")
			}
			return runF(cmd, cfg)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&cfg.out, "out", "", "the data file to write or resume (default: GAMES.hbd)")
	fl.IntVar(&cfg.settings.Depth, "depth", cfg.settings.Depth, "the depth of the label search, in plies")
	fl.IntVar(&cfg.settings.HashMB, "hash", cfg.settings.HashMB, "the label search's transposition table, in MB (emptied before each position)")
	fl.IntVar(&cfg.settings.Skip, "skip", cfg.settings.Skip, "label no position before this ply")
	fl.IntVar(&cfg.settings.Margin, "margin", cfg.settings.Margin, "the largest move of the score a one-ply search may make from the static evaluation in a quiet position")
	fl.StringVar(&cfg.settings.Note, "note", "", "a note for the file's header (default: this build and the games file)")
	fl.IntVar(&cfg.workers, "workers", 1, "games labelled at once, each by its own searcher on one thread (0: one per core)")
	fl.IntVar(&cfg.every, "progress", 50, "print a progress line every N games")
	return cmd
}

// runTrainData labels the games of cfg.games into cfg.out, resuming it.
func runTrainData(cmd *cobra.Command, cfg trainDataConfig) error {
	if cfg.settings.Note == "" {
		cfg.settings.Note = buildNote(filepath.Base(cfg.games))
	}
	in, err := os.Open(cfg.games)
	if err != nil {
		return err
	}
	defer in.Close()
	w, done, err := dataset.Resume(cfg.out, cfg.settings)
	if err != nil {
		return err
	}
	log := cmd.ErrOrStderr()
	had := 0
	for _, g := range done {
		had += len(g.Samples)
	}
	fmt.Fprintf(log, "%s: %d games and %d positions already labelled; labelling %s at depth %d with %d worker(s)\n",
		cfg.out, len(done), had, cfg.games, cfg.settings.Depth, cfg.workers)
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	every := max(cfg.every, 1)
	st, err := dataset.LabelAll(ctx, dataset.Config{
		Settings: cfg.settings,
		Workers:  cfg.workers,
		Progress: func(s dataset.Stats) {
			if s.Games%every == 0 {
				progressLine(log, s, time.Since(start))
			}
		},
	}, dataset.NewMatchReader(in), w, done)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	progressLine(log, st, time.Since(start))
	fmt.Fprintf(log, "passed over: %d finished, %d repeated, %d opening, %d Queen with five neighbours, %d forced, %d swing, %d decided, %d attack\n",
		st.Over, st.Repeated, st.Opening, st.Queen, st.Forced, st.Swing, st.Decided, st.Attack)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopped: %d games written; run the same command again to go on", st.Games)
	}
	return err
}

// progressLine prints the counts of a labelling run so far.
func progressLine(w io.Writer, s dataset.Stats, took time.Duration) {
	rate := float64(s.Samples) / max(took.Seconds(), 1e-9)
	fmt.Fprintf(w, "%d games, %d of %d positions labelled, %s (%.1f positions/s)\n",
		s.Games, s.Samples, s.Positions, took.Round(time.Second), rate)
}

// buildNote says which build made a data file from which games, in at
// most the 255 bytes a header holds.
func buildNote(games string) string {
	rev := "unknown revision"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				rev = s.Value
			}
		}
	}
	note := "hivebridge train data, " + rev + ", from " + games
	if len(note) > 255 {
		note = note[:255]
	}
	return strings.ToValidUTF8(note, "")
}

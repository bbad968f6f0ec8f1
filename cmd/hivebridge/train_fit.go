package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai/dataset"
	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/ai/nnue/train"
	"github.com/hivebridge/hivebridge/core"
)

// trainFitConfig is what train fit runs: a fit of the learned evaluation
// to the positions of the games of files.
type trainFitConfig struct {
	files  []string // match --out files
	out    string   // the weights file
	plot   string   // the loss curve's SVG; "" for none
	depth  int      // the labelling search's depth
	skip   int
	epochs int
	batch  int
	rate   float64
	decay  float64
	lambda float64
	valid  float64
	seed   uint64
}

// NewCmdTrainFit returns train fit, which trains the learned evaluation
// (see package ai/nnue/train). runF runs it with the configuration the
// flags and arguments give; nil fits (runTrainFit), and a test passes its
// own to check the flags.
func NewCmdTrainFit(runF func(cmd *cobra.Command, cfg trainFitConfig) error) *cobra.Command {
	if runF == nil {
		runF = runTrainFit
	}
	var cfg trainFitConfig
	cmd := &cobra.Command{
		Use:   "fit --out FILE [--plot FILE.svg] [flags] DATA.hbd|GAMES.tsv...",
		Short: "Train the learned evaluation on labelled positions",
		Long: `Reads labelled positions from train data files (DATA.hbd, scored already)
and finished games from match --out files (GameString <TAB> result ...),
whose positions from ply --skip on it scores by a search of the native
searcher to --depth, and trains the learned evaluation (package ai/nnue) on them: the
target is --lambda times the search score through a sigmoid, whose scale is
fitted to the results first (as tune fits k), plus 1-lambda times the game's
result. A share (--valid) of the games, chosen by their first moves, is kept
aside to measure the fit; the epoch that measures best is quantised and
written to --out, the losses of every epoch drawn to --plot.

The weights the binary embeds (ai/nnue/default.nnue) are such a file;
docs/strength.md says how they were made. The hivebridge native engine
plays with them by default (its option Eval, nnue unless set to linear).

  hivebridge match --white native --black native --tc depth=2 \
    --openings testdata/openings-mlp.txt --games 600 --max-plies 300 --out selfplay.tsv
  hivebridge train fit --out ai/nnue/default.nnue --plot loss.svg selfplay.tsv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.files = args
			switch {
			case cfg.out == "":
				return errors.New("--out: the weights file to write is required")
			case cfg.lambda < 0 || cfg.lambda > 1:
				return fmt.Errorf("--lambda %g: want 0 to 1", cfg.lambda)
			case cfg.valid < 0 || cfg.valid >= 1:
				return fmt.Errorf("--valid %g: want at least 0 and below 1", cfg.valid)
			case cfg.depth < 1 || cfg.epochs < 1 || cfg.batch < 1 || cfg.rate <= 0 || cfg.decay <= 0:
				return errors.New("--depth, --epochs, --batch, --rate and --decay must be above zero")
			}
			return runF(cmd, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.out, "out", "", "write the quantised weights here")
	f.StringVar(&cfg.plot, "plot", "", "draw the training and validation losses per epoch here (SVG)")
	f.IntVar(&cfg.depth, "depth", 2, "the depth of the search that scores each position")
	f.IntVar(&cfg.skip, "skip", 4, "leave out the positions of each game's first N plies")
	f.IntVar(&cfg.epochs, "epochs", 30, "passes over the training positions")
	f.IntVar(&cfg.batch, "batch", 256, "positions per step of Adam")
	f.Float64Var(&cfg.rate, "rate", 2e-3, "Adam's learning rate at the first epoch")
	f.Float64Var(&cfg.decay, "decay", 0.92, "the learning rate's factor from one epoch to the next")
	f.Float64Var(&cfg.lambda, "lambda", 0.7, "the search score's weight in the target (the game result's is 1-lambda)")
	f.Float64Var(&cfg.valid, "valid", 0.1, "the share of games kept aside for validation")
	f.Uint64Var(&cfg.seed, "seed", 1, "the seed of the initial weights, the shuffles and the turns of the positions")
	return cmd
}

// isDataFile reports whether the file name is a train data file (package
// ai/dataset), by its first bytes; any other is read as a match file.
func isDataFile(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false // read as a match file, which says why it cannot be
	}
	defer f.Close()
	head := make([]byte, len(dataset.Magic))
	n, _ := io.ReadFull(f, head)
	return string(head[:n]) == dataset.Magic
}

// runTrainFit reads the games, labels and fits, and writes the weights and
// the plot, reporting its progress on standard error.
func runTrainFit(cmd *cobra.Command, cfg trainFitConfig) error {
	log := cmd.ErrOrStderr()
	var (
		games    []train.Game
		labelled []string // train data files, whose positions are scored already
	)
	for _, name := range cfg.files {
		if isDataFile(name) {
			labelled = append(labelled, name)
			continue
		}
		if _, err := readGames(name, func(g *core.Game, result core.Result) {
			games = append(games, train.Game{Game: g, Result: result})
		}); err != nil {
			return err
		}
	}
	if len(games) > 0 {
		fmt.Fprintf(log, "%d games; scoring their positions at depth %d\n", len(games), cfg.depth)
	}
	label := train.Label(games, cfg.depth, cfg.skip)
	seen := 0
	set, err := train.Collect(func(yield func(*core.Game, int, float64) bool) error {
		counted := func(g *core.Game, score int, result float64) bool {
			if seen++; seen%100000 == 0 {
				fmt.Fprintf(log, "%d positions read\n", seen)
			}
			return yield(g, score, result)
		}
		for _, name := range labelled {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			err = dataset.Read(f, counted)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		return label(counted)
	}, cfg.valid)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "%d training and %d validation positions (%d left out: finished, or a forced result)\n",
		len(set.Train), len(set.Valid), set.Skipped)
	res, err := train.Fit(set, train.Config{Epochs: cfg.epochs, BatchSize: cfg.batch, Rate: cfg.rate, Decay: cfg.decay,
		Lambda: cfg.lambda, Seed: cfg.seed, Log: log})
	if err != nil {
		return err
	}
	best := res.Epochs[res.Best]
	note := fmt.Sprintf("%s: %d training, %d validation positions (those of match files' %d games scored at depth %d from ply %d); k %.6f, lambda %g; epoch %d of %d: training loss %.6f, validation loss %.6f",
		strings.Join(cfg.files, " "), len(set.Train), len(set.Valid), len(games), cfg.depth, cfg.skip, res.K, cfg.lambda,
		res.Best+1, cfg.epochs, best.Train, best.Valid)
	fmt.Fprintln(log, note)
	w := res.Model.Quantise(res.K, note)
	if _, err := nnue.Parse(w.Marshal()); err != nil {
		return fmt.Errorf("the quantised weights do not read back: %w", err)
	}
	if err := os.WriteFile(cfg.out, w.Marshal(), 0o644); err != nil {
		return err
	}
	if cfg.plot == "" {
		return nil
	}
	f, err := os.Create(cfg.plot)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("nnue fit: %d positions, lambda %g, k %.5f", len(set.Train), cfg.lambda, res.K)
	if err := train.WriteSVG(f, res.Epochs, res.Best, title); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai/texel"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// tuneConfig is what the tune command runs: the fit of the weights to the
// games of files.
type tuneConfig struct {
	files  []string // match --out files
	out    string   // where the weights' source goes; "" for standard output
	skip   int
	passes int
	l2     float64
}

// NewCmdTune returns the tune command, which fits the native evaluation's
// weights to the results of games (see package texel). runF runs it with
// the configuration the flags and arguments give; nil fits (runTune), and a
// test passes its own to check the flags without reading a game.
func NewCmdTune(runF func(cmd *cobra.Command, cfg tuneConfig) error) *cobra.Command {
	if runF == nil {
		runF = runTune
	}
	var cfg tuneConfig
	cmd := &cobra.Command{
		Use:   "tune [--out FILE] [--skip N] [--passes N] GAMES.tsv...",
		Short: "Fit the native evaluation's weights to game results",
		Long: `Reads finished games from match --out files (GameString <TAB> result ...),
labels every position from ply --skip on with its game's result, and fits the
weights of the native evaluation to those labels (Texel's method: logistic of
the evaluation against the result, least squares, from the weights the engine
has now). Writes the weights as the Go source of ai/weights.go to --out
(standard output by default); rebuild to use them.

Self-play data is made deterministically (fixed openings, fixed depth, one
thread) by the commands below; docs/strength.md says which build made the
data of the weights in the repository.

  hivebridge match --white native --black native --tc depth=2 \
    --openings testdata/openings-mlp.txt --games 600 --max-plies 300 --out selfplay.tsv
  hivebridge tune --out ai/weights.go selfplay.tsv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.files = args
			return runF(cmd, cfg)
		},
	}
	cmd.Flags().StringVar(&cfg.out, "out", "", "write the weights' Go source here (default: standard output)")
	cmd.Flags().IntVar(&cfg.skip, "skip", 8, "leave out the positions of each game's first N plies (the opening)")
	cmd.Flags().IntVar(&cfg.passes, "passes", 500, "the passes of gradient descent over the positions")
	cmd.Flags().Float64Var(&cfg.l2, "l2", 5e-8, "the pull of each weight towards its present value (squared distance)")
	return cmd
}

// runTune fits the weights to the games of cfg.files and writes their
// source, reporting the fit's progress on standard error.
func runTune(cmd *cobra.Command, cfg tuneConfig) error {
	var samples []texel.Sample
	games := 0
	for _, name := range cfg.files {
		var err error
		var n int
		if samples, n, err = readSamples(samples, name, cfg.skip); err != nil {
			return err
		}
		games += n
	}
	if len(samples) == 0 {
		return fmt.Errorf("no positions to tune on in %s", strings.Join(cfg.files, ", "))
	}
	log := cmd.ErrOrStderr()
	w := texel.FromEngine()
	k := texel.FitK(samples, &w)
	before := texel.Error(samples, &w, k)
	fmt.Fprintf(log, "%d games, %d positions; k = %.6f, error %.6f\n", games, len(samples), k, before)
	texel.Fit(samples, &w, k, cfg.l2, cfg.passes, log)
	after := texel.Error(samples, &w, k)
	fmt.Fprintf(log, "error %.6f -> %.6f\n", before, after)
	var src bytes.Buffer
	note := fmt.Sprintf("Fitted to %d positions of %d games (%s), skip %d, l2 %g, %d passes: error %.6f -> %.6f.",
		len(samples), games, strings.Join(cfg.files, " "), cfg.skip, cfg.l2, cfg.passes, before, after)
	if err := texel.WriteGo(&src, &w, note); err != nil {
		return err
	}
	code, err := format.Source(src.Bytes())
	if err != nil {
		return err
	}
	if cfg.out == "" {
		_, err = cmd.OutOrStdout().Write(code)
		return err
	}
	return os.WriteFile(cfg.out, code, 0o644)
}

// readSamples appends the positions of the finished games of a match --out
// file and returns them with the number of games read.
func readSamples(dst []texel.Sample, name string, skip int) ([]texel.Sample, int, error) {
	n, err := readGames(name, func(g *core.Game, result core.Result) {
		dst = texel.Collect(dst, g, result, skip)
	})
	return dst, n, err
}

// readGames calls each with every game of a match --out file (GameString
// <TAB> result ...), finished as the file says, and returns how many it
// read.
func readGames(name string, each func(g *core.Game, result core.Result)) (int, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	games := 0
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		var result core.Result
		switch fields[1] {
		case "WhiteWins":
			result = core.WhiteWins
		case "BlackWins":
			result = core.BlackWins
		case "Draw":
			result = core.Draw
		default:
			return games, fmt.Errorf("%s:%d: result %q is none of WhiteWins, BlackWins, Draw", name, n, fields[1])
		}
		gs, err := uhp.ParseGameString(fields[0])
		if err != nil {
			return games, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		g, err := gs.Load()
		if err != nil {
			return games, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		each(g, result)
		games++
	}
	return games, sc.Err()
}

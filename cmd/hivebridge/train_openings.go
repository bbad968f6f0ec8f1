package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai/dataset"
)

// trainOpeningsConfig is what train openings runs.
type trainOpeningsConfig struct {
	from  string // an openings file
	out   string // "" for standard output
	plies int
	seed  uint64
}

// NewCmdTrainOpenings returns the train openings command, which makes the
// openings of self-play games for training data: each opening of a file
// followed by random plies. runF runs it with the configuration the flags
// give; nil writes them (runTrainOpenings).
func NewCmdTrainOpenings(runF func(cmd *cobra.Command, cfg trainOpeningsConfig) error) *cobra.Command {
	if runF == nil {
		runF = runTrainOpenings
	}
	var cfg trainOpeningsConfig
	cmd := &cobra.Command{
		Use:   "openings [--plies N] [--seed S] [--out FILE] OPENINGS",
		Short: "Extend openings by random plies, for self-play games that differ",
		Long: `Writes each opening of OPENINGS (a match --openings file: one GameString a
line) followed by --plies random legal moves drawn from --seed, one GameString a
line, for match --openings. A native engine at a fixed depth plays the same
game from the same opening every time; random plies make each opening new.
Opening k draws from its own stream of the seed, so a seed gives the same
openings on every machine. A line that would end the game is drawn again.`,
		Example: `  hivebridge train openings --plies 2 --seed 7 --out openings-0007.txt testdata/openings-mlp.txt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.from = args[0]
			if cfg.plies < 0 {
				return fmt.Errorf("--plies %d: want 0 or more", cfg.plies)
			}
			return runF(cmd, cfg)
		},
	}
	cmd.Flags().IntVar(&cfg.plies, "plies", 2, "the random plies added to each opening")
	cmd.Flags().Uint64Var(&cfg.seed, "seed", 1, "the seed of the random plies")
	cmd.Flags().StringVar(&cfg.out, "out", "", "write the openings here (default: standard output)")
	return cmd
}

// runTrainOpenings writes the extended openings of cfg.from.
func runTrainOpenings(cmd *cobra.Command, cfg trainOpeningsConfig) error {
	openings, err := readOpenings(cfg.from) // match --openings' reader: any record file

	if err != nil {
		return fmt.Errorf("%s: %w", cfg.from, err)
	}
	out, err := dataset.ExtendOpenings(openings, cfg.plies, cfg.seed)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.from, err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %d openings of %s, %d random plies from seed %d: hivebridge train openings\n", len(out), cfg.from, cfg.plies, cfg.seed)
	for _, gs := range out {
		fmt.Fprintln(&b, gs)
	}
	if cfg.out == "" {
		_, err = cmd.OutOrStdout().Write(b.Bytes())
		return err
	}
	// Written whole and renamed, so that a file of openings is never half
	// of one.
	tmp := cfg.out + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, cfg.out)
}

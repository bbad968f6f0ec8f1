package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai/dataset"
	"github.com/hivebridge/hivebridge/core"
)

// trainInfoConfig is what train info runs.
type trainInfoConfig struct {
	files []string
	total bool
}

// NewCmdTrainInfo returns the train info command, which says what data
// files hold. runF runs it with the configuration the flags give; nil reads
// the files (runTrainInfo).
func NewCmdTrainInfo(runF func(cmd *cobra.Command, cfg trainInfoConfig) error) *cobra.Command {
	if runF == nil {
		runF = runTrainInfo
	}
	var cfg trainInfoConfig
	cmd := &cobra.Command{
		Use:   "info [--total] FILE.hbd...",
		Short: "Say what training data files hold",
		Long: `Reads data files that train data wrote, checking every record and move, and
prints for each its settings (label depth, first ply, quiet margin, table size,
note), its games and their results, and its positions; --total prints one line
of totals instead. A file that a running train data is writing is read up to
its last complete record.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.files = args
			return runF(cmd, cfg)
		},
	}
	cmd.Flags().BoolVar(&cfg.total, "total", false, "print one line of totals over all the files")
	return cmd
}

// fileCounts are what one data file holds.
type fileCounts struct {
	games, positions            int
	whiteWins, blackWins, draws int
}

func (c *fileCounts) add(o fileCounts) {
	c.games += o.games
	c.positions += o.positions
	c.whiteWins += o.whiteWins
	c.blackWins += o.blackWins
	c.draws += o.draws
}

func (c fileCounts) String() string {
	return fmt.Sprintf("%d games (%d White wins, %d Black wins, %d draws), %d positions", c.games, c.whiteWins, c.blackWins, c.draws, c.positions)
}

// runTrainInfo prints what the files of cfg hold.
func runTrainInfo(cmd *cobra.Command, cfg trainInfoConfig) error {
	out := cmd.OutOrStdout()
	var total fileCounts
	for _, name := range cfg.files {
		s, c, err := countFile(name)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		total.add(c)
		if !cfg.total {
			fmt.Fprintf(out, "%s: %s; depth %d, first ply %d, margin %d, table %d MB; %s\n",
				name, c, s.Depth, s.Skip, s.Margin, s.HashMB, s.Note)
		}
	}
	if cfg.total {
		fmt.Fprintf(out, "%d files: %s\n", len(cfg.files), total)
	}
	return nil
}

// countFile reads a data file through, up to a record a writer has not
// finished.
func countFile(name string) (dataset.Settings, fileCounts, error) {
	var c fileCounts
	f, err := os.Open(name)
	if err != nil {
		return dataset.Settings{}, c, err
	}
	defer f.Close()
	r, err := dataset.NewReader(f)
	if err != nil {
		return dataset.Settings{}, c, err
	}
	for {
		g, err := r.Next()
		if err == io.EOF || errors.Is(err, dataset.ErrCut) {
			return r.Settings(), c, nil
		}
		if err != nil {
			return r.Settings(), c, err
		}
		c.games++
		c.positions += len(g.Samples)
		switch g.Result {
		case core.WhiteWins:
			c.whiteWins++
		case core.BlackWins:
			c.blackWins++
		default:
			c.draws++
		}
	}
}

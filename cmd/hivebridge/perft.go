package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// perftConfig is what the perft command runs: the count from a position
// to a depth, on a number of threads.
type perftConfig struct {
	game    *core.Game
	depth   int
	threads int
}

// NewCmdPerft returns the perft command, which counts the positions a
// move generator reaches: the standard check of its rules and its speed.
// runF runs it with the configuration the flags and the position give;
// nil counts (runPerft), and a test passes its own to check the flags
// without counting.
func NewCmdPerft(runF func(cmd *cobra.Command, cfg perftConfig) error) *cobra.Command {
	if runF == nil {
		runF = runPerft
	}
	var depth, threads int
	cmd := &cobra.Command{
		Use:   "perft [--depth N] [--threads N] [GameType|GameString]",
		Short: "Count the positions reached after 1 to N plies",
		Long: `Counts the positions reached after exactly 1, 2, ... N plies from a position
(by default the start of Base) and prints one line per depth:

    depth=D nodes=N ms=T nps=R

The position is a GameTypeString (Base+MLP) for the start of that game type,
or a whole GameString (quote it: it holds semicolons and spaces).`,
		Example: `  hivebridge perft --depth 6 Base+MLP
  hivebridge perft --depth 4 'Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if depth < 1 {
				return fmt.Errorf("--depth must be at least 1, not %d", depth)
			}
			if threads < 1 {
				return fmt.Errorf("--threads must be at least 1, not %d", threads)
			}
			g, err := startPosition(strings.Join(args, " "))
			if err != nil {
				return err
			}
			return runF(cmd, perftConfig{game: g, depth: depth, threads: threads})
		},
	}
	cmd.Flags().IntVar(&depth, "depth", 5, "the deepest ply to count")
	cmd.Flags().IntVar(&threads, "threads", runtime.NumCPU(), "the number of threads that count")
	return cmd
}

// runPerft prints a line for each depth up to cfg.depth, stopping between
// depths once the command's context is done.
func runPerft(cmd *cobra.Command, cfg perftConfig) error {
	out := cmd.OutOrStdout()
	for d := 1; d <= cfg.depth; d++ {
		if err := cmd.Context().Err(); err != nil {
			return err
		}
		fmt.Fprintln(out, uhp.PerftLine(cfg.game, d, cfg.threads))
	}
	return nil
}

// startPosition reads the perft command's position: nothing for the start
// of Base, a GameTypeString, or a GameString.
func startPosition(arg string) (*core.Game, error) {
	if strings.TrimSpace(arg) == "" {
		return core.NewGame(core.Base), nil
	}
	if t, err := uhp.ParseGameType(arg); err == nil {
		return core.NewGame(t), nil
	}
	gs, err := uhp.ParseGameString(arg)
	if err != nil {
		if !strings.Contains(arg, ";") {
			return nil, fmt.Errorf("%q is neither a GameTypeString nor a GameString", arg)
		}
		return nil, err
	}
	return gs.Load()
}

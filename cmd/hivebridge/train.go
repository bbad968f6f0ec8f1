package main

import "github.com/spf13/cobra"

// NewCmdTrain returns the train command, the parent of the commands that
// make the learned evaluation (package ai/nnue): its data (train data,
// train openings, train info) and its fit (train fit), each given here as
// a subcommand.
func NewCmdTrain(subcommands ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Make the learned evaluation: its training data and its fit",
		Long: `The commands that make the native engine's learned evaluation, from self-play
games to a trained network. docs/strength.md ("Learned evaluation") gives the
whole pipeline and scripts/nnue-data.sh runs its data part.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(subcommands...)
	return cmd
}

package main

import "github.com/spf13/cobra"

// NewCmdTrain returns the train command group: the learned evaluation's
// data and fit (package ai/nnue), each a subcommand of its own.
func NewCmdTrain(subcommands ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Make the learned evaluation: its data and its fit",
	}
	cmd.AddCommand(subcommands...)
	return cmd
}

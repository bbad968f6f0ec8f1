package main

import "github.com/spf13/cobra"

// NewCmdRoot returns the hivebridge command with all its subcommands.
func NewCmdRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "hivebridge",
		Short:         "A bridge between Hive programs: UHP, Hub and Choose-Turn JSON, with a native engine",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(NewCmdPerft())
	return root
}

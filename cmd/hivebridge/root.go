package main

import (
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// NewCmdRoot returns the hivebridge command with all its subcommands.
func NewCmdRoot() *cobra.Command {
	var backend backendFlags
	root := &cobra.Command{
		Use:   "hivebridge",
		Short: "A bridge between Hive programs: UHP, Hub and Choose-Turn JSON, with a native engine",
		Long: `hivebridge connects Hive programs that speak different protocols through one
core game model. Run with no command, it is a UHP engine on standard input and
output (the same as "hivebridge uhp"), answered by its native searcher.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUHP(cmd, uhp.Standard, &backend)
		},
	}
	backend.register(root)
	root.PersistentFlags().String("log-level", "warn", "what to log on standard error: debug, info, warn, error or disabled")
	root.AddCommand(NewCmdUHP(), NewCmdPerft(), NewCmdServe(), NewCmdBench(), NewCmdMatch(), NewCmdHivejson(), NewCmdHub(), NewCmdTune(), NewCmdGames())
	return root
}

// logger returns the structured logger of a command: JSON lines on
// standard error, never on standard output, which carries protocol lines
// only.
func logger(cmd *cobra.Command) zerolog.Logger {
	level, err := zerolog.ParseLevel(cmd.Flag("log-level").Value.String())
	if err != nil {
		level = zerolog.WarnLevel
	}
	return zerolog.New(cmd.ErrOrStderr()).Level(level).With().Timestamp().Logger()
}

package main

import (
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// NewCmdRoot returns the hivebridge command with all its subcommands, each
// with its real run function.
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
			return runUHP(cmd, uhpConfig{dialect: uhp.Standard, backend: backend})
		},
	}
	backend.register(root)
	root.PersistentFlags().String("log-level", "warn", "what to log on standard error: debug, info, warn, error or disabled")
	root.AddCommand(NewCmdUHP(nil), NewCmdPerft(nil), NewCmdServe(nil), NewCmdBench(nil), NewCmdMatch(nil),
		NewCmdHivejson(nil), NewCmdHub(nil), NewCmdTune(nil), NewCmdGames(gamesRuns{}), NewCmdWorker(nil), NewCmdBot(nil), NewCmdAnalyze(nil),
		NewCmdTrain(NewCmdTrainData(nil), NewCmdTrainOpenings(nil), NewCmdTrainInfo(nil), NewCmdTrainFit(nil)))
	return root
}

// logger returns the structured logger of a command: JSON lines on
// standard error, never on standard output, which carries protocol lines
// only.
func logger(cmd *cobra.Command) zerolog.Logger {
	level := zerolog.WarnLevel
	if f := cmd.Flag("log-level"); f != nil { // a command run alone, in a test, has no root
		if l, err := zerolog.ParseLevel(f.Value.String()); err == nil {
			level = l
		}
	}
	return zerolog.New(cmd.ErrOrStderr()).Level(level).With().Timestamp().Logger()
}

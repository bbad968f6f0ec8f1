package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/translate"
)

// NewCmdHub returns the hub command: a Hub engine on standard input and
// output, answered by the backend. runF runs it with the backend the flags
// give; nil runs the session itself (runHub), and a test passes its own to
// check the flags without starting a backend.
func NewCmdHub(runF func(cmd *cobra.Command, backend backendFlags) error) *cobra.Command {
	if runF == nil {
		runF = runHub
	}
	var backend backendFlags
	cmd := &cobra.Command{
		Use:   "hub [--backend SPEC] [--engine-option Name=Value]",
		Short: "Speak Hub on standard input and output",
		Long: `Speaks the Hub protocol (version 2, as Scan and the Hub GUI speak it) on
standard input and output, in its Hive dialect: moves are UHP MoveStrings, a
position is a game type and the moves from the start (pos variant=Base+MLP
moves="wS1;bG1 -wS1"). Any Hub GUI or tool can then drive any Hive engine.

The moves are chosen by the backend, hivebridge's native searcher by default.
Its options are Hub parameters (threads and hash for the native searcher),
next to variant, the game type of a pos that names none, and ponder. Input is
read while searching: ping, stop and ponder-hit are answered at once, even by
a UHP backend that cannot be interrupted, for which stop answers with the best
move it has reported, or a quick move of the native searcher.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd, backend)
		},
	}
	backend.register(cmd)
	return cmd
}

// runHub runs a Hub engine session on the command's standard input and
// output until quit, the end of input or an interrupt.
func runHub(cmd *cobra.Command, backend backendFlags) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	engine, err := backend.open(ctx, cmd)
	if err != nil {
		return err
	}
	defer engine.Close()
	log := logger(cmd).With().Str("session", "hub").Logger()
	info := engine.Info()
	_, native := engine.(*translate.Native)
	id := hub.ID{Name: "hivebridge", Version: version, Author: "the hivebridge authors"}
	if !native {
		id.Name += " via " + info.ID
	}
	var settings []hub.Setting
	for _, o := range engine.Options() {
		if st, ok := hub.SettingOf(o); ok {
			settings = append(settings, st)
		} else {
			log.Warn().Str("option", o.Name).Msg("a backend option Hub cannot declare; it keeps its value")
		}
	}
	cfg := hub.Config{
		ID:            id,
		Expansions:    info.Expansions,
		Searcher:      translate.SearcherOf(engine),
		Interruptible: translate.Interruptible(engine),
		Settings:      settings,
		Log:           log,
	}
	if !native {
		// stop must answer at once even before the backend has reported a
		// move, and a search the backend fails still needs its done: the
		// native searcher's depth-1 answer takes milliseconds, and a small
		// table is all it needs.
		fallback := translate.NewNative()
		if err := translate.ApplyOptions(fallback, []string{"HashMB=1"}); err != nil {
			return err
		}
		cfg.Fallback = translate.SearcherOf(fallback)
	}
	return hub.NewSession(cfg).Run(ctx, cmd.InOrStdin(), cmd.OutOrStdout())
}

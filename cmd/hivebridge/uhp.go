package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// version is hivebridge's version, shown in the UHP id line.
const version = "0.1.0"

// exitGrace is how long a stdio session has to end by itself after a
// signal that ends it.
const exitGrace = 200 * time.Millisecond

// uhpConfig is what the uhp command runs: a session in a dialect,
// answered by a backend.
type uhpConfig struct {
	dialect uhp.Dialect
	backend backendFlags
}

// NewCmdUHP returns the uhp command: a UHP engine on standard input and
// output, answered by the backend. The root command runs it too. runF runs
// it with the configuration the flags give; nil runs the session itself
// (runUHP), and a test passes its own to check the flags without starting
// a backend.
func NewCmdUHP(runF func(cmd *cobra.Command, cfg uhpConfig) error) *cobra.Command {
	if runF == nil {
		runF = runUHP
	}
	var (
		dialect string
		backend backendFlags
	)
	cmd := &cobra.Command{
		Use:   "uhp [--dialect current|early] [--backend SPEC]",
		Short: "Speak UHP on standard input and output (the default)",
		Long: `Speaks the Universal Hive Protocol on standard input and output, as a UHP
engine: any UHP viewer can use hivebridge as it would use the reference engine.
Moves are chosen by the backend, hivebridge's native searcher by default; with
--backend "uhp:<program> [args...]" hivebridge is a UHP proxy that checks every
move both ways and answers validmoves from its own rules.

With --dialect early, moves are written as in the protocol's early draft, with
absolute cube positions (WS1[0,0,0], BS1[1,-1,0]), and the history command is
available.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := parseDialect(dialect)
			if err != nil {
				return err
			}
			return runF(cmd, uhpConfig{dialect: d, backend: backend})
		},
	}
	cmd.Flags().StringVar(&dialect, "dialect", "current", "the protocol's dialect: current or early")
	backend.register(cmd)
	return cmd
}

func parseDialect(s string) (uhp.Dialect, error) {
	switch strings.ToLower(s) {
	case "current", "standard", "":
		return uhp.Standard, nil
	case "early":
		return uhp.Early, nil
	}
	return 0, fmt.Errorf("unknown --dialect %q: want current or early", s)
}

// runUHP runs an engine session on the command's standard input and output
// until input ends or an interrupt arrives.
//
// SIGINT, as for the reference engine, stops the search in progress, which
// answers at once with its best move, and the session goes on; with no
// command in progress it ends the session, as it ends any program. SIGTERM
// ends the session.
func runUHP(cmd *cobra.Command, cfg uhpConfig) error {
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	engine, err := cfg.backend.open(ctx, cmd)
	if err != nil {
		return err
	}
	defer engine.Close()
	info := engine.Info()
	id := "hivebridge v" + version
	if _, native := engine.(*translate.Native); !native {
		id += " via " + info.ID
	}
	e := uhp.NewSession(uhp.Config{
		ID:         id,
		Expansions: info.Expansions,
		Searcher:   translate.SearcherOf(engine),
		Options:    engine.Options(),
		Dialect:    cfg.dialect,
		Log:        logger(cmd).With().Str("session", "stdio").Logger(),
	})
	go func() {
		for {
			select {
			case sig := <-signals:
				if sig == syscall.SIGTERM || !e.Interrupt() {
					cancel()
					// The session may be blocked reading its input, which
					// no cancellation can wake: give it a moment to end by
					// itself, then end the program. The backend, if a
					// process, sees its input close and exits too.
					time.AfterFunc(exitGrace, func() {
						engine.Close()
						os.Exit(0)
					})
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	err = e.Run(ctx, cmd.InOrStdin(), cmd.OutOrStdout())
	if errors.Is(err, context.Canceled) && cmd.Context().Err() == nil {
		return nil // ended by a signal: a clean exit
	}
	return err
}

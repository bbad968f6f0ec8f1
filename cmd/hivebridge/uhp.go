package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// version is hivebridge's version, shown in the UHP id line.
const version = "0.1.0"

// NewCmdUHP returns the uhp command: a UHP engine on standard input and
// output, answered by the native searcher. The root command runs it too.
func NewCmdUHP() *cobra.Command {
	var dialect string
	cmd := &cobra.Command{
		Use:   "uhp [--dialect current|early]",
		Short: "Speak UHP on standard input and output (the default)",
		Long: `Speaks the Universal Hive Protocol on standard input and output, as a UHP
engine: any UHP viewer can use hivebridge as it would use the reference engine.
Moves are chosen by hivebridge's native searcher.

With --dialect early, moves are written as in the protocol's early draft, with
absolute cube positions (WS1[0,0,0], BS1[1,-1,0]), and the history command is
available.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := parseDialect(dialect)
			if err != nil {
				return err
			}
			return runUHP(cmd.Context(), d, cmd)
		},
	}
	cmd.Flags().StringVar(&dialect, "dialect", "current", "the protocol's dialect: current or early")
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

// runUHP runs an engine session on the command's standard input and
// output until input ends or an interrupt arrives.
func runUHP(ctx context.Context, dialect uhp.Dialect, cmd *cobra.Command) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	native := newNativeSearcher()
	e := uhp.NewEngine(uhp.Config{
		ID:       "hivebridge v" + version,
		Searcher: native,
		Options:  native.options(),
		Dialect:  dialect,
		Log:      logger(cmd).With().Str("session", "stdio").Logger(),
	})
	return e.Run(ctx, cmd.InOrStdin(), cmd.OutOrStdout())
}

// nativeSearcher adapts the ai package's searcher to what a UHP session
// needs, and declares its options.
type nativeSearcher struct {
	s       *ai.Searcher
	threads int
	hashMB  int
}

const defaultHashMB = 64

func newNativeSearcher() *nativeSearcher {
	return &nativeSearcher{s: ai.New(1, defaultHashMB), threads: 1, hashMB: defaultHashMB}
}

func (n *nativeSearcher) BestMove(ctx context.Context, g *core.Game, limit uhp.Limit, report func(core.Move)) (core.Move, error) {
	var progress func(ai.Info)
	if report != nil {
		progress = func(info ai.Info) { report(info.Move) }
	}
	info := n.s.Search(ctx, g, ai.Limits{Depth: limit.Depth, Time: limit.Time}, progress)
	if info.Move == core.NoMove {
		return core.NoMove, fmt.Errorf("The searcher found no move.")
	}
	return info.Move, nil
}

func (n *nativeSearcher) options() []*uhp.Option {
	return []*uhp.Option{
		{Name: "Threads", Type: uhp.IntOption, Default: "1", Min: "1", Max: strconv.Itoa(max(64, runtime.NumCPU())), Apply: func(v string) error {
			t, _ := strconv.Atoi(v)
			n.s.SetThreads(t)
			return nil
		}},
		{Name: "HashMB", Type: uhp.IntOption, Default: strconv.Itoa(defaultHashMB), Min: "1", Max: "4096", Apply: func(v string) error {
			mb, _ := strconv.Atoi(v)
			n.s.SetHashMB(mb)
			return nil
		}},
	}
}

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// searchConfig holds the flags of bench search.
type searchConfig struct {
	file   string
	time   time.Duration
	hashMB int
	eval   string
	cut    int // keep each game's first cut moves; 0 keeps them all
}

// NewCmdBenchSearch returns bench search: the native searcher's use of its
// time and table, a position at a time. runF runs it with the
// configuration the flags give; nil searches (runSearchBench), and a test
// passes its own to check the flags.
func NewCmdBenchSearch(runF func(cmd *cobra.Command, cfg searchConfig) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, cfg searchConfig) error {
			return runSearchBench(cmd.Context(), cmd.OutOrStdout(), cfg)
		}
	}
	cfg := searchConfig{hashMB: translate.DefaultHashMB, eval: translate.DefaultEval}
	cmd := &cobra.Command{
		Use:   "search [--time D] [--hash MB] [--eval nnue|linear] [--cut N] FILE",
		Short: "Show how the native searcher uses its time and table on each position of a file",
		Long: `Searches each position of FILE (a GameString a line, or the first field of
each line of a match --out file; --cut N keeps each game's first N moves)
for --time on one thread, with a fresh table of --hash MB as a new game
has, and prints for each: the depth of the last iteration completed, the
nodes and nodes a second, the share of the time used, when the last
iteration that completed ended (the rest went to one that did not), the
time each iteration took, and the share of the table's slots the search
filled. The last line gives their medians. It tells whether a longer
search outgrows the table, and how much of its time goes to an iteration
it does not finish.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.file = args[0]
			return runF(cmd, cfg)
		},
	}
	f := cmd.Flags()
	f.DurationVar(&cfg.time, "time", time.Second, "the time of each search")
	f.IntVar(&cfg.hashMB, "hash", cfg.hashMB, "the table's size in MB")
	f.StringVar(&cfg.eval, "eval", cfg.eval, "the static evaluation: nnue or linear")
	f.IntVar(&cfg.cut, "cut", 0, "keep each game's first N moves (0: all)")
	return cmd
}

// runSearchBench searches each position of cfg.file and prints what
// NewCmdBenchSearch says.
func runSearchBench(ctx context.Context, out io.Writer, cfg searchConfig) error {
	games, err := readSearchPositions(cfg.file, cfg.cut)
	if err != nil {
		return err
	}
	var depths, rates, used, lastDone, filled []float64
	for i, g := range games {
		s := ai.New(1, cfg.hashMB)
		if err := s.SetEval(cfg.eval); err != nil {
			return err
		}
		var iterations []ai.Info
		info := s.Search(ctx, g, ai.Limits{Time: cfg.time}, func(in ai.Info) { iterations = append(iterations, in) })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A report comes at each iteration's end, and when a move
		// beats the one before in the middle of one (Partial).
		var steps []string
		completed, done, prev := 0, time.Duration(0), time.Duration(0)
		for _, it := range iterations {
			if it.Partial {
				continue
			}
			steps = append(steps, fmt.Sprintf("d%d %s", it.Depth, (it.Elapsed-prev).Round(time.Millisecond)))
			completed, done, prev = it.Depth, it.Elapsed, it.Elapsed
		}
		use := s.TableUse()
		depths = append(depths, float64(completed))
		rates = append(rates, float64(info.Nodes)/info.Elapsed.Seconds())
		used = append(used, info.Elapsed.Seconds()/cfg.time.Seconds())
		lastDone = append(lastDone, done.Seconds()/cfg.time.Seconds())
		filled = append(filled, use)
		fmt.Fprintf(out, "position %d (ply %d): depth %d, %d nodes, %.0f nodes/s, time used %.0f%%, last iteration done at %.0f%%, table %.1f%% filled; %s\n",
			i+1, g.Ply(), completed, info.Nodes, rates[i], 100*used[i], 100*lastDone[i], 100*use, strings.Join(steps, ", "))
	}
	fmt.Fprintf(out, "median of %d positions at %s, table %d MB: depth %.0f, %.0f nodes/s, time used %.0f%%, last iteration done at %.0f%%, table %.1f%% filled\n",
		len(games), cfg.time, cfg.hashMB, median(depths), median(rates), 100*median(used), 100*median(lastDone), 100*median(filled))
	return nil
}

// readSearchPositions reads the positions of bench search: each line's
// first tab-separated field a GameString, its first cut moves kept (all
// when cut is 0), blank lines and lines starting with # skipped.
func readSearchPositions(path string, cut int) ([]*core.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var games []*core.Game
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "\t")
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		gs, err := uhp.ParseGameString(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if cut > 0 && len(gs.Moves) > cut {
			gs.Moves = gs.Moves[:cut]
		}
		g, err := gs.Load()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if g.Over() {
			return nil, fmt.Errorf("%s:%d: the game is over: nothing to search", path, n)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return games, nil
}

// median returns the median of xs (the mean of the middle two of an even
// number), which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// runTestStatus prints where a distributed test stands: the one args
// names, or the latest.
func runTestStatus(cmd *cobra.Command, f *matchFlags, args []string) error {
	if !archive.IsPostgres(f.db) {
		return errors.New("--status reads a distributed test: give --db postgres://...")
	}
	tests, err := referee.OpenTests(cmd.Context(), f.db, logger(cmd))
	if err != nil {
		return err
	}
	defer tests.Close()
	var id int64
	if len(args) == 1 {
		if id, err = strconv.ParseInt(args[0], 10, 64); err != nil || id < 1 {
			return fmt.Errorf("--status %q: a test's id is a whole number from 1", args[0])
		}
	} else if id, err = tests.Latest(cmd.Context()); err != nil {
		return err
	}
	st, err := tests.Status(cmd.Context(), id)
	if err != nil {
		return err
	}
	return printTestStatus(cmd.OutOrStdout(), st)
}

// printTestStatus prints a test as OpenBench's test page shows one: its
// settings, A's results and the pairs, Elo with its interval, the LLR
// against its bounds, and the games of each worker and the pairs in play.
func printTestStatus(w io.Writer, st referee.TestStatus) error {
	cfg, err := st.Settings.Config(st.Games, translate.Config{})
	if err != nil {
		return err
	}
	s := st.Settings
	fmt.Fprintf(w, "Test %d: %s", st.ID, st.State)
	if st.Stopped != "" {
		fmt.Fprintf(w, " (%s)", st.Stopped)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "A = %s (%s) [%s] vs B = %s (%s) [%s]\n", s.EngineName(true), cfg.White, cfg.TCOf(true), s.EngineName(false), cfg.Black, cfg.TCOf(false))
	fmt.Fprintf(w, "Openings: %s; move cap %d plies%s\n", openingsText(&matchFlags{openings: s.OpeningsFrom}, cfg), cfg.MaxPlies, marginText(cfg.TimeMargin))
	fmt.Fprintf(w, "Created %s", st.Created.Local().Format(time.DateTime))
	if !st.Ended.IsZero() {
		fmt.Fprintf(w, ", ended %s", st.Ended.Local().Format(time.DateTime))
	}
	fmt.Fprintln(w)
	played := 2 * st.PairsDone
	fmt.Fprintf(w, "Games: %d of %d (%d of %d pairs); pairs in play: %d\n", played, st.Games, st.PairsDone, st.Games/2, len(st.Leases))
	total, white, black := st.Stats.Total, st.Stats.AsWhite, st.Stats.AsBlack
	fmt.Fprintf(w, "W/D/L (A): %d/%d/%d; as White %d/%d/%d, as Black %d/%d/%d\n",
		total.Wins, total.Draws, total.Losses, white.Wins, white.Draws, white.Losses, black.Wins, black.Draws, black.Losses)
	fmt.Fprintln(w, st.Stats.Pairs)
	elo, margin := total.Elo()
	line := "Elo: " + formatElo(elo, margin) + " (games)"
	if st.Stats.Pairs.Pairs() > 0 {
		e := st.Stats.Pairs.Estimate()
		line += ", " + formatElo(e.Elo, e.EloError) + " (pairs), nElo " + formatElo(e.NElo, e.NEloError)
		if !math.IsNaN(e.LOS) {
			line += fmt.Sprintf(", LOS %.2f%%", 100*e.LOS)
		}
	}
	fmt.Fprintln(w, line)
	if sp := st.SPRT; sp != nil {
		fmt.Fprintf(w, "LLR: %.2f (%.2f, %.2f) [%g, %g] %s: %s\n", sp.LLR, sp.Lower, sp.Upper, sp.Test.Elo0, sp.Test.Elo1, sp.Test.Model.Describe(), sp.Verdict)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-24s %6s %6s %6s %6s %6s\n", "worker", "pairs", "games", "wins", "draws", "losses")
	for _, wt := range st.Workers {
		fmt.Fprintf(w, "%-24s %6d %6d %6d %6d %6d\n", wt.Worker, wt.Pairs, 2*wt.Pairs, wt.Score.Wins, wt.Score.Draws, wt.Score.Losses)
	}
	for _, l := range st.Leases {
		left := time.Until(l.Until).Round(100 * time.Millisecond)
		fmt.Fprintf(w, "pair %d in play: %s, lease %s left (claim %d)\n", l.Pair, l.Worker, left, l.Claims)
	}
	return nil
}

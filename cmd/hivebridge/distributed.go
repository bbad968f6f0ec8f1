package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// testFlags are the match command's flags of a distributed test.
type testFlags struct {
	distributed bool
	id          int64         // --test: follow this test rather than create one
	status      bool          // --status [ID]
	poll        time.Duration // how often the coordinator reads the test
}

func (t *testFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&t.distributed, "distributed", false, `keep the match in the PostgreSQL --db as a test that "hivebridge worker" processes on any machines play, game pair by game pair; wait for it and print its table`)
	fl.Int64Var(&t.id, "test", 0, "with --distributed, follow this test again rather than create one (a larger --games gives it more games)")
	fl.BoolVar(&t.status, "status", false, "print where the test given as argument stands (the latest by default), in the PostgreSQL --db, and exit")
	fl.DurationVar(&t.poll, "poll", time.Second, "with --distributed, how often to read the test's progress")
}

// runTestView runs what needs no match settings: --status, and following
// an existing test (--distributed --test ID). handled is false for any
// other match, which the caller runs.
func runTestView(cmd *cobra.Command, f *matchFlags, args []string) (handled bool, err error) {
	switch {
	case f.test.poll <= 0:
		return true, fmt.Errorf("--poll must be a positive duration, not %s", f.test.poll)
	case f.test.status:
		return true, runTestStatus(cmd, f, args)
	case f.test.id != 0 && !f.test.distributed:
		return true, errors.New("--test follows a distributed test: give --distributed as well")
	case f.test.id == 0:
		return false, nil
	}
	if !archive.IsPostgres(f.db) {
		return true, errors.New("--distributed keeps the test in PostgreSQL: give --db postgres://...")
	}
	ctx, stop := interruptible(cmd)
	defer stop()
	tests, err := referee.OpenTests(ctx, f.db, logger(cmd))
	if err != nil {
		return true, err
	}
	defer tests.Close()
	if cmd.Flags().Changed("games") {
		if err := tests.Extend(ctx, f.test.id, f.games); err != nil {
			return true, err
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "following test %d in %s\n", f.test.id, archive.Redact(f.db))
	return true, waitTest(ctx, cmd, f, tests, f.test.id)
}

// runDistributed creates the test the flags describe and waits for it.
// The coordinator plays no game: the workers do, so that stopping it loses
// no game in play, and one machine's command is never both.
func runDistributed(cmd *cobra.Command, cfg matchConfig) error {
	f := &cfg.flags
	switch {
	case !archive.IsPostgres(f.db):
		return errors.New("--distributed keeps the test in PostgreSQL: give --db postgres://...")
	case cfg.tournament != nil:
		return errors.New("--distributed tests two engines: a tournament (--engine) is played on one machine")
	case f.out != "" || f.pgn != "" || f.resume:
		return errors.New("--distributed keeps the games in the archive (--db): it takes no --out, --pgn or --resume")
	case cmd.Flags().Changed("concurrency"):
		return errors.New("--distributed plays no game itself: the concurrency is each worker's (hivebridge worker --concurrency)")
	}
	ctx, stop := interruptible(cmd)
	defer stop()
	tests, err := referee.OpenTests(ctx, f.db, logger(cmd))
	if err != nil {
		return err
	}
	defer tests.Close()
	id, err := tests.Create(ctx, referee.SettingsOf(cfg.referee, f.openings), f.games)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "test %d created in %s: %d games (%d pairs); play it with: hivebridge worker --db URL\n",
		id, archive.Redact(f.db), f.games, f.games/2)
	return waitTest(ctx, cmd, f, tests, id)
}

// interruptible is the command's context, ended by Ctrl-C or SIGTERM from
// the start, so that one that comes as soon as the test is named stops
// the wait like any other.
func interruptible(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
}

// waitTest shows the test's progress until it ends, then prints its table;
// stopped by Ctrl-C (ctx), it prints the table so far and says how to
// follow the test, which goes on in the database.
func waitTest(ctx context.Context, cmd *cobra.Command, f *matchFlags, tests *referee.Tests, id int64) error {
	_, waitErr := tests.Wait(ctx, id, f.test.poll, func(st referee.TestStatus) { showTestProgress(cmd.ErrOrStderr(), st) })
	if errors.Is(waitErr, referee.ErrNoTest) {
		return waitErr
	}
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(cmd.Context()), 30*time.Second)
	defer cancel()
	st, err := tests.Status(readCtx, id)
	if err != nil {
		return errors.Join(waitErr, err)
	}
	if err := printTestTable(cmd.OutOrStdout(), st); err != nil {
		return err
	}
	switch {
	case waitErr != nil:
		return fmt.Errorf("stopped waiting: test %d goes on in the database; follow it again with --distributed --test %d, or see it with --status %d", id, id, id)
	case st.State == referee.TestStopped:
		return fmt.Errorf("test %d stopped after %d games: %s", id, len(st.Played), st.Stopped)
	}
	return nil
}

// showTestProgress writes a line of the test's progress.
func showTestProgress(w io.Writer, st referee.TestStatus) {
	t := st.Stats.Total
	elo, margin := t.Elo()
	line := fmt.Sprintf("test %d: %s, %d/%d pairs done, %d in play; A +%d -%d =%d, Elo %s; %s",
		st.ID, st.State, st.PairsDone, st.Games/2, st.Leased, t.Wins, t.Losses, t.Draws, formatElo(elo, margin), st.Stats.Pairs)
	if s := st.SPRT; s != nil {
		line += fmt.Sprintf("; LLR %.2f [%.2f, %.2f]", s.LLR, s.Lower, s.Upper)
	}
	fmt.Fprintln(w, line)
}

// printTestTable prints a test's table as a match's (printTable), its
// concurrency the number of workers that played it, and then each
// worker's share.
func printTestTable(w io.Writer, st referee.TestStatus) error {
	cfg, err := st.Settings.Config(st.Games, translate.Config{})
	if err != nil {
		return err
	}
	cfg.Concurrency = max(1, len(st.Workers))
	printTable(w, &matchFlags{openings: st.Settings.OpeningsFrom}, cfg, st.Result())
	fmt.Fprintf(w, "Test %d: %s; workers: %s\n", st.ID, st.State, workerShares(st.Workers))
	return nil
}

// workerShares says how many games of the counted pairs each worker
// played: "w1 12, w2 10".
func workerShares(workers []referee.WorkerTally) string {
	if len(workers) == 0 {
		return "none yet"
	}
	parts := make([]string, len(workers))
	for i, wt := range workers {
		parts[i] = wt.Worker + " " + strconv.Itoa(2*wt.Pairs)
	}
	return strings.Join(parts, ", ")
}

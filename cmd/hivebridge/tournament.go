package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate/referee"
)

// runTournament plays a tournament (match --engine), a line per game on
// standard error and every game to --pgn as it ends, and prints each
// pairing's score and the ratings. Interrupted, it prints what was played.
func runTournament(cmd *cobra.Command, f *matchFlags, t referee.Tournament) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pgn, err := openPGNLog(f.pgn)
	if err != nil {
		return err
	}
	defer pgn.close()
	progress := cmd.ErrOrStderr()
	res, runErr := referee.RunTournament(ctx, t, func(p referee.TournamentProgress) {
		a, b := t.Entrants[p.Pairing.A].Name, t.Entrants[p.Pairing.B].Name
		white := a
		if !p.Game.AWhite {
			white = b
		}
		fmt.Fprintf(progress, "%s vs %s (pairing %d/%d): game %d/%d, %s White: %s, %s, %d plies, %s\n", a, b, p.Index+1, p.Pairings,
			p.Done, p.Total, white, resultName(p.Game), p.Game.Reason, p.Game.Plies, p.Game.Elapsed.Round(time.Millisecond))
		pgn.add(t.MatchOf(p.Pairing), p.Game)
	})
	if err := pgn.failed(); err != nil {
		return err
	}
	if runErr != nil && len(res.Pairings) == 0 {
		return runErr
	}
	if err := printTournament(cmd.OutOrStdout(), f, t, res); err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("tournament stopped: %v", runErr)
	}
	if res.Stopped != "" {
		return fmt.Errorf("tournament stopped: %s", res.Stopped)
	}
	return nil
}

// printTournament prints each pairing's score from its first engine's
// side, with the Elo difference that match alone gives, then every
// engine's rating from one fit over all the games.
func printTournament(w io.Writer, f *matchFlags, t referee.Tournament, res referee.TournamentResult) error {
	games := 0
	for _, pr := range res.Pairings {
		games += len(pr.Result.Games)
	}
	fmt.Fprintf(w, "Tournament: %s of %d engines, %d games a pairing, %d games played, wall time %s\n",
		t.Format, len(t.Entrants), t.Match.Games, games, res.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "Openings: %s; move cap %d plies%s\n", openingsText(f, t.Match), t.Match.MaxPlies, marginText(t.Match.TimeMargin))
	if res.Stopped != "" {
		fmt.Fprintf(w, "Stopped early: %s\n", res.Stopped)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "pairing\tgames\tscore\tElo (first - second)\tPtnml(0-2)")
	for _, pr := range res.Pairings {
		s := pr.Result.Stats
		elo, margin := s.Total.Elo()
		p := s.Pairs.Pentanomial()
		fmt.Fprintf(tw, "%s vs %s\t%d\t%.1f-%.1f\t%s\t[%d, %d, %d, %d, %d]\n", t.Entrants[pr.A].Name, t.Entrants[pr.B].Name,
			s.Total.Games(), s.Total.Points(), float64(s.Total.Games())-s.Total.Points(), formatElo(elo, margin), p[0], p[1], p[2], p[3], p[4])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nRatings (one maximum-likelihood fit over all %d games; Elo relative to the field's mean):\n", games)
	return writeRatings(w, res.Ratings)
}

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/records"
)

// gamesFlags are the flags shared by the games subcommands.
type gamesFlags struct {
	db     string
	json   bool
	format string
}

// gamesConfig is what a games subcommand runs: the shared flags, and what
// the subcommand's own flags and arguments give.
type gamesConfig struct {
	gamesFlags
	filter archive.Filter // list and export
	id     int64          // show
}

// gamesRuns are the run functions of the games subcommands, one each. A
// nil one runs the subcommand itself (runGamesList..., on the archive
// withStore opens), and a test passes
// its own to check the flags without opening the archive.
type gamesRuns struct {
	list, show, export, ratings func(cmd *cobra.Command, cfg gamesConfig) error
	convert                     func(cmd *cobra.Command, cfg convertConfig) error
	imports                     func(cmd *cobra.Command, cfg importConfig) error
}

// NewCmdGames returns the games command: the archive read from the
// command line. runs runs its subcommands with the configuration their
// flags give.
func NewCmdGames(runs gamesRuns) *cobra.Command {
	for _, r := range []struct {
		run *func(cmd *cobra.Command, cfg gamesConfig) error
		use func(cmd *cobra.Command, cfg gamesConfig, store archive.Store) error
	}{{&runs.list, runGamesList}, {&runs.show, runGamesShow}, {&runs.export, runGamesExport}, {&runs.ratings, runGamesRatings}} {
		if *r.run == nil {
			*r.run = withStore(r.use)
		}
	}
	if runs.convert == nil {
		runs.convert = runConvert
	}
	if runs.imports == nil {
		runs.imports = runImport
	}
	f := &gamesFlags{}
	cmd := &cobra.Command{
		Use:   "games list|show|export|ratings|convert|import [--db DB]",
		Short: "Read the archive of games that serve and match keep",
		Long: `Reads the game archive (--db, as serve and match take it):

  games list     a page of games, newest first, filtered by the flags
  games show ID  one game, every move with its time and who played it
  games export   every game that passes the filters: one GameString a line
                 (--format gamestring), one JSON object a line with
                 its moves (--format json), or as game records (--format
                 pgn, sgf or jsonl, as games convert writes them)
  games ratings  the Elo of every named engine from all its games, from one
                 maximum-likelihood fit, with its 95% interval
  games convert  game records (PGN, SGF, GameStrings, JSON lines) from one
                 format to another, every move checked; no archive
  games import   game records kept in the archive, each game once`,
	}
	cmd.PersistentFlags().StringVar(&f.db, "db", "", dbFlagHelp)
	cmd.AddCommand(f.listCmd(runs.list), f.showCmd(runs.show), f.exportCmd(runs.export), f.ratingsCmd(runs.ratings), f.convertCmd(runs.convert), f.importCmd(runs.imports))
	return cmd
}

// addFilters registers the filter flags of cmd, named as GET /games's
// query, and returns what reads them as GET /games reads its query.
func addFilters(cmd *cobra.Command, paged bool) func() (archive.Filter, error) {
	filter := map[string]*string{} // query parameter -> flag value
	for _, fl := range []struct{ name, usage string }{
		{"player", "games with this player on either side"},
		{"type", "games of this GameTypeString (Base+MLP)"},
		{"result", "WhiteWins, BlackWins or Draw"},
		{"status", "playing, finished or interrupted"},
		{"since", "games started at or after this date (2006-01-02) or RFC 3339 time"},
		{"until", "games started before this date or time"},
	} {
		filter[fl.name] = cmd.Flags().String(fl.name, "", fl.usage)
	}
	if paged {
		filter["page"] = cmd.Flags().String("page", "", "the page, from 1")
		filter["per_page"] = cmd.Flags().String("per-page", "", fmt.Sprintf("games a page (default %d, at most %d)", archive.DefaultPerPage, archive.MaxPerPage))
	}
	return func() (archive.Filter, error) {
		q := url.Values{}
		for name, v := range filter {
			flag := name
			if name == "per_page" {
				flag = "per-page"
			}
			if cmd.Flags().Changed(flag) {
				q.Set(name, *v)
			}
		}
		return archive.ParseFilter(q)
	}
}

// withStore returns the run function of a games subcommand: it opens the
// archive of --db for reading, hands it to use, and closes it once use is
// done.
func withStore(use func(cmd *cobra.Command, cfg gamesConfig, store archive.Store) error) func(cmd *cobra.Command, cfg gamesConfig) error {
	return func(cmd *cobra.Command, cfg gamesConfig) error {
		store, err := archive.Open(cmd.Context(), cfg.db, archive.Reader)
		if err != nil {
			return err
		}
		if store == nil {
			return errors.New("--db none: there is no archive to read")
		}
		defer store.Close()
		return use(cmd, cfg, store)
	}
}

func (f *gamesFlags) listCmd(runF func(cmd *cobra.Command, cfg gamesConfig) error) *cobra.Command {
	var parseFilter func() (archive.Filter, error)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a page of games, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := parseFilter()
			if err != nil {
				return err
			}
			return runF(cmd, gamesConfig{gamesFlags: *f, filter: filter})
		},
	}
	parseFilter = addFilters(cmd, true)
	cmd.Flags().BoolVar(&f.json, "json", false, "write the page as JSON, as GET /games does")
	return cmd
}

// runGamesList writes a page of the games of cfg.filter.
func runGamesList(cmd *cobra.Command, cfg gamesConfig, store archive.Store) error {
	filter := cfg.filter
	games, total, err := store.List(cmd.Context(), filter)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if cfg.json {
		return json.NewEncoder(out).Encode(map[string]any{"games": games, "total": total, "page": filter.Page, "per_page": filter.PerPage})
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tstarted\ttype\twhite\tblack\tstatus\tresult\thow\tplies")
	for _, g := range games {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", g.ID, g.Started.Local().Format("2006-01-02 15:04:05"),
			g.GameType, g.White, g.Black, g.Status, dash(g.Result), dash(g.How), g.Plies)
	}
	tw.Flush()
	fmt.Fprintf(out, "%d of %d games (page %d)\n", len(games), total, filter.Page)
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (f *gamesFlags) showCmd(runF func(cmd *cobra.Command, cfg gamesConfig) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one game with every move",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id < 1 {
				return fmt.Errorf("game id %q: want a whole number from 1", args[0])
			}
			return runF(cmd, gamesConfig{gamesFlags: *f, id: id})
		},
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "write the game as JSON, as GET /games/{id} does")
	return cmd
}

// runGamesShow writes game cfg.id with every move.
func runGamesShow(cmd *cobra.Command, cfg gamesConfig, store archive.Store) error {
	g, err := store.Get(cmd.Context(), cfg.id)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if cfg.json {
		return json.NewEncoder(out).Encode(g)
	}
	fmt.Fprintf(out, "game %d (%s, %s): %s vs %s\n", g.ID, g.Source, g.GameType, g.White, g.Black)
	fmt.Fprintf(out, "started %s\n", g.Started.Local().Format(time.RFC3339Nano))
	switch g.Status {
	case archive.Playing:
		fmt.Fprintln(out, "in progress")
	default:
		fmt.Fprintf(out, "%s %s: %s, %s", g.Status, g.Ended.Local().Format(time.RFC3339Nano), dash(g.Result), g.How)
		if g.Reason != "" {
			fmt.Fprintf(out, " (%s)", g.Reason)
		}
		fmt.Fprintln(out)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	last := g.Started
	for _, m := range g.Moves {
		fmt.Fprintf(tw, "%d.\t%s\t%s\t+%s\n", m.Ply+1, m.Text, m.By, m.At.Sub(last).Round(time.Millisecond))
		last = m.At
	}
	tw.Flush()
	fmt.Fprintln(out, g.GameString)
	return nil
}

func (f *gamesFlags) exportCmd(runF func(cmd *cobra.Command, cfg gamesConfig) error) *cobra.Command {
	var parseFilter func() (archive.Filter, error)
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write every game that passes the filters, one a line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch f.format {
			case "gamestring", "json", "pgn", "sgf", "jsonl":
			default:
				return fmt.Errorf("--format %q: want gamestring, json, pgn, sgf or jsonl", f.format)
			}
			filter, err := parseFilter()
			if err != nil {
				return err
			}
			return runF(cmd, gamesConfig{gamesFlags: *f, filter: filter})
		},
	}
	parseFilter = addFilters(cmd, false)
	cmd.Flags().StringVar(&f.format, "format", "gamestring", "gamestring (one UHP GameString a line), json (one game with its moves and their times a line), or pgn, sgf or jsonl (game records, as games convert writes them)")
	return cmd
}

// runGamesExport writes every game of cfg.filter in cfg.format.
func runGamesExport(cmd *cobra.Command, cfg gamesConfig, store archive.Store) error {
	return export(cmd, store, cfg.filter, cfg.format)
}

// export writes every game of the filter, page by page, oldest page last.
func export(cmd *cobra.Command, store archive.Store, filter archive.Filter, format string) error {
	w := bufio.NewWriter(cmd.OutOrStdout())
	defer w.Flush()
	enc := json.NewEncoder(w)
	filter.PerPage = archive.MaxPerPage
	for filter.Page = 1; ; filter.Page++ {
		games, total, err := store.List(cmd.Context(), filter)
		if err != nil {
			return err
		}
		for _, g := range games {
			if err := writeExported(cmd, store, enc, w, g, format); err != nil {
				return err
			}
		}
		if filter.Page*filter.PerPage >= total {
			return nil
		}
	}
}

func writeExported(cmd *cobra.Command, store archive.Store, enc *json.Encoder, w io.Writer, g archive.Game, format string) error {
	if format == "gamestring" {
		_, err := fmt.Fprintln(w, g.GameString)
		return err
	}
	full, err := store.Get(cmd.Context(), g.ID)
	if err != nil {
		return err
	}
	if format == "json" {
		return enc.Encode(full)
	}
	rec, err := archive.RecordOf(full)
	if err != nil {
		return err
	}
	f, err := records.ParseFormat(format)
	if err != nil {
		return err
	}
	return records.Write(w, f, rec)
}

func (f *gamesFlags) ratingsCmd(runF func(cmd *cobra.Command, cfg gamesConfig) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ratings",
		Short: "Rate every named engine from all its archived games",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd, gamesConfig{gamesFlags: *f})
		},
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "write the ratings as JSON, as GET /ratings does")
	return cmd
}

// runGamesRatings writes the rating of every named engine of the archive.
func runGamesRatings(cmd *cobra.Command, cfg gamesConfig, store archive.Store) error {
	outcomes, err := store.Outcomes(cmd.Context())
	if err != nil {
		return err
	}
	ratings := archive.Ratings(outcomes)
	out := cmd.OutOrStdout()
	if cfg.json {
		return json.NewEncoder(out).Encode(map[string]any{"ratings": ratings, "games": len(outcomes)})
	}
	return writeRatings(out, ratings)
}

// writeRatings writes a table of ratings, best first as archive.Ratings
// sorts them: the archive's and a tournament's.
func writeRatings(out io.Writer, ratings []archive.Rating) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tplayer\telo\t95%\tgames\tscore")
	for i, r := range ratings {
		elo, interval := fmt.Sprintf("%+.1f", r.Elo), fmt.Sprintf("%+.1f..%+.1f", r.Low, r.High)
		if math.IsInf(r.Elo, 0) || math.IsNaN(r.Elo) || r.Games == 0 {
			elo, interval = "?", r.Note
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%.1f\n", i+1, r.Player, elo, interval, r.Games, r.Score)
	}
	return tw.Flush()
}

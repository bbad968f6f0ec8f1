package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate/records"
)

// convertConfig is what games convert runs: the files, and the format
// their games are written in.
type convertConfig struct {
	to    records.Format
	files []string
}

// convertCmd returns games convert: game records of any format read (told
// apart by content) and written in one.
func (f *gamesFlags) convertCmd(runF func(cmd *cobra.Command, cfg convertConfig) error) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "convert [--to pgn|sgf|gamestring|jsonl] FILE...",
		Short: "Convert game records: Hive PGN, BoardSpace SGF, GameStrings, JSON lines",
		Long: `Reads every game of each FILE (- is standard input), whatever its format
(Hive PGN as Mzinga and hivegame.com write it, BoardSpace's SGF, one UHP
GameString a line, or JSON lines as games export --format jsonl writes
them: told apart by content), replays each through the rules, and writes
every valid game to standard output in the --to format. Each invalid game is
reported on standard error with the file, the game, the ply, the move and
why; the exit status is then 1.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := records.ParseFormat(to)
			if err != nil {
				return fmt.Errorf("--to: %w", err)
			}
			return runF(cmd, convertConfig{to: format, files: args})
		},
	}
	cmd.Flags().StringVar(&to, "to", string(records.GameString), "the format written: pgn, sgf, gamestring or jsonl")
	return cmd
}

// errInvalidGames is the error of a convert that wrote every valid game but
// found invalid ones, each reported already.
var errInvalidGames = errors.New("some games were invalid")

// runConvert converts the games of cfg.files.
func runConvert(cmd *cobra.Command, cfg convertConfig) error {
	out := bufio.NewWriter(cmd.OutOrStdout())
	defer out.Flush()
	var valid, invalid int
	for _, name := range cfg.files {
		data, err := readRecordFile(cmd, name)
		if err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			invalid++
			continue
		}
		recs, errs := records.Read(name, data)
		for _, err := range errs {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
		}
		invalid += len(errs)
		if err := records.Write(out, cfg.to, recs...); err != nil {
			return err
		}
		valid += len(recs)
	}
	if invalid > 0 {
		out.Flush()
		return fmt.Errorf("%w: %d converted, %d not", errInvalidGames, valid, invalid)
	}
	return nil
}

// maxRecordFile bounds a record file read whole: BoardSpace's largest
// single records are tens of kilobytes, a year of hivegame.com games
// some megabytes.
const maxRecordFile = 1 << 30

// readRecordFile reads a file of records, or standard input for "-".
func readRecordFile(cmd *cobra.Command, name string) ([]byte, error) {
	var r io.Reader = cmd.InOrStdin()
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxRecordFile+1))
	if err == nil && len(data) > maxRecordFile {
		err = fmt.Errorf("%s: larger than %d bytes", name, maxRecordFile)
	}
	return data, err
}

package main

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate/archive"
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
	return readBounded(r, name)
}

// readBounded reads a record file whole, up to maxRecordFile bytes.
func readBounded(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxRecordFile+1))
	if err == nil && len(data) > maxRecordFile {
		err = fmt.Errorf("%s: larger than %d bytes", name, maxRecordFile)
	}
	return data, err
}

// importConfig is what games import runs: the archive, and the files and
// directories whose records it keeps.
type importConfig struct {
	db    string
	paths []string
}

// importCmd returns games import: record files kept in the archive.
func (f *gamesFlags) importCmd(runF func(cmd *cobra.Command, cfg importConfig) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import FILE|DIR... [--db DB]",
		Short: "Keep the games of record files (PGN, SGF, GameStrings, JSON lines, zip files of them) in the archive",
		Long: `Reads every game of each FILE, of every file under each DIR, and of every
file inside a zip file (as BoardSpace serves its yearly archives), replays
each through the rules as games convert does, and keeps the valid ones in
the archive (--db) as finished games. A game imported before (the same
type, players, date and moves) is kept once. Progress goes to standard
error, each refused game with why; the counts of games imported, already
present and refused to standard output. The exit status is 1 when a game
was refused.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd, importConfig{db: f.db, paths: args})
		},
	}
	return cmd
}

// importBatch is how many games go in one transaction.
const importBatch = 500

// runImport keeps the games of cfg.paths.
func runImport(cmd *cobra.Command, cfg importConfig) error {
	store, err := archive.Open(cmd.Context(), cfg.db, archive.Role("import"))
	if err != nil {
		return err
	}
	if store == nil {
		return errors.New("--db none: there is no archive to import into")
	}
	defer store.Close()
	total, err := recordBytes(cfg.paths)
	if err != nil {
		return err
	}
	now := time.Now()
	progress := newImportProgress(cmd.ErrOrStderr(), total, now)
	var batch []archive.Imported
	flush := func() error {
		added, err := store.Import(cmd.Context(), batch)
		if err != nil {
			return err
		}
		progress.imported += added
		progress.present += len(batch) - added
		batch = batch[:0]
		progress.update(time.Now())
		return nil
	}
	err = eachRecordFile(cfg.paths, func(name string, data []byte) error {
		progress.read += int64(len(data))
		recs, errs := records.Read(name, data)
		for _, e := range errs {
			progress.say(e.Error())
		}
		progress.failed += len(errs)
		for _, r := range recs {
			started, ok := r.Played()
			if !ok {
				started = now
			}
			batch = append(batch, archive.Imported{Source: "import", Record: r, Started: started})
			if len(batch) == importBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	progress.done(time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d imported, %d already present, %d refused\n", progress.imported, progress.present, progress.failed)
	if progress.failed > 0 {
		return fmt.Errorf("%w: %d refused", errInvalidGames, progress.failed)
	}
	return nil
}

// eachRecordFile calls each with the name and content of every file of
// paths: a directory's files (recursively), a zip file's entries.
func eachRecordFile(paths []string, each func(name string, data []byte) error) error {
	return walkRecordFiles(paths, func(name string, _ int64, open func() (io.ReadCloser, error)) error {
		r, err := open()
		if err != nil {
			return err
		}
		data, err := readBounded(r, name)
		r.Close()
		if err != nil {
			return err
		}
		return each(name, data)
	})
}

// recordBytes is the size of every file of paths as eachRecordFile reads
// them (a zip entry's size unpacked), for a progress bar's whole.
func recordBytes(paths []string) (int64, error) {
	var total int64
	err := walkRecordFiles(paths, func(_ string, size int64, _ func() (io.ReadCloser, error)) error {
		total += size
		return nil
	})
	return total, err
}

// walkRecordFiles calls each with the name, size and opener of every file
// of paths, a zip file's entries instead of the zip file: a zip is read
// where it lies, as BoardSpace serves its yearly archives, not unpacked.
func walkRecordFiles(paths []string, each func(name string, size int64, open func() (io.ReadCloser, error)) error) error {
	for _, root := range paths {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if !strings.EqualFold(filepath.Ext(path), ".zip") {
				info, err := d.Info()
				if err != nil {
					return err
				}
				return each(path, info.Size(), func() (io.ReadCloser, error) { return os.Open(path) })
			}
			z, err := zip.OpenReader(path)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			defer z.Close()
			for _, f := range z.File {
				if f.FileInfo().IsDir() {
					continue
				}
				name := path + ":" + f.Name
				open := func() (io.ReadCloser, error) {
					r, err := f.Open()
					if err != nil {
						return nil, fmt.Errorf("%s: %w", name, err)
					}
					return r, nil
				}
				if err := each(name, int64(f.UncompressedSize64), open); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

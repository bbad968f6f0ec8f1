package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Source is a finished game to label.
type Source struct {
	Number int
	Game   *core.Game // replayed from the empty board to its end
	Result core.Result
}

// MatchReader reads the games of a match --out file: one a line,
// GameString <TAB> result <TAB> reason <TAB> game=N <TAB> ...
type MatchReader struct {
	br    *bufio.Reader
	line  int
	games int
}

// NewMatchReader returns a reader of the games of a match --out file.
func NewMatchReader(r io.Reader) *MatchReader {
	return &MatchReader{br: bufio.NewReaderSize(r, 64*1024)}
}

// Next returns the next game, or io.EOF after the last. Blank lines and
// lines starting with # are passed over, and so are void games (a rules
// disagreement or a refused command, which have no result). A last line
// without its newline is taken for one the match is still writing, or that
// a kill cut off (match --resume drops it), and is not read.
func (mr *MatchReader) Next() (Source, error) {
	for {
		text, err := mr.br.ReadString('\n')
		if err == io.EOF {
			return Source{}, io.EOF
		}
		if err != nil {
			return Source{}, err
		}
		mr.line++
		text = strings.TrimRight(text, "\r\n")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		src, void, err := mr.parse(text)
		if err != nil {
			return Source{}, fmt.Errorf("line %d: %w", mr.line, err)
		}
		mr.games++
		if !void {
			return src, nil
		}
	}
}

// resultNamed returns the result a match file names, if a game can be
// labelled with it.
func resultNamed(name string) (core.Result, bool) {
	switch name {
	case "WhiteWins":
		return core.WhiteWins, true
	case "BlackWins":
		return core.BlackWins, true
	case "Draw":
		return core.Draw, true
	}
	return core.InProgress, false
}

// parse reads one game's line; void reports a game without a result.
func (mr *MatchReader) parse(text string) (Source, bool, error) {
	fields := strings.Split(text, "\t")
	if len(fields) < 2 {
		return Source{}, false, errors.New("not a match --out line: want GameString <TAB> result ...")
	}
	src := Source{Number: mr.games}
	for _, f := range fields[2:] {
		if v, ok := strings.CutPrefix(f, "game="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return Source{}, false, fmt.Errorf("game number %q", v)
			}
			src.Number = n
		}
	}
	if fields[1] == "Void" {
		return src, true, nil
	}
	r, ok := resultNamed(fields[1])
	if !ok {
		return Source{}, false, fmt.Errorf("result %q is none of WhiteWins, BlackWins, Draw, Void", fields[1])
	}
	src.Result = r
	gs, err := uhp.ParseGameString(fields[0])
	if err != nil {
		return Source{}, false, err
	}
	if src.Game, err = gs.Load(); err != nil {
		return Source{}, false, err
	}
	return src, false, nil
}

package uhp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// FormatScore writes a score as the reference engine prints it in its
// intermediate best moves: pieces with two decimals, from the side to
// move's view. A forced result, which the reference engine has no way to
// tell apart, is engine.ForcedScoreBase minus its plies, as in the Hub
// dialect; a search that reported no score prints 0.00.
func FormatScore(s engine.Score) string {
	return strconv.FormatFloat(s.Pieces(), 'f', 2, 64)
}

// ParseScore reads the score of an intermediate best move. Numbers are
// evaluations, kept in hundredths, whatever the engine's unit; the
// infinities that engines print for a proved result (.NET writes "∞",
// others "Infinity" or "inf") are forced results of unknown length.
func ParseScore(s string) (engine.Score, error) {
	switch strings.ToLower(strings.TrimPrefix(s, "+")) {
	case "∞", "infinity", "inf":
		return engine.WinIn(0), nil
	case "-∞", "-infinity", "-inf":
		return engine.LossIn(0), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e15 {
		return engine.Score{}, fmt.Errorf("%q is not a score", s)
	}
	return engine.EvalScore(int(math.Round(x * 100))), nil
}

// multiPVField starts the last field of a report of one line of a MultiPV
// search: see ParseProgress.
const multiPVField = "multipv="

// ParseProgress reads a line an engine prints during bestmove before its
// answer: a bare MoveString, or the reference engine's report
// "MoveString;Depth;Score;PV1;PV2;...". The move must be a legal move of
// g, the game searched, and the principal variation is read in the
// positions it reaches; a PV that goes wrong is cut where it does, since
// the move and its depth and score are what a front end needs most.
//
// A report may end with hivebridge's extension "multipv=K": the report is
// then line K, from 1, of a MultiPV search (engine.Progress.MultiPV), whose
// lines hivebridge prints from the last to the first in each iteration.
// The field is no MoveString, so a viewer that knows nothing of it reads
// the line's move, depth, score and PV as ever, and takes the last line
// printed, the best, for the best move so far.
func ParseProgress(line string, g *core.Game) (engine.Progress, error) {
	fields := strings.Split(strings.TrimSpace(line), ";")
	multiPV := 0
	if last := fields[len(fields)-1]; len(fields) > 3 && strings.HasPrefix(last, multiPVField) {
		k, err := strconv.Atoi(last[len(multiPVField):])
		if err != nil || k < 1 {
			return engine.Progress{}, fmt.Errorf("%q is not an intermediate best move: %q is not a line number", line, last)
		}
		multiPV, fields = k, fields[:len(fields)-1]
	}
	m, err := ParseMove(fields[0], g)
	if err == nil {
		err = g.RuleBroken(m)
	}
	if err != nil {
		return engine.Progress{}, err
	}
	p := engine.Progress{Move: m}
	if len(fields) == 1 {
		return p, nil
	}
	if len(fields) < 3 {
		return engine.Progress{}, fmt.Errorf("%q is not an intermediate best move: want MoveString;Depth;Score;PV...", line)
	}
	if p.Depth, err = strconv.Atoi(fields[1]); err != nil || p.Depth < 0 {
		return engine.Progress{}, fmt.Errorf("%q is not an intermediate best move: the depth %q is not a whole number", line, fields[1])
	}
	if p.Score, err = ParseScore(fields[2]); err != nil {
		return engine.Progress{}, fmt.Errorf("%q is not an intermediate best move: %w", line, err)
	}
	p.MultiPV = multiPV
	c := g.Clone()
	for _, text := range fields[3:] {
		pm, err := ParseMove(text, c)
		if err != nil || c.RuleBroken(pm) != nil {
			break
		}
		p.PV = append(p.PV, pm)
		c.Play(pm)
	}
	return p, nil
}

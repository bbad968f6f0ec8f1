package referee

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Adjudication ends a game early on the engines' own scores, as
// cutechess-cli's -draw and -resign do (cutechess's
// projects/lib/src/gameadjudicator.cpp, GameAdjudicator::addEval): it saves
// the clock time of games whose end both engines already see. Off unless a
// rule is given.
type Adjudication struct {
	Draw   *DrawRule
	Resign *ResignRule
}

// DrawRule adjudicates a draw once both engines' scores have been within
// Score of zero for MoveCount moves each (2·MoveCount plies in a row), from
// move MoveNumber on: cutechess's -draw movenumber= movecount= score=.
type DrawRule struct {
	MoveNumber, MoveCount int
	Score                 int // hundredths of a piece
}

// ResignRule adjudicates a loss once the engine to lose has scored itself
// at least Score below zero for MoveCount of its moves in a row and its
// opponent, agreeing, itself at least Score above zero for as many:
// cutechess's -resign movecount= score= twosided=true. Hivebridge makes it
// two-sided always, so that one engine's wrong idea of a position never
// ends a game.
type ResignRule struct {
	MoveCount int
	Score     int // hundredths of a piece
}

// ParseDrawRule reads "movenumber=N,movecount=M,score=S", S in hundredths
// of a piece, as cutechess-cli spells -draw (with commas between).
func ParseDrawRule(s string) (*DrawRule, error) {
	v, err := ruleValues(s, "movenumber", "movecount", "score")
	if err != nil {
		return nil, fmt.Errorf("draw adjudication %q: %w", s, err)
	}
	return &DrawRule{MoveNumber: v[0], MoveCount: v[1], Score: v[2]}, nil
}

// ParseResignRule reads "movecount=M,score=S", S in hundredths of a piece.
func ParseResignRule(s string) (*ResignRule, error) {
	v, err := ruleValues(s, "movecount", "score")
	if err != nil {
		return nil, fmt.Errorf("resign adjudication %q: %w", s, err)
	}
	if v[0] < 1 {
		return nil, fmt.Errorf("resign adjudication %q: movecount must be at least 1", s)
	}
	return &ResignRule{MoveCount: v[0], Score: v[1]}, nil
}

// ruleValues reads name=value pairs, each of names once, each a whole
// number from 0.
func ruleValues(s string, names ...string) ([]int, error) {
	values := make([]int, len(names))
	seen := make([]bool, len(names))
	for _, part := range strings.Split(s, ",") {
		name, text, ok := strings.Cut(strings.TrimSpace(part), "=")
		i := -1
		for j, n := range names {
			if strings.EqualFold(name, n) {
				i = j
			}
		}
		if !ok || i < 0 || seen[i] {
			return nil, fmt.Errorf("want %s=N, each once", strings.Join(names, "=N,"))
		}
		n, err := strconv.Atoi(text)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s=%s: want a whole number from 0", name, text)
		}
		values[i], seen[i] = n, true
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%s= is missing", names[i])
		}
	}
	return values, nil
}

// adjudicator follows one game's scores, as cutechess's GameAdjudicator.
type adjudicator struct {
	rules     Adjudication
	drawCount int    // plies in a row with a score within the draw margin
	lostCount [2]int // a colour's own moves in a row scored lost by the margin
	wonCount  [2]int // and scored won by it
}

// see takes the Eval of the move that mover just played, after which the
// game has g's moves, and says whether the game is adjudicated and how.
// A move without a score (an engine that reports none, or one forced on
// it) starts the counts again, as cutechess does for a move of depth 0.
func (a *adjudicator) see(mover core.Color, e Eval, g *core.Game) (result core.Result, reason string, over bool) {
	if e.Depth <= 0 || e.Score.Kind == engine.NoScore {
		a.drawCount, a.lostCount[mover], a.wonCount[mover] = 0, 0, 0
		return core.InProgress, "", false
	}
	score := centi(e.Score)
	if d := a.rules.Draw; d != nil {
		if score >= -d.Score && score <= d.Score {
			a.drawCount++
		} else {
			a.drawCount = 0
		}
		if g.MovesPlayed()/2 >= d.MoveNumber && a.drawCount >= 2*d.MoveCount {
			return core.Draw, fmt.Sprintf("adjudicated a draw: both engines scored within %s for %d moves each", pieces(d.Score), d.MoveCount), true
		}
	}
	if r := a.rules.Resign; r != nil {
		a.lostCount[mover], a.wonCount[mover] = streak(a.lostCount[mover], score <= -r.Score), streak(a.wonCount[mover], score >= r.Score)
		if a.lostCount[mover] >= r.MoveCount && a.wonCount[mover.Other()] >= r.MoveCount {
			winner := core.WhiteWins
			if mover == core.White {
				winner = core.BlackWins
			}
			return winner, fmt.Sprintf("adjudicated a loss for %s: both engines scored it lost by %s or more for %d moves each", colourName(mover), pieces(r.Score), r.MoveCount), true
		}
	}
	return core.InProgress, "", false
}

func streak(n int, holds bool) int {
	if holds {
		return n + 1
	}
	return 0
}

// centi is a score in hundredths of a piece, a forced result far beyond
// any margin (engine.ForcedScoreBase pieces, less its plies).
func centi(s engine.Score) int {
	switch s.Kind {
	case engine.Win:
		return 100 * (engine.ForcedScoreBase - s.Plies)
	case engine.Loss:
		return -100 * (engine.ForcedScoreBase - s.Plies)
	}
	return s.Centi
}

func pieces(c int) string { return strconv.FormatFloat(float64(c)/100, 'f', 2, 64) + " pieces" }

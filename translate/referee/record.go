package referee

import (
	"fmt"
	"strconv"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Ending is the kind of a game's end, so that the ways games ended are
// counted apart: a forfeit is an engine's failure, a rules disagreement is
// not.
type Ending uint8

// The kinds of ending.
const (
	ByRules        Ending = iota // a Queen surrounded, or threefold repetition
	ByMoveCap                    // adjudicated a draw at the move cap
	ByForfeit                    // an engine failed: it crashed, hung, erred, moved illegally or ran out of time
	ByDisagreement               // an engine's verdict of the position differed from the referee's
	// ByRefusal: an engine answered a command of hivebridge's with err
	// or invalidmove (a translate.RefusedError). hivebridge may have sent
	// what the engine cannot read, so the game is void, not the engine's
	// loss, and the match stops there.
	ByRefusal
	// ByAdjudication: both engines' scores agreed on the result for long
	// enough (Config.Adjudication).
	ByAdjudication
)

// endingNames are the endings as a match's --out file names them.
func endingNames() []string {
	return []string{"rules", "movecap", "forfeit", "disagreement", "refusal", "adjudication"}
}

func (e Ending) String() string {
	if names := endingNames(); int(e) < len(names) {
		return names[e]
	}
	return "ending" + strconv.Itoa(int(e))
}

// ParseEnding reads an ending's name.
func ParseEnding(s string) (Ending, error) {
	for i, name := range endingNames() {
		if s == name {
			return Ending(i), nil
		}
	}
	return 0, fmt.Errorf("unknown ending %q", s)
}

// GameRecord is one finished game of a match.
type GameRecord struct {
	Index      int         // 0-based number of the game in the match
	AWhite     bool        // engine A played White
	Opening    string      // the GameString of the start position
	GameString string      // the whole game, as uhp.Describe writes it
	Result     core.Result // WhiteWins, BlackWins or Draw; InProgress for a void game (see Void)
	Ending     Ending
	Reason     string        // how it ended: "white queen surrounded", "black forfeits on bestmove: ..."
	Disagree   *Disagreement // the verdicts, when Ending is ByDisagreement
	Plies      int           // moves played, opening included
	Elapsed    time.Duration
	// Evals are, for each move the engines played (the opening's are not
	// theirs), what the engine that played it said of it when it chose
	// it: the depth and score of its last report, if it reported the
	// move it played (zero where it said nothing), and the time it took.
	Evals []Eval
}

// Eval is an engine's last word on the move it played: the depth it
// searched and the score, from its own side's view, and how long it took
// to answer.
type Eval struct {
	Depth int
	Score engine.Score
	// Took is the time from the referee's asking to the engine's
	// answer, as the referee measured it (and charged to a clock).
	Took time.Duration
	// Overhead is the referee's own time after the answer, charged to no
	// clock: checking the move, playing it to both engines and hearing
	// their verdicts, until the next engine is asked (zero for the move
	// that ended the game).
	Overhead time.Duration
}

// MoveReport tells, as a game goes on, how the engine that just moved
// thought about its move.
type MoveReport struct {
	Game int  // the game's index in the match
	A    bool // engine A moved
	Ply  int  // the ply of the move, from the start of the game
	Eval Eval
}

// Void reports whether the game has no result: a rules disagreement under
// DisagreementVoid, or a refusal of hivebridge's command. It counts in no
// score.
func (r GameRecord) Void() bool { return r.Result == core.InProgress }

// AScore is engine A's points from the game: 1, 0.5 or 0 (0 for a void
// game, which Stats leave out).
func (r GameRecord) AScore() float64 {
	switch {
	case r.Result == core.Draw:
		return 0.5
	case (r.Result == core.WhiteWins) == r.AWhite:
		return 1
	}
	return 0
}

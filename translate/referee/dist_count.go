package referee

import (
	"fmt"
	"sort"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// How a test counts its pairs: as Run counts games and pairs, one pair at
// a time, each report adding its two games to engine A's Stats kept in the
// test's row and running the SPRT on them.

// statsColumns are the columns of match_tests that hold engine A's Stats,
// in the order of statsFields.
const statsColumns = `a_white_wins, a_white_losses, a_white_draws, a_black_wins, a_black_losses, a_black_draws,
	penta_ww, penta_wd, penta_wl, penta_dd, penta_ld, penta_ll`

// statsFields are the fields of st that statsColumns hold, to scan into or
// to write from (Total is their sum: sumTotal).
func statsFields(st *Stats) []*int {
	return []*int{&st.AsWhite.Wins, &st.AsWhite.Losses, &st.AsWhite.Draws, &st.AsBlack.Wins, &st.AsBlack.Losses, &st.AsBlack.Draws,
		&st.Pairs.WW, &st.Pairs.WD, &st.Pairs.WL, &st.Pairs.DD, &st.Pairs.LD, &st.Pairs.LL}
}

// sumTotal sets A's total score from its scores by colour.
func (st *Stats) sumTotal() {
	st.Total = Score{Wins: st.AsWhite.Wins + st.AsBlack.Wins, Losses: st.AsWhite.Losses + st.AsBlack.Losses, Draws: st.AsWhite.Draws + st.AsBlack.Draws}
}

// countPair adds the finished games of one pair to st: each game that is
// not void, and the pair when both of its games are in and neither is void
// (as pairing counts a match's).
func countPair(st *Stats, games []GameRecord) {
	for _, g := range games {
		st.Add(g)
	}
	if len(games) == 2 && !games[0].Void() && !games[1].Void() {
		st.Pairs.Add(games[0].AScore(), games[1].AScore())
	}
}

// verdictOf is where a test stands once a pair has been counted into st:
// stopped by a void refusal (as Run stops there), decided by its SPRT,
// done with all its pairs, or open; why it ended, when it did; and the
// SPRT's state, when it has one.
func verdictOf(s TestSettings, st Stats, games []GameRecord, pairsDone, pairs int) (TestState, string, *SPRTState) {
	var sprt *SPRTState
	if s.SPRT != nil {
		sprt = &SPRTState{Test: *s.SPRT}
		sprt.Update(st)
	}
	for _, g := range games {
		if g.Ending == ByRefusal {
			return TestStopped, fmt.Sprintf("game %d void, not scored: %s", g.Index, g.Reason), sprt
		}
	}
	switch {
	case sprt != nil && sprt.Verdict != SPRTContinue:
		return TestDecided, "SPRT: " + sprt.Verdict.String(), sprt
	case pairsDone >= pairs:
		return TestDone, "", sprt
	}
	return TestOpen, "", sprt
}

// pairGame is a game of a done pair as its row keeps it (match_pairs.games):
// what the test's table counts and shows. The game itself, move by move, is
// in the archive, under the pair's archive id.
type pairGame struct {
	Index  int    `json:"game"`
	AWhite bool   `json:"a_white"`
	Result string `json:"result"` // WhiteWins, BlackWins, Draw, or InProgress for a void game
	Ending string `json:"ending"`
	Reason string `json:"reason"`
	Plies  int    `json:"plies"`
	Millis int64  `json:"ms"`
}

func pairGameOf(r GameRecord) pairGame {
	return pairGame{Index: r.Index, AWhite: r.AWhite, Result: r.Result.String(), Ending: r.Ending.String(),
		Reason: r.Reason, Plies: r.Plies, Millis: r.Elapsed.Milliseconds()}
}

// record is the game's record as far as the row keeps it.
func (p pairGame) record() (GameRecord, error) {
	r := GameRecord{Index: p.Index, AWhite: p.AWhite, Reason: p.Reason, Plies: p.Plies, Elapsed: time.Duration(p.Millis) * time.Millisecond}
	state, err := core.ParseGameState(p.Result)
	if err != nil {
		return r, err
	}
	r.Result = state.Result()
	r.Ending, err = ParseEnding(p.Ending)
	return r, err
}

// sortGames puts a pair's games in game order, the order its pentanomial
// count and archive ids take.
func sortGames(games []GameRecord) {
	sort.Slice(games, func(i, j int) bool { return games[i].Index < games[j].Index })
}

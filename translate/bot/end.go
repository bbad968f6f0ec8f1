package bot

import (
	"fmt"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// end records how a game ended, from its last row (nil for a game the site
// deleted: aborted, or unstarted and cleaned up), counts it, and closes its
// engine.
func (a *account) end(gs *gameState, row *hivegame.Game) {
	a.retire(gs)
	a.b.m.playing.WithLabelValues(a.cfg.Name).Dec()
	outcome := "aborted"
	end := archive.End{How: "aborted", Reason: "the game is gone from hivegame.com: aborted, or never started"}
	if row != nil {
		end = endOf(row)
		outcome = outcomeFor(end.Result, gs.me)
	}
	a.b.m.gamesEnded.WithLabelValues(a.cfg.Name, outcome).Inc()
	gs.log.Info().Str("result", end.Result).Str("how", end.How).Str("reason", end.Reason).Str("outcome", outcome).Msg("game over")
	if gs.rec != nil {
		gs.rec.Ended(end, gs.gameString())
	}
}

// interrupted records that the bot stopped while the game goes on.
func (gs *gameState) interrupted() {
	if gs.rec != nil {
		gs.rec.Ended(archive.End{How: "interrupted", Reason: "the bot stopped; the game goes on at hivegame.com"}, gs.gameString())
	}
}

// endOf is how a finished row ended, as the archive says it: the result as
// a UHP GameState, the manner from the site's conclusion, and the site's
// own words with the ratings it gives.
func endOf(row *hivegame.Game) archive.End {
	var end archive.End
	r, _ := row.Result()
	switch r {
	case hivegame.ResultWhiteWins:
		end.Result = "WhiteWins"
	case hivegame.ResultBlackWins:
		end.Result = "BlackWins"
	case hivegame.ResultDraw:
		end.Result = "Draw"
	}
	switch row.Conclusion {
	case "Board", "Repetition", "Draw":
		end.How = "state"
	case "Resigned":
		end.How = "resignation"
	case "Timeout":
		end.How = "timeout"
	case "Committee":
		end.How = "adjudication"
	default:
		end.How = strings.ToLower(row.Conclusion)
	}
	reason := []string{"hivegame.com: " + row.Conclusion}
	if w, b := rating(row.WhiteRating, row.WhiteRatingChange), rating(row.BlackRating, row.BlackRatingChange); w != "" || b != "" {
		reason = append(reason, "ratings white "+orUnknown(w)+", black "+orUnknown(b))
	}
	end.Reason = strings.Join(reason, "; ")
	return end
}

// rating writes a site rating and its change: "1523 (+8)".
func rating(r, change *float64) string {
	if r == nil {
		return ""
	}
	s := fmt.Sprintf("%.0f", *r)
	if change != nil {
		s += fmt.Sprintf(" (%+.0f)", *change)
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// outcomeFor is the metrics' result of a game for the side me.
func outcomeFor(result string, me core.Color) string {
	switch {
	case result == "Draw":
		return "draw"
	case result == "WhiteWins" && me == core.White, result == "BlackWins" && me == core.Black:
		return "win"
	case result == "WhiteWins", result == "BlackWins":
		return "loss"
	}
	return "unknown"
}

package train

import (
	"context"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// Game is a finished game and its result, whose positions Label scores.
type Game struct {
	Game   *core.Game
	Result core.Result
}

// Label returns a Source of the positions of games, each replayed from its
// start: every position from ply skip on, while the game goes on, scored
// by a search of the native searcher (linear evaluation, one thread, its
// table cleared at each game) to depth, and labelled with its game's
// result for the side to move. It is the quick way to labelled positions
// from a match's records; a pipeline that samples quiet positions and
// labels them deeper is the better source.
func Label(games []Game, depth, skip int) Source {
	return func(yield func(g *core.Game, score int, result float64) bool) error {
		s := ai.New(1, 16)
		for _, gm := range games {
			s.Clear()
			r := core.NewGame(gm.Game.Type(), core.RepetitionDraw(gm.Game.RepetitionDrawOn()))
			for _, m := range gm.Game.History() {
				if r.Over() {
					break
				}
				if r.Ply() >= skip {
					info := s.Search(context.Background(), r, ai.Limits{Depth: depth}, nil)
					if !yield(r, info.Score, gm.Result.ScoreFor(r.ToMove())) {
						return nil
					}
				}
				r.Play(m)
			}
		}
		return nil
	}
}

package dataset

import (
	"fmt"
	"math/rand/v2"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// ExtendOpenings returns each opening followed by plies random legal
// moves, so that a match of one engine against itself at a fixed depth,
// which plays the same game from the same opening every time, plays a new
// game from each. Opening k draws from its own PCG stream (seed, k), so the
// result is the same on every machine; a line that would end the game is
// drawn again from the same stream.
func ExtendOpenings(openings []uhp.GameString, plies int, seed uint64) ([]uhp.GameString, error) {
	out := make([]uhp.GameString, len(openings))
	var l core.MoveList
	for k, gs := range openings {
		start, err := gs.Load()
		if err != nil {
			return nil, fmt.Errorf("opening %d: %w", k+1, err)
		}
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		var g *core.Game
		for range 100 {
			g = start.Clone()
			for range plies {
				if g.Over() {
					break
				}
				g.GenerateMoves(&l)
				g.Play(l.At(rng.IntN(l.Len())))
			}
			if !g.Over() {
				break
			}
		}
		if g.Over() {
			return nil, fmt.Errorf("opening %d: no %d random plies from it leave the game going", k+1, plies)
		}
		if out[k], err = uhp.Describe(g); err != nil {
			return nil, fmt.Errorf("opening %d: %w", k+1, err)
		}
	}
	return out, nil
}

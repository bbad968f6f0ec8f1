package core_test

import (
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// TestResultScoreFor checks the score of each outcome for each side, as a
// match table counts it.
func TestResultScoreFor(t *testing.T) {
	for _, c := range []struct {
		r            core.Result
		white, black float64
	}{{core.WhiteWins, 1, 0}, {core.BlackWins, 0, 1}, {core.Draw, 0.5, 0.5}, {core.InProgress, 0.5, 0.5}} {
		if w, b := c.r.ScoreFor(core.White), c.r.ScoreFor(core.Black); w != c.white || b != c.black {
			t.Errorf("%v: %v for White, %v for Black; want %v, %v", c.r, w, b, c.white, c.black)
		}
	}
}

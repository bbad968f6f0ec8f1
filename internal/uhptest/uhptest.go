// Package uhptest holds the test set-up that the tests of several packages
// share over UHP's GameString codec: games written down as GameStrings,
// loaded, and games described as GameStrings to compare. It is imported by
// tests only.
package uhptest

import (
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// MustDescribe returns the GameString of g, a game from the empty board.
func MustDescribe(tb testing.TB, g *core.Game) uhp.GameString {
	tb.Helper()
	gs, err := uhp.Describe(g)
	if err != nil {
		tb.Fatal(err)
	}
	return gs
}

// Load returns the game of a GameString, its moves played from the empty
// board and checked against the rules.
func Load(tb testing.TB, s string) *core.Game {
	tb.Helper()
	gs, err := uhp.ParseGameString(s)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := gs.Load()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

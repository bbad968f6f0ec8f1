package ai

import "github.com/hivebridge/hivebridge/core"

// WinsNow exposes winsNow to the external tests.
func WinsNow(g *core.Game) bool {
	var l core.MoveList
	return winsNow(g, &l)
}

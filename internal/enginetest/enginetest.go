// Package enginetest holds searchers that stand in for an engine in the
// tests of the protocols' sessions, where the tests of more than one
// protocol want the same one. It is imported by tests only.
package enginetest

import (
	"context"
	"errors"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// Garbling fails with words that are not valid UTF-8, as a backend process
// may print them, so that a test can check a session writes them as valid
// UTF-8.
type Garbling struct{}

// BestMove fails with "the engine said \xff\xfe".
func (Garbling) BestMove(context.Context, *core.Game, engine.Limit, func(engine.Progress)) (core.Move, error) {
	return core.NoMove, errors.New("the engine said \xff\xfe")
}

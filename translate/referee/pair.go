package referee

import (
	"context"
	"fmt"

	"github.com/hivebridge/hivebridge/core"
)

// A distributed test's workers (RunWorker) play game pairs one at a time,
// each pair claimed from the test, rather than a whole match through Run:
// these are Run's steps, taken one by one.

// Prepare readies the configuration for PlayGame as Run readies its own:
// the defaults set, the settings checked, and each engine opened once, so
// that a spec, an option or a game type the engines cannot play is one
// clear error before any game rather than a forfeit of every game.
func (cfg *Config) Prepare(ctx context.Context) error {
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	cfg.Engine = cfg.Engine.WithDefaults()
	if err := cfg.check(); err != nil {
		return err
	}
	starts, err := cfg.openings()
	if err != nil {
		return err
	}
	return cfg.preflight(ctx, starts)
}

// PairOpening is the start position of game pair k (games 2k and 2k+1), the
// same as Run gives it: opening k of the file, cycling, or the random
// opening k of the seed.
func (cfg *Config) PairOpening(k int) (*core.Game, error) {
	if len(cfg.Openings) == 0 {
		return RandomOpening(cfg.GameType, cfg.RandomPlies, cfg.Seed, uint64(k))
	}
	gs := cfg.Openings[k%len(cfg.Openings)]
	g, err := gs.Load(core.RepetitionDraw(true))
	if err != nil {
		return nil, fmt.Errorf("opening %d %q: %w", k%len(cfg.Openings)+1, gs, err)
	}
	if g.Over() {
		return nil, fmt.Errorf("opening %d %q: the game is already over", k%len(cfg.Openings)+1, gs)
	}
	return g, nil
}

// PlayGame plays game i of the match from start (its pair's opening), with
// the configuration Prepare readied, as Run plays each of its games.
// finished is false when ctx ended before the game did: its record means
// nothing.
func (cfg *Config) PlayGame(ctx context.Context, i int, start *core.Game) (rec GameRecord, finished bool) {
	return cfg.playGame(ctx, i, start)
}

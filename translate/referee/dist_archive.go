package referee

import (
	"context"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// A worker keeps each game in the archive as a match does, move by move
// (Config.Archive), and must also know the id the archive gave it, which a
// pair's report records: the test's counts can then be checked against
// the archive's games. So each game gets a keeper of its own, which tells
// the id its one game was started with (KeeperConfig.OnStart).

// playArchived plays game i of the prepared cfg from start, kept in store,
// and returns with its record the id the archive gave it: 0 when the
// archive lacks the game or any of its moves (the database was down), so
// that such a game is never counted as the archive's. The game's writes
// have all ended when it returns.
func playArchived(ctx context.Context, cfg Config, store archive.Store, log zerolog.Logger, i int, start *core.Game) (rec GameRecord, id int64, finished bool) {
	var (
		lost    atomic.Bool
		started atomic.Int64
	)
	keeper := archive.NewKeeper(store, archive.KeeperConfig{Log: log,
		OnLost:  func(games, moves int) { lost.Store(true) },
		OnStart: func(id int64) { started.Store(id) }})
	cfg.Archive = keeper
	rec, finished = cfg.PlayGame(ctx, i, start)
	keeper.Close()
	if lost.Load() {
		return rec, 0, finished
	}
	return rec, started.Load(), finished
}

// sweepOrphans marks interrupted the archive's games whose process died,
// as the daemon does now and then: a worker that claims a pair again after
// a lease ran out sweeps the games its dead worker left in play, which no
// daemon may be there to sweep.
func sweepOrphans(ctx context.Context, store archive.Store, log zerolog.Logger) {
	ctx, cancel := query(ctx)
	defer cancel()
	if n, err := store.InterruptOrphans(ctx); err != nil {
		log.Warn().Err(err).Msg("worker: marking the games of dead processes interrupted failed")
	} else if n > 0 {
		log.Info().Int("games", n).Msg("worker: marked the games of dead processes interrupted")
	}
}

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
// the archive's games. The keeper does not tell its games' ids, so each
// game gets a keeper of its own over a store that notes the id its one
// game was started with. (That store hides the database writer's hurry,
// so that a move's write may wait the writer's few milliseconds of
// gathering before the next move is played: a cost only to engines that
// move faster than that, as at depth 1.)

// idStore is a store that notes the id of the game started through it.
type idStore struct {
	archive.Store
	id atomic.Int64
}

func (s *idStore) Start(ctx context.Context, st archive.Start) (int64, error) {
	id, err := s.Store.Start(ctx, st)
	if err == nil {
		s.id.Store(id)
	}
	return id, err
}

// playArchived plays game i of the prepared cfg from start, kept in store,
// and returns with its record the id the archive gave it: 0 when the
// archive lacks the game or any of its moves (the database was down), so
// that such a game is never counted as the archive's. The game's writes
// have all ended when it returns.
func playArchived(ctx context.Context, cfg Config, store archive.Store, log zerolog.Logger, i int, start *core.Game) (rec GameRecord, id int64, finished bool) {
	s := &idStore{Store: store}
	var lost atomic.Bool
	keeper := archive.NewKeeper(s, archive.KeeperConfig{Log: log, OnLost: func(games, moves int) { lost.Store(true) }})
	cfg.Archive = keeper
	rec, finished = cfg.PlayGame(ctx, i, start)
	keeper.Close()
	if lost.Load() {
		return rec, 0, finished
	}
	return rec, s.id.Load(), finished
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

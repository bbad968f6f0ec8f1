package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/pairing"
	"github.com/hivebridge/hivebridge/translate/pairing/pgpair"
	"github.com/hivebridge/hivebridge/translate/records"
)

// sweepEvery is how often a daemon looks for the games of daemons that
// died (several daemons sharing a PostgreSQL archive, or one that
// restarted before PostgreSQL saw its old connections end).
const sweepEvery = 5 * time.Second

// serverArchive is the daemon's archive: the store, the keeper that
// writes to it, and the counters of what it failed to keep and of the
// writes the database refused.
type serverArchive struct {
	store   archive.Store
	keeper  *archive.Keeper
	lost    *prometheus.CounterVec
	refused *prometheus.CounterVec
}

// openArchive opens the daemon's archive (nil with --db none), marks
// interrupted the games that daemons no longer running left in progress,
// and keeps doing so while ctx lasts.
//
// With --archive-retention, each sweep also deletes the games that
// started longer ago than that and are no longer in progress, so that an
// archive kept for a while does not grow for ever.
func (s *Server) openArchive(ctx context.Context) error {
	if s.cfg.ArchiveRetention < 0 {
		return fmt.Errorf("--archive-retention %s: want a duration of 0 (keep every game) or more", s.cfg.ArchiveRetention)
	}
	store, err := archive.Open(ctx, s.cfg.DB, "serve")
	if err != nil || store == nil {
		return err
	}
	a := &serverArchive{store: store, lost: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hivebridge_archive_not_archived_total",
		Help: "Games (never started in the archive) and moves that ended without being archived.",
	}, []string{"what"}), refused: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hivebridge_archive_refused_writes_total",
		Help: "Writes the database refused for what they held (cause: data, constraint, statement, missing); each gives its game up, and what the game then lacks is counted in hivebridge_archive_not_archived_total.",
	}, []string{"cause"})}
	// A session waits for the archive only when its game's last write has
	// not ended by its next command or change: the waits, against
	// hivebridge_commands_total, are what the archive adds to answers.
	waits := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "hivebridge_archive_wait_seconds",
		Help:    "Time a session waited for its game's last archive write, counted only when that write had not ended.",
		Buckets: prometheus.ExponentialBuckets(0.0001, 2, 15),
	})
	journaled := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "hivebridge_archive_journaled_games_total",
		Help: "Ended games whose commit a session's next command found not done, kept in the end journal rather than waited for.",
	})
	s.metrics.registry.MustRegister(a.lost, a.refused, waits, journaled)
	journal := s.cfg.ArchiveJournal
	switch journal {
	case "none":
		journal = ""
	case "":
		if journal, err = archive.DefaultJournal(s.cfg.DB); err != nil {
			store.Close()
			return err
		}
	}
	a.keeper = archive.NewKeeper(store, archive.KeeperConfig{Log: s.log, Backlog: s.cfg.ArchiveBacklog, OnLost: func(games, moves int) {
		a.lost.WithLabelValues("games").Add(float64(games))
		a.lost.WithLabelValues("moves").Add(float64(moves))
	}, OnRefused: func(cause string) { a.refused.WithLabelValues(cause).Inc() },
		OnWait: func(d time.Duration) { waits.Observe(d.Seconds()) }, Journal: journal, OnJournaled: journaled.Inc})
	a.lost.WithLabelValues("games")
	a.lost.WithLabelValues("moves")
	for _, cause := range archive.RefusalCauses() {
		a.refused.WithLabelValues(cause)
	}
	s.metrics.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "hivebridge_archive_pending_games",
		Help: "Games that ended while the archive was unavailable, held to be written once it is back.",
	}, func() float64 { return float64(a.keeper.Pending()) }))
	s.archive = a
	s.log.Info().Str("archive", store.Name()).Msg("archiving games")
	sweep := func() {
		if err := store.Heartbeat(ctx); err != nil {
			s.log.Warn().Err(err).Msg("marking this daemon alive in the archive")
		}
		n, err := store.InterruptOrphans(ctx)
		if err != nil {
			s.log.Warn().Err(err).Msg("looking for interrupted games")
		} else if n > 0 {
			s.log.Info().Int("games", n).Msg("games left in progress by a stopped daemon marked interrupted")
		}
		if s.cfg.ArchiveRetention > 0 {
			before := time.Now().Add(-s.cfg.ArchiveRetention)
			n, err := store.Prune(ctx, before)
			if err != nil {
				s.log.Warn().Err(err).Msg("deleting the games older than --archive-retention")
			}
			if n > 0 {
				s.log.Info().Int("games", n).Time("started_before", before).Msg("games older than --archive-retention deleted")
			}
		}
	}
	sweep()
	go func() {
		t := time.NewTicker(sweepEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				sweep()
			}
		}
	}()
	return nil
}

// openPairing pairs the viewers who start remote games, with
// --pair-viewers: through PostgreSQL when the archive is PostgreSQL, so
// that a viewer meets the viewers of every daemon on that archive, and
// among the daemon's own viewers otherwise.
func (s *Server) openPairing(ctx context.Context) error {
	switch {
	case !s.cfg.PairViewers:
	case s.archive != nil && strings.HasPrefix(s.cfg.DB, "postgres"):
		p, err := pgpair.Open(ctx, s.cfg.DB, s.cfg.PairWait, s.cfg.MoveWait, s.log)
		if err != nil {
			return err
		}
		s.pairing = p
	default:
		s.pairing = pairing.NewLocal(s.cfg.PairWait, s.cfg.MoveWait)
	}
	return nil
}

// close writes what it can of the games held, reports the rest lost, and
// closes the store; the sessions have ended.
func (a *serverArchive) close() {
	a.keeper.Close()
	a.store.Close()
}

// backendName is the backend as a player in the archive: its id and spec.
func (s *Server) backendName() string { return s.backendID + " (" + s.cfg.Backend + ")" }

// gameLog records one session's games in the archive. A game is archived
// from its first move: a session that starts games and plays none leaves
// nothing behind.
type gameLog struct {
	s      *Server
	source string
	begun  *uhp.GameEvent    // the game in progress, not archived yet
	rec    *archive.Recorder // the game in progress, archived
	ended  *archive.Recorder // the game that ended last, its end maybe not written yet
}

// settle waits until the game's last change is archived (or given up):
// the session's next command is answered only then.
func (g *gameLog) settle() {
	if g.rec != nil {
		g.rec.Settle()
	}
	if g.ended != nil {
		g.ended.Settle()
		g.ended = nil
	}
}

func (g *gameLog) name(player string) string {
	switch player {
	case uhp.PlayerBackend:
		return g.s.backendName()
	case uhp.PlayerViewer:
		return archive.Viewer
	}
	return player
}

func (g *gameLog) event(ev uhp.GameEvent) {
	switch ev.Kind {
	case uhp.GameBegun:
		g.rec, g.begun = nil, &ev
	case uhp.MovePlayed:
		if g.rec == nil && g.begun != nil {
			b := g.begun
			g.begun = nil
			players := archive.Players{White: g.name(b.White), Black: g.name(b.Black)}
			if b.White == "" {
				players.White = ""
			}
			if b.Black == "" {
				players.Black = ""
			}
			gameType, by := uhp.FormatGameType(b.Game.Type), g.name(ev.By)
			if len(b.Game.Moves) == 0 || by == archive.Viewer {
				// The game starts in the archive with this move, in one
				// write: a Begin then a Played would make the move's
				// answer wait for the start's commit (Played settles).
				moves := append(slices.Clip(b.Game.Moves), ev.Move)
				g.rec = g.s.archive.keeper.Begin(g.source, gameType, ev.Game.String(), moves, by, players)
				return
			}
			g.rec = g.s.archive.keeper.Begin(g.source, gameType, b.Game.String(), b.Game.Moves, archive.Viewer, players)
		}
		switch {
		case g.rec == nil:
		case ev.Game.State == uhp.WhiteWins || ev.Game.State == uhp.BlackWins || ev.Game.State == uhp.Draw:
			// The game's end follows at once (uhp.Session records
			// it): the move is written with it.
			g.rec.PlayedLast(ev.Move, g.name(ev.By))
		default:
			g.rec.Played(ev.Move, g.name(ev.By))
		}
	case uhp.MovesUndone:
		if g.rec != nil {
			g.rec.Undone(ev.Undone, ev.Game.String())
		} else if g.begun != nil {
			g.begun.Game = ev.Game
		}
	case uhp.GameEnded:
		g.begun = nil
		if g.rec == nil {
			return
		}
		end := archive.End{How: ev.How, Reason: ev.Reason}
		switch ev.Game.State {
		case uhp.WhiteWins, uhp.BlackWins, uhp.Draw:
			end.Result = ev.Game.State.String()
		}
		if ev.How == "disconnect" && g.s.draining.Load() {
			// The daemon is stopping, not the viewer leaving: the game
			// can be played on.
			end.How, end.Reason = "interrupted", "the server shut down"
		}
		g.rec.Ended(end, ev.Game.String())
		g.rec, g.ended = nil, g.rec
	}
}

// archiveRoutes serves the archive: GET /games (a page of games, newest
// first, filtered by the query), GET /games/{id} (one game with every
// move), GET /games/{id}.txt (its GameString alone), .pgn and .sgf (the
// game as a record to download) and GET /ratings.
func (s *Server) archiveRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /games", s.withArchive(func(w http.ResponseWriter, r *http.Request, store archive.Store) {
		// The raw query, not r.URL.Query(), which drops a malformed
		// parameter (player=%zz) without a word and lists every game.
		f, err := archive.ParseFilterQuery(r.URL.RawQuery)
		if err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		games, total, err := store.List(r.Context(), f)
		if err != nil {
			archiveError(w, err)
			return
		}
		writeJSON(w, map[string]any{"games": games, "total": total, "page": f.Page, "per_page": f.PerPage})
	}))
	mux.HandleFunc("GET /games/{id}", s.withArchive(func(w http.ResponseWriter, r *http.Request, store archive.Store) {
		if err := noParameters(r); err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		text, suffix, _ := strings.Cut(r.PathValue("id"), ".")
		id, err := strconv.ParseInt(text, 10, 64)
		if suffix != "" && suffix != "txt" && suffix != "pgn" && suffix != "sgf" {
			err = fmt.Errorf("unknown suffix")
		}
		if err != nil || id < 1 {
			httpError(w, http.StatusBadRequest, fmt.Errorf("game id %q: want a whole number from 1", r.PathValue("id")))
			return
		}
		g, err := store.Get(r.Context(), id)
		if err != nil {
			archiveError(w, err)
			return
		}
		switch suffix {
		case "txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprintln(w, g.GameString)
			return
		case "pgn", "sgf":
			rec, err := archive.RecordOf(g)
			if err != nil {
				httpError(w, http.StatusInternalServerError, err)
				return
			}
			var buf bytes.Buffer
			if err := records.Write(&buf, records.Format(suffix), rec); err != nil {
				httpError(w, http.StatusInternalServerError, err)
				return
			}
			w.Header().Set("Content-Type", contentType(records.Format(suffix)))
			w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="hivebridge-%d.%s"`, id, suffix))
			w.Write(buf.Bytes())
			return
		}
		writeJSON(w, g)
	}))
	mux.HandleFunc("GET /ratings", s.withArchive(func(w http.ResponseWriter, r *http.Request, store archive.Store) {
		if err := noParameters(r); err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		outcomes, err := store.Outcomes(r.Context())
		if err != nil {
			archiveError(w, err)
			return
		}
		writeJSON(w, map[string]any{"ratings": archive.Ratings(outcomes), "games": len(outcomes)})
	}))
}

// noParameters refuses a query on a route that takes none, as GET /games
// refuses a filter it does not know: a parameter the client thinks
// matters is not silently ignored.
func noParameters(r *http.Request) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return fmt.Errorf("malformed query: %w", err)
	}
	if keys := slices.Sorted(maps.Keys(q)); len(keys) > 0 {
		return fmt.Errorf("unknown parameter %q: %s takes none", keys[0], r.URL.Path)
	}
	return nil
}

// withArchive answers 404 when the daemon keeps no archive.
func (s *Server) withArchive(h func(http.ResponseWriter, *http.Request, archive.Store)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.archive == nil {
			httpError(w, http.StatusNotFound, errors.New("this daemon keeps no archive (--db none)"))
			return
		}
		h(w, r, s.archive.store)
	}
}

// archiveError answers a store's error: an unknown game or a page past
// the end is the client's 404, a filter no game could pass its 400,
// anything else the database's 503.
func archiveError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, archive.ErrNotFound), errors.Is(err, archive.ErrPastEnd):
		httpError(w, http.StatusNotFound, err)
	case errors.Is(err, archive.ErrBadFilter):
		httpError(w, http.StatusBadRequest, err)
	default:
		httpError(w, http.StatusServiceUnavailable, fmt.Errorf("the archive is unavailable: %w", err))
	}
}

func httpError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// archiveHealth is the archive's part of /healthz: "" when it takes
// writes (or there is none) and the pairing across daemons listens (or
// there is none), else why not.
func (s *Server) archiveHealth(ctx context.Context) string {
	var why []string
	if s.archive != nil {
		if err := s.archive.keeper.Health(ctx); err != nil {
			why = append(why, err.Error())
		}
	}
	if s.pairing != nil {
		if h := s.pairing.Health(); h != "" {
			why = append(why, h)
		}
	}
	return strings.Join(why, "; ")
}

package daemon

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// A PostgreSQL archive also keeps the distributed match tests (`match
// --distributed`, `hivebridge worker`): the daemon shows them to the web
// page as OpenBench's test page shows a test, read-only. GET /tests lists
// the newest, GET /tests/{id} gives one with its workers and the pairs in
// play.

// maxTestsListed bounds GET /tests.
const maxTestsListed = 50

// openTests opens the tests of a PostgreSQL archive (nothing for SQLite,
// which keeps none).
func (s *Server) openTests(ctx context.Context) error {
	if s.archive == nil || !strings.HasPrefix(s.cfg.DB, "postgres") {
		return nil
	}
	t, err := referee.OpenTests(ctx, s.cfg.DB, s.log)
	if err != nil {
		return err
	}
	s.tests = t
	return nil
}

// testView is a test as the page shows it: engine A's results over the
// pairs counted, their Elo and the test's LLR against its bounds.
type testView struct {
	ID          int64         `json:"id"`
	State       string        `json:"state"`
	Stopped     string        `json:"stopped,omitempty"`
	White       string        `json:"white"` // engine A
	Black       string        `json:"black"` // engine B
	WhiteTC     string        `json:"white_tc"`
	BlackTC     string        `json:"black_tc"`
	Games       int           `json:"games"` // planned
	Played      int           `json:"played"`
	InPlay      int           `json:"in_play"` // pairs leased now
	Wins        int           `json:"wins"`
	Draws       int           `json:"draws"`
	Losses      int           `json:"losses"`
	Pentanomial [5]int        `json:"pentanomial"`
	Elo         *float64      `json:"elo"`
	EloMargin   *float64      `json:"elo_margin95"`
	NElo        *float64      `json:"nelo"`
	SPRT        *testSPRTView `json:"sprt,omitempty"`
	Created     time.Time     `json:"created"`
	Ended       *time.Time    `json:"ended,omitempty"`
	Workers     []testWorker  `json:"workers,omitempty"`
}

type testSPRTView struct {
	Elo0    float64 `json:"elo0"`
	Elo1    float64 `json:"elo1"`
	Model   string  `json:"model"`
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict string  `json:"verdict"`
}

type testWorker struct {
	Worker string `json:"worker"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
}

func finiteOrNil(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func viewOf(st referee.TestStatus) testView {
	v := testView{ID: st.ID, State: string(st.State), Stopped: st.Stopped, Games: st.Games, Played: 2 * st.PairsDone,
		InPlay: st.Leased, Wins: st.Stats.Total.Wins, Draws: st.Stats.Total.Draws, Losses: st.Stats.Total.Losses,
		Pentanomial: st.Stats.Pairs.Pentanomial(), Created: st.Created,
		White: st.Settings.EngineName(true), Black: st.Settings.EngineName(false)}
	if cfg, err := st.Settings.Config(st.Games, translate.Config{}); err == nil {
		v.WhiteTC, v.BlackTC = cfg.TCOf(true).String(), cfg.TCOf(false).String()
	}
	if !st.Ended.IsZero() {
		v.Ended = &st.Ended
	}
	if st.Stats.Pairs.Pairs() > 0 {
		e := st.Stats.Pairs.Estimate()
		v.Elo, v.EloMargin, v.NElo = finiteOrNil(e.Elo), finiteOrNil(e.EloError), finiteOrNil(e.NElo)
	}
	if sp := st.SPRT; sp != nil {
		v.SPRT = &testSPRTView{Elo0: sp.Test.Elo0, Elo1: sp.Test.Elo1, Model: sp.Test.Model.String(), LLR: sp.LLR,
			Lower: sp.Lower, Upper: sp.Upper, Verdict: sp.Verdict.String()}
	}
	for _, w := range st.Workers {
		v.Workers = append(v.Workers, testWorker{Worker: w.Worker, Games: 2 * w.Pairs, Wins: w.Score.Wins, Draws: w.Score.Draws, Losses: w.Score.Losses})
	}
	return v
}

// testsRoutes serves GET /tests and GET /tests/{id}.
func (s *Server) testsRoutes(mux *http.ServeMux) {
	none := func(w http.ResponseWriter) bool {
		if s.tests == nil {
			httpError(w, http.StatusNotFound, errors.New("this daemon's archive keeps no match tests: they live in a PostgreSQL archive (--db postgres://...), made by match --distributed"))
			return true
		}
		return false
	}
	mux.HandleFunc("GET /tests", func(w http.ResponseWriter, r *http.Request) {
		if none(w) {
			return
		}
		if err := noParameters(r); err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		list, err := s.tests.List(r.Context(), maxTestsListed)
		if err != nil {
			httpError(w, http.StatusServiceUnavailable, fmt.Errorf("the tests are unavailable: %w", err))
			return
		}
		views := make([]testView, len(list))
		for i, st := range list {
			views[i] = viewOf(st)
		}
		writeJSON(w, map[string]any{"tests": views})
	})
	mux.HandleFunc("GET /tests/{id}", func(w http.ResponseWriter, r *http.Request) {
		if none(w) {
			return
		}
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || id < 1 {
			httpError(w, http.StatusBadRequest, fmt.Errorf("test id %q: want a whole number from 1", r.PathValue("id")))
			return
		}
		st, err := s.tests.Status(r.Context(), id)
		switch {
		case errors.Is(err, referee.ErrNoTest):
			httpError(w, http.StatusNotFound, err)
		case err != nil:
			httpError(w, http.StatusServiceUnavailable, fmt.Errorf("the tests are unavailable: %w", err))
		default:
			writeJSON(w, viewOf(st))
		}
	})
}

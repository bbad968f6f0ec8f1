package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate/analysis"
	"github.com/hivebridge/hivebridge/translate/records"
)

// POST /analysis: a whole game scored move by move (translate/analysis, as
// hivebridge analyze scores it) by an engine of the pool, streamed as it
// goes so that the viewer's score graph fills in while the engine works.

// Bounds of POST /analysis.
const (
	// analysisDefaultDepth is each position's search when the request
	// names none: a few seconds for a whole game of forty moves on one
	// core.
	analysisDefaultDepth = 4
	// analysisMaxDepth is the deepest a request may ask for (below
	// --max-search-depth when that is lower): each position of a long
	// game searched so deep holds an engine of the pool for minutes.
	analysisMaxDepth = 8
	// maxAnalysisBody bounds the game record read: a game of hundreds of
	// plies in any format is a few kilobytes.
	maxAnalysisBody = 1 << 20
	// analysisTakeover is how long a client's new analysis waits for its
	// last one, cancelled, to give its engine back.
	analysisTakeover = 5 * time.Second
	// analysisPerAddress bounds the analyses one address runs at once,
	// waiting for an engine included, whatever page ids it sends: a few
	// tabs, or a few players behind one NAT, each get theirs, but a
	// client cannot fill the pool's queue by making up ids.
	analysisPerAddress = 4
	// maxClientID bounds a page's id: it is a key the daemon holds.
	maxClientID = 64
)

// analysisLine is one line of POST /analysis's answer: exactly one of its
// fields is set. Start comes first, then a Ply for each move as soon as it
// is known (the game is walked backwards: last ply first), then Done with
// the whole analysis, or Error if it could not finish.
type analysisLine struct {
	Start *analysisStart     `json:"start,omitempty"`
	Ply   *analysis.Ply      `json:"ply,omitempty"`
	Done  *analysis.Analysis `json:"done,omitempty"`
	Error string             `json:"error,omitempty"`
}

// analysisStart says what the analysis will be: the game's plies, the
// engine and depth that score them, and the curve that turns a score into
// White's expected score (each ply's Expected), which the viewer uses for
// its own engine's scores too.
type analysisStart struct {
	GameString string         `json:"game_string"`
	Plies      int            `json:"plies"`
	Engine     string         `json:"engine"`
	Depth      int            `json:"depth"`
	Curve      analysis.Curve `json:"curve"`
}

// analysisClient is who runs an analysis: the address a request comes
// from and the id its page sends (?client=), empty for a client that
// sends none. An id alone cannot be the identity, since a client makes it
// up; an address alone is two tabs, or two players behind one NAT, who
// would cancel each other's analyses.
type analysisClient struct {
	addr, id string
}

// analysisRuns holds the analysis each client runs, so that a client
// runs one at a time (a new one cancels the one before) and an address at
// most analysisPerAddress.
type analysisRuns struct {
	mu      sync.Mutex
	running map[analysisClient]*analysisRun
	perAddr map[string]int // the runs in running of each address
}

type analysisRun struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// take makes run the analysis of client, once the client's last one (told
// to stop) has ended, within analysisTakeover; it returns the function that
// ends run's turn. A client new to the daemon whose address runs
// analysisPerAddress analyses already is refused.
func (a *analysisRuns) take(ctx context.Context, client analysisClient, run *analysisRun) (func(), error) {
	deadline := time.NewTimer(analysisTakeover)
	defer deadline.Stop()
	for {
		a.mu.Lock()
		if a.running == nil {
			a.running = map[analysisClient]*analysisRun{}
			a.perAddr = map[string]int{}
		}
		old := a.running[client]
		if old == nil {
			if a.perAddr[client.addr] >= analysisPerAddress {
				a.mu.Unlock()
				return nil, fmt.Errorf("this address runs %d analyses already, each for another page: close one, or wait for one to end", analysisPerAddress)
			}
			a.running[client] = run
			a.perAddr[client.addr]++
			a.mu.Unlock()
			return func() {
				a.mu.Lock()
				delete(a.running, client)
				if a.perAddr[client.addr]--; a.perAddr[client.addr] == 0 {
					delete(a.perAddr, client.addr)
				}
				a.mu.Unlock()
				close(run.done)
			}, nil
		}
		a.mu.Unlock()
		old.cancel()
		select {
		case <-old.done:
		case <-deadline.C:
			return nil, fmt.Errorf("this client's analysis before did not stop within %s", analysisTakeover)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// analysisQuery is what POST /analysis's query asks.
type analysisQuery struct {
	depth  int
	client string // the page's id; empty when it sends none
}

// parseAnalysisQuery reads POST /analysis's query: depth=<plies>, from 1 to
// the most the daemon allows (most), and client=<id>, the page's own id
// (up to 64 letters, digits, '-' and '_').
func parseAnalysisQuery(raw string, most int) (analysisQuery, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return analysisQuery{}, fmt.Errorf("malformed query: %w", err)
	}
	for k := range q {
		if k != "depth" && k != "client" {
			return analysisQuery{}, fmt.Errorf("unknown parameter %q: POST /analysis takes depth and client", k)
		}
	}
	aq := analysisQuery{depth: min(analysisDefaultDepth, most), client: q.Get("client")}
	if v := q.Get("depth"); v != "" {
		if aq.depth, err = strconv.Atoi(v); err != nil || aq.depth < 1 || aq.depth > most {
			return analysisQuery{}, fmt.Errorf("depth %q: want a whole number of plies from 1 to %d", v, most)
		}
	}
	if _, given := q["client"]; given && !validClientID(aq.client) {
		return analysisQuery{}, fmt.Errorf("client %q: want an id of 1 to %d letters, digits, '-' and '_'", aq.client, maxClientID)
	}
	return aq, nil
}

// validClientID reports whether id is a page's id as POST /analysis takes
// it: short, and of characters that need no escaping in a log.
func validClientID(id string) bool {
	if id == "" || len(id) > maxClientID {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// analysisRoutes serves POST /analysis. The body is a game record in any
// format games convert reads (a GameString is one), of which the first game
// is analysed, each position searched to ?depth= plies (4 by default, 8 at
// most) by an engine borrowed from the pool, at the pool's options, for
// --max-search-time in all. The answer is JSON lines (analysisLine), each
// flushed as it is written. A client (its address and the id its page
// sends as ?client=, analysisClient) runs one analysis at a time: a new one
// cancels the one before (the page asks again when its game changes); an
// address runs at most analysisPerAddress at once; a client that leaves
// cancels its analysis at once, and its engine goes back to the pool.
func (s *Server) analysisRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /analysis", func(w http.ResponseWriter, r *http.Request) {
		query, err := parseAnalysisQuery(r.URL.RawQuery, min(analysisMaxDepth, s.cfg.MaxSearchDepth))
		if err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAnalysisBody))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				httpError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("the game is larger than %d KiB", maxAnalysisBody>>10))
				return
			}
			httpError(w, http.StatusBadRequest, fmt.Errorf("reading the game: %w", err))
			return
		}
		recs, errs := records.Read("the game", data)
		if len(recs) == 0 {
			if len(errs) == 0 {
				errs = []error{errors.New("the body holds no game: send a GameString or a game record")}
			}
			httpError(w, http.StatusBadRequest, errs[0])
			return
		}
		rec := recs[0]
		gs, err := rec.UHP()
		if err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}

		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.MaxSearchTime)
		defer cancel()
		defer context.AfterFunc(s.hardStop, cancel)()
		client := analysisClient{addr: r.RemoteAddr, id: query.client}
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			client.addr = host
		}
		run := &analysisRun{cancel: cancel, done: make(chan struct{})}
		end, err := s.analyses.take(ctx, client, run)
		if err != nil {
			httpError(w, http.StatusTooManyRequests, err)
			return
		}
		defer end()
		e, err := s.sessionOptions.Acquire(ctx)
		if err != nil {
			httpError(w, http.StatusServiceUnavailable, err)
			return
		}
		failed := false
		defer func() { s.pool.Release(e, failed && r.Context().Err() == nil) }()

		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Cache-Control", "no-store")
		rc := http.NewResponseController(w)
		enc := json.NewEncoder(w)
		// send writes a line and flushes it, within writeTimeout: a
		// client that reads no more is a client gone.
		send := func(line analysisLine) {
			rc.SetWriteDeadline(time.Now().Add(writeTimeout))
			if enc.Encode(line) != nil || rc.Flush() != nil {
				cancel()
			}
		}
		send(analysisLine{Start: &analysisStart{GameString: gs.String(), Plies: len(rec.Moves), Engine: e.Info().ID, Depth: query.depth, Curve: analysis.Fitted()}})
		a, err := analysis.Analyse(ctx, e, rec, analysis.Config{
			Limit: engine.Limit{Depth: query.depth},
			Ply:   func(p analysis.Ply) { send(analysisLine{Ply: &p}) },
		})
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			send(analysisLine{Error: fmt.Sprintf("the analysis took longer than --max-search-time (%s)", s.cfg.MaxSearchTime)})
		case ctx.Err() != nil:
			send(analysisLine{Error: "the analysis was cancelled: a newer one of this client, or the client left"})
		case err != nil:
			failed = true
			send(analysisLine{Error: err.Error()})
		default:
			send(analysisLine{Done: a})
		}
	})
}

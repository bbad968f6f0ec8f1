package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/analysis"
	"github.com/hivebridge/hivebridge/translate/records"
)

// realGame is Mzinga's test asset HV-Abbo69-WeakBot-2018-10-28-2007, a
// BoardSpace game of Base+MLP that White won by the rules in 31 plies.
const realGame = "../../protocols/pgn/testdata/mzinga/HV-Abbo69-WeakBot-2018-10-28-2007.pgn"

// analysisServer is a daemon with POST /analysis and a pool of native
// engines (first, and as many more as it may open), behind an HTTP server.
type analysisServer struct {
	s     *Server
	first translate.Engine
	url   string
}

func newAnalysisServer(t *testing.T, maxSearchTime time.Duration) *analysisServer {
	t.Helper()
	return newAnalysisPool(t, maxSearchTime, 1)
}

// newAnalysisPool is newAnalysisServer with a pool of engines engines.
func newAnalysisPool(t *testing.T, maxSearchTime time.Duration, engines int) *analysisServer {
	t.Helper()
	open := func(context.Context) (translate.Engine, error) {
		n := translate.NewNative()
		return n, translate.ApplyOptions(n, []string{"HashMB=1"})
	}
	first, _ := open(context.Background())
	pool := translate.NewPool(open, translate.PoolConfig{Limit: engines, Queue: 4, Wait: 30 * time.Second})
	s := &Server{cfg: Config{MaxSearchTime: maxSearchTime, MaxSearchDepth: 40}, log: zerolog.Nop(), pool: pool, hardStop: context.Background()}
	s.sessionOptions = pool.SessionOptions(first, map[string]int{"MultiPV": sessionMaxMultiPV})
	pool.Add(first)
	mux := http.NewServeMux()
	s.analysisRoutes(mux)
	ts := httptest.NewServer(mux)
	t.Cleanup(func() {
		ts.Close()
		pool.Close(time.Second)
	})
	return &analysisServer{s: s, first: first, url: ts.URL}
}

// post starts POST /analysis with the query and body under ctx.
func (a *analysisServer) post(t *testing.T, ctx context.Context, query, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", a.url+"/analysis"+query, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// lines reads an answer's JSON lines, up to its end.
func lines(t *testing.T, r io.Reader) []analysisLine {
	t.Helper()
	var out []analysisLine
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l analysisLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

func readRecord(t *testing.T, path string) (string, records.Record) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := records.Read(path, data)
	if len(recs) != 1 || len(errs) != 0 {
		t.Fatalf("%s: %d games, %v", path, len(recs), errs)
	}
	return string(data), recs[0]
}

// TestAnalysisStreamsAGame posts a real game record and reads the answer:
// a start line, then each ply as it is known, last first, then the whole
// analysis, which is what hivebridge analyze's Analyse finds with an engine
// of its own at the same depth. The pool's engine was left at MultiPV 3 by
// a session before: the analysis borrows it at the pool's MultiPV 1.
func TestAnalysisStreamsAGame(t *testing.T) {
	a := newAnalysisServer(t, time.Minute)
	if err := translate.ApplyOptions(a.first, []string{"MultiPV=3"}); err != nil {
		t.Fatal(err)
	}
	body, rec := readRecord(t, realGame)
	resp := a.post(t, context.Background(), "?depth=2", body)
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("POST /analysis: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	got := lines(t, resp.Body)
	n := len(rec.Moves)
	if len(got) != n+2 || got[0].Start == nil || got[n+1].Done == nil {
		t.Fatalf("%d lines, want a start, %d plies and the end: %+v", len(got), n, got)
	}
	if s := got[0].Start; s.Plies != n || s.Depth != 2 || s.Curve != analysis.Fitted() || !strings.HasPrefix(s.GameString, "Base+MLP;WhiteWins;") {
		t.Errorf("start %+v", s)
	}
	done := got[n+1].Done
	for i := 1; i <= n; i++ {
		p := got[i].Ply
		if p == nil || p.Ply != n+1-i {
			t.Fatalf("line %d is %+v, want ply %d", i, got[i], n+1-i)
		}
		if p.Move != done.Plies[p.Ply-1].Move || p.Score != done.Plies[p.Ply-1].Score || p.Class != done.Plies[p.Ply-1].Class {
			t.Errorf("ply %d streamed as %+v, ends as %+v", p.Ply, *p, done.Plies[p.Ply-1])
		}
	}
	if v := findOption(a.first, "MultiPV"); v != "1" {
		t.Errorf("the engine analysed at MultiPV %s, want the pool's 1", v)
	}
	own := translate.NewNative()
	want, err := analysis.Analyse(context.Background(), own, rec, analysis.Config{Limit: engine.Limit{Depth: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range want.Plies {
		q := done.Plies[i]
		if p.Move != q.Move || p.Score != q.Score || p.Best != q.Best || p.Class != q.Class {
			t.Errorf("ply %d: the daemon found %+v, analyze %+v", i+1, q, p)
		}
	}
}

func findOption(e translate.Engine, name string) string {
	for _, o := range e.Options() {
		if o.Name == name {
			return o.Value()
		}
	}
	return ""
}

// TestAnalysisRefusesBadInput: a body that holds no game, a game with an
// illegal move, a game UHP cannot carry, and queries out of bounds are each
// a 400 that says what is wrong, before any engine is borrowed.
func TestAnalysisRefusesBadInput(t *testing.T) {
	a := newAnalysisServer(t, time.Minute)
	for _, c := range []struct{ query, body, want string }{
		{"", "", "the file is empty"},
		{"", "hello", "not a game record"},
		{"", "Base;InProgress;White[2];wS1;bS1 wS1-;wQ bS1-", "ply 3"},
		{"", "Base;InProgress;White[2];wS1;bQ wS1-", "UHP's tournament opening forbids"},
		{"?depth=0", "Base", "depth \"0\": want a whole number of plies from 1 to 8"},
		{"?depth=9", "Base", "from 1 to 8"},
		{"?depth=x", "Base", "depth \"x\""},
		{"?time=3", "Base", "unknown parameter \"time\""},
		{"?depth=%zz", "Base", "malformed query"},
		{"?client=", "Base", "client \"\": want an id of 1 to 64"},
		{"?client=a%20b", "Base", "client \"a b\""},
		{"?client=" + strings.Repeat("x", 65), "Base", "want an id of 1 to 64"},
	} {
		resp := a.post(t, context.Background(), c.query, c.body)
		var answer struct{ Error string }
		json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(answer.Error, c.want) {
			t.Errorf("POST /analysis%s %q: %d %q, want 400 saying %q", c.query, c.body, resp.StatusCode, answer.Error, c.want)
		}
	}
	if open, idle, _ := a.s.pool.Stats(); open != 1 || idle != 1 {
		t.Errorf("after bad requests the pool has %d engines, %d idle", open, idle)
	}
}

// longGame is a game of many plies whose analysis at depth 8 takes far
// longer than the tests below wait.
func longGame(t *testing.T) string {
	body, _ := readRecord(t, realGame)
	return body
}

// TestAnalysisEndsWhenTheClientLeaves: a client that goes away in the
// middle of a deep analysis gets its engine back to the pool at once.
func TestAnalysisEndsWhenTheClientLeaves(t *testing.T) {
	a := newAnalysisServer(t, time.Minute)
	ctx, leave := context.WithCancel(context.Background())
	resp := a.post(t, ctx, "?depth=8", longGame(t))
	sc := bufio.NewScanner(resp.Body)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), `{"start"`) {
		t.Fatalf("first line %q", sc.Text())
	}
	if _, idle, _ := a.s.pool.Stats(); idle != 0 {
		t.Fatal("the analysis holds no engine")
	}
	left := time.Now()
	leave()
	resp.Body.Close()
	for {
		if _, idle, _ := a.s.pool.Stats(); idle == 1 {
			break
		}
		if time.Since(left) > 5*time.Second {
			t.Fatal("the engine is not back 5 s after the client left")
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the engine came back %s after the client left", time.Since(left))
}

// TestAnalysisOneAClient: a client's new analysis cancels the one it runs,
// which ends with an error line saying so, and runs on the engine it gave
// back.
func TestAnalysisOneAClient(t *testing.T) {
	a := newAnalysisServer(t, time.Minute)
	first := a.post(t, context.Background(), "?depth=8", longGame(t))
	defer first.Body.Close()
	sc := bufio.NewScanner(first.Body)
	if !sc.Scan() {
		t.Fatal("no start line")
	}
	second := a.post(t, context.Background(), "?depth=1", "Base;InProgress;White[2];wS1;bS1 wS1-")
	got := lines(t, second.Body)
	second.Body.Close()
	if len(got) != 4 || got[3].Done == nil {
		t.Fatalf("the second analysis answered %+v", got)
	}
	rest := lines(t, first.Body)
	if len(rest) == 0 || !strings.Contains(rest[len(rest)-1].Error, "cancelled") {
		t.Errorf("the first analysis ended with %+v", rest)
	}
}

// TestAnalysisOneAPage: two pages of one address (two tabs, or two
// players behind one NAT), each with its own id, analyse at once: the
// second's short analysis ends whole while the first's deep one goes on,
// until --max-search-time ends it (not cancelled by the second). A page's
// second analysis cancels its first, as an address's does when its pages
// send no id (TestAnalysisOneAClient).
func TestAnalysisOneAPage(t *testing.T) {
	const limit = 2 * time.Second
	a := newAnalysisPool(t, limit, 2)
	short := "Base;InProgress;White[2];wS1;bS1 wS1-"
	first := a.post(t, context.Background(), "?depth=8&client=tab-1", longGame(t))
	defer first.Body.Close()
	sc := bufio.NewScanner(first.Body)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), `{"start"`) {
		t.Fatalf("the first page's first line %q", sc.Text())
	}
	second := a.post(t, context.Background(), "?depth=1&client=tab-2", short)
	got := lines(t, second.Body)
	second.Body.Close()
	if len(got) != 4 || got[3].Done == nil {
		t.Fatalf("the second page's analysis answered %+v", got)
	}
	rest := lines(t, first.Body)
	if len(rest) == 0 || !strings.Contains(rest[len(rest)-1].Error, "longer than --max-search-time") {
		t.Fatalf("the first page's analysis ended with %+v", rest[len(rest)-1])
	}

	// The same page twice: the second cancels the first.
	again := a.post(t, context.Background(), "?depth=8&client=tab-1", longGame(t))
	defer again.Body.Close()
	sc = bufio.NewScanner(again.Body)
	if !sc.Scan() {
		t.Fatal("no start line")
	}
	third := a.post(t, context.Background(), "?depth=1&client=tab-1", short)
	got = lines(t, third.Body)
	third.Body.Close()
	if len(got) != 4 || got[3].Done == nil {
		t.Fatalf("the page's second analysis answered %+v", got)
	}
	if rest := lines(t, again.Body); len(rest) == 0 || !strings.Contains(rest[len(rest)-1].Error, "cancelled: a newer one") {
		t.Errorf("the page's first analysis ended with %+v", rest)
	}
}

// TestAnalysisPerAddress: an address runs at most analysisPerAddress
// analyses, however many ids it makes up: one more is a 429 that says why,
// though the pool has an engine to spare; once one of them leaves, another
// page's analysis starts; a page already running one may still replace it.
func TestAnalysisPerAddress(t *testing.T) {
	a := newAnalysisPool(t, time.Minute, analysisPerAddress+1)
	short := "Base;InProgress;White[2];wS1;bS1 wS1-"
	leave := make([]context.CancelFunc, analysisPerAddress)
	for i := range analysisPerAddress {
		ctx, cancel := context.WithCancel(context.Background())
		leave[i] = cancel
		defer cancel()
		resp := a.post(t, ctx, fmt.Sprintf("?depth=8&client=page-%d", i), longGame(t))
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("page %d's analysis: %d", i, resp.StatusCode)
		}
	}
	resp := a.post(t, context.Background(), "?depth=1&client=one-too-many", short)
	var answer struct{ Error string }
	json.NewDecoder(resp.Body).Decode(&answer)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(answer.Error, fmt.Sprintf("runs %d analyses already", analysisPerAddress)) {
		t.Fatalf("one analysis too many: %d %q", resp.StatusCode, answer.Error)
	}
	if open, _, _ := a.s.pool.Stats(); open != analysisPerAddress {
		t.Errorf("the pool opened %d engines, want one for each analysis running", open)
	}

	// A page that already runs one replaces it, at the cap.
	resp = a.post(t, context.Background(), "?depth=1&client=page-0", short)
	if got := lines(t, resp.Body); resp.StatusCode != 200 || len(got) == 0 || got[len(got)-1].Done == nil {
		t.Fatalf("page 0's new analysis at the cap: %d %+v", resp.StatusCode, got)
	}
	resp.Body.Close()

	// A page leaves: another's analysis starts.
	leave[1]()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp = a.post(t, context.Background(), "?depth=1&client=one-too-many", short)
		got := lines(t, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && len(got) > 0 && got[len(got)-1].Done != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("5 s after a page left, another's analysis answers %d %+v", resp.StatusCode, got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAnalysisTimeLimit: an analysis ends at --max-search-time with an
// error line that names it.
func TestAnalysisTimeLimit(t *testing.T) {
	a := newAnalysisServer(t, 300*time.Millisecond)
	start := time.Now()
	resp := a.post(t, context.Background(), "?depth=8", longGame(t))
	got := lines(t, resp.Body)
	resp.Body.Close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the analysis took %s", took)
	}
	if len(got) == 0 || !strings.Contains(got[len(got)-1].Error, "longer than --max-search-time (300ms)") {
		t.Errorf("the analysis ended with %+v", got[len(got)-1])
	}
}

// FuzzAnalysisQuery: any query is read as a depth within the bounds and a
// client id that is empty or valid, or refused with an error, never a
// panic.
func FuzzAnalysisQuery(f *testing.F) {
	for _, q := range []string{"", "depth=4", "depth=0", "depth=9", "depth=x", "time=3", "depth=%zz", "depth=1&depth=2", ";",
		"client=3f2a-b_9", "client=", "client=%C3%A9", "depth=2&client=a&client=b"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := parseAnalysisQuery(raw, analysisMaxDepth)
		if err == nil && (q.depth < 1 || q.depth > analysisMaxDepth || q.client != "" && !validClientID(q.client) || len(q.client) > maxClientID) {
			t.Errorf("%q read as %+v", raw, q)
		}
	})
}

package daemon

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// TestExplorerHTTP archives two games that open alike but mirrored, and
// asks GET /explorer about the position after the first move in both
// orientations: each answer has the one move, both games, written on the
// asker's board (the mirror image of the other's), and a page of its
// games; bad queries get a 400 that says what is wrong.
func TestExplorerHTTP(t *testing.T) {
	archivetest.EachDB(t, func(t *testing.T, db string) {
		ctx := context.Background()
		store, err := archive.Open(ctx, db, "serve")
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		var ids []int64
		for _, g := range []struct{ moves, result string }{
			{"wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "WhiteWins"},
			{"wS1;bS1 -wS1;wQ wS1-;bQ -bS1", "Draw"},
		} {
			var moves []archive.Move
			for i, m := range strings.Split(g.moves, ";") {
				moves = append(moves, archive.Move{Ply: i, Text: m, By: "a", At: at})
			}
			gs := "Base;InProgress;White[1];" + g.moves
			id, err := store.Start(ctx, archive.Start{Source: "match", GameType: "Base", White: "a", Black: "b", Started: at, GameString: gs, Moves: moves})
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Update(ctx, id, archive.Change{From: len(moves), GameString: gs, End: &archive.End{Result: g.result, How: "state", At: at}}); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		pool := translate.NewPool(func(context.Context) (translate.Engine, error) { return translate.NewNative(), nil }, translate.PoolConfig{Limit: 1, Queue: 1, Wait: time.Minute})
		defer pool.Close(time.Second)
		s := &Server{archive: &serverArchive{store: store}, searcher: pool.Searcher()}
		mux := http.NewServeMux()
		s.explorerRoutes(mux)
		get := func(query string) (int, []byte) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest("GET", "/explorer?"+query, nil))
			return rec.Code, rec.Body.Bytes()
		}

		answers := map[string]explorerAnswer{}
		for _, q := range []string{
			"position=" + url.QueryEscape("Base;InProgress;White[2];wS1;bS1 wS1-"),
			"moves=" + url.QueryEscape("wS1;bS1 -wS1"),
		} {
			code, body := get(q)
			var a explorerAnswer
			if err := json.Unmarshal(body, &a); code != http.StatusOK || err != nil {
				t.Fatalf("%s: %d %s", q, code, body)
			}
			if len(a.Moves) != 1 || a.Games != 2 || a.Moves[0].White != 1 || a.Moves[0].Draws != 1 || !a.Moves[0].Legal ||
				len(a.Moves[0].GameIDs) != 2 || a.Moves[0].GameIDs[0] != ids[1] || !strings.HasPrefix(a.Moves[0].Move, "wQ ") {
				t.Fatalf("%s: %s", q, body)
			}
			answers[q] = a
		}
		// Each board's wQ goes on the side away from Black's Spider:
		// the two answers are mirror images.
		var spellings []string
		for _, a := range answers {
			spellings = append(spellings, a.Moves[0].Move)
		}
		if spellings[0] == spellings[1] {
			t.Errorf("both boards were answered %q, though one is the other's mirror image", spellings[0])
		}

		// With depth=2 each move is scored for its player: what a search
		// of the position after it finds, from the other side.
		code, body := get("moves=" + url.QueryEscape("wS1;bS1 wS1-") + "&depth=2")
		var scored explorerAnswer
		if err := json.Unmarshal(body, &scored); code != http.StatusOK || err != nil || len(scored.Moves) != 1 || scored.Moves[0].Score == nil {
			t.Fatalf("depth=2: %d %s", code, body)
		}
		after := uhptest.Load(t, "Base;InProgress;White[2];wS1;bS1 wS1-;"+scored.Moves[0].Move)
		var reply engine.Score
		own := translate.NewNative()
		if err := own.NewGame(ctx, after); err != nil {
			t.Fatal(err)
		}
		if _, err := own.BestMove(ctx, engine.Limit{Depth: 2}, func(p engine.Progress) { reply = p.Score }); err != nil {
			t.Fatal(err)
		}
		if want := -reply.Pieces(); reply.Kind != engine.Eval || *scored.Moves[0].Score != want {
			t.Errorf("wQ scored %v at depth 2, the reply's search %+v", *scored.Moves[0].Score, reply)
		}

		code, body = get("moves=" + url.QueryEscape("wS1;bS1 wS1-") + "&move=" + url.QueryEscape("wQ -wS1") + "&games=1&before=" + itoa(ids[1]))
		var page explorerGamesPage
		if err := json.Unmarshal(body, &page); code != http.StatusOK || err != nil || len(page.GameIDs) != 1 || page.GameIDs[0] != ids[0] {
			t.Errorf("a page of wQ -wS1's games before %d: %d %s", ids[1], code, body)
		}

		for query, want := range map[string]string{
			"moves=wS1;bS1":                       "%3B",
			"moves=" + url.QueryEscape("wS1;wS2"): "position: ",
			"type=Base%2BX":                       "position: ",
			"position=x&moves=wS1":                "not both",
			"games=1000":                          "from 0 to 100",
			"depth=5":                             "from 0 (no scores) to 4",
			"color=white":                         "unknown parameter",
			"before=3":                            "give the move too",
			"moves=wS1&move=" + url.QueryEscape("bQ wA1-"): "not a move of this position",
		} {
			code, body := get(query)
			if code != http.StatusBadRequest || !strings.Contains(string(body), want) {
				t.Errorf("%s: %d %s; want 400 saying %q", query, code, body, want)
			}
		}
	})
}

func itoa(v int64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

package daemon

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// postRecords posts body to POST /records with the query, and returns the
// status, the Content-Type and the body of the answer.
func postRecords(t *testing.T, query, body string) (int, string, string) {
	t.Helper()
	mux := http.NewServeMux()
	(&Server{}).recordsRoutes(mux)
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest("POST", "/records"+query, strings.NewReader(body)))
	return w.Code, w.Header().Get("Content-Type"), w.Body.String()
}

// twoGamesOneBad is a PGN file of two games: the first a Base game in
// progress with a comment on its first move, the second with an illegal
// third ply (Black's Queen where White is to move).
const twoGamesOneBad = `[GameType "Base"]
[White "alice"]
[Black "bob"]
[Result "InProgress"]

1. wS1 {opening}
2. bS1 wS1-
3. wQ -wS1

[GameType "Base"]
[White "carol"]
[Black "dave"]

1. wS1
2. bS1 wS1-
3. bQ wS1\
`

func TestPostRecordsReadsAFile(t *testing.T) {
	status, ctype, body := postRecords(t, "?name=two.pgn", twoGamesOneBad)
	if status != 200 || ctype != "application/json" {
		t.Fatalf("POST /records: %d %s %s", status, ctype, body)
	}
	var answer struct {
		Games   []map[string]any
		Invalid []string
	}
	if err := json.Unmarshal([]byte(body), &answer); err != nil {
		t.Fatal(err)
	}
	if len(answer.Games) != 1 || len(answer.Invalid) != 1 {
		t.Fatalf("POST /records read %s", body)
	}
	// The invalid game in the words of games convert: file, game, ply.
	if !strings.HasPrefix(answer.Invalid[0], "two.pgn: game 2: ply 3 (bQ wS1\\)") {
		t.Errorf("the invalid game is reported as %q", answer.Invalid[0])
	}
	game := answer.Games[0]
	if game["white"] != "alice" || game["black"] != "bob" || game["game_string"] != "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1" {
		t.Errorf("the valid game is read as %v", game)
	}
	if moves := game["moves"].([]any); moves[0].(map[string]any)["comment"] != "opening" {
		t.Errorf("the first move's comment is lost: %v", moves)
	}
}

func TestPostRecordsConverts(t *testing.T) {
	g := core.NewGame(core.AllExpansions)
	var l core.MoveList
	moves := []string{}
	for range 12 {
		g.GenerateMoves(&l)
		m := l.At(l.Len() / 2)
		moves = append(moves, uhp.FormatMove(m, g))
		g.Play(m)
	}
	rec, err := records.New(core.AllExpansions, moves)
	if err != nil {
		t.Fatal(err)
	}
	rec.White, rec.Black = "alice", "bob"
	var sgf bytes.Buffer
	if err := records.Write(&sgf, records.SGF, rec); err != nil {
		t.Fatal(err)
	}
	status, ctype, body := postRecords(t, "?to=pgn", sgf.String())
	if status != 200 || ctype != "application/x-chess-pgn" {
		t.Fatalf("POST /records?to=pgn: %d %s %s", status, ctype, body)
	}
	back, errs := records.Read("answer.pgn", []byte(body))
	if len(errs) > 0 || len(back) != 1 || back[0].White != "alice" || strings.Join(back[0].Moves, ";") != strings.Join(rec.Moves, ";") {
		t.Fatalf("the PGN answered reads back as %+v, %v", back, errs)
	}
}

func TestPostRecordsRefuses(t *testing.T) {
	for _, c := range []struct{ query, body, want string }{
		{"?to=pgn", twoGamesOneBad, "the file: game 2: ply 3"},
		{"", "not a record at all", "the file: "},
		{"", "", "the file: "},
		{"?to=chess", "Base;NotStarted;White[1]", `unknown format "chess"`},
		{"?from=pgn", "Base;NotStarted;White[1]", `unknown parameter "from"`},
		{"?name=big.pgn", strings.Repeat("x", maxRecordFile+1), "big.pgn is larger than 8 MiB"},
	} {
		status, _, body := postRecords(t, c.query, c.body)
		var answer struct{ Error string }
		json.Unmarshal([]byte(body), &answer)
		if status/100 != 4 || !strings.HasPrefix(answer.Error, c.want) {
			t.Errorf("POST /records%s: %d %q, want a 4xx saying %q", c.query, status, body, c.want)
		}
	}
}

// TestTestsWithoutPostgres: a daemon whose archive is not PostgreSQL keeps
// no match tests, and says where they live.
func TestTestsWithoutPostgres(t *testing.T) {
	mux := http.NewServeMux()
	(&Server{}).testsRoutes(mux)
	for _, path := range []string{"/tests", "/tests/1"} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 404 || !strings.Contains(w.Body.String(), "they live in a PostgreSQL archive") {
			t.Errorf("GET %s: %d %s", path, w.Code, w.Body.String())
		}
	}
}

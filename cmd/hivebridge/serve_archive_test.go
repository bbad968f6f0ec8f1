package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/records"
)

// kept sends the session one more command and reads its answer, which
// proves every change the session recorded before it kept: in the
// archive, or for a game that ended, in the end journal, its commit
// following a moment later (endedGames waits for it). The answer that
// ended a game proves nothing of that end.
func (s *tcpSession) kept(t *testing.T) {
	t.Helper()
	if got := s.do(t, "info"); len(got) == 0 || !strings.HasPrefix(got[0], "id ") {
		t.Fatalf("info answered %q", got)
	}
}

// TestServeArchivesSessions: a viewer's own game over WebSocket (one move
// the backend's bestmove, one undone), a remote game against the backend
// over TCP ended by a forfeit, and a session that starts games and plays
// none; each is archived as the client saw it.
func TestServeArchivesSessions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	d := startDaemon(t, "--db", db)
	backend := translate.NewNative().Info().ID + " (native)"

	ws, _, err := dialWS(t, d.httpAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.ReadMessage(); err != nil { // the info answer on connect
		t.Fatal(err)
	}
	wsDo(t, ws, "newgame")
	wsDo(t, ws, "newgame Base")
	best := strings.TrimSuffix(wsDo(t, ws, "bestmove depth 1"), "\nok\n")
	wsDo(t, ws, "play "+best)
	wsDo(t, ws, "play bA1 "+strings.Fields(best)[0][:3]+"-")
	wsDo(t, ws, "undo")
	last := wsDo(t, ws, "play bG1 "+strings.Fields(best)[0][:3]+"-")
	ws.Close()

	tcp := dialTCP(t, d.uhpAddr)
	tcp.answer(t)
	tcp.do(t, "options set DefaultBestMoveTime 0.05")
	tcp.do(t, "newgame remote Base")
	reply := tcp.do(t, "play wS1")
	forfeit := tcp.do(t, "play forfeit lunch")
	tcp.do(t, "exit")

	// Both ends are written in the background after their answers (the
	// disconnect's, the forfeit's), so wait until neither game is playing.
	games := waitGames(t, archivetest.Read(t, db), 2)
	own, remote := games[0], games[1]
	// What the archive adds to answers is there to be watched.
	metric(t, d.httpAddr, "hivebridge_archive_wait_seconds_count")
	wantOwn := fmt.Sprintf("%s/%s, bG1 %s-/viewer", best, backend, strings.Fields(best)[0][:3])
	if own.Source != "uhp-ws" || own.White != backend || own.Black != archive.Viewer || archivetest.MoveTexts(own) != wantOwn ||
		own.GameString+"\nok\n" != last || own.Status != archive.Finished || own.How != "disconnect" || own.Result != "" {
		t.Errorf("the viewer's game: %+v, moves %s; want %s ending %q", own, archivetest.MoveTexts(own), wantOwn, last)
	}
	if remote.Source != "uhp-tcp" || remote.White != archive.Viewer || remote.Black != backend ||
		archivetest.MoveTexts(remote) != "wS1/viewer, "+reply[1]+"/"+backend || remote.GameString != forfeit[0] ||
		remote.Result != "BlackWins" || remote.How != "forfeit" || remote.Reason != "White forfeited: lunch" {
		t.Errorf("the remote game: %+v, moves %s; want the client's %q then %q", remote, archivetest.MoveTexts(remote), reply, forfeit)
	}
	for _, g := range games {
		for i, m := range g.Moves {
			if m.At.Before(g.Started) || m.At.After(g.Ended) || (i > 0 && m.At.Before(g.Moves[i-1].At)) {
				t.Errorf("game %d move %d at %v: out of order (%v to %v)", g.ID, i, m.At, g.Started, g.Ended)
			}
		}
	}
}

// TestServeArchivesPairedGameOnce: a game between two viewers is one game
// in the archive, with both their moves and the forfeit.
func TestServeArchivesPairedGameOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	d := startDaemon(t, "--db", db, "--pair-viewers", "--pair-wait", "5s")
	white, black := pairViewers(t, d.uhpAddr, d.uhpAddr, "newgame remote Base")
	white.answer(t)
	fmt.Fprintln(white.conn, "play wS1")
	black.answer(t)
	fmt.Fprintln(black.conn, "play bG1 wS1-")
	white.answer(t)
	fmt.Fprintln(white.conn, "play forfeit lunch")
	white.answer(t)
	black.answer(t)
	white.kept(t) // White's session keeps the game (its end maybe in the journal)
	games := endedGames(t, db, 1)
	g := games[0]
	if g.White != archive.Viewer || g.Black != "paired viewer" || archivetest.MoveTexts(g) != "wS1/viewer, bG1 wS1-/paired viewer" ||
		g.Result != "BlackWins" || g.How != "forfeit" || g.Reason != "White forfeited: lunch" || g.GameString != "Base;BlackWins;White[2];wS1;bG1 wS1-" {
		t.Errorf("%+v, moves %s", g, archivetest.MoveTexts(g))
	}
}

// TestServeArchiveHTTP reads the archive over HTTP, behind the token: the
// list, one game as JSON and as its GameString, the ratings, and a clear
// error with the right status for each kind of bad request.
func TestServeArchiveHTTP(t *testing.T) {
	dir := t.TempDir()
	db, tokenFile := filepath.Join(dir, "games.db"), filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("sesame\n"), 0o600)
	d := startDaemon(t, "--db", db, "--token-file", tokenFile)
	tcp := dialTCP(t, d.uhpAddr)
	fmt.Fprintln(tcp.conn, "auth sesame")
	tcp.answer(t)
	tcp.do(t, "options set DefaultBestMoveTime 0.05")
	tcp.do(t, "newgame remote Base")
	reply := tcp.do(t, "play wS1")
	tcp.do(t, "play forfeit")
	tcp.kept(t)
	endedGames(t, db, 1) // its end committed, not only journaled

	get := func(path, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+d.httpAddr+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if status, _ := get("/games", ""); status != http.StatusUnauthorized {
		t.Errorf("GET /games without the token: %d", status)
	}
	status, body := get("/games", "sesame")
	var page struct {
		Games          []archive.Game
		Total, PerPage int
	}
	if err := json.Unmarshal([]byte(body), &page); status != 200 || err != nil || page.Total != 1 || len(page.Games) != 1 || page.Games[0].Result != "BlackWins" {
		t.Fatalf("GET /games: %d %s", status, body)
	}
	id := strconv.FormatInt(page.Games[0].ID, 10)
	status, body = get("/games/"+id, "sesame")
	var g archive.Game
	if err := json.Unmarshal([]byte(body), &g); status != 200 || err != nil || len(g.Moves) != 2 || g.Moves[1].Text != reply[1] || g.Moves[0].At.IsZero() {
		t.Errorf("GET /games/%s: %d %s", id, status, body)
	}
	if status, body = get("/games/"+id+".txt", "sesame"); status != 200 || body != "Base;BlackWins;White[2];wS1;"+reply[1]+"\n" {
		t.Errorf("GET /games/%s.txt: %d %q", id, status, body)
	}
	// The game as records to download: PGN as Mzinga writes it, SGF as
	// BoardSpace does, each read back to the same moves.
	if status, body = get("/games/"+id+".pgn", "sesame"); status != 200 || !strings.Contains(body, "[Result \"BlackWins\"]") ||
		!strings.Contains(body, "\n1. wS1\n2. "+reply[1]+"\n\nBlackWins\n") {
		t.Errorf("GET /games/%s.pgn: %d %q", id, status, body)
	}
	if status, body = get("/games/"+id+".sgf", "sesame"); status != 200 || !strings.HasPrefix(strings.TrimSpace(body), "(;") {
		t.Errorf("GET /games/%s.sgf: %d %q", id, status, body)
	} else if recs, errs := records.Read("game.sgf", []byte(body)); len(errs) > 0 || len(recs) != 1 || strings.Join(recs[0].Moves, ";") != "wS1;"+reply[1] {
		t.Errorf("GET /games/%s.sgf read back: %+v, %v", id, recs, errs)
	}
	if status, body = get("/ratings", "sesame"); status != 200 || !strings.Contains(body, `"ratings": []`) {
		t.Errorf("GET /ratings (no game between engines): %d %s", status, body)
	}
	for path, want := range map[string]struct {
		status int
		says   string
	}{
		"/games/99":                {404, "game 99: no such game"},
		"/games/99.txt":            {404, "game 99: no such game"},
		"/games/99.pgn":            {404, "game 99: no such game"},
		"/games/1.doc":             {400, `game id \"1.doc\": want a whole number`},
		"/games/x":                 {400, `game id \"x\": want a whole number`},
		"/games/0":                 {400, "want a whole number from 1"},
		"/games?result=won":        {400, `result \"won\": want WhiteWins, BlackWins or Draw`},
		"/games?colour=white":      {400, `unknown filter \"colour\"`},
		"/games?since=2025-13-01":  {400, "since"},
		"/games?page=2":            {404, "page past the end"},
		"/games?per_page=0":        {400, "per_page"},
		"/games?player=x&player=y": {400, "given 2 times"},
	} {
		if status, body := get(path, "sesame"); status != want.status || !strings.Contains(body, want.says) || !strings.HasPrefix(body, `{"error":`) {
			t.Errorf("GET %s: %d %s, want %d with %q", path, status, body, want.status, want.says)
		}
	}
	if status, body := get("/healthz", "sesame"); status != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", status, body)
	}
}

// TestServeShutdownInterruptsGames: a game in progress when the daemon is
// stopped (SIGTERM) is archived interrupted, not as the viewer's leaving,
// so that it can be played on.
func TestServeShutdownInterruptsGames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	d := startDaemon(t, "--db", db)
	tcp := dialTCP(t, d.uhpAddr)
	tcp.answer(t)
	tcp.do(t, "newgame Base")
	tcp.do(t, "play wS1")
	last := tcp.do(t, "play bS1 wS1-")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	games := archivetest.AllGames(t, archivetest.Read(t, db))
	if len(games) != 1 || games[0].Status != archive.Interrupted || games[0].How != "interrupted" || games[0].GameString != last[0] {
		t.Errorf("%+v, want one game interrupted at %s", games, last[0])
	}
}

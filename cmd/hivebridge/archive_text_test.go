package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// endedGames waits until the archive db holds n games, none in progress.
func endedGames(t *testing.T, db string, n int) []archive.Game {
	t.Helper()
	return waitGames(t, archivetest.Read(t, db), n)
}

// TestArchiveInvalidTextForfeit: a forfeit whose reason PostgreSQL cannot
// store as text (play forfeit x\x00y: NUL; or bytes that are not UTF-8,
// which UHP sessions refuse but other paths may carry) is archived with
// U+FFFD in its place. PostgreSQL refused the text (SQLSTATE 22021), and
// the keeper took that for an outage: it tried the write again for ever,
// /healthz stayed degraded, and the games after it went unarchived.
func TestArchiveInvalidTextForfeit(t *testing.T) {
	archivetest.EachDB(t, func(t *testing.T, db string) {
		d := startDaemon(t, "--db", db)
		tcp := dialTCP(t, d.uhpAddr)
		tcp.answer(t)
		tcp.do(t, "options set DefaultBestMoveTime 0.05")
		tcp.do(t, "newgame remote Base")
		tcp.do(t, "play wS1")
		forfeit := tcp.do(t, "play forfeit x\x00y")
		tcp.kept(t)
		// The next game is archived as well.
		tcp.do(t, "newgame Base")
		tcp.do(t, "play wS1")
		last := tcp.do(t, "play bS1 wS1-")
		tcp.do(t, "exit")
		games := endedGames(t, db, 2)
		if g := games[0]; g.Reason != "White forfeited: x\uFFFDy" || g.How != "forfeit" || g.Result != "BlackWins" || len(g.Moves) != 2 {
			t.Errorf("the forfeited game: %+v; the client saw %q", g, forfeit)
		}
		if g := games[1]; g.GameString != last[0] || len(g.Moves) != 2 {
			t.Errorf("the game after it: %+v, want %s", g, last[0])
		}
		if h := healthz(t, d.httpAddr); h != "ok\n" {
			t.Errorf("/healthz: %q", h)
		}
		for _, series := range []string{notArchivedGames, notArchivedMoves, `hivebridge_archive_refused_writes_total{cause="data"}`} {
			if n := metric(t, d.httpAddr, series); n != 0 {
				t.Errorf("%s %v, want 0", series, n)
			}
		}
	})
}

// TestArchiveBadQuery: every query parameter of every archive route,
// given a value that is not UTF-8, holds NUL or is malformed, is the
// client's 400 with the daemon's own message, never the database's.
func TestArchiveBadQuery(t *testing.T) {
	archivetest.EachDB(t, func(t *testing.T, db string) {
		d := startDaemon(t, "--db", db)
		tcp := dialTCP(t, d.uhpAddr)
		tcp.answer(t)
		tcp.do(t, "newgame Base")
		tcp.do(t, "play wS1")
		tcp.kept(t)
		for path, says := range map[string]string{
			"/games?player=%ff":   `player \"\\xff\" is not valid UTF-8`,
			"/games?player=a%00":  `player \"a\\x00\" holds a NUL character`,
			"/games?type=%ff":     `type \"\\xff\" is not valid UTF-8`,
			"/games?type=Base%00": "holds a NUL character",
			"/games?result=%ff":   `result \"\\xff\"`,
			"/games?status=%00":   `status \"\\x00\"`,
			"/games?since=%ff":    `since \"\\xff\"`,
			"/games?until=%00":    `until \"\\x00\"`,
			"/games?page=%ff":     `page \"\\xff\"`,
			"/games?per_page=%00": `per_page \"\\x00\"`,
			"/games?%ff=1":        `unknown filter \"\\xff\"`,
			"/games?player=%zz":   "malformed query",
			"/games?player=a;b":   "malformed query",
			"/games/1?x=%ff":      `unknown parameter \"x\"`,
			"/games/1.txt?%zz":    "malformed query",
			"/games/%ff":          `game id \"\\xff\"`,
			"/games/%00.txt":      `game id \"\\x00.txt\"`,
			"/ratings?player=%ff": `unknown parameter \"player\"`,
			"/games?player=" + strings.Repeat("a", archive.MaxText+1): "longer than the 200 characters",
		} {
			resp, err := http.Get("http://" + d.httpAddr + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(string(body), `{"error":`) || !strings.Contains(string(body), says) ||
				strings.Contains(string(body), "SQLSTATE") || strings.Contains(string(body), "unavailable") {
				t.Errorf("GET %.60s: %d %s, want 400 saying %s", path, resp.StatusCode, body, says)
			}
		}
		if h := healthz(t, d.httpAddr); h != "ok\n" {
			t.Errorf("/healthz: %q", h)
		}
	})
}

// TestArchiveUnwritablePath: a SQLite --db the daemon cannot create says
// so plainly, not as SQLite's "out of memory (14)" (SQLITE_CANTOPEN).
func TestArchiveUnwritablePath(t *testing.T) {
	paths := []string{"/proc/hivebridge-games.db", "/proc/hivebridge-nope/games.db"}
	if os.Geteuid() != 0 { // root may write anywhere
		dir := filepath.Join(t.TempDir(), "locked")
		os.Mkdir(dir, 0o555)
		paths = append(paths, filepath.Join(dir, "games.db"))
	}
	for _, path := range paths {
		for _, args := range [][]string{
			{"serve", "--uhp", "127.0.0.1:0", "--log-level", "disabled", "--db", path},
			{"games", "list", "--db", path},
		} {
			root := NewCmdRoot()
			root.SetArgs(args)
			out := &syncbuf.Buffer{}
			root.SetOut(out)
			root.SetErr(out)
			err := root.ExecuteContext(context.Background())
			if err == nil || !strings.HasPrefix(err.Error(), "archive "+path+": cannot create ") || strings.Contains(err.Error(), "out of memory") {
				t.Errorf("%s: %v, want it to say it cannot create the archive %s", strings.Join(args, " "), err, path)
			}
		}
	}
}

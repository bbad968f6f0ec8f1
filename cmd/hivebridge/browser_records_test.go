package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// The browser tests of game files (a record dropped on the page or chosen
// with the file picker is replayed, and the game shown is downloaded as PGN
// and read back by games convert) and of the match tests' dialog.

// realRecord reads one of the real records kept beside the codecs, with
// its GameString by hivebridge's reading of it.
func realRecord(t *testing.T, path string) (string, uhp.GameString) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := records.Read(path, data)
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("%s reads as %d games, %v", path, len(recs), errs)
	}
	gs, err := recs[0].UHP()
	if err != nil {
		t.Fatal(err)
	}
	return abs, gs
}

// dropFile drags a file from outside the browser onto the middle of the
// page and drops it there, as Chromium delivers a drop from the desktop.
func (p *page) dropFile(path string) {
	p.t.Helper()
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: []string{path}, DragOperationsMask: 1}
	for _, kind := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		_, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: kind, X: 400, Y: 400, Data: data})
		cancel()
		if err != nil {
			p.t.Fatalf("dragging %s onto the page (%s): %v", path, kind, err)
		}
	}
}

// downloadsTo makes the tab save what it downloads into a new directory,
// which it returns.
func (p *page) downloadsTo() string {
	p.t.Helper()
	dir := p.t.TempDir()
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID, DownloadPath: dir})
	if err != nil {
		p.t.Fatalf("allowing downloads: %v", err)
	}
	return dir
}

// downloaded clicks Download PGN and waits for the one file it saves in
// dir, an empty directory, which it returns the path of.
func (p *page) downloaded(dir string) string {
	p.t.Helper()
	p.click("#download-pgn")
	var path string
	waitFor(p.t, 15*time.Second, "the download", func() bool {
		names, _ := filepath.Glob(filepath.Join(dir, "*.pgn"))
		if len(names) != 1 {
			return false
		}
		info, err := os.Stat(names[0])
		path = names[0]
		return err == nil && info.Size() > 0
	})
	return path
}

// convertBack reads a downloaded file with games convert, as a user
// would, and returns the GameStrings it writes; convert must accept every
// game in it.
func convertBack(t *testing.T, path string) []string {
	t.Helper()
	var out, errs bytes.Buffer
	root := NewCmdRoot()
	root.SetArgs([]string{"games", "convert", path})
	root.SetOut(&out)
	root.SetErr(&errs)
	if err := root.Execute(); err != nil {
		t.Fatalf("games convert %s: %v\n%s", filepath.Base(path), err, errs.String())
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// testDropRecord: a real hivegame.com PGN (Base+MLP, 85 plies with a
// pass, won by White)
// dropped on the page opens in replay at its end; stepped from the start
// to the end again, move by move, every position is the record's by
// hivebridge's rules. Download PGN saves it, and games convert reads the
// download back as the same game.
func testDropRecord(t *testing.T, browser context.Context) {
	path, gs := realRecord(t, "protocols/pgn/testdata/hivegame/pass.pgn")
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	downloads := p.downloadsTo()
	p.dropFile(path)
	p.waitFor(`!document.getElementById('replay').hidden`)
	var r replayShown
	p.eval(replayJS, &r)
	if !strings.Contains(r.Title, filepath.Base(path)) || !strings.Contains(r.Title, "csigeee (White) v Balu (Black), White wins") {
		t.Fatalf("the dropped file replays as %+v", r)
	}
	checkReplayAt(t, p, gs, len(gs.Moves))
	p.click("#replay-start")
	for ply := 0; ply < len(gs.Moves); ply++ {
		checkReplayAt(t, p, gs, ply)
		p.click("#replay-forward")
	}
	checkReplayAt(t, p, gs, len(gs.Moves))
	p.screenshot(screenshotDir(t), "viewer-file-replay.png")

	saved := p.downloaded(downloads)
	if filepath.Base(saved) != filepath.Base(path) {
		t.Errorf("the dropped %s downloads as %s", filepath.Base(path), filepath.Base(saved))
	}
	if back := convertBack(t, saved); !slices.Equal(back, []string{gs.String()}) {
		t.Fatalf("the downloaded PGN converts to %q, the dropped file's game is %q", back, gs.String())
	}
	text, _ := os.ReadFile(saved)
	for _, tag := range []string{`[White "csigeee"]`, `[Black "Balu"]`, `[Result "WhiteWins"]`, `[GameType "Base+MLP"]`} {
		if !bytes.Contains(text, []byte(tag)) {
			t.Errorf("the downloaded PGN lacks %s:\n%s", tag, text)
		}
	}

	// A file of three games, the second with an illegal move: the two
	// others are offered, the bad one reported in convert's words.
	second, gs2 := realRecord(t, "protocols/pgn/testdata/mzinga/HV-Abbo69-WeakBot-2018-10-28-2007.pgn")
	first, _ := os.ReadFile(path)
	last, _ := os.ReadFile(second)
	bad := "[GameType \"Base\"]\n\n1. wS1\n2. bS1 wS1-\n3. wQ bS1-\n\n"
	three := filepath.Join(t.TempDir(), "three.pgn")
	if err := os.WriteFile(three, slices.Concat(first, []byte("\n"), []byte(bad), last), 0o644); err != nil {
		t.Fatal(err)
	}
	p.dropFile(three)
	p.waitFor(`document.getElementById('file-status').textContent.startsWith('Opened three.pgn')`)
	var status string
	p.eval(`document.getElementById('file-status').textContent`, &status)
	if status != "Opened three.pgn: 2 games. 1 could not be read: three.pgn: game 2: ply 3 (wQ bS1-): "+illegalWhy(t, "Base;NotStarted;White[1];wS1;bS1 wS1-", "wQ bS1-") {
		t.Errorf("opening three.pgn says %q", status)
	}
	p.waitFor(`getComputedStyle(document.getElementById('replay-file')).display !== 'none' && document.getElementById('replay-game').options.length === 2`)
	p.setSelect("replay-game", "1")
	checkReplayAt(t, p, gs2, len(gs2.Moves))
	p.eval(replayJS, &r)
	if !strings.Contains(r.Title, "three.pgn, game 2 of 2: Abbo69 (White) v WeakBot (Black)") {
		t.Errorf("the second game of three.pgn replays as %q", r.Title)
	}
}

// illegalWhy is why core refuses move after the game gs, as records
// reports it.
func illegalWhy(t *testing.T, gs, move string) string {
	t.Helper()
	_, errs := records.Read("x", []byte(gs+";"+move+"\n"))
	if len(errs) != 1 {
		t.Fatalf("%s;%s reads with %v", gs, move, errs)
	}
	_, why, _ := strings.Cut(errs[0].Error(), "("+move+"): ")
	return why
}

// testOpenSGFAndDownloadLive: a real BoardSpace SGF chosen with the file
// picker replays the moves Mzinga's PGN of the same game records (compared
// through core, as two spellings can name one move). Then, back in the live
// game, the page plays four plies and downloads them as PGN, which games
// convert reads back as the live game's GameString.
func testOpenSGFAndDownloadLive(t *testing.T, browser context.Context) {
	sgfPath, sgfGame := realRecord(t, "protocols/sgf/testdata/HV-Dumbot-Kaur50-2023-01-17-0059.sgf")
	_, mzinga := realRecord(t, "protocols/sgf/testdata/HV-Dumbot-Kaur50-2023-01-17-0059.pgn")
	if sgfGame.String() != mzinga.String() {
		t.Fatalf("the SGF reads as %q, Mzinga's PGN of it as %q", sgfGame, mzinga)
	}
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	downloads := p.downloadsTo()
	p.do(chromedp.SetUploadFiles(chromedp.CSS("#open-file-input"), []string{sgfPath}))
	p.waitFor(`!document.getElementById('replay').hidden`)
	checkReplayAt(t, p, mzinga, len(mzinga.Moves))
	var status string
	p.eval(`document.getElementById('file-status').textContent`, &status)
	if status != "Opened "+filepath.Base(sgfPath)+": 1 game." {
		t.Fatalf("opening the SGF says %q", status)
	}
	var offered bool
	if p.eval(`getComputedStyle(document.getElementById('replay-file')).display !== 'none'`, &offered); offered {
		t.Error("a file of one game offers a choice of games")
	}

	p.click("#replay-leave")
	playBetweenPeople(t, p, core.AllExpansions, 4)
	live := p.view().LastGameString
	saved := p.downloaded(downloads)
	if !strings.HasPrefix(filepath.Base(saved), "hivebridge-") {
		t.Errorf("the live game downloads as %s", filepath.Base(saved))
	}
	if back := convertBack(t, saved); !slices.Equal(back, []string{live}) {
		t.Fatalf("the downloaded live game converts to %q, the page played %q", back, live)
	}
}

// TestBrowserMatchTests: a distributed test of four games between two
// native engines, played by one worker in a PostgreSQL archive; the daemon
// on that archive shows it in the Tests dialog with engine A's results, the
// pair counts and the LLR as the database holds them, and the test's row
// opens the games its worker played. A test of its own, with a browser of
// its own started once the test is played, so that PostgreSQL and the
// match take nothing of the browser tests' deadlines.
func TestBrowserMatchTests(t *testing.T) {
	path := chromium(t)
	db := pgtest.Start(t).URL
	coordinator := startProc(t, "match", "--db", db, "--distributed", "--white", "native", "--black", "native",
		"--white-name", "deep", "--black-name", "shallow", "--white-tc", "depth=2", "--black-tc", "depth=1",
		"--games", "4", "--random-plies", "2", "--seed", "3", "--sprt", "0,200", "--poll", "100ms")
	worker := startProc(t, "worker", "--db", db, "--name", "w1", "--lease", "5s", "--poll", "100ms", "--exit-idle")
	coordinator.exit(t, 40*time.Second, 0)
	worker.exit(t, 20*time.Second, 0)
	ctx := context.Background()
	tests, err := referee.OpenTests(ctx, db, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer tests.Close()
	id, err := tests.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tests.Status(ctx, id)
	if err != nil || st.SPRT == nil {
		t.Fatalf("the test in the database: %+v, %v", st, err)
	}

	d := startDaemon(t, "--db", db)
	p := openPage(t, newBrowser(t, path), "http://"+d.httpAddr+"/")
	p.click("#tests-open")
	row := fmt.Sprintf(`#tests-table tr[data-id="%d"]`, id)
	p.waitFor(fmt.Sprintf(`document.getElementById('tests-table').getAttribute('aria-busy') === 'false' && !!document.querySelector(%q)`, row))
	var shown map[string]string
	p.eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q); const c = (k) => r.querySelector('.' + k).textContent;
  return { engines: c('engines'), tc: c('tc'), state: c('state'), games: c('games'), wdl: c('wdl'), ptnml: c('ptnml'), llr: c('llr') }; })()`, row), &shown)
	total, penta := st.Stats.Total, st.Stats.Pairs.Pentanomial()
	want := map[string]string{
		"engines": "deep vs shallow", "tc": "depth=2 / depth=1", "state": string(st.State), "games": fmt.Sprintf("%d of 4", 2*st.PairsDone),
		"wdl":   fmt.Sprintf("%d / %d / %d", total.Wins, total.Draws, total.Losses),
		"ptnml": fmt.Sprintf("[%d, %d, %d, %d, %d]", penta[0], penta[1], penta[2], penta[3], penta[4]),
	}
	for k, v := range want {
		if shown[k] != v {
			t.Errorf("the Tests dialog shows %s %q, the database %q", k, shown[k], v)
		}
	}
	if !strings.HasPrefix(shown["llr"], fmt.Sprintf("%.2f (%.2f, %.2f) [0, 200] logistic", st.SPRT.LLR, st.SPRT.Lower, st.SPRT.Upper)) {
		t.Errorf("the Tests dialog shows the LLR as %q, the database %+v", shown["llr"], st.SPRT)
	}
	p.click(row + " .test-open")
	p.waitFor(`!document.getElementById('test-detail').hidden && document.querySelectorAll('#test-workers tbody tr').length === 1`)
	var worker1 []string
	p.eval(`[...document.querySelectorAll('#test-workers tbody td')].map((td) => td.textContent)`, &worker1)
	if len(worker1) != 3 || worker1[0] != "w1" || worker1[1] != fmt.Sprint(2*st.PairsDone) {
		t.Errorf("the test's workers are shown as %q", worker1)
	}
	p.screenshot(screenshotDir(t), "viewer-tests.png")
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/analysis"
	"github.com/hivebridge/hivebridge/translate/records"
)

// The browser tests of the analysis board and the opening explorer's
// panel.

// TestBrowserAnalysis runs them in one headless Chromium, each within a
// minute (the engine analyses for real).
func TestBrowserAnalysis(t *testing.T) {
	browser := newBrowser(t, chromium(t))
	for _, bt := range []struct {
		name string
		run  func(*testing.T, context.Context)
	}{
		{"Live", testAnalysisLive},
		{"File", testAnalysisFile},
		{"Explorer", testAnalysisExplorer},
		{"TwoTabs", testAnalysisTwoTabs},
		{"Screenshot", testAnalysisScreenshot},
	} {
		t.Run(bt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(browser, time.Minute)
			defer cancel()
			bt.run(t, ctx)
		})
	}
}

// analysisShown is the analysis board as the page shows it.
type analysisShown struct {
	Hidden     bool
	Position   string
	GameString string
	Lines      [][]string // each line's moves
	Scores     []string
	Main, Var  []string // the moves list's main line and variations
	Current    string   // the move marked current: "main 3", "var 7", or "" at the start
	Classes    map[string]string
	Graph      struct{ Plies, Done string }
	Eval       string
}

const analysisJS = `(() => {
  const $ = (id) => document.getElementById(id);
  const all = (sel) => [...document.querySelectorAll(sel)];
  const cur = document.querySelector('#history button.jump[aria-current="step"]');
  const classes = {};
  for (const b of all('#history button.jump[data-class]')) classes[b.dataset.ply] = b.dataset.class;
  return { Hidden: $('analysis').hidden, Position: $('analysis-position').textContent, GameString: $('current-gamestring').value,
    Lines: all('#analysis-pv li').map((li) => [...li.querySelectorAll('.pv-move')].map((b) => b.textContent)),
    Scores: all('#analysis-pv .line-score').map((s) => s.textContent),
    Main: all('#history button.jump:not(.var) .mv').map((e) => e.textContent),
    Var: all('#history button.jump.var .mv').map((e) => e.textContent),
    Current: cur ? (cur.classList.contains('var') ? 'var ' : 'main ') + cur.dataset.ply : '',
    Classes: classes,
    Graph: { Plies: $('score-graph').dataset.plies || '', Done: $('score-graph').dataset.done || '' },
    Eval: $('eval-bar').getAttribute('aria-valuetext') || '' };
})()`

func (p *page) analysis() analysisShown {
	p.t.Helper()
	var a analysisShown
	p.eval(analysisJS, &a)
	return a
}

// described is the GameString hivebridge's rules give the moves of a game
// of type gt.
func described(t *testing.T, gt core.GameType, moves []string) string {
	t.Helper()
	g := core.NewGame(gt)
	for _, text := range moves {
		m, err := uhp.ParseMove(text, g)
		if err == nil {
			err = g.PlayChecked(m)
		}
		if err != nil {
			t.Fatalf("%q after %q: %v", text, moves, err)
		}
	}
	gs, err := uhp.Describe(g)
	if err != nil {
		t.Fatal(err)
	}
	return gs.String()
}

// linesJS holds once the board shows n lines of the engine's.
func linesJS(n int) string {
	return fmt.Sprintf(`document.querySelectorAll('#analysis-pv li').length === %d`, n)
}

// clickGraphAt clicks the score graph where ply of plies is drawn.
func (p *page) clickGraphAt(ply, plies int) {
	p.t.Helper()
	var box struct{ X, Y, W, H float64 }
	p.eval(`(() => { const r = document.getElementById('score-graph').getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, &box)
	x := box.X + box.W*float64(ply)/float64(plies)
	p.do(chromedp.MouseClickXY(x, box.Y+box.H/2))
}

// testAnalysisLive: the analysis board opened from the live game (a
// position loaded into it). The engine analyses the position shown with
// three lines once asked to; a line's second move, clicked, plays the line
// up to it as a variation beside the game, whose GameString the page then
// shows (the rules' own); Back to the main line returns to the game's
// position with the main line as it was; the graph, once the daemon has
// scored the game, clicked at ply 2 shows the position after ply 2; and by
// keys alone: ← steps back, 1 plays line 1's move, M goes back to the main
// line, A (from the live game) opened it. Screenshots at desktop and phone
// sizes.
func testAnalysisLive(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	const position = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-"
	game := uhptest.Load(t, position)
	gs, _ := uhp.Describe(game)
	main := gs.Moves
	p.do(chromedp.SendKeys(chromedp.ID("load-input"), position), chromedp.Click(chromedp.ID("load-button")))
	p.waitFor(settledJS(len(main)))

	// Opened by the A key from the live game.
	p.do(chromedp.Focus(chromedp.ID("new-game")), chromedp.KeyEvent("a"))
	p.waitFor(`!document.getElementById('analysis').hidden`)
	p.waitFor(`document.querySelectorAll('#analysis-pv li').length > 0`)
	p.setSelect("analysis-lines", "3")
	p.waitFor(linesJS(3))
	a := p.analysis()
	if a.GameString != position || strings.Join(a.Main, ";") != strings.Join(main, ";") || a.Current != "main 6" || len(a.Var) != 0 {
		t.Fatalf("the analysis opens on %+v", a)
	}
	for i, l := range a.Lines {
		if len(l) == 0 {
			t.Fatalf("line %d has no move: %+v", i+1, a)
		}
	}
	// The lines' first moves are distinct legal moves of the position.
	seen := map[string]bool{}
	for _, l := range a.Lines {
		if _, err := uhp.ParseMove(l[0], game); err != nil || seen[l[0]] {
			t.Errorf("lines %q: %q is no distinct legal move (%v)", a.Lines, l[0], err)
		}
		seen[l[0]] = true
	}

	// A line's second move clicked: the line up to it, on the board, as a
	// variation of two moves beside the main line, in the position the
	// rules give those moves.
	clicked := false
	for i, l := range a.Lines {
		if len(l) >= 2 {
			p.click(fmt.Sprintf(`#analysis-pv .pv-move[data-line="%d"][data-index="1"]`, i+1))
			clicked = true
			break
		}
	}
	if !clicked {
		t.Fatalf("no line of two moves: %+v", a.Lines)
	}
	p.waitFor(`(() => { const c = document.querySelector('#history [aria-current]'); return document.querySelectorAll('#history button.jump.var').length === 2 && c && c.classList.contains('var') && c.dataset.ply === '8'; })()`)
	line := p.analysis().Var
	want := described(t, game.Type(), append(append([]string{}, main...), line...))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, want))
	a = p.analysis()
	if strings.Join(a.Main, ";") != strings.Join(main, ";") || a.Current != "var 8" {
		t.Fatalf("after the line's moves: %+v", a)
	}
	checkPosition(t, p.view(), uhptest.Load(t, want))
	p.screenshot(shots, "analysis-variation.png")

	// Back to the main line: the game's position, its moves as they were,
	// the variation still beside them.
	p.click("#analysis-main")
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, position))
	a = p.analysis()
	if a.Current != "main 6" || strings.Join(a.Main, ";") != strings.Join(main, ";") || strings.Join(a.Var, ";") != strings.Join(line, ";") {
		t.Fatalf("back on the main line: %+v", a)
	}

	// The graph, clicked at ply 2, once the game is scored.
	p.waitFor(`document.getElementById('score-graph').dataset.done === 'true'`)
	if a = p.analysis(); a.Graph.Plies != strconv.Itoa(len(main)) {
		t.Fatalf("the graph shows %s plies of %d", a.Graph.Plies, len(main))
	}
	p.clickGraphAt(2, len(main))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, described(t, game.Type(), main[:2])))
	if a = p.analysis(); a.Current != "main 2" || !strings.HasPrefix(a.Position, "Move 2 of 6") {
		t.Fatalf("the graph clicked at ply 2 shows %+v", a)
	}

	// By keys alone from here. The graph: Tab reaches it (after the
	// header's last button), End goes to the game's last ply, ← three
	// times to ply 3, whose position the board shows and the graph says.
	p.eval(`document.getElementById('tests-open').focus()`, nil)
	p.tabTo("#score-graph")
	p.do(chromedp.KeyEvent(kb.End))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, position))
	for range 3 {
		p.do(chromedp.KeyEvent(kb.ArrowLeft))
	}
	at3 := described(t, game.Type(), main[:3])
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, at3))
	checkPosition(t, p.view(), uhptest.Load(t, at3))
	graph := p.accessible("#score-graph")
	var words string
	p.eval(`document.getElementById('score-graph').getAttribute('aria-valuetext')`, &words)
	if graph.Role != "slider" || graph.Value != "3" || !strings.HasPrefix(words, fmt.Sprintf("Move 3 of 6, White's %s: White's expected score ", main[2])) {
		t.Errorf("the graph at ply 3 (%s) is a %q at %q saying %q", main[2], graph.Role, graph.Value, words)
	}
	// A line's second move, by Tab and Enter: the line's two moves from
	// ply 3, on the board as the rules play them; the focus stays with the
	// lines. The line is one that leaves the game at once (at most one of
	// three begins with the game's move), unless a deeper search reorders
	// the lines between the Tab and the Enter: where it left the game is
	// counted. M goes back to the main line there, the variation kept.
	p.waitFor(fmt.Sprintf(`[...document.querySelectorAll('#analysis-pv li')].some((li) => { const b = li.querySelectorAll('.pv-move'); return b.length >= 2 && b[0].textContent !== %q; })`, main[3]))
	k := 0
	for i, l := range p.analysis().Lines {
		if len(l) >= 2 && l[0] != main[3] && k == 0 {
			k = i + 1
		}
	}
	p.tabTo(fmt.Sprintf(`#analysis-pv .pv-move[data-line="%d"][data-index="1"]`, k))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`(() => { const c = document.querySelector('#history [aria-current]'); return c && c.dataset.ply === '5'; })()`)
	// The moves tried, as the board's session spells them once it has
	// checked them; the position theirs by hivebridge's rules.
	p.waitFor(`document.getElementById('current-gamestring').value.split(';').length === 3 + 5`)
	tried := strings.Split(p.analysis().GameString, ";")[3+3:]
	withTried := described(t, game.Type(), append(append([]string{}, main[:3]...), tried...))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, withTried))
	checkPosition(t, p.view(), uhptest.Load(t, withTried))
	var focused string
	p.eval(`document.activeElement.id || document.activeElement.tagName`, &focused)
	if focused != "analysis-pv" {
		t.Errorf("after a line's move by keyboard the focus is on %s", focused)
	}
	same := 0 // the moves tried that are the game's
	for same < len(tried) && tried[same] == main[3+same] {
		same++
	}
	if same > 0 {
		t.Logf("line %d began with the game's %q when played: it leaves the game %d plies on", k, tried[:same], same)
	}
	left := 3 + same
	atLeft := described(t, game.Type(), main[:left])
	p.do(chromedp.KeyEvent("m"))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, atLeft))
	checkPosition(t, p.view(), uhptest.Load(t, atLeft))
	// The moves list: the main line as it was, the variation listed
	// before the one from ply 6.
	if a = p.analysis(); a.Current != fmt.Sprintf("main %d", left) || strings.Join(a.Main, ";") != strings.Join(main, ";") ||
		strings.Join(a.Var, ";") != strings.Join(append(append([]string{}, tried[same:]...), line...), ";") {
		t.Fatalf("back on the main line by M: %+v", a)
	}

	// End, ←, then 1 plays line 1's first move, M comes back.
	p.do(chromedp.Focus(chromedp.ID("analysis-forward")), chromedp.KeyEvent(kb.End))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, position))
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	at5 := described(t, game.Type(), main[:5])
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, at5))
	p.waitFor(`document.querySelectorAll('#analysis-pv li').length === 3`)
	p.do(chromedp.KeyEvent("1"))
	p.waitFor(`(() => { const c = document.querySelector('#history [aria-current]'); return c && c.dataset.ply === '6'; })()`)
	played := strings.Split(p.analysis().GameString, ";")[8]
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, described(t, game.Type(), append(append([]string{}, main[:5]...), played))))
	if a = p.analysis(); (played == main[5]) != (a.Current == "main 6") {
		t.Errorf("line 1's move %s (the game's %s) is shown as %q", played, main[5], a.Current)
	}
	p.do(chromedp.KeyEvent("m"))
	want = at5
	if played == main[5] {
		want = position
	}
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, want))
	p.waitFor(linesJS(3))
	p.screenshot(shots, "analysis-desktop.png")
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.waitFor(`document.querySelectorAll('#analysis-pv li').length === 3`)
	p.screenshot(shots, "analysis-phone.png")

	// Closing it stops its engine and shows the live game again.
	p.do(chromedp.EmulateViewport(1280, 800))
	p.click("#analysis-close")
	p.waitFor(`document.getElementById('analysis').hidden && document.body.dataset.mode === 'live'`)
	checkShows(t, p.view(), position)
}

// testAnalysisFile: the analysis board opened on a game record dropped on
// the page, by the Analyse button of its replay: the graph fills in, and
// the moves list marks each inaccuracy, mistake and blunder as hivebridge
// analyze's Analyse classes them with the native searcher at the same depth.
func testAnalysisFile(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	path, _ := filepath.Abs(realGamePath)
	p.dropFile(path)
	p.waitFor(`!document.getElementById('replay').hidden`)
	p.click("#replay-analyse")
	p.waitFor(`!document.getElementById('analysis').hidden && document.getElementById('score-graph').dataset.done === 'true'`)
	a := p.analysis()

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := records.Read(path, data)
	want, err := analysis.Analyse(context.Background(), translate.NewNative(), recs[0], analysis.Config{Limit: engine.Limit{Depth: 4}})
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, ply := range want.Plies {
		class := ""
		if ply.Class == analysis.Inaccuracy || ply.Class == analysis.Mistake || ply.Class == analysis.Blunder {
			class = string(ply.Class)
			marked++
		}
		if got := a.Classes[strconv.Itoa(ply.Ply)]; got != class {
			t.Errorf("ply %d %s is marked %q, analyze classes it %q", ply.Ply, ply.Move, got, ply.Class)
		}
	}
	if marked == 0 {
		t.Fatal("analyze marks no move of the game: the test shows nothing")
	}
	if a.Current != "main "+strconv.Itoa(len(want.Plies)) {
		t.Errorf("the analysis of the file opens at %q", a.Current)
	}
	t.Logf("%d of %d moves marked, as analyze marks them", marked, len(want.Plies))

	// By keys alone on the graph: Tab to it, Home, then → to the first
	// move analyze marks, and Page Up ten moves on: each time the board
	// shows the record's position there, and the graph says the move, its
	// score and its class as analyze has them (the score's percentage
	// within one point: the daemon's pooled engine keeps a table that
	// analyze's fresh engine has not).
	first := 0
	for _, ply := range want.Plies {
		if ply.Class == analysis.Inaccuracy || ply.Class == analysis.Mistake || ply.Class == analysis.Blunder {
			first = ply.Ply
			break
		}
	}
	p.eval(`document.getElementById('tests-open').focus()`, nil)
	p.tabTo("#score-graph")
	p.do(chromedp.KeyEvent(kb.Home))
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, described(t, recs[0].GameType, nil)))
	checkPosition(t, p.view(), core.NewGame(recs[0].GameType))
	for range first {
		p.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	graphSays := regexp.MustCompile(`^Move (\d+) of (\d+), (White|Black)'s (.+): White's expected score (\d+)%, (.+)$`)
	for _, ply := range []int{first, min(first+10, len(want.Plies))} {
		if ply != first {
			p.do(chromedp.KeyEvent(kb.PageUp))
		}
		gs := described(t, recs[0].GameType, recs[0].Moves[:ply])
		p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q`, gs))
		checkPosition(t, p.view(), uhptest.Load(t, gs))
		var words string
		p.eval(`document.getElementById('score-graph').getAttribute('aria-valuetext')`, &words)
		w := want.Plies[ply-1]
		said := graphSays.FindStringSubmatch(words)
		class := string(w.Class)
		if w.Class == analysis.Best {
			class = "the best move"
		}
		if said == nil || said[1] != strconv.Itoa(ply) || said[2] != strconv.Itoa(len(want.Plies)) || said[3] != w.Color || said[4] != w.Move || said[6] != class {
			t.Errorf("the graph at ply %d says %q; analyze has %s's %s, %s", ply, words, w.Color, w.Move, w.Class)
		} else if pct, _ := strconv.Atoi(said[5]); math.Abs(float64(pct)-100*w.Expected) > 1.5 {
			t.Errorf("the graph at ply %d gives White %d%%; analyze %.1f%%", ply, pct, 100*w.Expected)
		}
	}
	t.Logf("the graph by keys: ply %d, then %d", first, min(first+10, len(want.Plies)))
}

// testAnalysisTwoTabs: two tabs of one browser (one address to the
// daemon) each analyse a game, and each scores it whole: each tab sends
// POST /analysis with an id of its own, which it keeps from one analysis
// to the next (the daemon cancels a client's analysis when the same
// client asks again, and tells clients apart by address and id).
func testAnalysisTwoTabs(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	const position = "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-"
	ids := map[string]bool{}
	var tabs []*page
	var logs []*netLog
	for range 2 {
		p := openPage(t, browser, "http://"+d.httpAddr+"/")
		p.setSelect("player-white", "human")
		p.setSelect("player-black", "human")
		p.do(chromedp.SendKeys(chromedp.ID("load-input"), position), chromedp.Click(chromedp.ID("load-button")))
		p.waitFor(settledJS(6))
		tabs, logs = append(tabs, p), append(logs, p.recordNetwork())
	}
	// Both open the analysis, one right after the other, and twice.
	for round := range 2 {
		for _, p := range tabs {
			p.do(chromedp.Focus(chromedp.ID("new-game")), chromedp.KeyEvent("a"))
		}
		for i, p := range tabs {
			p.waitFor(`document.getElementById('score-graph').dataset.done === 'true' || /could not be scored/.test(document.getElementById('graph-status').textContent)`)
			var status string
			p.eval(`document.getElementById('graph-status').textContent`, &status)
			if !strings.HasPrefix(status, "Scored by ") {
				t.Errorf("round %d, tab %d: %q", round+1, i+1, status)
			}
			p.click("#analysis-close")
			p.waitFor(`document.getElementById('analysis').hidden`)
		}
	}
	clientID := regexp.MustCompile(`^[0-9a-f]{24}$`)
	for i, l := range logs {
		requests, _ := l.snapshot()
		var sent []string
		for _, r := range requests {
			u, err := url.Parse(r.URL)
			if err == nil && u.Path == "/analysis" {
				sent = append(sent, u.Query().Get("client"))
			}
		}
		if len(sent) != 2 || sent[0] != sent[1] || !clientID.MatchString(sent[0]) {
			t.Fatalf("tab %d sent POST /analysis with the ids %q, want one id of its own, twice", i+1, sent)
		}
		ids[sent[0]] = true
	}
	if len(ids) != 2 {
		t.Errorf("the two tabs sent one id: %v", ids)
	}
}

// realGamePath is a BoardSpace game of Base+MLP that White won in 31
// plies (Mzinga's test asset).
const realGamePath = "../../protocols/pgn/testdata/mzinga/HV-Abbo69-WeakBot-2018-10-28-2007.pgn"

// explorerGames are the games the explorer test archives: every game of
// Base+MLP; the Black replies to wS1 are the same move in the opening's
// twelve orientations, so the explorer counts them as one.
const explorerGames = `[GameType "Base+MLP"]
[White "a"]
[Black "b"]
[Result "WhiteWins"]

1. wS1
2. bS1 wS1-
3. wQ -wS1

[GameType "Base+MLP"]
[White "c"]
[Black "d"]
[Result "BlackWins"]

1. wS1
2. bS1 -wS1
3. wQ wS1-

[GameType "Base+MLP"]
[White "e"]
[Black "f"]
[Result "Draw"]

1. wS1
2. bG1 wS1/

[GameType "Base+MLP"]
[White "g"]
[Black "h"]
[Result "WhiteWins"]

1. wL
2. bS1 wL-

[GameType "Base+MLP"]
[White "i"]
[Black "j"]
[Result "WhiteWins"]

1. wS1
2. bS1 \wS1
`

// explorerRow is a row of the explorer's table.
type explorerRow struct {
	Move, Games, WDL, Score, From string
	Search                        string // the daemon's score of the move, as the page got it
	IDs                           []string
}

const explorerJS = `[...document.querySelectorAll('#explorer-table tbody tr')].map((tr) => ({
  Move: tr.dataset.move, Games: tr.children[1].textContent, WDL: tr.querySelector('.wdl').getAttribute('aria-label'),
  Score: tr.querySelector('.explorer-score').textContent, From: tr.querySelector('.explorer-score').dataset.from || '',
  Search: tr.querySelector('.explorer-score').dataset.search || '', IDs: [...tr.querySelectorAll('.explorer-game')].map((b) => b.dataset.id) }))`

// testAnalysisExplorer: an archive of the five games above (imported by
// games import). An archived game replayed and analysed, taken to its
// start: the explorer lists wS1 (4 games: White won 2, drawn 1, Black won
// 1) and wL (1, White won); wS1 in it, by Tab and Enter, plays it and
// leaves the focus in the explorer; after it, the explorer has Black's
// Spider beside it in three orientations counted as one move of 3 games
// and the Grasshopper of 1; the engine's score is beside a move when the
// move is among its lines; a game of the Spider's, by Tab and Enter, is
// replayed.
func testAnalysisExplorer(t *testing.T, browser context.Context) {
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	file := filepath.Join(dir, "games.pgn")
	if err := os.WriteFile(file, []byte(explorerGames), 0o644); err != nil {
		t.Fatal(err)
	}
	root := NewCmdRoot()
	root.SetArgs([]string{"games", "import", "--db", db, file})
	root.SetOut(&strings.Builder{})
	root.SetErr(&strings.Builder{})
	if err := root.Execute(); err != nil {
		t.Fatalf("games import: %v", err)
	}
	d := startDaemon(t, "--db", db)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.click("#games-open")
	p.waitFor(gamesLoadedJS + ` && document.querySelectorAll('#games-table tbody tr').length === 5`)
	p.click(`#games-table tbody tr:first-child button.replay-game`)
	p.waitFor(`!document.getElementById('replay').hidden`)
	p.click("#replay-analyse")
	p.waitFor(`!document.getElementById('analysis').hidden`)
	p.do(chromedp.Focus(chromedp.ID("analysis-back")), chromedp.KeyEvent(kb.Home))
	p.waitFor(`document.getElementById('explorer-table').dataset.position === 'Base+MLP;NotStarted;White[1]'`)
	var rows []explorerRow
	p.eval(explorerJS, &rows)
	if len(rows) != 2 || rows[0].Move != "wS1" || rows[0].Games != "4" || rows[0].WDL != "White won 2, drawn 1, Black won 1" ||
		rows[1].Move != "wL" || rows[1].Games != "1" || rows[1].WDL != "White won 1, drawn 0, Black won 0" {
		t.Fatalf("the explorer at the start lists %+v", rows)
	}
	// wS1 played from the table by Tab and Enter: the focus goes to the
	// new table's first move, not to the page.
	p.tabTo(`#explorer-table tr[data-move="wS1"] .explorer-move`)
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.getElementById('explorer-table').dataset.position === 'Base+MLP;InProgress;Black[1];wS1'`)
	var focused string
	p.eval(`document.activeElement.matches('#explorer-table tbody tr:first-child .explorer-move') ? 'first move' : document.activeElement.outerHTML.slice(0, 80)`, &focused)
	if focused != "first move" {
		t.Errorf("after a move played from the explorer by keyboard the focus is on %s", focused)
	}
	p.eval(explorerJS, &rows)
	if len(rows) != 2 || !strings.HasPrefix(rows[0].Move, "bS1 ") || rows[0].Games != "3" || rows[0].WDL != "White won 2, drawn 0, Black won 1" ||
		!strings.HasPrefix(rows[1].Move, "bG1 ") || rows[1].Games != "1" || len(rows[0].IDs) != 3 {
		t.Fatalf("the explorer after wS1 lists %+v", rows)
	}
	// The engine's score beside each move: its line's where the board's
	// engine has the move among its five lines, else the daemon's search
	// of the move (GET /explorer?depth=2, asked here too).
	p.setSelect("analysis-lines", "5")
	p.waitFor(linesJS(5))
	// The lines and the scores beside the explorer's moves are read in one
	// evaluation: the lines go on deepening, and the scores follow them.
	var both struct {
		A    analysisShown
		Rows []explorerRow
	}
	p.eval(`({A: `+analysisJS+`, Rows: `+explorerJS+`})`, &both)
	a, rows := both.A, both.Rows
	var answer struct {
		Moves []struct {
			Move  string
			Score *float64
		}
	}
	getJSON(t, "http://"+d.httpAddr+"/explorer?position="+url.QueryEscape(described(t, core.AllExpansions, []string{"wS1"}))+"&depth=2", &answer)
	for _, r := range rows {
		want, from := "", "search"
		for i, l := range a.Lines {
			if l[0] == r.Move {
				want, from = a.Scores[i], "line"
			}
		}
		// Else the daemon's search of the move, as the page got it: a
		// pooled engine's table makes a depth-2 score vary a little from
		// one request to the next, so the test's own request checks only
		// that the daemon scores the move.
		for _, m := range answer.Moves {
			if m.Move == r.Move && want == "" && m.Score != nil {
				got, err := strconv.ParseFloat(r.Search, 64)
				if err != nil {
					t.Errorf("explorer's %s: the page kept no daemon score (%q)", r.Move, r.Search)
				}
				want = strconv.FormatFloat(got, 'f', 2, 64)
				if got > 0 {
					want = "+" + want
				}
			}
		}
		if r.Score != want || r.From != from {
			t.Errorf("explorer's %s scored %q from its %s, want %q from its %s (lines %q %q)", r.Move, r.Score, r.From, want, from, a.Lines, a.Scores)
		}
	}
	p.screenshot(shots, "explorer-desktop.png")
	p.elementShot(shots, "explorer-desktop-panel.png", "#explorer")
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.screenshot(shots, "explorer-phone.png")
	p.elementShot(shots, "explorer-phone-panel.png", "#explorer")
	p.do(chromedp.EmulateViewport(1280, 800))

	// A game of Black's Spider, by keyboard: Tab to its button, Enter.
	id := rows[0].IDs[0]
	p.tabTo(fmt.Sprintf(`#explorer-table .explorer-game[data-id="%s"]`, id))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(fmt.Sprintf(`!document.getElementById('replay').hidden && document.getElementById('analysis').hidden && document.getElementById('replay-title').textContent.includes('game %s:')`, id))
}

// realGames are the real records of testdata (BoardSpace's, Mzinga's
// and hivegame.com's), each game once: the screenshot's archive.
var realGames = []string{
	"../../protocols/sgf/testdata/HV-Dumbot-Kaur50-2023-01-17-0059.sgf",
	"../../protocols/sgf/testdata/HV-Dumbot-Mormor51-2023-05-11-0957.sgf",
	"../../protocols/sgf/testdata/HV-Quodlibet-Jewdoka-2018-10-10-0140.sgf",
	"../../protocols/sgf/testdata/HV-aaronheit-jdokakill-2019-06-22-1750.sgf",
	"../../protocols/sgf/testdata/HV-blue1224-Dumbot-2016-04-02-1915.sgf",
	"../../protocols/sgf/testdata/T!HV-dube-Quodlibet-2021-12-11-1632.sgf",
	"../../protocols/sgf/testdata/U!HV-kearf29-Dumbot-2013-04-20-0054.sgf",
	realGamePath,
	"../../protocols/pgn/testdata/mzinga/HV-Dumbot-guest-2018-10-31-1402.pgn",
	"../../protocols/pgn/testdata/hivegame/THV-aenorman43-Marko60-2024-03-18-2138.pgn",
}

// testAnalysisScreenshot: the analysis board on a real game of an archive
// of real games (realGames): Abbo69 v WeakBot, replayed from the archive
// and analysed, shown at its last mistake or blunder before its last four
// moves. It checks that the page shows what the screenshot is to show: the
// board in the record's position there, three lines of the engine's, the
// evaluation bar with a score, the graph whole with a dot for each move
// marked (as many as the moves list marks), and the explorer's panel of
// that position, listing the game's own next move; and that at 1280x900
// the page fits the window. The screenshot, at 1280x900, is the README's,
// docs/analysis.png, when HIVEBRIDGE_UPDATE_SCREENSHOT=1.
func testAnalysisScreenshot(t *testing.T, browser context.Context) {
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	root := NewCmdRoot()
	root.SetArgs(append([]string{"games", "import", "--db", db}, realGames...))
	var out strings.Builder
	root.SetOut(&out)
	root.SetErr(&strings.Builder{})
	if err := root.Execute(); err != nil {
		t.Fatalf("games import: %v", err)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("%d imported", len(realGames))) {
		t.Fatalf("games import: %s", out.String())
	}
	data, err := os.ReadFile(realGamePath)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := records.Read(realGamePath, data)
	rec := recs[0]

	d := startDaemon(t, "--db", db)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.click("#games-open")
	p.waitFor(gamesLoadedJS + fmt.Sprintf(` && document.querySelectorAll('#games-table tbody tr').length === %d`, len(realGames)))
	var id string
	p.eval(fmt.Sprintf(`[...document.querySelectorAll('#games-table tbody tr')].find((r) => r.querySelector('.white').textContent === %q).dataset.id`, rec.White), &id)
	p.click(fmt.Sprintf(`#games-table tr[data-id="%s"] .replay-game`, id))
	p.waitFor(`!document.getElementById('replay').hidden`)
	p.click("#replay-analyse")
	p.setSelect("analysis-lines", "3")
	p.waitFor(`!document.getElementById('analysis').hidden && document.getElementById('score-graph').dataset.done === 'true'`)

	a := p.analysis()
	ply := 0
	for k := 1; k <= len(rec.Moves)-4; k++ {
		if c := a.Classes[strconv.Itoa(k)]; c == "mistake" || c == "blunder" {
			ply = k
		}
	}
	if ply == 0 {
		t.Fatalf("no mistake nor blunder marked: %v", a.Classes)
	}
	p.click(fmt.Sprintf(`#history button.jump:not(.var)[data-ply="%d"]`, ply))
	gs := described(t, rec.GameType, rec.Moves[:ply])
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q && document.getElementById('explorer-table').dataset.position === %q`, gs, gs))
	p.waitFor(linesJS(3) + ` && document.querySelector('#explorer-table .explorer-score').dataset.from !== undefined`)
	checkPosition(t, p.view(), uhptest.Load(t, gs))
	var shown struct {
		Marks, Marked, Rows int
		Next, Eval          string
	}
	p.eval(`({ Marks: document.querySelectorAll('#score-graph .graph-mark').length, Marked: document.querySelectorAll('#history .nag').length,
  Rows: document.querySelectorAll('#explorer-table tbody tr').length, Next: (document.querySelector('#explorer-table tbody tr') || {dataset: {}}).dataset.move || '',
  Eval: document.getElementById('eval-bar').getAttribute('aria-valuetext') })`, &shown)
	a = p.analysis()
	if len(a.Lines) != 3 || shown.Marks == 0 || shown.Marks != shown.Marked || shown.Rows != 1 || shown.Next != rec.Moves[ply] || !strings.HasSuffix(shown.Eval, " for White") {
		t.Fatalf("at ply %d the page shows %+v, lines %q", ply, shown, a.Lines)
	}
	t.Logf("ply %d of %d (%s, %s): %d moves marked, the explorer's move %s, %s", ply, len(rec.Moves), rec.Moves[ply-1], a.Classes[strconv.Itoa(ply)], shown.Marks, shown.Next, shown.Eval)
	// At 1280x900 the analysis board fits the window, as the live game's
	// page does (testDesktopFits): arrow keys must not scroll it.
	p.do(chromedp.EmulateViewport(1280, 900))
	var size struct{ ScrollHeight, InnerHeight int }
	p.eval(`({ ScrollHeight: document.documentElement.scrollHeight, InnerHeight: innerHeight })`, &size)
	if size.ScrollHeight > size.InnerHeight {
		t.Errorf("at 1280x900 the analysis board is %dpx tall in a %dpx window", size.ScrollHeight, size.InnerHeight)
	}
	shot := p.screenshotFrom(shots, "analysis.png", "analysis-lines-card")
	if os.Getenv("HIVEBRIDGE_UPDATE_SCREENSHOT") == "1" {
		buf, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(filepath.Join("..", "..", "docs", "analysis.png"), buf, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// getJSON decodes the answer of a GET.
func getJSON(t *testing.T, address string, out any) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", address, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("GET %s: %v", address, err)
	}
}

// elementShot saves a PNG of the element selector shows, scrolled into
// view.
func (p *page) elementShot(dir, name, selector string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(selector)))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", selector, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

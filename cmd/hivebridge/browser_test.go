package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// The browser tests drive the viewer page in headless Chromium, served by a
// daemon in the test process. Without Chromium they skip, unless
// HIVEBRIDGE_BROWSER_TESTS=1 (as .ci/run sets) makes them required.

// chromium finds the browser, or skips (or fails, when the tests are
// required) with what to do about it.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HIVEBRIDGE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "browser tests need Chromium: run .ci/setup (apt-get install chromium) or set HIVEBRIDGE_CHROMIUM to its path"
	if os.Getenv("HIVEBRIDGE_BROWSER_TESTS") == "1" {
		t.Fatal(msg + " (HIVEBRIDGE_BROWSER_TESTS=1 requires them)")
	}
	t.Skip(msg)
	return ""
}

// browserDeadline bounds the browser tests as a whole, browserTestDeadline
// each of them.
const (
	browserDeadline     = 3 * time.Minute
	browserTestDeadline = 45 * time.Second
)

// newBrowser starts a headless Chromium (found by chromium) with a fresh
// profile; it is stopped when the test ends. The network flags keep it
// from reaching out (this machine's network is closed, and Chromium would
// hang on refused connections).
func newBrowser(t *testing.T, path string) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), browserDeadline)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(browserCtx); err != nil { // starts the browser
		cancelBrowser()
		cancelAlloc()
		cancel()
		t.Fatalf("starting %s: %v", path, err)
	}
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancel()
	})
	return browserCtx
}

// page is one tab of the browser, on the viewer.
type page struct {
	t       *testing.T
	ctx     context.Context
	console syncbuf.Buffer // what the page printed, for failures
}

// newTab opens a tab in a browser context of its own (its own storage) and
// follows its console; the test fails if the page threw an uncaught
// exception, and the tab closes, when the test ends.
func newTab(t *testing.T, browser context.Context) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	p := &page{t: t, ctx: ctx}
	// Open the tab with its own context: the first action on a context
	// binds the tab's life to the context it runs with, so it must not be
	// one of do's short-lived ones (the browser's has the test's deadline).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	var exceptions syncbuf.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			fmt.Fprintf(&p.console, "%s: %s\n", m.Type, m)
			if m.IsException() {
				fmt.Fprintf(&exceptions, "%s\n", m)
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		if e := exceptions.String(); e != "" {
			t.Errorf("the page threw:\n%s", e)
		}
	})
	return p
}

// openPage opens the viewer in a new tab and waits until it is connected
// and shows a game.
func openPage(t *testing.T, browser context.Context, address string) *page {
	t.Helper()
	p := newTab(t, browser)
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(address))
	p.waitFor(`document.getElementById('connection').dataset.state === 'up' && document.getElementById('status').dataset.state !== '' && document.getElementById('waiting').textContent === ''`)
	return p
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval runs a JavaScript expression and decodes its JSON value into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.t.Fatalf("decoding %s: %v", raw, err)
		}
	}
}

// waitFor polls a JavaScript condition until it holds.
func (p *page) waitFor(cond string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		p.t.Logf("the page's console:\n%s", p.console.String())
		var shown view
		p.eval(viewJS, &shown)
		p.t.Fatalf("waiting for %s: %v; the page shows %+v", cond, err, shown)
	}
}

// setSelect chooses an option of a select as a person would, firing its
// change event.
func (p *page) setSelect(id, value string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); return s.value; })()`, id, value), nil)
}

func (p *page) click(selector string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
}

// screenshot saves the page as a PNG under dir and checks it is one.
func (p *page) screenshot(dir, name string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	// The top of the page, and the side panel from the engine's report on.
	p.eval(`(() => { window.scrollTo(0, 0); const side = document.querySelector('.side'), card = document.getElementById('thinking');
  side.scrollTop = card.getBoundingClientRect().top - side.getBoundingClientRect().top + side.scrollTop - 4; return 1; })()`, nil)
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		p.t.Fatalf("screenshot %s is no PNG: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 300 {
		p.t.Fatalf("screenshot %s is %v", name, b)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// view is what the page shows, read from its DOM.
type view struct {
	State, ToMove, Turn, Waiting, Remote, Message string
	History                                       []string
	Pieces                                        []shownPiece
	Hands                                         []shownHand
	Movable                                       []string
	Dests                                         []string
	PassEnabled                                   bool
	LastGameString                                string
	Thinking                                      struct{ Title, Depth, Score, Move, PV string }
}

type shownPiece struct {
	Piece  string
	Q, R   int
	Height int
	Stack  string
}

type shownHand struct {
	Piece string
	Count int
}

const viewJS = `(() => {
  const $ = (id) => document.getElementById(id);
  const all = (sel) => [...document.querySelectorAll(sel)];
  const ins = all('#protocol-log li[data-dir="in"]').map((li) => li.textContent);
  let last = '';
  for (const msg of ins) for (const line of msg.split('\n')) if (/^Base(\+[MLP]+)?;[A-Za-z]+;(White|Black)\[\d+\]/.test(line)) last = line;
  return {
    State: $('status').dataset.state, ToMove: $('status').dataset.toMove, Turn: $('turn').textContent,
    Waiting: $('waiting').textContent, Remote: $('remote-info').hidden ? '' : $('remote-info').textContent,
    Message: $('message').hidden ? '' : $('message').textContent,
    History: all('#history .mv').map((e) => e.textContent),
    Pieces: all('#board .piece').map((e) => ({Piece: e.dataset.piece, Q: +e.dataset.q, R: +e.dataset.r, Height: +e.dataset.height, Stack: e.dataset.stack})),
    Hands: all('.hand-piece').map((e) => ({Piece: e.dataset.piece, Count: +e.dataset.count})),
    Movable: [...all('#board .piece.movable').map((e) => e.dataset.piece), ...all('.hand-piece:not(:disabled)').map((e) => e.dataset.piece)],
    Dests: all('#board .dest').map((e) => e.dataset.move),
    PassEnabled: !$('pass').disabled,
    LastGameString: last,
    Thinking: {Title: $('think-title').textContent, Depth: $('think-depth').textContent, Score: $('think-score').textContent, Move: $('think-move').textContent, PV: $('think-pv').textContent},
  };
})()`

func (p *page) view() view {
	p.t.Helper()
	var v view
	p.eval(viewJS, &v)
	return v
}

// checkShows compares what the page shows with the engine's GameString,
// the last one on the page's socket: the history, whose turn it is, the
// state, every stack on the board (read by hivebridge's own rules from the
// GameString) and both hands. It returns the game.
func checkShows(t *testing.T, v view, gameString string) *core.Game {
	t.Helper()
	gs, err := uhp.ParseGameString(gameString)
	if err != nil {
		t.Fatalf("the engine's GameString %q: %v", gameString, err)
	}
	g, err := gs.Load()
	if err != nil {
		t.Fatalf("the engine's GameString %q: %v", gameString, err)
	}
	if strings.Join(v.History, ";") != strings.Join(gs.Moves, ";") {
		t.Fatalf("history shown %q, the engine's %q", v.History, gs.Moves)
	}
	if v.State != gs.State.String() {
		t.Fatalf("state shown %q, the engine's %s", v.State, gs.State)
	}
	if want := strings.ToLower(g.ToMove().String()); v.ToMove != want {
		t.Fatalf("side to move shown %q, the engine's %s", v.ToMove, want)
	}
	checkPosition(t, v, g)
	return g
}

// checkPosition compares the board and the hands the page shows with g,
// read by hivebridge's own rules.
func checkPosition(t *testing.T, v view, g *core.Game) {
	t.Helper()
	// Every stack shown stands where the rules put it: the page's cell
	// (q, r), counted from the first piece placed, is core's cell at that
	// offset from the origin.
	onBoard := 0
	for p := core.Piece(0); p < core.NumPieces; p++ {
		if g.InPlay(p) && !g.InHand(p) && g.Top(g.Position(p)) == p {
			onBoard++
		}
	}
	if len(v.Pieces) != onBoard {
		t.Fatalf("%d stacks shown, %d on the board: %+v", len(v.Pieces), onBoard, v.Pieces)
	}
	for _, sp := range v.Pieces {
		p, err := uhp.ParsePiece(sp.Piece)
		if err != nil {
			t.Fatalf("piece shown %q: %v", sp.Piece, err)
		}
		cell := core.CellAt(sp.Q, sp.R)
		if g.Position(p) != cell || g.Top(cell) != p || g.Height(cell) != sp.Height {
			t.Fatalf("%s shown at (%d,%d) height %d; the game has it at the cell of (%d,%d)? %v, top %s, height %d",
				sp.Piece, sp.Q, sp.R, sp.Height, sp.Q, sp.R, g.Position(p) == cell, g.Top(cell), g.Height(cell))
		}
		var stack []string
		for q := p; q != core.NoPiece; q = g.Under(q) {
			stack = append([]string{q.String()}, stack...)
		}
		if strings.Join(stack, " ") != sp.Stack {
			t.Fatalf("stack at (%d,%d) shown %q, the game's %q", sp.Q, sp.R, sp.Stack, stack)
		}
	}
	inHand := map[string]int{}
	for p := core.Piece(0); p < core.NumPieces; p++ {
		if g.InPlay(p) && g.InHand(p) {
			inHand[p.Color().String()+" "+p.Bug().String()]++
		}
	}
	shown := map[string]int{}
	for _, h := range v.Hands {
		p, err := uhp.ParsePiece(h.Piece)
		if err != nil {
			t.Fatalf("hand piece shown %q: %v", h.Piece, err)
		}
		shown[p.Color().String()+" "+p.Bug().String()] = h.Count
	}
	if fmt.Sprint(shown) != fmt.Sprint(inHand) {
		t.Fatalf("hands shown %v, the game's %v", shown, inHand)
	}
}

// pageCell finds the page's coordinates of a core cell: next to, or under,
// a piece the page shows.
func pageCell(t *testing.T, v view, c core.Cell) (int, int) {
	t.Helper()
	if len(v.Pieces) == 0 {
		return 0, 0
	}
	for _, sp := range v.Pieces {
		for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}} {
			if core.CellAt(sp.Q+d[0], sp.R+d[1]) == c {
				return sp.Q + d[0], sp.R + d[1]
			}
		}
	}
	t.Fatalf("cell %v is next to no piece shown", c)
	return 0, 0
}

// scoreShown is how the page writes a score: an evaluation in pieces, or a
// forced result.
var scoreShown = regexp.MustCompile(`^([+-]?\d+\.\d\d|(win|loss)( in \d+)?) for (White|Black)$`)

// checkThinking checks the engine panel after the computer played move for
// color: its last report, at the depth given ("" for any), with a score and
// a principal variation that starts with the move.
func checkThinking(t *testing.T, v view, color, move, depth string) {
	t.Helper()
	th := v.Thinking
	ok := th.Title == color+"'s last search" && th.Move == move && scoreShown.MatchString(th.Score) &&
		(th.PV == move || strings.HasPrefix(th.PV, move+"  "))
	if depth != "" {
		ok = ok && th.Depth == depth
	} else {
		_, err := strconv.Atoi(th.Depth)
		ok = ok && err == nil
	}
	if !ok {
		t.Errorf("after %s's %s the engine panel shows %+v", color, move, th)
	}
}

// TestBrowser runs the browser tests in one headless Chromium, each in a
// browser context of its own (storage of its own, as a fresh profile has)
// and each within browserTestDeadline.
func TestBrowser(t *testing.T) {
	browser := newBrowser(t, chromium(t))
	for _, bt := range []struct {
		name string
		run  func(*testing.T, context.Context)
	}{
		{"WholeGame", testWholeGame},
		{"Screenshots", testScreenshots},
		{"PairedGame", testPairedGame},
		{"Token", testToken},
		{"Notation", testNotation},
		{"BareReports", testBareReports},
		{"GameTypesPassUndoCopy", testGameTypesPassUndoCopy},
		{"Archive", testArchive},
		{"ArchiveFilters", testArchiveFilters},
	} {
		t.Run(bt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(browser, browserTestDeadline)
			defer cancel()
			bt.run(t, ctx)
		})
	}
}

// screenshotDir is where the tests save their screenshots:
// $HIVEBRIDGE_SCREENSHOTS when set, else a directory the test removes.
func screenshotDir(t *testing.T) string {
	if dir := os.Getenv("HIVEBRIDGE_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// generousMove is the move of a player who wants a short game: it wins at
// once if it can, and otherwise crowds its own Queen Bee, so that the
// computer soon surrounds it.
func generousMove(g *core.Game) core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	me := g.ToMove()
	best, bestScore := core.NoMove, -1<<30
	for _, m := range l.Moves() {
		g.Play(m)
		score := 10*crowd(g, me) - crowd(g, me.Other())
		if g.Over() && g.Result() != core.Draw {
			score = 1000
		}
		g.Undo()
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// crowd counts the occupied cells around a colour's Queen Bee.
func crowd(g *core.Game, c core.Color) int {
	q := core.Piece(int(c) * core.PiecesPerColor) // the Queen Bee is each colour's first piece
	at := g.Position(q)
	if at == core.NoCell {
		return 0
	}
	n := 0
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if g.Height(at.Neighbor(d)) > 0 {
			n++
		}
	}
	return n
}

// settledJS holds once the page has shown at least n moves and waits for
// nobody but a person: the game is over, or the person's moves are shown.
func settledJS(n int) string {
	return fmt.Sprintf(`(() => {
  const $ = (id) => document.getElementById(id);
  const over = ['WhiteWins', 'BlackWins', 'Draw'].includes($('status').dataset.state);
  const ready = document.querySelectorAll('#board .piece.movable, .hand-piece:not(:disabled)').length > 0 || !$('pass').disabled;
  return document.querySelectorAll('#history .mv').length >= %d && $('waiting').textContent === '' && (over || ready);
})()`, n)
}

// checkDestinations compares the destinations the page shows for a piece
// with the legal moves of that piece by hivebridge's rules.
func checkDestinations(t *testing.T, v view, g *core.Game, piece core.Piece) {
	t.Helper()
	var l core.MoveList
	g.GenerateMoves(&l)
	want := map[core.Move]bool{}
	for _, m := range l.Moves() {
		if m.Piece() == piece {
			want[m] = true
		}
	}
	got := map[core.Move]bool{}
	for _, text := range v.Dests {
		m, err := uhp.ParseMove(text, g)
		if err != nil || m.Piece() != piece {
			t.Fatalf("destination %q shown for %s: %v", text, piece, err)
		}
		got[m] = true
	}
	if len(got) != len(want) || len(v.Dests) != len(want) {
		t.Fatalf("%d destinations shown for %s (%q), %d legal", len(v.Dests), piece, v.Dests, len(want))
	}
	for m := range want {
		if !got[m] {
			t.Fatalf("legal move %s of %s not shown among %q", uhp.FormatMove(m, g), piece, v.Dests)
		}
	}
}

// pieceSelector is the page's element for a piece: its hand button, or its
// stack on the board.
func pieceSelector(g *core.Game, p core.Piece) string {
	if g.InHand(p) {
		return fmt.Sprintf(`.hand-piece[data-piece=%q]`, p.String())
	}
	return fmt.Sprintf(`#board .piece[data-piece=%q]`, p.String())
}

// tabTo presses Tab until the element selector names has the focus, and
// checks that the focus shows.
func (p *page) tabTo(selector string) {
	p.t.Helper()
	match := fmt.Sprintf(`document.activeElement && document.activeElement.matches(%q)`, selector)
	for range 150 {
		var ok bool
		p.eval(match, &ok)
		if ok {
			var outline string
			p.eval(`(() => { const a = document.activeElement; const tile = a.querySelector(':scope > .piece-shape > .tile:not(.under), :scope > polygon');
  const s = getComputedStyle(tile || a); return tile ? s.stroke : s.outlineColor + ' ' + s.outlineStyle; })()`, &outline)
			if !strings.Contains(outline, "rgb(232, 93, 0)") {
				p.t.Fatalf("the focus on %s does not show: %s", selector, outline)
			}
			return
		}
		p.do(chromedp.KeyEvent(kb.Tab))
	}
	p.t.Fatalf("Tab never reached %s", selector)
}

// playOnPage plays m, a legal move of g, on the page as a person would:
// by mouse, or by keyboard alone. It checks the destinations shown first.
func playOnPage(t *testing.T, p *page, g *core.Game, m core.Move, keyboard bool) {
	t.Helper()
	if m == core.Pass {
		p.click("#pass")
		return
	}
	sel := pieceSelector(g, m.Piece())
	if keyboard {
		p.tabTo(sel)
		p.do(chromedp.KeyEvent(kb.Enter))
	} else {
		p.click(sel)
	}
	p.waitFor(`document.querySelectorAll('#board .dest').length > 0`)
	v := p.view()
	checkDestinations(t, v, g, m.Piece())
	q, r := pageCell(t, v, m.To())
	dest := fmt.Sprintf(`#board .dest[data-q="%d"][data-r="%d"]`, q, r)
	var label string
	p.eval(fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-label')`, dest), &label)
	if !regexp.MustCompile(`^destination (at the centre|(on top of|(right|left|(above|below) (left|right)) of) (white|black) .+): play \S`).MatchString(label) {
		t.Fatalf("destination %s reads %q", dest, label)
	}
	if keyboard {
		p.checkArrows()
		p.tabTo(dest)
		p.do(chromedp.KeyEvent(kb.Enter))
	} else {
		p.click(dest)
	}
}

// checkArrows presses each arrow key on the board, starting from its first
// destination, and checks that the focus stays on the board's pieces and
// destinations and moves only the way the arrow points; with more than one
// of them on the board, some arrow must move it.
func (p *page) checkArrows() {
	p.t.Helper()
	const focusedJS = `(() => { const a = document.activeElement; const b = a.getBoundingClientRect();
  return { onBoard: !!a.closest('#board') && a.matches('.piece, .dest'), x: b.left + b.width / 2, y: b.top + b.height / 2,
    many: document.querySelectorAll('#board .piece[tabindex], #board .dest[tabindex]').length > 1 }; })()`
	type focused struct {
		OnBoard bool    `json:"onBoard"`
		X       float64 `json:"x"`
		Y       float64 `json:"y"`
		Many    bool    `json:"many"`
	}
	p.do(chromedp.Focus(chromedp.CSS(`#board .dest`)))
	moves := 0
	for _, arrow := range []struct {
		key    string
		dx, dy float64
	}{{kb.ArrowRight, 1, 0}, {kb.ArrowDown, 0, 1}, {kb.ArrowLeft, -1, 0}, {kb.ArrowUp, 0, -1}} {
		var before, after focused
		p.eval(focusedJS, &before)
		p.do(chromedp.KeyEvent(arrow.key))
		p.eval(focusedJS, &after)
		if !after.OnBoard {
			p.t.Fatalf("an arrow key took the focus off the board's pieces and destinations")
		}
		along := (after.X-before.X)*arrow.dx + (after.Y-before.Y)*arrow.dy
		switch {
		case after.X == before.X && after.Y == before.Y:
		case along < 1:
			p.t.Fatalf("arrow (%g, %g) moved the focus from (%.0f, %.0f) to (%.0f, %.0f)", arrow.dx, arrow.dy, before.X, before.Y, after.X, after.Y)
		default:
			moves++
		}
		if after.Many && moves == 0 && arrow.key == kb.ArrowUp {
			p.t.Fatalf("no arrow key moved the focus on a board with several pieces")
		}
	}
}

// testWholeGame plays a whole game in the page against the native
// backend: a person (the test, by clicks and by keyboard) as White, the
// computer as Black at depth 1. After every move, what the page shows is
// checked against the engine's GameString from the page's own socket,
// read by hivebridge's rules, and that GameString against a second,
// independent UHP session. After the first exchange it takes both moves
// back with Undo. It saves screenshots of the opening and of the end.
func testWholeGame(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("type-select", "Base")
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "computer")
	p.setSelect("limit-kind", "depth")
	p.eval(`(() => { const i = document.getElementById('limit-value'); i.value = '1'; i.dispatchEvent(new Event('change')); return 1; })()`, nil)
	p.click("#new-game")
	p.waitFor(settledJS(0) + ` && document.getElementById('status').dataset.state === 'NotStarted'`)

	second := dialTCP(t, d.uhpAddr)
	second.answer(t) // info
	whiteMoves, undone := 0, false
	for {
		v := p.view()
		g := checkShows(t, v, v.LastGameString)
		if got := second.do(t, "newgame "+v.LastGameString); len(got) != 1 || got[0] != v.LastGameString {
			t.Fatalf("a second session loads the page's GameString %q as %q", v.LastGameString, got)
		}
		if len(v.History) >= 2 && len(v.History)%2 == 0 {
			// Black, the computer, moved last: the thinking shown is its
			// search's last report, at depth 1.
			checkThinking(t, v, "Black", v.History[len(v.History)-1], "1")
		}
		if len(v.History) == 4 {
			p.screenshot(shots, "viewer-opening.png")
		}
		if g.Over() {
			break
		}
		if g.ToMove() != core.White || len(v.History) > 60 {
			t.Fatalf("the page waits at ply %d with %s to move", len(v.History), g.ToMove())
		}
		if len(v.History) == 2 && !undone {
			// Undo against the computer takes back its reply and the
			// person's move.
			undone = true
			p.click("#undo")
			p.waitFor(`document.querySelectorAll('#history .mv').length === 0 && ` + settledJS(0))
			continue
		}
		m := generousMove(g)
		playOnPage(t, p, g, m, whiteMoves%2 == 0)
		whiteMoves++
		p.waitFor(settledJS(len(v.History) + 1))
	}
	v := p.view()
	if v.State != "BlackWins" || !strings.Contains(v.Turn, "Black wins") {
		t.Errorf("the end shows state %q, %q", v.State, v.Turn)
	}
	if v.PassEnabled || len(v.Movable) > 0 || len(v.Dests) > 0 {
		t.Errorf("moves offered after the end: %+v", v)
	}
	p.screenshot(shots, "viewer-end.png")
}

// midgameWithStacks is a game of the native searcher at depth 2 (after
// four random plies) in which both Queen Bees are under Beetles.
const midgameWithStacks = `Base+MLP;InProgress;White[19];wP;bB1 wP-;wG1 /wP;bM bB1-;wM -wG1;bQ bM\;wQ wG1\;bA1 bB1\;wA1 -wP;bA2 \bM;wA1 bA2/;bA1 /wM;wB1 wQ-;bA1 /wQ;wA2 -wP;bA1 wB1\;wA2 bQ-;bA1 /wQ;wM wP\;bA1 wB1\;wA2 bA1\;bA3 bQ/;wA2 bA3-;bA1 wA1\;wA3 -wP;bA1 -wA3;wB1 wQ;bA1 wA1\;wA3 bQ\;bA1 wA1-;wA3 bA1-;bQ bA3\;wA2 /bQ;bB2 bQ-;wB2 -wP;bB2 bQ`

// pieceWords names a piece as the page does: "white Queen Bee", "black
// Spider 2".
func pieceWords(p core.Piece) string {
	s := strings.ToLower(p.Color().String()) + " " + p.Bug().String()
	if name := p.String(); len(name) == 3 {
		s += " " + name[2:]
	}
	return s
}

// testScreenshots loads a midgame with a stack from a GameString
// typed into the page, lets the computer play a move, shows the pieces
// beneath the stack on hover and the destinations of a piece, saves
// screenshots at desktop and phone widths (the desktop one is the README's,
// docs/viewer.png, when HIVEBRIDGE_UPDATE_SCREENSHOT=1), and checks that a
// reload of the page's address shows the same game.
func testScreenshots(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	p.do(chromedp.SendKeys(chromedp.ID("load-input"), midgameWithStacks), chromedp.Click(chromedp.ID("load-button")))
	plies := strings.Count(midgameWithStacks, ";") - 2
	p.waitFor(settledJS(plies))
	v := p.view()
	if v.LastGameString != midgameWithStacks {
		t.Fatalf("the engine loaded %q", v.LastGameString)
	}
	g := checkShows(t, v, v.LastGameString)

	// The stacks: a Beetle on top of each Queen Bee, said so to a screen
	// reader.
	var label string
	p.eval(`(() => { const e = document.querySelector('#board .piece[data-piece="wB1"]'); return e.dataset.stack + ' | ' + e.getAttribute('aria-label'); })()`, &label)
	if !strings.HasPrefix(label, "wQ wB1 | white Beetle 1, on top of white Queen Bee, next to ") {
		t.Errorf("White's Beetle on its Queen reads %q", label)
	}
	// The computer plays White's move for a second, and shows its search
	// while it thinks: a depth before the search is over.
	p.setSelect("limit-kind", "time")
	p.eval(`(() => { const i = document.getElementById('limit-value'); i.value = '1'; i.dispatchEvent(new Event('change')); return 1; })()`, nil)
	p.setSelect("player-white", "computer")
	p.waitFor(`document.getElementById('thinking').dataset.active === 'true' && /^\d+$/.test(document.getElementById('think-depth').textContent) && document.querySelectorAll('#history .mv').length === ` + strconv.Itoa(plies))
	p.waitFor(settledJS(plies + 1))
	v = p.view()
	g = checkShows(t, v, v.LastGameString)
	checkThinking(t, v, "White", v.History[plies], "")
	if g.Over() {
		t.Fatalf("the game ended: %s", v.LastGameString)
	}
	// Show a piece's destinations, then hover the tallest stack.
	var l core.MoveList
	g.GenerateMoves(&l)
	mover := l.Moves()[len(l.Moves())-1].Piece()
	p.click(pieceSelector(g, mover))
	p.waitFor(`document.querySelectorAll('#board .dest').length > 0`)
	checkDestinations(t, p.view(), g, mover)
	tallest := v.Pieces[0]
	for _, sp := range v.Pieces {
		if sp.Height > tallest.Height {
			tallest = sp
		}
	}
	stack := fmt.Sprintf(`#board .piece[data-piece=%q]`, tallest.Piece)
	var box struct{ X, Y float64 }
	p.eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`, stack), &box)
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box.X, box.Y))
	p.waitFor(`!document.getElementById('stack-tip').hidden`)
	var tip string
	p.eval(`document.getElementById('stack-tip').textContent`, &tip)
	if !strings.Contains(tip, fmt.Sprintf("Stack of %d", tallest.Height)) || tallest.Height < 2 {
		t.Errorf("the tip of %+v reads %q", tallest, tip)
	}
	for _, name := range strings.Fields(tallest.Stack) {
		if p := mustPiece(t, name); !strings.Contains(tip, pieceWords(p)) {
			t.Errorf("the tip of %+v reads %q, without %s", tallest, tip, pieceWords(p))
		}
	}
	shot := p.screenshot(shots, "viewer-midgame.png")
	if os.Getenv("HIVEBRIDGE_UPDATE_SCREENSHOT") == "1" {
		buf, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(filepath.Join("..", "..", "docs", "viewer.png"), buf, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	// A phone: everything fits the width.
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	var width struct{ Scroll, Client int }
	p.eval(`({Scroll: document.documentElement.scrollWidth, Client: document.documentElement.clientWidth})`, &width)
	if width.Scroll > width.Client {
		t.Errorf("at phone width the page is %dpx wide in %dpx", width.Scroll, width.Client)
	}
	p.screenshot(shots, "viewer-phone.png")
	p.do(chromedp.EmulateViewport(1280, 800))

	// The address keeps the game: a reload shows it again.
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('connection').dataset.state === 'up' && ` + settledJS(plies))
	if again := p.view(); again.LastGameString != v.LastGameString || strings.Join(again.History, ";") != strings.Join(v.History, ";") {
		t.Errorf("after a reload the page shows %q", again.LastGameString)
	}
}

// remoteJS holds when the page shows a remote game's line matching re.
func remoteJS(re string) string {
	return fmt.Sprintf(`(() => { const r = document.getElementById('remote-info'); return !r.hidden && /%s/.test(r.textContent); })()`, re)
}

// testPairedGame: two browser tabs on a daemon that pairs viewers
// play each other, each with the colour it asked for. Each sees the other's moves; the mover's own move shows
// at once while it waits; a forfeit and, in a second game, a disconnect
// are shown to the other player as such.
func testPairedGame(t *testing.T, browser context.Context) {
	d := startDaemon(t, "--pair-viewers", "--pair-wait", "10s")
	viewer := "http://" + d.httpAddr + "/"
	white := openPage(t, browser, viewer)
	black := openPage(t, browser, viewer)
	// Each asks for its colour, so that the pairing does not depend on
	// which request reaches the daemon first.
	for color, p := range map[string]*page{"White": white, "Black": black} {
		p.setSelect("type-select", "Base")
		p.setSelect("remote-color", color)
	}
	pair := func() *core.Game {
		white.click("#play-person")
		white.waitFor(`document.getElementById('waiting').textContent.startsWith('Looking for a partner')`)
		black.click("#play-person")
		white.waitFor(settledJS(0) + ` && ` + remoteJS("you play White"))
		return core.NewGame(core.Base)
	}
	players := map[core.Color]*page{core.White: white, core.Black: black}
	// playPlies plays n moves, alternately in each tab.
	playPlies := func(g *core.Game, n int) {
		for range n {
			mover, other := players[g.ToMove()], players[g.ToMove().Other()]
			mover.waitFor(settledJS(g.Ply()))
			v := mover.view()
			if shown := checkShows(t, v, v.LastGameString); shown.Hash() != g.Hash() {
				t.Fatalf("the mover's page shows %q", v.LastGameString)
			}
			m := generousMove(g)
			playOnPage(t, mover, g, m, false)
			g.Play(m)
			// The mover's move shows at once, waiting for the reply.
			mover.waitFor(fmt.Sprintf(`document.querySelectorAll('#history .mv').length === %d && document.getElementById('waiting').textContent.startsWith('Waiting for your opponent')`, g.Ply()))
			other.waitFor(settledJS(g.Ply()))
			ov := other.view()
			if shown := checkShows(t, ov, ov.LastGameString); shown.Hash() != g.Hash() {
				t.Fatalf("the other page shows %q", ov.LastGameString)
			}
			if !strings.Contains(ov.Turn, "(you)") {
				t.Fatalf("the other page's turn reads %q", ov.Turn)
			}
		}
	}

	g := pair()
	black.waitFor(remoteJS("Remote game") + ` && document.getElementById('waiting').textContent !== ''`)
	playPlies(g, 6)
	// White forfeits on its turn; Black, waiting for White's move, learns it.
	white.click("#forfeit")
	white.waitFor(`document.getElementById('status').dataset.state === 'BlackWins' && ` + remoteJS("You forfeited"))
	black.waitFor(`document.getElementById('status').dataset.state === 'BlackWins' && ` + remoteJS("Your opponent forfeited"))
	if v := black.view(); len(v.History) != 6 || v.Message != "" {
		t.Errorf("after White's forfeit Black's page shows %+v", v)
	}

	// A second game; White's tab closes while Black waits for its move.
	g = pair()
	playPlies(g, 2)
	white.waitFor(settledJS(2))
	mover := white
	m := generousMove(g)
	playOnPage(t, mover, g, m, false)
	g.Play(m)
	black.waitFor(settledJS(3))
	m = generousMove(g)
	playOnPage(t, black, g, m, false)
	black.waitFor(`document.getElementById('waiting').textContent.startsWith('Waiting for your opponent')`)
	if err := chromedp.Cancel(white.ctx); err != nil {
		t.Fatal(err)
	}
	black.waitFor(`document.getElementById('status').dataset.state === 'BlackWins' && ` + remoteJS("Your opponent disconnected"))
}

// testToken: on a daemon with --token-file the page itself is
// public; the page asks for the token when the WebSocket is refused, says
// so when a token is wrong, and keeps the right one for the tab, so that a
// reload connects without asking, and the Games dialog's requests carry it.
func testToken(t *testing.T, browser context.Context) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, "--token-file", tokenFile)
	p := newTab(t, browser)
	p.do(chromedp.Navigate("http://" + d.httpAddr + "/"))
	dialogOpen := `document.getElementById('token-dialog').open`
	p.waitFor(dialogOpen)
	p.do(chromedp.SendKeys(chromedp.ID("token-input"), "wrong\r"))
	p.waitFor(dialogOpen + ` && document.getElementById('token-error').textContent.includes('refused')`)
	p.do(chromedp.SendKeys(chromedp.ID("token-input"), "s3cret\r"))
	connected := `document.getElementById('connection').dataset.state === 'up' && ` + settledJS(0)
	p.waitFor(connected + ` && !` + dialogOpen)
	p.do(chromedp.Reload())
	p.waitFor(connected)
	var asked bool
	p.eval(dialogOpen, &asked)
	if asked {
		t.Error("the page asked for the token again after a reload")
	}
	// The Games dialog reads the archive with the tab's token: the daemon
	// takes it, and says it keeps no archive (--db none).
	p.click("#games-open")
	p.waitFor(`document.getElementById('games-status').textContent.includes('keeps no archive')`)
	var rows int
	if p.eval(`document.querySelectorAll('#games-table tbody tr').length`, &rows); rows != 0 {
		t.Errorf("a daemon without an archive lists %d games", rows)
	}
}

// respell writes m, a move of g, as another engine might: any piece of any
// stack next to the destination (or under it) as the reference, names in
// either case, a 1 on a bug a player has one of. Each spelling is checked
// to read back as m by hivebridge's own parser.
func respell(t *testing.T, rng *rand.Rand, g *core.Game, m core.Move) string {
	t.Helper()
	if m == core.Pass || g.OnBoard() == 0 {
		return uhp.FormatMove(m, g)
	}
	name := func(p core.Piece) string {
		s := p.String()
		if len(s) == 2 && rng.Intn(3) == 0 {
			s += "1"
		}
		if rng.Intn(4) == 0 {
			s = strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
		}
		return s
	}
	var options []string
	stackAt := func(c core.Cell) []core.Piece {
		var ps []core.Piece
		for p := g.Top(c); p != core.NoPiece; p = g.Under(p) {
			ps = append(ps, p)
		}
		return ps
	}
	to := m.To()
	for _, ref := range stackAt(to) {
		if ref != m.Piece() {
			options = append(options, name(m.Piece())+" "+name(ref))
		}
	}
	marks := map[core.Direction][2]string{ // where the destination lies from the reference
		core.East: {"", "-"}, core.NorthEast: {"", "/"}, core.SouthEast: {"", `\`},
		core.West: {"-", ""}, core.SouthWest: {"/", ""}, core.NorthWest: {`\`, ""},
	}
	for d := core.Direction(0); d < core.NumDirections; d++ {
		n := to.Neighbor(d)
		mark := marks[d.Opposite()]
		for _, ref := range stackAt(n) {
			options = append(options, name(m.Piece())+" "+mark[0]+name(ref)+mark[1])
		}
	}
	if len(options) == 0 {
		t.Fatalf("no spelling for %s", uhp.FormatMove(m, g))
	}
	s := options[rng.Intn(len(options))]
	if back, err := uhp.ParseMove(s, g); err != nil || back != m {
		t.Fatalf("respelled %s as %q, which reads %v, %v", uhp.FormatMove(m, g), s, back, err)
	}
	return s
}

// testNotation checks the page's own reading of MoveStrings against
// hivebridge's rules: random games of every game type, their moves spelled
// in all the ways engines spell them, are drawn by the page's notation
// module, and every stack and hand it finds must be the game's.
func testNotation(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	rng := rand.New(rand.NewSource(14))
	type game struct {
		text string
		g    *core.Game
	}
	var games []game
	for _, typ := range []string{"Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"} {
		gt, err := uhp.ParseGameType(typ)
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			g := core.NewGame(gt)
			var moves []string
			for plies := 20 + rng.Intn(60); g.Ply() < plies && !g.Over(); {
				var l core.MoveList
				g.GenerateMoves(&l)
				m := l.Moves()[rng.Intn(len(l.Moves()))]
				moves = append(moves, respell(t, rng, g, m))
				g.Play(m)
			}
			gs := mustDescribe(t, g)
			gs.Moves = moves
			games = append(games, game{gs.String(), g})
		}
	}
	texts := make([]string, len(games))
	for i, gm := range games {
		texts[i] = gm.text
	}
	arg, _ := json.Marshal(texts)
	var drawn []struct {
		Error  string
		Stacks map[string][]string
		Hands  map[string]int
	}
	p.eval(fmt.Sprintf(`(async () => {
  const n = await import('./assets/notation.js');
  return %s.map((text) => {
    try {
      const board = n.boardOf(n.parseGameString(text));
      const hands = {};
      for (const c of ['w', 'b']) for (const {bug, names} of board.hand(c)) hands[c + bug] = names.length;
      return {Stacks: Object.fromEntries(board.stacks), Hands: hands};
    } catch (e) {
      return {Error: String(e)};
    }
  });
})()`, arg), &drawn)
	// Scores as the engine writes them, and reports in both forms.
	scores := map[string]string{
		uhp.FormatScore(engine.WinIn(3)):        "win in 3",
		uhp.FormatScore(engine.LossIn(4)):       "loss in 4",
		uhp.FormatScore(engine.WinIn(0)):        "win",
		uhp.FormatScore(engine.EvalScore(0)):    "0.00",
		uhp.FormatScore(engine.EvalScore(-150)): "-1.50",
		uhp.FormatScore(engine.EvalScore(201)):  "+2.01",
		"27856.04":                              "+27856.04",
	}
	for text, want := range scores {
		var got string
		p.eval(fmt.Sprintf(`import('./assets/notation.js').then((n) => n.formatScore(Number(%q)))`, text), &got)
		if got != want {
			t.Errorf("the page shows score %s as %q, want %q", text, got, want)
		}
	}
	for line, want := range map[string]string{
		`wA1 bA1-;3;0.94;wA1 bA1-;bA2 \bQ`: `{"move":"wA1 bA1-","depth":3,"score":0.94,"pv":["wA1 bA1-","bA2 \\bQ"]}`,
		`wA1 bA1-`:                         `{"move":"wA1 bA1-","pv":[]}`,
	} {
		var got string
		p.eval(fmt.Sprintf(`import('./assets/notation.js').then((n) => JSON.stringify(n.parseReport(%q)))`, line), &got)
		if got != want {
			t.Errorf("the page reads report %q as %s, want %s", line, got, want)
		}
	}

	for i, gm := range games {
		got, g := drawn[i], gm.g
		if got.Error != "" {
			t.Fatalf("the page cannot draw %s: %s", gm.text, got.Error)
		}
		stacks := 0
		for key, pieces := range got.Stacks {
			var q, r int
			fmt.Sscanf(key, "%d,%d", &q, &r)
			cell := core.CellAt(q, r)
			var want []string
			for p := g.Top(cell); p != core.NoPiece; p = g.Under(p) {
				want = append([]string{p.String()}, want...)
			}
			if strings.Join(pieces, " ") != strings.Join(want, " ") {
				t.Fatalf("%s: the page has %q at (%d,%d), the game %q", gm.text, pieces, q, r, want)
			}
			stacks++
		}
		for c := core.Cell(0); c < 1024; c++ {
			if g.Height(c) > 0 {
				stacks--
			}
		}
		if stacks != 0 {
			t.Fatalf("%s: the page draws %d stacks, the game has %d", gm.text, len(got.Stacks), len(got.Stacks)-stacks)
		}
		for key, n := range got.Hands {
			p, err := uhp.ParsePiece(key + map[bool]string{true: "1", false: ""}[strings.ContainsAny(key[1:], "SBGA")])
			if err != nil {
				t.Fatal(err)
			}
			inHand := 0
			for q := core.Piece(0); q < core.NumPieces; q++ {
				if g.InPlay(q) && g.InHand(q) && q.Color() == p.Color() && q.Bug() == p.Bug() {
					inHand++
				}
			}
			if n != inHand {
				t.Fatalf("%s: the page has %d %s in hand, the game %d", gm.text, n, key, inHand)
			}
		}
	}
}

// bareReportsVar makes this test binary, started again, a UHP engine whose
// search reports only its best move so far, as engines that print bare
// intermediate MoveStrings do: the native searcher with its reports
// stripped of depth, score and line.
const bareReportsVar = "HIVEBRIDGE_TEST_BARE_REPORTS"

type bareReporter struct{ engine.Searcher }

func (b bareReporter) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	var bare func(engine.Progress)
	if report != nil {
		bare = func(p engine.Progress) { report(engine.Progress{Move: p.Move}) }
	}
	return b.Searcher.BestMove(ctx, g, limit, bare)
}

func runBareReporter() int {
	native := translate.NewNative()
	e := uhp.NewEngine(uhp.Config{ID: "bare reporter", Expansions: core.AllExpansions, Searcher: bareReporter{translate.Searcher(native)}})
	if err := e.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}

// testBareReports: behind an engine that reports bare moves while it
// thinks, the computer still plays, and the page shows the move it reported
// with no depth or score.
func testBareReports(t *testing.T, browser context.Context) {
	t.Setenv(bareReportsVar, "1")
	d := startDaemon(t, "--backend", `uhp:"`+os.Args[0]+`"`)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("type-select", "Base+MLP")
	p.setSelect("limit-kind", "depth")
	p.eval(`(() => { const i = document.getElementById('limit-value'); i.value = '2'; i.dispatchEvent(new Event('change')); return 1; })()`, nil)
	p.setSelect("player-black", "human")
	p.setSelect("player-white", "computer")
	p.click("#new-game")
	p.waitFor(settledJS(1))
	v := p.view()
	checkShows(t, v, v.LastGameString)
	var log string
	p.eval(`[...document.querySelectorAll('#protocol-log li')].map((li) => li.textContent).join('\n')`, &log)
	if !strings.Contains(log, "ReportIntermediateBestMoves;bool;True") {
		t.Fatalf("the page did not turn on the engine's reports:\n%s", log)
	}
	if v.Thinking.Move != v.History[0] || v.Thinking.Depth != "–" || v.Thinking.Score != "–" || v.Thinking.PV != "–" {
		t.Errorf("after White's %s the engine panel shows %+v", v.History[0], v.Thinking)
	}
}

// passOnly is a game in which White has no move but to pass.
const passOnly = `Base;InProgress;White[18];wG1;bA1 wG1/;wQ -wG1;bA2 bA1/;wS1 wQ\;bA3 \bA2;wA1 wG1\;bQ /bA3;wQ /bQ;bA3 wA1\;wG2 -wQ;bA2 -wS1;wB1 \wG2;bA1 \wB1;wB2 wA1/;bG1 bQ-;wG3 wB2-;bB1 bG1-;wA2 wG3\;bA1 wA2-;wB1 -bQ;bG2 bA3\;wB1 \wG2;bS1 \bQ;wS2 \wB1;bS1 wS2/;wA3 /wS2;bA2 -wA3;wS1 wA3\;bA1 wA2\;wB1 wG2;bA2 wA2/;wB1 wG2\;bA2 /wB1`

// testGameTypesPassUndoCopy: a new game of each of the 8 game types
// shows that type's hands; a player with no move but to pass passes with
// the Pass button (offered then only); Undo takes the pass back; Copy puts
// the GameString on the clipboard.
func testGameTypesPassUndoCopy(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	for _, typ := range []string{"Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"} {
		p.setSelect("type-select", typ)
		p.click("#new-game")
		p.waitFor(fmt.Sprintf(`document.getElementById('game-type').textContent === %q && document.getElementById('status').dataset.state === 'NotStarted' && `, typ) + settledJS(0))
		v := p.view()
		if !strings.HasPrefix(v.LastGameString, typ+";NotStarted;White[1]") {
			t.Fatalf("new %s game: the engine answered %q", typ, v.LastGameString)
		}
		checkShows(t, v, v.LastGameString)
	}

	p.do(chromedp.SendKeys(chromedp.ID("load-input"), passOnly+"\r"))
	plies := strings.Count(passOnly, ";") - 2
	p.waitFor(settledJS(plies))
	v := p.view()
	checkShows(t, v, v.LastGameString)
	if !v.PassEnabled || len(v.Movable) != 0 {
		t.Fatalf("White can only pass, the page offers pass %v and %q", v.PassEnabled, v.Movable)
	}
	p.click("#pass")
	p.waitFor(settledJS(plies + 1))
	v = p.view()
	g := checkShows(t, v, v.LastGameString)
	if v.History[plies] != "pass" || g.ToMove() != core.Black || v.PassEnabled {
		t.Fatalf("after the pass the page shows %+v", v)
	}
	p.click("#undo")
	p.waitFor(`document.querySelectorAll('#history .mv').length === ` + strconv.Itoa(plies) + ` && ` + settledJS(plies))
	if v = p.view(); v.LastGameString != passOnly {
		t.Fatalf("after undo the engine's game is %q", v.LastGameString)
	}

	// A shared link shows its game in a new tab; one the engine refuses
	// says so and starts a new game.
	shared := openPage(t, browser, "http://"+d.httpAddr+"/#"+url.PathEscape(passOnly))
	shared.waitFor(settledJS(plies))
	if v := shared.view(); v.LastGameString != passOnly || len(v.History) != plies {
		t.Errorf("the shared link shows %q", v.LastGameString)
	}
	bad := openPage(t, browser, "http://"+d.httpAddr+"/#Base;InProgress;White[2];wS1;bQ%20wS1-")
	bad.waitFor(`document.getElementById('message').textContent.includes('refused')`)
	if v := bad.view(); v.State != "NotStarted" || !strings.Contains(v.Message, "bQ") {
		t.Errorf("a link the engine refuses shows %+v", v)
	}

	p.click("#copy")
	p.waitFor(`document.getElementById('copy-status').textContent === 'Copied.'`)
	p.do(chromedp.Focus(chromedp.ID("load-input")), chromedp.KeyEvent("v", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	var pasted string
	p.eval(`document.getElementById('load-input').value`, &pasted)
	if pasted != passOnly {
		t.Errorf("pasting what Copy copied gives %q", pasted)
	}
}

// archivedGame polls the daemon's archive until it lists a game of the
// given number of plies, and returns it; the keeper writes moves as they
// are played, a moment after the session answers them.
func archivedGame(t *testing.T, d *daemon, plies int) archive.Game {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := client.Get("http://" + d.httpAddr + "/games")
		if err != nil {
			t.Fatal(err)
		}
		var page struct{ Games []archive.Game }
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("GET /games: %v", err)
		}
		for _, g := range page.Games {
			if g.Plies == plies {
				return g
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the archive lists no game of %d plies: %+v", plies, page.Games)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// replayShown reads the replay's part of the page.
type replayShown struct {
	Hidden            bool
	Title, Position   string
	GameString        string // the Position field, which Copy copies
	Current           string // the ply of the move marked current, "" at the start
	Jumps             []string
	BackOff, ForthOff bool
	PlayOn            bool
}

const replayJS = `(() => {
  const $ = (id) => document.getElementById(id);
  const cur = document.querySelector('#history button.jump[aria-current="step"]');
  return { Hidden: $('replay').hidden, Title: $('replay-title').textContent, Position: $('replay-position').textContent,
    GameString: $('current-gamestring').value, Current: cur ? cur.dataset.ply : '', Jumps: [...document.querySelectorAll('#history button.jump .mv')].map((e) => e.textContent),
    BackOff: $('replay-back').disabled, ForthOff: $('replay-forward').disabled, PlayOn: !$('replay-play-on').hidden };
})()`

// checkReplayAt checks that the page replays moves at ply: the board and
// hands of the position after the first ply moves, by hivebridge's rules;
// the side to move; every move listed with the one shown marked; the step
// buttons offered where there is a step to take; the Position field holds
// the GameString of that position (the game's type and first ply moves,
// the state and turn the rules give).
func checkReplayAt(t *testing.T, p *page, gs uhp.GameString, ply int) {
	t.Helper()
	p.waitFor(fmt.Sprintf(`document.getElementById('replay-ply').value === '%d'`, ply))
	var r replayShown
	p.eval(replayJS, &r)
	if r.Hidden || strings.Join(r.Jumps, ";") != strings.Join(gs.Moves, ";") {
		t.Fatalf("at ply %d the replay shows %+v, the game's moves %q", ply, r, gs.Moves)
	}
	want := ""
	if ply > 0 {
		want = strconv.Itoa(ply)
	}
	if r.Current != want || r.BackOff != (ply == 0) || r.ForthOff != (ply == len(gs.Moves)) ||
		!strings.HasPrefix(r.Position, fmt.Sprintf("Move %d of %d", ply, len(gs.Moves))) {
		t.Fatalf("at ply %d the replay shows %+v", ply, r)
	}
	g := core.NewGame(gs.Type)
	for _, text := range gs.Moves[:ply] {
		m, err := uhp.ParseMove(text, g)
		if err == nil {
			err = g.PlayChecked(m)
		}
		if err != nil {
			t.Fatalf("the archived move %q: %v", text, err)
		}
	}
	described, err := uhp.Describe(g)
	if err != nil {
		t.Fatal(err)
	}
	wantGS := uhp.GameString{Type: gs.Type, State: described.State, Turn: described.Turn, Moves: gs.Moves[:ply]}
	if r.GameString != wantGS.String() {
		t.Fatalf("at ply %d the Position field holds %q, want %q", ply, r.GameString, wantGS.String())
	}
	v := p.view()
	if wantMove := strings.ToLower(g.ToMove().String()); v.ToMove != wantMove {
		t.Fatalf("at ply %d the replay shows %s to move, the rules %s", ply, v.ToMove, wantMove)
	}
	if len(v.Movable) > 0 || len(v.Dests) > 0 || v.PassEnabled {
		t.Fatalf("a replay offers moves: %+v", v)
	}
	checkPosition(t, v, g)
}

// gamesLoadedJS is true once the Games dialog shows the rows of its last
// load: a reopened dialog shows the old rows, busy, until the new ones come,
// and a click on an old row would find it gone.
const gamesLoadedJS = `document.getElementById('games-table').getAttribute('aria-busy') === 'false'`

// testArchive: a daemon that archives to SQLite. The page plays four
// plies, starts a new game, and lists the archive in its Games dialog; it
// replays the first game, stepping back to the start by button, forward by
// the arrow keys, jumping by the moves list and the End key, each position
// checked against the archived GameString's moves played by hivebridge's
// rules; leaving the replay shows the live game again; Play on loads the
// unfinished game into the live session, where it goes on.
func testArchive(t *testing.T, browser context.Context) {
	d := startDaemon(t, "--db", filepath.Join(t.TempDir(), "games.db"))
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("type-select", "Base")
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	p.click("#new-game")
	p.waitFor(settledJS(0) + ` && document.getElementById('status').dataset.state === 'NotStarted'`)
	g := core.NewGame(core.Base)
	for range 4 {
		m := generousMove(g)
		playOnPage(t, p, g, m, false)
		g.Play(m)
		p.waitFor(settledJS(g.Ply()))
	}
	played := p.view().LastGameString
	kept := archivedGame(t, d, 4)
	if kept.GameString != played {
		t.Fatalf("the archive keeps %q, the page played %q", kept.GameString, played)
	}
	gs, err := uhp.ParseGameString(kept.GameString)
	if err != nil {
		t.Fatal(err)
	}
	p.click("#new-game")
	p.waitFor(settledJS(0) + ` && document.getElementById('status').dataset.state === 'NotStarted'`)

	// The Games dialog lists it, with its players, type and length.
	p.click("#games-open")
	row := fmt.Sprintf(`#games-table tr[data-id="%d"]`, kept.ID)
	p.waitFor(fmt.Sprintf(`document.getElementById('games-dialog').open && %s && !!document.querySelector(%q)`, gamesLoadedJS, row))
	var listed map[string]string
	p.eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q); const c = (k) => r.querySelector('.' + k).textContent;
  return { white: c('white'), black: c('black'), type: c('type'), plies: c('plies'), result: c('result'), playOn: String(!!r.querySelector('.play-on')),
    page: document.getElementById('games-page').textContent }; })()`, row), &listed)
	if listed["white"] != archive.Viewer || listed["black"] != archive.Viewer || listed["type"] != "Base" || listed["plies"] != "4" ||
		listed["playOn"] != "true" || listed["result"] == "" || listed["page"] != "Page 1 of 1" {
		t.Fatalf("the Games dialog lists game %d as %v", kept.ID, listed)
	}
	p.screenshot(screenshotDir(t), "viewer-games.png")

	// Its replay opens at the end, and steps back to the start.
	p.click(row + ` .replay-game`)
	p.waitFor(`!document.getElementById('games-dialog').open && !document.getElementById('replay').hidden`)
	for ply := 4; ply > 0; ply-- {
		checkReplayAt(t, p, gs, ply)
		p.click("#replay-back")
	}
	checkReplayAt(t, p, gs, 0)
	// Forward by the arrow key, from wherever the focus is.
	p.do(chromedp.Focus(chromedp.ID("replay-forward")))
	for ply := 1; ply <= 2; ply++ {
		p.do(chromedp.KeyEvent(kb.ArrowRight))
		checkReplayAt(t, p, gs, ply)
	}
	// A jump from the moves list, then End and Home.
	p.click(`#history button.jump[data-ply="3"]`)
	checkReplayAt(t, p, gs, 3)
	p.do(chromedp.KeyEvent(kb.Home))
	checkReplayAt(t, p, gs, 0)
	p.do(chromedp.KeyEvent(kb.End))
	checkReplayAt(t, p, gs, 4)
	p.screenshot(screenshotDir(t), "viewer-replay.png")
	var r replayShown
	if p.eval(replayJS, &r); !r.PlayOn || !strings.Contains(r.Title, fmt.Sprintf("game %d", kept.ID)) {
		t.Fatalf("the replay of an unfinished game shows %+v", r)
	}

	// Leaving the replay shows the live game, which did not change.
	p.click("#replay-leave")
	p.waitFor(`document.getElementById('replay').hidden && ` + settledJS(0))
	v := p.view()
	if checkShows(t, v, v.LastGameString); v.State != "NotStarted" {
		t.Fatalf("back from the replay the page shows %+v", v)
	}

	// Play on: the live session takes the archived game and goes on.
	p.click("#games-open")
	p.waitFor(fmt.Sprintf(`%s && !!document.querySelector(%q)`, gamesLoadedJS, row+` .play-on`))
	p.click(row + ` .play-on`)
	p.waitFor(settledJS(4) + ` && !document.getElementById('games-dialog').open`)
	v = p.view()
	if v.LastGameString != kept.GameString {
		t.Fatalf("Play on loaded %q, the archive's %q", v.LastGameString, kept.GameString)
	}
	g = checkShows(t, v, v.LastGameString)
	m := generousMove(g)
	playOnPage(t, p, g, m, false)
	p.waitFor(settledJS(5))
	v = p.view()
	g.Play(m)
	if shown := checkShows(t, v, v.LastGameString); shown.Hash() != g.Hash() {
		t.Fatalf("after playing on the page shows %q", v.LastGameString)
	}
}

// seededGame is a game written to the archive before the daemon starts.
type seededGame struct {
	id           int64
	white, black string
	gameType     string
	result       string // "" for an interrupted game
	status       archive.Status
	started      time.Time
}

// seedArchive writes 25 games to a new SQLite archive and returns its path
// and the games: a day apart from 1 January 2025 at 12:00 UTC, alpha or
// beta against gamma, Base or Base+M, won by White or by Black, and every
// seventh game from the fourth interrupted.
func seedArchive(t *testing.T) (string, []seededGame) {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "games.db")
	store, err := archive.Open(ctx, db, "match")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var seeded []seededGame
	day0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range 25 {
		g := seededGame{white: "beta", black: "gamma", gameType: "Base", result: "BlackWins", status: archive.Finished, started: day0.AddDate(0, 0, i)}
		if i%5 == 0 {
			g.white = "alpha"
		}
		if i%3 == 0 {
			g.gameType = "Base+M"
		}
		if i%2 == 0 {
			g.result = "WhiteWins"
		}
		end := archive.End{Result: g.result, How: "state", At: g.started.Add(time.Hour)}
		gameString := g.gameType + ";" + g.result + ";White[1]"
		if i%7 == 3 {
			g.result, g.status = "", archive.Interrupted
			end = archive.End{How: "interrupted", Reason: "the daemon stopped", At: g.started.Add(time.Hour)}
			gameString = g.gameType + ";NotStarted;White[1]"
		}
		g.id, err = store.Start(ctx, archive.Start{Source: "match", GameType: g.gameType, White: g.white, Black: g.black,
			Started: g.started, GameString: gameString})
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Update(ctx, g.id, archive.Change{White: g.white, Black: g.black, GameString: gameString, End: &end}); err != nil {
			t.Fatal(err)
		}
		seeded = append(seeded, g)
	}
	return db, seeded
}

// testArchiveFilters: the Games dialog on an archive of 25 games written
// before the daemon starts, in a browser whose time zone is Auckland's
// (13 hours ahead of UTC in January, so every game starts on the next day
// there). The dialog pages the games 20 at a time (Older, Newer); its
// filters (player, typed and sent with Enter; type; result; status; a span
// of local dates; several at once) list exactly the games that pass,
// newest first, as worked out here from the games written; paging keeps
// the filter applied, not what the fields say since; a filter nothing
// passes, and an empty span of dates, say so; Clear lists them all again.
// Every filter field is named, for a screen reader, by its label.
func testArchiveFilters(t *testing.T, browser context.Context) {
	db, seeded := seedArchive(t)
	d := startDaemon(t, "--db", db)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Pacific/Auckland"}); err != nil {
		t.Fatal(err)
	}
	auckland := time.FixedZone("NZDT", 13*3600) // New Zealand's summer time, in force all January

	// want lists the ids of the games that pass, newest first.
	want := func(pass func(seededGame) bool) []int64 {
		ids := []int64{}
		for i := len(seeded) - 1; i >= 0; i-- {
			if pass(seeded[i]) {
				ids = append(ids, seeded[i].id)
			}
		}
		return ids
	}
	all := want(func(seededGame) bool { return true })
	type listing struct {
		IDs          []int64
		Status, Page string
		Newer, Older bool // enabled
	}
	const shownJS = `(() => ({ IDs: [...document.querySelectorAll('#games-table tbody tr')].map((r) => Number(r.dataset.id)),
  Status: document.getElementById('games-status').textContent, Page: document.getElementById('games-page').textContent,
  Newer: !document.getElementById('games-prev').disabled, Older: !document.getElementById('games-next').disabled }))()`
	const loadJS = `Number(document.getElementById('games-table').dataset.load || 0)`
	// expect does what act does and waits for the load it starts to be
	// shown (not the one before, which may list the same games), then
	// checks what the dialog lists.
	expect := func(what string, act func(), wantShown listing) {
		t.Helper()
		var before int
		p.eval(loadJS, &before)
		act()
		p.waitFor(fmt.Sprintf(`%s > %d && %s`, loadJS, before, gamesLoadedJS))
		var l listing
		p.eval(shownJS, &l)
		if !slices.Equal(l.IDs, wantShown.IDs) || l.Status != wantShown.Status || l.Page != wantShown.Page || l.Newer != wantShown.Newer || l.Older != wantShown.Older {
			t.Errorf("%s: the dialog shows %+v; want %+v", what, l, wantShown)
		}
	}
	setField := func(id, value string) {
		t.Helper()
		p.eval(fmt.Sprintf(`(() => { const f = document.getElementById(%q); f.value = %q; return f.value; })()`, id, value), nil)
	}
	click := func(selector string) func() { return func() { p.click(selector) } }
	apply := click("#games-apply")
	allFirst := listing{all[:20], "25 games in the archive.", "Page 1 of 2", false, true}

	expect("the first page", click("#games-open"), allFirst)
	for selector, label := range map[string]string{"#games-player": "Player", "#games-type": "Type", "#games-result": "Result",
		"#games-state": "Status", "#games-since": "Started from", "#games-until": "Started before"} {
		if name := p.accessibleName(selector); name != label {
			t.Errorf("a screen reader names %s %q, want %q", selector, name, label)
		}
	}
	expect("the second page", click("#games-next"), listing{all[20:], "25 games in the archive.", "Page 2 of 2", true, false})
	expect("back to the first page", click("#games-prev"), allFirst)

	// The player by keyboard: typed into the field, sent with Enter.
	alpha := func(g seededGame) bool { return g.white == "alpha" || g.black == "alpha" }
	expect("player alpha", func() {
		p.do(chromedp.Focus(chromedp.ID("games-player")), chromedp.KeyEvent("alpha"), chromedp.KeyEvent(kb.Enter))
	}, listing{want(alpha), "5 games pass the filter.", "Page 1 of 1", false, false})
	expect("alpha's Base+M games", func() { p.setSelect("games-type", "Base+M"); apply() },
		listing{want(func(g seededGame) bool { return alpha(g) && g.gameType == "Base+M" }), "2 games pass the filter.", "Page 1 of 1", false, false})
	p.screenshot(screenshotDir(t), "viewer-games-filtered.png")
	expect("cleared", click("#games-clear"), allFirst)

	// A span of dates in Auckland: from the 5th to the 10th there, which
	// is from 11:00 UTC on the 4th to 11:00 UTC on the 10th.
	from, before := time.Date(2025, 1, 5, 0, 0, 0, 0, auckland), time.Date(2025, 1, 11, 0, 0, 0, 0, auckland)
	inSpan := func(g seededGame) bool { return !g.started.Before(from) && g.started.Before(before) }
	expect("started from the 5th to the 10th", func() { setField("games-since", "2025-01-05"); setField("games-until", "2025-01-11"); apply() },
		listing{want(inSpan), "6 games pass the filter.", "Page 1 of 1", false, false})
	expect("Black's wins from the 5th to the 10th", func() { p.setSelect("games-result", "BlackWins"); apply() },
		listing{want(func(g seededGame) bool { return inSpan(g) && g.result == "BlackWins" }), "2 games pass the filter.", "Page 1 of 1", false, false})
	expect("none of them interrupted", func() { p.setSelect("games-state", "interrupted"); apply() },
		listing{[]int64{}, "No game passes the filter.", "Page 1 of 1", false, false})
	expect("cleared again", click("#games-clear"), allFirst)

	// A filter of two pages: Older and Newer keep it, and not the player
	// typed but not applied.
	finished := listing{want(func(g seededGame) bool { return g.status == archive.Finished })[:20], "21 games pass the filter.", "Page 1 of 2", false, true}
	expect("the finished games", func() { p.setSelect("games-state", "finished"); apply() }, finished)
	setField("games-player", "alpha")
	expect("the finished games' second page", click("#games-next"),
		listing{want(func(g seededGame) bool { return g.status == archive.Finished })[20:], "21 games pass the filter.", "Page 2 of 2", true, false})
	expect("and their first again", click("#games-prev"), finished)
	expect("the interrupted games", func() { p.setSelect("games-state", "interrupted"); setField("games-player", ""); apply() },
		listing{want(func(g seededGame) bool { return g.status == archive.Interrupted }), "4 games pass the filter.", "Page 1 of 1", false, false})

	// An empty span is refused in words, and lists nothing new.
	setField("games-since", "2025-01-11")
	setField("games-until", "2025-01-05")
	apply()
	p.waitFor(`document.getElementById('games-status').textContent.includes('must be a later date')`)
	expect("cleared at last", click("#games-clear"), allFirst)
}

// accessibleName is the name Chromium's accessibility tree gives the
// element selector finds: what a screen reader says for it.
func (p *page) accessibleName(selector string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(selector), chromedp.NodeReady))
	if err != nil || len(nodes) == 0 {
		p.t.Fatalf("finding %s: %v", selector, err)
	}
	fetchRelatives := false
	tree, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: nodes[0].BackendNodeID, FetchRelatives: &fetchRelatives})
	if err != nil || len(tree.Nodes) == 0 || tree.Nodes[0].Name == nil {
		p.t.Fatalf("the accessibility tree of %s: %v", selector, err)
	}
	var name string
	if err := json.Unmarshal(tree.Nodes[0].Name.Value, &name); err != nil {
		p.t.Fatalf("the accessible name of %s: %v", selector, err)
	}
	return name
}

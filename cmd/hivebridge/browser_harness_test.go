package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The browser tests drive the viewer page in headless Chromium, served by a
// daemon in the test process. Without Chromium they skip, unless
// HIVEBRIDGE_BROWSER_TESTS=1 (as .ci/run sets) makes them required.
//
// This file is their harness: the browser, its tabs, and reading what the
// page shows; the scenarios are in browser_test.go and browser_*_test.go.

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
	p.open(address)
	return p
}

// open loads the viewer in the tab and waits until it is connected and
// shows a game.
func (p *page) open(address string) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(address))
	p.waitFor(`document.getElementById('connection').dataset.state === 'up' && document.getElementById('status').dataset.state !== '' && document.getElementById('waiting').textContent === ''`)
}

// netLog is what a tab sent over the network, from the moment
// recordNetwork starts it: the address and headers of every request
// (documents, scripts, fetches), and every WebSocket's address and the text
// messages sent on it, in order.
type netLog struct {
	mu       sync.Mutex
	requests []netRequest
	sockets  []*netSocket
	byID     map[network.RequestID]*netSocket
}

type netRequest struct {
	URL     string
	Headers network.Headers
}

type netSocket struct {
	URL  string
	Sent []string
}

// recordNetwork starts recording the tab's traffic: call it before the
// action that causes it.
func (p *page) recordNetwork() *netLog {
	p.t.Helper()
	l := &netLog{byID: map[network.RequestID]*netSocket{}}
	err := chromedp.Listen(p.ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			if ev.Request != nil {
				l.requests = append(l.requests, netRequest{URL: ev.Request.URL + ev.Request.URLFragment, Headers: ev.Request.Headers})
			}
		case *network.EventWebSocketCreated:
			s := &netSocket{URL: ev.URL}
			l.sockets = append(l.sockets, s)
			l.byID[ev.RequestID] = s
		case *network.EventWebSocketFrameSent:
			if s := l.byID[ev.RequestID]; s != nil && ev.Response != nil && ev.Response.Opcode == 1 {
				s.Sent = append(s.Sent, string(ev.Response.PayloadData))
			}
		}
	})
	if err != nil {
		p.t.Fatalf("listening to the tab's network: %v", err)
	}
	return l
}

// snapshot copies what the log holds so far.
func (l *netLog) snapshot() ([]netRequest, []netSocket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	requests := slices.Clone(l.requests)
	sockets := make([]netSocket, len(l.sockets))
	for i, s := range l.sockets {
		sockets[i] = netSocket{URL: s.URL, Sent: slices.Clone(s.Sent)}
	}
	return requests, sockets
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

// screenshot saves the page as a PNG under dir and checks it is one: the
// top of the page, and the side panel from the engine's report on.
func (p *page) screenshot(dir, name string) string {
	p.t.Helper()
	return p.screenshotFrom(dir, name, "thinking")
}

// screenshotFrom is screenshot with the side panel scrolled to the card
// whose id is card.
func (p *page) screenshotFrom(dir, name, card string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	p.eval(fmt.Sprintf(`(() => { window.scrollTo(0, 0); const side = document.querySelector('.side'), card = document.getElementById(%q);
  side.scrollTop = card.getBoundingClientRect().top - side.getBoundingClientRect().top + side.scrollTop - 4; return 1; })()`, card), nil)
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

// pieceWords names a piece as the page does: "white Queen Bee", "black
// Spider 2".
func pieceWords(p core.Piece) string {
	s := strings.ToLower(p.Color().String()) + " " + p.Bug().String()
	if name := p.String(); len(name) == 3 {
		s += " " + name[2:]
	}
	return s
}

// accessibleName is the name Chromium's accessibility tree gives the
// element selector finds: what a screen reader says for it.
func (p *page) accessibleName(selector string) string {
	p.t.Helper()
	return p.accessible(selector).Name
}

// axNode is what Chromium's accessibility tree holds of an element: its
// role, its name, and a slider's value. (Its valuetext, aria-valuetext's
// words, the tree over CDP leaves empty: read the attribute.)
type axNode struct{ Role, Name, Value string }

// accessible reads the accessibility tree's node of the element selector
// finds.
func (p *page) accessible(selector string) axNode {
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
	node := tree.Nodes[0]
	// text is a value's words: a string's own, a number's digits.
	text := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s string
		if json.Unmarshal(v.Value, &s) == nil {
			return s
		}
		return string(v.Value)
	}
	return axNode{Role: text(node.Role), Name: text(node.Name), Value: text(node.Value)}
}

// playBetweenPeople starts a new game of type gt on the page with a person
// on each side, plays plies generous moves by clicks, each once settled,
// and returns the game as played.
func playBetweenPeople(t *testing.T, p *page, gt core.GameType, plies int) *core.Game {
	t.Helper()
	p.setSelect("type-select", uhp.FormatGameType(gt))
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	p.click("#new-game")
	p.waitFor(settledJS(0) + ` && document.getElementById('status').dataset.state === 'NotStarted'`)
	g := core.NewGame(gt)
	for range plies {
		m := generousMove(g)
		playOnPage(t, p, g, m, false)
		g.Play(m)
		p.waitFor(settledJS(g.Ply()))
	}
	return g
}

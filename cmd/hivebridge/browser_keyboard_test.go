package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The browser tests of what a keyboard or phone player meets on the board:
// the arrow keys reach every destination, the focus survives the replies,
// stacks leave their neighbours readable, the focus and the last move look
// different, the page fits a desktop window and the hive fits a phone's
// board.

// TestBrowserKeyboard runs them in one headless Chromium, each in a browser
// context of its own.
func TestBrowserKeyboard(t *testing.T) {
	browser := newBrowser(t, chromium(t))
	for _, bt := range []struct {
		name string
		run  func(*testing.T, context.Context)
	}{
		{"ArrowsReachEveryDestination", testArrowsReachEveryDestination},
		{"FocusAfterCoveringReply", testFocusAfterCoveringReply},
		{"StackLabels", testStackLabels},
		{"FocusAndLastMoveDiffer", testFocusAndLastMoveDiffer},
		{"DesktopFits", testDesktopFits},
		{"PhoneFitsHive", testPhoneFitsHive},
		{"PhoneHeaderFits", testPhoneHeaderFits},
	} {
		t.Run(bt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(browser, browserTestDeadline)
			defer cancel()
			bt.run(t, ctx)
		})
	}
}

// everyKind is a position of random play (found by a search over random
// Base+MLP games) in which White has a move of every kind destKind names:
// kindsOf checks that it still has.
const everyKind = `Base+MLP;InProgress;White[12];wP;bG1 wP-;wM -wP;bL bG1-;wS1 -wM;bQ bL\;wQ \wM;bG2 bQ\;wB1 wM\;bA1 /bQ;wL /wS1;bS1 /bA1;wB1 wP\;bA2 -bS1;wS2 \wP;bM \bL;wB2 -wQ;bA3 /bA2;wB2 wS1;bB1 bA3\;wG1 wB2\;bG3 -bA2`

// tallStacks is a position of random play, climbs favoured, with a stack
// of four and stacks of three among neighbours.
const tallStacks = `Base+MLP;InProgress;White[21];wG1;bB1 wG1-;wQ /wG1;bA1 bB1-;wP \wG1;bQ \bA1;wB1 wP/;bL bA1-;wB1 wP;bS1 bL/;wB1 wG1;bG1 \bQ;wQ /wP;bB2 bB1\;wB1 wP;bB2 bB1;wL -wQ;bB2 wG1;wB1 wQ;bB2 wB1;wL -bG1;bB1 wG1;wG2 \wL;bA2 bG1/;wM /wG2;bB1 bB2;wB2 -wM;bB1 wG1;wB2 wM;bM -bB2;wB2 wP;bB2 bB1;wG3 -wM;bB2 wB2;wG2 wG3\;bB2 wB1;wM wL;bB1 wB2;wM -wL;bM bB2`

// The kinds of destination a piece can have, each its own way of being
// drawn or reached: a placement from the hand, a slide on the ground, a
// Grasshopper's jump, a climb onto a piece by a Beetle and by a Mosquito
// (the destination drawn over the piece), a climb down from a stack, a
// throw by the Pillbug and by a Mosquito touching it, and a Ladybug's move.
const (
	kindPlace         = "placement"
	kindSlide         = "slide"
	kindJump          = "Grasshopper jump"
	kindBeetleClimb   = "Beetle climbing onto a piece"
	kindMosquitoClimb = "Mosquito climbing onto a piece"
	kindDown          = "climb down"
	kindPillbugThrow  = "Pillbug throw"
	kindMosquitoThrow = "Mosquito throw"
	kindLadybug       = "Ladybug move"
)

var allKinds = []string{kindPlace, kindSlide, kindJump, kindBeetleClimb, kindMosquitoClimb, kindDown, kindPillbugThrow, kindMosquitoThrow, kindLadybug}

// kindsOf sorts the side to move's legal moves by kind, read by
// hivebridge's rules: each kind's moves, in the order core lists them.
func kindsOf(g *core.Game) map[string][]core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	kinds := map[string][]core.Move{}
	for _, m := range l.Moves() {
		if m == core.Pass {
			continue
		}
		p := m.Piece()
		var k string
		switch {
		case g.InHand(p):
			k = kindPlace
		case p.Bug() == core.Grasshopper:
			k = kindJump
		case p.Bug() == core.Ladybug:
			k = kindLadybug
		case g.Level(p) > 0 && g.Height(m.To()) == 0:
			k = kindDown
		case g.Height(m.To()) > 0 && p.Bug() == core.Beetle:
			k = kindBeetleClimb
		case g.Height(m.To()) > 0 && p.Bug() == core.Mosquito:
			k = kindMosquitoClimb
		case p.Bug() == core.Queen || p.Bug() == core.Spider || p.Bug() == core.Ant:
			k = kindSlide
		}
		if k != "" {
			kinds[k] = append(kinds[k], m)
		}
	}
	for _, th := range g.Throws(nil) {
		m := moveOf(g, th.Piece, th.To)
		if th.User.Bug() == core.Pillbug {
			kinds[kindPillbugThrow] = append(kinds[kindPillbugThrow], m)
		} else {
			kinds[kindMosquitoThrow] = append(kinds[kindMosquitoThrow], m)
		}
	}
	return kinds
}

// moveOf finds the legal move of piece p to cell to.
func moveOf(g *core.Game, p core.Piece, to core.Cell) core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	for _, m := range l.Moves() {
		if m != core.Pass && m.Piece() == p && m.To() == to {
			return m
		}
	}
	return core.NoMove
}

// loadGame loads a GameString into the page, as the Load form does, with
// a person on each side, and returns the game by hivebridge's rules.
func (p *page) loadGame(gameString string) *core.Game {
	p.t.Helper()
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	p.eval(fmt.Sprintf(`(() => { document.getElementById('load-input').value = %q; document.getElementById('load-form').requestSubmit(); return 1; })()`, gameString), nil)
	gs, err := uhp.ParseGameString(gameString)
	if err != nil {
		p.t.Fatal(err)
	}
	p.waitFor(fmt.Sprintf(`document.getElementById('current-gamestring').value === %q && `, gameString) + settledJS(len(gs.Moves)))
	return checkShows(p.t, p.view(), gameString)
}

// arrowKeys are the arrow keys by the names the page's handler sees, with
// what chromedp sends for each.
var arrowKeys = map[string]string{"ArrowLeft": kb.ArrowLeft, "ArrowRight": kb.ArrowRight, "ArrowUp": kb.ArrowUp, "ArrowDown": kb.ArrowDown}

// arrowGraph is where each arrow key leads from each of the board's pieces
// and destinations, named "piece:wQ", "dest:wQ -bS1", "board" (the board
// itself) or "off" (anything else): the page's own handler asked, node by
// node, with the focus put on each node and the key dispatched to it.
type arrowGraph struct {
	Start string                       `json:"start"`
	Edges map[string]map[string]string `json:"edges"`
}

const nodeIDJS = `const nodeID = (el) => { const b = document.getElementById('board');
  if (el === b) return 'board';
  if (el && el.matches && el.matches('#board .dest')) return 'dest:' + el.dataset.move;
  if (el && el.matches && el.matches('#board .piece')) return 'piece:' + el.dataset.piece;
  return 'off'; };`

func (p *page) arrowGraph() arrowGraph {
	p.t.Helper()
	var g arrowGraph
	p.eval(`(() => { `+nodeIDJS+`
  const start = document.activeElement, edges = {};
  for (const n of document.querySelectorAll('#board .piece, #board .dest')) {
    const e = edges[nodeID(n)] = {};
    for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) {
      n.focus({ preventScroll: true });
      n.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      e[key] = nodeID(document.activeElement);
    }
  }
  start.focus({ preventScroll: true });
  return { start: nodeID(start), edges };
})()`, &g)
	return g
}

// route is the shortest sequence of arrow keys from one node to another
// in the graph, or nil when none reaches it.
func (g arrowGraph) route(from, to string) []string {
	type step struct{ prev, key string }
	seen := map[string]step{from: {}}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			var keys []string
			for n != from {
				s := seen[n]
				keys = append([]string{s.key}, keys...)
				n = s.prev
			}
			return keys
		}
		for _, key := range slices.Sorted(func(yield func(string) bool) {
			for k := range g.Edges[n] {
				if !yield(k) {
					return
				}
			}
		}) {
			next := g.Edges[n][key]
			if _, ok := seen[next]; !ok {
				seen[next] = step{n, key}
				queue = append(queue, next)
			}
		}
	}
	return nil
}

func (p *page) focusedNode() string {
	p.t.Helper()
	var id string
	p.eval(`(() => { `+nodeIDJS+` return nodeID(document.activeElement); })()`, &id)
	return id
}

// arrowTo presses the arrow keys of the graph's route from the focused
// node to node, each a real key press, and checks that each lands where
// the graph says.
func (p *page) arrowTo(g arrowGraph, node string) {
	p.t.Helper()
	from := p.focusedNode()
	keys := g.route(from, node)
	if keys == nil && from != node {
		p.t.Fatalf("no arrow keys lead from %s to %s: %v", from, node, g.Edges)
	}
	at := from
	for _, key := range keys {
		p.do(chromedp.KeyEvent(arrowKeys[key]))
		want := g.Edges[at][key]
		if got := p.focusedNode(); got != want {
			p.t.Fatalf("%s from %s took the focus to %s, the page's handler says %s", key, at, got, want)
		}
		at = want
	}
}

// validMoves asks a second session on the daemon for the legal moves of
// a GameString: the engine's validmoves, read as core moves.
func validMoves(t *testing.T, uhpAddr, gameString string, g *core.Game) []core.Move {
	t.Helper()
	s := dialTCP(t, uhpAddr)
	s.answer(t) // info
	if got := s.do(t, "newgame "+gameString); len(got) != 1 || got[0] != gameString {
		t.Fatalf("newgame %s: %q", gameString, got)
	}
	lines := s.do(t, "validmoves")
	if len(lines) != 1 {
		t.Fatalf("validmoves: %q", lines)
	}
	var moves []core.Move
	for _, text := range strings.Split(lines[0], ";") {
		m, err := uhp.ParseMove(text, g)
		if err != nil {
			t.Fatalf("validmoves gave %q: %v", text, err)
		}
		moves = append(moves, m)
	}
	return moves
}

// selectByKeyboard tabs to a piece, chooses it with Enter, and checks that
// its destinations are shown, the same as the engine's validmoves and
// core's, and that the focus is on one of them.
func (p *page) selectByKeyboard(g *core.Game, piece core.Piece, valid []core.Move) []string {
	p.t.Helper()
	p.tabTo(pieceSelector(g, piece))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.querySelectorAll('#board .dest').length > 0`)
	v := p.view()
	checkDestinations(p.t, v, g, piece)
	var want, got []string
	for _, m := range valid {
		if m.Piece() == piece {
			want = append(want, uhp.FormatMove(m, g))
		}
	}
	for _, text := range v.Dests {
		m, err := uhp.ParseMove(text, g)
		if err != nil {
			p.t.Fatal(err)
		}
		got = append(got, uhp.FormatMove(m, g))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		p.t.Fatalf("destinations of %s shown %q, the engine's validmoves %q", piece, got, want)
	}
	if f := p.focusedNode(); !strings.HasPrefix(f, "dest:") {
		p.t.Fatalf("after choosing %s by Enter the focus is on %s", piece, f)
	}
	return v.Dests
}

// testArrowsReachEveryDestination: in a position where White has a move
// of every kind, for one piece of each kind chosen by keyboard, the arrow
// keys alone lead from where the focus lands to every destination shown
// (which are the engine's validmoves and core's legal moves of the piece),
// each visited in turn by real key presses; then the move of that kind is
// played with Enter, the engine's game has it, and the focus is on the
// piece that moved.
func testArrowsReachEveryDestination(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.do(chromedp.EmulateViewport(1280, 900))
	g := p.loadGame(everyKind)
	valid := validMoves(t, d.uhpAddr, everyKind, g)
	kinds := kindsOf(g)
	for _, kind := range allKinds {
		if len(kinds[kind]) == 0 {
			t.Fatalf("the position has no %s", kind)
		}
	}
	for _, kind := range allKinds {
		m := kinds[kind][0]
		if kind != allKinds[0] {
			g = p.loadGame(everyKind)
		}
		dests := p.selectByKeyboard(g, m.Piece(), valid)
		graph := p.arrowGraph()
		for _, dest := range dests {
			p.arrowTo(graph, "dest:"+dest)
		}
		text := destinationOf(g, dests, m)
		p.arrowTo(graph, "dest:"+text)
		p.do(chromedp.KeyEvent(kb.Enter))
		p.waitFor(settledJS(g.Ply() + 1))
		v := p.view()
		played := checkShows(t, v, v.LastGameString)
		if h := played.History(); len(h) != g.Ply()+1 || h[len(h)-1] != m {
			t.Fatalf("%s: Enter on %q played %q", kind, text, v.History[len(v.History)-1])
		}
		if f := p.focusedNode(); f != "piece:"+m.Piece().String() {
			t.Fatalf("%s: after %s by keyboard the focus is on %s", kind, text, f)
		}
		t.Logf("%s: %s reached its %d destinations by arrows and played %s", kind, m.Piece(), len(dests), text)
	}
}

// coverRepliesVar makes this test binary, started again, a UHP engine
// whose move climbs onto the piece that moved last whenever it can: the
// reply that covers a keyboard player's piece.
const coverRepliesVar = "HIVEBRIDGE_TEST_COVER_REPLIES"

type coverer struct{}

func (coverer) BestMove(_ context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	if m := coverMove(g); m != core.NoMove {
		return m, nil
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.Moves()[0], nil
}

// coverMove is the first legal move, in core's order, onto the cell the
// last move went to, or NoMove.
func coverMove(g *core.Game) core.Move {
	h := g.History()
	if len(h) == 0 || h[len(h)-1] == core.Pass {
		return core.NoMove
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	for _, m := range l.Moves() {
		if m != core.Pass && m.To() == h[len(h)-1].To() {
			return m
		}
	}
	return core.NoMove
}

func runCoverer() int {
	e := uhp.NewSession(uhp.Config{ID: "coverer", Expansions: core.AllExpansions, Searcher: coverer{}})
	if err := e.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}

// testFocusAfterCoveringReply: a person plays White by keyboard against
// an engine that climbs onto the piece that moved; once the reply covers
// it, the focus is on the piece on top, and the next keys (arrows to a
// piece White can move, Enter) work without a Tab.
func testFocusAfterCoveringReply(t *testing.T, browser context.Context) {
	t.Setenv(coverRepliesVar, "1")
	d := startDaemon(t, "--backend", `uhp:"`+os.Args[0]+`"`)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	g := p.loadGame(everyKind)
	// A move of a White piece on the board after which Black can climb
	// onto it.
	var l core.MoveList
	g.GenerateMoves(&l)
	m := core.NoMove
	for _, c := range l.Moves() {
		if c == core.Pass || g.InHand(c.Piece()) || g.Height(c.To()) > 0 {
			continue
		}
		g.Play(c)
		if coverMove(g) != core.NoMove {
			m = c
		}
		g.Undo()
		if m != core.NoMove {
			break
		}
	}
	if m == core.NoMove {
		t.Fatal("no White move that Black can cover")
	}
	p.setSelect("player-black", "computer")
	p.waitFor(settledJS(g.Ply()))
	dests := p.selectByKeyboard(g, m.Piece(), validMoves(t, d.uhpAddr, everyKind, g))
	graph := p.arrowGraph()
	p.arrowTo(graph, "dest:"+destinationOf(g, dests, m))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(settledJS(g.Ply() + 2))
	v := p.view()
	played := checkShows(t, v, v.LastGameString)
	h := played.History()
	if h[len(h)-2] != m || h[len(h)-1].To() != m.To() {
		t.Fatalf("White played %q and Black %q: no cover", v.History[len(v.History)-2], v.History[len(v.History)-1])
	}
	// The focus was on the piece that moved: it is on what covers it.
	if f, want := p.focusedNode(), "piece:"+h[len(h)-1].Piece().String(); f != want {
		t.Fatalf("after Black covered %s the focus is on %s, not on %s", m.Piece(), f, want)
	}
	// An arrow moves it; arrows alone reach a piece White can move, and
	// Enter shows its destinations.
	graph = p.arrowGraph()
	var movable []string
	p.eval(`[...document.querySelectorAll('#board .piece.movable')].map((e) => 'piece:' + e.dataset.piece)`, &movable)
	if len(movable) == 0 {
		t.Fatal("White has no piece to move on the board")
	}
	p.arrowTo(graph, movable[0])
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.querySelectorAll('#board .dest').length > 0`)
	checkDestinations(t, p.view(), played, mustPiece(t, strings.TrimPrefix(movable[0], "piece:")))
}

// testStackLabels: on a board with stacks of three and four, every
// neighbour's label is on top where it is drawn: at its centre and corners
// the element the browser finds is that neighbour's, not the stack's
// tiles or height badge.
func testStackLabels(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.do(chromedp.EmulateViewport(1280, 900))
	g := p.loadGame(tallStacks)
	type covered struct {
		Label, Stack, Hit string
		X, Y              float64
	}
	var found struct {
		Checked int
		Covered []covered
	}
	p.eval(`(() => {
  document.activeElement.blur();
  const pieces = [...document.querySelectorAll('#board .piece')];
  const at = new Map(pieces.map((e) => [e.dataset.q + ',' + e.dataset.r, e]));
  const out = { Checked: 0, Covered: [] };
  for (const stack of pieces.filter((e) => +e.dataset.height >= 3)) {
    const q = +stack.dataset.q, r = +stack.dataset.r;
    for (const [dq, dr] of [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]]) {
      const n = at.get((q + dq) + ',' + (r + dr));
      if (!n) continue;
      const b = n.querySelector(':scope > .piece-shape > .label').getBoundingClientRect();
      out.Checked++;
      for (const [x, y] of [[b.left + b.width / 2, b.top + b.height / 2], [b.left + 1, b.top + 1], [b.right - 1, b.top + 1], [b.left + 1, b.bottom - 1], [b.right - 1, b.bottom - 1]]) {
        const hit = document.elementFromPoint(x, y);
        const owner = hit && hit.closest('.piece');
        if (owner !== n) out.Covered.push({ Label: n.dataset.piece, Stack: stack.dataset.piece, Hit: owner ? owner.dataset.piece : String(hit && hit.tagName), X: x, Y: y });
      }
    }
  }
  return out;
})()`, &found)
	p.screenshot(shots, "viewer-stacks.png")
	tall := 0
	for p := core.Piece(0); p < core.NumPieces; p++ {
		if g.InPlay(p) && !g.InHand(p) && g.Top(g.Position(p)) == p && g.Height(g.Position(p)) >= 3 {
			tall++
		}
	}
	if tall < 2 || found.Checked < 4 {
		t.Fatalf("%d stacks of three or more, %d neighbours' labels checked", tall, found.Checked)
	}
	for _, c := range found.Covered {
		t.Errorf("the label of %s, next to the stack under %s, is covered at (%.0f, %.0f) by %s", c.Label, c.Stack, c.X, c.Y, c.Hit)
	}
}

// hue is an sRGB colour's hue in degrees, read from a computed style's
// "rgb(r, g, b)".
func hue(t *testing.T, css string) float64 {
	t.Helper()
	var r, g, b float64
	if _, err := fmt.Sscanf(strings.ReplaceAll(css, ",", ""), "rgb(%g %g %g)", &r, &g, &b); err != nil {
		t.Fatalf("colour %q: %v", css, err)
	}
	r, g, b = r/255, g/255, b/255
	hi, lo := max(r, g, b), min(r, g, b)
	if hi == lo {
		return 0
	}
	var h float64
	switch hi {
	case r:
		h = math.Mod((g-b)/(hi-lo), 6)
	case g:
		h = (b-r)/(hi-lo) + 2
	default:
		h = (r-g)/(hi-lo) + 4
	}
	return math.Mod(h*60+360, 360)
}

// testFocusAndLastMoveDiffer: the outline of the piece that moved last
// and the focus ring on another piece differ in colour (hues at least 60°
// apart) and in style (one dashed or dotted, the other solid).
func testFocusAndLastMoveDiffer(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.do(chromedp.EmulateViewport(1280, 900))
	g := p.loadGame(everyKind)
	last := g.History()[g.Ply()-1].Piece()
	var other core.Piece
	for q := core.Piece(0); q < core.NumPieces; q++ {
		if q != last && g.InPlay(q) && !g.InHand(q) && g.Top(g.Position(q)) == q && q.Color() == core.White {
			other = q
			break
		}
	}
	p.tabTo(pieceSelector(g, other))
	type stroke struct{ Color, Dash, Width string }
	var s struct{ Last, Focus stroke }
	p.eval(fmt.Sprintf(`(() => { const st = (sel) => { const c = getComputedStyle(document.querySelector(sel + ' > .piece-shape > .tile:not(.under)'));
  return { Color: c.stroke, Dash: c.strokeDasharray, Width: c.strokeWidth }; };
  return { Last: st('#board .piece.last[data-piece=%q]'), Focus: st('#board .piece[data-piece=%q]') }; })()`, last, other), &s)
	p.screenshot(shots, "viewer-focus-last.png")
	dh := math.Abs(hue(t, s.Last.Color) - hue(t, s.Focus.Color))
	if dh > 180 {
		dh = 360 - dh
	}
	if dh < 60 {
		t.Errorf("the last move's outline %s and the focus ring %s are %.0f° apart in hue", s.Last.Color, s.Focus.Color, dh)
	}
	if (s.Last.Dash == "none") == (s.Focus.Dash == "none") {
		t.Errorf("the last move's outline (dashes %q) and the focus ring (dashes %q) have one style", s.Last.Dash, s.Focus.Dash)
	}
}

// testDesktopFits: at 1280x900 the page fits the window, and arrow
// presses on the board move the focus without scrolling the page.
func testDesktopFits(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.do(chromedp.EmulateViewport(1280, 900))
	g := p.loadGame(midgameWithStacks)
	var size struct{ ScrollHeight, InnerHeight, ScrollWidth, InnerWidth int }
	p.eval(`({ ScrollHeight: document.documentElement.scrollHeight, InnerHeight: innerHeight, ScrollWidth: document.documentElement.scrollWidth, InnerWidth: innerWidth })`, &size)
	if size.ScrollHeight > size.InnerHeight || size.ScrollWidth > size.InnerWidth {
		t.Errorf("at 1280x900 the page is %dx%d in a %dx%d window", size.ScrollWidth, size.ScrollHeight, size.InnerWidth, size.InnerHeight)
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	p.tabTo(pieceSelector(g, l.Moves()[0].Piece()))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.querySelectorAll('#board .dest').length > 0`)
	for i, key := range []string{kb.ArrowUp, kb.ArrowUp, kb.ArrowLeft, kb.ArrowDown, kb.ArrowDown, kb.ArrowDown, kb.ArrowRight, kb.ArrowRight, kb.ArrowUp} {
		p.do(chromedp.KeyEvent(key))
		var scrolled float64
		p.eval(`window.scrollY + document.scrollingElement.scrollTop`, &scrolled)
		if scrolled != 0 {
			t.Fatalf("arrow press %d scrolled the page by %gpx", i+1, scrolled)
		}
	}
	p.screenshot(shots, "viewer-desktop-1280x900.png")
}

// testPhoneFitsHive: on a phone's screen, with touch, the hive is fitted
// to the board: inside it, filling most of it one way and a good share of
// its area (a line of four tiles less than a midgame's hive), its tiles
// big enough to tap, early in a game as late; a tap on a piece and a tap
// on a destination play a move.
func testPhoneFitsHive(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := newTab(t, browser)
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Navigate("http://"+d.httpAddr+"/"))
	p.waitFor(`document.getElementById('connection').dataset.state === 'up' && document.getElementById('waiting').textContent === ''`)
	type box struct{ Left, Top, Right, Bottom float64 }
	type fit struct {
		Board, Hive box
		Hex         float64 // a tile's height on the screen
	}
	measure := func() fit {
		var f fit
		p.eval(`(() => { const r = (b) => ({ Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom });
  const tiles = [...document.querySelectorAll('#board .piece > .piece-shape > .tile:not(.under)')].map((e) => e.getBoundingClientRect());
  return { Board: r(document.getElementById('board').getBoundingClientRect()),
    Hive: { Left: Math.min(...tiles.map((b) => b.left)), Top: Math.min(...tiles.map((b) => b.top)), Right: Math.max(...tiles.map((b) => b.right)), Bottom: Math.max(...tiles.map((b) => b.bottom)) },
    Hex: Math.max(...tiles.map((b) => b.height)) }; })()`, &f)
		return f
	}
	for _, c := range []struct {
		name, game string
		area       float64 // the share of the board the hive covers at least
	}{
		{"opening", "Base+MLP;InProgress;White[3];wL;bG1 wL-;wQ -wL;bQ bG1-", 0.15},
		{"midgame", midgameWithStacks, 0.45},
	} {
		g := p.loadGame(c.game)
		f := measure()
		w, h := f.Hive.Right-f.Hive.Left, f.Hive.Bottom-f.Hive.Top
		bw, bh := f.Board.Right-f.Board.Left, f.Board.Bottom-f.Board.Top
		t.Logf("%s: hive %.0fx%.0f in a board of %.0fx%.0f, tiles %.0fpx tall", c.name, w, h, bw, bh, f.Hex)
		if f.Hive.Left < f.Board.Left || f.Hive.Right > f.Board.Right || f.Hive.Top < f.Board.Top || f.Hive.Bottom > f.Board.Bottom {
			t.Errorf("%s: the hive %+v is not inside the board %+v", c.name, f.Hive, f.Board)
		}
		if w < 0.7*bw && h < 0.7*bh {
			t.Errorf("%s: the hive is %.0fx%.0f in a board of %.0fx%.0f", c.name, w, h, bw, bh)
		}
		if w*h < c.area*bw*bh {
			t.Errorf("%s: the hive (%.0fx%.0f) covers %.0f%% of the board (%.0fx%.0f)", c.name, w, h, 100*w*h/(bw*bh), bw, bh)
		}
		if f.Hex < 44 {
			t.Errorf("%s: tiles %.0fpx tall are too small to tap", c.name, f.Hex)
		}
		p.screenshot(shots, "viewer-phone-"+c.name+".png")
		// A tap on a piece and on one of its destinations plays it.
		var l core.MoveList
		g.GenerateMoves(&l)
		var m core.Move
		for _, c := range l.Moves() {
			if !g.InHand(c.Piece()) {
				m = c
				break
			}
		}
		p.tap(pieceSelector(g, m.Piece()))
		p.waitFor(`document.querySelectorAll('#board .dest').length > 0`)
		v := p.view()
		checkDestinations(t, v, g, m.Piece())
		q, r := pageCell(t, v, m.To())
		p.tap(fmt.Sprintf(`#board .dest[data-q="%d"][data-r="%d"]`, q, r))
		p.waitFor(settledJS(g.Ply() + 1))
		v = p.view()
		if played := checkShows(t, v, v.LastGameString); played.History()[g.Ply()] != m {
			t.Errorf("%s: the taps played %q", c.name, v.History[g.Ply()])
		}
	}
}

// headerRow is the page's header as drawn: its box, its padding, and the
// boxes of the items shown in it (the title, the connection's status, the
// buttons).
type headerRow struct {
	Header      box
	PadTop      float64
	PadBottom   float64
	Items       []box
	Names       []string
	ScrollWidth int
	Width       int
	// The connection's status: its words, whole (a screen reader reads
	// them, a live region, however little of them is drawn), and its
	// tooltip.
	Status, StatusTitle string
	// The title's width drawn, and the width its words need.
	TitleWidth, TitleNeeds int
}

type box struct{ Left, Top, Right, Bottom float64 }

const headerJS = `(() => { const r = (b) => ({ Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom });
  const h = document.querySelector('header.top'), s = getComputedStyle(h);
  const items = [...h.children].filter((e) => !e.hidden && getComputedStyle(e).display !== 'none');
  return { Header: r(h.getBoundingClientRect()), PadTop: parseFloat(s.paddingTop), PadBottom: parseFloat(s.paddingBottom),
    Items: items.map((e) => r(e.getBoundingClientRect())), Names: items.map((e) => e.id || e.tagName),
    ScrollWidth: document.documentElement.scrollWidth, Width: document.documentElement.clientWidth,
    Status: document.getElementById('connection').textContent, StatusTitle: document.getElementById('connection').title,
    TitleWidth: h.querySelector('h1').clientWidth, TitleNeeds: h.querySelector('h1').scrollWidth }; })()`

// checkOneRow fails unless the header holds its items in one row: each
// within the header's width, all of them side by side (each one's span of
// height overlapping every other's), the header no taller than its
// tallest item and its padding, and the title whole.
func checkOneRow(t *testing.T, where string, h headerRow) {
	t.Helper()
	tallest := 0.0
	for i, a := range h.Items {
		tallest = max(tallest, a.Bottom-a.Top)
		if a.Left < h.Header.Left-0.5 || a.Right > h.Header.Right+0.5 {
			t.Errorf("%s: %s (%.0f to %.0f) is outside the header (%.0f to %.0f)", where, h.Names[i], a.Left, a.Right, h.Header.Left, h.Header.Right)
		}
		for j, b := range h.Items[:i] {
			if a.Top >= b.Bottom || b.Top >= a.Bottom {
				t.Errorf("%s: %s (top %.0f) and %s (top %.0f) are on two rows", where, h.Names[i], a.Top, h.Names[j], b.Top)
			}
		}
	}
	if height := h.Header.Bottom - h.Header.Top; height > tallest+h.PadTop+h.PadBottom+0.5 {
		t.Errorf("%s: the header is %.0fpx tall, one row is %.0fpx", where, height, tallest+h.PadTop+h.PadBottom)
	}
	if h.ScrollWidth > h.Width {
		t.Errorf("%s: the page is %dpx wide in %dpx", where, h.ScrollWidth, h.Width)
	}
	if h.TitleNeeds > h.TitleWidth {
		t.Errorf("%s: the title is cut short: %dpx of %dpx", where, h.TitleWidth, h.TitleNeeds)
	}
}

// testPhoneHeaderFits: at a phone's widths (390 and 360 px, with touch)
// the header is one row, connected and, once the daemon has gone, with
// its Reconnect button too; the status keeps its whole words, and shows
// them in its tooltip, however little of it is drawn.
func testPhoneHeaderFits(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	shots := screenshotDir(t)
	p := newTab(t, browser)
	read := func() headerRow {
		var h headerRow
		p.eval(headerJS, &h)
		return h
	}
	sizes := []struct{ w, h int64 }{{390, 844}, {360, 740}}
	for _, size := range sizes {
		p.do(chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Navigate("http://"+d.httpAddr+"/"))
		p.waitFor(`document.getElementById('connection').dataset.state === 'up' && document.getElementById('waiting').textContent === ''`)
		h := read()
		where := fmt.Sprintf("%dpx, connected", size.w)
		checkOneRow(t, where, h)
		if !strings.HasPrefix(h.Status, "Connected to hivebridge v") || h.StatusTitle != h.Status {
			t.Errorf("%s: the status is %q, its tooltip %q", where, h.Status, h.StatusTitle)
		}
		p.screenshot(shots, fmt.Sprintf("header-%d.png", size.w))
	}
	// The daemon gone: the status says so, and Reconnect shows.
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`document.getElementById('connection').dataset.state === 'down' && !document.getElementById('reconnect').hidden`)
	for _, size := range sizes {
		p.do(chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateMobile, chromedp.EmulateTouch))
		h := read()
		checkOneRow(t, fmt.Sprintf("%dpx, disconnected", size.w), h)
		if len(h.Items) != 5 {
			t.Errorf("%dpx, disconnected: the header shows %q", size.w, h.Names)
		}
		p.screenshot(shots, fmt.Sprintf("header-%d-down.png", size.w))
	}
}

// tap taps the centre of the element selector finds, as a finger would.
func (p *page) tap(selector string) {
	p.t.Helper()
	var c struct{ X, Y float64 }
	p.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({ block: 'nearest' }); const b = e.getBoundingClientRect(); return { X: b.left + b.width / 2, Y: b.top + b.height / 2 }; })()`, selector), &c)
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	for _, kind := range []input.DispatchTouchEventType{input.DispatchTouchEventTypeTouchStart, input.DispatchTouchEventTypeTouchEnd} {
		points := []*input.TouchPoint{{X: c.X, Y: c.Y}}
		if kind == input.DispatchTouchEventTypeTouchEnd {
			points = []*input.TouchPoint{}
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: kind, TouchPoints: points}); err != nil {
			p.t.Fatalf("tapping %s: %v", selector, err)
		}
	}
}

// destinationOf returns the destination, among those the page highlights
// (dests, as it spells them), that plays m in g; m's canonical spelling
// when none does, which no arrow then reaches.
func destinationOf(g *core.Game, dests []string, m core.Move) string {
	for _, dest := range dests {
		if dm, err := uhp.ParseMove(dest, g); err == nil && dm == m {
			return dest
		}
	}
	return uhp.FormatMove(m, g)
}

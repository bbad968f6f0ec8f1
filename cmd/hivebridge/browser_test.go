package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// The browser tests' scenarios, run by TestBrowser; their harness is in
// browser_harness_test.go, the archive's scenarios in
// browser_archive_test.go.

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
		{"NoAuthWithoutToken", testNoAuthWithoutToken},
		{"UHPConnection", testUHPConnection},
		{"DrawError", testDrawError},
		{"Notation", testNotation},
		{"BareReports", testBareReports},
		{"GameTypesPassUndoCopy", testGameTypesPassUndoCopy},
		{"Archive", testArchive},
		{"ArchiveFilters", testArchiveFilters},
		{"DropRecord", testDropRecord},
		{"OpenSGFAndDownloadLive", testOpenSGFAndDownloadLive},
	} {
		t.Run(bt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(browser, browserTestDeadline)
			defer cancel()
			bt.run(t, ctx)
		})
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
	checkShows(t, v, v.LastGameString)

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
	g := checkShows(t, v, v.LastGameString)
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

// testToken: on a daemon with --token-file the page itself is public; the
// page learns from /healthz that the daemon needs a token, asks for it,
// sends it as the socket's first message (auth), says so when the daemon
// refuses it and asks again, and keeps the right one for the tab, so that a
// reload connects without asking, and the Games dialog's requests carry it.
// No address the page asks for carries the token: not the WebSocket's, not
// a fetch's (proxies log addresses); fetches carry it in their
// Authorization header, and the page's protocol log does not show it.
func testToken(t *testing.T, browser context.Context) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, "--token-file", tokenFile)
	p := newTab(t, browser)
	traffic := p.recordNetwork()
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

	requests, sockets := traffic.snapshot()
	var addresses []string
	for _, r := range requests {
		addresses = append(addresses, r.URL)
	}
	for _, s := range sockets {
		addresses = append(addresses, s.URL)
	}
	for _, a := range addresses {
		if strings.Contains(a, "s3cret") || strings.Contains(a, "wrong") || strings.Contains(strings.ToLower(a), "token") {
			t.Errorf("the page asked for %s: the token is in the address", a)
		}
	}
	// Three sockets: the wrong token's, the right one's, the reload's; each
	// sent the token it had as its first message, on /uhp with no query.
	var firsts []string
	for _, s := range sockets {
		if u, err := url.Parse(s.URL); err != nil || u.Path != "/uhp" || u.RawQuery != "" {
			t.Errorf("the page opened a WebSocket on %s", s.URL)
		}
		first := ""
		if len(s.Sent) > 0 {
			first = s.Sent[0]
		}
		firsts = append(firsts, first)
	}
	if want := []string{"auth wrong", "auth s3cret", "auth s3cret"}; !slices.Equal(firsts, want) {
		t.Errorf("the page's WebSockets sent first %q, want %q", firsts, want)
	}
	// The probes and the archive's fetches: /healthz without a token (it
	// asks whether one is needed), /games with it in the header.
	var healthz, games int
	for _, r := range requests {
		u, err := url.Parse(r.URL)
		if err != nil {
			t.Fatal(err)
		}
		auth, _ := r.Headers["Authorization"].(string)
		switch u.Path {
		case "/healthz":
			healthz++
		case "/games":
			games++
			if auth != "Bearer s3cret" {
				t.Errorf("GET %s carries Authorization %q", r.URL, auth)
			}
		}
	}
	if healthz < 2 || games < 1 {
		t.Errorf("the page asked /healthz %d times and /games %d times; requests: %q", healthz, games, addresses)
	}
	var shownLog string
	p.eval(`document.getElementById('protocol-log').textContent`, &shownLog)
	if strings.Contains(shownLog, "s3cret") || !strings.Contains(shownLog, "auth ") {
		t.Errorf("the protocol log shows the token, or no auth message:\n%s", shownLog)
	}
}

// testNoAuthWithoutToken: on a daemon without a token the page sends no
// auth message (the daemon would take it for an unknown command): its
// socket's first message is a UHP command.
func testNoAuthWithoutToken(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := newTab(t, browser)
	traffic := p.recordNetwork()
	p.open("http://" + d.httpAddr + "/")
	_, sockets := traffic.snapshot()
	if len(sockets) != 1 || len(sockets[0].Sent) == 0 || strings.HasPrefix(sockets[0].Sent[0], "auth") {
		t.Fatalf("on a daemon without a token the page's sockets sent %+v", sockets)
	}
	if v := p.view(); v.Message != "" {
		t.Errorf("the page says %q", v.Message)
	}
}

// uhpConnectionJS drives the page's UHPConnection (uhp.js) on a fake
// socket: what it sends, and what each command's answer is, when answers
// come several to a message, split across messages, after an auth message,
// or ahead of the command they answer.
const uhpConnectionJS = `(async () => {
  const { UHPConnection, ConnectionClosed } = await import('./assets/uhp.js');
  class FakeSocket extends EventTarget {
    constructor(url) { super(); this.url = url; this.sent = []; this.ready = false; }
    send(text) { if (!this.ready) throw new Error('send before open'); this.sent.push(text); }
    close() {}
    opened() { this.ready = true; this.dispatchEvent(new Event('open')); }
    message(text) { this.dispatchEvent(new MessageEvent('message', { data: text })); }
  }
  const out = {};
  const tick = () => new Promise((r) => setTimeout(r, 0));
  // answer settles with a command's answer, or says why there is none: a
  // dropped line leaves it waiting, which must fail the test, not hang it.
  const answer = (p) => Promise.race([
    p.then((a) => a, (e) => ({ rejected: e instanceof ConnectionClosed ? 'closed: ' + e.message : String(e) })),
    new Promise((r) => setTimeout(() => r({ rejected: 'no answer within 2s' }), 2000)),
  ]);

  // With a token: auth first, once open; the info answer comes after it, and
  // in the same message the first lines of the next answer.
  let socket;
  const logged = [];
  const conn = new UHPConnection('ws://example.invalid/uhp', { socket: (u) => (socket = new FakeSocket(u)), onLog: (d, t) => logged.push(d + ' ' + t) });
  const info = answer(conn.open('tok'));
  const a = answer(conn.send('validmoves'));
  const b = answer(conn.send('newgame Base'));
  const c = answer(conn.send('play wQ'));
  out.sentBeforeOpen = socket.sent.slice();
  socket.opened();
  out.sentOnOpen = socket.sent.slice();
  socket.message('id hivebridge test\nok\nwS1;wQ\n');
  out.info = await info;
  // Two answers and an error in one message.
  socket.message('ok\nBase;NotStarted;White[1]\nok\ninvalidmove wQ cannot\nok\n');
  out.a = await a;
  out.b = await b;
  out.c = await c;
  // A line nobody asked for yet is kept for the next answer; one answer
  // split across messages reaches onLine as it comes.
  socket.message('early\n');
  const seen = [];
  const d = answer(conn.send('bestmove depth 2', (l) => seen.push(l)));
  socket.message('r1\r\n');
  await tick();
  out.seenMidway = seen.slice();
  socket.message('r2\nbest\nok\n');
  out.d = await d;
  out.seen = seen;
  out.sent = socket.sent.slice();
  out.logged = logged.filter((l) => l.startsWith('>'));
  // The socket closes: what waits is rejected.
  const e = answer(conn.send('undo'));
  socket.dispatchEvent(new CloseEvent('close', { code: 1008, reason: 'authentication' }));
  out.e = await e;

  // A refused token: the daemon's err answer to auth is the info answer.
  let refused;
  const conn2 = new UHPConnection('ws://example.invalid/uhp', { socket: (u) => (refused = new FakeSocket(u)) });
  const info2 = answer(conn2.open('bad'));
  refused.opened();
  refused.message('err Bad token.\nok\n');
  out.refused = await info2;
  out.refusedSent = refused.sent;

  // Without a token nothing is sent on open: the info answer comes unasked.
  let plain;
  const conn3 = new UHPConnection('ws://example.invalid/uhp', { socket: (u) => (plain = new FakeSocket(u)) });
  const info3 = answer(conn3.open());
  plain.opened();
  plain.message('id hivebridge plain\nok\n');
  out.plain = await info3;
  out.plainSent = plain.sent.slice();

  // stop goes out at once while a command runs, ahead of one waiting its
  // turn; the ok that follows the stopped command's answer is the stop's,
  // not the waiting command's. With nothing running it sends nothing.
  const s1 = answer(conn3.send('bestmove infinite'));
  const s2 = answer(conn3.send('validmoves'));
  const st = answer(conn3.stop());
  out.stopSent = plain.sent.slice();
  plain.message('wS1;1;0.00;wS1\nwS1\nok\nok\n');
  out.s1 = await s1;
  out.st = await st;
  out.afterStop = plain.sent.slice();
  plain.message('wS1;wQ\nok\n');
  out.s2 = await s2;
  await answer(conn3.stop());
  out.idleSent = plain.sent.slice();
  return out;
})()`

// testUHPConnection checks the page's UHP connection logic on a fake
// socket (uhpConnectionJS): the lines after an "ok" in a message belong to
// the next answer, not dropped; auth goes first, once the socket is open,
// and the info answer after it resolves the connection.
func testUHPConnection(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	type answer struct {
		Lines    []string `json:"lines"`
		Error    *string  `json:"error"`
		Rejected string   `json:"rejected"`
	}
	var got struct {
		SentBeforeOpen, SentOnOpen []string
		Info, A, B, C, D, E        answer
		SeenMidway, Seen           []string
		Sent, Logged               []string
		Refused, Plain             answer
		RefusedSent, PlainSent     []string
		S1, St, S2                 answer
		StopSent, AfterStop        []string
		IdleSent                   []string
	}
	p.eval(uhpConnectionJS, &got)
	check := func(what string, a answer, lines []string, err string) {
		t.Helper()
		gotErr := ""
		if a.Error != nil {
			gotErr = *a.Error
		}
		if a.Rejected != "" || !slices.Equal(a.Lines, lines) || gotErr != err {
			t.Errorf("%s: answered %+v (error %q), want lines %q, error %q", what, a, gotErr, lines, err)
		}
	}
	if len(got.SentBeforeOpen) != 0 || !slices.Equal(got.SentOnOpen, []string{"auth tok"}) {
		t.Errorf("sent %q before the socket opened, %q once it did; want nothing, then the auth message alone", got.SentBeforeOpen, got.SentOnOpen)
	}
	check("the info answer after auth", got.Info, []string{"id hivebridge test"}, "")
	check("validmoves, its line in the info answer's message", got.A, []string{"wS1;wQ"}, "")
	check("newgame, in the same message as validmoves's ok", got.B, []string{"Base;NotStarted;White[1]"}, "")
	check("play, last in that message", got.C, []string{"invalidmove wQ cannot"}, "wQ cannot")
	check("bestmove, a line ahead of it and its answer in two messages", got.D, []string{"early", "r1", "r2", "best"}, "")
	if !slices.Equal(got.SeenMidway, []string{"early", "r1"}) || !slices.Equal(got.Seen, got.D.Lines) {
		t.Errorf("bestmove's lines reached onLine as %q midway, %q in all", got.SeenMidway, got.Seen)
	}
	if want := []string{"auth tok", "validmoves", "newgame Base", "play wQ", "bestmove depth 2"}; !slices.Equal(got.Sent, want) {
		t.Errorf("sent %q, want %q", got.Sent, want)
	}
	if want := []string{"> auth ********", "> validmoves", "> newgame Base", "> play wQ", "> bestmove depth 2"}; !slices.Equal(got.Logged, want) {
		t.Errorf("logged %q, want %q", got.Logged, want)
	}
	if got.E.Rejected != "closed: the connection closed: authentication" {
		t.Errorf("a command waiting when the socket closed: %+v", got.E)
	}
	check("a refused token", got.Refused, []string{"err Bad token."}, "Bad token.")
	check("the info answer without a token", got.Plain, []string{"id hivebridge plain"}, "")
	if !slices.Equal(got.RefusedSent, []string{"auth bad"}) || len(got.PlainSent) != 0 {
		t.Errorf("sent %q with a token, %q without", got.RefusedSent, got.PlainSent)
	}
	if !slices.Equal(got.StopSent, []string{"bestmove infinite", "stop"}) || !slices.Equal(got.AfterStop, []string{"bestmove infinite", "stop", "validmoves"}) {
		t.Errorf("sent %q with stop, %q once the search answered; want stop at once, validmoves after", got.StopSent, got.AfterStop)
	}
	check("bestmove infinite, stopped", got.S1, []string{"wS1;1;0.00;wS1", "wS1"}, "")
	check("stop", got.St, nil, "")
	check("validmoves, waiting behind the stop", got.S2, []string{"wS1;wQ"}, "")
	if !slices.Equal(got.IdleSent, got.AfterStop) {
		t.Errorf("stop with nothing running sent %q", got.IdleSent[len(got.AfterStop):])
	}
}

// testDrawError: when the board cannot be drawn, the page says why in the
// same render, not the next one, and says it no longer once a render
// draws it. The fault is made by the test: the board's element refuses to
// be cleared, which the drawing does first.
func testDrawError(t *testing.T, browser context.Context) {
	d := startDaemon(t)
	p := openPage(t, browser, "http://"+d.httpAddr+"/")
	p.setSelect("player-white", "human")
	p.setSelect("player-black", "human")
	p.click("#new-game")
	p.waitFor(settledJS(0) + ` && document.getElementById('status').dataset.state === 'NotStarted'`)
	// Each click on a piece in hand selects it, or lets it go, and renders
	// the page once, at once: what the message says is read right after.
	var shown struct{ Before, During, After string }
	p.eval(`(() => {
  const board = document.getElementById('board'), msg = document.getElementById('message');
  const said = () => (msg.hidden ? '' : msg.textContent);
  const before = said();
  board.replaceChildren = () => { throw new Error('a fault of the test'); };
  document.querySelector('.hand-piece:not(:disabled)').click();
  const during = said();
  delete board.replaceChildren;
  document.querySelector('.hand-piece.selected').click();
  return { Before: before, During: during, After: said() };
})()`, &shown)
	if shown.Before != "" || !strings.Contains(shown.During, "a fault of the test") || shown.After != "" {
		t.Errorf("around a render that cannot draw the board the page says %+v; want nothing, the fault, nothing", shown)
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
			gs := uhptest.MustDescribe(t, g)
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
	e := uhp.NewSession(uhp.Config{ID: "bare reporter", Expansions: core.AllExpansions, Searcher: bareReporter{translate.SearcherOf(native)}})
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

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// The browser tests of the archive: the Games dialog, its filters, and the
// replay of an archived game.

// archivedGame polls the daemon's archive until it lists a game of the
// given number of plies, and returns it; the keeper writes moves as they
// are played, a moment after the session answers them.
func archivedGame(t *testing.T, d *testDaemon, plies int) archive.Game {
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
	playBetweenPeople(t, p, core.Base, 4)
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
	g := checkShows(t, v, v.LastGameString)
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

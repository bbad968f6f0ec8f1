package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/daemon"
)

// finishedGame is a whole game from the empty board, 37 plies, that
// Black wins by the rules.
const finishedGame = `Base;BlackWins;Black[19];wA1;bB1 wA1-;wB1 /wA1;bS1 bB1/;wQ -wB1;bA1 \bS1;wQ -wA1;bQ bS1-;wG1 /wQ;bA1 wB1\;wS1 -wQ;bG1 \bQ;wB2 -wS1;bA1 bQ-;wA2 \wS1;bB2 \bA1;wA3 -wA2;bG2 \bB2;wA2 -bG1;bG3 bG2/;wG2 \wQ;bG1 bG3/;wA3 bG3\;bA2 bS1\;wG3 -wB2;bA2 \bG1;wA2 -bG3;bA1 wA1\;wS2 wB2\;bA2 \wG2;wA1 /wS2;bS2 bG1-;wA1 \bA2;bA3 bB2\;wA1 wQ/;bA3 wS2\;wG3 wA1\`

// gameOf plays a GameString's moves from the empty board.
func gameOf(t *testing.T, gameString string) *core.Game {
	t.Helper()
	gs, err := uhp.ParseGameString(gameString)
	if err != nil {
		t.Fatal(err)
	}
	g := core.NewGame(gs.Type)
	for _, text := range gs.Moves {
		m, err := uhp.ParseMove(text, g)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	return g
}

// waitGames waits until the archive holds n games, none in progress.
func waitGames(t *testing.T, s archive.Store, n int) []archive.Game {
	t.Helper()
	var games []archive.Game
	waitForState(t, 10*time.Second, fmt.Sprintf("%d games archived, none in progress", n), func() (bool, string) {
		games = archivetest.AllGames(t, s)
		ended := len(games) == n && !slices.ContainsFunc(games, func(g archive.Game) bool { return g.Status == archive.Playing })
		return ended, fmt.Sprintf("%d games:\n%+v", len(games), games)
	})
	return games
}

// TestServeArchivesHubSessions: a Hub GUI's positions are one game while
// each extends the last (a takeback of the backend's answer and the GUI's
// move included), new-game ends it, a position of another game starts
// another, a set-up position is not kept, and a finished game sent whole
// is archived with its result.
func TestServeArchivesHubSessions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	d := startDaemon(t, "--db", db, "--hub", "127.0.0.1:0")
	backend := translate.NewNative().Info().ID + " (native)"
	conn, err := net.DialTimeout("tcp", d.hubAddr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))
	gui := hub.NewClient(conn, conn)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	send := func(line string) {
		t.Helper()
		if _, err := conn.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	search := func() string {
		t.Helper()
		send("level depth=1") // pos reset the level
		send("go think")
		m, err := gui.Await(ctx, "done", nil)
		if err != nil {
			t.Fatal(err)
		}
		return m.(hub.Done).Move
	}
	pos := func(moves ...string) {
		send(hub.Pos{Variant: core.Base, Moves: moves}.Line().String())
	}
	send("hub")
	if _, err := gui.Await(ctx, "wait", nil); err != nil {
		t.Fatal(err)
	}
	send("init")
	if _, err := gui.Await(ctx, "ready", nil); err != nil {
		t.Fatal(err)
	}
	// Game 1: the backend plays White.
	pos()
	m1 := search()
	pos(m1, "bA1 "+m1[:3]+"-")
	m2 := search()
	pos(m1) // the GUI takes back its move and the backend's answer
	pos(m1, "bG1 "+m1[:3]+"-")
	send("new-game")
	// Game 2: a GUI starts another game with two moves of its own, then
	// sends a set-up position, which ends it.
	pos("wS1", "bS1 wS1-")
	g := gameOf(t, "Base;InProgress;White[2];wS1;bS1 wS1-")
	send(hub.PosOf(g).Line().String()) // the same position, written again
	send("pos variant=Base board=0,0:wS1;1,0:bS1 turn=White[2]")
	// Game 3: a finished game sent whole.
	done := gameOf(t, finishedGame)
	send(hub.PosOf(done).Line().String())
	send("ping")
	if _, err := gui.Await(ctx, "pong", nil); err != nil {
		t.Fatal(err)
	}
	send("quit")

	games := waitGames(t, archivetest.Read(t, db), 3)
	first, second, third := games[0], games[1], games[2]
	want := m1 + "/" + backend + ", bG1 " + m1[:3] + "-/" + daemon.HubGUI
	if first.Source != "hub-tcp" || archivetest.MoveTexts(first) != want || first.White != backend || first.Black != daemon.HubGUI ||
		first.How != "abandoned" || first.Status != archive.Finished || first.GameString != "Base;InProgress;White[2];"+m1+";bG1 "+m1[:3]+"-" {
		t.Errorf("the first game: %+v, moves %s; want %s (the backend's %s taken back)", first, archivetest.MoveTexts(first), want, m2)
	}
	if archivetest.MoveTexts(second) != "wS1/"+daemon.HubGUI+", bS1 wS1-/"+daemon.HubGUI || second.White != daemon.HubGUI || second.Black != daemon.HubGUI || second.How != "abandoned" {
		t.Errorf("the second game: %+v, moves %s", second, archivetest.MoveTexts(second))
	}
	if third.GameString != finishedGame || third.Result != "BlackWins" || third.How != "state" || third.Plies != 37 {
		t.Errorf("the finished game: %+v", third)
	}
}

// TestServeArchivesJSONSessions: a Choose-Turn controller's requests are
// one game for each game_id while each state's turn_history extends the
// last; the module's answers are the backend's, the others the
// controller's, and a game ends by the rules or when the connection does.
func TestServeArchivesJSONSessions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	d := startDaemon(t, "--db", db, "--hivejson", "127.0.0.1:0")
	backend := translate.NewNative().Info().ID + " (native)"
	conn, err := net.DialTimeout("tcp", d.jsonAddr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	client := hivejson.NewClient(conn, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := client.Greet(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	ask := func(gameID string, g *core.Game) *core.Game {
		t.Helper()
		req, err := hivejson.NewChooseTurnRequest("r", gameID, time.Now().UnixMilli(), g)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(500 * time.Millisecond).UnixMilli()
		req.ResponseDeadline = &deadline
		resp, err := client.ChooseTurn(ctx, &req)
		if g.Over() && errors.Is(err, hivejson.ErrPeerError) {
			return g // a game over has no turn to choose
		}
		if err != nil {
			t.Fatal(err)
		}
		m, err := hivejson.MoveOf(resp.Turn, g)
		if err != nil {
			t.Fatal(err)
		}
		after := g.Clone()
		after.Play(m)
		return after
	}
	// Game "a": the controller plays White, the module Black, two turns
	// each; game "b", on the same connection, is sent finished.
	a := gameOf(t, "Base;InProgress;Black[1];wS1")
	a = ask("a", a)
	white := a.Clone()
	var l core.MoveList
	white.GenerateMoves(&l)
	white.Play(l.At(0))
	a = ask("a", white)
	ask("b", gameOf(t, finishedGame))
	conn.Close()

	games := waitGames(t, archivetest.Read(t, db), 2)
	var ga, gb archive.Game
	for _, g := range games {
		if g.Plies == 37 {
			gb = g
		} else {
			ga = g
		}
	}
	gs, _ := uhp.Describe(a)
	var want []string
	for i, text := range gs.Moves {
		by := daemon.JSONController
		if i%2 == 1 {
			by = backend
		}
		want = append(want, text+"/"+by)
	}
	if ga.Source != "hivejson" || archivetest.MoveTexts(ga) != strings.Join(want, ", ") || ga.White != daemon.JSONController || ga.Black != backend ||
		ga.How != "disconnect" || ga.GameString != gs.String() {
		t.Errorf("game a: %+v, moves %s; want %s", ga, archivetest.MoveTexts(ga), strings.Join(want, ", "))
	}
	if gb.GameString != finishedGame || gb.Result != "BlackWins" || gb.How != "state" || gb.White != daemon.JSONController {
		t.Errorf("game b: %+v", gb)
	}
}

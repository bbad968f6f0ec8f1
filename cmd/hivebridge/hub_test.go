package main

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// TestHubBackendWholeGames plays whole games through hivebridge in front
// of a Hub engine (hivebridge uhp --backend "hub:hivebridge hub"): every
// move the Hub engine chooses crosses Hub and UHP and is checked against an
// independent copy of the game, as are validmoves and every GameString.
func TestHubBackendWholeGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	viewer := hivebridge(t, "uhp", "--backend", "hub:"+os.Args[0]+" hub", "--engine-option", "hash=8")
	if id := do(t, viewer, "info")[0]; id != "id hivebridge v"+version+" via hivebridge "+version {
		t.Fatalf("info = %q", id)
	}
	rng := rand.New(rand.NewPCG(7, 1))
	ended := 0
	for game := range 4 {
		// Both kinds of bestmove: depth= and move-time= levels.
		if playWholeGame(t, viewer, rng, game, func(ply int) string {
			if ply%3 == 0 {
				return "bestmove time 00:00:00.05"
			}
			return "bestmove depth 2"
		}) {
			ended++
		}
	}
	checkSomeEnded(t, ended)
}

// gui is a scripted Hub GUI on a hivebridge hub process.
type gui struct {
	t *testing.T
	c *hub.Client
}

// send sends commands, each a Hub line.
func (g gui) send(lines ...string) {
	g.t.Helper()
	for _, l := range lines {
		m, err := hub.ReadCommand(l)
		if err != nil {
			g.t.Fatalf("%q: %v", l, err)
		}
		if err := g.c.Send(m); err != nil {
			g.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// await reads answers up to the first of command want within d, and
// returns it with the answers before it.
func (g gui) await(want string, d time.Duration) (hub.Message, []hub.Answer) {
	g.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var before []hub.Answer
	m, err := g.c.Await(ctx, want, func(a hub.Answer) { before = append(before, a) })
	if err != nil {
		g.t.Fatalf("awaiting %s: %v (after %q)", want, err, before)
	}
	for _, a := range before {
		if a.Err != nil || a.Message.Line().Command == hub.CmdError {
			g.t.Fatalf("awaiting %s: %q", want, a.Text)
		}
	}
	return m, before
}

// TestHubFrontEndScriptedGUI drives hivebridge hub in front of a UHP
// engine (hivebridge hub --backend "uhp:hivebridge uhp") as a Hub GUI
// would: the handshake, a parameter of the UHP engine, then a game played
// to its end with every level form, and searches stopped in the middle,
// whose done must come at once although a UHP engine cannot be
// interrupted.
func TestHubFrontEndScriptedGUI(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game")
	}
	stdin, stdout := runMain(t, "hub", "--backend", "uhp:"+os.Args[0]+" uhp")
	g := gui{t: t, c: hub.NewClient(stdout, stdin)}
	g.send("hub")
	var params []string
	_, before := g.await(hub.CmdWait, 10*time.Second)
	for _, a := range before {
		if p, ok := a.Message.(hub.Param); ok {
			params = append(params, p.Name)
		}
	}
	if got := strings.Join(params, " "); got != "variant ponder DefaultBestMoveTime RepetitionDraw ReportIntermediateBestMoves threads hash eval multipv" {
		t.Fatalf("params %s", got)
	}
	g.send("set-param name=variant value=Base+MLP", "set-param name=threads value=2", "init")
	g.await(hub.CmdReady, 10*time.Second)

	levels := []string{"level depth=2", "level move-time=0.05", "level moves=10 time=1", "level time=3 inc=0.02", "level nodes=20000"}
	game := core.NewGame(core.WithMosquito | core.WithLadybug | core.WithPillbug)
	g.send("new-game")
	for ply := 0; !game.Over() && ply < 400; ply++ {
		g.send(hub.PosOf(game).Line().String(), levels[ply%len(levels)], "go think")
		pinged := ply%50 == 7
		if pinged {
			g.send("ping") // during the search, or just after it
		}
		m, before := g.await(hub.CmdDone, 30*time.Second)
		if pinged && !slices.ContainsFunc(before, func(a hub.Answer) bool { return a.Text == "pong" }) {
			g.await(hub.CmdPong, 10*time.Second)
		}
		mv, err := m.(hub.Done).Best(game)
		if err != nil {
			t.Fatalf("ply %d: done %q: %v", ply, m.Line(), err)
		}
		game.Play(mv)
	}
	t.Logf("%d plies, %s", game.Ply(), uhp.StateOf(game))
	if !game.Over() {
		t.Errorf("the game did not end in 400 plies")
	}

	// Searches with no end, stopped: ping is answered during them, and
	// done comes at once after stop.
	mid := core.NewGame(core.WithPillbug)
	for _, m := range []string{"wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"} {
		mv, _ := hub.ReadMove(m, mid)
		mid.Play(mv)
	}
	for i, level := range []string{"level infinite", "level move-time=3600", "level time=3600"} {
		mode := []string{"go think", "go analyze", "go ponder"}[i]
		g.send(hub.PosOf(mid).Line().String(), level, mode, "ping")
		_, before := g.await(hub.CmdPong, 10*time.Second)
		// The search is under way in the engine once it has reported.
		if !slices.ContainsFunc(before, func(a hub.Answer) bool { return a.Message.Line().Command == hub.CmdInfo }) {
			g.await(hub.CmdInfo, 10*time.Second)
		}
		start := time.Now()
		g.send("stop")
		m, _ := g.await(hub.CmdDone, 10*time.Second)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s, %s: done %v after stop", level, mode, took)
		}
		if _, err := m.(hub.Done).Best(mid); err != nil {
			t.Errorf("%s, %s: done %q: %v", level, mode, m.Line(), err)
		}
	}
	// The next search goes on as usual, the stopped ones discarded.
	g.send(hub.PosOf(mid).Line().String(), "level depth=1", "go think")
	m, _ := g.await(hub.CmdDone, 10*time.Second)
	if _, err := m.(hub.Done).Best(mid); err != nil {
		t.Errorf("done %q after the stopped searches: %v", m.Line(), err)
	}
	g.send("ping")
	g.await(hub.CmdPong, 10*time.Second)
	g.send("quit")
}

package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// The position logic unit-tested directly: a front end that sends whole
// positions (a Hub GUI's pos, a Choose-Turn game_state) is turned into the
// moves, undos and new games of the archive, without a daemon.

// positionTest is a positionLog on an archive of its own.
type positionTest struct {
	t     *testing.T
	log   *positionLog
	store archive.Store
	keep  *archive.Keeper
}

func newPositionTest(t *testing.T) *positionTest {
	t.Helper()
	store, err := archive.Open(context.Background(), filepath.Join(t.TempDir(), "games.db"), "serve")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	k := archive.NewKeeper(store, archive.KeeperConfig{Log: zerolog.Nop()})
	return &positionTest{t: t, store: store, keep: k, log: &positionLog{
		keeper: k, source: "hub-tcp", backend: "engine", other: HubGUI,
		drained: func() bool { return false }, gameType: core.Base,
	}}
}

// pos sends the position after a GameString's moves.
func (p *positionTest) pos(gameString string) { p.log.position(uhptest.Load(p.t, gameString)) }

// games closes the log (the session ends), writes everything, and returns
// the archive's games, oldest first, each as its moves "text/by" and how
// it ended.
func (p *positionTest) games() []string {
	p.log.closed()
	p.log.settle()
	p.keep.Close()
	var out []string
	for _, g := range archivetest.AllGames(p.t, p.store) {
		out = append(out, archivetest.MoveTexts(g)+" | "+g.How+" "+g.Result)
	}
	return out
}

func TestPositionsExtendTheGame(t *testing.T) {
	p := newPositionTest(t)
	p.pos("Base;InProgress;White[1]")
	p.pos("Base;InProgress;Black[1];wS1")
	g := uhptest.Load(t, "Base;InProgress;Black[1];wS1")
	m := parseMove(t, g, "bS1 -wS1")
	p.log.answered(g, m)
	p.pos("Base;InProgress;Black[2];wS1;bS1 -wS1;wQ wS1/")
	want := []string{"wS1/Hub GUI, bS1 -wS1/engine, wQ wS1//Hub GUI | disconnect "}
	if got := p.games(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("games\n%q\nwant\n%q", got, want)
	}
}

func TestPositionsTakeBack(t *testing.T) {
	p := newPositionTest(t)
	p.pos("Base;InProgress;White[3];wS1;bS1 -wS1;wQ wS1/;bQ /bS1")
	// A prefix of the game: an undo of two plies.
	p.pos("Base;InProgress;White[2];wS1;bS1 -wS1")
	// A prefix and one other move: a pondered move not played.
	p.pos("Base;InProgress;Black[2];wS1;bS1 -wS1;wA1 wS1/")
	games := p.games()
	if len(games) != 1 || games[0] != "wS1/Hub GUI, bS1 -wS1/Hub GUI, wA1 wS1//Hub GUI | disconnect " {
		t.Errorf("games %q, want one game with the last move taken back and another played", games)
	}
}

func TestPositionsOtherGame(t *testing.T) {
	p := newPositionTest(t)
	p.pos("Base;InProgress;White[3];wS1;bS1 -wS1;wQ wS1/;bQ /bS1")
	// More than one turn taken back and other moves: another game.
	p.pos("Base;InProgress;White[2];wA1;bA1 -wA1")
	// Another game type: another game.
	p.pos("Base+M;InProgress;Black[1];wM")
	p.log.newGame() // a Hub new-game
	games := p.games()
	want := []string{
		"wS1/Hub GUI, bS1 -wS1/Hub GUI, wQ wS1//Hub GUI, bQ /bS1/Hub GUI | abandoned ",
		"wA1/Hub GUI, bA1 -wA1/Hub GUI | abandoned ",
		"wM/Hub GUI | abandoned ",
	}
	if strings.Join(games, "\n") != strings.Join(want, "\n") {
		t.Errorf("games\n%q\nwant\n%q", games, want)
	}
}

func TestPositionsGameOver(t *testing.T) {
	p := newPositionTest(t)
	p.pos(finishedGame)
	// A position after the end is another game.
	p.pos("Base;InProgress;Black[1];wS1")
	games := p.games()
	if len(games) != 2 || !strings.HasSuffix(games[0], "| state BlackWins") || games[1] != "wS1/Hub GUI | disconnect " {
		t.Errorf("games %q, want the finished game ended by the rules, then another", games)
	}
}

// finishedGame is a whole game from the empty board, 37 plies, that
// Black wins by the rules.
const finishedGame = `Base;BlackWins;Black[19];wA1;bB1 wA1-;wB1 /wA1;bS1 bB1/;wQ -wB1;bA1 \bS1;wQ -wA1;bQ bS1-;wG1 /wQ;bA1 wB1\;wS1 -wQ;bG1 \bQ;wB2 -wS1;bA1 bQ-;wA2 \wS1;bB2 \bA1;wA3 -wA2;bG2 \bB2;wA2 -bG1;bG3 bG2/;wG2 \wQ;bG1 bG3/;wA3 bG3\;bA2 bS1\;wG3 -wB2;bA2 \bG1;wA2 -bG3;bA1 wA1\;wS2 wB2\;bA2 \wG2;wA1 /wS2;bS2 bG1-;wA1 \bA2;bA3 bB2\;wA1 wQ/;bA3 wS2\;wG3 wA1\`

// parseMove reads a MoveString in g.
func parseMove(t *testing.T, g *core.Game, text string) core.Move {
	t.Helper()
	m, err := uhp.ParseMove(text, g)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

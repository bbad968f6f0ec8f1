package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// pairingDaemons starts two daemons on the archive db that pair viewers
// through it, with the flags of more besides.
func pairingDaemons(t *testing.T, db string, more ...string) (one, two *testDaemon) {
	t.Helper()
	args := append([]string{"--db", db, "--pair-viewers", "--pair-wait", "10s"}, more...)
	return startDaemon(t, args...), startDaemon(t, args...)
}

// TestTwoDaemonsPairViewers: two daemons on one PostgreSQL archive pair a
// viewer on each, relay their moves through PostgreSQL through a whole
// game (random moves until the rules end it, or a forfeit at ply 120),
// and archive it once.
func TestTwoDaemonsPairViewers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	pg := pgtest.Start(t)
	one, two := pairingDaemons(t, pg.URL)
	white, black := pairViewers(t, one.uhpAddr, two.uhpAddr, "newgame remote Base White")
	if got := white.answer(t); len(got) != 1 || got[0] != "Base;NotStarted;White[1]" {
		t.Fatalf("white's newgame: %q", got)
	}
	// White moves first: its play returns once Black has replied.
	rng := rand.New(rand.NewPCG(7, 7))
	pick := func(s *tcpSession) string {
		moves := strings.Split(s.do(t, "validmoves")[0], ";")
		return moves[rng.IntN(len(moves))]
	}
	first := pick(white)
	fmt.Fprintln(white.conn, "play "+first)
	got := black.answer(t) // black's newgame, holding white's first move
	if len(got) != 1 || got[0] != "Base;InProgress;Black[1];"+first {
		t.Fatalf("black's newgame: %q", got)
	}
	last := got[0]
	for ply := 1; strings.Contains(last, ";InProgress;") && ply < 120; ply += 2 {
		move := pick(black)
		fmt.Fprintln(black.conn, "play "+move)
		whiteSaw := white.answer(t) // white's play: its move's GameString, black's move, the GameString after
		if len(whiteSaw) != 3 || whiteSaw[1] != move {
			t.Fatalf("ply %d: white's play answered %q, black played %s", ply, whiteSaw, move)
		}
		last = whiteSaw[2]
		if !strings.Contains(last, ";InProgress;") {
			// Black's move ended the game: its own play is answered
			// with the same final GameString that White saw.
			if got = black.answer(t); len(got) == 0 || got[len(got)-1] != last {
				t.Fatalf("ply %d: black's game-ending play answered %q, white saw %q", ply, got, last)
			}
			break
		}
		move = pick(white)
		fmt.Fprintln(white.conn, "play "+move)
		blackSaw := black.answer(t)
		if len(blackSaw) < 2 || blackSaw[1] != move {
			t.Fatalf("ply %d: black's play answered %q, white played %s", ply+1, blackSaw, move)
		}
		last = blackSaw[len(blackSaw)-1]
	}
	if strings.Contains(last, ";InProgress;") {
		fmt.Fprintln(black.conn, "play forfeit enough")
		last = black.answer(t)[0]
		white.answer(t) // white's play, answered with the forfeit
	}
	white.kept(t) // White's session keeps the game (its end maybe in the journal)
	games := endedGames(t, pg.URL, 1)
	g := games[0]
	if g.GameString != last || g.White != archive.Viewer || g.Black != "paired viewer" || g.Status != archive.Finished || g.Result == "" {
		t.Errorf("archived %+v; the game ended %s", g, last)
	}
	if want := strings.Count(last, ";") - 2; len(g.Moves) != want {
		t.Errorf("%d moves archived, want %d", len(g.Moves), want)
	}
	t.Logf("%d plies, %s (%s)", len(g.Moves), g.How, g.Reason)
}

// TestTwoDaemonsMoveDeadline: across daemons, a paired player who does not
// move within --move-wait forfeits on time, as on one daemon, and the
// archive says so.
func TestTwoDaemonsMoveDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	pg := pgtest.Start(t)
	one, two := pairingDaemons(t, pg.URL, "--move-wait", "500ms")
	white, black := pairViewers(t, one.uhpAddr, two.uhpAddr, "newgame remote Base White")
	white.answer(t)
	fmt.Fprintln(white.conn, "play wS1")
	black.answer(t) // black's newgame; black then thinks too long
	got := white.answer(t)
	if len(got) != 3 || got[1] != "Base;WhiteWins;Black[1];wS1" || !strings.Contains(got[2], "Black did not move within 500ms") {
		t.Fatalf("white's play: %q", got)
	}
	white.kept(t) // White's session keeps the game (its end maybe in the journal)
	games := endedGames(t, pg.URL, 1)
	if games[0].How != "timeout" || games[0].Result != "WhiteWins" {
		t.Errorf("%+v, want one game won by White on time", games)
	}
}

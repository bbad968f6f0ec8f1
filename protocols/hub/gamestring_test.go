package hub_test

import (
	"slices"
	"testing"

	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Hub reads and writes the GameString of game= without UHP's GameString
// codec (it may take only UHP's MoveString codec); what it reads and
// writes must still be UHP's, word for word, errors included.
func TestGameStringAgreesWithUHP(t *testing.T) {
	for _, g := range randomGames(t) {
		want := uhptest.MustDescribe(t, g)
		got, err := hub.GamePosOf(g).GameString()
		if err != nil || got != want.String() {
			t.Fatalf("GamePosOf(g).GameString() = %q, %v; uhp.Describe says %q", got, err, want)
		}
		if p := hub.PosOf(g); p.Variant != want.Type || !slices.Equal(p.Moves, want.Moves) {
			t.Fatalf("PosOf(g) = %#v; uhp.Describe says %q", p, want)
		}
	}
	for _, s := range []string{
		"Base;NotStarted;White[1]",
		"base+plm;inprogress;black[1];wS1",
		" Base+M ; Draw ;White[2];wS1; bS1   wS1- ",
		"Base;WhiteWins;Black[9];wS1;bS1 wS1-",
		"Base;BlackWins;White[3]",
		"Base;NotStarted",
		"Chess;NotStarted;White[1]",
		"Base+;NotStarted;White[1]",
		"Base+MM;NotStarted;White[1]",
		"Base;Nowhere;White[1]",
		"Base;NotStarted;Red[1]",
		"Base;NotStarted;White[0]",
		"Base;NotStarted;White[01]",
		"Base;InProgress;White[2];wS1;;bS1 wS1-",
		"Base;InProgress;White[2];wS1;",
		"Baſe;NotStarted;White[1]",
	} {
		want, uhpErr := uhp.ParseGameString(s)
		p, err := hub.ParsePos(hub.NewLine(hub.CmdPos, hub.Pair("game", s)))
		switch {
		case uhpErr != nil:
			if err == nil || err.Error() != "pos: game=: "+uhpErr.Error() {
				t.Errorf("game=%q: %v; uhp.ParseGameString says %v", s, err, uhpErr)
			}
		case err != nil:
			t.Errorf("game=%q: %v; uhp.ParseGameString reads it", s, err)
		default:
			text, _ := p.GameString()
			if p.Variant != want.Type || p.Turn != want.Turn || !slices.Equal(p.Moves, want.Moves) || text != want.String() {
				t.Errorf("game=%q reads as %#v, written %q; uhp.ParseGameString reads %#v, written %q", s, p, text, want, want.String())
			}
		}
	}
	// The states, as GamePosOf gives them, are UHP's: one type, core's,
	// whose names both protocols write.
	var _ uhp.GameState = hub.Pos{}.State
}

package dataset

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// gameString describes g as a match --out line's first field.
func gameString(t *testing.T, g *core.Game) string {
	t.Helper()
	gs, err := uhp.Describe(g)
	if err != nil {
		t.Fatal(err)
	}
	return gs.String()
}

// TestDatasetMatchReader reads a match --out file with comments, a void
// game and a last line still being written.
func TestDatasetMatchReader(t *testing.T) {
	a := randomGame(core.AllExpansions, 1, 40)
	b := randomGame(core.Base, 2, 30)
	c := randomGame(core.AllExpansions, 3, 20)
	text := "# a comment\n\n" +
		gameString(t, a) + "\tBlackWins\twhite queen surrounded\tgame=4\twhite=A\tevals=\n" +
		gameString(t, c) + "\tVoid\trules disagreement\tgame=5\twhite=B\n" +
		gameString(t, b) + "\tDraw\tmove cap\n" + // no game=N: its place in the file
		gameString(t, c) + "\tWhiteWins\twhite" // cut off
	mr := NewMatchReader(strings.NewReader(text))
	for i, want := range []struct {
		number int
		game   *core.Game
		result core.Result
	}{{4, a, core.BlackWins}, {2, b, core.Draw}} {
		s, err := mr.Next()
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if s.Number != want.number || s.Result != want.result || !slices.Equal(s.Game.History(), want.game.History()) {
			t.Errorf("game %d: number %d, result %v, %d moves; want %d, %v, %d moves", i, s.Number, s.Result,
				len(s.Game.History()), want.number, want.result, len(want.game.History()))
		}
	}
	if _, err := mr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("the cut line read as a game: %v", err)
	}
}

// TestDatasetMatchReaderRefuses checks that a bad line is an error that
// names it.
func TestDatasetMatchReaderRefuses(t *testing.T) {
	good := gameString(t, randomGame(core.AllExpansions, 1, 10))
	for want, line := range map[string]string{
		`result "Won"`:    good + "\tWon\n",
		"not a match":     good + "\n",
		`game number "x"`: good + "\tDraw\tx\tgame=x\n",
		"GameString":      "Base+MLP;InProgress\tDraw\n",
		"move":            "Base+MLP;InProgress;White[2];wQ;bQ wQ-;wQ bQ\tDraw\n",
	} {
		mr := NewMatchReader(strings.NewReader(good + "\tDraw\n" + line))
		if _, err := mr.Next(); err != nil {
			t.Fatal(err)
		}
		_, err := mr.Next()
		if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
			t.Errorf("%q: error %v, want it to name line 2 and say %q", line, err, want)
		}
	}
}

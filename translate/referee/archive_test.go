package referee_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// TestMatchArchive: every game of a match is archived as the referee
// played it, the opening's moves included, each engine named by its id
// and spec, with the verdict and how it came (a forfeit here).
func TestMatchArchive(t *testing.T) {
	ctx := context.Background()
	store, err := archive.Open(ctx, filepath.Join(t.TempDir(), "games.db"), "match")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	illegal := fakeengine.Spec(t, "always-illegal")
	cfg := matchConfig(t, "native", illegal, 2, "depth=1")
	cfg.RandomPlies = 2
	cfg.Archive = archive.NewKeeper(store, archive.KeeperConfig{})
	res, err := referee.Run(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A game's end is written in the background: closing the keeper
	// writes what it still holds.
	cfg.Archive.Close()
	list, total, err := store.List(ctx, archive.Filter{Page: 1, PerPage: 10})
	if err != nil || total != 2 {
		t.Fatalf("%d games archived (%v), want 2", total, err)
	}
	byString := map[string]archive.Game{}
	for _, g := range list {
		full, err := store.Get(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		byString[g.GameString] = full
	}
	for _, r := range res.Games {
		g, ok := byString[r.GameString]
		if !ok {
			t.Errorf("game %d (%s) is not in the archive", r.Index, r.GameString)
			continue
		}
		native, fake := "hivebridge native (native)", " ("+illegal+")"
		white, black := g.White, g.Black
		if !r.AWhite {
			white, black = black, white
		}
		if white != native || !strings.HasSuffix(black, fake) || g.Source != "match" || g.Status != archive.Finished ||
			g.How != "forfeit" || g.Reason != r.Reason || g.Plies != r.Plies {
			t.Errorf("game %d archived as %+v; the referee's record %+v", r.Index, g, r)
		}
		want := []string{"", "Draw", "WhiteWins", "BlackWins"}[r.Result] // core.Result's order
		if g.Result != want {
			t.Errorf("game %d: result %q, want %q", r.Index, g.Result, want)
		}
		for i, m := range g.Moves {
			if by := map[bool]string{true: "opening", false: native}[i < 2]; m.By != by {
				t.Errorf("game %d move %d by %q, want %q", r.Index, i, m.By, by)
			}
		}
	}
}

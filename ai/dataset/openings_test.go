package dataset

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// fixedOpenings reads the strength workflow's openings, which the data
// pipeline extends.
func fixedOpenings(t *testing.T) []uhp.GameString {
	t.Helper()
	data, err := os.ReadFile("../../testdata/openings-mlp.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []uhp.GameString
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		gs, err := uhp.ParseGameString(line)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, gs)
	}
	return out
}

// TestDatasetExtendOpenings checks that each opening gains exactly its
// random plies, legal and leaving the game going, the same for a seed and
// different for another.
func TestDatasetExtendOpenings(t *testing.T) {
	base := fixedOpenings(t)
	a, err := ExtendOpenings(base, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := ExtendOpenings(base, 2, 5)
	other, _ := ExtendOpenings(base, 2, 6)
	differ := 0
	for i := range base {
		g, err := a[i].Load()
		if err != nil {
			t.Fatalf("opening %d extended: %v", i, err)
		}
		if g.Over() || !slices.Equal(a[i].Moves[:len(base[i].Moves)], base[i].Moves) || len(a[i].Moves) != len(base[i].Moves)+2 {
			t.Errorf("opening %d: %s from %s", i, a[i], base[i])
		}
		if again[i].String() != a[i].String() {
			t.Errorf("opening %d: seed 5 gave %s, then %s", i, a[i], again[i])
		}
		if other[i].String() != a[i].String() {
			differ++
		}
	}
	if differ < len(base)*9/10 {
		t.Errorf("seeds 5 and 6 differ on %d of %d openings", differ, len(base))
	}
	g := randomGame(core.Base, 0, 400)
	for seed := uint64(1); !g.Over(); seed++ {
		g = randomGame(core.Base, seed, 400)
	}
	over, err := uhp.Describe(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ExtendOpenings([]uhp.GameString{over}, 2, 1); err == nil {
		t.Error("a finished game extended")
	}
}

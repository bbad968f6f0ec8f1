package referee_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/translate/referee"
)

// TestTournamentRoundRobin: three engines (the native searcher at depth 3,
// 2 and 1) meet each other once each, two games a pairing from one
// opening; every pairing's match is a match of its two entrants, and the
// ratings are one fit over the six games, from which the depth-3 engine,
// which cannot do worse than the others at that depth, comes out no
// lower than the depth-1 one.
func TestTournamentRoundRobin(t *testing.T) {
	base := matchConfig(t, "native", "native", 2, "depth=1")
	base.RandomPlies, base.MaxPlies = 2, 60
	d3, d2 := *tc(t, "depth=3"), *tc(t, "depth=2")
	tour := referee.Tournament{
		Entrants: []referee.Entrant{{Name: "deep", Spec: "native", TC: &d3}, {Name: "mid", Spec: "native", TC: &d2}, {Name: "shallow", Spec: "native"}},
		Match:    base,
	}
	if got := tour.Pairings(); len(got) != 3 || got[0] != (referee.Pairing{A: 0, B: 1}) || got[2] != (referee.Pairing{A: 1, B: 2}) {
		t.Fatalf("round-robin pairings %v", got)
	}
	var seen int
	res, err := referee.RunTournament(context.Background(), tour, func(p referee.TournamentProgress) {
		seen++
		if p.Pairings != 3 || p.Total != 2 {
			t.Errorf("progress %+v", p)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 6 || len(res.Pairings) != 3 || res.Stopped != "" {
		t.Fatalf("%d games reported, %d pairings played, stopped %q", seen, len(res.Pairings), res.Stopped)
	}
	games := map[string]int{}
	for _, pr := range res.Pairings {
		checkRecords(t, pr.Result, 2)
		games[tour.Entrants[pr.A].Name] += len(pr.Result.Games)
		games[tour.Entrants[pr.B].Name] += len(pr.Result.Games)
	}
	if len(res.Ratings) != 3 {
		t.Fatalf("ratings %+v", res.Ratings)
	}
	elo := map[string]float64{}
	for _, r := range res.Ratings {
		if r.Games != games[r.Player] {
			t.Errorf("%s rated on %d games, played %d", r.Player, r.Games, games[r.Player])
		}
		elo[r.Player] = r.Elo
	}
	if math.IsNaN(elo["deep"]) || elo["deep"] < elo["shallow"] {
		t.Errorf("ratings %+v: depth 3 below depth 1", res.Ratings)
	}
}

// TestTournamentGauntletAndRefusals: a gauntlet pairs the first engine
// with each other; a tournament refuses an SPRT, one engine, and two
// engines of one name.
func TestTournamentGauntletAndRefusals(t *testing.T) {
	four := []referee.Entrant{{Name: "new", Spec: "native"}, {Name: "a", Spec: "native"}, {Name: "b", Spec: "native"}, {Name: "c", Spec: "native"}}
	got := referee.Tournament{Entrants: four, Format: referee.Gauntlet}.Pairings()
	if len(got) != 3 || got[0] != (referee.Pairing{A: 0, B: 1}) || got[2] != (referee.Pairing{A: 0, B: 3}) {
		t.Errorf("gauntlet pairings %v", got)
	}
	if f, err := referee.ParseFormat("Gauntlet"); err != nil || f != referee.Gauntlet {
		t.Errorf("ParseFormat(Gauntlet) = %v, %v", f, err)
	}
	base := matchConfig(t, "native", "native", 2, "depth=1")
	sprt, _ := referee.ParseSPRT("0,10")
	withSPRT := base
	withSPRT.SPRT = &sprt
	for _, c := range []struct {
		tour referee.Tournament
		want string
	}{
		{referee.Tournament{Entrants: four[:1], Match: base}, "at least two engines"},
		{referee.Tournament{Entrants: four, Match: withSPRT}, "takes none"},
		{referee.Tournament{Entrants: []referee.Entrant{{Name: "x", Spec: "native"}, {Name: "x", Spec: "native"}}, Match: base}, `two engines are named "x"`},
	} {
		if _, err := referee.RunTournament(context.Background(), c.tour, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RunTournament: %v, want an error saying %q", err, c.want)
		}
	}
}

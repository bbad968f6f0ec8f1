package referee_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
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

// TestRunResumed: the games an earlier run finished are counted first and
// not played again; when they decide the SPRT already, nothing is played;
// a game beyond the match, or one given twice, is refused.
func TestRunResumed(t *testing.T) {
	cfg := matchConfig(t, "native", "native", 6, "depth=1")
	cfg.RandomPlies, cfg.MaxPlies = 2, 40
	first, err := referee.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Resumed = first.Games[:4]
	var played []int
	again, err := referee.Run(context.Background(), cfg, func(p referee.Progress) { played = append(played, p.Game.Index) })
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Games) != 6 || again.Stats != first.Stats || len(played) != 2 || played[0] < 4 || played[1] < 4 {
		t.Errorf("resumed after 4 games: %d games, stats %+v (first run %+v), played %v", len(again.Games), again.Stats, first.Stats, played)
	}
	// An SPRT that the resumed games decide: H0 of 0..400 after pairs
	// that split evenly.
	sprt, _ := referee.ParseSPRT("0,400")
	cfg.SPRT = &sprt
	cfg.Resumed = nil
	for i := range 4 {
		g := first.Games[0]
		g.Index, g.AWhite = i, i%2 == 0
		g.Result = core.WhiteWins // A wins as White, loses as Black: every pair WL
		cfg.Resumed = append(cfg.Resumed, g)
	}
	played = nil
	decided, err := referee.Run(context.Background(), cfg, func(p referee.Progress) { played = append(played, p.Game.Index) })
	if err != nil || decided.SPRT.Verdict != referee.SPRTH0 || len(played) != 0 || decided.Stopped != "SPRT: H0 accepted" {
		t.Errorf("resumed games deciding the SPRT: %v, stopped %q, played %v, SPRT %+v", err, decided.Stopped, played, decided.SPRT)
	}
	cfg.SPRT = nil
	for _, bad := range [][]referee.GameRecord{{{Index: 6}}, {{Index: 1}, {Index: 1}}} {
		cfg.Resumed = bad
		if _, err := referee.Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "resumed game") {
			t.Errorf("resumed %+v: %v", bad, err)
		}
	}
}

package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/translate/archive"
)

// A tournament plays a match for each pairing of its engines, as
// cutechess-cli's -tournament gauntlet and round-robin do, and rates every
// engine by one maximum-likelihood fit over all the games (the archive's
// Bradley–Terry fit, archive.Ratings) rather than match by match: an
// engine's rating draws on all its opponents at once.

// Entrant is one engine of a tournament.
type Entrant struct {
	// Name names the engine in the tables, the records and the archive;
	// each entrant's is its own.
	Name string
	// Spec is its backend, in the syntax of translate.Open; Options its
	// "Name=Value" engine options.
	Spec    string
	Options []string
	// TC, when not nil, is its own time control, in place of the
	// tournament's.
	TC *TimeControl
}

// Format is how a tournament pairs its entrants.
type Format int

// The formats.
const (
	// RoundRobin pairs every entrant with every other.
	RoundRobin Format = iota
	// Gauntlet pairs the first entrant with each of the others, as an
	// engine author tests a new version against a field.
	Gauntlet
)

func (f Format) String() string {
	if f == Gauntlet {
		return "gauntlet"
	}
	return "round-robin"
}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	for _, f := range []Format{RoundRobin, Gauntlet} {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown tournament format %q: want gauntlet or round-robin", s)
}

// Tournament is the engines, how they meet, and the match each pairing
// plays: Match's White, Black, their options and time controls are the
// pairing's own; everything else (the games a pairing, the openings, the
// time control, concurrency, adjudication, the archive) is shared. A
// tournament takes no SPRT: a test is between two engines.
type Tournament struct {
	Entrants []Entrant
	Format   Format
	Match    Config
}

// Pairing is two entrants who play a match, by their index: A plays White
// in the match's even-numbered games.
type Pairing struct{ A, B int }

// Pairings lists the matches in the order they are played.
func (t Tournament) Pairings() []Pairing {
	var out []Pairing
	for a := range t.Entrants {
		for b := a + 1; b < len(t.Entrants); b++ {
			if t.Format == Gauntlet && a > 0 {
				return out
			}
			out = append(out, Pairing{a, b})
		}
	}
	return out
}

func (t Tournament) check() error {
	if len(t.Entrants) < 2 {
		return errors.New("a tournament needs at least two engines")
	}
	if t.Match.SPRT != nil {
		return errors.New("an SPRT tests two engines: a tournament takes none")
	}
	seen := map[string]bool{}
	for i, e := range t.Entrants {
		if e.Name == "" || e.Spec == "" {
			return fmt.Errorf("engine %d: a name and a spec are needed", i+1)
		}
		if seen[e.Name] {
			return fmt.Errorf("two engines are named %q: each needs a name of its own", e.Name)
		}
		seen[e.Name] = true
	}
	return nil
}

// MatchOf is the match of pairing p.
func (t Tournament) MatchOf(p Pairing) Config {
	cfg := t.Match
	a, b := t.Entrants[p.A], t.Entrants[p.B]
	cfg.White, cfg.Black = a.Spec, b.Spec
	cfg.WhiteOptions, cfg.BlackOptions = a.Options, b.Options
	cfg.WhiteTC, cfg.BlackTC = a.TC, b.TC
	cfg.WhiteName, cfg.BlackName = a.Name, b.Name
	return cfg
}

// PairingResult is one pairing's match.
type PairingResult struct {
	Pairing
	Result Result
}

// TournamentResult is what a tournament played: every pairing's match so
// far, and every engine's rating over all their games.
type TournamentResult struct {
	Pairings []PairingResult
	Ratings  []archive.Rating
	Stopped  string
	Elapsed  time.Duration
}

// TournamentProgress is a match's Progress within a tournament.
type TournamentProgress struct {
	Pairing  Pairing
	Index    int // the pairing's place in Pairings
	Pairings int
	Progress
}

// RunTournament plays the pairings one after the other, each a match of
// t.Match.Games games (Run), and rates the engines. progress, if not nil,
// is called after each game. It stops early when ctx ends, returning what
// was finished with ctx's error, or when a match stops for a refused
// command.
func RunTournament(ctx context.Context, t Tournament, progress func(TournamentProgress)) (TournamentResult, error) {
	start := time.Now()
	var res TournamentResult
	if err := t.check(); err != nil {
		return res, err
	}
	pairings := t.Pairings()
	for i, p := range pairings {
		cfg := t.MatchOf(p)
		var report func(Progress)
		if progress != nil {
			report = func(pr Progress) {
				progress(TournamentProgress{Pairing: p, Index: i, Pairings: len(pairings), Progress: pr})
			}
		}
		r, err := Run(ctx, cfg, report)
		res.Pairings = append(res.Pairings, PairingResult{p, r})
		if err == nil && r.Stopped != "" {
			res.Stopped = fmt.Sprintf("%s vs %s: %s", t.Entrants[p.A].Name, t.Entrants[p.B].Name, r.Stopped)
			break
		}
		if err != nil {
			res.Ratings, res.Elapsed = t.ratings(res.Pairings), time.Since(start)
			if len(r.Games) == 0 && ctx.Err() == nil {
				return res, fmt.Errorf("%s vs %s: %w", t.Entrants[p.A].Name, t.Entrants[p.B].Name, err)
			}
			res.Stopped = "interrupted"
			return res, err
		}
	}
	res.Ratings, res.Elapsed = t.ratings(res.Pairings), time.Since(start)
	return res, nil
}

// ratings fits every engine's Elo over all the scored games.
func (t Tournament) ratings(played []PairingResult) []archive.Rating {
	var outcomes []archive.Outcome
	for _, pr := range played {
		a, b := t.Entrants[pr.A].Name, t.Entrants[pr.B].Name
		for _, g := range pr.Result.Games {
			if g.Void() {
				continue
			}
			o := archive.Outcome{White: a, Black: b, Result: g.Result.String()}
			if !g.AWhite {
				o.White, o.Black = b, a
			}
			outcomes = append(outcomes, o)
		}
	}
	ratings := archive.Ratings(outcomes)
	// Every entrant has a row, one that played no game too.
	for _, e := range t.Entrants {
		found := false
		for _, r := range ratings {
			found = found || r.Player == e.Name
		}
		if !found {
			ratings = append(ratings, archive.Rating{Player: e.Name})
		}
	}
	return ratings
}

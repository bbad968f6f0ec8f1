package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// challenges accepts the challenges addressed to the account that its
// policy allows, while it has room for another game, and issues its own
// challenge when it is to. A challenge the policy refuses is left alone,
// and logged once.
func (a *account) challenges(ctx context.Context) error {
	var list []hivegame.Challenge
	err := a.request(ctx, "challenges", func(ctx context.Context) (err error) {
		list, err = a.client.Challenges(ctx)
		return err
	})
	if err != nil {
		return err
	}
	listed := map[string]bool{}
	own := map[string]bool{}
	for _, c := range list {
		a.learnNames(c.Challenger)
		if c.Opponent != nil {
			a.learnNames(*c.Opponent)
		}
		if c.IsOwn(a.me) {
			own[c.ChallengeID] = true
			continue
		}
		listed[c.ChallengeID] = true
		if len(a.games) >= a.cfg.Policy.MaxGames {
			continue // room for it once a game ends
		}
		if why := a.cfg.Policy.refuses(c); why != "" {
			if !a.judged[c.ChallengeID] {
				a.judged[c.ChallengeID] = true
				a.b.m.challenges.WithLabelValues(a.cfg.Name, "refused").Inc()
				a.log.Info().Str("challenge", c.ChallengeID).Str("challenger", c.Challenger.Username).Str("why", why).Msg("challenge left alone: outside the policy")
			}
			continue
		}
		if err := a.accept(ctx, c); err != nil {
			return err
		}
	}
	for id := range a.judged {
		if !listed[id] {
			delete(a.judged, id)
		}
	}
	gone := false
	for id := range a.ownOpen {
		gone = gone || !own[id]
	}
	a.ownOpen = own
	if gone {
		// Accepted, perhaps: its game is not listed where the account
		// is not to move, so the next poll lists them all before the
		// account challenges again.
		a.lastSweep = time.Time{}
		return nil
	}
	return a.issue(ctx, len(own))
}

// learnNames remembers a user's name, for the archive.
func (a *account) learnNames(u hivegame.UserResponse) {
	if u.UID != "" && u.Username != "" {
		a.names[strings.ToLower(u.UID)] = u.Username
	}
}

// accept accepts a challenge and takes up its game at once, so that it
// counts against MaxGames before the next poll. A challenge the site no
// longer lets the account accept (withdrawn, taken) is only logged.
func (a *account) accept(ctx context.Context, c hivegame.Challenge) error {
	var g hivegame.AcceptedGame
	err := a.request(ctx, "accept", func(ctx context.Context) (err error) {
		g, err = a.client.Accept(ctx, c.ChallengeID)
		return err
	})
	if refusal(err) {
		a.log.Info().Err(err).Str("challenge", c.ChallengeID).Msg("challenge not accepted")
		return nil
	}
	if err != nil {
		return err
	}
	a.b.m.challenges.WithLabelValues(a.cfg.Name, "accepted").Inc()
	a.learnNames(g.WhitePlayer)
	a.learnNames(g.BlackPlayer)
	a.log.Info().Str("challenge", c.ChallengeID).Str("challenger", c.Challenger.Username).Msg("challenge accepted")
	var row hivegame.Game
	if err := a.request(ctx, "game", func(ctx context.Context) (err error) {
		row, err = a.client.Game(ctx, g.GameID)
		return err
	}); err != nil {
		a.lastSweep = time.Time{} // the next poll lists it
		return nil
	}
	a.consider(ctx, row)
	return nil
}

// issue makes the account's own challenge when it has none open, plays
// fewer than Open games (and MaxGames), and has issued fewer than Total.
func (a *account) issue(ctx context.Context, open int) error {
	spec := a.cfg.Challenge
	if spec == nil || open > 0 || len(a.games) >= min(spec.Open, a.cfg.Policy.MaxGames) || (spec.Total > 0 && a.issued >= spec.Total) {
		return nil
	}
	t, _ := uhp.ParseGameType(spec.GameType) // checked by New
	req := hivegame.CreateChallengeRequest{
		// The variant's name, which every version of the site reads.
		GameType:    strings.TrimPrefix(t.Name(), "Base+"),
		Visibility:  hivegame.VisibilityPublic,
		ColorChoice: spec.Color,
		TimeControl: spec.Time,
		Rated:       spec.Rated,
	}
	if spec.Opponent != "" {
		req.Visibility, req.Opponent = hivegame.VisibilityDirect, spec.Opponent
	}
	var c hivegame.Challenge
	err := a.request(ctx, "challenge", func(ctx context.Context) (err error) {
		c, err = a.client.CreateChallenge(ctx, req)
		return err
	})
	if refusal(err) {
		// The site's checks refused it: it would again. Counted as
		// issued, so that Total bounds the tries.
		a.issued++
		a.log.Error().Err(err).Msg("the site refused the account's challenge")
		return nil
	}
	if err != nil {
		return err
	}
	a.issued++
	a.ownOpen[c.ChallengeID] = true
	a.b.m.challenges.WithLabelValues(a.cfg.Name, "issued").Inc()
	a.log.Info().Str("challenge", c.ChallengeID).Str("opponent", spec.Opponent).Msg("challenge issued")
	return nil
}

// refuses says why the policy refuses a challenge, or "" when it accepts
// it.
func (p Policy) refuses(c hivegame.Challenge) string {
	t, err := uhp.ParseGameType(c.GameType)
	if err != nil {
		return fmt.Sprintf("game type %q unknown", c.GameType)
	}
	if len(p.GameTypes) > 0 && !slices.ContainsFunc(p.GameTypes, func(s string) bool {
		pt, _ := uhp.ParseGameType(s)
		return pt == t
	}) {
		return "game type " + t.Name() + " not accepted"
	}
	if p.Rated != nil && *p.Rated != c.Rated {
		if c.Rated {
			return "rated games not accepted"
		}
		return "casual games not accepted"
	}
	tc, err := c.TimeControl()
	if err != nil {
		return err.Error()
	}
	if len(p.TimeKinds) > 0 && !slices.Contains(p.TimeKinds, tc.Kind) {
		return tc.Kind.String() + " games not accepted"
	}
	if tc.Kind == hivegame.RealTime {
		switch {
		case p.MinBase > 0 && tc.Base < p.MinBase:
			return fmt.Sprintf("a base of %s is under %s", tc.Base, p.MinBase)
		case p.MaxBase > 0 && tc.Base > p.MaxBase:
			return fmt.Sprintf("a base of %s is over %s", tc.Base, p.MaxBase)
		case p.MaxIncrement > 0 && tc.Increment > p.MaxIncrement:
			return fmt.Sprintf("an increment of %s is over %s", tc.Increment, p.MaxIncrement)
		}
	}
	name := c.Challenger.Username
	fold := func(s string) bool { return strings.EqualFold(s, name) }
	if slices.ContainsFunc(p.Refuse, fold) {
		return name + " is refused"
	}
	if len(p.Allow) > 0 && !slices.ContainsFunc(p.Allow, fold) {
		return name + " is not among those allowed"
	}
	return ""
}

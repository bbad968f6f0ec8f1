package bot

import (
	"context"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/hivegametest"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// Challenges outside the policy (a game type it does not play, a refused
// challenger, a clock too short) are left alone, neither accepted nor
// declined; of two it accepts, the second waits while MaxGames are played.
func TestChallengesOutsidePolicyLeftAlone(t *testing.T) {
	w := newWorld(t, 0)
	bot := w.account("pickybot")
	bot.Policy = Policy{
		GameTypes: []string{"Base"}, Refuse: []string{"troll"},
		TimeKinds: []hivegame.TimeKind{hivegame.Untimed, hivegame.RealTime}, MinBase: 5 * time.Minute,
		MaxGames: 1,
	}
	for _, name := range []string{"kim", "troll", "lee"} {
		w.account(name) // bots, so that the test can list their challenges
	}
	mlp := w.challenge("kim", "pickybot", hivegametest.ChallengeSpec{GameType: core.AllExpansions})
	trolled := w.challenge("troll", "pickybot", hivegametest.ChallengeSpec{GameType: core.Base})
	short := w.challenge("kim", "pickybot", hivegametest.ChallengeSpec{GameType: core.Base, Time: hivegametest.RealTime{BaseMinutes: 1}})
	first := w.challenge("lee", "pickybot", hivegametest.ChallengeSpec{GameType: core.Base})
	second := w.challenge("kim", "pickybot", hivegametest.ChallengeSpec{GameType: core.Base, Time: hivegametest.RealTime{BaseMinutes: 10, IncrementSeconds: 5}})
	r := w.start(fastConfig(bot), Deps{})
	w.waitGame(first)
	w.waitFor("the refusals to be judged", 5*time.Second, func() bool {
		return metric(t, r.reg, "hivebridge_bot_challenges_total", map[string]string{"action": "refused"}) == 3
	})
	time.Sleep(100 * time.Millisecond) // a few more polls
	if _, ok := w.site.Game(second); ok {
		t.Errorf("the second game started while the first is played, with MaxGames 1")
	}
	open := map[string]bool{}
	for _, name := range []string{"kim", "troll"} {
		for _, c := range w.challengesOf(name) {
			open[c.ChallengeID] = true
		}
	}
	for _, id := range []string{mlp, trolled, short, second} {
		if !open[id] {
			t.Errorf("challenge %s is gone; want it left alone", id)
		}
	}
	if n := metric(t, r.reg, "hivebridge_bot_challenges_total", map[string]string{"action": "accepted"}); n != 1 {
		t.Errorf("%v challenges accepted, want 1", n)
	}
	// Once the first game is over, the second is accepted.
	w.playHuman("lee", first, core.Base, 9)
	w.finishOrResign(first, 4, "lee", 10*time.Second)
	w.waitGame(second)
}

// challengesOf lists a bot account's own challenges.
func (w *world) challengesOf(name string) []hivegame.Challenge {
	w.t.Helper()
	c, err := hivegame.NewClient(w.url, hivegame.Credentials{Email: name + "@example.org", Password: "secret-" + name}, nil, w.now)
	if err != nil {
		w.t.Fatal(err)
	}
	list, err := c.Challenges(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return list
}

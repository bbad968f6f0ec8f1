package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/hivegametest"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// Two bot accounts of one bot play each other a real-time Base+MLP game
// from a challenge one issues and the other's policy accepts, while the
// second also plays an untimed Base game against a person: every move the
// site took was posted once, nobody lost on time, and every game is in
// the archive with the site's link and result.
func TestWholeGames(t *testing.T) {
	w := newWorld(t, 0)
	ant := w.account("antbot")
	ant.Challenge = &ChallengeSpec{Opponent: "beebot", GameType: "Base+MLP",
		Time: hivegame.BotTimeControl{Kind: hivegame.RealTime, BaseMinutes: 1, IncrementSeconds: 1}, Total: 1}
	bee := w.account("beebot")
	bee.Policy.GameTypes = []string{"Base", "Base+MLP"}
	w.human("carol")
	human := w.challenge("carol", "beebot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorWhite})

	keeper, games := newArchive(t)
	r := w.start(fastConfig(ant, bee), Deps{Archive: keeper})
	w.waitGame(human)
	w.playHuman("carol", human, core.Base, 1)

	var duel string
	w.waitFor("antbot's challenge to be accepted", 5*time.Second, func() bool {
		games := w.ongoing("antbot")
		if len(games) == 0 {
			return false
		}
		duel = games[0].Nanoid
		return true
	})
	d := w.finishOrResign(duel, 80, "antbot", 20*time.Second)
	h := w.finishOrResign(human, 60, "carol", 20*time.Second)
	w.waitFor("both bots to see both games end", 5*time.Second, func() bool {
		return metric(t, r.reg, "hivebridge_bot_games_ended_total", nil) == 3
	})
	r.stop()

	for _, g := range []hivegametest.GameSnapshot{d, h} {
		if g.Conclusion == "Timeout" {
			t.Errorf("game %s lost on time: %+v", g.Nanoid, g)
		}
		bots := g.Plays
		if g.White == "carol" {
			bots = botPlays(g, "beebot")
		}
		if got := w.site.PlayAttempts(g.Nanoid); got != bots {
			t.Errorf("game %s: %d plays posted for %d bot moves taken", g.Nanoid, got, bots)
		}
	}
	if n := metric(t, r.reg, "hivebridge_bot_moves_total", map[string]string{"by": "backend"}); n < 4 {
		t.Errorf("%v moves by the backend", n)
	}
	if n := metric(t, r.reg, "hivebridge_bot_games_playing", nil); n != 0 {
		t.Errorf("%v games still counted as playing after they ended", n)
	}
	if n := metric(t, r.reg, "hivebridge_bot_challenges_total", map[string]string{"action": "issued"}); n != 1 {
		t.Errorf("antbot issued %v challenges, want 1 (total 1)", n)
	}

	archived := games()
	if len(archived) != 3 {
		t.Fatalf("archive holds %d games, want 3 (the duel from each side, and the person's): %+v", len(archived), archived)
	}
	for _, g := range archived {
		if g.Source != "hivegame.com" || g.Status != archive.Finished || g.Result == "" {
			t.Errorf("archived %+v, want a finished game from hivegame.com with a result", g)
		}
		link := "/game/" + duel + ")"
		if strings.Contains(g.White+g.Black, "carol") {
			link = "carol (" + strings.TrimPrefix(w.url, "http://") + "/game/" + human + ")"
		}
		if !strings.Contains(g.White+g.Black, link) {
			t.Errorf("archived players %q and %q, want the opponent named with %q", g.White, g.Black, link)
		}
		if !strings.Contains(g.Reason, "hivegame.com: ") || !strings.Contains(g.Reason, "ratings white 1500") {
			t.Errorf("archived reason %q, want the site's conclusion and ratings", g.Reason)
		}
	}
}

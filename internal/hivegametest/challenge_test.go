package hivegametest

import (
	"slices"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// POST /api/v1/bot/challenges/: validate_and_convert's texts, in its order,
// then the opponent's lookup and NewChallenge's own check.
func TestCreateChallengeValidation(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	const ok = `"visibility":"Public","color_choice":"Random"`
	for _, c := range []struct{ body, want string }{
		{`{"game_type":"Base","rated":true,` + ok + `,"time_control":{"Correspondence":{"mode":"DaysPerMove","days":99}}}`, "Base game type cannot be rated"},
		{`{"game_type":"Base+M","rated":false,` + ok + `,"time_control":"Untimed"}`, "Only Base and MLP allowed"},
		{`{"game_type":"MLP","rated":false,"visibility":"Direct","color_choice":"White","time_control":"Untimed"}`, "Direct challenges require an opponent username"},
		{`{"game_type":"MLP","rated":false,"opponent":"alice",` + ok + `,"time_control":"Untimed"}`, "Only direct challenges can have an opponent username"},
		{`{"game_type":"MLP","rated":false,` + ok + `,"band_lower":1600,"band_upper":1400,"time_control":"Untimed"}`, "Invalid rating restriction"},
		{`{"game_type":"MLP","rated":true,` + ok + `,"time_control":"Untimed"}`, "Untimed games cannot be rated"},
		{`{"game_type":"MLP","rated":true,` + ok + `,"time_control":{"RealTime":{"base":0,"increment":0}}}`, "RealTime base must be between 1 and 180 minutes"},
		{`{"game_type":"MLP","rated":true,` + ok + `,"time_control":{"RealTime":{"base":10,"increment":181}}}`, "RealTime increment must be between 0 and 180 seconds"},
		{`{"game_type":"MLP","rated":true,` + ok + `,"time_control":{"Correspondence":{"mode":"TotalTimeEach","days":21}}}`, "Correspondence days must be between 1 and 20"},
		{`{"game_type":"MLP","rated":true,"visibility":"Direct","opponent":"nobody","color_choice":"Black","time_control":"Untimed"}`, "Untimed games cannot be rated"},
		{`{"game_type":"MLP","rated":false,"visibility":"Direct","opponent":"nobody","color_choice":"Black","time_control":"Untimed"}`, "Not found: Not found."},
		{`{"game_type":"MLP","rated":false,"visibility":"Direct","opponent":"HYDRA","color_choice":"Black","time_control":"Untimed"}`, "Invalid input"},
	} {
		r := e.do("POST", "/api/v1/bot/challenges/", tok, c.body)
		if r.status != 200 {
			t.Errorf("%s: %d %s", c.body, r.status, r.body)
			continue
		}
		if got := r.data(t, false)["error"]; got != c.want {
			t.Errorf("%s: %q, want %q", c.body, got, c.want)
		}
	}
	d := e.do("POST", "/api/v1/bot/challenges/", tok,
		`{"game_type":"MLP","rated":true,"visibility":"Public","color_choice":"White","time_control":{"RealTime":{"base":5,"increment":3}},"band_upper":null}`).data(t, true)
	c := d["challenge"].(map[string]any)
	for k, want := range map[string]any{"game_type": "Base+MLP", "time_base": 300.0, "time_increment": 3.0, "speed": "Blitz", "time_mode": "RealTime",
		"visibility": "Public", "color_choice": "White", "rated": true, "opponent": nil, "challenger_rating": 1500.0} {
		if c[k] != want {
			t.Errorf("challenge %s = %v, want %v", k, c[k], want)
		}
	}
	if d["bot_username"] != "hydra" || len(c["challenge_id"].(string)) != 12 {
		t.Errorf("create: %v", d)
	}
	d = e.do("POST", "/api/v1/bot/challenges/", tok,
		`{"game_type":"Base","rated":false,"visibility":"Direct","opponent":"alice","color_choice":"Random","time_control":{"Correspondence":{"mode":"DaysPerMove","days":2}}}`).data(t, true)
	if c := d["challenge"].(map[string]any); c["time_base"] != nil || c["time_increment"] != 172800.0 || c["speed"] != "Correspondence" {
		t.Errorf("days per move: %v", c)
	}
}

// Accepting: own challenges refused, others' direct challenges refused,
// colours as chosen, RealTime challenges of both players deleted, declines
// and bulk deletes.
func TestAcceptAndDeleteChallenges(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	e.s.AddUser("other", "other@bots.example", "pw", true)

	own := e.do("POST", "/api/v1/bot/challenges/", tok,
		`{"game_type":"MLP","rated":false,"visibility":"Public","color_choice":"Random","time_control":{"RealTime":{"base":3,"increment":2}}}`).
		data(t, true)["challenge"].(map[string]any)["challenge_id"].(string)
	if got := e.do("GET", "/api/v1/bot/challenge/accept/"+own, tok, "").data(t, false)["error"]; got != "You can't accept your own challenges!" {
		t.Errorf("own: %v", got)
	}
	toOther, _ := e.s.Challenge("alice", "other", ChallengeSpec{GameType: core.Base})
	if got := e.do("GET", "/api/v1/bot/challenge/accept/"+toOther, tok, "").data(t, false)["error"]; got != "This is not your challenge" {
		t.Errorf("someone else's: %v", got)
	}
	if got := e.do("GET", "/api/v1/bot/challenge/accept/nope", tok, "").data(t, false)["error"]; got != "Not found: Not found." {
		t.Errorf("unknown: %v", got)
	}

	rt1, _ := e.s.Challenge("alice", "", ChallengeSpec{GameType: core.Base, Time: RealTime{5, 0}, Color: ColorWhite})
	rt2, _ := e.s.Challenge("alice", "", ChallengeSpec{GameType: core.Base, Time: RealTime{3, 0}})
	corr, _ := e.s.Challenge("alice", "", ChallengeSpec{GameType: core.Base, Time: Correspondence{Days: 3}})
	// Public challenges of others are not listed to the bot.
	list := e.do("GET", "/api/v1/bot/challenges/", tok, "").data(t, true)["challenges"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["challenge_id"] != own {
		t.Errorf("listed: %v", list)
	}
	g := e.do("GET", "/api/v1/bot/challenge/accept/"+rt1, tok, "").data(t, true)["game"].(map[string]any)
	if g["white_player"].(map[string]any)["username"] != "alice" || g["game_id"] != rt1 {
		t.Errorf("colours: white %v", g["white_player"])
	}
	for _, gone := range []string{rt2, own} {
		if got := e.do("GET", "/api/v1/bot/challenge/accept/"+gone, tok, "").data(t, false)["error"]; got != "Not found: Not found." {
			t.Errorf("RealTime challenge %s survived the accept: %v", gone, got)
		}
	}
	if _, err := e.s.Accept("hydra", corr); err != nil {
		t.Errorf("correspondence challenge deleted too: %v", err)
	}

	// Declining is deleting; only the two parties may.
	direct, _ := e.s.Challenge("alice", "hydra", ChallengeSpec{GameType: core.Base})
	otherTok := e.do("POST", "/api/v1/auth/token", "", `{"email":"other@bots.example","password":"pw"}`).data(t, true)["token"].(string)
	if got := e.do("DELETE", "/api/v1/bot/challenge/"+direct, otherTok, "").data(t, false)["error"]; got != "This is not your challenge" {
		t.Errorf("stranger's delete: %v", got)
	}
	if got := e.do("DELETE", "/api/v1/bot/challenge/"+direct, tok, "").data(t, true)["challenge_id"]; got != direct {
		t.Errorf("decline: %v", got)
	}
	var mine []string
	for range 2 {
		d := e.do("POST", "/api/v1/bot/challenges/", tok, `{"game_type":"Base","rated":false,"visibility":"Private","color_choice":"Black","time_control":"Untimed"}`).data(t, true)
		mine = append(mine, d["challenge"].(map[string]any)["challenge_id"].(string))
	}
	d := e.do("DELETE", "/api/v1/bot/challenges/", tok, "").data(t, true)
	var got []string
	for _, id := range d["challenge_ids"].([]any) {
		got = append(got, id.(string))
	}
	if !slices.Equal(got, mine) || d["count"] != 2.0 || len(d["failures"].([]any)) != 0 {
		t.Errorf("bulk delete: %v", d)
	}
}

package hivegame_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

func decodeGames(t *testing.T, body string) []hivegame.Game {
	t.Helper()
	data, err := hivegame.DecodeEnvelope(http.StatusOK, nil, []byte(body), time.Time{})
	if err != nil {
		t.Fatalf("DecodeEnvelope: %v", err)
	}
	games, err := hivegame.DecodeGames(data)
	if err != nil {
		t.Fatalf("DecodeGames: %v", err)
	}
	return games
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestGameRow decodes version N's row field by field: snake_case names,
// nanosecond clocks, "Real Time", nulls, a negative and a null hash, and
// a field no version has, which is ignored.
func TestGameRow(t *testing.T) {
	games := decodeGames(t, gamesBody(rowInProgress, rowFinishedDraw, rowOldNotStarted))
	if len(games) != 3 {
		t.Fatalf("%d games, want 3", len(games))
	}
	g := games[0]
	for _, c := range []struct{ name, got, want string }{
		{"id", g.ID, "0190a1b2-0000-7000-8000-000000000001"},
		{"nanoid", g.Nanoid, "qaTq1dsIi3-i"},
		{"current_player_id", g.CurrentPlayerID, botID},
		{"white_id", g.WhiteID, aliceID},
		{"black_id", g.BlackID, botID},
		{"game_status", g.GameStatus, "InProgress"},
		{"game_type", g.GameType, "Base+MLP"},
		{"history", g.History, "wS1 ;bG1 -wS1;wA1 wS1/;"},
		{"time_mode", g.TimeMode, "Real Time"},
		{"speed", g.Speed, "Rapid"},
		{"conclusion", g.Conclusion, "Unknown"},
		{"game_start", g.GameStart, "Moves"},
		{"tournament_game_result", g.TournamentGameResult, "Unknown"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if g.Turn != 3 || g.Finished || !g.Rated || !g.TournamentQueenRule {
		t.Errorf("turn %d finished %v rated %v queen rule %v", g.Turn, g.Finished, g.Rated, g.TournamentQueenRule)
	}
	if g.WhiteTimeLeft == nil || *g.WhiteTimeLeft != 603_000_000_000 || g.BlackTimeLeft == nil || *g.BlackTimeLeft != 598_500_000_000 {
		t.Errorf("clocks %v %v", g.WhiteTimeLeft, g.BlackTimeLeft)
	}
	if g.TimeBase == nil || *g.TimeBase != 600 || g.TimeIncrement == nil || *g.TimeIncrement != 5 {
		t.Errorf("time_base %v time_increment %v", g.TimeBase, g.TimeIncrement)
	}
	if g.WhiteRating != nil || g.TournamentID != nil || g.FinishedAt != nil || g.ArenaMoveDueAt != nil || g.TournamentSlotID != nil || g.ArenaOrdinal != nil {
		t.Errorf("null fields decoded as set: %+v", g)
	}
	if want := mustTime(t, "2025-06-01T10:01:30.5Z"); g.LastInteraction == nil || !g.LastInteraction.Equal(want) {
		t.Errorf("last_interaction %v, want %v", g.LastInteraction, want)
	}
	if want := mustTime(t, "2025-06-01T10:00:00.123456Z"); !g.CreatedAt.Equal(want) {
		t.Errorf("created_at %v, want %v", g.CreatedAt, want)
	}
	if len(g.Hashes) != 3 || !g.Hashes[0].Valid || int64(g.Hashes[0].Value) != -5834719043985310207 || g.Hashes[2].Valid {
		t.Errorf("hashes %+v", g.Hashes)
	}
	if len(g.MoveTimes) != 3 || *g.MoveTimes[2] != 603_000_000_000 {
		t.Errorf("move_times %v", g.MoveTimes)
	}

	d := games[1]
	if d.TournamentGameResult != "½-½" || d.Conclusion != "Repetition" || !d.Finished {
		t.Errorf("draw row: %q %q %v", d.TournamentGameResult, d.Conclusion, d.Finished)
	}
	if d.BlackRatingChange == nil || *d.BlackRatingChange != -1.5 || len(d.MoveTimes) != 2 || d.MoveTimes[0] != nil {
		t.Errorf("draw row: rating change %v, move_times %v", d.BlackRatingChange, d.MoveTimes)
	}

	old := games[2]
	if old.GameStart != "" || old.LastInteraction != nil || old.WhiteTimeLeft != nil || old.Nanoid != "iLGbFmm7C9Xn" {
		t.Errorf("older row: %+v", old)
	}

	// The row written back keeps the hashes as the site stores them.
	b, err := json.Marshal(g)
	if err != nil || !strings.Contains(string(b), `"hashes":[-5834719043985310207,1234567890123,null]`) {
		t.Errorf("marshalled row: %s, %v", b, err)
	}
}

// TestHashUnsigned reads a hash above the signed range, as the unlocated
// Bot API document shows them, to the same bits.
func TestHashUnsigned(t *testing.T) {
	var hs []hivegame.Hash
	if err := json.Unmarshal([]byte(`[12612025029724241409,-5834719043985310207,null,0]`), &hs); err != nil {
		t.Fatal(err)
	}
	if hs[0].Value != 12612025029724241409 || hs[0].Value != hs[1].Value || hs[2].Valid || !hs[3].Valid {
		t.Fatalf("%+v", hs)
	}
	if err := json.Unmarshal([]byte(`[1.5]`), &hs); err == nil {
		t.Fatal("a fractional hash read")
	}
}

func TestDecodeGamesRefuses(t *testing.T) {
	for _, data := range []string{
		`{"bot":"b"}`,
		`{"games":null}`,
		`{"games":{}}`,
		`{"games":[{"nanoid":""}]}`,
		`{"games":[{"nanoid":"abc","white_id":"w","black_id":"b"}]}`,
		`{"games":[{"nanoid":"abc","turn":"3"}]}`,
		`[]`,
	} {
		if gs, err := hivegame.DecodeGames(json.RawMessage(data)); err == nil {
			t.Errorf("DecodeGames(%s) = %v, want an error", data, gs)
		}
	}
}

func TestResult(t *testing.T) {
	for _, tc := range []struct {
		status, tgr string
		finished    bool
		want        hivegame.Result
		over        bool
	}{
		{"NotStarted", "Unknown", false, hivegame.ResultUnknown, false},
		{"InProgress", "Unknown", false, hivegame.ResultUnknown, false},
		{"Finished(Winner(w))", "1-0", true, hivegame.ResultWhiteWins, true},
		{"Finished(Winner(b))", "0-1", true, hivegame.ResultBlackWins, true},
		{"Finished(Draw)", "½-½", true, hivegame.ResultDraw, true},
		{"Finished(Unknown)", "Unknown", true, hivegame.ResultUnknown, true},
		{"Adjudicated", "0-1", true, hivegame.ResultBlackWins, true},
		{"Adjudicated", "½-½", true, hivegame.ResultDraw, true},
		{"Adjudicated", "0-0", true, hivegame.ResultUnknown, true},
		// A row caught between writes: the status already says finished.
		{"Finished(Winner(w))", "Unknown", false, hivegame.ResultWhiteWins, true},
		// And the other way: the flag is set, the status unknown to us.
		{"Forfeit(w)", "Unknown", true, hivegame.ResultUnknown, true},
	} {
		g := hivegame.Game{GameStatus: tc.status, TournamentGameResult: tc.tgr, Finished: tc.finished}
		r, over := g.Result()
		if r != tc.want || over != tc.over || g.IsFinished() != tc.over {
			t.Errorf("%s/%s/%v: Result = %v, %v; want %v, %v", tc.status, tc.tgr, tc.finished, r, over, tc.want, tc.over)
		}
	}
	if s, _ := hivegame.ParseStatus("Bogus"); s != hivegame.StatusOther {
		t.Errorf("ParseStatus(Bogus) = %v", s)
	}
}

func TestIsTurnOf(t *testing.T) {
	g := decodeGames(t, gamesBody(rowInProgress, rowFinishedDraw, rowOldNotStarted))
	switch {
	case !g[0].IsTurnOf(botID), g[0].IsTurnOf(aliceID):
		t.Error("row 0: Black (the bot) is to move")
	case !g[0].IsTurnOf(strings.ToUpper(botID)):
		t.Error("row 0: a UUID in capitals")
	case g[1].IsTurnOf(aliceID):
		t.Error("row 1 is finished; current_player_id names whoever would move")
	case !g[2].IsTurnOf(botID):
		t.Error("row 2: the bot is White at turn 0 (the pending list's own rule)")
	case g[0].IsTurnOf(""):
		t.Error("an empty id")
	}
	if c, ok := g[2].ColorOf(botID); !ok || c != hivegame.White {
		t.Errorf("ColorOf: %v %v", c, ok)
	}
	if _, ok := g[2].ColorOf("someone-else"); ok {
		t.Error("ColorOf a stranger")
	}
	if g[0].ToMove() != hivegame.Black || g[2].ToMove() != hivegame.White {
		t.Error("ToMove")
	}
}

func i64(v int64) *int64 { return &v }
func i32(v int32) *int32 { return &v }

// TestTimeLeft checks get_time_left's arithmetic: the mover loses the time
// since last_interaction, down to zero; the clocks are frozen while
// NotStarted (a "Moves" game until ply 2), without last_interaction, and
// once finished.
func TestTimeLeft(t *testing.T) {
	last := mustTime(t, "2025-06-01T10:01:30.5Z")
	base := hivegame.Game{
		GameStatus: "InProgress", GameStart: "Moves", TimeMode: "Real Time",
		TimeBase: i32(600), TimeIncrement: i32(5), LastInteraction: &last,
		WhiteTimeLeft: i64(603_000_000_000), BlackTimeLeft: i64(598_500_000_000),
	}
	const s = time.Second
	for _, tc := range []struct {
		name         string
		edit         func(*hivegame.Game)
		now          time.Time
		white, black time.Duration
	}{
		{"black to move, 30 s gone", func(g *hivegame.Game) { g.Turn = 3 }, last.Add(30 * s), 603 * s, 568500 * time.Millisecond},
		{"white to move, 1.25 s gone", func(g *hivegame.Game) { g.Turn = 2 }, last.Add(1250 * time.Millisecond), 601750 * time.Millisecond, 598500 * time.Millisecond},
		{"flag fallen", func(g *hivegame.Game) { g.Turn = 3 }, last.Add(20 * time.Minute), 603 * s, 0},
		{"exactly spent", func(g *hivegame.Game) { g.Turn = 3 }, last.Add(598500 * time.Millisecond), 603 * s, 0},
		{"caller's clock behind", func(g *hivegame.Game) { g.Turn = 3 }, last.Add(-time.Hour), 603 * s, 598500 * time.Millisecond},
		{"frozen at ply 1 (Moves, NotStarted)", func(g *hivegame.Game) { g.Turn, g.GameStatus = 1, "NotStarted" }, last.Add(time.Hour), 603 * s, 598500 * time.Millisecond},
		{"frozen at ply 0", func(g *hivegame.Game) { g.Turn, g.GameStatus, g.LastInteraction = 0, "NotStarted", nil }, last.Add(time.Hour), 603 * s, 598500 * time.Millisecond},
		{"Ready tournament game not begun", func(g *hivegame.Game) { g.Turn, g.GameStatus, g.GameStart = 0, "NotStarted", "Ready" }, last.Add(time.Hour), 603 * s, 598500 * time.Millisecond},
		{"arena opening, no last_interaction", func(g *hivegame.Game) { g.Turn, g.GameStart, g.LastInteraction = 1, "Arena", nil }, last.Add(time.Hour), 603 * s, 598500 * time.Millisecond},
		{"running from ply 2", func(g *hivegame.Game) { g.Turn, g.GameStatus = 2, "InProgress" }, last.Add(3 * s), 600 * s, 598500 * time.Millisecond},
		{"finished", func(g *hivegame.Game) { g.Turn, g.Finished, g.GameStatus = 9, true, "Finished(Winner(w))" }, last.Add(time.Hour), 603 * s, 598500 * time.Millisecond},
		{"untimed", func(g *hivegame.Game) { g.Turn, g.WhiteTimeLeft, g.BlackTimeLeft = 4, nil, nil }, last.Add(time.Hour), 0, 0},
		{"negative stored", func(g *hivegame.Game) { g.Turn, g.WhiteTimeLeft = 3, i64(-5) }, last.Add(s), 0, 597500 * time.Millisecond},
	} {
		g := base
		tc.edit(&g)
		if w, b := g.TimeLeft(hivegame.White, tc.now), g.TimeLeft(hivegame.Black, tc.now); w != tc.white || b != tc.black {
			t.Errorf("%s: white %v black %v, want %v %v", tc.name, w, b, tc.white, tc.black)
		}
	}
}

func TestTimeControl(t *testing.T) {
	for _, tc := range []struct {
		mode       string
		base, inc  *int32
		want       hivegame.TimeControl
		wantString string
	}{
		{"Real Time", i32(600), i32(5), hivegame.TimeControl{Kind: hivegame.RealTime, Base: 10 * time.Minute, Increment: 5 * time.Second}, "RealTime"},
		{"RealTime", i32(60), i32(0), hivegame.TimeControl{Kind: hivegame.RealTime, Base: time.Minute}, "RealTime"},
		{"Correspondence", nil, i32(259200), hivegame.TimeControl{Kind: hivegame.Correspondence, Increment: 72 * time.Hour, PerMove: true}, "Correspondence"},
		{"Correspondence", i32(86400), nil, hivegame.TimeControl{Kind: hivegame.Correspondence, Base: 24 * time.Hour}, "Correspondence"},
		{"Untimed", nil, nil, hivegame.TimeControl{Kind: hivegame.Untimed}, "Untimed"},
	} {
		g := hivegame.Game{TimeMode: tc.mode, TimeBase: tc.base, TimeIncrement: tc.inc}
		got, err := g.TimeControl()
		if err != nil || got != tc.want || got.Kind.String() != tc.wantString {
			t.Errorf("%s: %+v, %v; want %+v", tc.mode, got, err, tc.want)
		}
	}
	for _, g := range []hivegame.Game{{TimeMode: "Blitz"}, {TimeMode: "Real Time", TimeBase: i32(-1)}, {TimeMode: ""}} {
		if tc, err := g.TimeControl(); err == nil {
			t.Errorf("%q: %+v, want an error", g.TimeMode, tc)
		}
	}
}

// TestChallenges decodes the challenge list: the ratings of every speed,
// a null opponent, an older UserResponse of three fields, "RealTime".
func TestChallenges(t *testing.T) {
	data, err := hivegame.DecodeEnvelope(200, nil, []byte(challengesBody(challengeDirect, challengeOwnOld)), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := hivegame.DecodeChallenges(data)
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if c.ChallengeID != "H1-jt7m6dZfi" || c.Challenger.Username != "alice" || c.Opponent == nil || !c.Opponent.Bot ||
		c.Visibility != "Direct" || c.ColorChoice != "Random" || c.ChallengerRating != 1512 || c.Speed != "Blitz" {
		t.Errorf("direct challenge: %+v", c)
	}
	if r := c.Challenger.Ratings["Correspondence"]; r.Rating != 1633 || r.Win != 26 || r.Certainty != "Rankable" || r.UserUID != aliceID || len(c.Challenger.Ratings) != 5 {
		t.Errorf("ratings: %+v", c.Challenger.Ratings)
	}
	if tc, err := c.TimeControl(); err != nil || tc.Kind != hivegame.RealTime || tc.Base != 5*time.Minute || tc.Increment != 3*time.Second {
		t.Errorf("time control %+v %v", tc, err)
	}
	if c.Challenger.Lang == nil || *c.Challenger.Lang != "en" || c.Opponent.Lang != nil {
		t.Errorf("lang")
	}
	if c.IsOwn(botID) || !cs[1].IsOwn(botID) {
		t.Error("IsOwn")
	}
	if cs[1].Opponent != nil || cs[1].Challenger.UID != botID {
		t.Errorf("older challenge: %+v", cs[1])
	}
	if tc, _ := cs[1].TimeControl(); !tc.PerMove || tc.Increment != 24*time.Hour {
		t.Errorf("older challenge's time control: %+v", tc)
	}
}

// TestCreateChallengeJSON writes BotChallengeRequest with its externally
// tagged time control, and reads each form back.
func TestCreateChallengeJSON(t *testing.T) {
	for _, tc := range []struct {
		req  hivegame.CreateChallengeRequest
		want string
	}{
		{
			hivegame.CreateChallengeRequest{GameType: "MLP", Visibility: hivegame.VisibilityPublic, ColorChoice: hivegame.ColorRandom,
				TimeControl: hivegame.BotTimeControl{Kind: hivegame.RealTime, BaseMinutes: 10, IncrementSeconds: 5}, Rated: true},
			`{"game_type":"MLP","visibility":"Public","color_choice":"Random","time_control":{"RealTime":{"base":10,"increment":5}},"rated":true}`,
		},
		{
			hivegame.CreateChallengeRequest{GameType: "Base", Visibility: hivegame.VisibilityDirect, Opponent: "alice", ColorChoice: hivegame.ColorWhite,
				TimeControl: hivegame.BotTimeControl{Kind: hivegame.Untimed}},
			`{"game_type":"Base","visibility":"Direct","opponent":"alice","color_choice":"White","time_control":"Untimed","rated":false}`,
		},
		{
			hivegame.CreateChallengeRequest{GameType: "MLP", Visibility: hivegame.VisibilityPrivate, ColorChoice: hivegame.ColorBlack,
				TimeControl: hivegame.BotTimeControl{Kind: hivegame.Correspondence, Mode: hivegame.DaysPerMove, Days: 3}, BandLower: i32(1200), BandUpper: i32(1800)},
			`{"game_type":"MLP","visibility":"Private","color_choice":"Black","time_control":{"Correspondence":{"mode":"DaysPerMove","days":3}},"rated":false,"band_upper":1800,"band_lower":1200}`,
		},
	} {
		b, err := json.Marshal(tc.req)
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal = %s, %v\nwant %s", b, err, tc.want)
			continue
		}
		var back hivegame.CreateChallengeRequest
		if err := json.Unmarshal(b, &back); err != nil || back.TimeControl != tc.req.TimeControl {
			t.Errorf("read back %s: %+v, %v", b, back.TimeControl, err)
		}
	}
	for _, bad := range []hivegame.BotTimeControl{{Kind: 9}, {Kind: hivegame.Correspondence, Mode: "Weekly", Days: 1}} {
		if b, err := json.Marshal(bad); err == nil {
			t.Errorf("Marshal(%+v) = %s, want an error", bad, b)
		}
	}
	for _, bad := range []string{`"RealTime"`, `{}`, `{"RealTime":{"base":1},"Untimed":{}}`, `{"Blitz":{}}`, `{"RealTime":{"base":-1}}`, `7`, `{"Correspondence":{"mode":"Weekly","days":1}}`} {
		var tc hivegame.BotTimeControl
		if err := json.Unmarshal([]byte(bad), &tc); err == nil {
			t.Errorf("Unmarshal(%s) = %+v, want an error", bad, tc)
		}
	}
}

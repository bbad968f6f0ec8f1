package hivegametest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// A whole game through raw requests: the challenge listed and accepted, the
// game pending while the bot is to move, the clocks held until Black's first
// move and then run with their increment, the history in the site's form
// (its own reference pieces), the human's resignation.
func TestWholeGameOverHTTP(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id, err := e.s.Challenge("alice", "hydra", ChallengeSpec{GameType: core.AllExpansions, Time: RealTime{10, 5}, Color: ColorBlack})
	if err != nil {
		t.Fatal(err)
	}
	list := e.do("GET", "/api/v1/bot/challenges/", tok, "").data(t, true)["challenges"].([]any)
	if len(list) != 1 {
		t.Fatalf("challenges: %v", list)
	}
	c := list[0].(map[string]any)
	for k, want := range map[string]any{"challenge_id": id, "game_type": "Base+MLP", "time_mode": "RealTime", "color_choice": "Black",
		"visibility": "Direct", "time_base": 600.0, "time_increment": 5.0, "speed": "Rapid"} {
		if c[k] != want {
			t.Errorf("challenge %s = %v, want %v", k, c[k], want)
		}
	}
	acc := e.do("GET", "/api/v1/bot/challenge/accept/"+id, tok, "")
	g := acc.data(t, true)["game"].(map[string]any)
	for k, want := range map[string]any{"game_id": id, "game_type": "MLP", "time_mode": "RealTime", "game_status": "NotStarted", "turn": 0.0} {
		if g[k] != want {
			t.Errorf("GameResponse %s = %v, want %v", k, g[k], want)
		}
	}
	if wl := g["white_time_left"].(map[string]any); wl["secs"] != 600.0 || wl["nanos"] != 0.0 {
		t.Errorf("white_time_left = %v", wl)
	}
	if g["white_player"].(map[string]any)["username"] != "hydra" {
		t.Errorf("white_player = %v", g["white_player"])
	}
	if got := e.do("GET", "/api/v1/bot/challenges/", tok, "").data(t, true)["challenges"].([]any); len(got) != 0 {
		t.Errorf("challenge still listed after accept: %v", got)
	}

	pending := e.do("GET", "/api/v1/bot/games/pending", tok, "")
	if !strings.HasPrefix(pending.body, `{"data":{"bot":"hydra@bots.example","bot_username":"hydra","games":[{"arena_move_due_at":null,`) {
		t.Errorf("pending body does not have the site's key order: %.120s", pending.body)
	}
	if got := ids(pending.data(t, true)); !slices.Equal(got, []string{id}) {
		t.Fatalf("pending = %v, want the new game (turn 0, bot White)", got)
	}

	if h := e.mustPlay(tok, id, "wS1"); h != "wS1 ;" {
		t.Errorf("history %q", h)
	}
	row := e.game(tok, id)
	if row["game_status"] != "NotStarted" || row["turn"] != 1.0 || row["time_mode"] != "Real Time" || row["white_time_left"] != 600e9 {
		t.Errorf("after ply 0: %v %v %v %v", row["game_status"], row["turn"], row["time_mode"], row["white_time_left"])
	}
	if got := ids(e.do("GET", "/api/v1/bot/games/pending", tok, "").data(t, true)); len(got) != 0 {
		t.Errorf("pending on the opponent's turn: %v", got)
	}
	if got := ids(e.do("GET", "/api/v1/bot/games/ongoing", tok, "").data(t, true)); !slices.Equal(got, []string{id}) {
		t.Errorf("ongoing = %v", got)
	}

	e.clock.Advance(time.Hour) // the clocks are held until Black's first move
	if _, err := e.s.PlayAs("alice", id, "bG1 -wS1"); err != nil {
		t.Fatal(err)
	}
	row = e.game(tok, id)
	if row["game_status"] != "InProgress" || row["white_time_left"] != 600e9 || row["black_time_left"] != 600e9 {
		t.Errorf("after ply 1: %v %v %v", row["game_status"], row["white_time_left"], row["black_time_left"])
	}
	e.clock.Advance(10 * time.Second)
	e.mustPlay(tok, id, "wA1 wS1/")
	row = e.game(tok, id)
	if row["white_time_left"] != 595e9 {
		t.Errorf("white_time_left = %v, want 600-10+5 s", row["white_time_left"])
	}
	if mt := row["move_times"].([]any); len(mt) != 3 || mt[2] != 595e9 {
		t.Errorf("move_times = %v", mt)
	}
	if _, err := e.s.PlayAs("alice", id, "bQ \\bG1"); err != nil {
		t.Fatal(err)
	}
	// The client names wS1, the site writes the first neighbour it finds.
	e.mustPlay(tok, id, "wQ wS1-")
	h, err := e.s.PlayAs("alice", id, "bA1 -bQ")
	if err != nil {
		t.Fatal(err)
	}
	if want := `wS1 ;bG1 -wS1;wA1 wS1/;bQ \bG1;wQ wA1\;bA1 -bQ;`; h != want {
		t.Errorf("history %q, want %q", h, want)
	}
	if err := e.s.Resign("alice", id); err != nil {
		t.Fatal(err)
	}
	row = e.game(tok, id)
	for k, want := range map[string]any{"finished": true, "game_status": "Finished(Winner(w))", "conclusion": "Resigned",
		"game_control_history": "6. Resign(b);", "tournament_game_result": "1-0"} {
		if row[k] != want {
			t.Errorf("row %s = %v, want %v", k, row[k], want)
		}
	}
	if got := ids(e.do("GET", "/api/v1/bot/games/ongoing", tok, "").data(t, true)); len(got) != 0 {
		t.Errorf("ongoing after the end: %v", got)
	}
	if got := e.playErr(tok, id, "wG1 wQ-"); got != "Game is finished" {
		t.Errorf("play after the end: %q", got)
	}
	if n := e.s.PlaysApplied(id); n != 6 {
		t.Errorf("PlaysApplied = %d, want 6", n)
	}
}

// The play endpoint's parser and the order of its checks (notes §5.2–5.3).
func TestMoveParsingAndFirstMoveRule(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.AllExpansions, Time: RealTime{10, 0}, Color: ColorBlack})
	for move, want := range map[string]string{
		"wQ":  "Invalid input", // the tournament rule: no Queen on the first move
		"bS1": "Invalid input", // not White's piece
		"Ws1": `Found "W" which is not a valid color string`,
		"wX1": `Found "X" which is not a valid bug string`,
		"wS":  `Found "wS" which is not a valid piece`,
		"w":   `Found "w" which is not a valid piece`,
		"":    `Found "" which is not a valid piece`,
		`"x`:  `Found "\"" which is not a valid color string`,
	} {
		if got := e.playErr(tok, id, move); got != want {
			t.Errorf("ply 0 %q: %q, want %q", move, got, want)
		}
	}
	if got := e.playErr(tok, "nonexistent1", "wS1"); got != "Not found" {
		t.Errorf("unknown game: %q", got)
	}
	// Ply 0 reads characters 0-2 only, and the bug letter in either case.
	if h := e.mustPlay(tok, id, "ws1 whatever"); h != "wS1 ;" {
		t.Errorf("history %q", h)
	}
	// Parsing comes before the turn check.
	if got := e.playErr(tok, id, "wA1"); got != "Invalid move format: expected 'piece position'" {
		t.Errorf("out of turn, no position: %q", got)
	}
	if got := e.playErr(tok, id, "wA1 wS1-"); got != "Not your turn" {
		t.Errorf("out of turn: %q", got)
	}
	for move, want := range map[string]string{
		"bS1":      "Invalid move format: expected 'piece position'",
		"bS1 -ws1": `Found "-ws1" which is not a valid position`,
		"bS1 -wA1": `Found "-wA1" which is not a valid position`,
		"bQ -wS1":  "Invalid input",
		"bS1 wS1":  "Invalid input", // a Spider cannot climb
	} {
		if _, err := e.s.PlayAs("alice", id, move); err == nil || err.Error() != want {
			t.Errorf("ply 1 %q: %v, want %q", move, err, want)
		}
	}
	// The position regex is unanchored.
	h, err := e.s.PlayAs("alice", id, "bs1 x-wS1y")
	if err != nil {
		t.Fatal(err)
	}
	if h != "wS1 ;bS1 -wS1;" {
		t.Errorf("history %q", h)
	}
	if got := e.playErr(tok, id, "pass"); got != "Invalid move format: expected 'piece position'" {
		t.Errorf("pass: %q", got)
	}
}

// A move that leaves the opponent no move gets "pass ;" appended and the
// turn back to the mover, turn counting the pass.
func TestAutomaticPass(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Color: ColorBlack})
	e.mustPlay(tok, id, "wB1")
	if row := e.game(tok, id); row["game_status"] != "InProgress" || row["white_time_left"] != nil {
		// Untimed games take the engine's status as it is (get_time_info_at).
		t.Errorf("untimed after ply 0: %v %v", row["game_status"], row["white_time_left"])
	}
	for k, m := range []string{"bG1 /wB1", "wA1 \\wB1", "bQ -bG1", "wQ -wA1", "bQ wQ\\"} {
		if k%2 == 0 {
			if _, err := e.s.PlayAs("alice", id, m); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
		} else {
			e.mustPlay(tok, id, m)
		}
	}
	h := e.mustPlay(tok, id, "wB1 bG1")
	if want := `wB1 ;bG1 /wB1;wA1 \wB1;bQ -bG1;wQ -wA1;bQ wQ\;wB1 bG1;pass ;`; h != want {
		t.Errorf("history %q, want %q", h, want)
	}
	row := e.game(tok, id)
	hydra := e.do("GET", "/api/v1/auth/id", tok, "").data(t, true)["user_id"]
	if row["turn"] != 8.0 || row["current_player_id"] != hydra {
		t.Errorf("turn %v current %v, want 8 and the bot", row["turn"], row["current_player_id"])
	}
	if got := ids(e.do("GET", "/api/v1/bot/games/pending", tok, "").data(t, true)); !slices.Equal(got, []string{id}) {
		t.Errorf("pending right after the pass = %v", got)
	}
	if _, err := e.s.PlayAs("alice", id, "bQ wQ-"); err == nil || err.Error() != "Not your turn" {
		t.Errorf("the passed player: %v", err)
	}
}

// The third occurrence of a position draws, conclusion Repetition.
func TestRepetitionDraw(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Color: ColorBlack})
	moves := []string{"wS1", "bS1 -wS1", "wQ wS1/", "bQ \\bS1"}
	for range 2 {
		moves = append(moves, "wQ wS1-", "bQ bS1/", "wQ wS1/", "bQ \\bS1")
	}
	for k, m := range moves {
		if k%2 == 0 {
			e.mustPlay(tok, id, m)
		} else if _, err := e.s.PlayAs("alice", id, m); err != nil {
			t.Fatalf("ply %d %s: %v", k, m, err)
		}
	}
	row := e.game(tok, id)
	for k, want := range map[string]any{"finished": true, "game_status": "Finished(Draw)", "conclusion": "Repetition",
		"tournament_game_result": "½-½", "turn": 12.0} {
		if row[k] != want {
			t.Errorf("row %s = %v, want %v", k, row[k], want)
		}
	}
}

// Resign only from turn 2, abort only before it; abort deletes the game.
func TestResignAndAbortRules(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	e.s.AddUser("other", "other@bots.example", "pw", true)
	otherTok := e.do("POST", "/api/v1/auth/token", "", `{"email":"other","password":"pw"}`).data(t, true)["token"].(string)

	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Time: RealTime{5, 0}, Color: ColorBlack})
	for _, c := range []struct{ tok, control, want string }{
		{tok, "resign", "Cannot resign before turn 2"},
		{tok, "draw", "Invalid control type: draw"},
		{tok, "Resign", "Invalid control type: Resign"},
		{otherTok, "resign", "Not your game"},
		{otherTok, "bogus", "Not your game"}, // the player check comes first
		{tok, "resign", "Cannot resign before turn 2"},
	} {
		if d, ok := e.control(c.tok, id, c.control); ok || d["error"] != c.want {
			t.Errorf("%s: %v, want %q", c.control, d, c.want)
		}
	}
	d, ok := e.control(tok, id, "abort")
	if !ok || d["game_id"] != id || d["finished"] != false || d["bot_username"] != "hydra" {
		t.Fatalf("abort: %v", d)
	}
	if got := e.do("GET", "/api/v1/bot/game/"+id, tok, "").data(t, false)["error"]; got != "Not found: Not found." {
		t.Errorf("aborted game: %v", got)
	}
	if got := e.playErr(tok, id, "wS1"); got != "Not found" {
		t.Errorf("play in the aborted game: %q", got)
	}

	id = e.newGame(tok, ChallengeSpec{GameType: core.Base, Time: RealTime{5, 0}, Color: ColorBlack})
	e.mustPlay(tok, id, "wS1")
	if _, err := e.s.PlayAs("alice", id, "bS1 -wS1"); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.control(tok, id, "abort"); d["error"] != "Cannot abort after turn 2" {
		t.Errorf("abort at turn 2: %v", d)
	}
	e.clock.Advance(7 * time.Second)
	d, ok = e.control(tok, id, "resign")
	if !ok || d["finished"] != true {
		t.Fatalf("resign: %v", d)
	}
	row := e.game(tok, id)
	if row["game_status"] != "Finished(Winner(b))" || row["game_control_history"] != "2. Resign(w);" || row["white_time_left"] != 293e9 {
		t.Errorf("after resign: %v %v %v", row["game_status"], row["game_control_history"], row["white_time_left"])
	}
	if d, _ := e.control(tok, id, "resign"); d["error"] != "Game is finished" {
		t.Errorf("resign twice: %v", d)
	}
}

// An untimed game is InProgress from White's first move (its status is the
// engine's, get_time_info_at), and validate_control treats an InProgress
// game before turn 2 as a started opening: no abort, but resign allowed.
func TestUntimedOpeningControls(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Color: ColorBlack})
	if d, ok := e.control(tok, id, "resign"); ok || d["error"] != "Cannot resign before turn 2" {
		t.Errorf("resign at turn 0: %v", d)
	}
	e.mustPlay(tok, id, "wG1")
	if err := e.s.Control("alice", id, "abort"); err == nil || err.Error() != "Cannot abort after turn 2" {
		t.Errorf("abort at turn 1: %v", err)
	}
	if err := e.s.Resign("alice", id); err != nil {
		t.Errorf("resign at turn 1: %v", err)
	}
	if g, _ := e.s.Game(id); g.Status != "Finished(Winner(w))" || g.WhiteLeft != nil {
		t.Errorf("after resign: %+v", g)
	}
}

// The mover's clock runs out: the game is finished by timeout when next
// looked at, the clock at zero, and a move gets "Game is finished".
func TestTimeout(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Time: RealTime{1, 0}, Color: ColorBlack})
	e.mustPlay(tok, id, "wS1")
	e.clock.Advance(90 * time.Minute) // held: not a flag, though the token nearly expires
	if _, err := e.s.PlayAs("alice", id, "bS1 -wS1"); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(60 * time.Second)
	row := e.game(tok, id)
	if row["finished"] != true || row["game_status"] != "Finished(Winner(b))" || row["conclusion"] != "Timeout" || row["white_time_left"] != 0.0 {
		t.Errorf("at the deadline: %v %v %v %v", row["finished"], row["game_status"], row["conclusion"], row["white_time_left"])
	}
	if got := e.playErr(tok, id, "wA1 wS1-"); got != "Game is finished" {
		t.Errorf("play after the flag: %q", got)
	}
	if got := e.playErr(tok, id, "wA1"); got != "Invalid move format: expected 'piece position'" {
		t.Errorf("malformed play after the flag: %q", got)
	}
}

// Random games in every expansion through the API, moves written by UHP's
// codec: every move core allows is accepted, and the history the site
// writes reads back, with the site's parser, to the same position.
func TestRandomGamesAgreeWithCore(t *testing.T) {
	e := newEnv(t)
	e.s.AddUser("nokamute", "noka@bots.example", "pw", true)
	white := e.login()
	black := e.do("POST", "/api/v1/auth/token", "", `{"email":"nokamute","password":"pw"}`).data(t, true)["token"].(string)
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 4 {
		id, err := e.s.Challenge("nokamute", "hydra", ChallengeSpec{GameType: core.AllExpansions, Color: ColorBlack})
		if err != nil {
			t.Fatal(err)
		}
		e.do("GET", "/api/v1/bot/challenge/accept/"+id, white, "").data(t, true)
		g := core.NewGame(core.AllExpansions)
		history := ""
		for ply := 0; ply < 80 && !g.Over(); ply++ {
			var l core.MoveList
			g.GenerateMoves(&l)
			if l.Len() == 1 && l.At(0) == core.Pass {
				t.Logf("round %d: stuck without a Queen at ply %d", round, ply)
				break
			}
			m := l.At(r.IntN(l.Len()))
			tok := white
			if g.ToMove() == core.Black {
				tok = black
			}
			text := uhp.FormatMove(m, g)
			history = e.mustPlay(tok, id, text)
			g.Play(m)
			if shutOut(g) {
				g.Play(core.Pass)
			}
			replay := replaySiteHistory(t, history)
			if replay.PositionKey() != g.PositionKey() || replay.ToMove() != g.ToMove() {
				t.Fatalf("round %d ply %d (%s): history %q does not read back to the position", round, ply, text, history)
			}
		}
		row := e.game(white, id)
		if row["finished"] != g.Over() {
			t.Errorf("round %d: finished %v, core says %v", round, row["finished"], g.Over())
		}
	}
}

// replaySiteHistory reads a history string as the site's State::new_from_str
// does: entries split on ';', "pass", the first move bare.
func replaySiteHistory(t *testing.T, h string) *core.Game {
	t.Helper()
	g := core.NewGame(core.AllExpansions)
	for k, entry := range strings.Split(strings.TrimSuffix(h, ";"), ";") {
		piece, pos, _ := strings.Cut(entry, " ")
		if piece == "pass" {
			g.Play(core.Pass)
			continue
		}
		p, e := parsePiece(piece)
		if e != "" {
			t.Fatalf("entry %d %q: %s", k, entry, e)
		}
		pc, _ := p.inGame(g)
		to := core.Origin
		if k > 0 {
			if !strings.ContainsAny(pos, `-/\.`) {
				ref, e := parsePiece(pos)
				if e != "" {
					t.Fatalf("entry %d %q: %s", k, entry, e)
				}
				rp, _ := ref.inGame(g)
				to = g.Position(rp)
			} else if to, e = parsePosition(pos, g); e != "" {
				t.Fatalf("entry %d %q: %s", k, entry, e)
			}
		}
		if err := g.PlayChecked(core.MakeMove(pc, to)); err != nil {
			t.Fatalf("entry %d %q: %v", k, entry, err)
		}
	}
	return g
}

// The clocks after each move: the increment to the mover, and to the
// passed player as well on an automatic pass; correspondence days per move
// reset the mover's clock, total time does not.
func TestClocks(t *testing.T) {
	e := newEnv(t)
	tok := e.login()
	id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Time: RealTime{1, 10}, Color: ColorBlack})
	for k, m := range []string{"wB1", "bG1 /wB1", "wA1 \\wB1", "bQ -bG1", "wQ -wA1", "bQ wQ\\", "wB1 bG1"} {
		if k%2 == 1 {
			if _, err := e.s.PlayAs("alice", id, m); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
		} else {
			e.mustPlay(tok, id, m)
		}
	}
	row := e.game(tok, id)
	var got []float64
	for _, v := range row["move_times"].([]any) {
		got = append(got, v.(float64)/1e9)
	}
	if want := []float64{60, 60, 70, 70, 80, 80, 90, 90}; !slices.Equal(got, want) {
		t.Errorf("move_times %v, want %v", got, want)
	}
	if row["white_time_left"] != 90e9 || row["black_time_left"] != 90e9 {
		t.Errorf("clocks %v %v", row["white_time_left"], row["black_time_left"])
	}
	last, _ := time.Parse(time.RFC3339Nano, row["last_interaction"].(string))
	deadline, _ := time.Parse(time.RFC3339Nano, row["timeout_at"].(string))
	if deadline.Sub(last) != 90*time.Second {
		t.Errorf("timeout_at %v, last_interaction %v", row["timeout_at"], row["last_interaction"])
	}

	for _, c := range []struct {
		tc   Correspondence
		want time.Duration
	}{{Correspondence{Days: 1}, 24 * time.Hour}, {Correspondence{Days: 1, TotalTimeEach: true}, 23 * time.Hour}} {
		tok := e.login()
		id := e.newGame(tok, ChallengeSpec{GameType: core.Base, Time: c.tc, Color: ColorBlack})
		e.mustPlay(tok, id, "wS1")
		if _, err := e.s.PlayAs("alice", id, "bS1 -wS1"); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Hour)
		e.mustPlay(tok, id, "wQ wS1/")
		if g, _ := e.s.Game(id); *g.WhiteLeft != c.want || *g.BlackLeft != 24*time.Hour {
			t.Errorf("%+v: white %v black %v, want %v", c.tc, *g.WhiteLeft, *g.BlackLeft, c.want)
		}
	}
}

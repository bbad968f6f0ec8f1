package hivegametest

import (
	"fmt"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// timeMode is a game's or challenge's kind of clock.
type timeMode int

const (
	untimed timeMode = iota
	realTime
	correspondence
)

// rowName is TimeMode's Display, which the game row stores ("Real Time",
// with a space).
func (m timeMode) rowName() string {
	return [...]string{"Untimed", "Real Time", "Correspondence"}[m]
}

// serdeName is TimeMode's serde spelling, which ChallengeResponse and
// GameResponse use ("RealTime", no space).
func (m timeMode) serdeName() string {
	return [...]string{"Untimed", "RealTime", "Correspondence"}[m]
}

const nanosPerSecond = int64(time.Second)

// game is a row of the site's games table, with the position kept by core.
type game struct {
	id, nanoid   string
	white, black *user
	cg           *core.Game
	moves        [][2]string // (piece, destination) per ply, as History.moves
	controls     string      // game_control_history
	rated        bool
	mode         timeMode
	// timeBase and timeIncrement are the row's seconds: RealTime base and
	// increment; Correspondence TotalTimeEach base, DaysPerMove increment.
	timeBase, timeIncrement *int64
	whiteLeft, blackLeft    *int64 // nanoseconds at lastInteraction
	lastInteraction         *time.Time
	timeoutAt, finishedAt   *time.Time
	createdAt, updatedAt    time.Time
	finished                bool
	status                  string
	conclusion              string
	tgr                     string
	speed                   string
	hashes                  []int64
	moveTimes               []*int64
	turn                    int
	plays                   int
	whiteRating             *float64
	blackRating             *float64
	whiteChange             *float64
	blackChange             *float64
}

// history is the row's history string (update_gamestate): "piece dest;" per
// ply, so "wS1 ;" for the first move and "pass ;" for a pass.
func (g *game) history() string {
	var b strings.Builder
	for _, m := range g.moves {
		b.WriteString(m[0] + " " + m[1] + ";")
	}
	return b.String()
}

// perMove is a DaysPerMove game's allowance per move in nanoseconds, zero
// for any other clock.
func (g *game) perMove() int64 {
	if g.mode == correspondence && g.timeIncrement != nil {
		return *g.timeIncrement * nanosPerSecond
	}
	return 0
}

// left returns the clock of a colour.
func (g *game) left(c core.Color) **int64 {
	if c == core.White {
		return &g.whiteLeft
	}
	return &g.blackLeft
}

// colorOf returns the colour u plays in g, and false if u does not play.
func (g *game) colorOf(u *user) (core.Color, bool) {
	switch u {
	case g.white:
		return core.White, true
	case g.black:
		return core.Black, true
	}
	return core.White, false
}

// mover is the colour whose turn it is by the row's turn (passes counted).
func (g *game) mover() core.Color { return core.Color(g.turn % 2) }

// currentPlayer is the row's current_player_id: whoever moves next by the
// turn's parity, still set when the game is finished.
func (g *game) currentPlayer() *user {
	if g.mover() == core.White {
		return g.white
	}
	return g.black
}

// speedOf is GameSpeed::from for a clock.
func speedOf(mode timeMode, base, increment *int64) string {
	switch mode {
	case untimed:
		return "Untimed"
	case correspondence:
		return "Correspondence"
	}
	total := *base + 40**increment
	switch {
	case total == 0:
		return "Untimed"
	case total < 180:
		return "Bullet"
	case total < 480:
		return "Blitz"
	case total < 1500:
		return "Rapid"
	case total < 18000:
		return "Classic"
	}
	return "Correspondence"
}

// newGame is NewGame::new for an accepted challenge: NotStarted at turn 0,
// White to move, clocks full, the challenge's nanoid.
func newGame(c *challenge, white, black *user, now time.Time) *game {
	g := &game{
		id: newUUID(), nanoid: c.nanoid, white: white, black: black,
		cg:    core.NewGame(c.gameType, core.QueenOnFirstTurn(false), core.RepetitionDraw(true)),
		rated: c.rated, mode: c.mode, timeBase: c.timeBase, timeIncrement: c.timeIncrement,
		createdAt: now, updatedAt: now,
		status: "NotStarted", conclusion: "Unknown", tgr: "Unknown",
		speed: speedOf(c.mode, c.timeBase, c.timeIncrement),
	}
	var full *int64
	switch {
	case c.mode == untimed:
	case c.timeBase != nil:
		full = new(*c.timeBase * nanosPerSecond)
	default:
		full = new(*c.timeIncrement * nanosPerSecond)
	}
	if full != nil {
		g.whiteLeft, g.blackLeft = new(*full), new(*full)
	}
	return g
}

// finish records a result the way the site's finishing paths share:
// finished, status, tournament result, conclusion, ratings, no deadline.
func (g *game) finish(result core.Result, conclusion string, at, now time.Time) {
	g.finished = true
	switch result {
	case core.WhiteWins:
		g.status, g.tgr = "Finished(Winner(w))", "1-0"
	case core.BlackWins:
		g.status, g.tgr = "Finished(Winner(b))", "0-1"
	default:
		g.status, g.tgr = "Finished(Draw)", "½-½"
	}
	g.conclusion = conclusion
	g.whiteRating, g.blackRating = new(1500.0), new(1500.0)
	if g.rated {
		g.whiteChange, g.blackChange = new(0.0), new(0.0)
	}
	g.timeoutAt = nil
	g.finishedAt = new(at)
	g.updatedAt = now
}

// winnerAgainst is the result when c loses.
func winnerAgainst(c core.Color) core.Result {
	if c == core.White {
		return core.BlackWins
	}
	return core.WhiteWins
}

// settle is Game::settle_deadline: a timed game whose mover's deadline
// (timeout_at) has come is finished by timeout, the mover's clock at zero,
// the deadline as when it finished. It reports whether it finished g.
func (g *game) settle(now time.Time) bool {
	if g.finished || g.mode == untimed || g.timeoutAt == nil || now.Before(*g.timeoutAt) {
		return false
	}
	loser := g.mover()
	*g.left(loser) = new(int64(0))
	g.finish(winnerAgainst(loser), "Timeout", *g.timeoutAt, now)
	return true
}

// elapse is calculate_time_left_at for the colour that was to move: its
// clock less the time since the last interaction, or zero if that is all
// of it.
func (g *game) elapse(mover core.Color, now time.Time) {
	left := g.left(mover)
	if *left == nil || g.lastInteraction == nil {
		return
	}
	passed := int64(now.Sub(*g.lastInteraction))
	if passed < 0 {
		passed = 0
	}
	if **left > passed {
		*left = new(**left - passed)
	} else {
		*left = new(int64(0))
	}
}

// shutOut is Board::is_shutout for the side to move: no legal move, and its
// Queen on the board (the site passes for nobody else, so a player with no
// Queen down and no move is left stuck, as on the site).
func shutOut(g *core.Game) bool {
	if g.Over() {
		return false
	}
	q, _ := core.MakePiece(g.ToMove(), core.Queen, 0)
	if g.InHand(q) {
		return false
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.Len() == 1 && l.At(0) == core.Pass
}

// queensSurrounded reports whether a Queen is surrounded, which tells a
// draw on the board from a draw by repetition.
func queensSurrounded(g *core.Game) bool {
	for _, c := range []core.Color{core.White, core.Black} {
		q, _ := core.MakePiece(c, core.Queen, 0)
		if at := g.Position(q); at != core.NoCell && g.Neighbors(at) == 63 {
			return true
		}
	}
	return false
}

// play is game_command::execute for Command::Move after the parse: the
// deadline settled, then "Game is finished", "Not your turn", and "Invalid
// input" for a move the rules refuse; then update_gamestate. It returns the
// error text, or "" once the move is made.
func (g *game) play(u *user, m siteMove, now time.Time) string {
	g.settle(now)
	if g.finished {
		return "Game is finished"
	}
	if u != g.currentPlayer() {
		return "Not your turn"
	}
	if !m.exists {
		return "Invalid input"
	}
	if g.cg.PlayChecked(core.MakeMove(m.piece, m.to)) != nil {
		return "Invalid input"
	}
	g.plays++
	oldTurn, oldStatus, mover := g.turn, g.status, g.mover()
	g.moves = append(g.moves, [2]string{m.piece.String(), historyDestination(g.cg, m.piece)})
	g.hashes = append(g.hashes, int64(g.cg.PositionKey()))
	g.turn++
	passed := shutOut(g.cg)
	if passed {
		g.cg.Play(core.Pass)
		g.moves = append(g.moves, [2]string{"pass", ""})
		g.hashes = append(g.hashes, int64(g.cg.PositionKey()))
		g.turn++
	}

	// The engine's status after the move, then the clocks
	// (get_time_info_at): an ordinary game's clocks and its NotStarted
	// status hold until Black's first move; untimed games take the
	// engine's status as it is.
	status, over := "InProgress", g.cg.Over()
	opening := oldTurn < 2 && oldStatus == "NotStarted"
	switch {
	case g.mode == untimed:
	case opening:
		if oldTurn == 0 {
			status = "NotStarted"
		}
	case g.mode == realTime:
		g.elapse(mover, now)
		if *g.whiteLeft != 0 && *g.blackLeft != 0 {
			inc := *g.timeIncrement * nanosPerSecond
			*g.left(mover) = new(**g.left(mover) + inc)
			if passed {
				*g.left(mover.Other()) = new(**g.left(mover.Other()) + inc)
			}
		}
	default:
		g.elapse(mover, now)
		if pm := g.perMove(); pm != 0 && **g.left(mover) != 0 {
			*g.left(mover) = new(pm)
			if passed {
				*g.left(mover.Other()) = new(pm)
			}
		}
	}
	if g.mode != untimed {
		g.moveTimes = append(g.moveTimes, new(**g.left(mover)))
		if passed {
			g.moveTimes = append(g.moveTimes, new(**g.left(mover.Other())))
		}
	}
	g.lastInteraction = new(now)
	g.updatedAt = now
	if over {
		conclusion := "Board"
		if g.cg.Result() == core.Draw && !queensSurrounded(g.cg) {
			conclusion = "Repetition"
		}
		g.finish(g.cg.Result(), conclusion, now, now)
		return ""
	}
	g.status = status
	g.timeoutAt = nil
	if g.mode != untimed && status != "NotStarted" {
		g.timeoutAt = new(now.Add(time.Duration(**g.left(g.mover()))))
	}
	return ""
}

// control is handle_control after the game is found: control_from_request
// ("Not your game", then the control's name), the deadline settled, then
// validate_control's rules. Resign finishes the game for the opponent;
// abort deletes it, which the caller does when removed is true.
func (g *game) control(u *user, name string, now time.Time) (removed bool, errText string) {
	color, ok := g.colorOf(u)
	if !ok {
		return false, "Not your game"
	}
	var ctl string
	switch name {
	case "resign":
		ctl = "Resign"
	case "abort":
		ctl = "Abort"
	default:
		return false, "Invalid control type: " + name
	}
	g.settle(now)
	if g.finished {
		return false, "Game is finished"
	}
	// An ordinary game InProgress before turn 2 (an untimed game after
	// White's first move) is a "resumed opening": it may not be aborted,
	// and any other control is allowed whatever the turn.
	resumed := g.status == "InProgress" && g.turn < 2
	switch {
	case ctl == "Abort" && (resumed || g.turn >= 2):
		return false, "Cannot abort after turn 2"
	case ctl == "Resign" && !resumed && g.turn <= 1:
		return false, "Cannot resign before turn 2"
	}
	entry := fmt.Sprintf("%s(%s)", ctl, colorLetter(color))
	if entries := strings.Split(strings.TrimSuffix(g.controls, ";"), ";"); g.controls != "" {
		last := strings.Fields(entries[len(entries)-1])
		if len(last) > 0 && last[len(last)-1] == entry {
			return false, "Control already sent"
		}
	}
	if ctl == "Abort" {
		return true, ""
	}
	// finish_game_control: the control written down, the clocks brought to
	// now, the opponent the winner.
	g.controls += fmt.Sprintf("%d. %s;", g.turn, entry)
	if g.mode != untimed {
		g.elapse(g.mover(), now)
	}
	g.lastInteraction = new(now)
	g.finish(winnerAgainst(color), "Resigned", now, now)
	return false, ""
}

// colorLetter is Color's Display.
func colorLetter(c core.Color) string {
	if c == core.White {
		return "w"
	}
	return "b"
}

// row is the game as the site serialises its Game model (db/src/models/
// game.rs, N): every column under its own name, no renames.
func (g *game) row() map[string]any {
	hashes := make([]any, len(g.hashes))
	for k, h := range g.hashes {
		hashes[k] = h
	}
	moveTimes := make([]any, len(g.moveTimes))
	for k, t := range g.moveTimes {
		moveTimes[k] = optInt(t)
	}
	return map[string]any{
		"id":                     g.id,
		"nanoid":                 g.nanoid,
		"current_player_id":      g.currentPlayer().id,
		"black_id":               g.black.id,
		"finished":               g.finished,
		"game_status":            g.status,
		"game_type":              g.cg.Type().Name(),
		"history":                g.history(),
		"game_control_history":   g.controls,
		"rated":                  g.rated,
		"tournament_queen_rule":  true,
		"turn":                   g.turn,
		"white_id":               g.white.id,
		"white_rating":           optFloat(g.whiteRating),
		"black_rating":           optFloat(g.blackRating),
		"white_rating_change":    optFloat(g.whiteChange),
		"black_rating_change":    optFloat(g.blackChange),
		"created_at":             chronoTime(g.createdAt),
		"updated_at":             chronoTime(g.updatedAt),
		"time_mode":              g.mode.rowName(),
		"time_base":              optInt(g.timeBase),
		"time_increment":         optInt(g.timeIncrement),
		"last_interaction":       optTime(g.lastInteraction),
		"black_time_left":        optInt(g.blackLeft),
		"white_time_left":        optInt(g.whiteLeft),
		"speed":                  g.speed,
		"hashes":                 hashes,
		"conclusion":             g.conclusion,
		"tournament_id":          nil,
		"tournament_game_result": g.tgr,
		"game_start":             "Moves",
		"move_times":             moveTimes,
		"timeout_at":             optTime(g.timeoutAt),
		"white_berserked":        false,
		"black_berserked":        false,
		"finished_at":            optTime(g.finishedAt),
		"arena_move_due_at":      nil,
		"tournament_slot_id":     nil,
		"arena_ordinal":          nil,
	}
}

// variantName is GameType's serde spelling in GameResponse: the variant,
// "MLP", not the row's "Base+MLP".
func variantName(t core.GameType) string {
	if name, ok := strings.CutPrefix(t.Name(), "Base+"); ok {
		return name
	}
	return "Base"
}

// reserveOrder is the site's piece slots (Board::piece_to_offset): bugs in
// the engine's Bug order, each bug's pieces by number.
var reserveOrder = []struct {
	bug  core.Bug
	name string
}{
	{core.Ant, "Ant"}, {core.Beetle, "Beetle"}, {core.Grasshopper, "Grasshopper"},
	{core.Ladybug, "Ladybug"}, {core.Mosquito, "Mosquito"}, {core.Pillbug, "Pillbug"},
	{core.Queen, "Queen"}, {core.Spider, "Spider"},
}

// reserve is Board::reserve: the pieces of a colour still in hand, by bug.
func reserve(g *core.Game, c core.Color) map[string]any {
	out := map[string]any{}
	for _, b := range reserveOrder {
		var names []any
		for n := 1; n <= core.BugCount(b.bug); n++ {
			if p, ok := core.MakePiece(c, b.bug, n); ok && g.InPlay(p) && g.InHand(p) {
				names = append(names, p.String())
			}
		}
		if len(names) > 0 {
			out[b.name] = names
		}
	}
	return out
}

// response is GameResponse (apis/src/responses/game.rs), which only the
// accept endpoint returns, for a game that has just been created: serde's
// enum spellings, clocks as {"secs","nanos"}, the players in full.
func (g *game) response() map[string]any {
	history := make([]any, len(g.moves))
	for k, m := range g.moves {
		history[k] = []any{m[0], m[1]}
	}
	return map[string]any{
		"uuid":                  g.id,
		"game_id":               g.nanoid,
		"tournament":            nil,
		"current_player_id":     g.currentPlayer().id,
		"turn":                  g.turn,
		"finished":              g.finished,
		"game_status":           g.status,
		"game_type":             variantName(g.cg.Type()),
		"tournament_queen_rule": true,
		"white_player":          userResponse(g.white),
		"black_player":          userResponse(g.black),
		// The empty board: no piece may move, and White's only spawn is
		// the engine's initial cell, (16, 16) on its 32×32 torus.
		"moves":                  map[string]any{},
		"spawns":                 []any{map[string]any{"q": 16, "r": 16}},
		"rated":                  g.rated,
		"reserve_black":          reserve(g.cg, core.Black),
		"reserve_white":          reserve(g.cg, core.White),
		"history":                history,
		"game_control_history":   []any{},
		"white_rating":           jsonFloat(1500),
		"black_rating":           jsonFloat(1500),
		"white_rating_change":    nil,
		"black_rating_change":    nil,
		"time_mode":              g.mode.serdeName(),
		"time_base":              optInt(g.timeBase),
		"time_increment":         optInt(g.timeIncrement),
		"speed":                  g.speed,
		"black_time_left":        rustDuration(g.blackLeft),
		"white_time_left":        rustDuration(g.whiteLeft),
		"white_berserked":        false,
		"black_berserked":        false,
		"last_interaction":       optTime(g.lastInteraction),
		"finished_at":            optTime(g.finishedAt),
		"arena_move_due_at":      nil,
		"created_at":             chronoTime(g.createdAt),
		"updated_at":             chronoTime(g.updatedAt),
		"hashes":                 []any{},
		"conclusion":             g.conclusion,
		"repetitions":            []any{},
		"game_start":             "Moves",
		"move_times":             []any{},
		"tournament_game_result": g.tgr,
	}
}

// ratedSpeeds are GameSpeed::all_rated, for which every user has a rating.
var ratedSpeeds = []string{"Bullet", "Blitz", "Rapid", "Classic", "Correspondence"}

// userResponse is UserResponse (apis/src/responses/user.rs): every rated
// speed at the starting rating, nothing played.
func userResponse(u *user) map[string]any {
	ratings := map[string]any{}
	for _, sp := range ratedSpeeds {
		ratings[sp] = map[string]any{
			"speed": sp, "rating": 1500, "played": 0, "win": 0, "loss": 0, "draw": 0,
			"certainty": "Clueless", "user_uid": u.id,
		}
	}
	return map[string]any{
		"username": u.username, "uid": u.id, "patreon": false, "bot": u.bot,
		"admin": false, "deleted": false, "ratings": ratings,
		"takeback": "CasualOnly", "lang": nil,
	}
}

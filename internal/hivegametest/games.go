package hivegametest

import (
	"net/http"
	"slices"
	"strconv"
	"time"
)

// The game endpoints: apis/src/api/v1/bot/{games,play,users}.rs (N).

// clock reads the server's clock as the database stores a timestamp.
func (s *Server) clock() time.Time { return dbTime(s.now()) }

// sweep does at once what the site's background jobs do in their own time:
// timeout_sweeper finishes games whose mover's deadline has passed,
// game_cleanup deletes unstarted non-correspondence games after 12 h, and
// challenge_cleanup deletes non-public challenges after 7 days. The caller
// holds s.mu.
func (s *Server) sweep(now time.Time) {
	for _, id := range slices.Clone(s.gameOrder) {
		g := s.games[id]
		g.settle(now)
		if g.status == "NotStarted" && g.mode != correspondence && now.Sub(g.createdAt) > 12*time.Hour {
			s.removeGame(id)
		}
	}
	for _, id := range slices.Clone(s.chalOrder) {
		if c := s.challenges[id]; c.visibility != "Public" && now.Sub(c.createdAt) > 7*24*time.Hour {
			s.removeChallenge(id)
		}
	}
}

// removeGame deletes a game's row. The caller holds s.mu.
func (s *Server) removeGame(id string) {
	delete(s.games, id)
	s.gameOrder = slices.DeleteFunc(s.gameOrder, func(x string) bool { return x == id })
}

// removeChallenge deletes a challenge. The caller holds s.mu.
func (s *Server) removeChallenge(id string) {
	delete(s.challenges, id)
	s.chalOrder = slices.DeleteFunc(s.chalOrder, func(x string) bool { return x == id })
}

// botData starts a bot handler's data: who asked.
func botData(u *user) map[string]any {
	return map[string]any{"bot": u.email, "bot_username": u.username}
}

// readGameRequest reads the body of a request of two strings, game_id and
// second (PlayRequest's piece_pos, ControlRequest's control), as actix's
// JSON extractor and serde read it, before the token is looked at; a body
// they refuse is answered here (deserializeError), and ok is false.
func readGameRequest(w http.ResponseWriter, r *http.Request, name, second string) (gameID, value string, ok bool) {
	v, body, ok := readBody(w, r)
	if !ok {
		return "", "", false
	}
	sr, serr := readStruct(v, name)
	if serr == nil {
		serr = sr.fields([]string{"game_id", second}, func(k string, v *jval) *serdeError {
			var err *serdeError
			if k == "game_id" {
				gameID, err = asString(v)
			} else {
				value, err = asString(v)
			}
			return err
		})
	}
	if serr == nil {
		serr = sr.require("game_id", second)
	}
	if serr != nil {
		deserializeError(w, body, serr)
		return "", "", false
	}
	return gameID, value, true
}

// handlePlay is POST /api/v1/bot/games/play: the body, the token, the game
// ("Not found"), the move's parse, then the game's checks.
func (s *Server) handlePlay(w http.ResponseWriter, r *http.Request) {
	gameID, piecePos, ok := readGameRequest(w, r, "PlayRequest", "piece_pos")
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts[gameID]++
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	history, errText := s.playLocked(u, gameID, piecePos)
	if errText != "" {
		failure(w, errText)
		return
	}
	data := botData(u)
	data["history"] = history
	succeed(w, data)
}

// playLocked is play_move for any player, the bot's API and PlayAs alike.
// The caller holds s.mu.
func (s *Server) playLocked(u *user, gameID, piecePos string) (history, errText string) {
	now := s.clock()
	s.sweep(now)
	g := s.games[gameID]
	if g == nil {
		return "", "Not found"
	}
	m, e := parseSiteMove(piecePos, g.turn, g.cg)
	if e != "" {
		return "", e
	}
	if e := g.play(u, m, now); e != "" {
		return "", e
	}
	return g.history(), ""
}

// handleControl is POST /api/v1/bot/games/control: the body, the token, the
// game ("Not found"), then the control's checks.
func (s *Server) handleControl(w http.ResponseWriter, r *http.Request) {
	gameID, control, ok := readGameRequest(w, r, "ControlRequest", "control")
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	finished, errText := s.controlLocked(u, gameID, control)
	if errText != "" {
		failure(w, errText)
		return
	}
	data := botData(u)
	data["game_id"] = gameID
	data["finished"] = finished
	succeed(w, data)
}

// controlLocked is handle_control for any player. An aborted game is
// deleted and reported as the row was before (finished false): N answers
// with the projected game, whose value for a removed one the notes could
// not confirm. The caller holds s.mu.
func (s *Server) controlLocked(u *user, gameID, control string) (finished bool, errText string) {
	now := s.clock()
	s.sweep(now)
	g := s.games[gameID]
	if g == nil {
		return false, "Not found"
	}
	removed, e := g.control(u, control, now)
	if e != "" {
		return false, e
	}
	if removed {
		s.removeGame(gameID)
	}
	return g.finished, ""
}

// handleGame is GET /api/v1/bot/game/{nanoid}: any game, the bot's or not,
// as a one-element array.
func (s *Server) handleGame(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.sweep(s.clock())
	g := s.games[id]
	if g == nil {
		failure(w, "Not found: Not found.")
		return
	}
	data := botData(u)
	data["games"] = []any{g.row()}
	succeed(w, data)
}

// handleGameList is GET /api/v1/bot/games/pending (the bot's unfinished
// games where it is to move: get_games_with_notifications, which for
// ordinary games includes one at turn 0 with the bot White) and
// GET /api/v1/bot/games/ongoing (all its unfinished games).
func (s *Server) handleGameList(w http.ResponseWriter, r *http.Request, pending bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.sweep(s.clock())
	games := []any{}
	for _, id := range s.gameOrder {
		g := s.games[id]
		if g.finished || g.white != u && g.black != u || pending && g.currentPlayer() != u {
			continue
		}
		games = append(games, g.row())
	}
	data := botData(u)
	data["games"] = games
	succeed(w, data)
}

// handleUser is GET /api/v1/bot/user/{id} (users.rs, the only stored
// version: {"bot", "user"}, no bot_username). The id is read before the
// token; one that is not a UUID is actix's Path error, a plain-text 404.
func (s *Server) handleUser(w http.ResponseWriter, r *http.Request, id string) {
	if e := uuidError(id); e != "" {
		plainText(w, http.StatusNotFound, e)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	var found *user
	for _, x := range s.users {
		if equalUUID(x.id, id) {
			found = x
		}
	}
	if found == nil {
		failure(w, "Not found: Not found.")
		return
	}
	succeed(w, map[string]any{"bot": u.email, "user": userResponse(found)})
}

// uuidError is the uuid crate's refusal of a path segment, roughly: the
// hyphenated, simple, braced and urn forms are accepted.
func uuidError(s string) string {
	h := normUUID(s)
	if len(h) != 32 {
		return "UUID parsing failed: invalid length: expected length 32 for simple format, found " + strconv.Itoa(len(h))
	}
	for k := 0; k < len(h); k++ {
		c := h[k]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return "UUID parsing failed: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `" + string(c) + "` at " + strconv.Itoa(k+1)
		}
	}
	return ""
}

// normUUID strips a UUID's decorations, leaving its hex digits.
func normUUID(s string) string {
	if len(s) > 9 && s[:9] == "urn:uuid:" {
		s = s[9:]
	}
	if len(s) > 1 && s[0] == '{' && s[len(s)-1] == '}' {
		s = s[1 : len(s)-1]
	}
	out := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		if s[k] != '-' {
			out = append(out, s[k])
		}
	}
	return string(out)
}

// equalUUID compares two UUIDs in any of their spellings.
func equalUUID(a, b string) bool {
	x, y := normUUID(a), normUUID(b)
	if len(x) != len(y) {
		return false
	}
	for k := 0; k < len(x); k++ {
		if x[k]|0x20 != y[k]|0x20 {
			return false
		}
	}
	return true
}

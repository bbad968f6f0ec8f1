package hivegametest

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// The challenge endpoints: apis/src/api/v1/bot/challenges.rs (N) and
// db/src/models/challenge.rs.

// challenge is a row of the site's challenges table.
type challenge struct {
	id, nanoid              string
	challenger, opponent    *user // opponent nil unless Direct
	gameType                core.GameType
	rated                   bool
	visibility              string // Direct, Public or Private
	color                   string // the challenger's: White, Black or Random
	createdAt               time.Time
	mode                    timeMode
	timeBase, timeIncrement *int64
	bandUpper, bandLower    *int64
}

// response is ChallengeResponse (apis/src/responses/challenge.rs): the
// row's game type ("Base+MLP"), serde's time mode ("RealTime").
func (c *challenge) response() map[string]any {
	var opponent any
	if c.opponent != nil {
		opponent = userResponse(c.opponent)
	}
	return map[string]any{
		"id":                c.id,
		"challenge_id":      c.nanoid,
		"challenger":        userResponse(c.challenger),
		"opponent":          opponent,
		"game_type":         c.gameType.Name(),
		"rated":             c.rated,
		"visibility":        c.visibility,
		"color_choice":      c.color,
		"created_at":        chronoTime(c.createdAt),
		"challenger_rating": 1500,
		"time_mode":         c.mode.serdeName(),
		"time_base":         optInt(c.timeBase),
		"time_increment":    optInt(c.timeIncrement),
		"speed":             speedOf(c.mode, c.timeBase, c.timeIncrement),
		"band_upper":        optInt(c.bandUpper),
		"band_lower":        optInt(c.bandLower),
	}
}

// siteGameType is GameType::from_str: a game type's Display ("Base+MLP")
// or its variant name ("MLP").
func siteGameType(name string) (core.GameType, bool) {
	if name == "Base" {
		return core.Base, true
	}
	name = strings.TrimPrefix(name, "Base+")
	var t core.GameType
	for _, v := range []struct {
		name string
		t    core.GameType
	}{{"M", core.WithMosquito}, {"L", core.WithLadybug}, {"P", core.WithPillbug}, {"ML", core.WithMosquito | core.WithLadybug}, {"MP", core.WithMosquito | core.WithPillbug}, {"LP", core.WithLadybug | core.WithPillbug}, {"MLP", core.AllExpansions}} {
		if v.name == name {
			t = v.t
		}
	}
	return t, t != core.Base
}

// challengeDetails is a BotChallengeRequest once read.
type challengeDetails struct {
	gameType             core.GameType
	visibility           string
	opponent             *string
	color                string
	rated                bool
	bandUpper, bandLower *int64
	time                 TimeControl
}

// validate is BotChallengeRequest::validate_and_convert: its checks in its
// order, and the clock as the challenge stores it (RealTime base in
// minutes stored as seconds; correspondence days as seconds, as base for
// TotalTimeEach and as increment for DaysPerMove).
func (d *challengeDetails) validate() (mode timeMode, base, increment *int64, errText string) {
	switch {
	case d.gameType == core.Base && d.rated:
		return 0, nil, nil, "Base game type cannot be rated"
	case d.gameType != core.Base && d.gameType != core.AllExpansions:
		return 0, nil, nil, "Only Base and MLP allowed"
	case d.visibility == "Direct" && d.opponent == nil:
		return 0, nil, nil, "Direct challenges require an opponent username"
	case d.visibility != "Direct" && d.opponent != nil:
		return 0, nil, nil, "Only direct challenges can have an opponent username"
	case d.bandLower != nil && d.bandUpper != nil && *d.bandLower > *d.bandUpper:
		return 0, nil, nil, "Invalid rating restriction"
	}
	switch t := d.time.(type) {
	case RealTime:
		if t.BaseMinutes < 1 || t.BaseMinutes > 180 {
			return 0, nil, nil, "RealTime base must be between 1 and 180 minutes"
		}
		if t.IncrementSeconds < 0 || t.IncrementSeconds > 180 {
			return 0, nil, nil, "RealTime increment must be between 0 and 180 seconds"
		}
		return realTime, new(int64(t.BaseMinutes) * 60), new(int64(t.IncrementSeconds)), ""
	case Correspondence:
		if t.Days < 1 || t.Days > 20 {
			return 0, nil, nil, "Correspondence days must be between 1 and 20"
		}
		secs := new(int64(t.Days) * 86400)
		if t.TotalTimeEach {
			return correspondence, secs, nil, ""
		}
		return correspondence, nil, secs, ""
	default:
		if d.rated {
			return 0, nil, nil, "Untimed games cannot be rated"
		}
		return untimed, nil, nil, ""
	}
}

// createChallenge is create_challenge after validation: the opponent looked
// up by username, NewChallenge::new's own check ("Invalid input" for a
// challenge to oneself), a fresh nanoid. The caller holds s.mu.
func (s *Server) createChallenge(from *user, d *challengeDetails) (*challenge, string) {
	mode, base, inc, e := d.validate()
	if e != "" {
		return nil, e
	}
	var opponent *user
	if d.visibility == "Direct" {
		opponent = s.byName[strings.ToLower(*d.opponent)]
		if opponent == nil {
			return nil, "Not found: Not found."
		}
		if opponent == from {
			return nil, "Invalid input"
		}
	}
	c := &challenge{
		id: newUUID(), nanoid: s.newNanoid(), challenger: from, opponent: opponent,
		gameType: d.gameType, rated: d.rated, visibility: d.visibility, color: d.color,
		createdAt: s.clock(), mode: mode, timeBase: base, timeIncrement: inc,
		bandUpper: d.bandUpper, bandLower: d.bandLower,
	}
	s.challenges[c.nanoid] = c
	s.chalOrder = append(s.chalOrder, c.nanoid)
	return c, ""
}

// handleCreateChallenge is POST /api/v1/bot/challenges/.
func (s *Server) handleCreateChallenge(w http.ResponseWriter, r *http.Request) {
	v, body, ok := readBody(w, r)
	if !ok {
		return
	}
	d, serr := readChallengeRequest(v)
	if serr != nil {
		deserializeError(w, body, serr)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.sweep(s.clock())
	c, e := s.createChallenge(u, d)
	if e != "" {
		failure(w, e)
		return
	}
	data := botData(u)
	data["challenge"] = c.response()
	succeed(w, data)
}

// readChallengeRequest reads a BotChallengeRequest as serde would: enums
// externally tagged, game_type through GameType::from_str, the Option
// fields optional.
func readChallengeRequest(v *jval) (*challengeDetails, *serdeError) {
	d := &challengeDetails{}
	sr, serr := readStruct(v, "BotChallengeRequest")
	if serr != nil {
		return nil, serr
	}
	serr = sr.fields([]string{"game_type", "visibility", "opponent", "color_choice", "time_control", "rated", "band_upper", "band_lower"},
		func(k string, v *jval) *serdeError {
			var err *serdeError
			switch k {
			case "game_type":
				var name string
				if name, err = asString(v); err == nil {
					t, ok := siteGameType(name)
					if !ok {
						return &serdeError{parseError(name, "game type string"), v.end}
					}
					d.gameType = t
				}
			case "visibility":
				d.visibility, err = asUnitVariant(v, "Direct", "Public", "Private")
			case "opponent":
				if v.kind != 'z' {
					var name string
					name, err = asString(v)
					d.opponent = &name
				}
			case "color_choice":
				d.color, err = asUnitVariant(v, "White", "Black", "Random")
			case "time_control":
				d.time, err = readTimeControl(v)
			case "rated":
				d.rated, err = asBool(v)
			case "band_upper", "band_lower":
				if v.kind != 'z' {
					var n int64
					n, err = asInt(v, "i32", -1<<31, 1<<31-1)
					if k == "band_upper" {
						d.bandUpper = &n
					} else {
						d.bandLower = &n
					}
				}
			}
			return err
		})
	if serr == nil {
		serr = sr.require("game_type", "visibility", "color_choice", "time_control", "rated")
	}
	return d, serr
}

// readTimeControl reads BotTimeControl: "Untimed", {"RealTime":{"base",
// "increment"}} or {"Correspondence":{"mode","days"}}.
func readTimeControl(v *jval) (TimeControl, *serdeError) {
	variants := []string{"Untimed", "RealTime", "Correspondence"}
	if v.kind == 's' {
		switch v.str {
		case "Untimed":
			return Untimed{}, nil
		case "RealTime", "Correspondence":
			return nil, &serdeError{"invalid type: unit variant, expected struct variant", v.end}
		}
		return nil, &serdeError{"unknown variant `" + v.str + "`, expected " + oneOf(variants), v.end}
	}
	if v.kind != 'o' || len(v.fields) != 1 {
		return nil, &serdeError{"expected value", v.end}
	}
	f := v.fields[0]
	switch f.key {
	case "Untimed":
		if f.val.kind != 'z' {
			return nil, invalidType(f.val, "unit variant")
		}
		return Untimed{}, nil
	case "RealTime":
		var base, inc int64
		sr, err := readStruct(f.val, "variant BotTimeControl::RealTime")
		if err == nil {
			err = sr.fields([]string{"base", "increment"}, func(k string, v *jval) *serdeError {
				var err *serdeError
				if k == "base" {
					base, err = asInt(v, "u32", 0, 1<<32-1)
				} else {
					inc, err = asInt(v, "u32", 0, 1<<32-1)
				}
				return err
			})
		}
		if err == nil {
			err = sr.require("base", "increment")
		}
		return RealTime{BaseMinutes: int(base), IncrementSeconds: int(inc)}, err
	case "Correspondence":
		var days int64
		var mode string
		sr, err := readStruct(f.val, "variant BotTimeControl::Correspondence")
		if err == nil {
			err = sr.fields([]string{"mode", "days"}, func(k string, v *jval) *serdeError {
				var err *serdeError
				if k == "mode" {
					mode, err = asUnitVariant(v, "DaysPerMove", "TotalTimeEach")
				} else {
					days, err = asInt(v, "u32", 0, 1<<32-1)
				}
				return err
			})
		}
		if err == nil {
			err = sr.require("mode", "days")
		}
		return Correspondence{Days: int(days), TotalTimeEach: mode == "TotalTimeEach"}, err
	}
	return nil, &serdeError{"unknown variant `" + f.key + "`, expected " + oneOf(variants), f.keyEnd}
}

// handleChallenges is GET /api/v1/bot/challenges/: the bot's own
// challenges, then those addressed to it; public challenges of others are
// not listed.
func (s *Server) handleChallenges(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.sweep(s.clock())
	list := []any{}
	for _, id := range s.chalOrder {
		if c := s.challenges[id]; c.challenger == u {
			list = append(list, c.response())
		}
	}
	for _, id := range s.chalOrder {
		if c := s.challenges[id]; c.opponent == u {
			list = append(list, c.response())
		}
	}
	data := botData(u)
	data["challenges"] = list
	succeed(w, data)
}

// acceptLocked is accept_challenge: validate_accepting_user, the colours
// (the challenger's choice "black" makes the acceptor White), the game
// under the challenge's nanoid, and create_and_delete_challenges (a
// RealTime challenge takes every RealTime challenge either player made
// with it). The caller holds s.mu.
func (s *Server) acceptLocked(u *user, id string) (*game, string) {
	now := s.clock()
	s.sweep(now)
	c := s.challenges[id]
	switch {
	case c == nil:
		return nil, "Not found: Not found."
	case c.challenger == u:
		return nil, "You can't accept your own challenges!"
	case c.opponent != nil && c.opponent != u, c.opponent == nil && c.visibility == "Direct":
		return nil, "This is not your challenge"
	}
	white, black := c.challenger, u
	switch strings.ToLower(c.color) {
	case "black":
		white, black = u, c.challenger
	case "white":
	default:
		if rand.IntN(2) == 0 {
			white, black = u, c.challenger
		}
	}
	g := newGame(c, white, black, now)
	s.games[g.nanoid] = g
	s.gameOrder = append(s.gameOrder, g.nanoid)
	if c.mode == realTime {
		for _, other := range slices.Clone(s.chalOrder) {
			if oc := s.challenges[other]; oc.mode == realTime && (oc.challenger == white || oc.challenger == black) {
				s.removeChallenge(other)
			}
		}
	} else {
		s.removeChallenge(id)
	}
	return g, ""
}

// handleAccept is GET /api/v1/bot/challenge/accept/{nanoid}: a GET that
// creates a game.
func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	g, e := s.acceptLocked(u, id)
	if e != "" {
		failure(w, e)
		return
	}
	data := botData(u)
	data["game"] = g.response()
	succeed(w, data)
}

// handleDeleteChallenge is DELETE /api/v1/bot/challenge/{nanoid}: the
// challenger or the addressed opponent may delete it (declining is this).
func (s *Server) handleDeleteChallenge(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.sweep(s.clock())
	c := s.challenges[id]
	switch {
	case c == nil:
		failure(w, "Not found: Not found.")
		return
	case c.challenger != u && c.opponent != u:
		failure(w, "This is not your challenge")
		return
	}
	s.removeChallenge(id)
	data := botData(u)
	data["challenge_id"] = id
	succeed(w, data)
}

// handleDeleteChallenges is DELETE /api/v1/bot/challenges/: the bot's own
// challenges only.
func (s *Server) handleDeleteChallenges(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.sweep(s.clock())
	ids := []any{}
	for _, id := range slices.Clone(s.chalOrder) {
		if s.challenges[id].challenger == u {
			s.removeChallenge(id)
			ids = append(ids, id)
		}
	}
	data := botData(u)
	data["challenge_ids"] = ids
	data["count"] = len(ids)
	data["failures"] = []any{}
	succeed(w, data)
}

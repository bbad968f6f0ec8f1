package hivegame

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Game is one games row as GET /api/v1/bot/games/pending, .../ongoing and
// .../game/{nanoid} return it: db_lib::models::Game serialised as-is
// (db/src/models/game.rs), so the names are the database's snake_case
// columns and the values its own spellings, not those of the site's other
// answers (time_mode is "Real Time" here, "RealTime" in a Challenge).
//
// The fields after GameStart came in later versions; a row of an older
// site simply lacks them, and fields a newer site adds are ignored.
type Game struct {
	// ID is the row's UUID; the site's URLs and the play and control
	// requests use Nanoid instead.
	ID string `json:"id"`
	// Nanoid is the game's public 12-character id, the one to play with.
	// It equals the nanoid of the challenge the game came from.
	Nanoid          string `json:"nanoid"`
	CurrentPlayerID string `json:"current_player_id"`
	BlackID         string `json:"black_id"`
	WhiteID         string `json:"white_id"`
	// Finished is the row's own flag. current_player_id still names
	// whoever would move next once a game is over, so it is this flag, not
	// current_player_id, that says whether anyone is to move.
	Finished bool `json:"finished"`
	// GameStatus is "NotStarted", "InProgress", "Finished(Winner(w))",
	// "Finished(Winner(b))", "Finished(Draw)", "Finished(Unknown)" or, in
	// version N, "Adjudicated" (engine/src/game_status.rs Display).
	// It stays "NotStarted" after White's first move.
	GameStatus string `json:"game_status"`
	// GameType is "Base" or "Base+MLP" (engine/src/game_type.rs Display).
	GameType string `json:"game_type"`
	// History is the moves played, "wS1 ;bG1 -wS1;pass ;"; see
	// ParseHistory.
	History string `json:"history"`
	// GameControlHistory is "<turn>. <control>;" repeated, e.g.
	// "3. Resign(b);", or "".
	GameControlHistory  string `json:"game_control_history"`
	Rated               bool   `json:"rated"`
	TournamentQueenRule bool   `json:"tournament_queen_rule"`
	// Turn counts the plies played, automatic passes included: White is to
	// move when it is even.
	Turn              int       `json:"turn"`
	WhiteRating       *float64  `json:"white_rating"`
	BlackRating       *float64  `json:"black_rating"`
	WhiteRatingChange *float64  `json:"white_rating_change"`
	BlackRatingChange *float64  `json:"black_rating_change"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	// TimeMode is "Real Time" (with the space), "Correspondence" or
	// "Untimed" (shared_types/src/time_mode.rs Display).
	TimeMode string `json:"time_mode"`
	// TimeBase and TimeIncrement are in seconds, either null as the time
	// control has it (see TimeControl).
	TimeBase      *int32 `json:"time_base"`
	TimeIncrement *int32 `json:"time_increment"`
	// LastInteraction is when the clocks were last written (the last move
	// or control); WhiteTimeLeft and BlackTimeLeft are the clocks as they
	// stood then, in nanoseconds, null when Untimed. See TimeLeft for the
	// time that is really left.
	LastInteraction *time.Time `json:"last_interaction"`
	BlackTimeLeft   *int64     `json:"black_time_left"`
	WhiteTimeLeft   *int64     `json:"white_time_left"`
	// Speed is "Bullet", "Blitz", "Rapid", "Classic", "Correspondence" or
	// "Untimed".
	Speed string `json:"speed"`
	// Hashes holds one board hash a ply, which the site stores as signed
	// 64-bit integers (so they may be negative) with null entries allowed.
	Hashes []Hash `json:"hashes"`
	// Conclusion is "Unknown", "Resigned", "Timeout", "Draw", "Board",
	// "Repetition", "Committee"...
	Conclusion   string  `json:"conclusion"`
	TournamentID *string `json:"tournament_id"`
	// TournamentGameResult is "Unknown", "1-0", "0-1", "½-½" (not ASCII)
	// or "0-0".
	TournamentGameResult string `json:"tournament_game_result"`
	// GameStart is "Moves" for games from challenges; tournaments have
	// "Ready", "Immediate" and "Arena".
	GameStart string `json:"game_start"`
	// MoveTimes is, for each ply, the mover's clock after it in
	// nanoseconds (entries may be null); empty when Untimed.
	MoveTimes      []*int64   `json:"move_times"`
	TimeoutAt      *time.Time `json:"timeout_at"`
	WhiteBerserked bool       `json:"white_berserked"`
	BlackBerserked bool       `json:"black_berserked"`
	FinishedAt     *time.Time `json:"finished_at"`
	ArenaMoveDueAt *time.Time `json:"arena_move_due_at"`
	// TournamentSlotID and ArenaOrdinal are version N's only.
	TournamentSlotID *string `json:"tournament_slot_id"`
	ArenaOrdinal     *int64  `json:"arena_ordinal"`
}

// Hash is one entry of a Game's hashes. The site computes the hash as an
// unsigned 64-bit number and stores it cast to i64 (update_gamestate:
// Some(*h as i64)), so it is written as a signed number; an unsigned one
// above the signed range (as the unlocated Bot API document shows them) is
// read too, to the same bits. Valid is false for a null entry.
type Hash struct {
	Value uint64
	Valid bool
}

// UnmarshalJSON reads null, a signed or an unsigned 64-bit integer.
func (h *Hash) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*h = Hash{}
		return nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*h = Hash{Value: uint64(v), Valid: true}
		return nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("hivegame: hash %s is not a 64-bit integer", truncate(s, 40))
	}
	*h = Hash{Value: v, Valid: true}
	return nil
}

// MarshalJSON writes the hash as the site does: signed, or null.
func (h Hash) MarshalJSON() ([]byte, error) {
	if !h.Valid {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(h.Value), 10), nil
}

// Color is a side of the board.
type Color uint8

// The two sides. White moves on even turns (state.turn_color).
const (
	White Color = iota
	Black
)

// String gives the site's own letter for the color, "w" or "b"
// (engine/src/color.rs Display).
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// ToMove is the side whose turn it is, from the parity of Turn, as the
// site computes next_player.
func (g *Game) ToMove() Color {
	if g.Turn%2 == 0 {
		return White
	}
	return Black
}

// ColorOf is the side userID plays in the game; ok is false when userID
// plays neither. UUIDs are compared without regard to case, since a
// caller may hold one in capitals.
func (g *Game) ColorOf(userID string) (c Color, ok bool) {
	switch {
	case userID == "":
		return White, false
	case strings.EqualFold(userID, g.WhiteID):
		return White, true
	case strings.EqualFold(userID, g.BlackID):
		return Black, true
	}
	return White, false
}

// IsTurnOf reports whether userID is to move: the game is not over and
// current_player_id is userID. This is exactly what puts a game in the
// pending list (User::get_games_with_notifications), including a new game
// at turn 0 where userID is White, and a game whose opponent was just
// made to pass, which hands the turn straight back.
func (g *Game) IsTurnOf(userID string) bool {
	return userID != "" && !g.IsFinished() && strings.EqualFold(g.CurrentPlayerID, userID)
}

// IsFinished reports whether the game is over: the row's finished flag, or
// a game_status that says so (Finished(...) or Adjudicated), in case the
// two disagree in a row caught between writes.
func (g *Game) IsFinished() bool {
	if g.Finished {
		return true
	}
	s, _ := ParseStatus(g.GameStatus)
	return s == StatusFinished || s == StatusAdjudicated
}

// Result is how a game ended.
type Result uint8

// The results. ResultUnknown is also what an unfinished game has.
const (
	ResultUnknown Result = iota
	ResultWhiteWins
	ResultBlackWins
	ResultDraw
)

// String names the result in words.
func (r Result) String() string {
	switch r {
	case ResultWhiteWins:
		return "white wins"
	case ResultBlackWins:
		return "black wins"
	case ResultDraw:
		return "draw"
	}
	return "unknown"
}

// Status is the kind of a game_status string.
type Status uint8

// The statuses. StatusOther is a string this package does not know, which
// a newer site might write.
const (
	StatusOther Status = iota
	StatusNotStarted
	StatusInProgress
	StatusFinished
	StatusAdjudicated
)

// ParseStatus reads a row's game_status: "NotStarted", "InProgress",
// "Finished(Winner(w))", "Finished(Winner(b))", "Finished(Draw)",
// "Finished(Unknown)" (engine/src/game_status.rs and game_result.rs,
// Display and FromStr, which agree), and version N's "Adjudicated". The
// result is ResultUnknown unless the status is Finished with a known
// result; an adjudicated game's result is in its tournament_game_result
// (see Game.Result).
func ParseStatus(s string) (Status, Result) {
	switch s {
	case "NotStarted":
		return StatusNotStarted, ResultUnknown
	case "InProgress":
		return StatusInProgress, ResultUnknown
	case "Adjudicated":
		return StatusAdjudicated, ResultUnknown
	case "Finished(Winner(w))":
		return StatusFinished, ResultWhiteWins
	case "Finished(Winner(b))":
		return StatusFinished, ResultBlackWins
	case "Finished(Draw)":
		return StatusFinished, ResultDraw
	}
	if strings.HasPrefix(s, "Finished(") && strings.HasSuffix(s, ")") {
		return StatusFinished, ResultUnknown
	}
	return StatusOther, ResultUnknown
}

// Result is the game's result and whether it is over. It reads game_status
// first; when that names no winner (Adjudicated, Finished(Unknown)) it
// falls back to tournament_game_result ("1-0", "0-1", "½-½"; a "0-0" double
// forfeit stays unknown), as TournamentGameResult::new derives one from
// the other.
func (g *Game) Result() (r Result, finished bool) {
	if !g.IsFinished() {
		return ResultUnknown, false
	}
	_, r = ParseStatus(g.GameStatus)
	if r != ResultUnknown {
		return r, true
	}
	switch g.TournamentGameResult {
	case "1-0":
		return ResultWhiteWins, true
	case "0-1":
		return ResultBlackWins, true
	case "½-½":
		return ResultDraw, true
	}
	return ResultUnknown, true
}

// Moves parses the game's History (see ParseHistory).
func (g *Game) Moves() ([]HistoryMove, error) {
	return ParseHistory(g.History)
}

// TimeLeft is the time color really has left at now. The row's
// *_time_left is a snapshot taken at last_interaction, so the side to move
// has lost the time since then; this is Game::get_time_left (db/src/
// models/game.rs), with the site's own rules for a clock that does not
// run:
//
//   - while game_status is "NotStarted" the clocks are frozen. For a game
//     from a challenge (game_start "Moves") that lasts until ply 2: the
//     status stays NotStarted after White's first move, and
//     get_realtime_time_info_at leaves both clocks alone at turns 0 and 1;
//   - with no last_interaction (an Arena game's opening) nothing has run;
//   - a finished game's clocks were settled when it ended (the site's
//     get_time_left would keep subtracting; a finished game has no mover);
//   - a now before last_interaction (the caller's clock behind the site's)
//     subtracts nothing.
//
// The result is never negative. It is zero when the game keeps no clock
// for color (Untimed, where *_time_left is null): check TimeControl to
// tell that from a flag that has fallen.
func (g *Game) TimeLeft(color Color, now time.Time) time.Duration {
	stored := g.WhiteTimeLeft
	if color == Black {
		stored = g.BlackTimeLeft
	}
	if stored == nil || *stored <= 0 {
		return 0
	}
	left := time.Duration(*stored)
	if g.clockFrozen() || color != g.ToMove() {
		return left
	}
	elapsed := now.Sub(*g.LastInteraction)
	if elapsed <= 0 {
		return left
	}
	if elapsed >= left {
		return 0
	}
	return left - elapsed
}

// clockFrozen reports whether no clock of the game runs now (see
// TimeLeft).
func (g *Game) clockFrozen() bool {
	if g.IsFinished() || g.LastInteraction == nil {
		return true
	}
	// get_time_left's test. It holds the clocks of a "Moves" game until
	// ply 2 (get_realtime_time_info_at's turn < 2 && game_start == Moves
	// && NotStarted), since the site keeps NotStarted after White's first
	// move, and those of a tournament's "Ready" game until it starts.
	return g.GameStatus == "NotStarted"
}

// TimeKind is the kind of a time control.
type TimeKind uint8

// The time controls the site knows (shared_types/src/time_mode.rs).
const (
	Untimed TimeKind = iota
	RealTime
	Correspondence
)

// String gives the name the site's JSON uses for the kind in requests and
// challenges ("RealTime", without the space of a game row).
func (k TimeKind) String() string {
	switch k {
	case RealTime:
		return "RealTime"
	case Correspondence:
		return "Correspondence"
	}
	return "Untimed"
}

// parseTimeMode reads both spellings of a time mode: a row's TimeMode
// Display ("Real Time") and a challenge's serde variant name ("RealTime").
func parseTimeMode(s string) (TimeKind, error) {
	switch s {
	case "Real Time", "RealTime":
		return RealTime, nil
	case "Correspondence":
		return Correspondence, nil
	case "Untimed":
		return Untimed, nil
	}
	return Untimed, fmt.Errorf("hivegame: unknown time mode %q", truncate(s, 40))
}

// TimeControl is a game's or a challenge's time control.
type TimeControl struct {
	Kind TimeKind
	// Base is each side's starting time: RealTime's base, or
	// Correspondence's "total time each". Zero otherwise.
	Base time.Duration
	// Increment is what RealTime adds after each move (possibly zero), or
	// Correspondence's "days per move" allowance, which the site stores in
	// the same column and to which it resets the mover's clock after each
	// move. Zero otherwise.
	Increment time.Duration
	// PerMove is true for Correspondence "days per move" (Increment is the
	// allowance), false for "total time each" (Base is).
	PerMove bool
}

// timeControl builds a TimeControl from a mode and the two columns as
// Clock::from_time_parts (shared_types/src/clock.rs) reads them: Untimed
// has neither, RealTime both, Correspondence one (base for total time
// each, increment for days per move). It is lenient where the site would
// refuse an odd combination, taking whichever columns are set, so that a
// game from another version still reads; only an unknown mode or a
// negative number fails.
func timeControl(mode string, base, increment *int32) (TimeControl, error) {
	kind, err := parseTimeMode(mode)
	if err != nil {
		return TimeControl{}, err
	}
	tc := TimeControl{Kind: kind}
	if kind == Untimed {
		return tc, nil
	}
	if base != nil {
		if *base < 0 {
			return TimeControl{}, fmt.Errorf("hivegame: negative time_base %d", *base)
		}
		tc.Base = time.Duration(*base) * time.Second
	}
	if increment != nil {
		if *increment < 0 {
			return TimeControl{}, fmt.Errorf("hivegame: negative time_increment %d", *increment)
		}
		tc.Increment = time.Duration(*increment) * time.Second
	}
	tc.PerMove = kind == Correspondence && base == nil && increment != nil
	return tc, nil
}

// TimeControl reads the game's time_mode, time_base and time_increment.
func (g *Game) TimeControl() (TimeControl, error) {
	return timeControl(g.TimeMode, g.TimeBase, g.TimeIncrement)
}

// RatingResponse is one speed's rating of a user
// (apis/src/responses/rating.rs).
type RatingResponse struct {
	Speed  string `json:"speed"`
	Rating uint64 `json:"rating"`
	Played int64  `json:"played"`
	Win    int64  `json:"win"`
	Loss   int64  `json:"loss"`
	Draw   int64  `json:"draw"`
	// Certainty is "Clueless", "Provisional" or "Rankable".
	Certainty string `json:"certainty"`
	// UserUID is missing from older versions.
	UserUID string `json:"user_uid"`
}

// UserResponse is a user as challenges and games describe one
// (apis/src/responses/user.rs). Older versions have only Username, UID and
// Ratings.
type UserResponse struct {
	Username string `json:"username"`
	UID      string `json:"uid"`
	Patreon  bool   `json:"patreon"`
	Bot      bool   `json:"bot"`
	Admin    bool   `json:"admin"`
	Deleted  bool   `json:"deleted"`
	// Ratings is keyed by speed; version N always lists the five rated
	// speeds (Bullet, Blitz, Rapid, Classic, Correspondence).
	Ratings map[string]RatingResponse `json:"ratings"`
	// Takeback is "Always", "Never" or "CasualOnly".
	Takeback string  `json:"takeback"`
	Lang     *string `json:"lang"`
}

// Challenge is one challenge as GET /api/v1/bot/challenges/ lists them and
// POST /api/v1/bot/challenges/ answers: ChallengeResponse
// (apis/src/responses/challenge.rs).
type Challenge struct {
	// ID is the challenge's UUID; ChallengeID is its nanoid, the one to
	// accept or delete with, and the nanoid the game will have.
	ID          string        `json:"id"`
	ChallengeID string        `json:"challenge_id"`
	Challenger  UserResponse  `json:"challenger"`
	Opponent    *UserResponse `json:"opponent"`
	// GameType is the database's string, "Base" or "Base+MLP".
	GameType string `json:"game_type"`
	Rated    bool   `json:"rated"`
	// Visibility is "Direct", "Public" or "Private".
	Visibility string `json:"visibility"`
	// ColorChoice is the challenger's color: "White", "Black" or "Random".
	ColorChoice      string    `json:"color_choice"`
	CreatedAt        time.Time `json:"created_at"`
	ChallengerRating uint64    `json:"challenger_rating"`
	// TimeMode is the serde variant name: "RealTime" (no space, unlike a
	// game row), "Correspondence" or "Untimed".
	TimeMode      string `json:"time_mode"`
	TimeBase      *int32 `json:"time_base"`
	TimeIncrement *int32 `json:"time_increment"`
	Speed         string `json:"speed"`
	BandUpper     *int32 `json:"band_upper"`
	BandLower     *int32 `json:"band_lower"`
}

// TimeControl reads the challenge's time_mode, time_base and
// time_increment, in seconds as in a game row.
func (c *Challenge) TimeControl() (TimeControl, error) {
	return timeControl(c.TimeMode, c.TimeBase, c.TimeIncrement)
}

// IsOwn reports whether userID created the challenge. The list holds the
// bot's own challenges as well as those addressed to it (since PR #591),
// and the site refuses to let a user accept their own.
func (c *Challenge) IsOwn(userID string) bool {
	return userID != "" && strings.EqualFold(c.Challenger.UID, userID)
}

// AcceptedGame is the part of the GameResponse that GET
// /api/v1/bot/challenge/accept/{nanoid} answers (apis/src/responses/
// game.rs) that is spelt the same in every version. GameResponse differs
// from a Game row (game_type "MLP", time_mode "RealTime", clocks as
// {"secs","nanos"}, game_status as a serde enum); those fields are left
// out, and the game itself is best read again with Client.Game.
type AcceptedGame struct {
	UUID string `json:"uuid"`
	// GameID is the new game's nanoid, the accepted challenge's nanoid.
	GameID          string       `json:"game_id"`
	CurrentPlayerID string       `json:"current_player_id"`
	Turn            int          `json:"turn"`
	Finished        bool         `json:"finished"`
	Rated           bool         `json:"rated"`
	TimeBase        *int32       `json:"time_base"`
	TimeIncrement   *int32       `json:"time_increment"`
	WhitePlayer     UserResponse `json:"white_player"`
	BlackPlayer     UserResponse `json:"black_player"`
}

// ControlResult is what POST /api/v1/bot/games/control answers besides the
// bot's name.
type ControlResult struct {
	GameID   string `json:"game_id"`
	Finished bool   `json:"finished"`
}

// PlayRequest is the body of POST /api/v1/bot/games/play
// (apis/src/api/v1/bot/play.rs, every version). GameID is the nanoid, not
// the UUID; PiecePos is what FormatMove makes.
type PlayRequest struct {
	GameID   string `json:"game_id"`
	PiecePos string `json:"piece_pos"`
}

// The controls POST /api/v1/bot/games/control takes over HTTP in every
// stored version; draw offers and takebacks exist only on the site's
// WebSocket API.
const (
	// ControlResign is allowed from turn 2 on, and finishes the game.
	ControlResign = "resign"
	// ControlAbort is allowed before turn 2 only, and deletes the game.
	ControlAbort = "abort"
)

// ControlRequest is the body of POST /api/v1/bot/games/control: GameID the
// nanoid, Control ControlResign or ControlAbort.
type ControlRequest struct {
	GameID  string `json:"game_id"`
	Control string `json:"control"`
}

// Challenge visibilities and color choices as BotChallengeRequest spells
// them (shared_types ChallengeVisibility, engine ColorChoice).
const (
	VisibilityDirect  = "Direct"
	VisibilityPublic  = "Public"
	VisibilityPrivate = "Private"

	ColorWhite  = "White"
	ColorBlack  = "Black"
	ColorRandom = "Random"
)

// CorrespondenceMode is how a correspondence challenge counts its days.
type CorrespondenceMode string

// The two modes, by their serde variant names.
const (
	DaysPerMove   CorrespondenceMode = "DaysPerMove"
	TotalTimeEach CorrespondenceMode = "TotalTimeEach"
)

// CreateChallengeRequest is the body of POST /api/v1/bot/challenges/:
// BotChallengeRequest (apis/src/api/v1/bot/challenges.rs, versions M and
// N).
//
// The site checks, in order: a Base game may not be rated; only Base and
// MLP; Direct needs an Opponent (a username) and, in N, only Direct may
// have one; BandLower ≤ BandUpper; Untimed may not be rated; RealTime base
// 1–180 minutes and increment 0–180 seconds; Correspondence 1–20 days.
type CreateChallengeRequest struct {
	// GameType is "Base" or "MLP". Version N reads it with FromStr, which
	// also takes "Base+MLP"; older versions take the variant names only,
	// which both spell "Base" and "MLP".
	GameType   string `json:"game_type"`
	Visibility string `json:"visibility"`
	// Opponent is the username a Direct challenge is addressed to; empty
	// leaves it out (None).
	Opponent string `json:"opponent,omitempty"`
	// ColorChoice is the color the bot takes: ColorWhite, ColorBlack or
	// ColorRandom.
	ColorChoice string         `json:"color_choice"`
	TimeControl BotTimeControl `json:"time_control"`
	Rated       bool           `json:"rated"`
	BandUpper   *int32         `json:"band_upper,omitempty"`
	BandLower   *int32         `json:"band_lower,omitempty"`
}

// BotTimeControl is a challenge's time control as the site's serde reads
// the enum BotTimeControl, externally tagged: "Untimed",
// {"RealTime":{"base":10,"increment":5}} or
// {"Correspondence":{"mode":"DaysPerMove","days":3}}.
type BotTimeControl struct {
	Kind TimeKind
	// BaseMinutes and IncrementSeconds are RealTime's (the base in whole
	// minutes, as the site takes it and stores ×60).
	BaseMinutes      uint32
	IncrementSeconds uint32
	// Mode and Days are Correspondence's.
	Mode CorrespondenceMode
	Days uint32
}

type realTimeJSON struct {
	Base      uint32 `json:"base"`
	Increment uint32 `json:"increment"`
}

type correspondenceJSON struct {
	Mode CorrespondenceMode `json:"mode"`
	Days uint32             `json:"days"`
}

// MarshalJSON writes the externally tagged form.
func (t BotTimeControl) MarshalJSON() ([]byte, error) {
	switch t.Kind {
	case Untimed:
		return []byte(`"Untimed"`), nil
	case RealTime:
		return json.Marshal(map[string]realTimeJSON{"RealTime": {t.BaseMinutes, t.IncrementSeconds}})
	case Correspondence:
		if t.Mode != DaysPerMove && t.Mode != TotalTimeEach {
			return nil, fmt.Errorf("hivegame: correspondence mode %q is neither DaysPerMove nor TotalTimeEach", t.Mode)
		}
		return json.Marshal(map[string]correspondenceJSON{"Correspondence": {t.Mode, t.Days}})
	}
	return nil, fmt.Errorf("hivegame: unknown time control kind %d", t.Kind)
}

// UnmarshalJSON reads the externally tagged form, as serde would.
func (t *BotTimeControl) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		if name != "Untimed" {
			return fmt.Errorf("hivegame: time control %q is not a unit variant", truncate(name, 40))
		}
		*t = BotTimeControl{Kind: Untimed}
		return nil
	}
	var tagged map[string]json.RawMessage
	if err := json.Unmarshal(b, &tagged); err != nil || len(tagged) != 1 {
		return fmt.Errorf("hivegame: a time control is \"Untimed\" or an object of one key")
	}
	for key, body := range tagged {
		switch key {
		case "RealTime":
			var rt realTimeJSON
			if err := json.Unmarshal(body, &rt); err != nil {
				return fmt.Errorf("hivegame: RealTime time control: %w", err)
			}
			*t = BotTimeControl{Kind: RealTime, BaseMinutes: rt.Base, IncrementSeconds: rt.Increment}
		case "Correspondence":
			var c correspondenceJSON
			if err := json.Unmarshal(body, &c); err != nil {
				return fmt.Errorf("hivegame: Correspondence time control: %w", err)
			}
			if c.Mode != DaysPerMove && c.Mode != TotalTimeEach {
				return fmt.Errorf("hivegame: correspondence mode %q is neither DaysPerMove nor TotalTimeEach", truncate(string(c.Mode), 40))
			}
			*t = BotTimeControl{Kind: Correspondence, Mode: c.Mode, Days: c.Days}
		default:
			return fmt.Errorf("hivegame: unknown time control %q", truncate(key, 40))
		}
	}
	return nil
}

package hivegametest

import (
	"errors"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// The methods here arrange the world a test needs, doing what the site's
// other users would do through its web pages: challenge the bot, play the
// human side, resign. They apply the same rules, and fail with the same
// texts, as the bot's endpoints.

// Color is a challenger's colour choice, as ChallengeResponse spells it.
type Color string

// The colour choices.
const (
	ColorWhite  Color = "White"
	ColorBlack  Color = "Black"
	ColorRandom Color = "Random"
)

// TimeControl is a challenge's clock: RealTime, Correspondence or Untimed.
type TimeControl interface{ isTimeControl() }

// RealTime is a live clock: a base in minutes (1 to 180) and an increment
// in seconds (0 to 180) added after each move.
type RealTime struct{ BaseMinutes, IncrementSeconds int }

// Correspondence is a clock in days (1 to 20): per move, or in total for
// each player if TotalTimeEach.
type Correspondence struct {
	Days          int
	TotalTimeEach bool
}

// Untimed is no clock; such games cannot be rated.
type Untimed struct{}

func (RealTime) isTimeControl()       {}
func (Correspondence) isTimeControl() {}
func (Untimed) isTimeControl()        {}

// ChallengeSpec is what a challenge offers. The zero value is an unrated,
// untimed Base game with the colour drawn at random.
type ChallengeSpec struct {
	GameType core.GameType // Base or AllExpansions; the site allows no other
	Rated    bool
	Time     TimeControl // nil is Untimed
	Color    Color       // the challenger's; empty is Random
	// Private makes a challenge to nobody (to == "") Private rather than
	// Public: reachable only by its id.
	Private              bool
	BandLower, BandUpper *int
}

// Challenge makes a challenge from one user to another (to empty: a public
// challenge) and returns its nanoid, which the game will have once it is
// accepted. It is checked as the bot endpoint checks a challenge, and fails
// with the same texts.
func (s *Server) Challenge(from, to string, spec ChallengeSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.byName[strings.ToLower(from)]
	if u == nil {
		return "", errors.New("hivegametest: no user " + from)
	}
	d := &challengeDetails{gameType: spec.GameType, rated: spec.Rated, time: spec.Time, color: string(spec.Color)}
	if d.color == "" {
		d.color = string(ColorRandom)
	}
	if d.time == nil {
		d.time = Untimed{}
	}
	switch {
	case to != "":
		d.visibility, d.opponent = "Direct", &to
	case spec.Private:
		d.visibility = "Private"
	default:
		d.visibility = "Public"
	}
	if spec.BandLower != nil {
		d.bandLower = new(int64(*spec.BandLower))
	}
	if spec.BandUpper != nil {
		d.bandUpper = new(int64(*spec.BandUpper))
	}
	s.sweep(s.clock())
	c, e := s.createChallenge(u, d)
	if e != "" {
		return "", errors.New(e)
	}
	return c.nanoid, nil
}

// Accept accepts a challenge for a user, as the bot's accept endpoint does,
// and returns the game's nanoid (the challenge's).
func (s *Server) Accept(username, nanoid string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.byName[strings.ToLower(username)]
	if u == nil {
		return "", errors.New("hivegametest: no user " + username)
	}
	g, e := s.acceptLocked(u, nanoid)
	if e != "" {
		return "", errors.New(e)
	}
	return g.nanoid, nil
}

// PlayAs plays a move for a user, read and checked as the play endpoint
// reads and checks the bot's, and returns the new history.
func (s *Server) PlayAs(username, nanoid, move string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.byName[strings.ToLower(username)]
	if u == nil {
		return "", errors.New("hivegametest: no user " + username)
	}
	h, e := s.playLocked(u, nanoid, move)
	if e != "" {
		return "", errors.New(e)
	}
	return h, nil
}

// Resign resigns a game for a user, under the control endpoint's rules.
func (s *Server) Resign(username, nanoid string) error { return s.Control(username, nanoid, "resign") }

// Control sends a game control ("resign" or "abort") for a user, under the
// control endpoint's rules.
func (s *Server) Control(username, nanoid, control string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.byName[strings.ToLower(username)]
	if u == nil {
		return errors.New("hivegametest: no user " + username)
	}
	if _, e := s.controlLocked(u, nanoid, control); e != "" {
		return errors.New(e)
	}
	return nil
}

// GameSnapshot is a game as the site's row has it, for assertions.
type GameSnapshot struct {
	Nanoid        string
	White, Black  string // usernames
	CurrentPlayer string // username; still set once the game is finished
	History       string // the row's history string
	Status        string // game_status: NotStarted, InProgress, Finished(Winner(w)), …
	Turn          int    // plies, automatic passes included
	Finished      bool
	Conclusion    string // Unknown, Board, Resigned, Timeout, Repetition
	Result        string // tournament_game_result: Unknown, 1-0, 0-1, ½-½
	// WhiteLeft and BlackLeft are the clocks as stored at LastInteraction;
	// nil for an untimed game.
	WhiteLeft, BlackLeft *time.Duration
	LastInteraction      *time.Time
	TimeoutAt            *time.Time
	// Plays counts the moves applied (automatic passes not counted).
	Plays int
}

// Game returns a snapshot of a game, and false if there is none (never
// made, aborted, or cleaned up). Deadlines are settled first, as any
// request would.
func (s *Server) Game(nanoid string) (GameSnapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(s.clock())
	g := s.games[nanoid]
	if g == nil {
		return GameSnapshot{}, false
	}
	dur := func(p *int64) *time.Duration {
		if p == nil {
			return nil
		}
		return new(time.Duration(*p))
	}
	when := func(p *time.Time) *time.Time {
		if p == nil {
			return nil
		}
		return new(*p)
	}
	return GameSnapshot{
		Nanoid: g.nanoid, White: g.white.username, Black: g.black.username,
		CurrentPlayer: g.currentPlayer().username, History: g.history(), Status: g.status,
		Turn: g.turn, Finished: g.finished, Conclusion: g.conclusion, Result: g.tgr,
		WhiteLeft: dur(g.whiteLeft), BlackLeft: dur(g.blackLeft),
		LastInteraction: when(g.lastInteraction), TimeoutAt: when(g.timeoutAt), Plays: g.plays,
	}, true
}

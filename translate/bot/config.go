package bot

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// DefaultSite is hivegame.com, where an account plays unless told otherwise.
const DefaultSite = "https://hivegame.com"

// Config is what a Bot plays with: its accounts, and how often and how
// patiently it talks to the site. The zero durations take the defaults
// New documents.
type Config struct {
	Accounts []Account
	// PollInterval is how often each account asks for the games where it
	// is to move and for its challenges (1s: hive-hydra, the site's own
	// bot runner, asks every second). A move is seen this long after the
	// opponent's at worst, and its clock runs meanwhile.
	PollInterval time.Duration
	// SweepInterval is how often each account lists all its games, to
	// learn which have ended (resigned, flagged, won by the opponent's
	// move) and to find any game it did not know of (10s).
	SweepInterval time.Duration
	// MaxBackoff bounds the wait between polls after failures, which
	// doubles from PollInterval with each failure in a row (1m); a
	// Retry-After the site or its proxy sends is waited out whatever it
	// says, up to hivegame.MaxRetryAfter.
	MaxBackoff time.Duration
	// RequestTimeout is the deadline of each request to the site (10s,
	// as hive-hydra's), and less when the clock has less.
	RequestTimeout time.Duration
	// NetworkMargin is kept off every clock for the network and for the
	// two machines' clocks disagreeing: a move is posted this long before
	// the flag would fall at the latest (1s).
	NetworkMargin time.Duration
	// FallbackTime is kept off each move's budget for the native searcher's
	// quick move, played when the backend fails or misses its deadline
	// (200ms).
	FallbackTime time.Duration
	// Timeouts bound the waits on engine processes (translate's defaults).
	Timeouts translate.Timeouts
}

// Account is one bot account of the site and the backend that plays for
// it.
type Account struct {
	// Name names the account in logs, metrics and the archive: its
	// username on the site is the natural choice.
	Name string
	// Site is the site's base URL (DefaultSite when empty).
	Site string
	// Credentials log the account in. They are never logged (their type
	// prints itself redacted).
	Credentials hivegame.Credentials
	// Backend is the spec of the engine that plays (translate.ParseSpec:
	// native, uhp:..., hub:..., hivejson://...); "" is native. Each game
	// has an engine of its own, kept between its turns.
	Backend string
	// EngineOptions are "Name=Value" settings of each game's engine. A
	// native engine gets HashMB=16 unless they set it: a bot holds many
	// games, each with its own table.
	EngineOptions []string
	// MoveTime bounds each move's thinking whatever the clock allows
	// (10s), and is the time of each move of an untimed game. Of a
	// move's time, FallbackTime is kept for the native quick move: the
	// backend is asked only when a move has more than twice that, and a
	// UHP engine (told whole seconds, and not stopped early) only when
	// it is told a second or more.
	MoveTime time.Duration
	// Depth, if not zero, bounds each search to that many plies too.
	Depth int
	// Policy says which challenges to accept.
	Policy Policy
	// Challenge, if not nil, is a challenge the account issues itself.
	Challenge *ChallengeSpec
}

// Policy says which challenges an account accepts. A challenge it does not
// accept is left alone: the challenger may withdraw it, and the account
// may accept it later, once it has room for another game.
type Policy struct {
	// GameTypes are the game types accepted, as the site spells them
	// ("Base", "Base+MLP"); none means any the backend plays.
	GameTypes []string
	// Rated, if set, accepts only rated (true) or only casual (false)
	// games.
	Rated *bool
	// TimeKinds are the kinds of time control accepted; none means any.
	TimeKinds []hivegame.TimeKind
	// MinBase and MaxBase bound a real-time game's starting clock, and
	// MaxIncrement its increment; zero bounds nothing.
	MinBase, MaxBase, MaxIncrement time.Duration
	// Allow, if not empty, lists the only usernames whose challenges are
	// accepted; Refuse lists those never accepted. Both ignore case.
	Allow, Refuse []string
	// MaxGames is how many games the account plays at once at most (1):
	// challenges past it wait until a game ends.
	MaxGames int
}

// ChallengeSpec is a challenge an account issues and keeps issuing: while
// it plays fewer than Open games and has no challenge of its own open, it
// makes one, up to Total in all.
type ChallengeSpec struct {
	// Opponent is the username of a direct challenge; empty makes a
	// public one.
	Opponent string
	// GameType is "Base" or "Base+MLP".
	GameType string
	Rated    bool
	// Time is the time control, as the site's request spells it.
	Time hivegame.BotTimeControl
	// Color is the account's colour: hivegame.ColorWhite, ColorBlack or
	// ColorRandom ("" is random).
	Color string
	// Open is how many games, its own challenges' or others', the account
	// keeps going by challenging (1).
	Open int
	// Total is how many challenges this process issues in all; 0 is no
	// limit.
	Total int
}

// withDefaults returns c with the defaults where it sets nothing.
func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.PollInterval, time.Second)
	def(&c.SweepInterval, 10*time.Second)
	def(&c.MaxBackoff, time.Minute)
	def(&c.RequestTimeout, 10*time.Second)
	def(&c.NetworkMargin, time.Second)
	def(&c.FallbackTime, 200*time.Millisecond)
	if c.Timeouts == (translate.Timeouts{}) {
		c.Timeouts = translate.DefaultTimeouts()
	}
	c.Accounts = append([]Account(nil), c.Accounts...)
	for i := range c.Accounts {
		a := &c.Accounts[i]
		if a.Site == "" {
			a.Site = DefaultSite
		}
		if a.Backend == "" {
			a.Backend = "native"
		}
		def(&a.MoveTime, 10*time.Second)
		if a.Policy.MaxGames <= 0 {
			a.Policy.MaxGames = 1
		}
		if a.Challenge != nil {
			ch := *a.Challenge
			if ch.Open <= 0 {
				ch.Open = 1
			}
			if ch.Color == "" {
				ch.Color = hivegame.ColorRandom
			}
			a.Challenge = &ch
		}
	}
	return c
}

// check says what is wrong with a configuration, once defaulted.
func (c Config) check() error {
	if len(c.Accounts) == 0 {
		return errors.New("bot: no account to play for")
	}
	names := map[string]bool{}
	for _, a := range c.Accounts {
		if a.Name == "" {
			return errors.New("bot: an account has no name")
		}
		if names[strings.ToLower(a.Name)] {
			return fmt.Errorf("bot: two accounts are named %q", a.Name)
		}
		names[strings.ToLower(a.Name)] = true
		if err := a.check(); err != nil {
			return fmt.Errorf("bot: account %s: %w", a.Name, err)
		}
	}
	return nil
}

func (a Account) check() error {
	if u, err := url.Parse(a.Site); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("site %q is not an http(s) URL", a.Site)
	}
	if a.Credentials.Email == "" || a.Credentials.Password == "" {
		return errors.New("no credentials: both an email (or username) and a password are needed")
	}
	if _, err := translate.ParseSpec(a.Backend); err != nil {
		return err
	}
	if a.Depth < 0 {
		return fmt.Errorf("depth %d is negative", a.Depth)
	}
	for _, t := range a.Policy.GameTypes {
		if _, err := uhp.ParseGameType(t); err != nil {
			return fmt.Errorf("policy: game type %q: %w", t, err)
		}
	}
	if p := a.Policy; p.MaxBase > 0 && p.MinBase > p.MaxBase {
		return fmt.Errorf("policy: the least base %s is more than the most %s", p.MinBase, p.MaxBase)
	}
	if ch := a.Challenge; ch != nil {
		if t, err := uhp.ParseGameType(ch.GameType); err != nil {
			return fmt.Errorf("challenge: game type %q: %w", ch.GameType, err)
		} else if t.Name() != "Base" && t.Name() != "Base+MLP" {
			return fmt.Errorf("challenge: the site plays Base and Base+MLP only, not %s", t.Name())
		}
		switch ch.Color {
		case hivegame.ColorWhite, hivegame.ColorBlack, hivegame.ColorRandom:
		default:
			return fmt.Errorf("challenge: color %q is none of White, Black and Random", ch.Color)
		}
		if ch.Total < 0 {
			return fmt.Errorf("challenge: total %d is negative", ch.Total)
		}
	}
	return nil
}

package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// The configuration file is JSON, read with the standard library. Its
// credentials are never in it: each account names a file holding them, or
// the environment variables that do, so that the file can be shared,
// versioned and logged, and a password never reaches a command line
// (which every user of the machine can read) or a log.

// fileConfig is the configuration file.
type fileConfig struct {
	PollInterval   duration      `json:"poll_interval"`
	SweepInterval  duration      `json:"sweep_interval"`
	MaxBackoff     duration      `json:"max_backoff"`
	RequestTimeout duration      `json:"request_timeout"`
	NetworkMargin  duration      `json:"network_margin"`
	FallbackTime   duration      `json:"fallback_time"`
	Accounts       []fileAccount `json:"accounts"`
}

type fileAccount struct {
	Name            string         `json:"name"`
	Site            string         `json:"site"`
	CredentialsFile string         `json:"credentials_file"`
	EmailEnv        string         `json:"email_env"`
	PasswordEnv     string         `json:"password_env"`
	Backend         string         `json:"backend"`
	EngineOptions   []string       `json:"engine_options"`
	MoveTime        duration       `json:"move_time"`
	Depth           int            `json:"depth"`
	Policy          filePolicy     `json:"policy"`
	Challenge       *fileChallenge `json:"challenge"`
}

type filePolicy struct {
	GameTypes    []string `json:"game_types"`
	Rated        string   `json:"rated"`
	TimeControls []string `json:"time_controls"`
	MinBase      duration `json:"min_base"`
	MaxBase      duration `json:"max_base"`
	MaxIncrement duration `json:"max_increment"`
	Allow        []string `json:"allow"`
	Refuse       []string `json:"refuse"`
	MaxGames     int      `json:"max_games"`
}

type fileChallenge struct {
	Opponent    string                   `json:"opponent"`
	GameType    string                   `json:"game_type"`
	Rated       bool                     `json:"rated"`
	TimeControl *hivegame.BotTimeControl `json:"time_control"`
	Color       string                   `json:"color"`
	Open        int                      `json:"open"`
	Total       int                      `json:"total"`
}

// duration is a time.Duration written as Go writes one ("1.5s", "10m").
type duration time.Duration

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"1.5s\" or \"10m\", not %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration such as \"1.5s\" or \"10m\"", s)
	}
	*d = duration(v)
	return nil
}

// LoadConfig reads a configuration file. Each account's credentials come
// from its credentials_file (see ReadCredentials; a relative path is read
// from the configuration file's folder) or from the environment variables
// its email_env and password_env name, looked up with getenv.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt setting is an error, not a default
	var f fileConfig
	if err := dec.Decode(&f); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	if dec.More() {
		return Config{}, fmt.Errorf("%s: more than one JSON value", path)
	}
	cfg := Config{
		PollInterval:   time.Duration(f.PollInterval),
		SweepInterval:  time.Duration(f.SweepInterval),
		MaxBackoff:     time.Duration(f.MaxBackoff),
		RequestTimeout: time.Duration(f.RequestTimeout),
		NetworkMargin:  time.Duration(f.NetworkMargin),
		FallbackTime:   time.Duration(f.FallbackTime),
	}
	for i, fa := range f.Accounts {
		a, err := fa.account(filepath.Dir(path), getenv)
		if err != nil {
			name := fa.Name
			if name == "" {
				name = fmt.Sprintf("#%d", i+1)
			}
			return Config{}, fmt.Errorf("%s: account %s: %w", path, name, err)
		}
		cfg.Accounts = append(cfg.Accounts, a)
	}
	return cfg, nil
}

func (fa fileAccount) account(dir string, getenv func(string) string) (Account, error) {
	a := Account{
		Name: fa.Name, Site: fa.Site, Backend: fa.Backend, EngineOptions: fa.EngineOptions,
		MoveTime: time.Duration(fa.MoveTime), Depth: fa.Depth,
	}
	var err error
	switch {
	case fa.CredentialsFile != "" && (fa.EmailEnv != "" || fa.PasswordEnv != ""):
		return a, errors.New("credentials_file and email_env/password_env exclude each other")
	case fa.CredentialsFile != "":
		file := fa.CredentialsFile
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		a.Credentials, err = ReadCredentials(file)
	case fa.EmailEnv != "" && fa.PasswordEnv != "":
		a.Credentials, err = CredentialsFromEnv(getenv, fa.EmailEnv, fa.PasswordEnv)
	default:
		return a, errors.New("no credentials: give credentials_file, or both email_env and password_env")
	}
	if err != nil {
		return a, err
	}
	if a.Policy, err = fa.Policy.policy(); err != nil {
		return a, fmt.Errorf("policy: %w", err)
	}
	if c := fa.Challenge; c != nil {
		if c.TimeControl == nil {
			return a, errors.New(`challenge: no time_control ("Untimed", {"RealTime":{"base":MINUTES,"increment":SECONDS}} or {"Correspondence":{"mode":"DaysPerMove","days":N}})`)
		}
		a.Challenge = &ChallengeSpec{Opponent: c.Opponent, GameType: c.GameType, Rated: c.Rated,
			Time: *c.TimeControl, Color: c.Color, Open: c.Open, Total: c.Total}
	}
	return a, nil
}

func (fp filePolicy) policy() (Policy, error) {
	p := Policy{
		GameTypes: fp.GameTypes, MinBase: time.Duration(fp.MinBase), MaxBase: time.Duration(fp.MaxBase),
		MaxIncrement: time.Duration(fp.MaxIncrement), Allow: fp.Allow, Refuse: fp.Refuse, MaxGames: fp.MaxGames,
	}
	var err error
	if p.Rated, err = ParseRated(fp.Rated); err != nil {
		return p, err
	}
	for _, tc := range fp.TimeControls {
		k, err := ParseTimeKind(tc)
		if err != nil {
			return p, err
		}
		p.TimeKinds = append(p.TimeKinds, k)
	}
	return p, nil
}

// ParseRated reads a policy's rated setting: "any" (or "") for any game,
// "rated" or "casual" for those only.
func ParseRated(s string) (*bool, error) {
	switch strings.ToLower(s) {
	case "", "any":
		return nil, nil
	case "rated":
		return new(true), nil
	case "casual":
		return new(false), nil
	}
	return nil, fmt.Errorf("rated %q is none of any, rated and casual", s)
}

// ParseTimeKind reads a kind of time control: RealTime (or "Real Time",
// as a game row spells it), Correspondence or Untimed, in any case.
func ParseTimeKind(s string) (hivegame.TimeKind, error) {
	switch strings.ToLower(strings.ReplaceAll(s, " ", "")) {
	case "realtime":
		return hivegame.RealTime, nil
	case "correspondence":
		return hivegame.Correspondence, nil
	case "untimed":
		return hivegame.Untimed, nil
	}
	return 0, fmt.Errorf("time control %q is none of RealTime, Correspondence and Untimed", s)
}

// ReadCredentials reads a credentials file: the account's email (or
// username) on its first line, its password on the second; blank space
// around each is dropped, and nothing else may follow.
func ReadCredentials(path string) (hivegame.Credentials, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return hivegame.Credentials{}, fmt.Errorf("credentials: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\r\n"), "\n")
	if len(lines) != 2 {
		// The count only: the file's text is a secret.
		return hivegame.Credentials{}, fmt.Errorf("credentials file %s has %d lines, not 2 (the email or username, then the password)", path, len(lines))
	}
	c := hivegame.Credentials{Email: strings.TrimSpace(lines[0]), Password: strings.TrimSpace(lines[1])}
	if c.Email == "" || c.Password == "" {
		return hivegame.Credentials{}, fmt.Errorf("credentials file %s has an empty line", path)
	}
	return c, nil
}

// CredentialsFromEnv reads the credentials from the environment variables
// named emailVar and passwordVar, looked up with getenv.
func CredentialsFromEnv(getenv func(string) string, emailVar, passwordVar string) (hivegame.Credentials, error) {
	c := hivegame.Credentials{Email: strings.TrimSpace(getenv(emailVar)), Password: getenv(passwordVar)}
	if c.Email == "" || c.Password == "" {
		return hivegame.Credentials{}, fmt.Errorf("credentials: $%s and $%s must both be set", emailVar, passwordVar)
	}
	return c, nil
}

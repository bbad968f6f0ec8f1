package referee

import (
	"fmt"
	"time"

	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// TestSettings are what every worker of a distributed test plays by, kept
// as JSON in the test's row: the match's Config without what is the
// machine's own (the engines' log and timeouts, the concurrency, the
// archive) and without the number of games, which the row keeps apart so
// that a test can be given more. Time controls and openings are kept in
// their text forms, which every version reads back the same.
type TestSettings struct {
	White        string   `json:"white"`
	Black        string   `json:"black"`
	WhiteName    string   `json:"white_name,omitempty"`
	BlackName    string   `json:"black_name,omitempty"`
	WhiteOptions []string `json:"white_options,omitempty"`
	BlackOptions []string `json:"black_options,omitempty"`
	TC           string   `json:"tc"`
	WhiteTC      string   `json:"white_tc,omitempty"`
	BlackTC      string   `json:"black_tc,omitempty"`
	GameType     string   `json:"game_type"`
	// Openings are GameStrings; OpeningsFrom names where they came from,
	// for reports.
	Openings     []string    `json:"openings,omitempty"`
	OpeningsFrom string      `json:"openings_from,omitempty"`
	RandomPlies  int         `json:"random_plies,omitempty"`
	Seed         uint64      `json:"seed"`
	MaxPlies     int         `json:"max_plies"`
	TimeMargin   string      `json:"time_margin,omitempty"`
	SPRT         *SPRT       `json:"sprt,omitempty"`
	Disagreement string      `json:"disagreement"`
	Draw         *DrawRule   `json:"draw,omitempty"`
	Resign       *ResignRule `json:"resign,omitempty"`
}

// SettingsOf are the settings of a match's configuration; openingsFrom
// names the file its openings came from, if any.
func SettingsOf(cfg Config, openingsFrom string) TestSettings {
	s := TestSettings{
		White: cfg.White, Black: cfg.Black, WhiteName: cfg.WhiteName, BlackName: cfg.BlackName,
		WhiteOptions: cfg.WhiteOptions, BlackOptions: cfg.BlackOptions,
		TC: cfg.TC.String(), GameType: uhp.FormatGameType(cfg.GameType),
		RandomPlies: cfg.RandomPlies, Seed: cfg.Seed, MaxPlies: cfg.MaxPlies, SPRT: cfg.SPRT,
		Disagreement: cfg.Disagreement.String(), Draw: cfg.Adjudication.Draw, Resign: cfg.Adjudication.Resign,
	}
	if cfg.TimeMargin > 0 {
		s.TimeMargin = cfg.TimeMargin.String()
	}
	if s.MaxPlies == 0 {
		s.MaxPlies = DefaultMaxPlies
	}
	if cfg.WhiteTC != nil {
		s.WhiteTC = cfg.WhiteTC.String()
	}
	if cfg.BlackTC != nil {
		s.BlackTC = cfg.BlackTC.String()
	}
	for _, gs := range cfg.Openings {
		s.Openings = append(s.Openings, gs.String())
	}
	if len(s.Openings) > 0 {
		s.OpeningsFrom = openingsFrom
	}
	return s
}

// EngineName is the name of engine A (a true) or B in the test: its given
// name, else its spec. A worker's own engine for it is found by this name
// (WorkerConfig.Engines), and the archive names the player by it, so that
// its games are one player's on every machine, whatever spec each runs.
func (s TestSettings) EngineName(a bool) string {
	switch {
	case a && s.WhiteName != "":
		return s.WhiteName
	case a:
		return s.White
	case s.BlackName != "":
		return s.BlackName
	}
	return s.Black
}

// Config is the match configuration of the settings, for a test of games
// games played with the engine set-up given (its EngineOptions ignored, as
// Config says); each engine is named by EngineName.
func (s TestSettings) Config(games int, engine translate.Config) (Config, error) {
	cfg := Config{
		White: s.White, Black: s.Black, WhiteName: s.EngineName(true), BlackName: s.EngineName(false),
		WhiteOptions: s.WhiteOptions, BlackOptions: s.BlackOptions, Games: games,
		RandomPlies: s.RandomPlies, Seed: s.Seed, Concurrency: 1, MaxPlies: s.MaxPlies, SPRT: s.SPRT,
		Adjudication: Adjudication{Draw: s.Draw, Resign: s.Resign}, Engine: engine,
	}
	var err error
	if cfg.GameType, err = uhp.ParseGameType(s.GameType); err != nil {
		return cfg, fmt.Errorf("the test's game type: %w", err)
	}
	if cfg.TC, err = ParseTimeControl(s.TC); err != nil {
		return cfg, fmt.Errorf("the test's time control: %w", err)
	}
	for _, side := range []struct {
		text string
		tc   **TimeControl
	}{{s.WhiteTC, &cfg.WhiteTC}, {s.BlackTC, &cfg.BlackTC}} {
		if side.text == "" {
			continue
		}
		tc, err := ParseTimeControl(side.text)
		if err != nil {
			return cfg, fmt.Errorf("the test's time control: %w", err)
		}
		*side.tc = &tc
	}
	if cfg.Disagreement, err = ParseDisagreementPolicy(s.Disagreement); err != nil {
		return cfg, fmt.Errorf("the test's disagreement policy: %w", err)
	}
	if s.TimeMargin != "" {
		if cfg.TimeMargin, err = time.ParseDuration(s.TimeMargin); err != nil {
			return cfg, fmt.Errorf("the test's time margin: %w", err)
		}
	}
	for i, text := range s.Openings {
		gs, err := uhp.ParseGameString(text)
		if err != nil {
			return cfg, fmt.Errorf("the test's opening %d: %w", i+1, err)
		}
		cfg.Openings = append(cfg.Openings, gs)
	}
	return cfg, nil
}

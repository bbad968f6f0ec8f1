package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// A match keeps its state in its --out file, a line per finished game
// written and flushed as the game ends, and its settings in FILE.json,
// written before the first game: --resume reads both back and plays the
// games the file lacks, counting those it holds first, so that a match
// stopped by Ctrl-C, a crash or SIGKILL loses no game, counts none twice,
// and its SPRT goes on from where it stood.

// matchSettings are what make two runs one match: the engines, their
// options and time controls, the openings, the rules of scoring and
// stopping. The number of games may grow, and the concurrency change,
// between runs.
type matchSettings struct {
	White        string   `json:"white"`
	Black        string   `json:"black"`
	WhiteName    string   `json:"white_name,omitempty"`
	BlackName    string   `json:"black_name,omitempty"`
	WhiteOptions []string `json:"white_options"`
	BlackOptions []string `json:"black_options"`
	WhiteTC      string   `json:"white_tc"`
	BlackTC      string   `json:"black_tc"`
	Openings     string   `json:"openings"`
	MaxPlies     int      `json:"max_plies"`
	TimeMargin   string   `json:"time_margin,omitempty"`
	Disagreement string   `json:"disagreement"`
	SPRT         string   `json:"sprt,omitempty"`
	Draw         string   `json:"draw,omitempty"`
	Resign       string   `json:"resign,omitempty"`
}

func settingsOf(f *matchFlags, cfg referee.Config) matchSettings {
	return matchSettings{
		White: cfg.White, Black: cfg.Black, WhiteName: cfg.WhiteName, BlackName: cfg.BlackName,
		WhiteOptions: cfg.WhiteOptions, BlackOptions: cfg.BlackOptions,
		WhiteTC: cfg.TCOf(true).String(), BlackTC: cfg.TCOf(false).String(), Openings: openingsText(f, cfg),
		MaxPlies: cfg.MaxPlies, Disagreement: cfg.Disagreement.String(), SPRT: f.sprt, Draw: f.drawRule, Resign: f.resignRule,
		TimeMargin: marginSetting(cfg.TimeMargin),
	}
}

// marginSetting is the time margin as the settings keep it: left out when
// there is none, so that a match of an earlier version resumes.
func marginSetting(margin time.Duration) string {
	if margin == 0 {
		return ""
	}
	return margin.String()
}

// resumed reads back what an earlier run of this match left in f.out and
// its summary, refusing a file another match made, and returns the games
// it finished and the length of the file up to its last whole line (a run
// killed while writing a line leaves part of one, which is no game).
func resumed(f *matchFlags, cfg referee.Config) ([]referee.GameRecord, int64, error) {
	data, err := os.ReadFile(f.out + ".json")
	if err != nil {
		return nil, 0, fmt.Errorf("--resume: %w (a match writes it before its first game)", err)
	}
	var then struct {
		Settings *matchSettings `json:"settings"`
	}
	if err := json.Unmarshal(data, &then); err != nil || then.Settings == nil {
		return nil, 0, fmt.Errorf("--resume: %s.json holds no match settings", f.out)
	}
	now := settingsOf(f, cfg)
	was, _ := json.Marshal(then.Settings)
	is, _ := json.Marshal(now)
	if !bytes.Equal(was, is) {
		return nil, 0, fmt.Errorf("--resume: %s was made by another match: its settings were %s, this one's are %s", f.out, was, is)
	}
	data, err = os.ReadFile(f.out)
	if err != nil {
		return nil, 0, fmt.Errorf("--resume: %w", err)
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	var games []referee.GameRecord
	sc := bufio.NewScanner(bytes.NewReader(data[:whole]))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		g, err := parseGameLine(sc.Text())
		if err != nil {
			return nil, 0, fmt.Errorf("--resume: %s line %d: %w", f.out, n, err)
		}
		if g.Index >= cfg.Games {
			return nil, 0, fmt.Errorf("--resume: %s holds game %d, beyond this match's %d games", f.out, g.Index, cfg.Games)
		}
		games = append(games, g)
	}
	return games, int64(whole), sc.Err()
}

// parseGameLine reads a line of the --out file (gameLine) back into the
// record of its game: what the statistics and the test count.
func parseGameLine(line string) (referee.GameRecord, error) {
	fields := strings.Split(line, "\t")
	if len(fields) != 7 {
		return referee.GameRecord{}, fmt.Errorf("%d fields, want 7: GameString, result, reason, game=, white=, evals=, ending=", len(fields))
	}
	g := referee.GameRecord{GameString: fields[0], Reason: fields[2]}
	gs, err := uhp.ParseGameString(fields[0])
	if err != nil {
		return g, err
	}
	g.Plies = len(gs.Moves)
	switch fields[1] {
	case "WhiteWins":
		g.Result = core.WhiteWins
	case "BlackWins":
		g.Result = core.BlackWins
	case "Draw":
		g.Result = core.Draw
	case "Void":
		g.Result = core.InProgress
	default:
		return g, fmt.Errorf("result %q", fields[1])
	}
	value := func(field, key string) (string, error) {
		v, ok := strings.CutPrefix(field, key+"=")
		if !ok {
			return "", fmt.Errorf("%q: want %s=", field, key)
		}
		return v, nil
	}
	var text string
	if text, err = value(fields[3], "game"); err == nil {
		g.Index, err = strconv.Atoi(text)
	}
	if err == nil {
		text, err = value(fields[4], "white")
		g.AWhite = text == "A"
		if err == nil && text != "A" && text != "B" {
			err = fmt.Errorf("white=%s: want A or B", text)
		}
	}
	if err == nil {
		text, err = value(fields[6], "ending")
		if err == nil {
			g.Ending, err = referee.ParseEnding(text)
		}
	}
	if err == nil && g.Index < 0 {
		err = errors.New("a negative game number")
	}
	return g, err
}

// openGamesFile opens the --out file for the games of this run: a new
// file, its settings written to FILE.json first, or with --resume the
// earlier run's, its games in cfg.Resumed and a part-written last line
// cut off.
func openGamesFile(f *matchFlags, cfg *referee.Config) (*os.File, error) {
	if !f.resume {
		file, err := os.Create(f.out)
		if err != nil {
			return nil, err
		}
		if err := writeSummary(f.out+".json", f, *cfg, referee.Result{}); err != nil {
			file.Close()
			return nil, err
		}
		return file, nil
	}
	games, whole, err := resumed(f, *cfg)
	if err != nil {
		return nil, err
	}
	if err := os.Truncate(f.out, whole); err != nil {
		return nil, err
	}
	cfg.Resumed = games
	return os.OpenFile(f.out, os.O_WRONLY|os.O_APPEND, 0o644)
}

package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/daemon"
	"github.com/hivebridge/hivebridge/translate/records"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// runCmd builds a command with newCmd around a run function that only
// keeps what it is given, and runs it with args: nothing is started. It
// returns the configuration, the command the run function was called from
// (nil if it was not), and the command's error.
func runCmd[C any](t *testing.T, newCmd func(runF func(*cobra.Command, C) error) *cobra.Command, args ...string) (C, *cobra.Command, error) {
	t.Helper()
	var (
		got C
		ran *cobra.Command
	)
	cmd := newCmd(func(cmd *cobra.Command, cfg C) error {
		got, ran = cfg, cmd
		return nil
	})
	if args == nil {
		args = []string{} // not nil, which would have cobra read os.Args
	}
	cmd.SetArgs(args)
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	err := cmd.Execute()
	return got, ran, err
}

// mustRun is runCmd for arguments that must be accepted.
func mustRun[C any](t *testing.T, newCmd func(runF func(*cobra.Command, C) error) *cobra.Command, args ...string) (C, *cobra.Command) {
	t.Helper()
	got, ran, err := runCmd(t, newCmd, args...)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	if ran == nil {
		t.Fatalf("%s: the run function was not called", strings.Join(args, " "))
	}
	return got, ran
}

// refused checks that each of bad is refused before the run function, with
// an error that contains the text given for it.
func refused[C any](t *testing.T, newCmd func(runF func(*cobra.Command, C) error) *cobra.Command, bad map[string][]string) {
	t.Helper()
	for want, args := range bad {
		_, ran, err := runCmd(t, newCmd, args...)
		switch {
		case err == nil:
			t.Errorf("%q was accepted", args)
		case ran != nil:
			t.Errorf("%q: the run function was called before the error %v", args, err)
		case !strings.Contains(err.Error(), want):
			t.Errorf("%q: error %q, want it to say %q", args, err, want)
		}
	}
}

func TestUHPCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdUHP)
	if cfg.dialect != uhp.Standard || cfg.backend.spec != "native" || cfg.backend.options != nil {
		t.Errorf("defaults: %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdUHP, "--dialect", "EARLY", "--backend", "uhp:mzinga --x", "--engine-option", "Threads=2", "--engine-option", "HashMB=8,x")
	if cfg.dialect != uhp.Early || cfg.backend.spec != "uhp:mzinga --x" || !slices.Equal(cfg.backend.options, []string{"Threads=2", "HashMB=8,x"}) {
		t.Errorf("flags gave %+v", cfg)
	}
	refused(t, NewCmdUHP, map[string][]string{
		`unknown --dialect "late": want current or early`: {"--dialect", "late"},
		`unknown command "extra"`:                         {"extra"},
		"unknown flag: --threads":                         {"--threads", "2"},
	})
}

func TestHubCommandFlags(t *testing.T) {
	backend, _ := mustRun(t, NewCmdHub)
	if backend.spec != "native" || backend.options != nil {
		t.Errorf("defaults: %+v", backend)
	}
	backend, _ = mustRun(t, NewCmdHub, "--backend", "hub:scan", "--engine-option", "threads=2")
	if backend.spec != "hub:scan" || !slices.Equal(backend.options, []string{"threads=2"}) {
		t.Errorf("flags gave %+v", backend)
	}
	refused(t, NewCmdHub, map[string][]string{
		`unknown command "extra"`: {"extra"},
		"unknown flag: --dialect": {"--dialect", "early"},
	})
}

func TestPerftCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdPerft)
	if cfg.depth != 5 || cfg.threads != runtime.NumCPU() || cfg.game.Type() != core.Base || cfg.game.MovesPlayed() != 0 {
		t.Errorf("defaults: depth %d, threads %d, %s after %d moves", cfg.depth, cfg.threads, uhp.FormatGameType(cfg.game.Type()), cfg.game.MovesPlayed())
	}
	mlp, err := uhp.ParseGameType("Base+MLP")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ = mustRun(t, NewCmdPerft, "--depth", "3", "--threads", "2", "Base+MLP")
	if cfg.depth != 3 || cfg.threads != 2 || cfg.game.Type() != mlp || cfg.game.MovesPlayed() != 0 {
		t.Errorf("flags gave depth %d, threads %d, %s after %d moves", cfg.depth, cfg.threads, uhp.FormatGameType(cfg.game.Type()), cfg.game.MovesPlayed())
	}
	cfg, _ = mustRun(t, NewCmdPerft, "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1")
	if cfg.game.Type() != core.Base || cfg.game.MovesPlayed() != 4 {
		t.Errorf("a GameString gave %s after %d moves", uhp.FormatGameType(cfg.game.Type()), cfg.game.MovesPlayed())
	}
	refused(t, NewCmdPerft, map[string][]string{
		"--depth must be at least 1, not 0":            {"--depth", "0"},
		"--threads must be at least 1, not 0":          {"--threads", "0"},
		`invalid argument "deep" for "--depth" flag`:   {"--depth", "deep"},
		"is neither a GameTypeString nor a GameString": {"Chess"},
	})
}

// benchLoad is bench load reached through the bench group, as the root
// reaches it.
func benchLoad(runF func(*cobra.Command, loadConfig) error) *cobra.Command {
	return NewCmdBench(runF)
}

func TestBenchLoadCommandFlags(t *testing.T) {
	cfg, ran := mustRun(t, benchLoad, "load")
	want := loadConfig{url: "ws://127.0.0.1:8080/uhp", sessions: 100, duration: 30 * time.Second, think: time.Second,
		depth: 1, gameType: "Base+MLP", ramp: 5 * time.Second}
	want.game, _ = uhp.ParseGameType("Base+MLP")
	if cfg != want || ran.Name() != "load" {
		t.Errorf("defaults %+v from %s, want %+v", cfg, ran.Name(), want)
	}
	cfg, _ = mustRun(t, benchLoad, "load", "--url", "wss://hive.example.org/uhp", "--sessions", "3", "--duration", "2s", "--token", "t0k",
		"--think", "10ms", "--depth", "2", "--gametype", "Base", "--ramp", "0s", "--timeline", "5s")
	want = loadConfig{url: "wss://hive.example.org/uhp", sessions: 3, duration: 2 * time.Second, token: "t0k", think: 10 * time.Millisecond,
		depth: 2, gameType: "Base", game: core.Base, timeline: 5 * time.Second}
	if cfg != want {
		t.Errorf("flags gave %+v, want %+v", cfg, want)
	}
	refused(t, benchLoad, map[string][]string{
		"Chess": {"load", "--gametype", "Chess"},
		`invalid argument "many" for "--sessions" flag`: {"load", "--sessions", "many"},
		`unknown command "extra"`:                       {"load", "extra"},
	})
}

func TestMatchCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdMatch, "--white", "native", "--black", "uhp:mzinga")
	r := cfg.referee
	if r.White != "native" || r.Black != "uhp:mzinga" || r.WhiteOptions != nil || r.BlackOptions != nil || r.Games != 2 ||
		r.GameType != core.Base || r.TC != (referee.TimeControl{MoveTime: time.Second}) || r.WhiteTC != nil || r.BlackTC != nil ||
		r.Openings != nil || r.RandomPlies != 0 || r.Seed != 1 || r.Concurrency != 1 || r.MaxPlies != referee.DefaultMaxPlies ||
		r.SPRT != nil || r.Disagreement != referee.DisagreementDraw || r.Archive != nil || r.TimeMargin != 0 ||
		cfg.flags.out != "" || cfg.flags.db != "" || cfg.flags.openings != "" {
		t.Errorf("defaults: %+v, flags %+v", r, cfg.flags)
	}

	out := filepath.Join(t.TempDir(), "games.tsv")
	cfg, _ = mustRun(t, NewCmdMatch, "--white", "uhp:./new", "--black", "uhp:./old", "--white-option", "Threads=2", "--black-option", "HashMB=8",
		"--games", "10", "--gametype", "Base+MLP", "--tc", "depth=2", "--white-tc", "time=60+1", "--black-tc", "movetime=0.5",
		"--random-plies", "4", "--seed", "7", "--concurrency", "3", "--max-plies", "100", "--sprt", "0,10", "--disagreement", "void",
		"--time-margin", "50ms", "--out", out, "--db", "none")
	r = cfg.referee
	mlp, _ := uhp.ParseGameType("Base+MLP")
	if r.White != "uhp:./new" || r.Black != "uhp:./old" || !slices.Equal(r.WhiteOptions, []string{"Threads=2"}) ||
		!slices.Equal(r.BlackOptions, []string{"HashMB=8"}) || r.Games != 10 || r.GameType != mlp || r.TC != (referee.TimeControl{Depth: 2}) ||
		r.WhiteTC == nil || *r.WhiteTC != (referee.TimeControl{Clock: time.Minute, Inc: time.Second}) ||
		r.BlackTC == nil || *r.BlackTC != (referee.TimeControl{MoveTime: 500 * time.Millisecond}) ||
		r.RandomPlies != 4 || r.Seed != 7 || r.Concurrency != 3 || r.MaxPlies != 100 || r.TimeMargin != 50*time.Millisecond ||
		r.SPRT == nil || r.SPRT.Elo0 != 0 || r.SPRT.Elo1 != 10 || r.Disagreement != referee.DisagreementVoid ||
		cfg.flags.out != out || cfg.flags.db != "none" {
		t.Errorf("flags gave %+v, flags %+v", r, cfg.flags)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("--out was created before the run: %v", err)
	}

	dir := t.TempDir()
	openings := filepath.Join(dir, "openings.txt")
	const opening = "Base;InProgress;White[2];wS1;bG1 -wS1"
	os.WriteFile(openings, []byte("# two plies\n"+opening+"\tWhiteWins\n\n"), 0o644)
	cfg, _ = mustRun(t, NewCmdMatch, "--white", "native", "--black", "native", "--openings", openings)
	if len(cfg.referee.Openings) != 1 || cfg.referee.Openings[0].String() != opening || cfg.flags.openings != openings {
		t.Errorf("--openings gave %v from %q", cfg.referee.Openings, cfg.flags.openings)
	}

	// --engine: a tournament, each entrant's name, spec, options and time
	// control; the flags' match is what each pairing plays.
	cfg, _ = mustRun(t, NewCmdMatch, "--engine", "name=new,spec=uhp:./new --fast,option=Threads=1,option=Hash=64,tc=depth=4",
		"--engine", "name=old,spec=native", "--format", "gauntlet", "--games", "6")
	if tour := cfg.tournament; tour == nil || tour.Format != referee.Gauntlet || len(tour.Entrants) != 2 ||
		tour.Entrants[0].Name != "new" || tour.Entrants[0].Spec != "uhp:./new --fast" || strings.Join(tour.Entrants[0].Options, ";") != "Threads=1;Hash=64" ||
		tour.Entrants[0].TC == nil || tour.Entrants[0].TC.String() != "depth=4" || tour.Entrants[1].TC != nil || tour.Match.Games != 6 {
		t.Errorf("--engine gave %+v", cfg.tournament)
	}

	players := []string{"--white", "native", "--black", "native"}
	refused(t, NewCmdMatch, map[string][]string{
		"--white and --black name the two engines of a match": {"--white", "native"},
		"--draw: draw adjudication":                           append(players, "--draw", "movecount=3"),
		"--max-plies must be at least 1, not 0":               append(players, "--max-plies", "0"),
		"--time-margin must be 0 or more, not -1s":            append(players, "--time-margin", "-1s"),
		"--tc: ":           append(players, "--tc", "fast"),
		"--black-tc: ":     append(players, "--black-tc", "depth=x"),
		"--disagreement: ": append(players, "--disagreement", "coin"),
		"--gametype: ":     append(players, "--gametype", "Chess"),
		"--sprt: ":         append(players, "--sprt", "10"),
		"--openings and --random-plies exclude each other":  append(players, "--openings", openings, "--random-plies", "2"),
		"--gametype applies to random openings":             append(players, "--openings", openings, "--gametype", "Base"),
		"no such file or directory":                         append(players, "--openings", filepath.Join(dir, "missing.txt")),
		`invalid argument "ten" for "--games" flag`:         append(players, "--games", "ten"),
		`unknown command "extra" for "match"`:               append(players, "extra"),
		`invalid argument "-1" for "--seed" flag`:           append(players, "--seed", "-1"),
		`invalid argument "often" for "--concurrency" flag`: append(players, "--concurrency", "often"),
	})
}

// hivejsonCmd is NewCmdHivejson with a run function of runCmd's kind.
func hivejsonCmd(runF func(*cobra.Command, hivejsonSetup) error) *cobra.Command {
	return NewCmdHivejson(func(_ context.Context, cmd *cobra.Command, setup hivejsonSetup) error {
		return runF(cmd, setup)
	})
}

func TestHivejsonCommandFlags(t *testing.T) {
	setup, _ := mustRun(t, hivejsonCmd, "--listen", ":7000")
	wantServer := hivejson.ServerConfig{DefaultTime: hivejson.DefaultThinkTime, MaxTime: 5 * time.Minute,
		IdleTimeout: hivejson.DefaultIdleTimeout, MaxFrame: hivejson.DefaultMaxLen, FrameLength: hivejson.UTF16Units, MaxConns: 2000}
	if setup.listen != ":7000" || setup.backend.spec != "native" || setup.backend.options != nil ||
		setup.pool != (translate.PoolConfig{Limit: runtime.NumCPU(), Queue: 4096, Wait: 30 * time.Second}) ||
		setup.grace != 10*time.Second || !setup.allow.Everyone() || !serverConfigEqual(setup.server, wantServer) {
		t.Errorf("defaults: %+v", setup)
	}

	setup, _ = mustRun(t, hivejsonCmd, "--listen", "0.0.0.0:7000", "--backend", "uhp:mzinga", "--engine-option", "Threads=2",
		"--default-time", "2s", "--max-search-time", "1m", "--idle-timeout", "30s", "--max-sessions", "5", "--max-frame", "1000",
		"--frame-length", "utf8", "--allow-from", "127.0.0.1,10.0.0.0/8", "--pool-size", "3", "--pool-queue", "0", "--pool-wait", "2s",
		"--grace", "1s")
	wantServer = hivejson.ServerConfig{DefaultTime: 2 * time.Second, MaxTime: time.Minute, IdleTimeout: 30 * time.Second,
		MaxFrame: 1000, FrameLength: hivejson.UTF8Bytes, MaxConns: 5}
	if setup.listen != "0.0.0.0:7000" || setup.backend.spec != "uhp:mzinga" || !slices.Equal(setup.backend.options, []string{"Threads=2"}) ||
		setup.pool != (translate.PoolConfig{Limit: 3, Queue: 0, Wait: 2 * time.Second}) || setup.grace != time.Second ||
		setup.allow.String() != "127.0.0.1,10.0.0.0/8" || !serverConfigEqual(setup.server, wantServer) {
		t.Errorf("flags gave %+v (allow %s)", setup, setup.allow)
	}
	if setup.allow.Allows(&net.TCPAddr{IP: net.IPv4(192, 168, 1, 1)}) || !setup.allow.Allows(&net.TCPAddr{IP: net.IPv4(10, 1, 2, 3)}) {
		t.Errorf("--allow-from 127.0.0.1,10.0.0.0/8 gave %s", setup.allow)
	}

	listen := []string{"--listen", "127.0.0.1:0"}
	refused(t, hivejsonCmd, map[string][]string{
		`required flag(s) "listen" not set`:                    nil,
		"--default-time 0s: want a positive duration":          append(listen, "--default-time", "0s"),
		"--idle-timeout -1m0s: want a positive duration":       append(listen, "--idle-timeout", "-1m"),
		"--max-sessions 0: want at least 1":                    append(listen, "--max-sessions", "0"),
		"--max-frame 0: want at least 1":                       append(listen, "--max-frame", "0"),
		"--pool-size 0: want at least 1":                       append(listen, "--pool-size", "0"),
		"--pool-queue -1: want 0 or more":                      append(listen, "--pool-queue", "-1"),
		"--max-search-time 0s: want a positive duration":       append(listen, "--max-search-time", "0"),
		"--pool-wait 0s: want a positive duration":             append(listen, "--pool-wait", "0s"),
		`--allow-from: "localhost" is neither an IP address`:   append(listen, "--allow-from", "localhost"),
		`--frame-length "bytes": want utf16`:                   append(listen, "--frame-length", "bytes"),
		`invalid argument "fast" for "--default-time" flag`:    append(listen, "--default-time", "fast"),
		`unknown command "extra" for "hivejson"`:               append(listen, "extra"),
		`invalid argument "lots" for "--pool-size" flag`:       append(listen, "--pool-size", "lots"),
		`invalid argument "forever" for "--idle-timeout" flag`: append(listen, "--idle-timeout", "forever"),
	})
}

// serverConfigEqual compares the parts of a JSON server's configuration
// that the hivejson command's flags set.
func serverConfigEqual(a, b hivejson.ServerConfig) bool {
	return a.DefaultTime == b.DefaultTime && a.MaxTime == b.MaxTime && a.IdleTimeout == b.IdleTimeout &&
		a.MaxFrame == b.MaxFrame && a.FrameLength == b.FrameLength && a.MaxConns == b.MaxConns &&
		a.Margin == b.Margin && a.WriteTimeout == b.WriteTimeout && a.Searcher == nil && a.Admit == nil
}

func TestTuneCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdTune, "selfplay.tsv")
	if !slices.Equal(cfg.files, []string{"selfplay.tsv"}) || cfg.out != "" || cfg.skip != 8 || cfg.passes != 500 || cfg.l2 != 5e-8 {
		t.Errorf("defaults: %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdTune, "--out", "ai/weights.go", "--skip", "0", "--passes", "3", "--l2", "0", "a.tsv", "b.tsv")
	if !slices.Equal(cfg.files, []string{"a.tsv", "b.tsv"}) || cfg.out != "ai/weights.go" || cfg.skip != 0 || cfg.passes != 3 || cfg.l2 != 0 {
		t.Errorf("flags gave %+v", cfg)
	}
	refused(t, NewCmdTune, map[string][]string{
		"requires at least 1 arg(s)":                 nil,
		`invalid argument "x" for "--skip" flag`:     {"--skip", "x", "a.tsv"},
		`invalid argument "much" for "--l2" flag`:    {"--l2", "much", "a.tsv"},
		`invalid argument "1.5" for "--passes" flag`: {"--passes", "1.5", "a.tsv"},
	})
}

// gamesCmd is NewCmdGames with every subcommand run by runF.
func gamesCmd(runF func(*cobra.Command, gamesConfig) error) *cobra.Command {
	return NewCmdGames(gamesRuns{list: runF, show: runF, export: runF, ratings: runF})
}

// TestRecordCommandFlags checks what games convert and games import are
// given, without reading a file.
func TestRecordCommandFlags(t *testing.T) {
	var (
		converted convertConfig
		imported  importConfig
	)
	cmd := func() *cobra.Command {
		return NewCmdGames(gamesRuns{
			convert: func(_ *cobra.Command, cfg convertConfig) error { converted = cfg; return nil },
			imports: func(_ *cobra.Command, cfg importConfig) error { imported = cfg; return nil },
		})
	}
	run := func(args ...string) error {
		c := cmd()
		c.SetArgs(args)
		c.SetOut(io.Discard)
		c.SetErr(io.Discard)
		return c.Execute()
	}
	if err := run("convert", "a.sgf", "-"); err != nil || converted.to != records.GameString || !slices.Equal(converted.files, []string{"a.sgf", "-"}) {
		t.Errorf("convert a.sgf -: %+v, %v", converted, err)
	}
	if err := run("convert", "--to", "PGN", "a.sgf"); err != nil || converted.to != records.PGN {
		t.Errorf("convert --to PGN: %+v, %v", converted, err)
	}
	if err := run("import", "--db", "x.db", "dir", "b.zip"); err != nil || imported.db != "x.db" || !slices.Equal(imported.paths, []string{"dir", "b.zip"}) {
		t.Errorf("import: %+v, %v", imported, err)
	}
	for want, args := range map[string][]string{
		`--to: unknown format "chess"`: {"convert", "--to", "chess", "a.pgn"},
		"requires at least 1 arg(s)":   {"convert"},
		"requires at least 1 arg(s), ": {"import"},
	} {
		if err := run(args...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
}

func TestGamesCommandFlags(t *testing.T) {
	firstPage := archive.Filter{Page: 1, PerPage: archive.DefaultPerPage}
	for _, c := range []struct {
		sub  string
		args []string
		want gamesConfig
	}{
		{"list", []string{"list"}, gamesConfig{filter: firstPage}},
		{"list", []string{"--db", "games.db", "list", "--player", "native", "--type", "Base+MLP", "--result", "Draw", "--status", "finished",
			"--since", "2024-01-02", "--until", "2024-02-01T12:00:00Z", "--page", "2", "--per-page", "10", "--json"},
			gamesConfig{gamesFlags: gamesFlags{db: "games.db", json: true}, filter: archive.Filter{Player: "native", GameType: "Base+MLP",
				Result: "Draw", Status: archive.Finished, Since: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
				Until: time.Date(2024, 2, 1, 12, 0, 0, 0, time.UTC), Page: 2, PerPage: 10}}},
		{"show", []string{"show", "42"}, gamesConfig{id: 42}},
		{"show", []string{"show", "--db", "postgres://h/db", "--json", "7"}, gamesConfig{gamesFlags: gamesFlags{db: "postgres://h/db", json: true}, id: 7}},
		{"export", []string{"export"}, gamesConfig{gamesFlags: gamesFlags{format: "gamestring"}, filter: firstPage}},
		{"export", []string{"export", "--format", "json", "--status", "interrupted"},
			gamesConfig{gamesFlags: gamesFlags{format: "json"}, filter: archive.Filter{Status: archive.Interrupted, Page: 1, PerPage: archive.DefaultPerPage}}},
		{"ratings", []string{"ratings", "--json", "--db", "none"}, gamesConfig{gamesFlags: gamesFlags{db: "none", json: true}}},
	} {
		if c.want.format == "" {
			c.want.format = "gamestring" // the flags the subcommands share hold export's default
		}
		got, ran := mustRun(t, gamesCmd, c.args...)
		if ran.Name() != c.sub {
			t.Errorf("%q ran %s, want %s", c.args, ran.Name(), c.sub)
		}
		if !gamesConfigEqual(got, c.want) {
			t.Errorf("%q gave %+v, want %+v", c.args, got, c.want)
		}
	}
	refused(t, gamesCmd, map[string][]string{
		`result "Win": want WhiteWins, BlackWins or Draw`:          {"list", "--result", "Win"},
		`since "yesterday": want a date`:                           {"list", "--since", "yesterday"},
		`game id "0": want a whole number from 1`:                  {"show", "0"},
		`game id "abc": want a whole number from 1`:                {"show", "abc"},
		"accepts 1 arg(s), received 0":                             {"show"},
		`--format "csv": want gamestring, json, pgn, sgf or jsonl`: {"export", "--format", "csv"},
		"unknown flag: --page":                                     {"export", "--page", "2"},
		`unknown command "extra" for "games ratings"`:              {"ratings", "extra"},
	})
}

// gamesConfigEqual compares games configurations, their times by instant.
func gamesConfigEqual(a, b gamesConfig) bool {
	fa, fb := a.filter, b.filter
	return a.gamesFlags == b.gamesFlags && a.id == b.id && fa.Player == fb.Player && fa.GameType == fb.GameType &&
		fa.Result == fb.Result && fa.Status == fb.Status && fa.Since.Equal(fb.Since) && fa.Until.Equal(fb.Until) &&
		fa.Page == fb.Page && fa.PerPage == fb.PerPage
}

// TestSharedFlagsCommand: serve and hivejson take the pool and client flags
// from one type each, so they have the same names and defaults, and the
// values reach each command's configuration alike.
func TestSharedFlagsCommand(t *testing.T) {
	serve := NewCmdServe(func(context.Context, *cobra.Command, daemon.Config) error { return nil })
	hj := NewCmdHivejson(func(context.Context, *cobra.Command, hivejsonSetup) error { return nil })
	for name, usage := range map[string][2]string{
		"pool-size":    {"the most backend engines at once", "the most backend engines at once"},
		"pool-queue":   {"the most searches waiting for an engine", "the most requests waiting for an engine"},
		"pool-wait":    {"how long a search may wait for an engine", "how long a request may wait for an engine"},
		"idle-timeout": {"close a session that sends nothing for this long (more than 0)", "close a connection that sends nothing for this long (more than 0)"},
		"frame-length": {"what a JSON frame's length counts: utf16 (UTF-16 code units, the original's) or utf8 (UTF-8 bytes)", ""},
		"allow-from":   {"answer only clients at these IP addresses or networks (CIDR) on every listener, e.g. 127.0.0.1,10.0.0.0/8; default everyone who reaches a listener", ""},
	} {
		s, h := serve.Flags().Lookup(name), hj.Flags().Lookup(name)
		if s == nil || h == nil {
			t.Errorf("--%s: serve has %v, hivejson %v", name, s, h)
			continue
		}
		if usage[1] == "" {
			usage[1] = usage[0]
		}
		if s.DefValue != h.DefValue || s.Value.Type() != h.Value.Type() || s.Usage != usage[0] || h.Usage != usage[1] {
			t.Errorf("--%s: serve %s %q (%s), hivejson %s %q (%s)", name, s.Value.Type(), s.DefValue, s.Usage, h.Value.Type(), h.DefValue, h.Usage)
		}
	}

	shared := []string{"--pool-size", "3", "--pool-queue", "5", "--pool-wait", "2s", "--idle-timeout", "1m",
		"--frame-length", "utf8", "--allow-from", "10.0.0.0/8", "--allow-from", "::1"}
	var dcfg daemon.Config
	serve = NewCmdServe(func(_ context.Context, _ *cobra.Command, cfg daemon.Config) error {
		dcfg = cfg
		return nil
	})
	serve.SetArgs(append([]string{"--uhp", ":0"}, shared...))
	serve.SetOut(new(bytes.Buffer))
	serve.SetErr(new(bytes.Buffer))
	if err := serve.Execute(); err != nil {
		t.Fatal(err)
	}
	if dcfg.PoolSize != 3 || dcfg.PoolQueue != 5 || dcfg.PoolWait != 2*time.Second || dcfg.IdleTimeout != time.Minute ||
		dcfg.FrameLength != hivejson.UTF8Bytes || !slices.Equal(dcfg.AllowFrom, []string{"10.0.0.0/8", "::1"}) {
		t.Errorf("serve %s gave %+v", strings.Join(shared, " "), dcfg)
	}
	setup, _ := mustRun(t, hivejsonCmd, append([]string{"--listen", ":0"}, shared...)...)
	if setup.pool != (translate.PoolConfig{Limit: 3, Queue: 5, Wait: 2 * time.Second}) || setup.server.IdleTimeout != time.Minute ||
		setup.server.FrameLength != hivejson.UTF8Bytes || setup.allow.String() != "10.0.0.0/8,::1" {
		t.Errorf("hivejson %s gave %+v", strings.Join(shared, " "), setup)
	}
}

// TestRootCommands: the root has every command, and runs as a UHP engine
// with the backend flags of its own.
func TestRootCommands(t *testing.T) {
	root := NewCmdRoot()
	var names []string
	for _, c := range root.Commands() {
		names = append(names, c.Name())
		for _, sub := range c.Commands() {
			names = append(names, c.Name()+" "+sub.Name())
		}
	}
	for _, want := range []string{"uhp", "perft", "serve", "bench", "bench load", "match", "hivejson", "hub", "tune",
		"games", "games list", "games show", "games export", "games ratings", "train", "train fit"} {
		if !slices.Contains(names, want) {
			t.Errorf("the root has no %q command: %v", want, names)
		}
	}
	for _, flag := range []string{"backend", "engine-option"} {
		if root.Flags().Lookup(flag) == nil {
			t.Errorf("the root has no --%s", flag)
		}
	}
	if f := root.PersistentFlags().Lookup("log-level"); f == nil || f.DefValue != "warn" {
		t.Errorf("--log-level: %v", f)
	}
}

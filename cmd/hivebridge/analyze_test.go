package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
)

func TestAnalyzeCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdAnalyze, "game.pgn")
	if cfg.file != "game.pgn" || cfg.index != 1 || cfg.limit != (engine.Limit{Depth: defaultAnalyzeDepth}) || cfg.format != "pgn" || cfg.backend.spec != "native" {
		t.Errorf("defaults: %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdAnalyze, "--game", "42", "--db", "x.db", "--time", "0.5", "--format", "json", "--backend", "uhp:engine", "--engine-option", "Threads=2")
	if cfg.file != "" || cfg.game != 42 || cfg.db != "x.db" || cfg.limit != (engine.Limit{Time: 500 * time.Millisecond}) || cfg.format != "json" ||
		cfg.backend.spec != "uhp:engine" || len(cfg.backend.options) != 1 {
		t.Errorf("flags gave %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdAnalyze, "--depth", "9", "--index", "3", "--format", "table", "-")
	if cfg.file != "-" || cfg.index != 3 || cfg.limit != (engine.Limit{Depth: 9}) || cfg.format != "table" {
		t.Errorf("flags gave %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdAnalyze, "--fit", "a.pgn,b.pgn")
	if len(cfg.fit) != 2 {
		t.Errorf("--fit gave %+v", cfg)
	}
	refused(t, NewCmdAnalyze, map[string][]string{
		"give a FILE or --game ID":                {},
		"not both":                                {"--game", "1", "game.pgn"},
		"--game 0: want an archived game's id":    {"--game", "0"},
		"give --depth or --time, not both":        {"--depth", "3", "--time", "1", "game.pgn"},
		"--time 0: want seconds a position":       {"--time", "0", "game.pgn"},
		"--depth 0: want 1 or more":               {"--depth", "0", "game.pgn"},
		"--index 0: want a game's place":          {"--index", "0", "game.pgn"},
		`--format "csv": want pgn, json or table`: {"--format", "csv", "game.pgn"},
		"accepts at most 1 arg":                   {"a.pgn", "b.pgn"},
	})
}

// TestAnalyzeFit fits the curve to the sample of the self-play games that
// translate/analysis keeps, as scripts/fit-curve.py does.
func TestAnalyzeFit(t *testing.T) {
	cmd := NewCmdAnalyze(nil)
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"--fit", "../../translate/analysis/testdata/selfplay-sample.pgn"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "100 games: K 0.013258 ± 0.003007, C 3.0 ± 18.0 hundredths, over 3694 positions of weight 100,") {
		t.Errorf("--fit printed %q", out.String())
	}
}

// TestAnalyzeBar: on a terminal the bar shows the share of positions done
// and the time left, redrawn in place, and ends its line; elsewhere
// nothing is drawn.
func TestAnalyzeBar(t *testing.T) {
	var out bytes.Buffer
	t0 := time.Unix(0, 0)
	b := &analyzeBar{out: &out, tty: true, start: t0}
	b.update(5, 10, t0.Add(2*time.Second))
	b.update(6, 10, t0.Add(2*time.Second+50*time.Millisecond)) // too soon: not drawn
	b.update(10, 10, t0.Add(4*time.Second))
	b.end()
	want := "\r\x1b[K[===============               ]  50% 5/10 positions, 2s left" +
		"\r\x1b[K[==============================] 100% 10/10 positions\n"
	if out.String() != want {
		t.Errorf("bar drawn as %q, want %q", out.String(), want)
	}
	out.Reset()
	b = newAnalyzeBar(&out, t0)
	b.update(10, 10, t0.Add(time.Second))
	b.end()
	if out.Len() != 0 {
		t.Errorf("drawn on no terminal: %q", out.String())
	}
}

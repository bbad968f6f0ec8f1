package main

import (
	"slices"
	"testing"

	"github.com/hivebridge/hivebridge/ai/dataset"
)

func TestTrainDataFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdTrainData, "games-0003.tsv")
	want := trainDataConfig{games: "games-0003.tsv", out: "games-0003.hbd", settings: dataset.DefaultSettings(), workers: 1, every: 50}
	if cfg != want {
		t.Errorf("defaults: %+v, want %+v", cfg, want)
	}
	cfg, _ = mustRun(t, NewCmdTrainData, "--out", "x.hbd", "--depth", "6", "--hash", "4", "--skip", "0", "--margin", "90",
		"--note", "n", "--workers", "3", "--progress", "7", "g")
	want = trainDataConfig{games: "g", out: "x.hbd", settings: dataset.Settings{Depth: 6, HashMB: 4, Skip: 0, Margin: 90, Note: "n"}, workers: 3, every: 7}
	if cfg != want {
		t.Errorf("flags gave %+v, want %+v", cfg, want)
	}
	refused(t, NewCmdTrainData, map[string][]string{
		"accepts 1 arg(s)":                        nil,
		"--workers -1":                            {"--workers", "-1", "g.tsv"},
		"names the games file":                    {"--out", "g.tsv", "g.tsv"},
		`invalid argument "x" for "--depth" flag`: {"--depth", "x", "g.tsv"},
	})
}

func TestTrainOpeningsFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdTrainOpenings, "o.txt")
	if cfg != (trainOpeningsConfig{from: "o.txt", plies: 2, seed: 1}) {
		t.Errorf("defaults: %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdTrainOpenings, "--plies", "4", "--seed", "9", "--out", "x.txt", "o.txt")
	if cfg != (trainOpeningsConfig{from: "o.txt", out: "x.txt", plies: 4, seed: 9}) {
		t.Errorf("flags gave %+v", cfg)
	}
	refused(t, NewCmdTrainOpenings, map[string][]string{
		"accepts 1 arg(s)": nil,
		"--plies -1":       {"--plies", "-1", "o.txt"},
	})
}

func TestTrainInfoFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdTrainInfo, "--total", "a.hbd", "b.hbd")
	if !cfg.total || !slices.Equal(cfg.files, []string{"a.hbd", "b.hbd"}) {
		t.Errorf("flags gave %+v", cfg)
	}
	refused(t, NewCmdTrainInfo, map[string][]string{"requires at least 1 arg(s)": nil})
}

package main

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestTrainDataResumesAfterKill labels games in a process of its own,
// killed with SIGKILL again and again soon after it has written a game,
// and resumed each time with the same command: the file comes out the
// same as a run never stopped writes it.
func TestTrainDataResumesAfterKill(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../ai/dataset/testdata/games.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	games := filepath.Join(dir, "games.tsv")
	if err := os.WriteFile(games, []byte(strings.Join(lines[:6], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	label := func(out string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "train", "data", "--depth", "3", "--progress", "1", "--note", "kill test", "--out", out, games)
		cmd.Env = append(os.Environ(), runMainVar+"=1")
		return cmd
	}
	ref := filepath.Join(dir, "ref.hbd")
	if out, err := label(ref).CombinedOutput(); err != nil {
		t.Fatalf("a run without a stop: %v\n%s", err, out)
	}
	want, _ := os.ReadFile(ref)

	killed := filepath.Join(dir, "killed.hbd")
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 0
	for round := 0; round < 20; round++ {
		cmd := label(killed)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wrote := regexp.MustCompile(`^[1-9][0-9]* games, `)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if wrote.MatchString(sc.Text()) {
				time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
				if cmd.Process.Signal(syscall.SIGKILL) == nil {
					kills++
				}
				break
			}
		}
		go io.Copy(io.Discard, stderr)
		if err := cmd.Wait(); err == nil {
			break // it finished before the kill
		}
	}
	if out, err := label(killed).CombinedOutput(); err != nil {
		t.Fatalf("the last resumption: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(killed)
	if !bytes.Equal(got, want) {
		t.Errorf("killed %d times and resumed: %d bytes, unlike the %d of a run never stopped", kills, len(got), len(want))
	}
	if kills == 0 {
		t.Error("no run was killed")
	}
	t.Logf("killed %d times", kills)
}

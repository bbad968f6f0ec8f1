package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/translate"
)

func TestBenchSearchCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdBenchSearch, "games.tsv")
	want := searchConfig{file: "games.tsv", time: time.Second, hashMB: translate.DefaultHashMB, eval: translate.DefaultEval}
	if cfg != want {
		t.Errorf("defaults %+v, want %+v", cfg, want)
	}
	cfg, _ = mustRun(t, NewCmdBenchSearch, "--time", "5s", "--hash", "256", "--eval", "linear", "--cut", "30", "games.tsv")
	want = searchConfig{file: "games.tsv", time: 5 * time.Second, hashMB: 256, eval: "linear", cut: 30}
	if cfg != want {
		t.Errorf("flags gave %+v, want %+v", cfg, want)
	}
}

// searchBenchGame is a game of the data run (scripts/nnue-data.sh,
// games-0003.tsv, line 6): 43 plies to White's win.
const searchBenchGame = `Base+MLP;WhiteWins;White[22];wM;bL /wM;wS1 wM-;bG1 -bL;wA1 wS1-;bQ bL\;wQ wS1\;bG2 /bG1;wA1 /bQ;bM -bG1;wL /wA1;bG2 -wM;wP \wS1;bA1 -bG2;bG2 wM\;bM wQ\;wM \bA1;bP \bL;wL bQ\;bG1 bM/;wB1 wA1\;bS1 bA1\;wB1 wL;bB1 bG1/;wM \bB1;bA1 /wP;wB1 bQ;bL /wM;wS1 \wP;bG3 bM\;wM wP\;bL /wS1;wB2 -wA1;bB2 bG1\;wB2 bS1\;bG2 wM/;wP bA1\;bP -bL;bG2 wS1\;bB1 \bG1;wQ wP\;bG2 /bA1`

// TestBenchSearch: each position's line and the medians, with the depths
// completed, and a table filled the more the smaller it is.
func TestBenchSearch(t *testing.T) {
	file := filepath.Join(t.TempDir(), "games.tsv")
	if err := os.WriteFile(file, []byte("# two middlegames\n"+searchBenchGame+"\tWhiteWins\tgame=1\n\n"+searchBenchGame+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^position (\d) \(ply 16\): depth (\d+), \d+ nodes, \d+ nodes/s, time used \d+%, last iteration done at \d+%, table ([0-9.]+)% filled; d1 \S+, d2 `)
	filled := func(hashMB int) float64 {
		var out bytes.Buffer
		cfg := searchConfig{file: file, time: 100 * time.Millisecond, hashMB: hashMB, eval: translate.DefaultEval, cut: 16}
		if err := runSearchBench(context.Background(), &out, cfg); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[2], "median of 2 positions at 100ms, table "+strconv.Itoa(hashMB)+" MB: depth ") {
			t.Fatalf("got\n%s\nwant two positions and the medians", out.String())
		}
		m := line.FindStringSubmatch(lines[0])
		if m == nil || m[1] != "1" {
			t.Fatalf("got %q, want the first position's figures", lines[0])
		}
		if d, _ := strconv.Atoi(m[2]); d < 3 {
			t.Errorf("depth %d in 100 ms, want 3 or more", d)
		}
		f, _ := strconv.ParseFloat(m[3], 64)
		return f
	}
	if small, large := filled(1), filled(16); small <= large || large <= 0 {
		t.Errorf("a search filled %.1f%% of 1 MB and %.1f%% of 16 MB; want more of the smaller, and some of both", small, large)
	}
}

func TestBenchSearchRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"over.txt":  searchBenchGame + "\n", // uncut: nothing to search
		"empty.txt": "# nothing\n",
		"bad.txt":   "Chess;InProgress;White[1]\n",
	} {
		file := filepath.Join(dir, name)
		os.WriteFile(file, []byte(content), 0o644)
		if err := runSearchBench(context.Background(), &bytes.Buffer{}, searchConfig{file: file, time: time.Millisecond, hashMB: 1, eval: "linear"}); err == nil {
			t.Errorf("%s: searched, want an error", name)
		}
	}
}

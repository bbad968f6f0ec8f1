package main

import (
	"context"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/ai/dataset"
	"github.com/hivebridge/hivebridge/ai/nnue"
	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

func TestTrainFitCommandFlags(t *testing.T) {
	cfg, _ := mustRun(t, NewCmdTrainFit, "--out", "w.nnue", "selfplay.tsv")
	if !slices.Equal(cfg.files, []string{"selfplay.tsv"}) || cfg.out != "w.nnue" || cfg.plot != "" || cfg.depth != 2 || cfg.skip != 4 ||
		cfg.epochs != 30 || cfg.batch != 256 || cfg.rate != 2e-3 || cfg.decay != 0.92 || cfg.lambda != 0.7 || cfg.valid != 0.1 || cfg.seed != 1 {
		t.Errorf("defaults: %+v", cfg)
	}
	cfg, _ = mustRun(t, NewCmdTrainFit, "--out", "o", "--plot", "p.svg", "--depth", "3", "--skip", "0", "--epochs", "5", "--batch", "64",
		"--rate", "0.01", "--decay", "1", "--lambda", "0", "--valid", "0", "--seed", "9", "a.tsv", "b.tsv")
	if !slices.Equal(cfg.files, []string{"a.tsv", "b.tsv"}) || cfg.out != "o" || cfg.plot != "p.svg" || cfg.depth != 3 || cfg.skip != 0 ||
		cfg.epochs != 5 || cfg.batch != 64 || cfg.rate != 0.01 || cfg.decay != 1 || cfg.lambda != 0 || cfg.valid != 0 || cfg.seed != 9 {
		t.Errorf("flags gave %+v", cfg)
	}
	refused(t, NewCmdTrainFit, map[string][]string{
		"requires at least 1 arg(s)": {"--out", "o"},
		"--out":                      {"a.tsv"},
		"--lambda 1.5":               {"--out", "o", "--lambda", "1.5", "a.tsv"},
		"--valid 1":                  {"--out", "o", "--valid", "1", "a.tsv"},
		"must be above zero":         {"--out", "o", "--epochs", "0", "a.tsv"},
		`invalid argument "x"`:       {"--out", "o", "--depth", "x", "a.tsv"},
	})
}

// TestTrainFitWritesWeights runs train fit on a file of self-play games
// written as match --out writes them: the weights it writes must load,
// and the plot must draw both losses over every epoch.
func TestTrainFitWritesWeights(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.tsv")
	var lines []string
	rng := rand.New(rand.NewPCG(3, 3))
	s := ai.New(1, 2)
	var l core.MoveList
	for range 16 {
		g := core.NewGame(core.AllExpansions)
		var moves []string
		play := func(m core.Move) {
			moves = append(moves, uhp.FormatMove(m, g))
			g.Play(m)
		}
		for range 6 {
			g.GenerateMoves(&l)
			play(l.At(rng.IntN(l.Len())))
		}
		for !g.Over() && g.Ply() < 120 {
			play(s.Search(context.Background(), g, ai.Limits{Depth: 1}, nil).Move)
		}
		if !g.Over() {
			continue
		}
		gs := uhp.GameString{Type: g.Type(), State: uhp.StateOf(g), Turn: uhp.TurnOf(g), Moves: moves}
		lines = append(lines, gs.String()+"\t"+g.Result().String())
	}
	if len(lines) < 6 {
		t.Fatalf("only %d games finished", len(lines))
	}
	if err := os.WriteFile(games, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, plot := filepath.Join(dir, "w.nnue"), filepath.Join(dir, "loss.svg")
	cmd := NewCmdTrainFit(nil)
	cmd.SetArgs([]string{"--out", out, "--plot", plot, "--depth", "1", "--epochs", "3", "--batch", "32", "--valid", "0.2", games})
	var log strings.Builder
	cmd.SetOut(&log)
	cmd.SetErr(&log)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	w := readWeights(t, out)
	if !strings.Contains(w.Note, "epoch") || w.Scale <= 0 {
		t.Errorf("note %q, scale %d", w.Note, w.Scale)
	}
	svg, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Polylines []struct {
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Polylines) != 2 || len(strings.Fields(doc.Polylines[0].Points)) != 3 || len(strings.Fields(doc.Polylines[1].Points)) != 3 {
		t.Errorf("plot: %+v", doc.Polylines)
	}
}

// TestTrainFitReadsDataFiles trains on the pipeline's own sample set
// (ai/dataset/testdata/sample.hbd, made by train data): its positions are
// scored already, so every one of them reaches the fit, with no search.
func TestTrainFitReadsDataFiles(t *testing.T) {
	sample := filepath.Join("..", "..", "ai", "dataset", "testdata", "sample.hbd")
	f, err := os.Open(sample)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	err = dataset.Read(f, func(*core.Game, int, float64) bool { want++; return true })
	f.Close()
	if err != nil || want == 0 {
		t.Fatalf("the sample set: %d positions, %v", want, err)
	}
	out := filepath.Join(t.TempDir(), "w.nnue")
	cmd := NewCmdTrainFit(nil)
	cmd.SetArgs([]string{"--out", out, "--epochs", "2", "--batch", "32", "--valid", "0.2", sample})
	var log strings.Builder
	cmd.SetOut(&log)
	cmd.SetErr(&log)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if strings.Contains(log.String(), "scoring their positions") {
		t.Errorf("searched a data file's positions again:\n%s", log.String())
	}
	w := readWeights(t, out)
	var train, valid int
	if _, err := fmt.Sscanf(w.Note[strings.Index(w.Note, ": ")+2:], "%d training, %d validation", &train, &valid); err != nil {
		t.Fatalf("note %q: %v", w.Note, err)
	}
	if train+valid == 0 || train+valid > want || valid == 0 {
		t.Errorf("%d training and %d validation positions of the sample's %d", train, valid, want)
	}
}

// readWeights reads the weights file train fit wrote.
func readWeights(t *testing.T, name string) *nnue.Weights {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := nnue.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

package dataset

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/bits"
	"os"
	"reflect"
	"testing"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// sampleGames reads the games of the sample set (testdata/games.tsv).
func sampleGames(t *testing.T) []Source {
	t.Helper()
	f, err := os.Open("testdata/games.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Source
	mr := NewMatchReader(f)
	for {
		s, err := mr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatal(err)
		}
		out = append(out, s)
	}
}

// sources hands out games one by one, as a MatchReader does.
type sources []Source

func (s *sources) Next() (Source, error) {
	if len(*s) == 0 {
		return Source{}, io.EOF
	}
	g := (*s)[0]
	*s = (*s)[1:]
	return g, nil
}

// labelled labels games with cfg into a new file and returns its bytes.
func labelled(t *testing.T, cfg Config, games []Source) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, cfg.Settings)
	if err != nil {
		t.Fatal(err)
	}
	src := sources(games)
	if _, err := LabelAll(context.Background(), cfg, &src, w, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// quickSettings label at depth 3: the tests' labels, made in seconds.
var quickSettings = Settings{Depth: 3, HashMB: 1, Skip: 10, Margin: 250, Note: "test"}

// TestDatasetLabelsAgreeWithSearch labels the sample games and checks
// every label against a search of its own, by a searcher made for the
// position, of the replayed position; and that each labelled position is
// one the Labeller's rules keep.
func TestDatasetLabelsAgreeWithSearch(t *testing.T) {
	games := sampleGames(t)[:6]
	data := labelled(t, Config{Settings: quickSettings, Workers: 2}, games)
	n := 0
	err := Read(bytes.NewReader(data), func(g *core.Game, score int, result float64) bool {
		n++
		if n%3 != 0 && testing.Short() {
			return true
		}
		s := ai.New(1, quickSettings.HashMB)
		info := s.Search(context.Background(), g, ai.Limits{Depth: quickSettings.Depth}, nil)
		if info.Score != score || info.Depth != quickSettings.Depth {
			t.Errorf("sample %d (ply %d): label %d, a search of its own %d at depth %d", n, g.Ply(), score, info.Score, info.Depth)
		}
		for c := core.White; c <= core.Black; c++ {
			if q := g.Position(core.Piece(c) * core.PiecesPerColor); q != core.NoCell && bits.OnesCount8(g.Neighbors(q)) >= 5 {
				t.Errorf("sample %d (ply %d): a Queen with five neighbours", n, g.Ply())
			}
		}
		if g.Over() || g.Ply() < quickSettings.Skip || decided(score) {
			t.Errorf("sample %d (ply %d): over %v, score %d", n, g.Ply(), g.Over(), score)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("%d samples of %d games", n, len(games))
	}
}

// TestDatasetWorkersWriteTheSameFile labels games with one worker and with
// three: the files are the same, byte for byte.
func TestDatasetWorkersWriteTheSameFile(t *testing.T) {
	games := sampleGames(t)[:5]
	one := labelled(t, Config{Settings: quickSettings, Workers: 1}, games)
	three := labelled(t, Config{Settings: quickSettings, Workers: 3}, games)
	if !bytes.Equal(one, three) {
		t.Errorf("one worker wrote %d bytes, three %d, not the same", len(one), len(three))
	}
}

// TestDatasetStoppedAndResumed stops a labelling run after each number of
// games in turn, as Ctrl-C would, resumes the file and goes on: the file
// comes out as a run without a stop writes it.
func TestDatasetStoppedAndResumed(t *testing.T) {
	games := sampleGames(t)[:4]
	set := quickSettings
	set.Depth = 2
	want := labelled(t, Config{Settings: set, Workers: 1}, games)
	path := t.TempDir() + "/stopped.hbd"
	for stopAt := 1; stopAt < len(games); stopAt++ {
		os.Remove(path)
		w, done, err := Resume(path, set)
		if err != nil || len(done) != 0 {
			t.Fatalf("a new file: %d games, %v", len(done), err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		src := sources(games)
		st, err := LabelAll(ctx, Config{Settings: set, Workers: 2, Progress: func(s Stats) {
			if s.Games == stopAt {
				cancel()
			}
		}}, &src, w, nil)
		cancel()
		if !errors.Is(err, context.Canceled) || st.Games < stopAt {
			t.Fatalf("stopped after %d games: %d written, %v", stopAt, st.Games, err)
		}
		w.Close()
		w, done, err = Resume(path, set)
		if err != nil || len(done) != st.Games {
			t.Fatalf("stopped after %d games: %d back, %v", st.Games, len(done), err)
		}
		src = sources(games)
		if _, err := LabelAll(context.Background(), Config{Settings: set, Workers: 2}, &src, w, done); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("stopped after %d games and resumed: %d bytes, unlike the %d of one run", stopAt, len(got), len(want))
		}
	}
}

// TestDatasetGamesPlayedTwiceAreLabelledOnce gives the labelling a game
// twice under two numbers, as a match between one engine at one depth and
// itself plays each opening: one record.
func TestDatasetGamesPlayedTwiceAreLabelledOnce(t *testing.T) {
	games := sampleGames(t)[:2]
	twice := []Source{games[0], games[1], {Number: 99, Game: games[0].Game, Result: games[0].Result}}
	set := quickSettings
	set.Depth = 1
	r, err := NewReader(bytes.NewReader(labelled(t, Config{Settings: set, Workers: 1}, twice)))
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		numbers = append(numbers, g.Number)
	}
	if !reflect.DeepEqual(numbers, []int{games[0].Number, games[1].Number}) {
		t.Errorf("records of games %v", numbers)
	}
}

// TestDatasetSampleSet reads the sample set the pipeline made: its games
// are those of its match file, in order, and its positions are as many as
// the pipeline reported, none before the first ply sampled.
func TestDatasetSampleSet(t *testing.T) {
	f, err := os.Open("testdata/sample.hbd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Settings(); !s.sameLabels(DefaultSettings()) {
		t.Errorf("settings %+v, want the defaults %+v", s, DefaultSettings())
	}
	positions := 0
	for i, src := range sampleGames(t) {
		g, err := r.Next()
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if g.Number != src.Number || g.Result != src.Result || !reflect.DeepEqual(g.Moves, src.Game.History()) {
			t.Errorf("game %d: number %d, result %v, %d moves; the match file's %d, %v, %d moves",
				i, g.Number, g.Result, len(g.Moves), src.Number, src.Result, len(src.Game.History()))
		}
		for _, s := range g.Samples {
			if s.Ply < r.Settings().Skip {
				t.Errorf("game %d: a sample at ply %d", i, s.Ply)
			}
		}
		positions += len(g.Samples)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the match file's games: %v", err)
	}
	if positions != 524 {
		t.Errorf("%d positions, where the pipeline labelled 524", positions)
	}
}

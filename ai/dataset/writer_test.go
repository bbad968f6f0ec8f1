package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestResumeAfterCut cuts a file at every byte, as a kill mid-write would,
// resumes it and writes the games it lacks: every time, the file comes out
// byte for byte the one written without a stop, and Resume returns the
// games before the cut, none twice.
func TestDatasetResumeAfterCut(t *testing.T) {
	games := testGames()[:3]
	data, ends := writeGames(t, testSettings, games)
	path := filepath.Join(t.TempDir(), "cut.hbd")
	for n := range len(data) + 1 {
		if err := os.WriteFile(path, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		w, done, err := Resume(path, testSettings)
		if err != nil {
			t.Fatalf("cut at %d: %v", n, err)
		}
		whole := 0
		for _, e := range ends[1:] {
			if e <= n {
				whole++
			}
		}
		if len(done) != whole {
			t.Fatalf("cut at %d: %d games back, want the %d whole before it", n, len(done), whole)
		}
		for i, g := range done {
			if !reflect.DeepEqual(g, games[i]) {
				t.Fatalf("cut at %d: game %d read back differs", n, i)
			}
		}
		// Stopped again at once, the file is the whole records.
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data[:ends[whole]]) {
			t.Fatalf("cut at %d and resumed: %d bytes, want the %d of the whole records", n, len(got), ends[whole])
		}
		if w, done, err = Resume(path, testSettings); err != nil || len(done) != whole {
			t.Fatalf("cut at %d, resumed twice: %d games, %v", n, len(done), err)
		}
		for _, g := range games[len(done):] {
			if err := w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("cut at %d and resumed: %d bytes, unlike the %d written in one go", n, len(got), len(data))
		}
	}
}

// TestResumeRefuses checks that Resume leaves alone a file it must not
// append to: labelled otherwise, damaged before its end, or not a data
// file at all.
func TestDatasetResumeRefuses(t *testing.T) {
	data, ends := writeGames(t, testSettings, testGames()[:3])
	damaged := bytes.Clone(data)
	damaged[ends[1]+3] ^= 0x10 // inside the second record, which a third follows
	other := testSettings
	other.Depth = 5
	noted := testSettings
	noted.Note = "another build"
	dir := t.TempDir()
	for what, c := range map[string]struct {
		data []byte
		s    Settings
	}{
		"another depth":   {data, other},
		"damaged":         {damaged, testSettings},
		"a text file":     {[]byte("Base+MLP;InProgress;White[1]\tDraw\n"), testSettings},
		"a short file":    {[]byte("HBX"), testSettings},
		"a bad setting":   {data, Settings{Depth: 3}},
		"a newer version": {append([]byte("HBNNUE\x02"), data[7:]...), testSettings},
	} {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Resume(path, c.s); err == nil {
			t.Errorf("%s: resumed", what)
		} else {
			t.Logf("%s: %v", what, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, c.data) {
			t.Errorf("%s: the file was changed", what)
		}
	}
	// The note says who wrote the file; it does not change the labels.
	path := filepath.Join(dir, "noted")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w, done, err := Resume(path, noted)
	if err != nil || len(done) != 3 {
		t.Fatalf("another note: %d games, %v", len(done), err)
	}
	w.Close()
}

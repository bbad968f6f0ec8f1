package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestEachRecordFile reads a directory holding a file and a zip file (as
// BoardSpace serves its yearly archives) without unpacking it: every file,
// and every entry of the zip, comes by name.
func TestEachRecordFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("Base;NotStarted;White[1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "2016.zip"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for _, name := range []string{"games/x.sgf", "games/y.pgn"} {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("content of " + name))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var got []string
	err = eachRecordFile([]string{dir}, func(name string, data []byte) error {
		rel, _ := filepath.Rel(dir, name)
		got = append(got, rel+"="+string(data))
		return nil
	})
	want := []string{"2016.zip:games/x.sgf=content of games/x.sgf", "2016.zip:games/y.pgn=content of games/y.pgn", "sub/a.txt=Base;NotStarted;White[1]\n"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if err := eachRecordFile([]string{filepath.Join(dir, "missing")}, func(string, []byte) error { return nil }); err == nil {
		t.Error("a missing path: no error")
	}
}

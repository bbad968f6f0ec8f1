package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMatchResumesAfterSIGKILL: a match of 40 games (depth 3 against 1) is killed
// outright (SIGKILL) once its --out file holds a few games, with a line
// half written for good measure; run again with --resume it plays only the
// games the file lacks, so that the file ends with every game once, and
// its table counts all forty. A run with other settings is refused.
func TestMatchResumesAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "games.tsv")
	args := []string{"match", "--white", "native", "--black", "native", "--white-tc", "depth=3", "--black-tc", "depth=1", "--games", "40",
		"--random-plies", "3", "--seed", "5", "--max-plies", "60", "--out", out}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "three games in the --out file", func() bool {
		data, _ := os.ReadFile(out)
		return bytes.Count(data, []byte("\n")) >= 3
	})
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before, _ := os.ReadFile(out)
	kept := bytes.Count(before, []byte("\n"))
	f, _ := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS") // killed mid-line
	f.Close()

	var stdout, stderr bytes.Buffer
	again := exec.Command(os.Args[0], append(args, "--resume")...)
	again.Env = append(os.Environ(), runMainVar+"=1")
	again.Stdout, again.Stderr = &stdout, &stderr
	if err := again.Run(); err != nil {
		t.Fatalf("--resume: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	after, _ := os.ReadFile(out)
	if !bytes.HasPrefix(after, before) {
		t.Fatalf("--resume changed the games already in the file:\n%s\nthen:\n%s", before, after)
	}
	var played []int
	for _, line := range strings.Split(strings.TrimSuffix(string(after), "\n"), "\n") {
		g, err := parseGameLine(line)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		played = append(played, g.Index)
	}
	slices.Sort(played)
	if len(slices.Compact(slices.Clone(played))) != len(played) {
		t.Fatalf("a game was played twice: %v", played)
	}
	if len(played) != 40 || kept >= 40 {
		t.Fatalf("%d games in the file after --resume (%d before), want 40:\n%s", len(played), kept, stdout.String())
	}
	if !strings.Contains(stdout.String(), "Games: "+strconv.Itoa(len(played))+" of 40") {
		t.Errorf("the table does not count the %d games:\n%s", len(played), stdout.String())
	}

	// Other settings: refused, the file untouched.
	var refused bytes.Buffer
	other := exec.Command(os.Args[0], append(slices.Clone(args[:len(args)-2]), "--white-tc", "depth=2", "--out", out, "--resume")...)
	other.Env = append(os.Environ(), runMainVar+"=1")
	other.Stderr = &refused
	if err := other.Run(); err == nil || !strings.Contains(refused.String(), "was made by another match") {
		t.Errorf("--resume with another time control: %v, %s", err, refused.String())
	}
}

package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hivebridge/hivebridge/internal/fakeengine"
)

// TestMain lets the transcripts run hivebridge as a command in the test
// binary itself, so they exercise the real main with no separate build; the
// binary is also the engine that reports bare moves (see bareReportsVar) and
// the one whose replies cover the piece that moved (see coverRepliesVar).
func TestMain(m *testing.M) {
	fakeengine.RunIfAsked() // the misbehaving backends of the chaos test
	if os.Getenv(runMainVar) != "" {
		main()
		os.Exit(0)
	}
	if os.Getenv(bareReportsVar) != "" {
		os.Exit(runBareReporter())
	}
	if os.Getenv(coverRepliesVar) != "" {
		os.Exit(runCoverer())
	}
	// Under -race a program waits a second before it exits, which would
	// make hivebridge backends that exit on a signal seem to outlive it:
	// real engines exit at once, and so do these.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	testscript.Main(ownData{m}, map[string]func(){"hivebridge": main})
}

// ownData runs the tests with XDG_DATA_HOME set to a directory of the
// run's own, removed after: a test that runs a command keeping its games
// in the default archive (a match without --db, its child processes too)
// must not write them into the archive of the user running the tests,
// nor fail on its schema.
type ownData struct{ m *testing.M }

func (o ownData) Run() int {
	dir, err := os.MkdirTemp("", "hivebridge-test-data-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_DATA_HOME", dir)
	return o.m.Run()
}

// TestScripts runs the transcripts in testdata/script: each starts
// hivebridge, gives it input and compares what it prints.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(env *testscript.Env) error {
		// The archive's default file, in the script's own directory.
		env.Setenv("XDG_DATA_HOME", env.WorkDir+"/data")
		return nil
	}})
}

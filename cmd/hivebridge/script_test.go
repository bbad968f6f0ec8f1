package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hivebridge/hivebridge/internal/fakeengine"
)

// TestMain lets the transcripts run hivebridge as a command in the test
// binary itself, so they exercise the real main with no separate build.
func TestMain(m *testing.M) {
	fakeengine.RunIfAsked() // the misbehaving backends of the chaos test
	if os.Getenv(runMainVar) != "" {
		main()
		os.Exit(0)
	}
	// Under -race a program waits a second before it exits, which would
	// make hivebridge backends that exit on a signal seem to outlive it:
	// real engines exit at once, and so do these.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	testscript.Main(m, map[string]func(){"hivebridge": main})
}

// TestScripts runs the transcripts in testdata/script: each starts
// hivebridge, gives it input and compares what it prints.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}

package translate_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
)

// The fake engines are this test binary itself, started again with
// HIVEBRIDGE_FAKE_ENGINE naming a misbehaviour. Each misbehaves once: it
// leaves a mark in HIVEBRIDGE_FAKE_DIR, and the engine started again after
// it behaves, so tests can check that the session recovers. A mode spelt
// "always-<mode>" misbehaves at every search of every run instead, so that a
// match can check that the engine loses each game it misbehaves in. Every
// fake also writes its process id there, so tests can check no process is
// left.
const (
	fakeModeVar = "HIVEBRIDGE_FAKE_ENGINE"
	fakeDirVar  = "HIVEBRIDGE_FAKE_DIR"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeModeVar); mode != "" {
		os.Exit(fakeEngine(mode, os.Getenv(fakeDirVar)))
	}
	os.Exit(m.Run())
}

// firstMove answers every search with the first legal move.
type firstMove struct{}

func (firstMove) BestMove(_ context.Context, g *core.Game, _ uhp.Limit, _ func(core.Move)) (core.Move, error) {
	var l core.MoveList
	g.GenerateMoves(&l)
	return l.At(0), nil
}

// fakeEngine runs a UHP engine on standard input and output that answers
// bestmove with the first legal move, except in the way mode says.
func fakeEngine(mode, dir string) int {
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("pid-%d", os.Getpid())), nil, 0o644)
	misbehaved := filepath.Join(dir, "misbehaved")
	_, err := os.Stat(misbehaved)
	id := "fake " + mode
	always := strings.HasPrefix(mode, "always-")
	mode = strings.TrimPrefix(mode, "always-")
	misbehave := err != nil || always // only the first run of the program, unless always
	markMisbehaved := func() { os.WriteFile(misbehaved, nil, 0o644) }

	cfg := uhp.Config{ID: id, Expansions: core.AllExpansions, Searcher: firstMove{}}
	if mode == "native" {
		native := translate.NewNative()
		cfg.Searcher, cfg.Options = translate.Searcher(native), native.Options()
	}
	if mode == "nocaps" {
		cfg.Expansions = core.Base
	}
	e := uhp.NewEngine(cfg)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	flood := func() {
		for i := range 20000 {
			fmt.Fprintf(os.Stderr, "debug line %d of a chatty engine\n", i)
		}
	}
	if mode == "flood" {
		flood()
	}
	ctx := context.Background()
	if mode != "noinfo" || !misbehave {
		e.Handle(ctx, "info", out)
		out.Flush()
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := in.Text()
		if mode == "flood" {
			flood()
		}
		if strings.HasPrefix(line, "bestmove") && misbehave {
			misbehave = always
			markMisbehaved()
			switch mode {
			case "crash":
				os.Exit(3)
			case "hang":
				signal.Ignore(syscall.SIGINT)
				select {}
			case "sigint-exits":
				select {} // Go's default for SIGINT is to exit
			case "sigint-answers":
				interrupted := make(chan os.Signal, 1)
				signal.Notify(interrupted, syscall.SIGINT)
				<-interrupted
			case "garbage":
				fmt.Fprintln(out, "banana split")
				fmt.Fprintln(out, "ok")
				out.Flush()
				continue
			case "illegal":
				fmt.Fprintln(out, "pass")
				fmt.Fprintln(out, "ok")
				out.Flush()
				continue
			case "slow":
				time.Sleep(300 * time.Millisecond)
			}
		}
		if quit := e.Handle(ctx, line, out); quit {
			return 0
		}
		out.Flush()
	}
	return 0
}

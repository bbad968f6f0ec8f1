package fakeengine

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The fake Hub engines are the test binary too, started again with
// HubModeVar naming a misbehaviour, in the manner of the UHP fakes: each
// misbehaves in its first run only, leaves its process id in DirVar's
// folder, and also every line it reads, in lines-<pid>, so that tests can
// check what the backend sent it.

// HubModeVar names the misbehaviour of the fake Hub engine started.
const HubModeVar = "HIVEBRIDGE_FAKE_HUB_ENGINE"

// HubSpec makes the running test binary a fake Hub engine in the given
// mode for the rest of the test, and returns its backend spec. When the
// test ends, no fake it started may still run.
func HubSpec(t *testing.T, mode string) string {
	t.Helper()
	return specOf(t, "hub", HubModeVar, mode)
}

// SetenvHub sets the environment that makes the test binary, started
// again, a fake Hub engine in the given mode, with a fresh folder for its
// marks and records, which it returns; when the test ends, no fake started
// there may still run.
func SetenvHub(t *testing.T, mode string) string {
	t.Helper()
	return setenvMode(t, HubModeVar, mode)
}

// HubParams are the parameters the fake declares: one of every type.
func HubParams() []hub.Param {
	return []hub.Param{
		hub.VariantParam(core.Base),
		hub.IntParam(hub.ParamThreads, 1, 1, 8),
		hub.IntParam(hub.ParamHash, 16, 1, 1024),
		hub.BoolParam("book", true),
		hub.RealParam("contempt", 0, -1, 1),
		hub.StringParam("book-file", "book.txt"),
	}
}

// misbehavesAtGo reports whether a fake of mode misbehaves when asked to
// think.
func misbehavesAtGo(mode string) bool {
	switch mode {
	case "crash", "hang", "deaf", "garbage", "illegal", "baddone", "complain", "slow", "stopped":
		return true
	}
	return false
}

// runHub runs a Hub engine on standard input and output that
// answers go with the first legal move, except in the way mode says:
//
//	crash      exits at go
//	hang       ignores stop and SIGINT at go
//	deaf       ignores stop at go, and dies of SIGINT
//	garbage    prints a line of nonsense and a done that is no move
//	illegal    answers pass
//	baddone    answers done without a move
//	complain   says it cannot load the position, and answers for another
//	slow       answers 300ms late
//	stopped    answers only when stopped
//	noready    does not answer init
//	nowait     does not answer hub
//	refuse     refuses every set-param (every run)
//	flood      floods its standard error (every run)
//	chaos      misbehaves at random (see chaosHang), every run
//
// As with the UHP fakes, "always-<mode>" misbehaves at every chance of
// every run. Every search with level infinite ends only at stop, as it should.
func runHub(mode, dir string) int {
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("pid-%d", os.Getpid())), nil, 0o644)
	record, _ := os.Create(filepath.Join(dir, fmt.Sprintf("lines-%d", os.Getpid())))
	defer record.Close()
	marker := filepath.Join(dir, "misbehaved")
	_, err := os.Stat(marker)
	always := strings.HasPrefix(mode, "always-")
	mode = strings.TrimPrefix(mode, "always-")
	misbehave := err != nil || always
	misbehaved := func() bool {
		if !misbehave {
			return false
		}
		misbehave = always
		os.WriteFile(marker, nil, 0o644)
		return true
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(ms ...hub.Message) {
		for _, m := range ms {
			fmt.Fprintln(out, m.Line())
		}
		out.Flush()
	}
	params := HubParams()
	rng := chaosRNG()
	variant, game, level := core.Base, core.NewGame(core.Base), hub.Level{Infinite: true}
	in := bufio.NewScanner(os.Stdin)
	// waitStop reads lines until stop, answering ping; false if the input
	// ends first.
	waitStop := func() bool {
		for in.Scan() {
			fmt.Fprintln(record, in.Text())
			switch m, _ := hub.ReadCommand(in.Text()); m.(type) {
			case hub.Stop:
				return true
			case hub.Ping:
				say(hub.Pong{})
			}
		}
		return false
	}
	for in.Scan() {
		line := in.Text()
		fmt.Fprintln(record, line)
		if mode == "flood" {
			for i := range 2000 {
				fmt.Fprintf(os.Stderr, "debug line %d of a chatty engine\n", i)
			}
		}
		m, err := hub.ReadCommand(line)
		if err != nil {
			say(hub.ErrorOf(err))
			continue
		}
		switch m := m.(type) {
		case hub.Hub:
			if mode == "nowait" && misbehaved() {
				continue
			}
			say(hub.ID{Name: "fake", Version: mode})
			for _, p := range params {
				say(p)
			}
			say(hub.Wait{})
		case hub.SetParam:
			if mode == "refuse" {
				say(hub.Error{Message: "I will not set " + m.Name})
				continue
			}
			for i := range params {
				if params[i].Name == m.Name {
					params[i].Value = m.Value
				}
			}
			if t, err := uhp.ParseGameType(m.Value); err == nil && m.Name == hub.ParamVariant {
				variant = t
			}
		case hub.Init:
			if mode == "noready" && misbehaved() {
				continue
			}
			fmt.Fprintln(out, "loading nothing at all...")
			say(hub.Ready{})
		case hub.Pos:
			g, err := m.Load(variant)
			if err != nil {
				say(hub.ErrorOf(err))
				continue
			}
			game, level = g, hub.Level{Infinite: true}
		case hub.Level:
			level = m
		case hub.Go:
			var l core.MoveList
			game.GenerateMoves(&l)
			best := hub.NewDone(game, l.At(0), core.NoMove)
			if mode == "chaos" {
				best = hub.NewDone(game, l.At(rng.IntN(l.Len())), core.NoMove)
				switch chance := rng.Float64(); {
				case chance < chaosHang:
					chaosMark(dir, "hang")
					signal.Ignore(syscall.SIGINT)
					select {}
				case chance < chaosHang+chaosGarbage:
					chaosMark(dir, "garbage")
					fmt.Fprintln(out, "\x00\xffbanana split\x1b[2J")
					say(hub.Done{Move: "banana"})
					continue
				}
			}
			// A report with every field, as Scan prints it: a forced
			// win in 7 plies, and a line of two moves.
			c := game.Clone()
			c.Play(l.At(0))
			var replies core.MoveList
			c.GenerateMoves(&replies)
			say(hub.Info{Has: hub.InfoDepth | hub.InfoScore | hub.InfoNodes | hub.InfoTime | hub.InfoNPS | hub.InfoPV,
				Depth: 3, Score: hub.WinIn(7), Nodes: 12345, Time: 250 * time.Millisecond, NPS: 0.049,
				PV: []string{best.Move, hub.WriteMove(replies.At(0), c)}})
			stopped := false
			if misbehavesAtGo(mode) && misbehaved() {
				switch mode {
				case "crash":
					os.Exit(3)
				case "hang":
					signal.Ignore(syscall.SIGINT)
					select {}
				case "deaf":
					select {} // Go's default for SIGINT is to exit
				case "garbage":
					fmt.Fprintln(out, `banana split "`)
					say(hub.Done{Move: "banana"})
					continue
				case "illegal":
					say(hub.Done{Move: "pass"})
					continue
				case "baddone":
					fmt.Fprintln(out, "done")
					out.Flush()
					continue
				case "complain":
					say(hub.Error{Message: "I cannot load that position"}, hub.Done{Move: "wS1"})
					continue
				case "slow":
					time.Sleep(300 * time.Millisecond)
				case "stopped":
					if !waitStop() {
						return 0
					}
					stopped = true
				}
			}
			if level.Infinite && !stopped && !waitStop() {
				return 0
			}
			say(best)
		case hub.Ping:
			say(hub.Pong{})
		case hub.Quit:
			return 0
		}
	}
	return 0
}

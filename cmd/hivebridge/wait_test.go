package main

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// The tests wait for what they need to have happened, rather than sleep
// and hope it has: an answer read, a metric, a log line, or, since the
// daemons of these tests run in the test process, a goroutine of theirs
// seen at work (a search under way, a search queued for an engine, a
// viewer waiting for a partner).

// waitFor polls cond until it holds, and fails the test once timeout has
// passed without it.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	waitForState(t, timeout, what, func() (bool, string) { return cond(), "" })
}

// waitForState is waitFor with a cond that also describes what it saw,
// for the failure message.
func waitForState(t testing.TB, timeout time.Duration, what string, cond func() (ok bool, state string)) {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			if state != "" {
				state = "; last seen: " + state
			}
			t.Fatalf("waited %v for %s%s", timeout, what, state)
		}
	}
}

// goroutineMatch tells whether one goroutine's trace, as runtime.Stack
// writes it, is one a test waits for.
type goroutineMatch func(trace string) bool

// running matches a goroutine with fn on its stack: fn is a function's
// name after its module path, as traces write it ("translate.(*Native).BestMove").
func running(fn string) goroutineMatch {
	return func(trace string) bool { return strings.Contains(trace, "/"+fn+"(") }
}

// parkedIn matches a goroutine blocked in fn itself (on a channel, a
// select): the first function of its stack outside the runtime is fn.
func parkedIn(fn string) goroutineMatch {
	return func(trace string) bool {
		lines := strings.Split(trace, "\n")
		if !strings.Contains(lines[0], "[chan receive") && !strings.Contains(lines[0], "[chan send") && !strings.Contains(lines[0], "[select") {
			return false
		}
		for _, l := range lines[1:] {
			if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "runtime.") {
				continue
			}
			return strings.Contains(l, "/"+fn+"(")
		}
		return false
	}
}

// goroutines counts the goroutines of the test process that match.
func goroutines(match goroutineMatch) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, trace := range strings.Split(string(buf), "\n\n") {
		if match(trace) {
			count++
		}
	}
	return count
}

// waitGoroutines waits until at least n goroutines of the test process
// match, and fails the test after 10s.
func waitGoroutines(t testing.TB, what string, n int, match goroutineMatch) {
	t.Helper()
	waitFor(t, 10*time.Second, what, func() bool { return goroutines(match) >= n })
}

// waitSeeking waits until a viewer who asked for a remote game waits for
// a partner: queued on its daemon, or its request filed in PostgreSQL for
// the daemons of an archive. The viewer who comes next is paired with it.
func waitSeeking(t testing.TB) {
	t.Helper()
	local, across := parkedIn("translate/pairing.(*Local).Match"), parkedIn("pgpair.(*Pairing).await")
	waitGoroutines(t, "a viewer to wait for a partner", 1, func(trace string) bool { return local(trace) || across(trace) })
}

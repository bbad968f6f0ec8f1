package main

import (
	"testing"
	"time"
)

// TestLoadStatsWindows checks that the latencies of a window are those of
// the commands sent in it, and their percentiles the nearest ranks; and
// that those of a command are its own.
func TestLoadStatsWindows(t *testing.T) {
	s := &loadStats{start: time.Unix(0, 0)}
	for i := range 200 {
		// The first 100 commands, sent in the first second, took 1..100 ms;
		// the next 100, in the second, 1..100 µs.
		at := time.Duration(i) * 10 * time.Millisecond
		took := time.Duration(i%100+1) * time.Millisecond
		if i >= 100 {
			took /= 1000
		}
		command := "bestmove depth 1"
		if i%2 == 1 {
			command = "play wS1"
		}
		s.record(command, s.start.Add(at), took)
	}
	if got := len(s.latencies(0, 2*time.Second, "")); got != 200 {
		t.Fatalf("%d latencies in all, want 200", got)
	}
	// The plays, sent second, fourth and so on: 2, 4, .. 100 ms, then as
	// many µs.
	if got, want := percentiles(s.latencies(0, time.Second, "play")), "p50=52ms p90=92ms p99=100ms max=100ms"; got != want {
		t.Errorf("the plays of the first second: %s, want %s", got, want)
	}
	if got := len(s.latencies(0, 2*time.Second, "newgame")); got != 0 {
		t.Errorf("%d newgame latencies, want none", got)
	}
	for _, c := range []struct {
		from, to time.Duration
		want     string
	}{
		{0, time.Second, "p50=51ms p90=91ms p99=100ms max=100ms"},
		{time.Second, 2 * time.Second, "p50=51µs p90=91µs p99=100µs max=100µs"},
		{2 * time.Second, 3 * time.Second, "p50=0s p90=0s p99=0s max=0s"},
	} {
		if got := percentiles(s.latencies(c.from, c.to, "")); got != c.want {
			t.Errorf("window %s-%s: %s, want %s", c.from, c.to, got, c.want)
		}
	}
}

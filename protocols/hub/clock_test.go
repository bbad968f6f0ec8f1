package hub_test

import (
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

func TestAllocate(t *testing.T) {
	const s = time.Second
	for _, tc := range []struct {
		remaining time.Duration
		moves     int
		inc       time.Duration
		want      time.Duration
	}{
		{60 * s, 0, 0, 2 * s},                           // sudden death: a thirtieth
		{60 * s, 0, s, 3 * s},                           // Fischer: plus the increment
		{3 * s, 0, 2 * s, 1500 * time.Millisecond},      // never more than half the clock
		{60 * s, 10, 0, 6 * s},                          // x/y: an equal share of the moves to go
		{60 * s, 2, 0, 30 * s},                          // two to go: half
		{60 * s, 1, 0, 54 * s},                          // the last move of the period: all but a tenth
		{60 * s, 1, 10 * s, 54 * s},                     // ... even with an increment
		{60 * s, 10, s, 7 * s},                          // both, which the spec allows
		{0, 0, 0, time.Millisecond},                     // a fallen flag still gets a move
		{-s, 3, -s, time.Millisecond},                   // nonsense is no limit at all
		{10 * time.Millisecond, 0, 0, time.Millisecond}, // tiny clocks: the floor
		{90 * time.Minute, 0, 0, 3 * time.Minute},       // long ones: no ceiling but the clock
		{300 * s, 40, 0, 7500 * time.Millisecond},       // 40 moves in 5 minutes
		{291587 * time.Millisecond, 9, 0, 32398555555},  // the spec's example, level moves=9 time=291.587
	} {
		if got := hub.Allocate(tc.remaining, tc.moves, tc.inc); got != tc.want {
			t.Errorf("Allocate(%v, %d, %v) = %v, want %v", tc.remaining, tc.moves, tc.inc, got, tc.want)
		}
	}
}

// Every level form becomes the limit of one search.
func TestLevelLimit(t *testing.T) {
	for _, tc := range []struct {
		line string
		want engine.Limit
	}{
		{"level depth=7", engine.Limit{Depth: 7}},
		{"level move-time=1.5", engine.Limit{Time: 1500 * time.Millisecond}},
		{"level time=30", engine.Limit{Time: time.Second}},
		{"level moves=5 time=30", engine.Limit{Time: 6 * time.Second}},
		{"level time=30 inc=0.5", engine.Limit{Time: 1500 * time.Millisecond}},
		{"level time=0", engine.Limit{Time: time.Millisecond}},
		{"level nodes=2000000", engine.Limit{Time: 2001 * time.Millisecond}},
		{"level nodes=1", engine.Limit{Time: time.Millisecond + time.Microsecond}},
		{"level infinite", engine.Limit{}},
		{"level depth=9 move-time=4 time=30", engine.Limit{Depth: 9, Time: time.Second}},
		{"level move-time=0.5 time=30", engine.Limit{Time: 500 * time.Millisecond}},
		{"level nodes=100000 move-time=3", engine.Limit{Time: 101 * time.Millisecond}},
	} {
		v, err := hub.ParseLevel(mustParse(t, tc.line))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Limit(); got != tc.want {
			t.Errorf("%s: Limit() = %+v, want %+v", tc.line, got, tc.want)
		}
	}
	// The most nodes there can be is a long time, not an overflow.
	v, _ := hub.ParseLevel(mustParse(t, "level nodes=18446744073709551615"))
	if got := v.Limit(); got.Time < 1000*time.Hour {
		t.Errorf("level nodes=2^64-1: Limit() = %+v", got)
	}
}

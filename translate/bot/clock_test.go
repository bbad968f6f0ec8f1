package bot

import (
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// Each move's share of the clock: a real-time clock is shared over the
// moves to come with most of the increment, never more than a third of
// what is left nor more than move_time; days are capped by move_time;
// an untimed game gets move_time; a clock nearly out gets the quick move
// alone, and every deadline comes before the flag.
func TestPlanMove(t *testing.T) {
	now := time.Unix(1e9, 0)
	const margin, fallback = time.Second, 200 * time.Millisecond
	rt := func(base, inc time.Duration) hivegame.TimeControl {
		return hivegame.TimeControl{Kind: hivegame.RealTime, Base: base, Increment: inc}
	}
	for _, c := range []struct {
		name      string
		tc        hivegame.TimeControl
		left      time.Duration
		moveTime  time.Duration
		given     time.Duration
		engine    bool
		flagAfter time.Duration // 0: no flag
	}{
		{"rapid start", rt(10*time.Minute, 5*time.Second), 10 * time.Minute, time.Minute, 599*time.Second/25 + 3750*time.Millisecond, true, 10 * time.Minute},
		{"capped by move_time", rt(10*time.Minute, 5*time.Second), 10 * time.Minute, 5 * time.Second, 5 * time.Second, true, 10 * time.Minute},
		{"a third at most", rt(time.Minute, 30*time.Second), 4 * time.Second, time.Minute, time.Second, true, 4 * time.Second},
		{"nearly out", rt(time.Minute, 0), 2 * time.Second, time.Minute, 40 * time.Millisecond, false, 2 * time.Second},
		{"flag fallen", rt(time.Minute, 0), 0, time.Minute, minThink, false, 1},
		{"correspondence", hivegame.TimeControl{Kind: hivegame.Correspondence, Increment: 72 * time.Hour, PerMove: true}, 70 * time.Hour, 10 * time.Second, 10 * time.Second, true, 70 * time.Hour},
		{"untimed", hivegame.TimeControl{}, 0, 3 * time.Second, 3 * time.Second, true, 0},
	} {
		p := planMove(c.tc, c.left, now, c.moveTime, 0, margin, fallback)
		if p.given != c.given {
			t.Errorf("%s: given %s, want %s", c.name, p.given, c.given)
		}
		if engine := p.limit.Time > 0; engine != c.engine {
			t.Errorf("%s: the backend asked: %v, want %v", c.name, engine, c.engine)
		}
		if c.engine && (p.engineBy.Sub(now) != p.given-fallback || p.limit.Time >= p.engineBy.Sub(now)) {
			t.Errorf("%s: the backend is told %s with a deadline %s after the turn; want a deadline FallbackTime before the given %s, and less told", c.name, p.limit.Time, p.engineBy.Sub(now), p.given)
		}
		if p.fallbackBy.Sub(now) != p.given {
			t.Errorf("%s: quick move by %s, want by %s", c.name, p.fallbackBy.Sub(now), p.given)
		}
		switch {
		case c.flagAfter == 0 && !p.flag.IsZero():
			t.Errorf("%s: a flag at %s of a game with no clock", c.name, p.flag)
		case c.flagAfter == 1:
			if !p.flag.Equal(now) {
				t.Errorf("%s: flag %s after the turn, want at once", c.name, p.flag.Sub(now))
			}
		case c.flagAfter > 1 && (p.flag.Sub(now) != c.flagAfter || !p.fallbackBy.Before(p.flag)):
			t.Errorf("%s: flag %s after the turn, quick move by %s; want the flag at %s, after the quick move", c.name, p.flag.Sub(now), p.fallbackBy.Sub(now), c.flagAfter)
		}
	}
}

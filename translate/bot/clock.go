package bot

import (
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// movesToGo is how many more moves a clock without an increment is shared
// over: each move gets this share of what is left, so the shares shrink
// as the clock does and never run it out.
const movesToGo = 25

// minThink is the least time any search is given: a clock nearly out
// still gets a move rather than none.
const minThink = 5 * time.Millisecond

// plan is how one move spends the clock. Every deadline is on the bot's own
// clock, from the moment it saw its turn.
type plan struct {
	// seen is when the bot saw its turn, from which the rest are counted.
	seen time.Time
	// given is the move's budget: its share of the clock (or move_time),
	// for the backend's thinking and the native quick move together.
	given time.Duration
	// limit is what the backend is told; zero Time skips the backend
	// (there is no time for it) and goes straight to the quick move.
	limit engine.Limit
	// engineBy is the backend's deadline, fallbackBy the quick move's.
	engineBy, fallbackBy time.Time
	// flag is when the clock runs out: no move reaches the site after
	// it. Zero for an untimed game.
	flag time.Time
}

// planMove shares out the clock for one move seen at now, with left on the
// clock by the site's reckoning (hivegame.Game.TimeLeft) under time
// control tc. A real-time clock gets its share (movesToGo, plus three
// quarters of the increment), never more than a third of what is left
// after the margin; correspondence and untimed games get moveTime, and
// correspondence no more than half of what is left. From the share
// fallback is kept for the quick move, which the backend's deadline is
// before; a share too small to keep it goes to the quick move whole.
func planMove(tc hivegame.TimeControl, left time.Duration, now time.Time, moveTime time.Duration, depth int, margin, fallback time.Duration) plan {
	p := plan{seen: now}
	if tc.Kind != hivegame.Untimed {
		p.flag = now.Add(left)
	}
	switch tc.Kind {
	case hivegame.RealTime:
		usable := left - margin
		share := usable/movesToGo + tc.Increment*3/4
		p.given = min(share, usable/3, moveTime)
	case hivegame.Correspondence:
		p.given = min(moveTime, (left-margin)/2)
	default:
		p.given = moveTime
	}
	p.given = max(p.given, minThink)
	think := p.given - fallback
	if think < fallback {
		// Too little for both: the quick move alone, with all of it.
		p.engineBy = now
		p.fallbackBy = now.Add(p.given)
		return p
	}
	// The backend is told a tenth less than its deadline: engines
	// overshoot what they are told a little, and answering takes time.
	p.limit = engine.Limit{Depth: depth, Time: think - think/10}
	p.engineBy = now.Add(think)
	p.fallbackBy = now.Add(p.given)
	return p
}

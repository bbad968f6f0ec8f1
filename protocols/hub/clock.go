package hub

import (
	"math"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
)

// This file turns Hub's level forms into the time a searcher may take over
// one move. It lives here, with Level, rather than in the searcher or the
// match referee, because both the Hub engine session and the referee's
// clocks need the same rule, and a package that imports only core and uhp is
// one both can use: the referee's sudden-death clock is Allocate(remaining,
// 0, inc).

// SuddenDeathMoves is the number of moves a clock without moves= is spread
// over: each move is allotted remaining/SuddenDeathMoves plus the
// increment, the usual rule of thumb of engine testers (a Hive game between
// engines lasts 30 to 60 turns, and the allotment shrinks as the clock
// does, so a long game never runs out).
const SuddenDeathMoves = 30

// NodesPerSecond is the speed at which a nodes= limit becomes a time. No
// searcher behind a session counts nodes for it (a UHP engine cannot be
// asked to), so "level nodes=N" searches for as long as the native searcher
// takes for about N nodes on one thread (1.3 million a second in the
// midgame), rounded down to keep a node-limited search short.
const NodesPerSecond = 1_000_000

// Allocate returns the time to think over one move with remaining on the
// clock, movesToGo moves to play in it (0 for sudden death, the rest of the
// game) and inc added to the clock before every move:
//
//   - sudden death: remaining/SuddenDeathMoves + inc;
//   - x/y moves: remaining/movesToGo (+ inc, if the control has both).
//
// The result never exceeds half the remaining time, so an engine that keeps
// to it cannot lose on time even if it misjudges the game's length; on the
// last move of an x/y period, when nothing needs to be kept for later, it
// may use all but a tenth, the margin for the answer to reach the GUI. It
// is at least a millisecond, so that a fallen flag (time=0) still gets a
// move rather than a search with no limit.
func Allocate(remaining time.Duration, movesToGo int, inc time.Duration) time.Duration {
	remaining, inc = max(remaining, 0), max(inc, 0)
	n := movesToGo
	if n <= 0 {
		n = SuddenDeathMoves
	}
	share := remaining/time.Duration(n) + inc
	ceiling := remaining / 2
	if movesToGo == 1 {
		ceiling = remaining - remaining/10
	}
	return max(min(share, ceiling), time.Millisecond)
}

// Limit returns the level as the limit of one search, which is the time
// allocation of a searcher:
//
//   - depth= is the depth limit, as is;
//   - move-time= is the time, as is;
//   - a clock (time=, moves=, inc=) is Allocate's share;
//   - nodes= is a time, at NodesPerSecond;
//   - infinite is no limit at all (the zero Limit), a search that runs
//     until stop.
//
// When several are given (the spec lets limits combine, as UCI's do), the
// search ends at the first: the depth stays and the shortest time wins.
func (v Level) Limit() engine.Limit {
	l := engine.Limit{Depth: v.Depth}
	shortest := func(d time.Duration) {
		if l.Time == 0 || d < l.Time {
			l.Time = d
		}
	}
	if v.MoveTime > 0 {
		shortest(v.MoveTime)
	}
	if v.Clock {
		shortest(Allocate(v.Time, v.Moves, v.Inc))
	}
	if v.Nodes > 0 {
		secs := float64(v.Nodes) / NodesPerSecond
		shortest(time.Duration(min(secs*1e9, math.MaxInt64/2)) + time.Millisecond)
	}
	return l
}

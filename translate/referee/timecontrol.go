package referee

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hub"
)

// TimeControl is how long an engine may think over each move. Exactly one of
// its three forms is set: a fixed depth, a fixed time per move, or a clock
// per side with an increment (Fischer), from which each move gets an
// allocation and whose exhaustion loses the game on time.
type TimeControl struct {
	Depth    int           // depth=N: search N plies, however long it takes
	MoveTime time.Duration // movetime=S: S seconds per move
	Clock    time.Duration // time=S+inc: S seconds for the whole game...
	Inc      time.Duration // ...plus inc seconds added after each move
}

// ParseTimeControl reads "depth=N", "movetime=S" or "time=S+inc", with S and
// inc in seconds, possibly fractional ("time=60+0.5"; "time=60" has no
// increment).
func ParseTimeControl(s string) (TimeControl, error) {
	key, value, found := strings.Cut(strings.TrimSpace(s), "=")
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s; want depth=N, movetime=S or time=S+inc (seconds)", s, why)
	}
	if !found {
		return bad("no =")
	}
	switch strings.ToLower(key) {
	case "depth":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return bad("the depth must be a whole number of plies, at least 1")
		}
		return TimeControl{Depth: n}, nil
	case "movetime":
		d, err := parseSeconds(value)
		if err != nil || d <= 0 {
			return bad("the time per move must be a positive number of seconds")
		}
		return TimeControl{MoveTime: d}, nil
	case "time":
		base, inc, _ := strings.Cut(value, "+")
		b, err := parseSeconds(base)
		if err != nil || b <= 0 {
			return bad("the clock must be a positive number of seconds")
		}
		var i time.Duration
		if inc != "" {
			if i, err = parseSeconds(inc); err != nil || i < 0 {
				return bad("the increment must be a number of seconds, 0 or more")
			}
		}
		return TimeControl{Clock: b, Inc: i}, nil
	}
	return bad("unknown kind " + strconv.Quote(key))
}

func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != f || f > 1e6 {
		return 0, errors.New("not a number of seconds")
	}
	return time.Duration(f * float64(time.Second)).Round(time.Millisecond), nil
}

// String writes the time control as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	switch {
	case tc.Depth > 0:
		return "depth=" + strconv.Itoa(tc.Depth)
	case tc.MoveTime > 0:
		return "movetime=" + secs(tc.MoveTime)
	case tc.Clock > 0:
		if tc.Inc > 0 {
			return "time=" + secs(tc.Clock) + "+" + secs(tc.Inc)
		}
		return "time=" + secs(tc.Clock)
	}
	return "none"
}

// valid reports whether exactly one form is set.
func (tc TimeControl) valid() bool {
	n := 0
	for _, set := range []bool{tc.Depth > 0, tc.MoveTime > 0, tc.Clock > 0} {
		if set {
			n++
		}
	}
	return n == 1 && tc.Inc >= 0 && (tc.Inc == 0 || tc.Clock > 0)
}

// uhpProblem says why a UHP engine cannot be given tc fairly, or "" when
// it can. UHP tells an engine its time in whole seconds, at least one
// (translate.WholeSeconds): a fraction of a second per move would be told
// as more or less than the other engine gets, and a clock whose first
// share is under a second would have the engine told a second it does not
// have, move after move. A clock's later shares are told rounded down,
// and as one second once they fall under it (near the end of a clock
// without an increment); the clock is always charged the time the engine
// really took.
func (tc TimeControl) uhpProblem() string {
	switch {
	case tc.MoveTime > 0 && tc.MoveTime%time.Second != 0:
		return fmt.Sprintf("UHP tells an engine whole seconds only; use movetime=%d", max(int64(tc.MoveTime.Round(time.Second)/time.Second), 1))
	case tc.Clock > 0 && tc.allocation(tc.Clock) < time.Second:
		return fmt.Sprintf("its first move's share of the clock is %s, and UHP tells an engine whole seconds, at least one; use a clock of 30 s or more, or an increment of 1 s or more", tc.allocation(tc.Clock).Round(time.Millisecond))
	}
	return ""
}

// allocation is the time a move may take with remaining on the clock: the
// same share as a Hub GUI's sudden-death level gets (hub.Allocate), so that
// a match and a Hub session time an engine alike.
func (tc TimeControl) allocation(remaining time.Duration) time.Duration {
	return hub.Allocate(remaining, 0, tc.Inc)
}

// lag follows how much later than its time an engine's answers come: the
// time the search was given is the engine's, but its answer still has to
// be written, read and scheduled, which on a loaded machine (many games
// at once on few cores) takes tens of milliseconds that the clock is
// charged. Left alone, that lag eats a short clock's increment move after
// move until the engine loses on time at no fault of its search (2,000
// games at concurrency 8 on this 2-core machine, 1 s + 0.01 s: 118 lost on
// time, each with 10 to 40 ms on its clock); so the referee keeps twice the
// largest lag of the engine's last moves in reserve, as an engine's "move
// overhead" setting does.
type lag struct {
	recent [8]time.Duration
	next   int
}

func (l *lag) add(d time.Duration) {
	l.recent[l.next%len(l.recent)] = max(d, 0)
	l.next++
}

// reserve is what to keep back from the clock for the answer's way back.
func (l *lag) reserve() time.Duration {
	var most time.Duration
	for _, d := range l.recent {
		most = max(most, d)
	}
	return 2 * most
}

package archive

import (
	"runtime"
	"syscall"
)

// writerNice is the nice value of the thread that runs the writer: the
// CPU its batches take is shared with the sessions, whose answers are
// worth more than a batch committed a few milliseconds sooner. At 19 the
// writer was starved now and then (quick games, SQLite: in one round of
// three, 420 commands waited 54 ms on average for writes held behind the
// sessions); at 10 it still yields.
const writerNice = 10

// lowerPriority runs the calling goroutine on an OS thread of its own,
// for the rest of its life, at the writer's nice value (writerNice), and
// reports whether it could. SQLite's work is the calling goroutine's own
// (a Go translation of the C library), so that its batches, each a burst
// of milliseconds of CPU, yield the processors to the sessions' commands
// whenever both want them. The goroutine must not unlock the thread: when
// it ends, the runtime ends the thread with it, rather than hand its nice
// value to other goroutines.
func lowerPriority() bool {
	runtime.LockOSThread()
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), writerNice) == nil
}

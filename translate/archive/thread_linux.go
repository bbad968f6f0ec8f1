package archive

import "syscall"

// writerNice is the nice value of the thread that runs the writer's work
// that nobody waits for (runLowered): the CPU its batches take is shared
// with the sessions, whose answers are worth more than a batch committed a
// few milliseconds sooner. At 19 the writer was starved now and then
// (quick games, SQLite: in one round of three, 420 commands waited 54 ms
// on average for writes held behind the sessions); at 10 it still yields.
const writerNice = 10

// lowerThisThread sets the calling thread's nice value to writerNice, and
// reports whether it could; the caller is locked to its thread.
func lowerThisThread() bool {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), writerNice) == nil
}

// onMainThread reports whether the calling thread is the process's first,
// which the runtime parks rather than ends when a goroutine locked to it
// ends: a priority set on it would outlive the goroutine.
func onMainThread() bool { return syscall.Gettid() == syscall.Getpid() }

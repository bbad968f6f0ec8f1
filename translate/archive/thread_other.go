//go:build !linux

package archive

// lowerThisThread and onMainThread are those of thread_linux.go, where a
// thread's own nice value can be set; elsewhere the writer's work runs at
// the sessions' priority.
func lowerThisThread() bool { return false }

func onMainThread() bool { return false }

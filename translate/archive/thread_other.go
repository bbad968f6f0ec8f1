//go:build !linux

package archive

// lowerPriority is lowerPriority of thread_linux.go, where a thread's
// own nice value can be set; elsewhere it does nothing.
func lowerPriority() bool { return false }

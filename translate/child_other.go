//go:build !linux

package translate

import "syscall"

// childAttributes puts an engine in a process group of its own, so that
// a signal reaches whatever it starts in turn. Outside Linux nothing kills
// it when hivebridge dies without stopping it.
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

package translate

import "syscall"

// childAttributes puts an engine in a process group of its own and, on
// Linux, has the kernel kill it when hivebridge dies, even by SIGKILL,
// which leaves no chance to stop it: an engine left running would hold a
// core and its memory for good. (Linux sends the signal when the thread
// that started the child ends; Go's threads end only with a goroutine
// that locked one and returned without unlocking it, which hivebridge
// never does.)
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// Package accepttest holds a listener whose Accept fails as the system's
// may, for the tests of the accept loops that internal/accept serves (the
// daemon's listeners and the Choose-Turn AI-module server). It is imported
// by tests only.
package accepttest

import (
	"net"
	"os"
	"syscall"
)

// FailingListener fails Accept with each of Errs in turn, counting the
// calls in Calls; Close does nothing.
type FailingListener struct {
	net.Listener
	Errs  []error
	Calls int
}

// Accept returns the next of Errs.
func (l *FailingListener) Accept() (net.Conn, error) {
	l.Calls++
	err := l.Errs[0]
	l.Errs = l.Errs[1:]
	return nil, err
}

// Close does nothing: there is nothing to close.
func (l *FailingListener) Close() error { return nil }

// Err is the error a TCP listener's Accept gives when the system call
// fails with errno.
func Err(errno syscall.Errno) error {
	return &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", errno)}
}

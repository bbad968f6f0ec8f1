// Package accept tells which failures of a listener's Accept a server
// should wait out rather than end on. The daemon's listeners and the
// Choose-Turn AI-module server (protocols/hivejson) both ask it, so that
// they agree on what passes.
package accept

import (
	"errors"
	"net"
	"syscall"
)

// Temporary reports whether an error of Accept may pass: the process or
// the system out of file descriptors or socket memory, or a connection
// that went away while waiting to be accepted.
func Temporary(err error) bool {
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED, syscall.ECONNRESET, syscall.EINTR, syscall.EAGAIN} {
		if errors.Is(err, errno) {
			return true
		}
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

package daemon

import (
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/internal/accept/accepttest"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
)

// TestAttackTemporaryAcceptError: accept waits out a temporary failure
// (out of file descriptors) and returns a lasting one, which serve turns
// into its error.
func TestAttackTemporaryAcceptError(t *testing.T) {
	s := &Server{metrics: newMetrics(), log: zerolog.Nop()}
	l := &accepttest.FailingListener{Errs: []error{
		accepttest.Err(syscall.EMFILE),
		accepttest.Err(syscall.ENFILE),
		accepttest.Err(syscall.EINVAL),
	}}
	err := s.accept(l, func(net.Conn) { t.Error("served a connection never accepted") })
	if !errors.Is(err, syscall.EINVAL) || l.Calls != 3 {
		t.Errorf("accept returned %v after %d calls; want EINVAL after 3", err, l.Calls)
	}
	if got := testutil.ToFloat64(s.metrics.acceptErrors); got != 2 {
		t.Errorf("accept errors counted %v, want 2", got)
	}
}

// TestAttackRecoveredPanic: a panic in a session's code is logged with its
// stack, counted, and ends that session only.
func TestAttackRecoveredPanic(t *testing.T) {
	logs := &syncbuf.Buffer{}
	s := &Server{metrics: newMetrics(), log: zerolog.New(logs)}
	func() {
		defer s.recoverSession("uhp-tcp", s.log)
		panic("a bug that a bad byte found")
	}()
	if got := testutil.ToFloat64(s.metrics.panics.WithLabelValues("uhp-tcp")); got != 1 {
		t.Errorf("panics counted %v, want 1", got)
	}
	if !strings.Contains(logs.String(), "session ended by a panic") || !strings.Contains(logs.String(), "TestAttackRecoveredPanic") {
		t.Errorf("the panic was not logged with its stack: %s", logs.String())
	}
}

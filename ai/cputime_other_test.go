//go:build !unix

package ai_test

import "time"

// cpuTime is unknown here; the CPU-time figures are then left out.
func cpuTime() time.Duration { return 0 }

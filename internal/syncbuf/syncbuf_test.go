package syncbuf

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Writers on many goroutines and a reader at the same time: every line
// arrives whole (run with -race to check the locking).
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				fmt.Fprintf(&b, "writer %d line %d\n", w, i)
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 800 {
		t.Fatalf("%d lines, want 800", len(lines))
	}
	for _, l := range lines {
		var w, i int
		if n, err := fmt.Sscanf(l, "writer %d line %d", &w, &i); n != 2 || err != nil {
			t.Fatalf("torn line %q", l)
		}
	}
}

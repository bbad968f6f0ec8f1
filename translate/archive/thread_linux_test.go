package archive

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// niceThreads counts the threads of this process at nice value n, from
// /proc/self/task/*/stat (the nice value is its 19th field).
func niceThreads(t *testing.T, n int) int {
	t.Helper()
	stats, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the thread ended
		}
		// The fields after the command's, which is in parentheses.
		fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if nice, err := strconv.Atoi(fields[16]); err == nil && nice == n {
			count++
		}
	}
	return count
}

// TestWriterThreadLowered: a store's writer has a thread of its own at
// writerNice for its work that nobody waits for (runLowered), never the
// main thread, and that thread ends with the store.
func TestWriterThreadLowered(t *testing.T) {
	before := niceThreads(t, writerNice)
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "games.db"), "serve")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the writer's thread at nice "+strconv.Itoa(writerNice), func() bool { return niceThreads(t, writerNice) == before+1 })
	s.Close()
	waitFor(t, 5*time.Second, "the writer's thread to end with the store", func() bool { return niceThreads(t, writerNice) == before })
}

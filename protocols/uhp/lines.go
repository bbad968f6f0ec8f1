package uhp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
)

// LineReader reads the lines an engine prints on a goroutine of its own,
// so that every wait for them can end at a deadline: a read from a pipe
// cannot be interrupted, a wait on a channel can. The Hub package reads
// its engines with a copy of it (hub.LineReader), since of this package
// it may take UHP's MoveString codec only.
type LineReader struct {
	lines chan string   // closed when the output ends
	ended chan struct{} // closed when the output ends
	mu    sync.Mutex
	err   error // why the output ended
}

// NewLineReader starts reading r, keeping lines of up to maxLine bytes.
func NewLineReader(r io.Reader, maxLine int) *LineReader {
	l := &LineReader{lines: make(chan string, 64), ended: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), maxLine)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
		err := sc.Err()
		if err == nil {
			err = io.EOF
		}
		l.mu.Lock()
		l.err = err
		l.mu.Unlock()
		close(l.lines) // after every line read: Next returns them all first
		close(l.ended)
	}()
	return l
}

// Next returns the next line, the context's error if ctx ends first (the
// line then stays to be read), or, once the output has ended, an error that
// is ErrEngineGone.
func (l *LineReader) Next(ctx context.Context) (string, error) {
	select {
	case line, open := <-l.lines:
		if open {
			return line, nil
		}
		l.mu.Lock()
		err := l.err
		l.mu.Unlock()
		if err == io.EOF {
			return "", ErrEngineGone
		}
		// A line too long to read, or a broken pipe: nothing more will
		// be read from this engine either way.
		return "", fmt.Errorf("%w: %w", ErrEngineGone, err)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Ended is closed once the output has ended and been read whole: only then
// may the engine's process be waited for, which closes its pipes.
func (l *LineReader) Ended() <-chan struct{} { return l.ended }

// ReadLine reads one command line of any length from a session's input,
// keeping at most limit bytes of it, and reports whether it was longer: a
// session answers an over-long line with an error and goes on, rather than
// holding it whole or giving up on the viewer.
func ReadLine(r *bufio.Reader, limit int) (line string, tooLong bool, err error) {
	var b strings.Builder
	for {
		chunk, isPrefix, err := r.ReadLine()
		if b.Len()+len(chunk) > limit {
			tooLong = true
		} else {
			b.Write(chunk)
		}
		if err != nil || !isPrefix {
			return b.String(), tooLong, err
		}
	}
}

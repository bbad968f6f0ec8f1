package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Writer appends games to a file, each record in one write, so that a
// process killed at any moment leaves every record before the last whole.
type Writer struct {
	w    io.Writer
	file *os.File // when the Writer owns it (Resume)
	buf  []byte
}

// NewWriter writes the header of a file of settings s to w and returns a
// writer of its records.
func NewWriter(w io.Writer, s Settings) (*Writer, error) {
	h, err := appendHeader(nil, s)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(h); err != nil {
		return nil, err
	}
	return &Writer{w: w}, nil
}

// Write appends the record of g.
func (w *Writer) Write(g *Game) error {
	var err error
	if w.buf, err = appendRecord(w.buf[:0], g); err != nil {
		return err
	}
	_, err = w.w.Write(w.buf)
	return err
}

// Close flushes the file of a writer that Resume opened to its disk and
// closes it; for one made by NewWriter it does nothing.
func (w *Writer) Close() error {
	if w.file == nil {
		return nil
	}
	err := w.file.Sync()
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	return err
}

// Resume opens the file at path to go on labelling into it: a new file is
// begun with settings s; an existing one must have been begun with the same
// settings (its note aside), and its games are read back and returned, so
// that the caller labels none of them again. A record cut short by a kill
// (see ErrCut) is cut off; any other damage is an error, and the file is
// left as it is.
func Resume(path string, s Settings) (*Writer, []*Game, error) {
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	w, games, err := resume(f, s)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	w.file = f
	return w, games, nil
}

// resume reads f back and leaves it positioned to append: see Resume.
func resume(f *os.File, s Settings) (*Writer, []*Game, error) {
	r, err := NewReader(f)
	if errors.Is(err, ErrCut) {
		// Killed before its header was whole, nothing was labelled; but
		// a short file of something else is not ours to empty.
		head := make([]byte, len(Magic))
		n, _ := f.ReadAt(head, 0)
		if string(head[:n]) != Magic[:n] {
			return nil, nil, errors.New("not a hivebridge training data file (no HBNNUE header)")
		}
		if err := f.Truncate(0); err != nil {
			return nil, nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, err
		}
		w, err := NewWriter(f, s)
		return w, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	if got := r.Settings(); !got.sameLabels(s) {
		return nil, nil, fmt.Errorf("labelled with depth %d, table %d MB, first ply %d, margin %d; not with depth %d, table %d MB, first ply %d, margin %d",
			got.Depth, got.HashMB, got.Skip, got.Margin, s.Depth, s.HashMB, s.Skip, s.Margin)
	}
	var games []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ErrCut) {
			if err := f.Truncate(r.Offset()); err != nil {
				return nil, nil, err
			}
			break
		}
		if err != nil {
			return nil, nil, err
		}
		games = append(games, g)
	}
	if _, err := f.Seek(r.Offset(), io.SeekStart); err != nil {
		return nil, nil, err
	}
	return &Writer{w: f}, games, nil
}

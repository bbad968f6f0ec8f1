package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/hivebridge/hivebridge/core"
)

// ErrCut is the error, wrapped, of a file that ends inside its header or
// a record: what a run killed while writing leaves, and Resume mends.
var ErrCut = errors.New("the file ends inside a record")

// Reader reads a file record by record.
type Reader struct {
	br       *bufio.Reader
	settings Settings
	offset   int64 // the end of the last complete record
	records  int
	rec      record
	payload  []byte
	scratch  core.MoveList
}

// NewReader reads the header of a file and returns a reader of its
// records.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(r, 64*1024)}
	h := make([]byte, headerFixed, headerFixed+maxNote+crcBytes)
	if _, err := io.ReadFull(rd.br, h); err != nil {
		return nil, headerError(err)
	}
	if string(h[:len(Magic)]) != Magic {
		return nil, errors.New("not a hivebridge training data file (no HBNNUE header)")
	}
	if h[6] != Version {
		return nil, fmt.Errorf("format version %d; this build reads version %d", h[6], Version)
	}
	h = h[:headerFixed+int(h[13])+crcBytes]
	if _, err := io.ReadFull(rd.br, h[headerFixed:]); err != nil {
		return nil, headerError(err)
	}
	body := h[:len(h)-crcBytes]
	if checksum(body) != binary.LittleEndian.Uint32(h[len(body):]) {
		return nil, errors.New("the header's checksum does not match: the file is damaged")
	}
	rd.settings = Settings{
		Depth: int(h[7]), Skip: int(h[8]),
		Margin: int(binary.LittleEndian.Uint16(h[9:])), HashMB: int(binary.LittleEndian.Uint16(h[11:])),
		Note: string(body[headerFixed:]),
	}
	if err := rd.settings.check(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	rd.offset = int64(len(h))
	return rd, nil
}

func headerError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("header: %w", ErrCut)
	}
	return err
}

// Settings returns how the file's positions were chosen and labelled.
func (r *Reader) Settings() Settings { return r.settings }

// Offset returns the length of the header and the complete records read so
// far: where a file cut short is cut back to before it is appended to.
func (r *Reader) Offset() int64 { return r.offset }

// next reads the next record into r.rec, its moves not yet decoded; it
// returns io.EOF at the end of the file.
func (r *Reader) next() error {
	n, err := binary.ReadUvarint(r.br)
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return r.fail(ErrCut)
	case err != nil:
		return r.fail(err)
	case n == 0 || n > maxPayload:
		return r.fail(fmt.Errorf("a record of %d bytes: the file is damaged", n))
	}
	need := int(n) + crcBytes
	if cap(r.payload) < need {
		r.payload = make([]byte, need)
	}
	buf := r.payload[:need]
	if _, err := io.ReadFull(r.br, buf); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = ErrCut
		}
		return r.fail(err)
	}
	p := buf[:n]
	if checksum(p) != binary.LittleEndian.Uint32(buf[n:]) {
		return r.fail(errors.New("the checksum does not match: the file is damaged"))
	}
	if err := parsePayload(p, &r.rec); err != nil {
		return r.fail(err)
	}
	r.records++
	r.offset += int64(uvarintLen(n) + need)
	return nil
}

func uvarintLen(n uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], n)
}

// fail places err at the record being read.
func (r *Reader) fail(err error) error {
	return fmt.Errorf("record %d (byte %d): %w", r.records+1, r.offset, err)
}

// Next returns the next game, its moves decoded and checked against the
// rules, or io.EOF after the last.
func (r *Reader) Next() (*Game, error) {
	if err := r.next(); err != nil {
		return nil, err
	}
	g := r.rec.game
	g.Samples = append([]Sample(nil), g.Samples...)
	g.Moves = make([]core.Move, 0, len(r.rec.codes))
	if _, err := r.replay(func(m core.Move) { g.Moves = append(g.Moves, m) }, nil); err != nil {
		return nil, err
	}
	return &g, nil
}

// Samples replays each remaining game of the file once and calls fn with
// each of its samples in turn: the game positioned at the sample (fn must
// leave it so, and not keep it), the sample's score and the game's result
// for the side to move (1 won, 0.5 drawn, 0 lost). It stops when fn
// returns false, and returns nil at the end of the file.
func (r *Reader) Samples(fn func(g *core.Game, score int, result float64) bool) error {
	for {
		switch err := r.next(); {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		if more, err := r.replay(nil, fn); err != nil || !more {
			return err
		}
	}
}

// Read reads a whole file from r and calls fn with each sample, as
// Reader.Samples does.
func Read(r io.Reader, fn func(g *core.Game, score int, result float64) bool) error {
	rd, err := NewReader(r)
	if err != nil {
		return err
	}
	return rd.Samples(fn)
}

// replay plays the moves of the record just read from the empty board,
// decoding each, and tells played of each move and sample of each sample
// (either may be nil); it reports false if sample asked to stop.
func (r *Reader) replay(played func(core.Move), sample func(*core.Game, int, float64) bool) (bool, error) {
	rec := &r.rec
	g := rec.game.start()
	samples := rec.game.Samples
	for ply := 0; ; ply++ {
		if len(samples) > 0 && samples[0].Ply == ply {
			if sample != nil && !sample(g, samples[0].Score, rec.game.ResultFor(g.ToMove())) {
				return false, nil
			}
			samples = samples[1:]
		}
		if ply == len(rec.codes) {
			return true, nil
		}
		m, err := decodeMove(g, rec.codes[ply], &r.scratch)
		if err != nil {
			return false, fmt.Errorf("record %d (game %d): move %d: %w", r.records, rec.game.Number, ply+1, err)
		}
		if played != nil {
			played(m)
		}
		g.Play(m)
	}
}

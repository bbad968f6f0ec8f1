package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// The weights file: the magic, the sizes and quantisation the weights were
// made for (each must be this build's), Scale, a note, then the arrays in
// the order of Net's fields, all little-endian. A file for other inputs or
// sizes is refused rather than misread.
const magic = "hbnnue1\n"

// header is what a file must agree on with this build.
func header() [7]uint32 {
	return [7]uint32{uint32(NumFeatures), Hidden, uint32(NumDense), L1Size, QA, QB, QO}
}

// maxScale bounds Scale, so that the output's arithmetic stays within
// int64 and the scores within what a search handles.
const maxScale = 1 << 16

// Marshal returns the weights file of n. (Writes to a bytes.Buffer of
// fixed-size values do not fail.)
func (n *Weights) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	note := n.Note
	if len(note) > 1<<16-1 {
		note = note[:1<<16-1]
	}
	for _, v := range []any{header(), n.Scale, uint16(len(note))} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString(note)
	for _, v := range n.arrays() {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// arrays returns pointers to n's weights in the file's order.
func (n *Weights) arrays() []any {
	return []any{&n.FT, &n.FTBias, &n.L1, &n.L1Bias, &n.Out, &n.Skip, &n.OutBias}
}

// Load reads a weights file (see Parse) and readies it for evaluation.
func Load(data []byte) (*Net, error) {
	w, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return NewNet(w), nil
}

// Parse reads a weights file that Marshal wrote. It refuses a file for
// other sizes, a truncated or overlong one, and weights outside the bounds
// that keep the accumulators from overflowing (FTLimit).
func Parse(data []byte) (*Weights, error) {
	r := bytes.NewReader(data)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != magic {
		return nil, errors.New("nnue: not a weights file (bad magic)")
	}
	var h [7]uint32
	n := new(Weights)
	var noteLen uint16
	for _, v := range []any{&h, &n.Scale, &noteLen} {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, fmt.Errorf("nnue: weights file header: %w", err)
		}
	}
	if h != header() {
		return nil, fmt.Errorf("nnue: weights for features, hidden, dense, l1, qa, qb, qo %v; this build has %v", h, header())
	}
	if n.Scale <= 0 || n.Scale > maxScale {
		return nil, fmt.Errorf("nnue: scale %d out of (0, %d]", n.Scale, maxScale)
	}
	note := make([]byte, noteLen)
	if _, err := io.ReadFull(r, note); err != nil {
		return nil, fmt.Errorf("nnue: weights file note: %w", err)
	}
	if !utf8.Valid(note) {
		return nil, errors.New("nnue: weights file note is not UTF-8")
	}
	n.Note = string(note)
	for _, v := range n.arrays() {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, fmt.Errorf("nnue: weights file truncated: %w", err)
		}
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("nnue: %d bytes after the weights", r.Len())
	}
	const limit = FTLimit * QA
	for i := range n.FT {
		for _, w := range n.FT[i] {
			if w < -limit || w > limit {
				return nil, fmt.Errorf("nnue: input %d has a weight %d beyond ±%d", i, w, limit)
			}
		}
	}
	for _, w := range n.FTBias {
		if w < -limit || w > limit {
			return nil, fmt.Errorf("nnue: a feature transformer bias %d beyond ±%d", w, limit)
		}
	}
	return n, nil
}

package dataset

import (
	"bytes"
	"encoding/binary"
	"io"
	"reflect"
	"testing"
)

// checkReads reads a file that may be anything: an error is fine, a panic
// is not, and a file read without error writes back to the same games.
func checkReads(t *testing.T, data []byte) {
	if err := readAll(data); err != nil {
		return
	}
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("read once, not twice: %v", err)
	}
	var games []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("read once, not twice: %v", err)
		}
		games = append(games, g)
	}
	again, _ := writeGames(t, r.Settings(), games)
	r2, err := NewReader(bytes.NewReader(again))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range games {
		got, err := r2.Next()
		if err != nil {
			t.Fatalf("game %d written again: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("game %d written again reads back as %+v, not %+v", i, got, want)
		}
	}
}

// FuzzRead reads arbitrary bytes as a file.
func FuzzDatasetRead(f *testing.F) {
	data, ends := writeGames(f, testSettings, testGames()[:3])
	f.Add(data)
	f.Add(data[:ends[1]+5])
	f.Add(data[:ends[0]])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) { checkReads(t, data) })
}

// FuzzPayload reads arbitrary bytes as the payload of a record, framed and
// checksummed as a writer would, so that the fuzzer reaches the parsing of
// the fields and the decoding of the moves past the checksum.
func FuzzDatasetPayload(f *testing.F) {
	for _, g := range testGames()[:4] {
		rec, err := appendRecord(nil, g)
		if err != nil {
			f.Fatal(err)
		}
		n, k := binary.Uvarint(rec)
		f.Add(rec[k : k+int(n)])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		data, err := appendHeader(nil, testSettings)
		if err != nil {
			t.Fatal(err)
		}
		data = binary.AppendUvarint(data, uint64(len(payload)))
		data = append(data, payload...)
		data = binary.LittleEndian.AppendUint32(data, checksum(payload))
		checkReads(t, data)
	})
}

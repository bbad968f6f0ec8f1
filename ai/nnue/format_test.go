package nnue

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMarshalParse checks that Parse reads back what Marshal wrote, and
// refuses the same bytes cut short, lengthened, for another size, or with
// a weight beyond the bounds that keep the accumulators from overflowing.
func TestMarshalParse(t *testing.T) {
	n := randomWeights(rand.New(rand.NewPCG(3, 3)))
	n.Note = "trained on nothing — a test"
	data := n.Marshal()
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if *got != *n {
		t.Fatal("the net read back differs from the one written")
	}
	bad := map[string][]byte{
		"truncated": data[:len(data)-1],
		"overlong":  append(append([]byte(nil), data...), 0),
		"empty":     nil,
		"magic":     append([]byte("hbnnue2\n"), data[len(magic):]...),
	}
	other := bytes.Clone(data)
	other[len(magic)+4]++ // Hidden
	bad["sizes"] = other
	big := *n
	big.FT[7][3] = FTLimit*QA + 1
	bad["weight"] = big.Marshal()
	scale := *n
	scale.Scale = 0
	bad["scale"] = scale.Marshal()
	for name, b := range bad {
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "nnue: ") {
			t.Errorf("%s: error %q", name, err)
		}
	}
}

// FuzzParse checks that Parse never panics, and that what it accepts it
// writes back byte for byte.
func FuzzParse(f *testing.F) {
	n := randomWeights(rand.New(rand.NewPCG(4, 4)))
	n.Note = "seed"
	f.Add(n.Marshal())
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Parse(data)
		if err != nil {
			return
		}
		if !bytes.Equal(got.Marshal(), data) {
			t.Fatal("accepted bytes do not write back the same")
		}
	})
}

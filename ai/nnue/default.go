package nnue

import _ "embed"

// defaultWeights is the weights file the binary carries (see Default).
//
//go:embed default.nnue
var defaultWeights []byte

// Default returns the network the binary carries: ai/nnue/default.nnue, a
// weights file that hivebridge train fit wrote (its Note says from what;
// docs/strength.md says how). Each call reads it anew, so that no caller
// can change another's.
func Default() *Net {
	n, err := Load(defaultWeights)
	if err != nil {
		panic("nnue: the embedded weights do not load: " + err.Error())
	}
	return n
}

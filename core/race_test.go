//go:build race

package core_test

// raceDetector is set when the tests run under the race detector, which
// makes move generation ten times slower; the rules are the same, and the
// heaviest comparisons then sample fewer positions.
const raceDetector = true

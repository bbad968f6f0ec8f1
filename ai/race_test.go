//go:build race

package ai_test

// raceDetector is set when the tests run under the race detector, which
// makes a search ten times slower; the heaviest comparisons then
// sample fewer positions.
const raceDetector = true

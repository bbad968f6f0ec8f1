//go:build !race

package core_test

// raceDetector: see race_test.go.
const raceDetector = false

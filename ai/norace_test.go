//go:build !race

package ai_test

// raceDetector: see race_test.go.
const raceDetector = false

package hub

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// This file reads and writes the numbers of Hub lines: whole numbers,
// real numbers in plain decimal, and times in seconds.

// parseInt reads a whole number of at least minimum.
func parseInt(cmd, name, s string, minimum int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s: %s is out of range: %s", cmd, name, s)
		}
		return 0, fmt.Errorf("%s: %s must be a whole number, not '%s'", cmd, name, s)
	}
	if n < minimum {
		return 0, fmt.Errorf("%s: %s must be at least %d, not %s", cmd, name, minimum, s)
	}
	return n, nil
}

// parseUint reads a whole number from 0, up to 2^64-1.
func parseUint(cmd, name, s string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s: %s is out of range: %s", cmd, name, s)
		}
		return 0, fmt.Errorf("%s: %s must be a whole number from 0, not '%s'", cmd, name, s)
	}
	return n, nil
}

// parseCount reads a whole number from 1.
func parseCount(cmd, name, s string) (uint64, error) {
	n, err := parseUint(cmd, name, s)
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: %s must be at least 1, not %s", cmd, name, s)
	}
	return n, err
}

// parseNumber reads a real number.
func parseNumber(cmd, name, s string) (float64, error) {
	f, err := parseReal(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %s must be a number, not '%s'", cmd, name, s)
	}
	return f, nil
}

// parseSeconds reads a time: "Time is measured in seconds (real number)."
// It must not be negative, and is kept to the nanosecond.
func parseSeconds(cmd, name, s string) (time.Duration, error) {
	f, err := parseReal(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %s must be a number of seconds, not '%s'", cmd, name, s)
	}
	if f < 0 {
		return 0, fmt.Errorf("%s: %s must not be negative, not %s", cmd, name, s)
	}
	ns := math.Round(f * 1e9)
	if ns >= math.MaxInt64 {
		return 0, fmt.Errorf("%s: %s is out of range: %s seconds", cmd, name, s)
	}
	return time.Duration(ns), nil
}

// FormatSeconds writes a duration as Hub writes times: seconds, as a
// decimal number with as many digits after the point as it needs (none for
// whole seconds, at most nine). The text is exact, so it reads back as the
// same duration.
func FormatSeconds(d time.Duration) string {
	sign := ""
	u := uint64(d)
	if d < 0 {
		sign, u = "-", uint64(-d)
	}
	sec, ns := u/1e9, u%1e9
	if ns == 0 {
		return sign + strconv.FormatUint(sec, 10)
	}
	frac := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	return sign + strconv.FormatUint(sec, 10) + "." + frac
}

// formatReal writes f as a plain decimal number that reads back as f.
func formatReal(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// parseReal reads a real number written in decimal, with an optional sign,
// fraction and exponent (-0.01, 291.587, 1e3). Hexadecimal, digit
// separators, infinities and NaN, which strconv also reads, are no numbers
// a Hub peer writes.
func parseReal(s string) (float64, error) {
	if !isDecimal(s) {
		return 0, fmt.Errorf("'%s' is not a number", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("'%s' is out of range", s)
	}
	return f, nil
}

// isDecimal reports whether s is [+-]digits[.digits][(e|E)[+-]digits],
// with digits on at least one side of the point.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

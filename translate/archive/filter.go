package archive

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Filter chooses the games a listing shows, and the page of them.
type Filter struct {
	Player   string // either side's name, exactly
	GameType string // a GameTypeString, exactly ("Base+MLP")
	Result   string // WhiteWins, BlackWins or Draw
	Status   Status // playing, finished or interrupted
	Since    time.Time
	Until    time.Time // exclusive
	Page     int       // from 1
	PerPage  int
}

// The bounds of a page.
const (
	DefaultPerPage = 50
	MaxPerPage     = 1000
)

// ErrPastEnd is the error of a page beyond the last game that passes the
// filter.
var ErrPastEnd = errors.New("page past the end")

// offset is the number of games before the filter's page.
func (f Filter) offset() int { return (f.Page - 1) * f.PerPage }

// ParseFilter reads a filter from query parameters: player, type, result,
// status, since and until (a date, 2006-01-02, or an RFC 3339 time), page
// and per_page. Unknown parameters are refused, so that a misspelled
// filter does not silently list everything, and so is a value no archived
// game could match (ErrBadFilter: not UTF-8, a NUL, longer than MaxText),
// so that the database is never handed text it refuses.
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{Page: 1, PerPage: DefaultPerPage}
	for key, values := range q {
		if len(values) != 1 {
			return Filter{}, fmt.Errorf("%s is given %d times; give it once", key, len(values))
		}
		v := values[0]
		if knownFilter(key) {
			if err := checkFilterText(key, v); err != nil {
				return Filter{}, err
			}
		}
		var err error
		switch key {
		case "player":
			f.Player = v
		case "type":
			f.GameType = v
		case "result":
			switch v {
			case "WhiteWins", "BlackWins", "Draw":
				f.Result = v
			default:
				return Filter{}, fmt.Errorf("result %q: want WhiteWins, BlackWins or Draw", v)
			}
		case "status":
			switch s := Status(v); s {
			case Playing, Finished, Interrupted:
				f.Status = s
			default:
				return Filter{}, fmt.Errorf("status %q: want playing, finished or interrupted", v)
			}
		case "since":
			f.Since, err = parseWhen(key, v)
		case "until":
			f.Until, err = parseWhen(key, v)
		case "page":
			f.Page, err = parseCount(key, v, 1, 1<<30)
		case "per_page":
			f.PerPage, err = parseCount(key, v, 1, MaxPerPage)
		default:
			return Filter{}, fmt.Errorf("unknown filter %q: want player, type, result, status, since, until, page or per_page", key)
		}
		if err != nil {
			return Filter{}, err
		}
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Until.After(f.Since) {
		return Filter{}, fmt.Errorf("until (%s) is not after since (%s)", f.Until.Format(time.RFC3339), f.Since.Format(time.RFC3339))
	}
	return f, nil
}

// knownFilter reports whether key is a parameter of ParseFilter.
func knownFilter(key string) bool {
	switch key {
	case "player", "type", "result", "status", "since", "until", "page", "per_page":
		return true
	}
	return false
}

// ParseFilterQuery reads a filter from a URL query string.
func ParseFilterQuery(query string) (Filter, error) {
	q, err := url.ParseQuery(query)
	if err != nil {
		return Filter{}, fmt.Errorf("malformed query: %w", err)
	}
	return ParseFilter(q)
}

func parseWhen(key, v string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q: want a date (2006-01-02) or an RFC 3339 time", key, v)
	}
	return t, nil
}

func parseCount(key, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s %q: want a whole number from %d to %d", key, v, lo, hi)
	}
	return n, nil
}

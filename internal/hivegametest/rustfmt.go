package hivegametest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The site is written in Rust and its texts and JSON carry Rust's spellings
// (Debug-quoted strings in error messages, floats that always show a decimal
// point, chrono's timestamps); these helpers write them so that the
// stand-in's bytes are the site's.

// rustDebug quotes s as Rust's Debug for str does, which the engine's
// "Found {found:?} which is not a valid …" errors use: a client that shows
// the error sees exactly these characters.
func rustDebug(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case 0:
			b.WriteString(`\0`)
		default:
			if !unicode.IsPrint(r) || unicode.In(r, unicode.Mn, unicode.Me) {
				fmt.Fprintf(&b, `\u{%x}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// rustFloat writes a float as serde_json (ryu) does: the shortest digits
// that read back, and always a decimal point, so 1500 is "1500.0".
func rustFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEnN") {
		s += ".0"
	}
	return s
}

// jsonFloat is a float for the response maps, written as rustFloat spells it.
func jsonFloat(f float64) json.Number { return json.Number(rustFloat(f)) }

// dbTime is the stand-in's clock reading as the site stores it: Postgres
// keeps microseconds.
func dbTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// chronoTime writes a timestamp as chrono's serde does for DateTime<Utc>:
// RFC 3339 with Z and 0, 3, 6 or 9 fractional digits, the fewest that hold
// the value.
func chronoTime(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	ns := t.Nanosecond()
	switch {
	case ns == 0:
	case ns%1_000_000 == 0:
		s += fmt.Sprintf(".%03d", ns/1_000_000)
	case ns%1_000 == 0:
		s += fmt.Sprintf(".%06d", ns/1_000)
	default:
		s += fmt.Sprintf(".%09d", ns)
	}
	return s + "Z"
}

// optTime is a nullable timestamp for the response maps.
func optTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return chronoTime(*t)
}

// optInt is a nullable integer for the response maps.
func optInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// optFloat is a nullable float for the response maps.
func optFloat(p *float64) any {
	if p == nil {
		return nil
	}
	return jsonFloat(*p)
}

// rustDuration writes a std::time::Duration as serde does, {"secs","nanos"},
// which GameResponse uses for its clocks where the game row has nanoseconds.
func rustDuration(nanos *int64) any {
	if nanos == nil {
		return nil
	}
	n := *nanos
	if n < 0 {
		n = 0
	}
	return map[string]any{"secs": n / 1_000_000_000, "nanos": n % 1_000_000_000}
}

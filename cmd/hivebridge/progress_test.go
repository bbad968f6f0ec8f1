package main

import (
	"strings"
	"testing"
	"time"
)

// TestImportProgressBar: on a terminal the bar is drawn in place, a line
// said goes above it and the bar comes back under it, and done fills it
// and ends its line; elsewhere a plain line comes every five seconds.
func TestImportProgressBar(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	var out strings.Builder
	p := &importProgress{out: &out, tty: true, total: 1000, start: t0}
	p.read, p.imported, p.present = 250, 8, 2
	p.update(t0.Add(time.Second))
	p.update(t0.Add(time.Second + 50*time.Millisecond)) // too soon: not redrawn
	p.failed++
	p.say("a.pgn: game 11: ply 3 (wQ bS1-): no")
	p.read, p.imported = 1000, 30
	p.done(t0.Add(4 * time.Second))
	want := "[=======                       ]  25% 10 games: 8 imported, 2 already present, 0 refused, 10 games/s, 3s left" +
		"\r\x1b[Ka.pgn: game 11: ply 3 (wQ bS1-): no\n" +
		"[=======                       ]  25% 11 games: 8 imported, 2 already present, 1 refused, 11 games/s, 3s left" +
		"\r\x1b[K[==============================] 100% 33 games: 30 imported, 2 already present, 1 refused, 8 games/s\n"
	if out.String() != want {
		t.Errorf("the bar is drawn as\n%q\nwant\n%q", out.String(), want)
	}

	out.Reset()
	p = &importProgress{out: &out, total: 1000, start: t0, drawn: t0}
	p.imported = 500
	p.update(t0.Add(4 * time.Second))
	p.update(t0.Add(5 * time.Second))
	p.say("b.sgf: no")
	p.done(t0.Add(6 * time.Second))
	if want := "500 games: 500 imported, 0 already present, 0 refused, 100 games/s\nb.sgf: no\n"; out.String() != want {
		t.Errorf("off a terminal, progress is written as %q, want %q", out.String(), want)
	}
}

package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// importProgress shows how far games import has gone: on a terminal, a
// bar redrawn in place at most ten times a second (the share of the
// files' bytes read, the counts, the rate and the time left); elsewhere (a
// log, a pipe) a line every few seconds, which a bar's carriage returns
// would garble. Lines said through it (a refused game's reason) are
// printed above the bar.
type importProgress struct {
	out   io.Writer
	tty   bool
	total int64 // bytes of every file, unpacked (recordBytes)
	start time.Time
	drawn time.Time // when the bar or line was last written
	bar   bool      // a bar is on the terminal's last line

	read                      int64
	imported, present, failed int
}

func newImportProgress(out io.Writer, total int64, now time.Time) *importProgress {
	return &importProgress{out: out, tty: isTerminal(out), total: total, start: now}
}

// say prints a line above the bar, and draws the bar again below it as it
// was.
func (p *importProgress) say(line string) {
	p.clear()
	shown := p.bar
	p.bar = false
	fmt.Fprintln(p.out, line)
	if shown {
		p.draw(p.drawn)
	}
}

// update takes the latest counts and redraws when it is time to.
func (p *importProgress) update(now time.Time) {
	every := 5 * time.Second
	if p.tty {
		every = 100 * time.Millisecond
	}
	if now.Sub(p.drawn) >= every {
		p.draw(now)
	}
}

// done draws the bar full and ends its line; the summary goes to standard
// output after it.
func (p *importProgress) done(now time.Time) {
	if p.tty {
		p.read = p.total
		p.draw(now)
		fmt.Fprintln(p.out)
		p.bar = false
	}
}

func (p *importProgress) clear() {
	if p.tty && p.bar {
		fmt.Fprint(p.out, "\r\x1b[K")
	}
}

func (p *importProgress) draw(now time.Time) {
	p.drawn = now
	games := p.imported + p.present + p.failed
	counts := fmt.Sprintf("%d games: %d imported, %d already present, %d refused", games, p.imported, p.present, p.failed)
	elapsed := now.Sub(p.start)
	if elapsed > 0 {
		counts += fmt.Sprintf(", %.0f games/s", float64(games)/elapsed.Seconds())
	}
	if !p.tty {
		fmt.Fprintln(p.out, counts)
		return
	}
	share := 1.0
	if p.total > 0 {
		share = min(1, float64(p.read)/float64(p.total))
	}
	const width = 30
	filled := int(share * width)
	left := ""
	if share > 0 && share < 1 {
		left = fmt.Sprintf(", %s left", (time.Duration(float64(elapsed)/share) - elapsed).Round(time.Second))
	}
	p.clear()
	fmt.Fprintf(p.out, "[%s%s] %3.0f%% %s%s", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), share*100, counts, left)
	p.bar = true
}

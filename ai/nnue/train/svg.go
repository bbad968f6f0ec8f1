package train

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// The plot's size and margins, in SVG user units (pixels).
const (
	plotWidth  = 720
	plotHeight = 420
	marginL    = 70
	marginR    = 20
	marginT    = 40
	marginB    = 50
)

// WriteSVG draws the losses of a fit's epochs as an SVG plot: the training
// loss and the validation loss against the epoch, the epoch kept (best, 0
// for the first) marked by a dashed line, under the title.
func WriteSVG(w io.Writer, epochs []Epoch, best int, title string) error {
	if len(epochs) == 0 {
		return fmt.Errorf("train: no epochs to plot")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range epochs {
		for _, v := range []float64{e.Train, e.Valid} {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if hi <= lo {
		lo, hi = lo-1e-3, hi+1e-3
	}
	pad := (hi - lo) * 0.05
	lo, hi = max(lo-pad, 0), hi+pad
	innerW, innerH := float64(plotWidth-marginL-marginR), float64(plotHeight-marginT-marginB)
	x := func(i int) float64 {
		if len(epochs) == 1 {
			return marginL + innerW/2
		}
		return marginL + innerW*float64(i)/float64(len(epochs)-1)
	}
	y := func(v float64) float64 { return marginT + innerH*(hi-v)/(hi-lo) }

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotWidth, plotHeight, plotWidth, plotHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", plotWidth, plotHeight)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15">%s</text>`+"\n", marginL, escape(title))
	// The axes, the loss's ticks and the epochs' ticks.
	fmt.Fprintf(&b, `<path d="M%d %d V%d H%d" fill="none" stroke="black"/>`+"\n", marginL, marginT, plotHeight-marginB, plotWidth-marginR)
	for t := range 6 {
		v := lo + (hi-lo)*float64(t)/5
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", marginL, plotWidth-marginR, y(v), y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%.4f</text>`+"\n", marginL-6, y(v)+4, v)
	}
	step := max(1, len(epochs)/10)
	for i := 0; i < len(epochs); i += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(i), plotHeight-marginB+18, i+1)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">epoch</text>`+"\n", marginL+innerW/2, plotHeight-10)
	fmt.Fprintf(&b, `<text x="16" y="%.1f" text-anchor="middle" transform="rotate(-90 16 %.1f)">loss</text>`+"\n", marginT+innerH/2, marginT+innerH/2)
	if best >= 0 && best < len(epochs) {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#888" stroke-dasharray="4 4"/>`+"\n", x(best), x(best), marginT, plotHeight-marginB)
	}
	for _, series := range []struct {
		name, colour string
		at           func(Epoch) float64
		legendY      int
	}{
		{"training", "#1f77b4", func(e Epoch) float64 { return e.Train }, marginT + 4},
		{"validation", "#d62728", func(e Epoch) float64 { return e.Valid }, marginT + 22},
	} {
		var pts []string
		for i, e := range epochs {
			if v := series.at(e); !math.IsNaN(v) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
			}
		}
		if len(pts) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", series.name, strings.Join(pts, " "), series.colour)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n",
			plotWidth-marginR-150, plotWidth-marginR-126, series.legendY, series.legendY, series.colour)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s loss</text>`+"\n", plotWidth-marginR-120, series.legendY+4, series.name)
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// escape returns s with XML's special characters escaped.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

package hub

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// This file is the info line, a search's progress as the engine reports
// it: its fields, reading and writing, and its conversion to and from the
// engine contract's report (engine.Progress).

// Info is an info line, search information the engine prints "with
// progressive search information" before done. hub-hive.md:
//
//	info depth=D score=S nodes=N time=T nps=K pv="m1;m2;m3"
//
// "Other engines can use any subset, or even add their own fields": Has
// says which fields the line has, and Extra keeps the others, in order.
type Info struct {
	Has       InfoField
	Depth     int           // depth=: the depth of the iteration, in plies
	MeanDepth float64       // mean-depth=: the average leaf depth
	Score     Score         // score=: from the side to move's point of view
	Nodes     uint64        // nodes=: "64-bit integer"
	Time      time.Duration // time=: the time searched so far, written in seconds
	NPS       float64       // nps=: the speed in millions of nodes per second, as Scan gives it
	PV        []string      // pv=: the principal variation, UHP MoveStrings from the searched position
	Extra     []Arg
}

// InfoField is a set of the fields of an Info line, one bit each.
type InfoField uint8

// The fields of Info, in the order Line writes them (Scan's).
const (
	InfoDepth InfoField = 1 << iota
	InfoMeanDepth
	InfoScore
	InfoNodes
	InfoTime
	InfoNPS
	InfoPV
)

// NewInfo returns the info line hivebridge prints after each iteration:
// depth, score, nodes, time, nps (when elapsed is not 0) and pv, which
// WriteMoves spells from the searched position.
func NewInfo(depth int, score Score, nodes uint64, elapsed time.Duration, pv []string) Info {
	i := Info{Has: InfoDepth | InfoScore | InfoNodes | InfoTime | InfoPV, Depth: depth, Score: score, Nodes: nodes, Time: elapsed, PV: pv}
	if elapsed > 0 {
		i.Has |= InfoNPS
		i.NPS = math.Round(float64(nodes)/elapsed.Seconds()/1e3) / 1e3
	}
	return i
}

// Line writes the info line, its fields in Scan's order, then Extra.
func (i Info) Line() Line {
	var args []Arg
	if i.Has&InfoDepth != 0 {
		args = append(args, Pair("depth", strconv.Itoa(i.Depth)))
	}
	if i.Has&InfoMeanDepth != 0 {
		args = append(args, Pair("mean-depth", formatReal(i.MeanDepth)))
	}
	if i.Has&InfoScore != 0 {
		args = append(args, Pair("score", i.Score.String()))
	}
	if i.Has&InfoNodes != 0 {
		args = append(args, Pair("nodes", strconv.FormatUint(i.Nodes, 10)))
	}
	if i.Has&InfoTime != 0 {
		args = append(args, Pair("time", FormatSeconds(i.Time)))
	}
	if i.Has&InfoNPS != 0 {
		args = append(args, Pair("nps", formatReal(i.NPS)))
	}
	if i.Has&InfoPV != 0 {
		args = append(args, Pair("pv", FormatMoveList(i.PV)))
	}
	return NewLine(CmdInfo, append(args, i.Extra...)...)
}

// ParseInfo reads an info line. Every field it knows must parse; the
// others go to Extra.
func ParseInfo(l Line) (Info, error) {
	if err := expect(l, CmdInfo); err != nil {
		return Info{}, err
	}
	var i Info
	r := argReader{line: l}
	if s, ok := r.get("depth"); ok {
		i.Has |= InfoDepth
		i.Depth, r.err = parseInt(CmdInfo, "depth", s, 0)
	}
	if s, ok := r.get("mean-depth"); ok {
		i.Has |= InfoMeanDepth
		i.MeanDepth, r.err = parseNumber(CmdInfo, "mean-depth", s)
	}
	if s, ok := r.get("score"); ok {
		i.Has |= InfoScore
		var f float64
		f, r.err = parseNumber(CmdInfo, "score", s)
		i.Score = Score(f)
	}
	if s, ok := r.get("nodes"); ok {
		i.Has |= InfoNodes
		i.Nodes, r.err = parseUint(CmdInfo, "nodes", s)
	}
	if s, ok := r.get("time"); ok {
		i.Has |= InfoTime
		i.Time, r.err = parseSeconds(CmdInfo, "time", s)
	}
	if s, ok := r.get("nps"); ok {
		i.Has |= InfoNPS
		i.NPS, r.err = parseNumber(CmdInfo, "nps", s)
	}
	if s, ok := r.get("pv"); ok {
		i.Has |= InfoPV
		if i.PV, r.err = ParseMoveList(s); r.err != nil {
			r.err = fmt.Errorf("info: pv: %w", r.err)
		}
	}
	if r.err != nil {
		return Info{}, r.err
	}
	i.Extra = extra(l, "depth", "mean-depth", "score", "nodes", "time", "nps", "pv")
	return i, nil
}

// InfoOf writes a report of a search of g as an info line, with every
// field the report has: depth, score, nodes, time, nps (in millions of
// nodes a second, as Scan gives it; from nodes and time when the report
// has no speed) and the principal variation, spelled from g (the move
// alone when the report has no line).
func InfoOf(p engine.Progress, g *core.Game) Info {
	i := Info{Has: InfoTime | InfoPV, Time: p.Elapsed.Round(time.Millisecond)}
	if p.Depth > 0 {
		i.Has |= InfoDepth
		i.Depth = p.Depth
	}
	if p.SelDepth > 0 {
		i.Extra = append(i.Extra, Pair("sel-depth", strconv.Itoa(p.SelDepth)))
	}
	if p.MultiPV > 0 {
		i.Extra = append(i.Extra, Pair(infoMultiPV, strconv.Itoa(p.MultiPV)))
	}
	if p.Score.Kind != engine.NoScore {
		i.Has |= InfoScore
		i.Score = ScoreOf(p.Score)
	}
	if p.Nodes > 0 {
		i.Has |= InfoNodes
		i.Nodes = p.Nodes
	}
	nps := float64(p.NPS)
	if nps == 0 && p.Nodes > 0 && p.Elapsed > 0 {
		nps = float64(p.Nodes) / p.Elapsed.Seconds()
	}
	if nps > 0 {
		i.Has |= InfoNPS
		i.NPS = math.Round(nps/1e3) / 1e3
	}
	pv := p.PV
	if len(pv) == 0 || pv[0] != p.Move {
		pv = []core.Move{p.Move}
	}
	c := g.Clone()
	for _, m := range pv {
		if !c.Legal(m) {
			break
		}
		i.PV = append(i.PV, WriteMove(m, c))
		c.Play(m)
	}
	return i
}

// infoMultiPV is the field of an info line that numbers the line of a
// MultiPV search it reports, from 1 for the best: hivebridge's, as Hub
// lets engines "add their own fields", named as UCI's. hivebridge prints
// the lines of each iteration from the last to the first, so that a GUI
// that ignores the field, as Hub has it ignore what it does not know,
// shows the best line last, as its best so far.
const infoMultiPV = "multipv"

// Progress reads an info line of a search of g as a report of the engine
// contract. Its first PV move is the best move so far (or, when the line
// has multipv=K with K above 1, the K-th best: engine.Progress.MultiPV);
// an info line without a PV reports no move, which ok false says. Moves of
// the PV that do not read as legal moves cut it there, and a multipv= that
// is no whole number from 1 is ignored.
func (i Info) Progress(g *core.Game) (p engine.Progress, ok bool) {
	if i.Has&InfoPV == 0 || len(i.PV) == 0 {
		return engine.Progress{}, false
	}
	c := g.Clone()
	for _, text := range i.PV {
		m, err := ReadMove(text, c)
		if err != nil || !c.Legal(m) {
			break
		}
		p.PV = append(p.PV, m)
		c.Play(m)
	}
	if len(p.PV) == 0 {
		return engine.Progress{}, false
	}
	p.Move = p.PV[0]
	if i.Has&InfoDepth != 0 {
		p.Depth = i.Depth
	}
	if i.Has&InfoScore != 0 {
		p.Score = i.Score.Engine()
	}
	if i.Has&InfoNodes != 0 {
		p.Nodes = i.Nodes
	}
	if i.Has&InfoTime != 0 {
		p.Elapsed = i.Time
	}
	if i.Has&InfoNPS != 0 {
		p.NPS = uint64(i.NPS * 1e6)
	}
	for _, a := range i.Extra {
		if k, err := strconv.Atoi(a.Value); a.Name == infoMultiPV && err == nil && k >= 1 {
			p.MultiPV = k
		}
	}
	return p, true
}

package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core"
)

// Version is the format version this package writes and reads.
const Version = 1

// Magic begins every data file: a reader of several kinds of files (train
// fit takes these and match files) tells them apart by it.
const Magic = "HBNNUE"

// The limits of the format (see the package comment).
const (
	headerFixed   = 14 // the header's bytes before the note
	maxPayload    = 1 << 20
	maxMoves      = 4096
	maxNote       = 255
	maxDepth      = 63
	crcBytes      = 4
	expansionBits = core.WithMosquito | core.WithLadybug | core.WithPillbug
)

// checksum returns the CRC-32C of b (crc32 makes the table once).
func checksum(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// Settings are how the positions of a file were chosen and labelled (see
// Labeller); a file resumed must have been begun with the same ones, the
// note aside.
type Settings struct {
	Depth  int    // the depth of the label search, in plies
	HashMB int    // its transposition table, emptied before each position
	Skip   int    // the first ply sampled
	Margin int    // the quiet test's margin, in the engine's units
	Note   string // what made the file, at most 255 bytes of UTF-8
}

// check reports settings the header cannot hold.
func (s *Settings) check() error {
	switch {
	case s.Depth < 1 || s.Depth > maxDepth:
		return fmt.Errorf("label depth %d: want 1 to %d", s.Depth, maxDepth)
	case s.Skip < 0 || s.Skip > 255:
		return fmt.Errorf("first ply sampled %d: want 0 to 255", s.Skip)
	case s.Margin < 0 || s.Margin > 65535:
		return fmt.Errorf("quiet margin %d: want 0 to 65535", s.Margin)
	case s.HashMB < 1 || s.HashMB > 65535:
		return fmt.Errorf("table size %d MB: want 1 to 65535", s.HashMB)
	case len(s.Note) > maxNote || !utf8.ValidString(s.Note):
		return errors.New("the note must be at most 255 bytes of UTF-8")
	}
	return nil
}

// sameLabels reports whether s and o label positions alike.
func (s Settings) sameLabels(o Settings) bool {
	s.Note, o.Note = "", ""
	return s == o
}

// appendHeader appends the header of a file of settings s.
func appendHeader(dst []byte, s Settings) ([]byte, error) {
	if err := s.check(); err != nil {
		return dst, err
	}
	start := len(dst)
	dst = append(dst, Magic...)
	dst = append(dst, Version, byte(s.Depth), byte(s.Skip))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(s.Margin))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(s.HashMB))
	dst = append(dst, byte(len(s.Note)))
	dst = append(dst, s.Note...)
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:])), nil
}

// Sample is one labelled position of a game: the position after Ply moves,
// and its search score from the side to move's point of view.
type Sample struct {
	Ply   int
	Score int
}

// Game is one record: a finished game and its labelled positions.
type Game struct {
	// Number is the game's number in its source (a match --out file's
	// game=N).
	Number int
	// Type, RepetitionDraw and QueenFirst are the game's rules (see
	// core.NewGame).
	Type           core.GameType
	RepetitionDraw bool
	QueenFirst     bool
	// Result is the game's result as its source recorded it: WhiteWins,
	// BlackWins or Draw.
	Result  core.Result
	Moves   []core.Move
	Samples []Sample // in order of ply
}

// start returns the game's empty board under its rules.
func (g *Game) start() *core.Game {
	return core.NewGame(g.Type, core.RepetitionDraw(g.RepetitionDraw), core.QueenOnFirstTurn(g.QueenFirst))
}

// ResultFor returns the game's result for the player c: 1 won, 0.5 drawn,
// 0 lost.
func (g *Game) ResultFor(c core.Color) float64 { return g.Result.ScoreFor(c) }

// resultCode returns the result byte of r, if r is a game's end.
func resultCode(r core.Result) (byte, bool) {
	switch r {
	case core.Draw:
		return 0, true
	case core.WhiteWins:
		return 1, true
	case core.BlackWins:
		return 2, true
	}
	return 0, false
}

// appendRecord appends g as a record: it replays the moves to write each
// as UHP would, so a move that is not legal is an error.
func appendRecord(dst []byte, g *Game) ([]byte, error) {
	res, ok := resultCode(g.Result)
	switch {
	case !ok:
		return dst, fmt.Errorf("game %d: result %v is none of a draw, White's win, Black's win", g.Number, g.Result)
	case g.Number < 0:
		return dst, fmt.Errorf("game number %d", g.Number)
	case g.Type&^expansionBits != 0:
		return dst, fmt.Errorf("game %d: game type %d", g.Number, g.Type)
	case len(g.Moves) > maxMoves:
		return dst, fmt.Errorf("game %d: %d moves, more than %d", g.Number, len(g.Moves), maxMoves)
	}
	var p []byte
	p = binary.AppendUvarint(p, uint64(g.Number))
	rules := byte(0)
	if g.RepetitionDraw {
		rules |= 1
	}
	if g.QueenFirst {
		rules |= 2
	}
	p = append(p, byte(g.Type), rules, res)
	p = binary.AppendUvarint(p, uint64(len(g.Moves)))
	b := g.start()
	var scratch core.MoveList
	for i, m := range g.Moves {
		if !b.LegalWithScratch(m, &scratch) {
			return dst, fmt.Errorf("game %d: move %d is not legal", g.Number, i+1)
		}
		c, err := encodeMove(b, m)
		if err != nil {
			return dst, fmt.Errorf("game %d: move %d: %w", g.Number, i+1, err)
		}
		p = binary.LittleEndian.AppendUint16(p, c)
		b.Play(m)
	}
	p = binary.AppendUvarint(p, uint64(len(g.Samples)))
	last := 0
	for i, s := range g.Samples {
		if s.Ply < last || i > 0 && s.Ply == last || s.Ply > len(g.Moves) {
			return dst, fmt.Errorf("game %d: sample %d at ply %d: plies must rise, within the game's %d moves", g.Number, i+1, s.Ply, len(g.Moves))
		}
		if s.Score < -1<<31 || s.Score >= 1<<31 {
			return dst, fmt.Errorf("game %d: sample %d: score %d beyond 32 bits", g.Number, i+1, s.Score)
		}
		p = binary.AppendUvarint(p, uint64(s.Ply-last))
		p = binary.AppendVarint(p, int64(s.Score))
		last = s.Ply
	}
	if len(p) > maxPayload {
		return dst, fmt.Errorf("game %d: a record of %d bytes", g.Number, len(p))
	}
	dst = binary.AppendUvarint(dst, uint64(len(p)))
	dst = append(dst, p...)
	return binary.LittleEndian.AppendUint32(dst, checksum(p)), nil
}

// record is a parsed payload whose moves are not yet decoded: decoding
// needs the game replayed, which the reader does once.
type record struct {
	game  Game // Moves nil
	codes []uint16
}

// parsePayload parses a record's payload into r, reusing r's slices.
func parsePayload(p []byte, r *record) error {
	d := decoder{buf: p}
	number := d.uvarint("game number", 1<<62)
	typ, rules, res := d.byte("game type"), d.byte("rules"), d.byte("result")
	n := int(d.uvarint("number of moves", maxMoves))
	if d.err == nil && len(d.buf) < 2*n {
		d.fail("%d moves in %d bytes", n, len(d.buf))
	}
	if d.err != nil {
		return d.err
	}
	switch {
	case core.GameType(typ)&^expansionBits != 0:
		return fmt.Errorf("game type byte %#02x", typ)
	case rules&^3 != 0:
		return fmt.Errorf("rules byte %#02x", rules)
	case res > 2:
		return fmt.Errorf("result byte %d", res)
	}
	g := &r.game
	*g = Game{Number: int(number), Type: core.GameType(typ), RepetitionDraw: rules&1 != 0, QueenFirst: rules&2 != 0,
		Result: [3]core.Result{core.Draw, core.WhiteWins, core.BlackWins}[res], Samples: g.Samples[:0]}
	r.codes = r.codes[:0]
	for range n {
		r.codes = append(r.codes, binary.LittleEndian.Uint16(d.buf))
		d.buf = d.buf[2:]
	}
	s := int(d.uvarint("number of samples", uint64(n)+1))
	ply := 0
	for i := range s {
		delta := d.uvarint("ply", uint64(n))
		score := d.varint("score")
		if d.err != nil {
			return d.err
		}
		if i > 0 && delta == 0 || ply+int(delta) > n {
			return fmt.Errorf("sample %d: ply %d after %d, in a game of %d moves", i+1, ply+int(delta), ply, n)
		}
		ply += int(delta)
		g.Samples = append(g.Samples, Sample{Ply: ply, Score: int(score)})
	}
	if d.err == nil && len(d.buf) > 0 {
		d.fail("%d bytes left over", len(d.buf))
	}
	return d.err
}

// decoder reads a payload's fields, keeping the first error.
type decoder struct {
	buf []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *decoder) byte(what string) byte {
	if d.err != nil {
		return 0
	}
	if len(d.buf) == 0 {
		d.fail("the payload ends before its %s", what)
		return 0
	}
	b := d.buf[0]
	d.buf = d.buf[1:]
	return b
}

func (d *decoder) uvarint(what string, limit uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail("the payload's %s is cut or overlong", what)
		return 0
	}
	if v > limit {
		d.fail("%s %d is above %d", what, v, limit)
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) varint(what string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf)
	if n <= 0 {
		d.fail("the payload's %s is cut or overlong", what)
		return 0
	}
	if v < -1<<31 || v >= 1<<31 {
		d.fail("%s %d is out of range", what, v)
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

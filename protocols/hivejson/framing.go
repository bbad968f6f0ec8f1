package hivejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core/engine"
)

// The spec frames every message as a length, '#' and the JSON text:
//
//	"All messages are prefixed with a content-length header (the
//	String.prototype.length() of the payload string as reported by
//	node-js)" ... "Message header and payload are always separated with a
//	delimiter, "#"" ... "15#{"type":"ping"}"
//
// There is no terminator, and TCP may deliver frames back to back in one
// read or split anywhere (docs/design/hivejson-wire.md). The length counts
// UTF-16 code units, JavaScript's String.length, while newer versions of
// the reference framing library count UTF-8 bytes: hivebridge writes
// ASCII-only JSON, every rune above 0x7F escaped as \uXXXX (a surrogate
// pair for a rune beyond the BMP), so that bytes, UTF-16 units and code
// points agree on what it sends, and reads lengths in the unit its
// FrameLength says, UTF-16 units unless told otherwise, which is what the
// original peers send.

// FrameLength is what the length of the frames a peer sends counts.
type FrameLength int

const (
	// UTF16Units is the original's count, JavaScript's String.length.
	UTF16Units FrameLength = iota
	// UTF8Bytes is the count of newer versions of the framing library.
	UTF8Bytes
)

// ParseFrameLength reads the name of a FrameLength, as the frame-length
// option gives it: utf16 or utf8.
func ParseFrameLength(s string) (FrameLength, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "utf16", "utf-16":
		return UTF16Units, nil
	case "utf8", "utf-8":
		return UTF8Bytes, nil
	}
	return 0, fmt.Errorf("frame-length %q: want utf16 (UTF-16 code units, the original's count) or utf8 (UTF-8 bytes)", s)
}

// String is the name ParseFrameLength reads.
func (l FrameLength) String() string {
	if l == UTF8Bytes {
		return "utf8"
	}
	return "utf16"
}

// units names what l counts, for messages.
func (l FrameLength) units() string {
	if l == UTF8Bytes {
		return "UTF-8 bytes"
	}
	return "UTF-16 code units"
}

// other is the count l is not.
func (l FrameLength) other() FrameLength { return 1 - l }

// The framing errors. A malformed frame comes back from Decoder.Next as a
// *FrameError that wraps one of these; ErrNeedMore is not an error of the
// stream but the Decoder's word for "feed me more bytes".
const (
	ErrNeedMore       engine.Error = "hivejson: incomplete frame, more input needed"
	ErrMissingHash    engine.Error = "hivejson: frame header has no '#' after the length"
	ErrBadLength      engine.Error = "hivejson: frame length is not a decimal number"
	ErrNegativeLength engine.Error = "hivejson: frame length is negative"
	ErrLengthOverflow engine.Error = "hivejson: frame length overflows"
	ErrFrameTooLong   engine.Error = "hivejson: frame length is over the limit"
	ErrSplitCharacter engine.Error = "hivejson: frame length ends inside a character"
	ErrTruncated      engine.Error = "hivejson: input ended inside a frame"
	ErrInvalidJSON    engine.Error = "hivejson: frame body is not valid JSON"
	// ErrFrameLength: the body is not valid JSON at its length as
	// counted, but is at the same length in the other count: the peer
	// counts in the other unit, and the frame-length option says which.
	ErrFrameLength engine.Error = "hivejson: the peer counts frame lengths in the other unit"
)

// DefaultMaxLen is the largest frame length (in UTF-16 code units, or
// bytes) that a Decoder accepts unless told otherwise. The wire doc: "Cap the length you
// accept." The largest honest message, a Choose Turn request late in a long
// game, carries a turn history of about 70 bytes a ply: 4 Mi units is some
// fifty thousand plies.
const DefaultMaxLen = 4 << 20

// maxHeader bounds the bytes of a frame header before its '#': enough for
// any length with leading zeros, little enough that a peer that sends no
// header at all is caught at once.
const maxHeader = 24

// FrameError describes a malformed frame: which rule it breaks (Err, one of
// the sentinels above), where the frame began in the stream, and what was
// read of it.
type FrameError struct {
	Err    error  // ErrMissingHash, ErrBadLength, ... ErrInvalidJSON
	Offset int64  // byte offset in the stream where the frame began
	Header string // the header as read, up to maxHeader bytes
	Length int64  // the declared length, when it was read, else -1
	Detail string // more words, such as the JSON syntax error

	consumed int // bytes of the body the Decoder skips past it
}

func (e *FrameError) Error() string {
	s := fmt.Sprintf("%v (frame at byte %d", e.Err, e.Offset)
	if e.Header != "" {
		s += fmt.Sprintf(", header %q", e.Header)
	}
	if e.Length >= 0 {
		s += fmt.Sprintf(", length %d", e.Length)
	}
	s += ")"
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *FrameError) Unwrap() error { return e.Err }

// UTF16Len returns the length of the UTF-8 text b as JavaScript counts it:
// one unit per rune of the Basic Multilingual Plane, two for a rune beyond
// it (a surrogate pair), and one for each byte that is not valid UTF-8 (Go
// reads each such byte as U+FFFD).
func UTF16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		n += runeUnits(r)
		i += size
	}
	return n
}

func runeUnits(r rune) int {
	if r > 0xFFFF {
		return 2
	}
	return 1
}

// EncodeFrame returns v as one frame: its JSON text made ASCII-only, as
// AppendFrame writes it.
func EncodeFrame(v any) ([]byte, error) { return AppendFrame(nil, v) }

// AppendFrame appends v to dst as one frame, "<length>#<json>". The JSON is
// written without HTML escaping (as JSON.stringify writes it) and then
// made ASCII-only, every rune above 0x7F escaped as \uXXXX, so that the
// length is right whether the peer counts UTF-16 units, as the original
// does, or UTF-8 bytes, as newer versions of its framing library do.
func AppendFrame(dst []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, fmt.Errorf("hivejson: encoding a frame: %w", err)
	}
	return appendASCIIFrame(dst, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})), nil
}

// AppendRawFrame appends the JSON text body to dst as one frame, compacted
// and made ASCII-only like AppendFrame's. It fails if body is not valid
// JSON, so that it never sends a frame that the peer would answer with an
// error frame.
func AppendRawFrame(dst []byte, body []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, body); err != nil {
		return dst, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	return appendASCIIFrame(dst, buf.Bytes()), nil
}

// appendASCIIFrame appends the length header and body, escaping every
// rune above 0x7F. In valid JSON such runes occur only inside strings,
// where \uXXXX means the same rune; a byte that is not valid UTF-8 is
// written as \ufffd, which is what a reader would decode it as.
func appendASCIIFrame(dst, body []byte) []byte {
	n := 0
	for i := 0; i < len(body); {
		if body[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(body[i:])
		n += 6 * runeUnits(r)
		i += size
	}
	dst = strconv.AppendInt(dst, int64(n), 10)
	dst = append(dst, '#')
	const hex = "0123456789abcdef"
	u := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	}
	for i := 0; i < len(body); {
		c := body[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(body[i:])
		i += size
		if r > 0xFFFF {
			r -= 0x10000
			dst = u(dst, 0xD800+r>>10)
			dst = u(dst, 0xDC00+r&0x3FF)
		} else {
			dst = u(dst, r)
		}
	}
	return dst
}

// DecodeFrame reads data as exactly one frame, with optional whitespace
// around it, and returns its JSON text. It is the pure form of Decoder for
// a frame already cut out of a stream (a fixture, a log line).
func DecodeFrame(data []byte, maxLen int) (json.RawMessage, error) {
	d := NewDecoder(maxLen)
	d.Feed(data)
	msg, err := d.Next()
	if err == ErrNeedMore {
		return nil, d.Finish()
	}
	if err != nil {
		return nil, err
	}
	if rest := bytes.TrimLeft(d.buf[d.off:], " \t\r\n"); len(rest) > 0 {
		return nil, fmt.Errorf("hivejson: %d bytes after the frame", len(rest))
	}
	return msg, nil
}

// Decoder cuts frames out of a byte stream that arrives in pieces of any
// size: Feed it what a read returned, then call Next until it says
// ErrNeedMore. It never reads a socket itself (ReadFrame wraps any
// io.Reader), so it can be fuzzed and tested without one.
//
// After a malformed frame the stream goes on, as with the reference server,
// which "answers any bad frame ... with one error frame ... and keeps the
// connection open":
//   - a frame whose header was good but whose body is not valid JSON (or
//     whose length ends inside a character) is consumed whole, and the next
//     frame follows it;
//   - after a bad header the length of what follows is unknown, so the
//     Decoder skips input up to the next run of digits followed by '#',
//     the first thing that can be a header again, and reports the bad
//     header once. (The reference library instead drops whatever it has
//     buffered, which depends on how TCP cut the stream; skipping to the
//     next header does not, so the same bytes always decode the same way,
//     however they are split.)
//
// Whitespace before a frame's length is skipped, as JavaScript's parseInt,
// which reads the reference implementation's header, skips it.
type Decoder struct {
	maxLen int
	length FrameLength // what a frame's length counts
	buf    []byte
	off    int   // start of the unconsumed input in buf
	pos    int64 // stream offset of buf[off]
	resync bool  // skipping to the next header after a bad one
	// The body of the frame at off, as far as it has been scanned: bytes
	// and units, so that a frame fed one byte at a time is scanned once,
	// not once per byte.
	scanBytes, scanUnits int
}

// NewDecoder returns a Decoder that accepts frames of up to maxLen UTF-16
// code units; maxLen <= 0 means DefaultMaxLen.
func NewDecoder(maxLen int) *Decoder {
	if maxLen <= 0 {
		maxLen = DefaultMaxLen
	}
	return &Decoder{maxLen: maxLen}
}

// SetFrameLength makes the Decoder count frame lengths, and its limit, in
// l, before it is fed.
func (d *Decoder) SetFrameLength(l FrameLength) { d.length = l }

// Feed appends p, the next bytes of the stream, to the Decoder's input. The
// Decoder keeps its own copy.
func (d *Decoder) Feed(p []byte) {
	d.compact()
	d.buf = append(d.buf, p...)
}

// compact moves the unconsumed input to the front of the buffer once the
// consumed part is at least half of it.
func (d *Decoder) compact() {
	if d.off > 0 && d.off >= len(d.buf)-d.off {
		n := copy(d.buf, d.buf[d.off:])
		d.buf = d.buf[:n]
		d.off = 0
	}
}

// Buffered returns the number of bytes fed but not yet consumed.
func (d *Decoder) Buffered() int { return len(d.buf) - d.off }

// consume drops n bytes of input and forgets the scan of the body.
func (d *Decoder) consume(n int) {
	d.off += n
	d.pos += int64(n)
	d.scanBytes, d.scanUnits = 0, 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Next returns the JSON text of the next complete frame. It returns
// ErrNeedMore when the input ends before the frame does, and a *FrameError
// for a malformed frame, after which it may be called again (see Decoder).
// The returned text is the caller's own.
func (d *Decoder) Next() (json.RawMessage, error) {
	if d.resync && !d.skipToHeader() {
		return nil, ErrNeedMore
	}
	for d.off < len(d.buf) && isSpace(d.buf[d.off]) {
		d.consume(1)
	}
	in := d.buf[d.off:]
	if len(in) == 0 {
		return nil, ErrNeedMore
	}
	start := d.pos
	hash := -1
	for i := 0; i < len(in) && i <= maxHeader; i++ {
		c := in[i]
		if c == '#' {
			hash = i
			break
		}
		// A JSON text that starts where a length should be: the peer
		// sent a frame without a header.
		if c == '{' || c == '[' || c == '"' {
			d.consume(i)
			d.resync = true
			return nil, &FrameError{Err: ErrMissingHash, Offset: start, Header: string(in[:i]), Length: -1,
				Detail: fmt.Sprintf("%q where '#' or a digit should be", c)}
		}
	}
	if hash < 0 {
		if len(in) <= maxHeader {
			return nil, ErrNeedMore
		}
		d.consume(maxHeader)
		d.resync = true
		return nil, &FrameError{Err: ErrMissingHash, Offset: start, Header: string(in[:maxHeader]), Length: -1,
			Detail: fmt.Sprintf("no '#' within %d bytes", maxHeader)}
	}
	header := in[:hash]
	n, herr := parseLength(header, d.maxLen, d.length)
	if herr != nil {
		d.consume(hash + 1)
		d.resync = true
		herr.Offset = start
		return nil, herr
	}
	body := in[hash+1:]
	i, err := d.scan(body, n)
	if err == ErrNeedMore {
		return nil, ErrNeedMore
	}
	if err != nil {
		fe := err.(*FrameError)
		fe.Offset, fe.Header = start, string(header)
		d.consume(hash + 1 + fe.consumed)
		return nil, fe
	}
	msg := append(json.RawMessage(nil), body[:i]...)
	if json.Valid(msg) {
		d.consume(hash + 1 + i)
		return msg, nil
	}
	fe := &FrameError{Err: ErrInvalidJSON, Offset: start, Header: string(header), Length: int64(n), Detail: jsonSyntaxError(msg)}
	if other, ok := d.otherReading(body, n, i); ok && json.Valid(body[:other]) {
		// Read at the peer's count, the frame is whole: the stream goes
		// on in step, and the error says which count to set.
		fe.Err = ErrFrameLength
		fe.Detail = fmt.Sprintf("the body is not valid JSON at %d %s, but is at %d %s; set frame-length %s", n, d.length.units(), n, d.length.other().units(), d.length.other())
		d.consume(hash + 1 + other)
		return nil, fe
	}
	if !isASCII(body[:i]) {
		fe.Detail += fmt.Sprintf(" (the length was read as %s, frame-length %s; if the peer counts %s, set frame-length %s)", d.length.units(), d.length, d.length.other().units(), d.length.other())
	}
	d.consume(hash + 1 + i)
	return nil, fe
}

// scan finds where a body of n units (as the Decoder counts them) ends,
// resuming where the last call stopped; it returns ErrNeedMore when the
// body has not all arrived, and a *FrameError (with consumed set) when the
// count ends inside a character.
func (d *Decoder) scan(body []byte, n int) (int, error) {
	if d.length == UTF8Bytes {
		if len(body) < n {
			return 0, ErrNeedMore
		}
		return n, nil
	}
	i, units := d.scanBytes, d.scanUnits
	for units < n && i < len(body) {
		c := body[i]
		if c < utf8.RuneSelf {
			units++
			i++
			continue
		}
		if !utf8.FullRune(body[i:]) {
			break // the rest of the rune has not arrived
		}
		r, size := utf8.DecodeRune(body[i:])
		w := runeUnits(r)
		if units+w > n {
			return 0, &FrameError{Err: ErrSplitCharacter, Length: int64(n), consumed: i + size,
				Detail: fmt.Sprintf("the length ends between the two UTF-16 units of %U", r)}
		}
		units += w
		i += size
	}
	if units < n {
		d.scanBytes, d.scanUnits = i, units
		return 0, ErrNeedMore
	}
	return i, nil
}

// otherReading returns the bytes of a body of n units in the count the
// Decoder does not use, when that reading is shorter than the one it made
// (i bytes) and so has arrived whole: a byte-counting peer's frame read as
// UTF-16 units runs on into what follows it. A longer reading (a
// UTF-16-counting peer's frame read as bytes) may not have arrived yet, and
// waiting for it would make the Decoder's answer depend on how the stream
// was cut, so it is not tried; the error then only names the option.
func (d *Decoder) otherReading(body []byte, n, i int) (int, bool) {
	if d.length != UTF16Units || n >= i {
		return 0, false
	}
	return n, true
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// jsonSyntaxError says why b is not valid JSON.
func jsonSyntaxError(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err.Error()
	}
	return "empty body"
}

// parseLength reads a frame header, the text before '#': decimal digits
// only (leading zeros allowed), at most maxLen.
func parseLength(h []byte, maxLen int, length FrameLength) (int, *FrameError) {
	fail := func(err engine.Error, detail string) (int, *FrameError) {
		return 0, &FrameError{Err: err, Header: string(h), Length: -1, Detail: detail}
	}
	if len(h) == 0 {
		return fail(ErrBadLength, "the length is empty")
	}
	digits := h
	if h[0] == '-' {
		digits = h[1:]
	}
	if len(digits) == 0 {
		return fail(ErrBadLength, "no digits")
	}
	for _, c := range digits {
		if !isDigit(c) {
			return fail(ErrBadLength, fmt.Sprintf("%q is not a digit", c))
		}
	}
	if h[0] == '-' {
		return fail(ErrNegativeLength, "")
	}
	v, err := strconv.ParseUint(string(digits), 10, 63)
	if err != nil {
		return fail(ErrLengthOverflow, "the length does not fit in 63 bits")
	}
	if v > uint64(maxLen) {
		e := &FrameError{Err: ErrFrameTooLong, Header: string(h), Length: int64(v),
			Detail: fmt.Sprintf("the limit is %d %s", maxLen, length.units())}
		return 0, e
	}
	return int(v), nil
}

// skipToHeader drops input up to the next run of digits followed by '#',
// and reports whether it found one. A run of digits at the end of the input
// is kept, since its '#' may be still to come.
func (d *Decoder) skipToHeader() bool {
	in := d.buf[d.off:]
	i := 0
	for i < len(in) {
		if !isDigit(in[i]) {
			i++
			continue
		}
		j := i
		for j < len(in) && isDigit(in[j]) {
			j++
		}
		if j == len(in) {
			d.consume(i)
			return false
		}
		if in[j] == '#' {
			d.consume(i)
			d.resync = false
			return true
		}
		i = j + 1
	}
	d.consume(len(in))
	return false
}

// Stalled explains a frame that has begun but not ended, once the wait for
// the rest of it is over (a deadline, an idle timeout, the end of the
// input). A byte-counting peer's frame with text beyond ASCII, read as
// UTF-16 units, is longer than what the peer sends, so the Decoder waits
// for input that never comes: when the bytes buffered hold a whole frame if
// its length counts UTF-8 bytes, Stalled returns a *FrameError wrapping
// ErrFrameLength that says to set frame-length utf8; otherwise nil.
func (d *Decoder) Stalled() error {
	if d.resync || d.length != UTF16Units {
		return nil
	}
	rest := d.buf[d.off:]
	in := bytes.TrimLeft(rest, " \t\r\n")
	hash := bytes.IndexByte(in, '#')
	if hash < 0 || hash > maxHeader {
		return nil
	}
	n, err := parseLength(in[:hash], d.maxLen, d.length)
	body := in[hash+1:]
	if err != nil || len(body) < n || !json.Valid(body[:n]) {
		return nil
	}
	return &FrameError{Err: ErrFrameLength, Offset: d.pos + int64(len(rest)-len(in)), Header: string(in[:hash]), Length: int64(n),
		Detail: fmt.Sprintf("the body is not whole at %d UTF-16 code units, but is valid JSON at %d UTF-8 bytes; set frame-length utf8", n, n)}
}

// Finish tells the Decoder that the input has ended. It returns nil if
// nothing but whitespace (or input skipped after a bad header) is left,
// and otherwise a *FrameError wrapping ErrTruncated; either way the
// Decoder is left empty.
func (d *Decoder) Finish() error {
	defer func() {
		d.consume(len(d.buf) - d.off)
		d.resync = false
	}()
	if d.resync {
		return nil
	}
	in := bytes.TrimLeft(d.buf[d.off:], " \t\r\n")
	if len(in) == 0 {
		return nil
	}
	header := in
	if i := bytes.IndexByte(in, '#'); i >= 0 {
		header = in[:i]
	}
	if len(header) > maxHeader {
		header = header[:maxHeader]
	}
	detail := fmt.Sprintf("%d bytes of an unfinished frame", len(in))
	var stalled *FrameError
	if errors.As(d.Stalled(), &stalled) {
		detail += "; " + stalled.Detail
	}
	return &FrameError{Err: ErrTruncated, Offset: d.pos + int64(len(d.buf)-d.off-len(in)), Header: string(header), Length: -1,
		Detail: detail}
}

// ReadFrame returns the next frame from r, reading as much as it needs and
// keeping in the Decoder whatever it read beyond the frame. At the end of
// the input it returns io.EOF, or a *FrameError wrapping ErrTruncated if the
// input ended inside a frame. A malformed frame is returned as Next returns
// it; call ReadFrame again to go on. Deadlines are the caller's: set them on
// the connection that r reads.
func (d *Decoder) ReadFrame(r io.Reader) (json.RawMessage, error) {
	for {
		msg, err := d.Next()
		if err != ErrNeedMore {
			return msg, err
		}
		d.compact()
		if cap(d.buf)-len(d.buf) < 512 {
			d.buf = append(d.buf, make([]byte, 4096)...)[:len(d.buf)]
		}
		n, rerr := r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+n]
		if rerr == io.EOF {
			if n > 0 {
				continue // decode what came with the end first
			}
			if err := d.Finish(); err != nil {
				return nil, err
			}
			return nil, io.EOF
		}
		if rerr != nil && n == 0 {
			return nil, rerr
		}
	}
}

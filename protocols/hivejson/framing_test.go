package hivejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestUTF16Len(t *testing.T) {
	cases := map[string]int{
		"":                      0,
		`{"type":"ping"}`:       15,
		"\u00e9":                1, // 2 bytes, 1 unit
		"\u732b":                1, // 3 bytes, 1 unit
		"\U0001F41D":            2, // 4 bytes, a surrogate pair
		"a\U0001F41Db\u00e9":    5,
		"\xff\xfe":              2, // invalid bytes count one each
		"\xe2\x82":              2, // a truncated rune: two invalid bytes
		"\u2028\u2029":          2,
		"\U0010FFFF\U00010000x": 5,
	}
	for s, want := range cases {
		if got := UTF16Len([]byte(s)); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestEncodeFrame(t *testing.T) {
	// The spec's own example.
	f, err := EncodeFrame(map[string]string{"type": "ping"})
	if err != nil || string(f) != `15#{"type":"ping"}` {
		t.Errorf("EncodeFrame(ping) = %s, %v", f, err)
	}
	// Non-ASCII is escaped (a surrogate pair beyond the BMP), HTML
	// characters are not, invalid UTF-8 becomes U+FFFD.
	f, err = EncodeFrame(map[string]string{"s": "<a&b> \u00e9\u2013\U0001F41D \u2028 \xff"})
	want := `{"s":"<a&b> \u00e9\u2013\ud83d\udc1d \u2028 \ufffd"}`
	if err != nil || string(f) != fmt.Sprintf("%d#%s", len(want), want) {
		t.Errorf("EncodeFrame = %s, %v; want body %s", f, err, want)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(want), &back); err != nil || back["s"] != "<a&b> \u00e9\u2013\U0001F41D \u2028 \ufffd" {
		t.Errorf("the escaped body reads back as %q, %v", back["s"], err)
	}
	// AppendFrame appends; AppendRawFrame compacts, escapes and checks.
	f, _ = AppendFrame([]byte("x"), 1)
	if string(f) != "x1#1" {
		t.Errorf("AppendFrame = %s", f)
	}
	f, err = AppendRawFrame(nil, []byte("{ \"a\" : [1, 2],\n \"b\":\"\u732b\" }"))
	if err != nil || string(f) != `24#{"a":[1,2],"b":"\u732b"}` {
		t.Errorf("AppendRawFrame = %s, %v", f, err)
	}
	if _, err := AppendRawFrame(nil, []byte("{")); !errors.Is(err, ErrInvalidJSON) {
		t.Errorf("AppendRawFrame({) = %v, want ErrInvalidJSON", err)
	}
	if _, err := EncodeFrame(func() {}); err == nil {
		t.Errorf("EncodeFrame(func) did not fail")
	}
}

// result is what a Decoder makes of a stream: each message, or the
// sentinel of each error.
type result struct {
	msg string
	err error
}

func (r result) String() string {
	if r.err != nil {
		return "error " + r.err.Error()
	}
	return r.msg
}

// decodeAll feeds stream to a Decoder in pieces of the given size (0: all
// at once) and lists what it yields, then what Finish says.
func decodeAll(stream []byte, piece, maxLen int, length FrameLength) []result {
	d := NewDecoder(maxLen)
	d.SetFrameLength(length)
	var out []result
	drain := func() {
		for {
			msg, err := d.Next()
			if err == ErrNeedMore {
				return
			}
			if err != nil {
				var fe *FrameError
				if !errors.As(err, &fe) {
					panic(fmt.Sprintf("Next returned %T %v, not a *FrameError", err, err))
				}
				out = append(out, result{err: fe.Err})
				continue
			}
			out = append(out, result{msg: string(msg)})
		}
	}
	if piece <= 0 {
		piece = len(stream) + 1
	}
	for i := 0; i < len(stream); i += piece {
		d.Feed(stream[i:min(i+piece, len(stream))])
		drain()
	}
	if err := d.Finish(); err != nil {
		var fe *FrameError
		errors.As(err, &fe)
		out = append(out, result{err: fe.Err})
	}
	return out
}

func sameResults(a, b []result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].msg != b[i].msg || a[i].err != b[i].err {
			return false
		}
	}
	return true
}

const ping = `15#{"type":"ping"}`

// TestDecoder decodes well-formed and malformed streams, each at once, in
// every split, and one byte at a time, which must all agree; after each
// malformed frame the good frame that follows is still read.
func TestDecoder(t *testing.T) {
	const body = `{"type":"ping"}`
	astral := `{"s":"` + "\U0001F41D" + `"}` // 10 UTF-16 units, 12 bytes
	cases := []struct {
		name   string
		stream string
		maxLen int
		want   []result
		length FrameLength
	}{
		{"one", ping, 0, []result{{msg: body}}, UTF16Units},
		{"packed", ping + ping + ping, 0, []result{{msg: body}, {msg: body}, {msg: body}}, UTF16Units},
		{"whitespace", " \r\n" + ping + "\n\t" + ping + "\n", 0, []result{{msg: body}, {msg: body}}, UTF16Units},
		{"leading zeros", "0015#" + body, 0, []result{{msg: body}}, UTF16Units},
		{"utf16", "10#" + astral + ping, 0, []result{{msg: astral}, {msg: body}}, UTF16Units},
		{"bmp", `10#{"s":"` + "\u00e9\u732b" + `"}` + ping, 0, []result{{msg: `{"s":"` + "\u00e9\u732b" + `"}`}, {msg: body}}, UTF16Units},
		{"at the cap", ping, 15, []result{{msg: body}}, UTF16Units},
		{"empty", "", 0, nil, UTF16Units},
		{"spaces only", "  \n ", 0, nil, UTF16Units},

		{"missing hash", body + ping, 0, []result{{err: ErrMissingHash}, {msg: body}}, UTF16Units},
		{"digits then body", "15" + body + ping, 0, []result{{err: ErrMissingHash}, {msg: body}}, UTF16Units},
		{"no hash at all", strings.Repeat("x", 30) + ping, 0, []result{{err: ErrMissingHash}, {msg: body}}, UTF16Units},
		{"non-digit", "abc#" + body + ping, 0, []result{{err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"digit and letter", "1x#" + body + ping, 0, []result{{err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"plus sign", "+15#" + body + ping, 0, []result{{err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"space inside", "1 5#" + body + ping, 0, []result{{err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"empty length", "#" + body + ping, 0, []result{{err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"minus only", "-#" + body + ping, 0, []result{{err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"negative", "-15#" + body + ping, 0, []result{{err: ErrNegativeLength}, {msg: body}}, UTF16Units},
		{"overflow", "99999999999999999999#" + body + ping, 0, []result{{err: ErrLengthOverflow}, {msg: body}}, UTF16Units},
		{"over the cap", ping + ping, 14, []result{{err: ErrFrameTooLong}, {err: ErrFrameTooLong}}, UTF16Units},
		{"over the cap, then small", ping + `2#{}`, 14, []result{{err: ErrFrameTooLong}, {msg: `{}`}}, UTF16Units},
		{"invalid json", `7#{"a":1]` + ping, 0, []result{{err: ErrInvalidJSON}, {msg: body}}, UTF16Units},
		{"not json", `5#hello` + ping, 0, []result{{err: ErrInvalidJSON}, {msg: body}}, UTF16Units},
		{"zero length", `0#` + ping, 0, []result{{err: ErrInvalidJSON}, {msg: body}}, UTF16Units},
		// Too short a length leaves "}" before the next header, which
		// makes that header bad too; the frame after it is lost with it,
		// since after a bad header the Decoder skips to the next one.
		{"length too short", `14#{"type":"ping"}` + ping + ping, 0, []result{{err: ErrInvalidJSON}, {err: ErrBadLength}, {msg: body}}, UTF16Units},
		{"split surrogate", "7#" + astral + ping, 0, []result{{err: ErrSplitCharacter}, {err: ErrMissingHash}, {msg: body}}, UTF16Units},
		{"truncated body", `15#{"type":`, 0, []result{{err: ErrTruncated}}, UTF16Units},
		{"truncated header", ping + "15", 0, []result{{msg: body}, {err: ErrTruncated}}, UTF16Units},
		{"truncated rune", "10#" + astral[:8], 0, []result{{err: ErrTruncated}}, UTF16Units},
		{"junk at the end", ping + "junk", 0, []result{{msg: body}, {err: ErrTruncated}}, UTF16Units},
		{"junk after a bad header", "-1#junk junk", 0, []result{{err: ErrNegativeLength}}, UTF16Units},

		// Lengths in UTF-8 bytes, as newer versions of the framing
		// library count them.
		{"bytes", "12#" + astral + ping, 0, []result{{msg: astral}, {msg: body}}, UTF8Bytes},
		{"bytes, bmp", `13#{"s":"` + "\u00e9\u732b" + `"}` + ping, 0, []result{{msg: `{"s":"` + "\u00e9\u732b" + `"}`}, {msg: body}}, UTF8Bytes},
		{"bytes at the cap", "12#" + astral, 12, []result{{msg: astral}}, UTF8Bytes},
		{"bytes over the cap", "12#" + astral + `2#{}`, 11, []result{{err: ErrFrameTooLong}, {msg: `{}`}}, UTF8Bytes},
		{"bytes cut in a rune", "8#" + astral + ping, 0, []result{{err: ErrInvalidJSON}, {err: ErrMissingHash}, {msg: body}}, UTF8Bytes},
		// A byte-counting peer read as UTF-16 units: the frame runs on
		// into the next, which shows the peer's count; the stream goes
		// on in step. Alone, the frame never ends.
		{"bytes read as units", "12#" + astral + ping, 0, []result{{err: ErrFrameLength}, {msg: body}}, UTF16Units},
		{"bytes read as units, alone", "12#" + astral, 0, []result{{err: ErrTruncated}}, UTF16Units},
		// A UTF-16-counting peer read as bytes: the body is cut short.
		{"units read as bytes", "10#" + astral + ping, 0, []result{{err: ErrInvalidJSON}, {err: ErrMissingHash}, {msg: body}}, UTF8Bytes},
	}
	for _, c := range cases {
		all := decodeAll([]byte(c.stream), 0, c.maxLen, c.length)
		if !sameResults(all, c.want) {
			t.Errorf("%s: %q decodes as %v, want %v", c.name, c.stream, all, c.want)
			continue
		}
		for piece := 1; piece < len(c.stream); piece++ {
			if got := decodeAll([]byte(c.stream), piece, c.maxLen, c.length); !sameResults(got, all) {
				t.Errorf("%s: in pieces of %d bytes, %q decodes as %v, want %v", c.name, piece, c.stream, got, all)
				break
			}
		}
	}
}

// TestFrameErrorWords checks that a malformed frame's error says where
// and what.
func TestFrameErrorWords(t *testing.T) {
	d := NewDecoder(100)
	d.Feed([]byte(ping + "1000#{}"))
	if _, err := d.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := d.Next()
	var fe *FrameError
	if !errors.As(err, &fe) || !errors.Is(err, ErrFrameTooLong) {
		t.Fatalf("Next = %v, want a *FrameError wrapping ErrFrameTooLong", err)
	}
	for _, w := range []string{"over the limit", "byte 18", `"1000"`, "length 1000", "100 UTF-16"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	d = NewDecoder(0)
	d.Feed([]byte(`3#{x}`))
	_, err = d.Next()
	if !errors.Is(err, ErrInvalidJSON) || !strings.Contains(err.Error(), "invalid character") || strings.Contains(err.Error(), "frame-length") {
		t.Errorf("invalid ASCII JSON: %v; want the syntax error alone, the count being no matter", err)
	}
}

// TestFrameLengthErrorWords checks that a frame that does not parse at its
// length as counted names the frame-length option, and the setting that
// reads it, when it can tell.
func TestFrameLengthErrorWords(t *testing.T) {
	astral := `{"s":"` + "\U0001F41D" + `"}` // 10 UTF-16 units, 12 bytes
	next := func(length FrameLength, stream string) error {
		d := NewDecoder(0)
		d.SetFrameLength(length)
		d.Feed([]byte(stream))
		_, err := d.Next()
		return err
	}
	for _, c := range []struct {
		length FrameLength
		stream string
		is     error
		want   string
	}{
		{UTF16Units, "12#" + astral + ping, ErrFrameLength,
			`hivejson: the peer counts frame lengths in the other unit (frame at byte 0, header "12", length 12): the body is not valid JSON at 12 UTF-16 code units, but is at 12 UTF-8 bytes; set frame-length utf8`},
		{UTF8Bytes, "10#" + astral + ping, ErrInvalidJSON,
			`hivejson: frame body is not valid JSON (frame at byte 0, header "10", length 10): unexpected end of JSON input (the length was read as UTF-8 bytes, frame-length utf8; if the peer counts UTF-16 code units, set frame-length utf16)`},
		{UTF16Units, "14#" + astral + ping, ErrInvalidJSON,
			`hivejson: frame body is not valid JSON (frame at byte 0, header "14", length 14): invalid character '1' after top-level value (the length was read as UTF-16 code units, frame-length utf16; if the peer counts UTF-8 bytes, set frame-length utf8)`},
	} {
		if err := next(c.length, c.stream); !errors.Is(err, c.is) || err.Error() != c.want {
			t.Errorf("%s reading %q:\n%v\nwant\n%s", c.length, c.stream, err, c.want)
		}
	}
	// A byte-counting peer's frame, alone, never ends when read as
	// UTF-16 units: the wait for it ends, and then Stalled says why;
	// Finish does too.
	d := NewDecoder(0)
	d.Feed([]byte("12#" + astral))
	if _, err := d.Next(); err != ErrNeedMore {
		t.Fatalf("Next = %v, want ErrNeedMore", err)
	}
	const why = "the body is not whole at 12 UTF-16 code units, but is valid JSON at 12 UTF-8 bytes; set frame-length utf8"
	if err := d.Stalled(); !errors.Is(err, ErrFrameLength) || !strings.HasSuffix(err.Error(), why) {
		t.Errorf("Stalled = %v", err)
	}
	if err := d.Finish(); !errors.Is(err, ErrTruncated) || !strings.HasSuffix(err.Error(), "; "+why) {
		t.Errorf("Finish = %v", err)
	}
	// A frame merely unfinished, or read as bytes, is not stalled.
	for _, c := range []struct {
		length FrameLength
		stream string
	}{{UTF16Units, `15#{"type":`}, {UTF16Units, "10#" + astral[:8]}, {UTF8Bytes, "13#" + astral}, {UTF16Units, "junk"}} {
		d := NewDecoder(0)
		d.SetFrameLength(c.length)
		d.Feed([]byte(c.stream))
		d.Next()
		if err := d.Stalled(); err != nil {
			t.Errorf("%s reading %q: Stalled = %v, want nil", c.length, c.stream, err)
		}
	}
}

func TestParseFrameLength(t *testing.T) {
	for in, want := range map[string]FrameLength{"utf16": UTF16Units, "UTF-16": UTF16Units, "utf8": UTF8Bytes, " utf-8 ": UTF8Bytes} {
		if got, err := ParseFrameLength(in); err != nil || got != want {
			t.Errorf("ParseFrameLength(%q) = %v, %v", in, got, err)
		}
		if got, _ := ParseFrameLength(want.String()); got != want {
			t.Errorf("%v does not read back", want)
		}
	}
	if _, err := ParseFrameLength("bytes"); err == nil || err.Error() != `frame-length "bytes": want utf16 (UTF-16 code units, the original's count) or utf8 (UTF-8 bytes)` {
		t.Errorf("ParseFrameLength(bytes) = %v", err)
	}
}

func TestDecodeFrame(t *testing.T) {
	if msg, err := DecodeFrame([]byte(" "+ping+"\n"), 0); err != nil || string(msg) != `{"type":"ping"}` {
		t.Errorf("DecodeFrame(ping) = %s, %v", msg, err)
	}
	if _, err := DecodeFrame([]byte(ping+ping), 0); err == nil || !strings.Contains(err.Error(), "after the frame") {
		t.Errorf("DecodeFrame(two frames) = %v", err)
	}
	if _, err := DecodeFrame([]byte(ping[:10]), 0); !errors.Is(err, ErrTruncated) {
		t.Errorf("DecodeFrame(half) = %v, want ErrTruncated", err)
	}
	if _, err := DecodeFrame([]byte("x#{}"), 0); !errors.Is(err, ErrBadLength) {
		t.Errorf("DecodeFrame(x#{}) = %v, want ErrBadLength", err)
	}
}

// TestReadFrame reads frames through io.Readers that return a byte at a
// time, or an error with the data.
func TestReadFrame(t *testing.T) {
	stream := ping + "abc#" + ping + `2#{}`
	d := NewDecoder(0)
	r := iotest.OneByteReader(strings.NewReader(stream))
	var got []string
	for {
		msg, err := d.ReadFrame(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, "error")
			continue
		}
		got = append(got, string(msg))
	}
	if want := []string{`{"type":"ping"}`, "error", `{"type":"ping"}`, `{}`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ReadFrame: %q, want %q", got, want)
	}
	// Data that comes with io.EOF is decoded before the end is reported.
	d = NewDecoder(0)
	r = iotest.DataErrReader(strings.NewReader(ping))
	if msg, err := d.ReadFrame(r); err != nil || string(msg) != `{"type":"ping"}` {
		t.Errorf("ReadFrame with DataErrReader = %s, %v", msg, err)
	}
	if _, err := d.ReadFrame(r); err != io.EOF {
		t.Errorf("ReadFrame at the end = %v, want io.EOF", err)
	}
	// The end inside a frame.
	d = NewDecoder(0)
	if _, err := d.ReadFrame(strings.NewReader(ping[:9])); !errors.Is(err, ErrTruncated) {
		t.Errorf("ReadFrame(half a frame) = %v, want ErrTruncated", err)
	}
	// A read error is passed on.
	d = NewDecoder(0)
	boom := errors.New("boom")
	if _, err := d.ReadFrame(iotest.ErrReader(boom)); err != boom {
		t.Errorf("ReadFrame(failing reader) = %v, want boom", err)
	}
	// A big frame, in small reads, and the buffer does not keep growing.
	big := bytes.Repeat([]byte("a"), 100000)
	frame, _ := EncodeFrame(map[string]string{"k": string(big)})
	stream2 := bytes.Repeat(frame, 20)
	d = NewDecoder(0)
	r = iotest.HalfReader(bytes.NewReader(stream2))
	for i := 0; i < 20; i++ {
		msg, err := d.ReadFrame(r)
		if err != nil || len(msg) != len(frame)-len("100010#") {
			t.Fatalf("frame %d: %d bytes, %v", i, len(msg), err)
		}
	}
	if cap(d.buf) > 4*len(frame) {
		t.Errorf("decoder buffer grew to %d bytes for frames of %d", cap(d.buf), len(frame))
	}
}

// TestDecoderByteByByteIsLinear feeds a large frame one byte at a time: the
// body must be scanned once, not once per byte (a quadratic scan of a
// 1 MB frame would take minutes).
func TestDecoderByteByByteIsLinear(t *testing.T) {
	frame, _ := EncodeFrame(map[string]string{"k": strings.Repeat("\u00e9", 1<<19)})
	d := NewDecoder(0)
	n := 0
	for i := range frame {
		d.Feed(frame[i : i+1])
		if _, err := d.Next(); err == nil {
			n++
		} else if err != ErrNeedMore {
			t.Fatal(err)
		}
	}
	if n != 1 {
		t.Fatalf("decoded %d frames, want 1", n)
	}
}

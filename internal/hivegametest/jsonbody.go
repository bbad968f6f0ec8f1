package hivegametest

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is actix-web's Json<T> extractor with serde_json behind it, as
// far as a client can tell: the Content-Type check, the 2 MiB limit and
// serde's wording of a body it cannot read. The site's play, control,
// challenge-creation and token endpoints take their body this way, and take
// it before the token (extractors run in parameter order), so a bad body is
// a plain-text 400 even without a token.

// jsonLimit is actix-web's default JsonConfig limit (DEFAULT_LIMIT, 2 MiB).
const jsonLimit = 2_097_152

// jval is one JSON value with where it ends, for serde's positions.
type jval struct {
	kind   byte // 'o' object, 'a' array, 's' string, 'n' number, 't', 'f', 'z' null
	str    string
	fields []jfield
	elems  []*jval
	end    int // offset just past the value
}

// jfield is one member of an object, with where its key ends.
type jfield struct {
	key    string
	keyEnd int
	val    *jval
}

// serdeError is a serde_json error: its message and the offset it names.
type serdeError struct {
	msg string
	at  int
}

// readBody applies actix's Json extractor to r: it answers the request
// itself and returns false when the body cannot be had, else the parsed
// value and the body (for the positions of later errors).
func readBody(w http.ResponseWriter, r *http.Request) (*jval, []byte, bool) {
	if !jsonContentType(r.Header.Get("Content-Type")) {
		plainText(w, http.StatusBadRequest, "Content type error")
		return nil, nil, false
	}
	if r.ContentLength > jsonLimit {
		plainText(w, http.StatusRequestEntityTooLarge,
			fmt.Sprintf("JSON payload (%d bytes) is larger than allowed (limit: %d bytes).", r.ContentLength, jsonLimit))
		return nil, nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, jsonLimit+1))
	if err != nil {
		plainText(w, http.StatusBadRequest, "Error that occur during reading payload: "+err.Error())
		return nil, nil, false
	}
	if len(body) > jsonLimit {
		plainText(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("JSON payload has exceeded limit (%d bytes).", jsonLimit))
		return nil, nil, false
	}
	v, serr := parseJSON(body)
	if serr != nil {
		deserializeError(w, body, serr)
		return nil, nil, false
	}
	return v, body, true
}

// deserializeError answers actix's JsonPayloadError::Deserialize.
func deserializeError(w http.ResponseWriter, body []byte, e *serdeError) {
	plainText(w, http.StatusBadRequest, "Json deserialize error: "+e.msg+position(body, e.at))
}

// jsonContentType is actix's test: the media type's subtype is json or ends
// in +json; a missing or unreadable Content-Type fails (content type
// required, the default).
func jsonContentType(ct string) bool {
	if ct == "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	_, sub, ok := strings.Cut(mt, "/")
	return ok && (sub == "json" || strings.HasSuffix(sub, "+json"))
}

// position writes serde_json's " at line L column C" for an offset: the
// column counts the bytes of the line up to the offset.
func position(b []byte, at int) string {
	if at > len(b) {
		at = len(b)
	}
	start := strings.LastIndexByte(string(b[:at]), '\n') + 1
	line := 1 + strings.Count(string(b[:start]), "\n")
	return fmt.Sprintf(" at line %d column %d", line, at-start)
}

// parseJSON reads a whole document as serde_json::from_slice does: one value,
// then only whitespace.
func parseJSON(b []byte) (*jval, *serdeError) {
	p := &jparser{b: b}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(b) {
		return nil, &serdeError{"trailing characters", p.i + 1}
	}
	return v, nil
}

// jparser is a recursive-descent JSON reader that keeps serde_json's error
// names and positions.
type jparser struct {
	b     []byte
	i     int
	depth int
}

func (p *jparser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) fail(msg string) *serdeError { return &serdeError{msg, p.i + 1} }

func (p *jparser) eof(what string) *serdeError {
	return &serdeError{"EOF while parsing " + what, len(p.b)}
}

func (p *jparser) value() (*jval, *serdeError) {
	p.ws()
	if p.i >= len(p.b) {
		return nil, p.eof("a value")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jval{kind: 's', str: s, end: p.i}, nil
	case c == 't', c == 'f', c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if lit[0] != c {
				continue
			}
			for k := 0; k < len(lit); k++ {
				if p.i+k >= len(p.b) {
					p.i = len(p.b)
					return nil, p.eof("a value")
				}
				if p.b[p.i+k] != lit[k] {
					p.i += k
					return nil, p.fail("expected ident")
				}
			}
			p.i += len(lit)
			return &jval{kind: map[byte]byte{'t': 't', 'f': 'f', 'n': 'z'}[c], end: p.i}, nil
		}
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, p.fail("expected value")
}

func (p *jparser) number() (*jval, *serdeError) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i >= len(p.b) {
		return nil, p.eof("a value")
	}
	if p.b[p.i] == '0' {
		p.i++
		if p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			return nil, p.fail("invalid number")
		}
	} else if digits() == 0 {
		return nil, p.fail("invalid number")
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			if p.i >= len(p.b) {
				return nil, p.eof("a value")
			}
			return nil, p.fail("invalid number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			if p.i >= len(p.b) {
				return nil, p.eof("a value")
			}
			return nil, p.fail("invalid number")
		}
	}
	return &jval{kind: 'n', str: string(p.b[start:p.i]), end: p.i}, nil
}

func (p *jparser) str() (string, *serdeError) {
	p.i++ // the opening quote
	var b strings.Builder
	for {
		if p.i >= len(p.b) {
			return "", p.eof("a string")
		}
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character (\\u0000-\\u001F) found while parsing a string")
		case c == '\\':
			p.i++
			if p.i >= len(p.b) {
				return "", p.eof("a string")
			}
			e := p.b[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
						p.i += 2
						r2, err := p.hex4()
						if err != nil {
							return "", err
						}
						r = utf16.DecodeRune(r, r2)
					} else {
						r = utf8.RuneError
					}
					if r == utf8.RuneError {
						return "", p.fail("lone leading surrogate in hex escape")
					}
				}
				b.WriteRune(r)
			default:
				p.i--
				return "", p.fail("invalid escape")
			}
		default:
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.fail("invalid unicode code point")
			}
			b.Write(p.b[p.i : p.i+size])
			p.i += size
		}
	}
}

func (p *jparser) hex4() (rune, *serdeError) {
	if p.i+4 > len(p.b) {
		p.i = len(p.b)
		return 0, p.eof("a string")
	}
	n, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 16)
	if err != nil {
		return 0, p.fail("invalid escape")
	}
	p.i += 4
	return rune(n), nil
}

func (p *jparser) enter() *serdeError {
	p.depth++
	if p.depth > 128 {
		return p.fail("recursion limit exceeded")
	}
	return nil
}

func (p *jparser) object() (*jval, *serdeError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	v := &jval{kind: 'o'}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		v.end = p.i
		return v, nil
	}
	for {
		p.ws()
		if p.i >= len(p.b) {
			return nil, p.eof("an object")
		}
		if p.b[p.i] != '"' {
			if p.b[p.i] == '}' {
				return nil, p.fail("trailing comma")
			}
			return nil, p.fail("key must be a string")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		keyEnd := p.i
		p.ws()
		if p.i >= len(p.b) {
			return nil, p.eof("an object")
		}
		if p.b[p.i] != ':' {
			return nil, p.fail("expected `:`")
		}
		p.i++
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.fields = append(v.fields, jfield{key, keyEnd, val})
		p.ws()
		if p.i >= len(p.b) {
			return nil, p.eof("an object")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			v.end = p.i
			return v, nil
		default:
			return nil, p.fail("expected `,` or `}`")
		}
	}
}

func (p *jparser) array() (*jval, *serdeError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	v := &jval{kind: 'a'}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		v.end = p.i
		return v, nil
	}
	for {
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			return nil, p.fail("trailing comma")
		}
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, e)
		p.ws()
		if p.i >= len(p.b) {
			return nil, p.eof("a list")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			v.end = p.i
			return v, nil
		default:
			return nil, p.fail("expected `,` or `]`")
		}
	}
}

// unexpected is serde's Unexpected for a JSON value, as its Display writes
// it in "invalid type: …" messages.
func unexpected(v *jval) string {
	switch v.kind {
	case 's':
		return "string " + rustDebug(v.str)
	case 't':
		return "boolean `true`"
	case 'f':
		return "boolean `false`"
	case 'z':
		return "null"
	case 'a':
		return "sequence"
	case 'o':
		return "map"
	}
	if !strings.ContainsAny(v.str, ".eE") {
		if _, err := strconv.ParseInt(v.str, 10, 64); err == nil {
			return "integer `" + v.str + "`"
		}
		if _, err := strconv.ParseUint(v.str, 10, 64); err == nil {
			return "integer `" + v.str + "`"
		}
	}
	f, _ := strconv.ParseFloat(v.str, 64)
	return "floating point `" + rustFloat(f) + "`"
}

func invalidType(v *jval, expected string) *serdeError {
	return &serdeError{"invalid type: " + unexpected(v) + ", expected " + expected, v.end}
}

// structReader walks an object as serde's derived Deserialize does: known
// fields in document order, unknown ones ignored, a repeated one refused,
// missing ones reported at the closing brace.
type structReader struct {
	v    *jval
	seen map[string]bool
}

// readStruct checks that v is an object for struct name; an array would be
// read by position by serde, which no client sends, so it is refused.
func readStruct(v *jval, name string) (*structReader, *serdeError) {
	if v.kind != 'o' {
		return nil, invalidType(v, "struct "+name)
	}
	return &structReader{v: v, seen: map[string]bool{}}, nil
}

// fields calls each with every member whose key is one of known, in order,
// stopping at the first error; repeated keys are serde's duplicate field.
func (s *structReader) fields(known []string, each func(key string, v *jval) *serdeError) *serdeError {
	for _, f := range s.v.fields {
		isKnown := false
		for _, k := range known {
			if k == f.key {
				isKnown = true
			}
		}
		if !isKnown {
			continue
		}
		if s.seen[f.key] {
			return &serdeError{"duplicate field `" + f.key + "`", f.keyEnd}
		}
		s.seen[f.key] = true
		if err := each(f.key, f.val); err != nil {
			return err
		}
	}
	return nil
}

// require reports the first of names that was not present.
func (s *structReader) require(names ...string) *serdeError {
	for _, n := range names {
		if !s.seen[n] {
			return &serdeError{"missing field `" + n + "`", s.v.end}
		}
	}
	return nil
}

func asString(v *jval) (string, *serdeError) {
	if v.kind != 's' {
		return "", invalidType(v, "a string")
	}
	return v.str, nil
}

func asBool(v *jval) (bool, *serdeError) {
	switch v.kind {
	case 't':
		return true, nil
	case 'f':
		return false, nil
	}
	return false, invalidType(v, "a boolean")
}

// asInt reads an integer within [lo, hi] for a Rust integer type named
// typ (u32, i32, u64), with serde's invalid value/type messages.
func asInt(v *jval, typ string, lo, hi int64) (int64, *serdeError) {
	if v.kind != 'n' || strings.ContainsAny(v.str, ".eE") {
		return 0, invalidType(v, typ)
	}
	n, err := strconv.ParseInt(v.str, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(v.str, "-") {
			if _, uerr := strconv.ParseUint(v.str, 10, 64); uerr == nil {
				return 0, &serdeError{"invalid value: integer `" + v.str + "`, expected " + typ, v.end}
			}
		}
		return 0, invalidType(v, typ)
	}
	if n < lo || n > hi {
		return 0, &serdeError{"invalid value: integer `" + v.str + "`, expected " + typ, v.end}
	}
	return n, nil
}

// asUnitVariant reads a fieldless enum variant (ColorChoice,
// ChallengeVisibility, CorrespondenceMode), serde's externally tagged form.
func asUnitVariant(v *jval, variants ...string) (string, *serdeError) {
	name := ""
	switch {
	case v.kind == 's':
		name = v.str
	case v.kind == 'o' && len(v.fields) == 1 && v.fields[0].val.kind == 'z':
		name = v.fields[0].key
	default:
		return "", &serdeError{"expected value", v.end}
	}
	for _, s := range variants {
		if s == name {
			return name, nil
		}
	}
	return "", &serdeError{"unknown variant `" + name + "`, expected " + oneOf(variants), v.end}
}

// oneOf writes serde's list of expected variants.
func oneOf(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) == 1 {
		return q[0]
	}
	if len(q) == 2 {
		return q[0] + " or " + q[1]
	}
	return "one of " + strings.Join(q, ", ")
}

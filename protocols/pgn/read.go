package pgn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// MaxLineLength is the longest line Read accepts, in bytes without the line
// end: far more than any tag, move or comment line a producer writes, and a
// bound on what one hostile line can make Read hold.
const MaxLineLength = 64 << 10

// SyntaxError is an error in the text read, on the line it names (counted
// from 1; a CR LF pair, a LF and a lone CR each end a line).
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return "pgn: line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// Read reads every game in r. It takes what Mzinga's GameRecording.LoadPGN
// and hivegame's History::from_pgn_str take, and more:
//
//   - UTF-8 (hivegame.com, Hive_sgf-to-pgn) or ASCII (Mzinga), with or
//     without a byte-order mark; LF, CR LF or lone CR line ends (Mzinga's
//     StreamReader.ReadLine splits on all three); every line is trimmed of
//     space, so hivegame's "1. wL " reads as "wL".
//   - Tag lines "[Name "Value"]": the name runs to the first space, and the
//     value is the rest, trimmed, without its enclosing quotes, if any; a
//     tag's spelling is kept as written. Unlike Mzinga's ParsePGNTag, quotes
//     inside the value are kept (Write drops them).
//   - Move lines, one ply a line, numbered ("12. wA1 -bQ", "12.wA1 -bQ",
//     "12... wA1 -bQ") or not ("wA1 -bQ"), as Mzinga's LoadPGN strips
//     leading digits and dots; the number's value is not checked.
//     Numeric Annotation Glyphs may follow the move ("12. wA1 -bQ $2",
//     chess PGN's; see Move.NAGs and cutNAGs).
//   - Comments: {...} on its own line or after a move, possibly over
//     several lines (Mzinga), and ';' to the end of the line.
//   - A result line (any spelling ParseResult knows) after the moves, or
//     none (Hive_sgf-to-pgn, unfinished hivegame.com games).
//
// A file may hold several games. A new game begins at a tag line after a
// move or a result line was read, or at a tag whose name the current game
// already has (a second header); a duplicate tag is never merged. A game
// without tags or without a Result tag is read as well.
//
// On a malformed line Read returns a *SyntaxError and no games. Its work
// and memory are linear in the input, and no line may be longer than
// MaxLineLength.
func Read(r io.Reader) ([]Game, error) {
	var sp splitter
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineLength+2) // +2: CR LF
	sc.Split(sp.split)
	p := parser{names: map[string]bool{}}
	for sc.Scan() {
		p.line++
		line := string(sc.Bytes())
		if p.line == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if len(line) > MaxLineLength {
			return nil, p.errorf("line is longer than %d bytes", MaxLineLength)
		}
		if err := p.feed(line); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{Line: p.line + 1, Msg: fmt.Sprintf("line is longer than %d bytes", MaxLineLength)}
		}
		return nil, fmt.Errorf("pgn: %w", err)
	}
	return p.end()
}

// splitter splits lines for a bufio.Scanner at LF, CR LF or a lone CR. It
// remembers how far it has searched the line it has not yet returned, so
// that a reader that hands over a few bytes at a time does not make it
// search the same bytes again and again.
type splitter struct {
	searched int
}

func (s *splitter) split(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data[s.searched:], "\r\n")
	if i < 0 {
		s.searched = len(data)
		if atEOF && len(data) > 0 {
			s.searched = 0
			return len(data), data, nil
		}
		return 0, nil, nil
	}
	i += s.searched
	switch {
	case data[i] == '\n':
		s.searched = 0
		return i + 1, data[:i], nil
	case i+1 < len(data):
		s.searched = 0
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		s.searched = 0
		return i + 1, data[:i], nil
	}
	s.searched = i // a CR last: see whether a LF follows
	return 0, nil, nil
}

// parser is Read's state between lines.
type parser struct {
	line  int
	games []Game

	cur   *Game           // the game being read, nil before the first
	names map[string]bool // cur's tag names, folded by lower
	ended bool            // cur's result line was read
	res   Result          // that line's result
	resAt string          // and its spelling

	inComment bool            // inside a {...} that began on line commentAt
	commentAt int             // where the open comment began
	block     strings.Builder // the open comment's text
	note      strings.Builder // the closed comments since cur's last ply
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// feed reads one line. The line is cut at comments; what follows a comment
// closed on the line is read as if it began a line.
func (p *parser) feed(line string) error {
	s := strings.TrimSpace(line)
	for {
		if p.inComment {
			end := strings.IndexByte(s, '}')
			if end < 0 {
				p.commentLine(s)
				return nil
			}
			p.commentLine(s[:end])
			p.closeComment()
			s = strings.TrimSpace(s[end+1:])
			continue
		}
		if s == "" {
			return nil
		}
		if s[0] == '[' {
			return p.tag(s)
		}
		cut := strings.IndexAny(s, "{};")
		if cut < 0 {
			return p.code(s)
		}
		if s[cut] == '}' {
			return p.errorf("'}' without a '{' before it")
		}
		if err := p.code(strings.TrimSpace(s[:cut])); err != nil {
			return err
		}
		if s[cut] == ';' {
			return nil
		}
		p.openComment()
		s = strings.TrimSpace(s[cut+1:])
	}
}

// tag reads a tag line, which may begin a new game.
func (p *parser) tag(s string) error {
	name, value, why := parseTag(s)
	if why != "" {
		return p.errorf("%s", why)
	}
	key := lower(name)
	if p.cur != nil && (len(p.cur.Moves) > 0 || p.ended || p.names[key]) {
		p.finish()
	}
	p.begin()
	p.cur.Tags = append(p.cur.Tags, Tag{Name: name, Value: value})
	p.names[key] = true
	return nil
}

// parseTag splits a tag line "[Name "Value"]" as Mzinga's ParsePGNTag
// does: the name runs to the first space; the value is the rest, trimmed,
// without the quotes around it. A tag without a value has the value "".
// It returns why the line is not a tag, or "".
func parseTag(s string) (name, value, why string) {
	if len(s) < 2 || s[len(s)-1] != ']' {
		return "", "", "tag line does not end with ']'"
	}
	inner := s[1 : len(s)-1]
	name, rest := inner, ""
	if i := strings.IndexFunc(inner, unicode.IsSpace); i >= 0 {
		name, rest = inner[:i], inner[i:]
	}
	if name == "" {
		return "", "", "tag without a name"
	}
	value = strings.TrimSpace(rest)
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		value = value[1 : len(value)-1]
	}
	return name, value, ""
}

// code reads what is left of a line without comments: nothing, a result, or
// one ply with or without its number.
func (p *parser) code(s string) error {
	if s == "" {
		return nil
	}
	if r, ok := resultWord(s); ok {
		return p.result(r, s)
	}
	text, nags, why := cutNAGs(cutNumber(s))
	if why != "" {
		return p.errorf("%s", why)
	}
	if text == "" {
		return p.errorf("move number %s without a move", quote(s))
	}
	if why := isMove(text); why != "" {
		return p.errorf("%s", why)
	}
	if p.ended {
		return p.errorf("move %s after the game's result", quote(text))
	}
	p.begin()
	p.flushNote()
	p.cur.Moves = append(p.cur.Moves, Move{Text: text, NAGs: nags})
	return nil
}

// cutNAGs splits a ply's text from the annotation glyphs after it: "$N"
// tokens, and the six move suffixes chess PGN's import format allows
// (standard, section 8.2.3.8), written apart from the move here, since a
// suffix stuck to a MoveString's destination would be read as part of it:
// "!" $1, "?" $2, "!!" $3, "??" $4, "!?" $5, "?!" $6. Every token after
// the first glyph must be a glyph too. It returns why the glyphs cannot be
// read, or "".
func cutNAGs(s string) (text string, nags []int, why string) {
	fields := strings.Fields(s)
	at := 0 // where the search for the next field begins
	for k, token := range fields {
		pos := at + strings.Index(s[at:], token)
		at = pos + len(token)
		if !strings.ContainsRune("$!?", rune(token[0])) {
			continue
		}
		for _, token := range fields[k:] {
			nag, ok := glyph(token)
			if !ok {
				return "", nil, quote(token) + " is not an annotation glyph: want $0 to $" + strconv.Itoa(MaxNAG) + " or one of ! ? !! ?? !? ?!, after the move"
			}
			nags = append(nags, nag)
		}
		return strings.TrimSpace(s[:pos]), nags, ""
	}
	return s, nil, ""
}

// glyph reads one annotation glyph: $N (N from 0 to MaxNAG, in at most
// three digits) or a move suffix (see cutNAGs).
func glyph(token string) (int, bool) {
	if digits, ok := strings.CutPrefix(token, "$"); ok {
		if digits == "" || len(digits) > 3 || strings.Trim(digits, "0123456789") != "" {
			return 0, false
		}
		n, _ := strconv.Atoi(digits)
		return n, n <= MaxNAG
	}
	for i, suffix := range [...]string{"!", "?", "!!", "??", "!?", "?!"} {
		if token == suffix {
			return i + 1, true
		}
	}
	return 0, false
}

// cutNumber strips a ply number: leading digits, then dots, then space,
// as Mzinga's LoadPGN trims '.', digits and ' ' from the start of a move.
func cutNumber(s string) string {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return s
	}
	for i < len(s) && s[i] == '.' {
		i++
	}
	return strings.TrimSpace(s[i:])
}

// result reads a result line, which ends the game's moves.
func (p *parser) result(r Result, spelling string) error {
	if p.ended {
		return p.errorf("second result %s after the game's result %s", quote(spelling), quote(p.resAt))
	}
	p.begin()
	p.ended, p.res, p.resAt = true, r, spelling
	return nil
}

// openComment begins a {...} comment; a comment before any tag or move
// begins the first game, as its opening comment.
func (p *parser) openComment() {
	p.begin()
	p.inComment, p.commentAt = true, p.line
	p.block.Reset()
}

// commentLine adds one line's part of the open comment, trimmed as Mzinga
// trims every line, and without '{', which Mzinga's SetMoveCommentary
// deletes (a '}' ends the comment).
func (p *parser) commentLine(s string) {
	if p.line != p.commentAt {
		p.block.WriteByte('\n')
	}
	p.block.WriteString(strings.TrimSpace(strings.ReplaceAll(s, "{", "")))
}

// closeComment adds the closed comment to the note on the last ply read.
func (p *parser) closeComment() {
	p.inComment = false
	text := strings.TrimSpace(p.block.String())
	p.block.Reset()
	if text == "" {
		return
	}
	if p.note.Len() > 0 {
		p.note.WriteByte('\n')
	}
	p.note.WriteString(text)
}

// flushNote gives the comments read since the last ply to that ply, or to
// the game's opening before the first ply.
func (p *parser) flushNote() {
	if p.note.Len() == 0 {
		return
	}
	if n := len(p.cur.Moves); n > 0 {
		p.cur.Moves[n-1].Comment = p.note.String()
	} else {
		p.cur.Opening = p.note.String()
	}
	p.note.Reset()
}

// begin begins a game if none is open.
func (p *parser) begin() {
	if p.cur == nil {
		p.cur = &Game{}
	}
}

// finish ends the open game and sets its result: the result line's, else
// the Result tag's, else ResultUnknown.
func (p *parser) finish() {
	p.flushNote()
	g := p.cur
	if p.ended {
		g.Result, g.ResultText = p.res, p.resAt
	} else if v, ok := g.Tag("Result"); ok {
		g.Result, g.ResultText = ParseResult(v), v
	}
	p.games = append(p.games, *g)
	p.cur, p.ended, p.res, p.resAt = nil, false, ResultUnknown, ""
	clear(p.names)
}

// end ends the input.
func (p *parser) end() ([]Game, error) {
	if p.inComment {
		return nil, &SyntaxError{Line: p.commentAt, Msg: "comment '{' is never closed with '}'"}
	}
	if p.cur != nil {
		p.finish()
	}
	return p.games, nil
}

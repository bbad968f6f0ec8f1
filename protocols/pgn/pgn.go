// Package pgn reads and writes "Hive PGN" game records, whole files of one
// game or many. It is a pure codec: text in, Games out, and back; it knows
// the layout of the file and the shape of a UHP MoveString, but not the
// rules of Hive, so a record it reads may still fail to replay.
//
// There is no written specification of Hive PGN; the format is what its
// producers write, read from their source code (each rule in this
// package's comments names the function it comes from):
//
//   - Mzinga's GameRecording.SavePGN (jonthysell/Mzinga,
//     src/Mzinga/Core/GameRecording.cs), the reference writer: eight tags
//     always, in the order GameType, Date, Event, Site, Round, White,
//     Black, Result, then any others; a blank line; one ply a line,
//     "N. MoveString", N counting plies; {comments} on their own lines
//     after the ply they annotate; and, when the game is over, a blank line
//     and the result word (WhiteWins, BlackWins, Draw).
//   - hivegame.com's "download PGN" button (hiveboardgame/hive,
//     apis/src/components/atoms/download_pgn.rs): six tags (no Event, no
//     Round), its own Date format, a trailing space after the first move
//     and after a pass ("1. wL "), the result line only when the game has
//     finished, and "Unkown" (sic) for a finished game of unknown result.
//   - IongIer/Hive_sgf-to-pgn (hive_sgf-to-pgn.py, BoardSpace SGF to PGN):
//     Mzinga's eight tags with chess results (1-0, 0-1, 1/2-1/2, or "error
//     parsing result"), and no result line.
//
// Read takes every file these producers write, and what the two real
// readers take, Mzinga's GameRecording.LoadPGN and hivegame's
// History::from_pgn_str (engine/src/history.rs), but for lines that are
// neither a tag, a comment, a result nor one ply, which those drop or
// misread and Read refuses, and for tags after the moves, which begin a
// new game here. Write writes what Mzinga writes, byte for byte, with LF
// line ends. Neither escapes anything: no producer does (Mzinga deletes
// '"' from tag values instead).
//
// Two things go beyond every producer, which all write one game a file: a
// file may hold many games, and ';' starts a comment to the end of the
// line (chess PGN's; harmless, since no MoveString holds one).
package pgn

import (
	"strconv"
	"strings"
)

// Tag is one "[Name "Value"]" line of a game's header. Read keeps both as
// written, unknown names included, as Mzinga keeps its OptionalTags and
// writes them back.
type Tag struct {
	Name, Value string
}

// Move is one ply of a game.
type Move struct {
	// Text is the UHP MoveString as written, without the ply number and
	// the space around it (hivegame.com writes "1. wL " with a trailing
	// space); a pass is "pass". Read checks only its shape (a piece, then
	// optionally a destination), not that the move is legal.
	Text string
	// Comment is the text of the {...} comments that follow the ply, as
	// Mzinga's WritePGNMoveCommentary writes them, without the braces;
	// several comments after one ply are joined by newlines.
	Comment string
	// NAGs are the ply's Numeric Annotation Glyphs, 0 to 255, as chess
	// PGN defines them (its standard, section 10: $1 a good move, $2 a
	// mistake, $4 a blunder, $6 a dubious move...): written "$N" after the
	// MoveString on the ply's line, in order. No Hive producer writes
	// them (hivebridge analyze does), and Mzinga's LoadPGN would read such
	// a line as one unplayable move, so Write writes them only for a ply
	// that has some.
	NAGs []int
}

// MaxNAG is the largest Numeric Annotation Glyph, as chess PGN bounds them
// (one byte).
const MaxNAG = 255

// Game is one game record.
type Game struct {
	// Tags are the header's tags in the order read. The Result tag is kept
	// as read; Write writes it from Result instead.
	Tags []Tag
	// Opening is the comment before the first ply (Mzinga's comment #0).
	Opening string
	Moves   []Move
	// Result is the game's result: from the result line after the moves
	// when there is one (which Mzinga's LoadPGN lets win over the tag),
	// else from the Result tag, else ResultUnknown.
	Result Result
	// ResultText is the result as spelt where Result was read from ("1-0",
	// "½-½", "Unkown", "error parsing result"...), or "" when neither a
	// result line nor a Result tag was read.
	ResultText string
}

// Tag returns the value of the game's first tag of the name, which is
// compared without regard to the case of ASCII letters (Mzinga's keys are
// case-sensitive, but no producer writes two spellings of one name).
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if equalFold(t.Name, name) {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the value of the game's first tag of the name (compared as by
// Tag), keeping its place and spelling, or appends a new tag.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if equalFold(g.Tags[i].Name, name) {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

// Result is how a game ended, or that it has not.
type Result int

// The results. Their String is Mzinga's BoardState spelling (Enums.cs),
// which Mzinga and hivegame.com write; ResultUnknown has none in Mzinga and
// is spelt as hivegame.com's GameResult::Unknown should be.
const (
	ResultUnknown Result = iota
	ResultNotStarted
	ResultInProgress
	ResultWhiteWins
	ResultBlackWins
	ResultDraw
)

// String returns the result's Mzinga spelling: "WhiteWins", "BlackWins",
// "Draw", "InProgress", "NotStarted", or "Unknown".
func (r Result) String() string {
	switch r {
	case ResultUnknown:
		return "Unknown"
	case ResultNotStarted:
		return "NotStarted"
	case ResultInProgress:
		return "InProgress"
	case ResultWhiteWins:
		return "WhiteWins"
	case ResultBlackWins:
		return "BlackWins"
	case ResultDraw:
		return "Draw"
	}
	return "Result(" + strconv.Itoa(int(r)) + ")"
}

// over reports whether the result ends the game, which is when Mzinga's
// SavePGN writes the result line (Enums.GameIsOver).
func (r Result) over() bool {
	return r == ResultWhiteWins || r == ResultBlackWins || r == ResultDraw
}

// valid reports whether r is one of the constants.
func (r Result) valid() bool {
	return ResultUnknown <= r && r <= ResultDraw
}

// ParseResult reads a result in any spelling found in the wild, without
// regard to case or surrounding space: Mzinga's and hivegame.com's
// WhiteWins, BlackWins, Draw, InProgress, NotStarted; hivegame.com's
// "Unkown" (sic) and "Unknown"; Hive_sgf-to-pgn's 1-0, 0-1, 1/2-1/2; the
// "½-½" of the hivegame.com archive files; and chess PGN's "*". Anything
// else, such as Hive_sgf-to-pgn's "error parsing result", is ResultUnknown.
func ParseResult(s string) Result {
	r, _ := resultWord(strings.TrimSpace(s))
	return r
}

// resultWord reads a result spelling, reporting whether s is one; a line
// that is one is a result line, not a move.
func resultWord(s string) (Result, bool) {
	if len(s) > len("notstarted") {
		return ResultUnknown, false
	}
	switch lower(s) {
	case "whitewins", "1-0":
		return ResultWhiteWins, true
	case "blackwins", "0-1":
		return ResultBlackWins, true
	case "draw", "1/2-1/2", "½-½":
		return ResultDraw, true
	case "inprogress":
		return ResultInProgress, true
	case "notstarted":
		return ResultNotStarted, true
	case "unknown", "unkown", "*":
		return ResultUnknown, true
	}
	return ResultUnknown, false
}

// lower folds ASCII letters to lower case and leaves every other byte, so
// that names compare alike however they are encoded.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// equalFold reports whether a and b are equal but for the case of ASCII
// letters (the fold of lower).
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isMove reports why text is not one UHP MoveString, or "" if it is: a
// piece alone (the first ply) or a piece and a destination, or "pass".
// Case is free, as in Mzinga's Move.TryNormalizeMoveString; the
// destination may also be "." (hivegame's old first move, "wS1 ."). A line
// holds one ply (every producer), so three parts are never two plies run
// together but an error.
func isMove(text string) string {
	if strings.ContainsAny(text, "\r\n") {
		return "a move cannot hold a line break"
	}
	f := strings.Fields(text)
	switch {
	case len(f) == 0:
		return "empty move"
	case len(f) > 2:
		return quote(text) + " is not one ply: a line holds one ply, and a MoveString has at most two parts"
	case len(f) == 1 && equalFold(f[0], "pass"):
		return ""
	case !isPiece(f[0]), len(f) == 2 && !isDestination(f[1]):
		return quote(text) + " is neither a move (a UHP MoveString) nor a result"
	}
	return ""
}

// isPiece reports whether s has the shape of a UHP piece name: w or b, a
// bug letter, and an optional digit (hivegame's Position regex
// [wb][ABGMLPSQ]\d?, in either case as Mzinga accepts).
func isPiece(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	if c := lowerByte(s[0]); c != 'w' && c != 'b' {
		return false
	}
	if strings.IndexByte("qsbgamlp", lowerByte(s[1])) < 0 {
		return false
	}
	return len(s) == 2 || ('0' <= s[2] && s[2] <= '9')
}

// isDestination reports whether s has the shape of a destination: a piece
// with at most one of the separators - / \ before or after it, or ".".
func isDestination(s string) bool {
	if s == "." {
		return true
	}
	if s != "" && isSeparator(s[0]) {
		s = s[1:]
	} else if s != "" && isSeparator(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return isPiece(s)
}

func isSeparator(c byte) bool { return c == '-' || c == '/' || c == '\\' }

// quote quotes s for an error message, cut short if it is long, so that a
// hostile line does not make a hostile message.
func quote(s string) string {
	const limit = 40
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:limit]) + "..."
}

package archive

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The bounds of what the archive stores of a game. Its text comes from
// clients (a forfeit's reason, a GameString to play on, a Hub GUI's
// position), so the store cuts it to size rather than keep whatever a
// client sends: a real Hive game is a few hundred plies at most, and a
// name or a reason a line.
const (
	// MaxPlies is how many plies of a game the archive keeps: the moves
	// after are not archived (the keeper counts them as not archived)
	// and the game's GameString is that of the position after the
	// MaxPlies-th ply.
	MaxPlies = 2000
	// MaxText is how many characters (runes) of a name, a move, a game
	// type, a result or a reason the archive keeps; what is longer is
	// cut, and ends with "…".
	MaxText = 200
)

// replacement stands for what PostgreSQL cannot store: a byte that is not
// UTF-8, and NUL.
const replacement = "\uFFFD"

// validText reports whether s can be stored as it is: valid UTF-8 without
// NUL, which PostgreSQL refuses in text (SQLSTATE 22021) and SQLite reads
// back cut.
func validText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// storable makes s valid UTF-8 without NUL, each invalid byte sequence
// and each NUL replaced by U+FFFD, so that no text a client sends can make
// the database refuse a game's write.
func storable(s string) string {
	if validText(s) {
		return s
	}
	s = strings.ToValidUTF8(s, replacement)
	return strings.ReplaceAll(s, "\x00", replacement)
}

// short is storable(s) cut to MaxText runes.
func short(s string) string {
	s = storable(s)
	if len(s) <= MaxText || utf8.RuneCountInString(s) <= MaxText {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxText-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// storableGameString is a GameString as the archive keeps it: storable,
// and cut to its first MaxPlies moves, with the state and turn of the
// position after them, when it has more. (A GameString is
// "GameType;GameState;Turn;move;move...", the turn "White[1]" before the
// first ply and "Black[1]" after it.)
func storableGameString(gs string) string {
	gs = storable(gs)
	if strings.Count(gs, ";") <= 2+MaxPlies {
		return gs
	}
	fields := strings.SplitN(gs, ";", 4+MaxPlies)
	return strings.Join(append([]string{fields[0], "InProgress", turnAfter(MaxPlies)}, fields[3:3+MaxPlies]...), ";")
}

// turnAfter is the UHP TurnString of the position after plies plies.
func turnAfter(plies int) string {
	color := "White"
	if plies%2 == 1 {
		color = "Black"
	}
	return color + "[" + strconv.Itoa(plies/2+1) + "]"
}

// storableMoves returns the moves the archive keeps: those before
// MaxPlies, their text and player storable.
func storableMoves(moves []Move) []Move {
	out := make([]Move, 0, len(moves))
	for _, m := range moves {
		if m.Ply >= MaxPlies {
			continue
		}
		m.Text, m.By = short(m.Text), short(m.By)
		out = append(out, m)
	}
	return out
}

// storableStart is st as the store writes it.
func storableStart(st Start) Start {
	st.Key = storable(st.Key) // never cut: two keys must not become one
	st.Source, st.GameType = short(st.Source), short(st.GameType)
	st.White, st.Black = short(st.White), short(st.Black)
	st.GameString = storableGameString(st.GameString)
	st.Moves = storableMoves(st.Moves)
	return st
}

// storableChange is c as the store writes it; plies is how many plies the
// game has in the archive after it.
func storableChange(c Change) (_ Change, plies int) {
	plies = min(c.From+len(c.Moves), MaxPlies)
	c.Moves = storableMoves(c.Moves)
	c.White, c.Black = short(c.White), short(c.Black)
	c.GameString = storableGameString(c.GameString)
	if c.End != nil {
		end := *c.End
		end.Result, end.How, end.Reason = short(end.Result), short(end.How), short(end.Reason)
		c.End = &end
	}
	return c, plies
}

// ErrBadFilter is the error of a filter that no archived game could
// pass: text that is not valid UTF-8, holds NUL, or is longer than the
// archive keeps.
var ErrBadFilter = errors.New("bad filter")

// checkFilterText refuses a filter's text that no stored text could equal,
// before it reaches a database that may refuse it with an error of its
// own (PostgreSQL: invalid byte sequence) rather than find nothing.
func checkFilterText(key, v string) error {
	switch {
	case !utf8.ValidString(v):
		return fmt.Errorf("%w: %s %q is not valid UTF-8", ErrBadFilter, key, v)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("%w: %s %q holds a NUL character", ErrBadFilter, key, v)
	case utf8.RuneCountInString(v) > MaxText:
		return fmt.Errorf("%w: %s is longer than the %d characters the archive keeps", ErrBadFilter, key, MaxText)
	}
	return nil
}

// check refuses a filter whose text no archived game could have.
func (f Filter) check() error {
	for _, c := range []struct{ key, v string }{{"player", f.Player}, {"type", f.GameType}, {"result", f.Result}, {"status", string(f.Status)}} {
		if err := checkFilterText(c.key, c.v); err != nil {
			return err
		}
	}
	return nil
}

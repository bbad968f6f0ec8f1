package core

import (
	"fmt"
	"strconv"
	"strings"
)

// This file reads and writes the names of the model's values as UHP spells
// them: pieces (wQ, bS1, which Piece.String writes), game types (Base+MLP),
// turns (White[5]) and game states (InProgress). UHP's GameString and MoveString are made of them,
// and the Hub dialect borrows them for its variant=, turn=, board= and
// last= (docs/design/hub-hive.md). They live here, with the values they
// name, rather than in protocols/uhp, because no protocol may take
// another's codecs beyond UHP's MoveString (docs/architecture.md): Hub
// could only have read them by copying them. The texts of the errors are
// the ones the protocols answer with.

// ParsePiece reads a piece's short name, the inverse of Piece.String: the
// colour, w or b, the bug's letter, and a number when a player has several
// bugs of that kind. Either case is accepted, and so is a number 1 on a bug
// a player has only one of (wQ1), as some engines write it.
func ParsePiece(s string) (Piece, error) {
	if len(s) < 2 || len(s) > 3 {
		return NoPiece, fmt.Errorf("%q is not a piece name: want colour, bug and number, as wQ or bS1", s)
	}
	var color Color
	switch s[0] {
	case 'w', 'W':
		color = White
	case 'b', 'B':
		color = Black
	default:
		return NoPiece, fmt.Errorf("%q is not a piece name: it must start with w or b", s)
	}
	bug, ok := BugFromLetter(upper(s[1]))
	if !ok {
		return NoPiece, fmt.Errorf("%q is not a piece name: %q is not a bug (Q, S, B, G, A, M, L or P)", s, s[1])
	}
	n := 0
	if len(s) == 3 {
		if s[2] < '1' || s[2] > '9' {
			return NoPiece, fmt.Errorf("%q is not a piece name: %q is not a piece number", s, s[2])
		}
		n = int(s[2] - '0')
	} else if BugCount(bug) > 1 {
		return NoPiece, fmt.Errorf("%q needs a number: a player has %s", s, countBugs(bug))
	}
	p, ok := MakePiece(color, bug, n)
	if !ok {
		return NoPiece, fmt.Errorf("there is no %q: a player has %s", s, countBugs(bug))
	}
	return p, nil
}

// countBugs says how many pieces of bug b a player has: "one Queen Bee",
// "3 Soldier Ants".
func countBugs(b Bug) string {
	if n := BugCount(b); n > 1 {
		return strconv.Itoa(n) + " " + b.String() + "s"
	}
	return "one " + b.String()
}

// upper upper-cases an ASCII letter, and only that.
func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// EqualFold reports whether a and b are the same name but for the case of
// their ASCII letters. Only ASCII letters fold: the notations are ASCII, and
// Unicode folding (strings.EqualFold) would let "Baſe" pass for "Base" or
// "falſe" for "false". The engine contract's options compare with it too
// (engine.EqualFold).
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

// lower lower-cases an ASCII letter, and only that.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// Name returns the game type's name, UHP's GameTypeString: "All
// GameTypeStrings start with Base, and if there are any expansion pieces, a
// single + and any combination of: M for Mosquito, L for Ladybug, P for
// Pillbug." The letters are written in the order M, L, P, as the spec lists
// every type. It is not String, so that fmt goes on printing a GameType as
// the number it is.
func (t GameType) Name() string {
	if t == Base {
		return "Base"
	}
	s := "Base+"
	if t&WithMosquito != 0 {
		s += "M"
	}
	if t&WithLadybug != 0 {
		s += "L"
	}
	if t&WithPillbug != 0 {
		s += "P"
	}
	return s
}

// ParseGameType reads a game type's name (see Name). The expansion letters
// may come in any order and either case ("Base+PLM" is Base+MLP), each at
// most once.
func ParseGameType(s string) (GameType, error) {
	s = strings.TrimSpace(s)
	base, exp, plus := strings.Cut(s, "+")
	if !EqualFold(base, "base") {
		return 0, fmt.Errorf("unknown game type %q: a GameTypeString starts with Base", s)
	}
	if plus && exp == "" {
		return 0, fmt.Errorf("game type %q has a + but no expansion letters (M, L or P)", s)
	}
	t := Base
	for i := 0; i < len(exp); i++ {
		var bit GameType
		switch exp[i] {
		case 'M', 'm':
			bit = WithMosquito
		case 'L', 'l':
			bit = WithLadybug
		case 'P', 'p':
			bit = WithPillbug
		default:
			return 0, fmt.Errorf("game type %q: %q is not an expansion letter (M, L or P)", s, exp[i])
		}
		if t&bit != 0 {
			return 0, fmt.Errorf("game type %q names expansion %c twice", s, exp[i])
		}
		t |= bit
	}
	return t, nil
}

// Turn is whose turn it is and the turn number, UHP's TurnString: "which
// side's turn it is, as well as the turn number", which "starts at 1" and
// grows after each side has played.
type Turn struct {
	Color  Color
	Number int
}

// String writes the turn as White[1] or Black[12].
func (t Turn) String() string {
	return t.Color.String() + "[" + strconv.Itoa(t.Number) + "]"
}

// ParseTurn reads a turn such as White[1] or Black[12], the colour in any
// case.
func ParseTurn(s string) (Turn, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") {
		return Turn{}, fmt.Errorf("bad turn %q: want White[N] or Black[N]", s)
	}
	var t Turn
	switch {
	case EqualFold(s[:open], "white"):
		t.Color = White
	case EqualFold(s[:open], "black"):
		t.Color = Black
	default:
		return Turn{}, fmt.Errorf("bad turn %q: the colour must be White or Black", s)
	}
	digits := s[open+1 : len(s)-1]
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || digits[0] == '+' || digits[0] == '0' {
		return Turn{}, fmt.Errorf("bad turn %q: the turn number must be a whole number from 1", s)
	}
	t.Number = n
	return t, nil
}

// GameState is UHP's GameStateString: whether the game has started and, if
// it is over, how it ended. It is a Result with one more value, NotStarted,
// which a Result does not tell apart from a game under way. Its constants
// carry a State prefix so as not to clash with Result's.
type GameState uint8

// The GameStateString values.
const (
	StateNotStarted GameState = iota // "The game has not started, no moves have been made."
	StateInProgress                  // "The game is in progress, at least one move has been made."
	StateDraw                        // "The game is over, the result is a draw."
	StateWhiteWins                   // "The game is over, the white side has won."
	StateBlackWins                   // "The game is over, the black side has won."
)

// String writes the GameStateString: NotStarted, InProgress, Draw,
// WhiteWins or BlackWins.
func (s GameState) String() string {
	switch s {
	case StateNotStarted:
		return "NotStarted"
	case StateInProgress:
		return "InProgress"
	case StateDraw:
		return "Draw"
	case StateWhiteWins:
		return "WhiteWins"
	case StateBlackWins:
		return "BlackWins"
	}
	return "GameState(" + strconv.Itoa(int(s)) + ")"
}

// ParseGameState reads a GameStateString, in any case.
func ParseGameState(s string) (GameState, error) {
	s = strings.TrimSpace(s)
	for st := StateNotStarted; st <= StateBlackWins; st++ {
		if EqualFold(s, st.String()) {
			return st, nil
		}
	}
	return 0, fmt.Errorf("unknown game state %q: want NotStarted, InProgress, Draw, WhiteWins or BlackWins", s)
}

// Result returns the outcome the state declares: InProgress for a game not
// started or in progress.
func (s GameState) Result() Result {
	switch s {
	case StateDraw:
		return Draw
	case StateWhiteWins:
		return WhiteWins
	case StateBlackWins:
		return BlackWins
	}
	return InProgress
}

// StateOf returns the GameState of a game: NotStarted before its first move,
// and otherwise its result.
func StateOf(g *Game) GameState {
	switch g.Result() {
	case Draw:
		return StateDraw
	case WhiteWins:
		return StateWhiteWins
	case BlackWins:
		return StateBlackWins
	}
	if g.Ply() == 0 {
		return StateNotStarted
	}
	return StateInProgress
}

package core

// Color is a player's colour. White moves first.
type Color uint8

// The two players.
const (
	White Color = iota
	Black
)

// Other returns the opponent's colour.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Bug is a kind of piece.
type Bug uint8

// The eight bugs of Hive with its three official expansions.
const (
	Queen Bug = iota
	Spider
	Beetle
	Grasshopper
	Ant
	Mosquito
	Ladybug
	Pillbug
	NumBugs
)

// bugLetters are the one-letter names of the bugs in the notation that
// every Hive program shares (BoardSpace's).
const bugLetters = "QSBGAMLP"

// Letter returns the bug's one-letter name: Q, S, B, G, A, M, L or P.
func (b Bug) Letter() byte { return bugLetters[b] }

// BugFromLetter returns the bug named by an upper-case letter.
func BugFromLetter(l byte) (Bug, bool) {
	for b := Bug(0); b < NumBugs; b++ {
		if bugLetters[b] == l {
			return b, true
		}
	}
	return 0, false
}

// String returns the bug's full name as the rules book writes it.
func (b Bug) String() string {
	switch b {
	case Queen:
		return "Queen Bee"
	case Spider:
		return "Spider"
	case Beetle:
		return "Beetle"
	case Grasshopper:
		return "Grasshopper"
	case Ant:
		return "Soldier Ant"
	case Mosquito:
		return "Mosquito"
	case Ladybug:
		return "Ladybug"
	case Pillbug:
		return "Pillbug"
	}
	return "unknown bug"
}

// Piece identifies one of the 28 pieces: 14 slots per colour, in the order
// Q, S1, S2, B1, B2, G1, G2, G3, A1, A2, A3, M, L, P. Within one bug the slots
// follow the numbers that the notation gives the pieces.
type Piece uint8

// PiecesPerColor is the number of pieces one player owns with every
// expansion; NumPieces counts both players.
const (
	PiecesPerColor = 14
	NumPieces      = 2 * PiecesPerColor
)

// NoPiece marks the absence of a piece (an empty cell, the ground under a
// bottom piece).
const NoPiece Piece = 0xFF

// slotBug gives each slot's bug and slotNumber its number (0 for the bugs
// a player has only one of).
const (
	slotBug    = "\x00\x01\x01\x02\x02\x03\x03\x03\x04\x04\x04\x05\x06\x07"
	slotNumber = "\x00\x01\x02\x01\x02\x01\x02\x03\x01\x02\x03\x00\x00\x00"
	// bugFirstSlot[b] is the first slot of bug b; the slots of b run up to bugFirstSlot[b+1].
	bugFirstSlot = "\x00\x01\x03\x05\x08\x0b\x0c\x0d\x0e"
)

// MakePiece returns the piece of colour c, bug b and number n (1-based for
// bugs that come several to a player, 0 or 1 for the others), or false if
// no such piece exists.
func MakePiece(c Color, b Bug, n int) (Piece, bool) {
	if b >= NumBugs || c > Black {
		return NoPiece, false
	}
	first, end := int(bugFirstSlot[b]), int(bugFirstSlot[b+1])
	count := end - first
	if count == 1 {
		if n > 1 {
			return NoPiece, false
		}
		n = 1
	} else if n < 1 || n > count {
		return NoPiece, false
	}
	return Piece(int(c)*PiecesPerColor + first + n - 1), true
}

// Color returns the piece's owner.
func (p Piece) Color() Color { return Color(p / PiecesPerColor) }

// Bug returns the piece's kind.
func (p Piece) Bug() Bug { return Bug(slotBug[p%PiecesPerColor]) }

// Number returns the piece's number among its owner's bugs of its kind,
// or 0 for a bug a player has only one of.
func (p Piece) Number() int { return int(slotNumber[p%PiecesPerColor]) }

// String returns the piece's short name: colour letter, bug letter and
// number, as in wQ, bS1, wA3.
func (p Piece) String() string {
	if p >= NumPieces {
		return "?"
	}
	buf := [3]byte{'w', p.Bug().Letter(), '0' + byte(p.Number())}
	if p.Color() == Black {
		buf[0] = 'b'
	}
	if p.Number() == 0 {
		return string(buf[:2])
	}
	return string(buf[:])
}

// BugCount returns how many pieces of bug b each player owns.
func BugCount(b Bug) int { return int(bugFirstSlot[b+1] - bugFirstSlot[b]) }

// GameType is the set of expansion bugs in play, one bit per bug; the base
// bugs are always in play.
type GameType uint8

// The expansions, combinable with |.
const (
	Base         GameType = 0
	WithMosquito GameType = 1
	WithLadybug  GameType = 2
	WithPillbug  GameType = 4
	// AllExpansions is the game type with every expansion, Base+MLP.
	AllExpansions = WithMosquito | WithLadybug | WithPillbug
	AllGameTypes  = 8 // game types are 0 .. AllGameTypes-1
)

// Has reports whether bug b is in play in games of this type.
func (t GameType) Has(b Bug) bool {
	switch b {
	case Mosquito:
		return t&WithMosquito != 0
	case Ladybug:
		return t&WithLadybug != 0
	case Pillbug:
		return t&WithPillbug != 0
	}
	return b < NumBugs
}

// slotMask returns the set of slots in play, one bit per slot.
func (t GameType) slotMask() uint16 {
	m := uint16(1)<<bugFirstSlot[Mosquito] - 1
	if t&WithMosquito != 0 {
		m |= 1 << bugFirstSlot[Mosquito]
	}
	if t&WithLadybug != 0 {
		m |= 1 << bugFirstSlot[Ladybug]
	}
	if t&WithPillbug != 0 {
		m |= 1 << bugFirstSlot[Pillbug]
	}
	return m
}

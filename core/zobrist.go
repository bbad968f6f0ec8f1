package core

// Zobrist keys are computed, not looked up: a table for every kind of
// piece, cell and height would be 1 MB and fall out of cache, while the
// splitmix64 finaliser below costs a few cycles and gives keys that are as
// good as random for hashing. Being pure functions, they need no mutable
// state.
//
// A piece is keyed by its colour and bug, never by its number: two Ants
// that trade cells leave the same position (see Game.PositionKey).

// sideToMoveKey is folded into the key after every ply.
const sideToMoveKey uint64 = 0x6a09e667f3bcc909

// mix is the splitmix64 finaliser of a small distinct input.
func mix(x uint64) uint64 {
	z := x*0x9e3779b97f4a7c15 + 0x3c6ef372fe94f82b
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// pieceKey returns the key of a piece like p (its colour and bug) standing
// on cell c above level pieces.
func pieceKey(p Piece, c Cell, level uint8) uint64 {
	kind := uint64(p.Color())<<3 | uint64(p.Bug())
	return mix(kind<<13 | uint64(level)<<10 | uint64(c))
}

// stunnedKey returns the key of "the piece on top of cell c may not move
// this turn". Level 7 is never reached by a stack (at most 6 pieces can
// climb on one piece), so these keys are distinct from every piece key.
func stunnedKey(c Cell) uint64 { return mix(7<<10 | uint64(c)) }

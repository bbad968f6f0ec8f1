package core

// Zobrist keys are computed, not looked up: a table for every piece, cell
// and height would be 1.8 MB and fall out of cache, while the splitmix64
// finaliser below costs a few cycles and gives keys that are as good as
// random for hashing. Being pure functions, they need no mutable state.

// sideToMoveKey is folded into the hash after every ply.
const sideToMoveKey uint64 = 0x6a09e667f3bcc909

// zobrist returns the key of piece p standing on cell c above level pieces.
func zobrist(p Piece, c Cell, level uint8) uint64 {
	z := (uint64(p)<<13|uint64(level)<<10|uint64(c))*0x9e3779b97f4a7c15 + 0x3c6ef372fe94f82b
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// frozenKey returns the key of the piece that may not move this turn; level
// 7 is never reached by a stack (at most 6 pieces can climb on one piece),
// so these keys are distinct from every placement key.
func frozenKey(p Piece) uint64 {
	if p == NoPiece {
		return 0
	}
	return zobrist(p, 0, 7)
}

// Package core is the one game model of hivebridge: the complete rules of
// Hive with the Mosquito, Ladybug and Pillbug for all eight game types,
// move generation, play and undo, the game result, a Zobrist hash and perft.
// Every protocol converts to and from this package, and the bridge keeps an
// authoritative Game for each session; it knows no protocol, no I/O and no
// clock. It does name its own values as UHP spells them (a piece's wQ or
// bS1, a game type's Base+MLP, a turn's White[5]: see names.go), so that
// the protocols that borrow those names share one reader of them.
//
// The design is for speed, since every search and every check of every move
// crossing the bridge runs through it:
//
//   - The board is a wrapping grid of 1024 cells (see Cell) with, per cell,
//     the stack height, the top piece and a six-bit mask of occupied
//     neighbours kept up to date on every move, so that the Freedom to Move
//     test of a slide is a few bit operations.
//   - A Move is 16 bits: a piece and its destination. Moves are compared by
//     effect, never by spelling.
//   - Play and Undo change the game in place, allocate nothing, and keep the
//     hash incremental; GenerateMoves fills a caller-owned MoveList.
//   - Pinned pieces are found once per generation by an articulation-point
//     search; an Ant's reach is a breadth-first search over the move list it
//     fills; each (piece, destination) is listed once.
package core

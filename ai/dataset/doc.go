// Package dataset is the training data of a learned evaluation: positions
// of self-play games, each labelled with a search score and its game's
// result, stored compactly (the games' moves once, and per position a ply
// and a score: Writer, Resume, Reader, Read), the labelling that chooses
// and scores the positions (Labeller, LabelAll, from a match --out file
// read by MatchReader), and the random openings that make the games
// differ (ExtendOpenings). docs/strength.md ("Learned evaluation: data")
// gives the commands that make a data set.
//
// # The file format, version 1
//
// A file is a header and then one record per game, appended as each game
// is labelled; integers are little-endian, a uvarint and a varint are
// encoding/binary's (a varint zig-zag encoded), and each CRC is CRC-32C
// (Castagnoli) of the bytes it follows.
//
// The header:
//
//	bytes 0-5   "HBNNUE"
//	byte 6      the format version, 1
//	byte 7      the depth of the label search, in plies (1 to 63)
//	byte 8      the first ply sampled (Settings.Skip)
//	bytes 9-10  uint16: the quiet test's margin, in the engine's units
//	bytes 11-12 uint16: the label search's transposition table, in MB
//	byte 13     n: the length of the note
//	n bytes     the note, UTF-8: what made the file
//	4 bytes     CRC of bytes 0 to 13+n
//
// A record:
//
//	uvarint     L, the length of the payload (1 to 1<<20)
//	L bytes     the payload
//	4 bytes     CRC of the payload
//
// The payload of a record:
//
//	uvarint     the game's number in its source (a match --out file's game=N)
//	byte        the game type: bit 0 Mosquito, bit 1 Ladybug, bit 2 Pillbug
//	byte        the rules: bit 0 a threefold repetition draws, bit 1 the
//	            Queen may be placed on a player's first turn
//	byte        the result: 0 a draw, 1 White won, 2 Black won
//	uvarint     M, the number of moves (at most 4096)
//	M × uint16  the moves from the empty board, each as below
//	uvarint     S, the number of samples (at most M+1)
//	S × sample  uvarint: the sample's ply less the previous sample's ply
//	            (the first's ply itself); varint: the score
//
// with no byte left over. A sample is the position after its ply moves (0
// to M, each sample's ply above the one before), scored by a search of
// the file's depth from the side to move's point of view, in the native
// engine's units (ai.Evaluate's); the result is the game's as its source
// recorded it (a draw by a move cap included), which a reader turns into
// the side to move's: 1 won, ½ drawn, 0 lost. Unused bits are zero.
//
// A move is a uint16 written as UHP's MoveString spells a move, so that
// the file does not depend on how core numbers its cells: bits 0-4 the
// piece that moves, bits 5-9 the reference piece, bits 10-12 where the
// piece goes relative to the reference: 0 to 5 the reference's neighbour
// to the east, south-east, south-west, west, north-west and north-east
// (UHP's "ref-", "ref\", "/ref", "-ref", "\ref" and "ref/"), 6 on top of
// the reference's stack; bits 13-15 zero. The first move of a game has
// reference 31 and relation 0; a pass is 0xFFFF. Pieces are numbered
// colour × 14 + slot (White 0, Black 1), the slots in the order Q, S1, S2,
// B1, B2, G1, G2, G3, A1, A2, A3, M, L, P. Any reference next to the
// destination may be written; the writer takes the top piece of the
// destination, or else of its first occupied neighbour, east first and
// clockwise, with the moving piece lifted off the board.
//
// A file is appended to record by record, each in one write: a run that
// is killed leaves at worst the last record cut short, which Resume drops.
package dataset

package core

import (
	"math/bits"
	"strconv"
)

// Move is one turn: a piece and the cell it ends on, or a pass. A move is
// identified by its effect alone, so two routes to one cell, or a piece that
// could either walk or be thrown by a Pillbug to the same cell, are the same
// move. Moves fit in 16 bits: the cell in bits 0-9, the piece in bits 10-14.
type Move uint16

// Pass is the move of a player who has no other move.
const Pass Move = 0x8000

// NoMove is the zero-information move, returned where there is none.
const NoMove Move = 0xFFFF

// MakeMove returns the move of piece p to cell to.
func MakeMove(p Piece, to Cell) Move { return Move(uint16(p)<<10 | uint16(to)) }

// Piece returns the piece that moves.
func (m Move) Piece() Piece { return Piece(m >> 10 & 31) }

// To returns the cell where the piece ends.
func (m Move) To() Cell { return Cell(m & cellMask) }

// Result is the outcome of a game, or InProgress while it goes on.
type Result uint8

// The outcomes.
const (
	InProgress Result = iota
	Draw
	WhiteWins
	BlackWins
)

// ScoreFor is what the outcome scores for the player c, as match tables
// and training labels count it: 1 won, 0 lost, ½ drawn (and ½ while the
// game goes on, when nobody has won).
func (r Result) ScoreFor(c Color) float64 {
	switch {
	case r == WhiteWins && c == White, r == BlackWins && c == Black:
		return 1
	case r == WhiteWins, r == BlackWins:
		return 0
	}
	return 0.5
}

// String names the outcome as the notation's game states do (GameState's
// names, which it takes so that they are written once): InProgress, Draw,
// WhiteWins or BlackWins.
func (r Result) String() string {
	var s GameState
	switch r {
	case InProgress:
		s = StateInProgress
	case Draw:
		s = StateDraw
	case WhiteWins:
		s = StateWhiteWins
	case BlackWins:
		s = StateBlackWins
	default:
		return "Result(" + strconv.Itoa(int(r)) + ")"
	}
	return s.String()
}

// record is what Undo needs to take a move back, plus the key of the
// position the move led to, for the repetition rule (and for Undo of the
// next move, which restores it).
type record struct {
	move          Move
	from          Cell
	prevResult    Result
	prevLastMoved Piece
	key           uint64
	// prevCut and prevCutKnown are the cut-set memo of the position
	// the move was played from, given back by Undo.
	prevCut      uint32
	prevCutKnown bool
	// prevEuler and prevRuns are the Game's euler and runs before the
	// move, which Undo restores rather than recomputes.
	prevEuler int32
	prevRuns  uint32
}

// Game is a game of Hive: the position, its history and the rules. Play and
// Undo change it in place without allocating (once the history has grown to
// the game's length), and keep its Zobrist key up to date.
type Game struct {
	gameType   GameType
	repetition bool
	queenFirst bool // the Queen may be placed on a player's first turn

	// height counts the pieces on each cell, top names the uppermost one;
	// under links each piece to the one it covers, so a stack is a list.
	height  [gridCells]uint8
	top     [gridCells]Piece
	occ     [gridCells]uint8 // one bit per occupied neighbour, bit d for direction d
	pos     [NumPieces]Cell
	under   [NumPieces]Piece
	inHand  [2]uint16 // slots not yet placed, per colour
	onBoard uint32    // pieces on the board, one bit per piece

	ply       int   // plies played, counting those before a set-up start position
	lastMoved Piece // the piece the last turn moved or placed; it may not move now
	result    Result
	key       uint64 // PositionKey
	startKey  uint64 // the PositionKey of the start position
	// start is the position the game was set up at (NewGameAt), nil for a
	// game from the empty board; it is never changed, so clones share it.
	start   *Position
	history []record

	// cut memoizes cutPieces for the current position while cutKnown:
	// a search asks for it twice at a node (the evaluation's mobility,
	// then move generation) and again when it comes back to the node
	// from a child. Play forgets it, Undo restores the parent's.
	cut      uint32
	cutKnown bool
	// euler is the Euler characteristic V - E + T of the occupied cells
	// and runs the top pieces of the cells whose occupied neighbours form
	// two runs or more: what findCutPieces reads, kept up to date by lift
	// and drop (at a few neighbours per move) rather than counted over the
	// whole hive at every position.
	euler int
	runs  uint32
	// tops has the pieces on top of their cells and stacked those on top
	// of a stack (height two or more), kept up to date by stack and
	// unstack: what Mobility reads to tell covered and pinned pieces
	// apart without looking at each.
	tops, stacked uint32

	gen generator
}

// GameOption adjusts a new game.
type GameOption func(*Game)

// RepetitionDraw turns the threefold-repetition draw on or off. It is on by
// default, as on the largest online Hive server; off, the game ends only by
// surrounding a Queen, which is the reference engine Mzinga's behaviour.
func RepetitionDraw(on bool) GameOption { return func(g *Game) { g.repetition = on } }

// QueenOnFirstTurn allows or forbids the Queen Bee on a player's first
// turn. UHP and hivebridge forbid it (the tournament opening, the default);
// BoardSpace and hivegame.com allow it in some games, which a game record
// read from them then needs to replay.
func QueenOnFirstTurn(allowed bool) GameOption { return func(g *Game) { g.queenFirst = allowed } }

// QueenOnFirstTurnAllowed reports whether the Queen may be placed on a
// player's first turn in this game (QueenOnFirstTurn).
func (g *Game) QueenOnFirstTurnAllowed() bool { return g.queenFirst }

// NewGame returns a game of type t at its start.
func NewGame(t GameType, opts ...GameOption) *Game {
	g := &Game{gameType: t, repetition: true, lastMoved: NoPiece}
	for i := range g.top {
		g.top[i] = NoPiece
	}
	for p := range g.pos {
		g.pos[p] = NoCell
		g.under[p] = NoPiece
	}
	hand := t.slotMask()
	g.inHand = [2]uint16{hand, hand}
	g.key = 0
	g.startKey = g.key
	g.history = make([]record, 0, 256)
	for _, o := range opts {
		o(g)
	}
	return g
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.history = append(make([]record, 0, cap(g.history)), g.history...)
	return &c
}

// CopyTo makes dst an independent copy of g and returns it, reusing dst's
// storage; a nil dst gets a new game. A game is about 16 KB: a searcher or
// a pooled engine handed a position at every request copies it into the
// game it already holds, rather than giving the garbage collector 16 KB a
// request to find.
func (g *Game) CopyTo(dst *Game) *Game {
	if dst == nil {
		return g.Clone()
	}
	history := dst.history[:0]
	*dst = *g
	dst.history = append(history, g.history...)
	return dst
}

// Type returns the game type.
func (g *Game) Type() GameType { return g.gameType }

// RepetitionDrawOn reports whether threefold repetition ends the game.
func (g *Game) RepetitionDrawOn() bool { return g.repetition }

// SetRepetitionDraw switches the threefold-repetition draw on or off for the
// moves that follow.
func (g *Game) SetRepetitionDraw(on bool) { g.repetition = on }

// ToMove returns the colour whose turn it is.
func (g *Game) ToMove() Color { return Color(g.ply & 1) }

// Ply returns the number of turns played since the start of the game.
func (g *Game) Ply() int { return g.ply }

// TurnNumber returns the number of the current turn, counted per player as
// the notation does: White[1], Black[1], White[2], ...
func (g *Game) TurnNumber() int { return g.ply/2 + 1 }

// Result returns the outcome so far.
func (g *Game) Result() Result { return g.result }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.result != InProgress }

// PositionKey returns the Zobrist key of the position as the
// threefold-repetition rule counts it, which is hivebridge's one definition
// of "the same position": the board, that is for each cell the colour and
// bug of each piece of its stack, bottom to top, and the side to move. The
// pieces in hand follow from the board. Two things are left out on purpose:
//
//   - The pieces' numbers: two Ants that trade cells leave the same position,
//     as a player looking at the board sees it.
//   - Which piece moved last, although with a Pillbug in play that piece may
//     neither move nor be thrown this turn (as en passant changes the legal
//     moves in chess). The engines hivebridge referees count repetitions by
//     board and side to move alone (nokamute, the most used one with the
//     rule, does), the restriction lasts a single turn, and a shuffle that
//     brings one board back again and again is what the rule exists to end;
//     counting the last-moved piece let such shuffles run on (bM placed the
//     first time, bA2 moved the next) while the engines had declared the
//     game drawn.
//
// Hash keeps the finer distinction for tables.
func (g *Game) PositionKey() uint64 { return g.key }

// Hash returns the key of the position for transposition tables:
// PositionKey and, with a Pillbug in play, the cell of the piece that may
// not move this turn, since that changes which moves are legal and so what
// a search finds. Like PositionKey it ignores the pieces' numbers: positions
// that differ only by them have the same value, and a table's move is only
// a hint to try first among the generated moves.
func (g *Game) Hash() uint64 {
	if g.gameType&WithPillbug == 0 || g.lastMoved == NoPiece {
		return g.key
	}
	return g.key ^ stunnedKey(g.pos[g.lastMoved])
}

// History returns the moves played since the start position, oldest first.
func (g *Game) History() []Move {
	moves := make([]Move, len(g.history))
	for i, r := range g.history {
		moves[i] = r.move
	}
	return moves
}

// MovesPlayed returns the number of moves Undo can take back.
func (g *Game) MovesPlayed() int { return len(g.history) }

// LastMoved returns the piece the previous turn moved or placed, which may
// neither move nor be thrown now, or NoPiece.
func (g *Game) LastMoved() Piece { return g.lastMoved }

// Position returns the cell of piece p, or NoCell while it is in hand.
func (g *Game) Position(p Piece) Cell { return g.pos[p] }

// InHand reports whether piece p is still to be placed.
func (g *Game) InHand(p Piece) bool { return g.pos[p] == NoCell }

// InPlay reports whether piece p belongs to this game type.
func (g *Game) InPlay(p Piece) bool { return p < NumPieces && g.gameType.Has(p.Bug()) }

// Height returns the number of pieces stacked on cell c.
func (g *Game) Height(c Cell) int { return int(g.height[c]) }

// Top returns the uppermost piece on cell c, or NoPiece.
func (g *Game) Top(c Cell) Piece { return g.top[c] }

// Under returns the piece directly beneath p, or NoPiece.
func (g *Game) Under(p Piece) Piece { return g.under[p] }

// Level returns how many pieces lie beneath piece p.
func (g *Game) Level(p Piece) int {
	n := 0
	for q := g.under[p]; q != NoPiece; q = g.under[q] {
		n++
	}
	return n
}

// OnBoard returns the pieces on the board, one bit per piece.
func (g *Game) OnBoard() uint32 { return g.onBoard }

// Play plays m, which must be legal (see Legal and RuleBroken); it is the
// fast path for search and perft and checks nothing.
func (g *Game) Play(m Move) {
	rec := record{move: m, from: NoCell, prevResult: g.result, prevLastMoved: g.lastMoved, prevCut: g.cut, prevCutKnown: g.cutKnown,
		prevEuler: int32(g.euler), prevRuns: g.runs}
	g.cutKnown = false
	key := g.key ^ sideToMoveKey
	moved := NoPiece
	if m != Pass {
		p, to := m.Piece(), m.To()
		from := g.pos[p]
		rec.from = from
		if from == NoCell {
			g.inHand[p.Color()] &^= 1 << (p % PiecesPerColor)
			g.onBoard |= 1 << p
		} else {
			key ^= pieceKey(p, from, g.height[from]-1)
			g.lift(p, from)
		}
		key ^= pieceKey(p, to, g.height[to])
		g.drop(p, to)
		moved = p
	}
	g.lastMoved = moved
	g.key = key
	g.ply++
	rec.key = key
	g.history = append(g.history, rec)
	g.result = g.judge()
}

// Undo takes back the last move played. It does nothing at the start
// position.
func (g *Game) Undo() {
	n := len(g.history) - 1
	if n < 0 {
		return
	}
	rec := &g.history[n]
	if rec.move != Pass {
		p := rec.move.Piece()
		g.unstack(p, rec.move.To())
		if rec.from == NoCell {
			g.pos[p] = NoCell
			g.inHand[p.Color()] |= 1 << (p % PiecesPerColor)
			g.onBoard &^= 1 << p
		} else {
			g.stack(p, rec.from)
		}
		g.euler, g.runs = int(rec.prevEuler), rec.prevRuns
	}
	g.lastMoved = rec.prevLastMoved
	g.result = rec.prevResult
	g.cut, g.cutKnown = rec.prevCut, rec.prevCutKnown
	g.key = g.startKey
	if n > 0 {
		g.key = g.history[n-1].key
	}
	g.ply--
	g.history = g.history[:n]
}

// lift takes the top piece p off cell c, and keeps euler and runs up to
// date.
func (g *Game) lift(p Piece, c Cell) {
	g.unstack(p, c)
	g.runs &^= 1 << p
	if g.height[c] == 0 {
		g.euler -= cellEuler(g.occ[c])
		g.updateRunsAround(c)
	} else {
		g.updateRuns(c)
	}
}

// drop puts piece p on top of cell c, and keeps euler and runs up to
// date.
func (g *Game) drop(p Piece, c Cell) {
	if g.height[c] != 0 {
		g.runs &^= 1 << g.top[c]
	}
	g.stack(p, c)
	if g.height[c] == 1 {
		g.euler += cellEuler(g.occ[c])
		g.updateRunsAround(c)
	}
	g.updateRuns(c)
}

// unstack takes the top piece p off cell c, leaving euler and runs as
// they were: Undo restores those as the move found them.
func (g *Game) unstack(p Piece, c Cell) {
	g.height[c]--
	g.tops &^= 1 << p
	g.stacked &^= 1 << p
	under := g.under[p]
	switch h := g.height[c]; {
	case h == 0:
		g.vacate(c)
	case h == 1:
		g.tops |= 1 << under
	default:
		g.tops |= 1 << under
		g.stacked |= 1 << under
	}
	g.top[c] = under
	g.under[p] = NoPiece
}

// stack puts piece p on top of cell c, leaving euler and runs as they
// were (see unstack).
func (g *Game) stack(p Piece, c Cell) {
	if g.height[c] == 0 {
		g.occupy(c)
	} else {
		g.tops &^= 1 << g.top[c]
		g.stacked &^= 1 << g.top[c]
		g.stacked |= 1 << p
	}
	g.tops |= 1 << p
	g.under[p] = g.top[c]
	g.top[c] = p
	g.height[c]++
	g.pos[p] = c
}

// cellEuler is what an occupied cell whose occupied neighbours are occ
// adds to V - E + T: itself, its edges to them, and the triangles it
// closes with two of them that are neighbours of each other (d and d+1).
func cellEuler(occ uint8) int {
	return 1 - bits.OnesCount8(occ) + bits.OnesCount8(occ&(occ>>1|occ<<5)&63)
}

// multiRunMasks has bit occ set when the occupied neighbours occ of a cell
// form two runs or more: when the neighbours less the pairs of
// neighbouring neighbours (d and d+1) are two or more, unless all six are
// occupied (TestMultiRunMasks counts them).
const multiRunMasks uint64 = 0x4747f742efe2e20

// updateRuns records in g.runs whether the occupied cell c has two runs
// of occupied neighbours or more.
func (g *Game) updateRuns(c Cell) { g.runs = g.withRuns(g.runs, c) }

// withRuns returns runs with the bit of the occupied cell c's top piece
// set as updateRuns sets it.
func (g *Game) withRuns(runs uint32, c Cell) uint32 {
	t := g.top[c] & 31
	return runs&^(1<<t) | uint32(multiRunMasks>>(g.occ[c]&63)&1)<<t
}

// updateRunsAround calls updateRuns on the occupied neighbours of c (in a
// register, not through memory from one to the next).
func (g *Game) updateRunsAround(c Cell) {
	runs := g.runs
	for occ := g.occ[c]; occ != 0; occ &= occ - 1 {
		runs = g.withRuns(runs, c.Neighbor(Direction(bits.TrailingZeros8(occ))))
	}
	g.runs = runs
}

// occupy tells the neighbours of c that it is now occupied; each sees c
// in the direction opposite to the one in which c sees it.
func (g *Game) occupy(c Cell) {
	g.occ[c.Neighbor(East)] |= 1 << West
	g.occ[c.Neighbor(SouthEast)] |= 1 << NorthWest
	g.occ[c.Neighbor(SouthWest)] |= 1 << NorthEast
	g.occ[c.Neighbor(West)] |= 1 << East
	g.occ[c.Neighbor(NorthWest)] |= 1 << SouthEast
	g.occ[c.Neighbor(NorthEast)] |= 1 << SouthWest
}

// vacate tells the neighbours of c that it is now empty.
func (g *Game) vacate(c Cell) {
	g.occ[c.Neighbor(East)] &^= 1 << West
	g.occ[c.Neighbor(SouthEast)] &^= 1 << NorthWest
	g.occ[c.Neighbor(SouthWest)] &^= 1 << NorthEast
	g.occ[c.Neighbor(West)] &^= 1 << East
	g.occ[c.Neighbor(NorthWest)] &^= 1 << SouthEast
	g.occ[c.Neighbor(NorthEast)] &^= 1 << SouthWest
}

// queenOf returns the Queen of colour c.
func queenOf(c Color) Piece { return Piece(c) * PiecesPerColor }

// surrounded reports whether all six neighbours of c are occupied: its
// neighbour mask, which Play keeps, is full.
func (g *Game) surrounded(c Cell) bool { return g.occ[c] == 63 }

// judge returns the result of the position just reached: a side whose Queen
// is surrounded loses, both at once is a draw, and so is the third
// occurrence of one position (see PositionKey) when the repetition rule is
// on.
func (g *Game) judge() Result {
	whiteLost, blackLost := false, false
	if c := g.pos[queenOf(White)]; c != NoCell {
		whiteLost = g.surrounded(c)
	}
	if c := g.pos[queenOf(Black)]; c != NoCell {
		blackLost = g.surrounded(c)
	}
	switch {
	case whiteLost && blackLost:
		return Draw
	case whiteLost:
		return BlackWins
	case blackLost:
		return WhiteWins
	}
	if g.repetition && g.repeatedThrice() {
		return Draw
	}
	return InProgress
}

// repeatedThrice reports whether the current position (its PositionKey)
// occurred twice before. Placing a piece can never be undone by later play,
// so only the positions since the last placement can repeat.
func (g *Game) repeatedThrice() bool {
	seen := 1
	n := len(g.history) - 1
	for i := n; i >= 0; i-- {
		r := &g.history[i]
		if i != n && r.key == g.key {
			seen++
			if seen == 3 {
				return true
			}
		}
		if r.move != Pass && r.from == NoCell {
			return false
		}
	}
	if n >= 0 && g.startKey == g.key {
		seen++
	}
	return seen >= 3
}

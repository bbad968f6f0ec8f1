package core

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// A game need not start from the empty board: a saved puzzle, or a
// controller that sends only the board, gives a position without the moves
// that led to it. NewGameAt starts a game there, after checking that the
// position is one that play can reach, so that a protocol can never hand
// the searcher a board the rules could not produce (a split hive, a Queen
// stacked on an Ant), on which move generation would answer nonsense.

// Position is a game's position without its history: the stacks, whose
// turn it is, and the piece moved last. Coordinates are axial, as in the
// rest of the package (q grows to the east, r to the south-east; see
// CellAt); only their differences mean anything to the rules, but a game
// keeps the coordinates it was set up with (StartPosition), so that a
// protocol measuring absolute positions from them gets its own back.
type Position struct {
	Type   GameType
	Stacks []Stack
	// ToMove and Turn are the TurnString of the notation, White[3] or
	// Black[12]: the side to move and its turn number, from 1.
	ToMove Color
	Turn   int
	// LastMoved is the piece the previous turn moved, placed or threw, or
	// NoPiece for none (a pass, the start, or not known). With the Pillbug
	// it matters: that piece may neither move nor be thrown now, and a
	// Pillbug or Mosquito that was itself thrown may not throw.
	LastMoved Piece
}

// Stack is one occupied cell of a Position.
type Stack struct {
	Q, R   int
	Pieces []Piece // bottom to top
}

// Ply returns the number of turns played before the position: two per turn
// number, plus one when Black is to move.
func (p Position) Ply() int { return 2*(p.Turn-1) + int(p.ToMove&1) }

// SetUpError tells why a Position cannot be the position of a game.
type SetUpError struct {
	Msg string
}

func (e *SetUpError) Error() string { return e.Msg }

func setUpError(format string, args ...any) error {
	return &SetUpError{Msg: fmt.Sprintf(format, args...)}
}

// maxTurn bounds the turn number of a set-up position, and maxCoord its
// coordinates; both only keep the arithmetic far from overflowing.
const (
	maxTurn  = 1 << 20
	maxCoord = 1 << 24
)

// NewGameAt returns a game that starts at pos, or a *SetUpError naming the
// first thing about pos that play cannot reach:
//
//   - a piece that does not exist, is not in the game type (an expansion
//     bug in a game without it), or is on the board twice; a bug's piece on
//     the board while a lower-numbered one of the same bug is in hand
//     (pieces of one bug enter play in number order);
//   - an empty stack, two stacks on one cell, or a hive in several parts
//     (One Hive);
//   - a piece above another that is neither a Beetle nor a Mosquito (no
//     other bug climbs, and placements and throws land on the ground); a
//     Mosquito above another piece with no Beetle on the board (it climbs
//     only as a Beetle it touches, and a Beetle never leaves the board
//     once placed); a piece above another whose owner's Queen is in hand
//     (no piece moves before its Queen is placed);
//   - a Queen in hand with four or more of its player's pieces on the
//     board (the Queen is placed by a player's fourth turn), or a Queen
//     that is its player's only piece (never placed on a first turn);
//   - a turn number too low for the pieces on the board: a player needs a
//     turn for each piece placed and one more for each piece of theirs
//     above another; a player who has had a turn has a piece on the board
//     (a first turn always has a placement). A turn number higher than the
//     pieces need is fine: passes exist;
//   - a LastMoved piece that is not on the board or is covered; or one of
//     the side to move, which only a throw by the opponent's Pillbug (or
//     Mosquito beside one) moves, and then it lies on the ground next to
//     that thrower, whose owner's Queen is on the board.
//
// Every position that play reaches is accepted, and from an accepted
// position play reaches only accepted ones.
//
// The game has no history: Undo does nothing at the start position, and
// the repetition rule counts from it. Its PositionKey and Hash are those of
// the same position reached by play at the same cells (CellAt(q, r)), so
// the two games search alike.
func NewGameAt(pos Position, opts ...GameOption) (*Game, error) {
	if err := checkTurn(pos); err != nil {
		return nil, err
	}
	start := normalize(pos)
	onBoard, err := checkPieces(start)
	if err != nil {
		return nil, err
	}
	cells, err := placeStacks(start)
	if err != nil {
		return nil, err
	}
	if err := checkClimbers(start, onBoard); err != nil {
		return nil, err
	}
	g := NewGame(pos.Type, opts...)
	if err := checkQueensAndTurns(start, onBoard, g.queenFirst); err != nil {
		return nil, err
	}
	g.setUp(start, cells)
	if err := g.checkLastMoved(); err != nil {
		return nil, err
	}
	return g, nil
}

// checkTurn checks the game type and the side to move and turn number by
// themselves.
func checkTurn(pos Position) error {
	switch {
	case pos.Type >= AllGameTypes:
		return setUpError("game type %d does not exist", pos.Type)
	case pos.ToMove > Black:
		return setUpError("side to move %d is neither White nor Black", pos.ToMove)
	case pos.Turn < 1:
		return setUpError("turn number %d: turns count from 1", pos.Turn)
	case pos.Turn > maxTurn:
		return setUpError("turn number %d is beyond any game (at most %d)", pos.Turn, maxTurn)
	}
	return nil
}

// normalize returns a copy of pos that shares no memory with it, its stacks
// sorted by row, then column, so that equal positions compare equal.
func normalize(pos Position) *Position {
	start := pos
	start.Stacks = nil
	if len(pos.Stacks) > 0 {
		start.Stacks = make([]Stack, len(pos.Stacks))
	}
	for i, s := range pos.Stacks {
		start.Stacks[i] = Stack{Q: s.Q, R: s.R, Pieces: slices.Clone(s.Pieces)}
	}
	slices.SortStableFunc(start.Stacks, func(a, b Stack) int {
		return cmp.Or(cmp.Compare(a.R, b.R), cmp.Compare(a.Q, b.Q))
	})
	return &start
}

// checkPieces checks every piece by itself and against the others, and
// returns the set of pieces on the board.
func checkPieces(pos *Position) (uint32, error) {
	var onBoard uint32
	for _, s := range pos.Stacks {
		if s.Q < -maxCoord || s.Q > maxCoord || s.R < -maxCoord || s.R > maxCoord {
			return 0, setUpError("the stack at %d,%d is beyond the board's reach (coordinates at most %d)", s.Q, s.R, maxCoord)
		}
		if len(s.Pieces) == 0 {
			return 0, setUpError("the stack at %d,%d has no pieces", s.Q, s.R)
		}
		for _, p := range s.Pieces {
			switch {
			case p >= NumPieces:
				return 0, setUpError("piece %d does not exist", p)
			case !pos.Type.Has(p.Bug()):
				return 0, setUpError("%s is not in the game: its game type has no %s", p, p.Bug())
			case onBoard&(1<<p) != 0:
				return 0, setUpError("%s is on the board twice", p)
			}
			onBoard |= 1 << p
		}
	}
	for all := onBoard; all != 0; all &= all - 1 {
		p := Piece(bits.TrailingZeros32(all))
		if p.Number() > 1 && onBoard&(1<<(p-1)) == 0 {
			return 0, setUpError("%s is on the board but %s is not: pieces of one bug are placed in number order", p, p-1)
		}
	}
	return onBoard, nil
}

// axialCell is a cell in unbounded axial coordinates.
type axialCell struct{ q, r int }

// placeStacks checks that the stacks stand on distinct cells and form one
// hive, and returns the core cell of each. The hive is checked in axial
// coordinates, not on the wrapping grid, where stacks far apart could meet;
// once it is one piece of at most 28 cells, no two of its cells, nor of
// their neighbours, share a grid cell (see hex.go).
func placeStacks(pos *Position) ([]Cell, error) {
	at := make(map[axialCell]int, len(pos.Stacks))
	for i, s := range pos.Stacks {
		a := axialCell{s.Q, s.R}
		if j, ok := at[a]; ok {
			return nil, setUpError("two stacks at %d,%d: %s and %s", s.Q, s.R, stackName(pos.Stacks[j]), stackName(s))
		}
		at[a] = i
	}
	if len(pos.Stacks) > 0 {
		reached := make([]bool, len(pos.Stacks))
		reached[0] = true
		queue := []int{0}
		for len(queue) > 0 {
			s := pos.Stacks[queue[0]]
			queue = queue[1:]
			for d := Direction(0); d < NumDirections; d++ {
				dq, dr := d.Axial()
				if j, ok := at[axialCell{s.Q + dq, s.R + dr}]; ok && !reached[j] {
					reached[j] = true
					queue = append(queue, j)
				}
			}
		}
		if i := slices.Index(reached, false); i >= 0 {
			return nil, setUpError("the hive is split: %s and %s are not joined by a chain of pieces (One Hive)",
				stackName(pos.Stacks[0]), stackName(pos.Stacks[i]))
		}
	}
	cells := make([]Cell, len(pos.Stacks))
	for i, s := range pos.Stacks {
		cells[i] = CellAt(s.Q, s.R)
	}
	return cells, nil
}

// stackName names a stack by its top piece, the one a player sees.
func stackName(s Stack) string { return s.Pieces[len(s.Pieces)-1].String() }

// ownPieces returns the pieces of colour c among set, one bit per slot.
func ownPieces(set uint32, c Color) uint32 {
	return set >> (PiecesPerColor * uint(c)) & (1<<PiecesPerColor - 1)
}

// checkClimbers checks every piece above another: only a Beetle or a
// Mosquito climbs, a Mosquito only as a Beetle, and no piece moves before
// its Queen is placed.
func checkClimbers(pos *Position, onBoard uint32) error {
	beetles := false
	for _, c := range [2]Color{White, Black} {
		first, _ := MakePiece(c, Beetle, 1)
		beetles = beetles || onBoard&(1<<first) != 0
	}
	for _, s := range pos.Stacks {
		for i, p := range s.Pieces[1:] {
			below := s.Pieces[i]
			switch {
			case p.Bug() != Beetle && p.Bug() != Mosquito:
				return setUpError("%s is on top of %s, but only a Beetle, or a Mosquito moving as one, climbs onto the hive", p, below)
			case p.Bug() == Mosquito && !beetles:
				return setUpError("%s is on top of %s, but a Mosquito climbs only as a Beetle it touches, and no Beetle is on the board", p, below)
			case onBoard&(1<<queenOf(p.Color())) == 0:
				return setUpError("%s is on top of %s, but %s's Queen Bee is not on the board: no piece moves before its Queen is placed", p, below, p.Color())
			}
		}
	}
	return nil
}

// checkQueensAndTurns checks the Queen rules of the opening and that each
// player has had the turns their pieces need.
func checkQueensAndTurns(pos *Position, onBoard uint32, queenFirst bool) error {
	var climbed [2]int
	for _, s := range pos.Stacks {
		for _, p := range s.Pieces[1:] {
			climbed[p.Color()]++
		}
	}
	ply := pos.Ply()
	turnsHad := [2]int{(ply + 1) / 2, ply / 2}
	for _, c := range [2]Color{White, Black} {
		placed := bits.OnesCount32(ownPieces(onBoard, c))
		queenIn := onBoard&(1<<queenOf(c)) != 0
		switch {
		case !queenIn && placed >= 4:
			return setUpError("%s has %d pieces on the board but not its Queen Bee, which is placed by a player's fourth turn", c, placed)
		case queenIn && placed == 1 && !queenFirst:
			return setUpError("%s's Queen Bee is its only piece on the board, but no Queen is placed on a player's first turn", c)
		case turnsHad[c] < placed+climbed[c]:
			need := "place its " + count(placed, "piece")
			if climbed[c] > 0 {
				need += fmt.Sprintf(" and climb %d of them onto the hive", climbed[c])
			}
			return setUpError("at %s[%d] %s has had %s, too few to %s", pos.ToMove, pos.Turn, c, count(turnsHad[c], "turn"), need)
		case turnsHad[c] > 0 && placed == 0:
			return setUpError("at %s[%d] %s has had %s but has no piece on the board, and a first turn is never a pass", pos.ToMove, pos.Turn, c, count(turnsHad[c], "turn"))
		}
	}
	return nil
}

// count writes n things, in the plural unless n is 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// setUp puts the checked position start on the new game's board, at
// cells, with the key that play would have given it.
func (g *Game) setUp(start *Position, cells []Cell) {
	for i, s := range start.Stacks {
		for _, p := range s.Pieces {
			g.key ^= pieceKey(p, cells[i], g.height[cells[i]])
			g.drop(p, cells[i])
			g.inHand[p.Color()] &^= 1 << (p % PiecesPerColor)
			g.onBoard |= 1 << p
		}
	}
	g.ply = start.Ply()
	if g.ply&1 != 0 {
		g.key ^= sideToMoveKey
	}
	g.lastMoved = start.LastMoved
	if len(start.Stacks) > 0 {
		g.start = start // the empty board at White[1] is a new game
	}
	g.startKey = g.key
	g.result = g.judge()
}

// checkLastMoved checks the piece moved last against the board set up.
func (g *Game) checkLastMoved() error {
	p := g.lastMoved
	if p == NoPiece {
		return nil
	}
	if p >= NumPieces {
		return setUpError("the piece moved last, %d, does not exist", p)
	}
	c := g.pos[p]
	switch {
	case c == NoCell:
		return setUpError("the piece moved last, %s, is not on the board", p)
	case g.top[c] != p:
		return setUpError("the piece moved last, %s, is under %s, but nothing has moved since it did", p, g.top[c])
	}
	me := g.ToMove()
	if p.Color() != me {
		return nil
	}
	thrower := me.Other()
	why := fmt.Sprintf("the piece moved last, %s, is %s's and %s is to move, so %s's Pillbug threw it", p, me, me, thrower)
	switch {
	case g.gameType&WithPillbug == 0:
		return setUpError("%s, but the game has no Pillbug", why)
	case g.height[c] != 1:
		return setUpError("%s, but it is on top of the hive and a thrown piece lands on the ground", why)
	case g.pos[queenOf(thrower)] == NoCell:
		return setUpError("%s, but %s's Queen Bee is not on the board: no piece moves before its Queen is placed", why, thrower)
	}
	for d := Direction(0); d < NumDirections; d++ {
		t := c.Neighbor(d)
		u := g.top[t]
		if u == NoPiece || u.Color() != thrower || g.height[t] != 1 {
			continue
		}
		if u.Bug() == Pillbug || u.Bug() == Mosquito && g.touchesBug(t, Pillbug) {
			return nil
		}
	}
	return setUpError("%s, but no Pillbug of %s's (nor Mosquito beside a Pillbug) stands on the ground next to it", why, thrower)
}

// SetUp reports whether the game started from a set-up position (see
// NewGameAt) rather than the empty board. A protocol that can describe a
// game only by its moves from the empty board cannot describe this one.
func (g *Game) SetUp() bool { return g.start != nil }

// StartPosition returns the position the game started from: the one it was
// set up with, or the empty board at White[1].
func (g *Game) StartPosition() Position {
	if g.start == nil {
		return Position{Type: g.gameType, ToMove: White, Turn: 1, LastMoved: NoPiece}
	}
	return *normalize(*g.start)
}

// StartKey returns the PositionKey of the start position: with the history,
// it tells two games apart that a history alone cannot, such as two set-up
// games with no move played yet.
func (g *Game) StartKey() uint64 { return g.startKey }

// CurrentPosition returns the position now, in the coordinates of the start
// position: the first piece of a game from the empty board stands at 0,0,
// and the pieces of a set-up position where they were set up. Every other
// cell is found by following the moves, since the cells of the wrapping
// grid alone do not tell how far a hive has drifted. NewGameAt of it gives
// a game with the same position, hash, moves and result (with a history
// that starts there).
func (g *Game) CurrentPosition() Position {
	replay := NewGame(g.gameType, RepetitionDraw(false))
	var at [NumPieces]axialCell
	if g.start != nil {
		cells := make([]Cell, len(g.start.Stacks))
		for i, s := range g.start.Stacks {
			cells[i] = CellAt(s.Q, s.R)
			for _, p := range s.Pieces {
				at[p] = axialCell{s.Q, s.R}
			}
		}
		replay.setUp(g.start, cells)
	}
	for _, r := range g.history {
		if r.move != Pass {
			at[r.move.Piece()] = replay.axialOf(r.move.To(), &at)
		}
		replay.Play(r.move)
	}
	pos := Position{Type: g.gameType, ToMove: g.ToMove(), Turn: g.TurnNumber(), LastMoved: g.lastMoved}
	for all := g.onBoard; all != 0; all &= all - 1 {
		p := Piece(bits.TrailingZeros32(all))
		c := g.pos[p]
		if g.top[c] != p {
			continue
		}
		s := Stack{Q: at[p].q, R: at[p].r, Pieces: make([]Piece, g.height[c])}
		for i, q := len(s.Pieces)-1, p; q != NoPiece; i, q = i-1, g.under[q] {
			s.Pieces[i] = q
		}
		pos.Stacks = append(pos.Stacks, s)
	}
	return *normalize(pos)
}

// axialOf returns the axial coordinates of cell c, on or next to the hive
// (the origin of an empty board), given those of every piece on the board.
func (g *Game) axialOf(c Cell, at *[NumPieces]axialCell) axialCell {
	if t := g.top[c]; t != NoPiece {
		return at[t]
	}
	for d := Direction(0); d < NumDirections; d++ {
		if t := g.top[c.Neighbor(d)]; t != NoPiece {
			dq, dr := d.Opposite().Axial()
			return axialCell{at[t].q + dq, at[t].r + dr}
		}
	}
	return axialCell{} // the first piece of the game, at the origin
}

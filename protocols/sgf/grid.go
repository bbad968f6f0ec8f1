package sgf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// BoardSpace's board (HiveGameBoard: HiveCols, HiveNInCol, isTorus) is a
// 26 by 26 rhombus of cells named by a column letter A..Z and a row number
// 1..26, which wraps around in both directions: Z is next to A and 26 next
// to 1 (hexBoard.YindexToBC, torusWrapRow). The first piece of a game goes
// to N 13 (legalDropDests: getCell('A'+ncols/2, ncols/2)).
const (
	gridSize  = 26
	gridCells = gridSize * gridSize
	noGrid    = -1
)

// gridCell is a cell of BoardSpace's board: column index (A = 0) times 26
// plus row index (row 1 = 0).
type gridCell int

func makeGridCell(col, row int) gridCell {
	col, row = wrap(col), wrap(row)
	return gridCell(col*gridSize + row)
}

func wrap(i int) int { return ((i % gridSize) + gridSize) % gridSize }

func (g gridCell) col() int { return int(g) / gridSize }
func (g gridCell) row() int { return int(g) % gridSize }

// String writes the cell as BoardSpace does: the column letter, a space
// and the row number (Hivemovespec.moveString, G.printCol(col)+" "+row).
func (g gridCell) String() string {
	return string(rune('A'+g.col())) + " " + strconv.Itoa(g.row()+1)
}

// startCell is where BoardSpace puts the first piece of a game: N 13.
const startCell gridCell = 13*gridSize + 12

// neighbor returns the neighbour of a BoardSpace cell in core direction
// d. hexBoard's dxs/dys give the neighbours of (col, row) as exitTo(i):
// 0 (-1,-1), 1 (-1,0), 2 (0,+1), 3 (+1,+1), 4 (+1,0), 5 (0,-1), which on
// screen (and in UHP's frame, which BoardSpace's direction marks share)
// are south-west, west, north-west, north-east, east and south-east: the
// column is the core's q and the row the core's -r. The notes (sgf.md,
// section 8.1) check this against all 458 placed and moved pieces of the
// sample records.
func (g gridCell) neighbor(d core.Direction) gridCell {
	dc, dr := 0, 0
	switch d {
	case core.East:
		dc = 1
	case core.SouthEast:
		dr = -1
	case core.SouthWest:
		dc, dr = -1, -1
	case core.West:
		dc = -1
	case core.NorthWest:
		dr = 1
	case core.NorthEast:
		dc, dr = 1, 1
	}
	return makeGridCell(g.col()+dc, g.row()+dr)
}

// parseGridCell reads a cell written as two tokens, column letter and row
// number.
func parseGridCell(col, row string) (gridCell, error) {
	if len(col) != 1 || !isIDStart(col[0]) {
		return 0, fmt.Errorf("%q is not a column of BoardSpace's board (A to Z)", col)
	}
	c := int(upper(col[0]) - 'A')
	r, err := strconv.Atoi(row)
	if err != nil || r < 1 || r > gridSize || row[0] == '+' {
		return 0, fmt.Errorf("%q is not a row of BoardSpace's board (1 to 26)", row)
	}
	return makeGridCell(c, r-1), nil
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// gridMap ties BoardSpace's cells to the core's while a game is replayed
// or written. A record's coordinates are absolute on a wrapping board of
// 26, the core's on a wrapping board of 32, so neither can be computed from
// the other by a formula once the hive has drifted: instead each cell is
// found from a neighbour whose two names are both known. That holds as
// long as the hive does not reach around BoardSpace's board onto itself,
// which would take a hive 26 cells across; gridMap reports that rather
// than mix up cells.
type gridMap struct {
	count [gridCells]uint8     // pieces on each BoardSpace cell
	cell  [gridCells]core.Cell // the core cell of each occupied BoardSpace cell
	at    [core.NumPieces]gridCell
}

func newGridMap() *gridMap {
	m := &gridMap{}
	for i := range m.at {
		m.at[i] = noGrid
	}
	return m
}

// errWraps is the error of a hive that reaches around BoardSpace's board.
func errWraps(g gridCell) error {
	return fmt.Errorf("at %s the hive reaches around BoardSpace's 26 by 26 board onto itself", g)
}

// coreCell returns the core cell of BoardSpace cell d in game g: the cell
// of its pieces if it has any, the cell the first piece goes to on an
// empty board, and otherwise the cell next to an occupied neighbour.
func (m *gridMap) coreCell(g *core.Game, d gridCell) (core.Cell, error) {
	if m.count[d] > 0 {
		return m.cell[d], nil
	}
	if g.OnBoard() == 0 {
		return core.Origin, nil
	}
	found := core.NoCell
	for dir := core.Direction(0); dir < core.NumDirections; dir++ {
		n := d.neighbor(dir)
		if m.count[n] == 0 {
			continue
		}
		c := m.cell[n].Neighbor(dir.Opposite())
		if found != core.NoCell && c != found {
			return core.NoCell, errWraps(d)
		}
		found = c
	}
	if found == core.NoCell {
		return core.NoCell, fmt.Errorf("%s does not touch the hive", d)
	}
	if g.Height(found) > 0 {
		return core.NoCell, errWraps(d)
	}
	for dir := core.Direction(0); dir < core.NumDirections; dir++ {
		if t := g.Top(found.Neighbor(dir)); t != core.NoPiece && m.at[t] != d.neighbor(dir) {
			return core.NoCell, errWraps(d)
		}
	}
	return found, nil
}

// gridCellOf returns the BoardSpace cell of core cell c in game g, the
// other way round from coreCell.
func (m *gridMap) gridCellOf(g *core.Game, c core.Cell) (gridCell, error) {
	if t := g.Top(c); t != core.NoPiece {
		return m.at[t], nil
	}
	if g.OnBoard() == 0 {
		return startCell, nil
	}
	found := gridCell(noGrid)
	for dir := core.Direction(0); dir < core.NumDirections; dir++ {
		t := g.Top(c.Neighbor(dir))
		if t == core.NoPiece {
			continue
		}
		d := m.at[t].neighbor(dir.Opposite())
		if found != noGrid && d != found {
			return noGrid, errWraps(d)
		}
		found = d
	}
	if found == noGrid {
		return noGrid, fmt.Errorf("the cell does not touch the hive")
	}
	if m.count[found] > 0 {
		return noGrid, errWraps(found)
	}
	for dir := core.Direction(0); dir < core.NumDirections; dir++ {
		if n := found.neighbor(dir); m.count[n] > 0 && m.cell[n] != c.Neighbor(dir) {
			return noGrid, errWraps(found)
		}
	}
	return found, nil
}

// moved records that piece p now lies on BoardSpace cell d, core cell c.
func (m *gridMap) moved(p core.Piece, d gridCell, c core.Cell) {
	if from := m.at[p]; from != noGrid {
		m.count[from]--
	}
	m.at[p] = d
	m.count[d]++
	m.cell[d] = c
}

// BoardSpace's piece names (HivePiece: standardBugName, exactBugName) are
// the colour, w or b, the bug's letter and its number: wQ, bS1, and wM1,
// wL1, wP1 for the bugs a player has one of, which BoardSpace numbers 1
// (they are "potentially unique"). Only in the direction marks are those
// written without the 1 (bugName with shortenUniqueNames). HivePiece.getBug
// reads either case, with or without that 1. Records before about 2016
// leave the colour out ("g1", "q", "A1"); the action then says it.

// bugName is a piece token read from a record: the piece if the token
// names its colour, or else its bug and number.
type bugName struct {
	piece   core.Piece // NoPiece if the token has no colour
	bug     core.Bug
	number  int
	colored bool
}

// parseBug reads a piece token: colour (optional), bug letter, number
// (optional).
func parseBug(tok string) (bugName, error) {
	var b bugName
	s := tok
	colored := false
	var color core.Color
	// A colour is there when the token has a letter after its first one:
	// "bs2" and "bQ" are coloured, "b1" is a bare Beetle.
	if len(s) >= 2 && isIDStart(s[1]) {
		switch s[0] {
		case 'w', 'W':
			color = core.White
		case 'b', 'B':
			color = core.Black
		default:
			return b, fmt.Errorf("%q is not a piece: it must start with w or b", tok)
		}
		colored = true
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 2 {
		return b, fmt.Errorf("%q is not a piece", tok)
	}
	bug, ok := core.BugFromLetter(upper(s[0]))
	if !ok {
		if upper(s[0]) == 'O' || s[0] == '?' {
			return b, fmt.Errorf("%q is a piece of Hive Ultimate, which has no UHP equivalent", tok)
		}
		return b, fmt.Errorf("%q is not a piece: %q is not a bug", tok, s[0])
	}
	n := 0
	if len(s) == 2 {
		if s[1] < '1' || s[1] > '9' {
			return b, fmt.Errorf("%q is not a piece: %q is not a number", tok, s[1])
		}
		n = int(s[1] - '0')
	}
	b = bugName{piece: core.NoPiece, bug: bug, number: n, colored: colored}
	if colored {
		p, err := b.as(color)
		if err != nil {
			return b, fmt.Errorf("%q: %v", tok, err)
		}
		b.piece = p
	}
	return b, nil
}

// as returns the piece of colour c that the token names.
func (b bugName) as(c core.Color) (core.Piece, error) {
	n := b.number
	if n == 0 && core.BugCount(b.bug) > 1 {
		return core.NoPiece, fmt.Errorf("a %s needs a number", b.bug)
	}
	p, ok := core.MakePiece(c, b.bug, n)
	if !ok {
		return core.NoPiece, fmt.Errorf("there is no %s number %d", b.bug, n)
	}
	return p, nil
}

// pieceOf returns the piece a token names: its own colour if it has one,
// and otherwise c.
func pieceOf(tok string, c core.Color) (core.Piece, error) {
	b, err := parseBug(tok)
	if err != nil {
		return core.NoPiece, err
	}
	if b.colored {
		return b.piece, nil
	}
	p, err := b.as(c)
	if err != nil {
		return core.NoPiece, fmt.Errorf("%q: %v", tok, err)
	}
	return p, nil
}

// exactName is BoardSpace's exactBugName of a piece: wQ, wS1, wM1.
func exactName(p core.Piece) string {
	s := p.String()
	if p.Number() == 0 && p.Bug() != core.Queen {
		s += "1"
	}
	return s
}

// colorToken is BoardSpace's name of a colour's pool (HiveId.shortName):
// W or B.
func colorToken(c core.Color) string {
	if c == core.White {
		return "W"
	}
	return "B"
}

// parseColorToken reads a W or B token (a Move's piece colour, a Pick's
// pool), either case.
func parseColorToken(tok string) (core.Color, error) {
	switch strings.ToUpper(tok) {
	case "W":
		return core.White, nil
	case "B":
		return core.Black, nil
	case "WS", "BS":
		return 0, fmt.Errorf("pool %q is Hive Ultimate's set-up pool, which has no UHP equivalent", tok)
	}
	return 0, fmt.Errorf("%q is not a colour (W or B)", tok)
}

// rackIndex is the row of a bug in BoardSpace's rack, which a Pick names:
// the ordinal of HiveConstants.PieceType, Q 0, A 1, G 2, B 3, S 4, M 5,
// L 6, then ORIGINAL_PILLBUG 7 and PILLBUG 8 (Pick B 8 bP1 in the 2023
// records).
func rackIndex(b core.Bug) int {
	switch b {
	case core.Queen:
		return 0
	case core.Ant:
		return 1
	case core.Grasshopper:
		return 2
	case core.Beetle:
		return 3
	case core.Spider:
		return 4
	case core.Mosquito:
		return 5
	case core.Ladybug:
		return 6
	}
	return 8 // Pillbug
}

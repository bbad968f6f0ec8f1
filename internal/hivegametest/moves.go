package hivegametest

import (
	"math/bits"
	"regexp"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// The play endpoint reads piece_pos with the site's own parser (play.rs
// play_move, engine/src/{piece,bug,color,position}.rs), not UHP's, and the
// two differ where a client can trip: at ply 0 only the first three
// characters are read and the rest ignored, so "wS1 anything" is wS1; at
// any other ply there must be a space; bug letters may be lower case but
// colours may not; the position is found by an unanchored regex whose bug
// letters must be upper case. Parsing comes before every game check, so a
// malformed move in a finished game or out of turn reports the parse error.

// siteMove is a parsed piece_pos: the piece (exists is false for a name
// the parser accepts but the game has no such piece, wS3 or wM in Base) and
// the cell it goes to.
type siteMove struct {
	piece  core.Piece
	exists bool
	to     core.Cell
}

// sitePiece is the parser's piece, before it meets a game.
type sitePiece struct {
	color core.Color
	bug   core.Bug
	order int
}

// parseError is GameError::ParsingError's Display.
func parseError(found, typ string) string {
	return "Found " + rustDebug(found) + " which is not a valid " + typ
}

// parsePiece is Piece::from_str: character 0 the colour (w or b only),
// character 1 the bug (either case), character 2, if a digit, the order,
// which Ant, Beetle, Grasshopper and Spider need and the others ignore;
// anything after that is not looked at.
func parsePiece(s string) (sitePiece, string) {
	rs := []rune(s)
	if len(rs) == 0 {
		return sitePiece{}, parseError(s, "piece")
	}
	var p sitePiece
	switch rs[0] {
	case 'w':
		p.color = core.White
	case 'b':
		p.color = core.Black
	default:
		return sitePiece{}, parseError(string(rs[0]), "color string")
	}
	if len(rs) < 2 {
		return sitePiece{}, parseError(s, "piece")
	}
	l := rs[1]
	if l >= 'a' && l <= 'z' {
		l -= 'a' - 'A'
	}
	b, ok := core.Bug(0), false
	if l < 0x80 && strings.ContainsRune("ABGLMPQS", l) {
		b, ok = core.BugFromLetter(byte(l))
	}
	if !ok {
		return sitePiece{}, parseError(string(rs[1]), "bug string")
	}
	p.bug = b
	if len(rs) > 2 && rs[2] >= '0' && rs[2] <= '9' {
		p.order = int(rs[2] - '0')
	}
	switch b {
	case core.Ant, core.Beetle, core.Grasshopper, core.Spider:
		if p.order == 0 {
			return sitePiece{}, parseError(s, "piece")
		}
	default:
		p.order = 0
	}
	return p, ""
}

// inGame returns the core piece for p in g, and false if g has no such
// piece (an order beyond the bug's count, or an expansion bug outside the
// game type).
func (p sitePiece) inGame(g *core.Game) (core.Piece, bool) {
	piece, ok := core.MakePiece(p.color, p.bug, p.order)
	if !ok || !g.InPlay(piece) {
		return core.NoPiece, false
	}
	return piece, true
}

// positionRE is Position::from_string's regex, unanchored. Rust's \d is
// Unicode's decimal digits, hence \p{Nd}.
var positionRE = regexp.MustCompile(`([-/\\]?)([wb][ABGMLPSQ]\p{Nd}?)([-/\\]?)`)

// parsePosition is Position::from_string: a string starting with '.' (or
// empty) is the first piece's cell; otherwise the first match of the regex
// names a reference piece on the board, moved by the prefix (\ NW, - W,
// / SW) and then by the suffix (/ NE, - E, \ SE), both if both are there;
// a bare reference means on top of it.
func parsePosition(s string, g *core.Game) (core.Cell, string) {
	if s == "" || strings.HasPrefix(s, ".") {
		return core.Origin, ""
	}
	m := positionRE.FindStringSubmatch(s)
	if m == nil {
		return core.NoCell, parseError(s, "position")
	}
	ref, e := parsePiece(m[2])
	if e != "" {
		return core.NoCell, e
	}
	p, ok := ref.inGame(g)
	if !ok || g.Position(p) == core.NoCell {
		return core.NoCell, parseError(s, "position")
	}
	c := g.Position(p)
	switch m[1] {
	case `\`:
		c = c.Neighbor(core.NorthWest)
	case "-":
		c = c.Neighbor(core.West)
	case "/":
		c = c.Neighbor(core.SouthWest)
	}
	switch m[3] {
	case "/":
		c = c.Neighbor(core.NorthEast)
	case "-":
		c = c.Neighbor(core.East)
	case `\`:
		c = c.Neighbor(core.SouthEast)
	}
	return c, ""
}

// parseSiteMove is play_move's parse step, with the game's turn counted as
// the site counts it (passes included).
func parseSiteMove(text string, turn int, g *core.Game) (siteMove, string) {
	if turn == 0 {
		p, e := parsePiece(text)
		if e != "" {
			return siteMove{}, e
		}
		piece, ok := p.inGame(g)
		return siteMove{piece: piece, exists: ok, to: core.Origin}, ""
	}
	pieceText, posText, ok := strings.Cut(text, " ")
	if !ok {
		return siteMove{}, "Invalid move format: expected 'piece position'"
	}
	p, e := parsePiece(pieceText)
	if e != "" {
		return siteMove{}, e
	}
	to, e := parsePosition(posText, g)
	if e != "" {
		return siteMove{}, e
	}
	piece, exists := p.inGame(g)
	return siteMove{piece: piece, exists: exists, to: to}, ""
}

// historyOrder is Position::positions_around's order, in which
// Board::get_neighbor looks for the piece a move is written against.
var historyOrder = [...]core.Direction{core.NorthWest, core.SouthEast, core.NorthEast, core.SouthWest, core.West, core.East}

// historyDestination is State::update_history for the piece just moved in g:
// nothing for the first piece of the game; the piece beneath it for a
// climb; otherwise the top piece of its first occupied neighbour, with
// Direction::to_history_string's mark for where the move went from that
// neighbour (NE ref/, E ref-, SE ref\, NW \ref, SW /ref, W -ref).
func historyDestination(g *core.Game, p core.Piece) string {
	if bits.OnesCount32(g.OnBoard()) == 1 {
		return ""
	}
	if under := g.Under(p); under != core.NoPiece {
		return under.String()
	}
	c := g.Position(p)
	for _, d := range historyOrder {
		ref := g.Top(c.Neighbor(d))
		if ref == core.NoPiece {
			continue
		}
		name := ref.String()
		switch d.Opposite() { // the direction from the neighbour to c
		case core.NorthEast:
			return name + "/"
		case core.East:
			return name + "-"
		case core.SouthEast:
			return name + `\`
		case core.NorthWest:
			return `\` + name
		case core.SouthWest:
			return "/" + name
		default:
			return "-" + name
		}
	}
	return ""
}

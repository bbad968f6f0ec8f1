package hivejson

import (
	"fmt"
	"slices"
	"sort"

	"github.com/hivebridge/hivebridge/core"
)

// The wire spells a turn by its kind: a Placement, a Movement of a piece by
// itself, or a Special Ability, a piece carried by a Pillbug (or a Mosquito
// beside one). The core identifies a move by its effect alone, a piece and
// its destination, and lists each once in GenerateMoves; for protocols
// such as this one it also lists the two kinds apart: Throws gives each
// throw with its thrower, and GenerateOwnMoves every other legal move. A
// move in both lists is a turn of either spelling.

// isOwnMove reports whether m, a move of a piece of the side to move, is
// one the piece makes by itself, not only by being thrown.
func (tr *tracker) isOwnMove(m core.Move) bool {
	var l core.MoveList
	tr.g.GenerateOwnMoves(&l)
	return l.Contains(m)
}

// turnOf spells m, a legal move of the tracked game (see TurnOf).
func (tr *tracker) turnOf(m core.Move) (Turn, error) {
	g := tr.g
	if m == core.Pass {
		return Turn{TurnType: TurnForfeit}, nil
	}
	p := m.Piece()
	to, ok := tr.axialOf(m.To())
	if !ok {
		return Turn{}, fmt.Errorf("%w: move %v goes nowhere near the hive", ErrBadTurn, m)
	}
	dest := to.pos().String()
	if g.InHand(p) {
		return Turn{TurnType: TurnPlacement, PieceType: BugName(p.Bug()), Destination: dest}, nil
	}
	src := tr.at[p].pos().String()
	// The throw that makes m, by the Pillbug when both it and a Mosquito
	// can.
	throws := g.Throws(nil)
	i := -1
	for j, th := range throws {
		if core.MakeMove(th.Piece, th.To) == m && (i < 0 || th.User.Bug() == core.Pillbug) {
			i = j
		}
	}
	if p.Color() == g.ToMove() && (i < 0 || tr.isOwnMove(m)) {
		return Turn{TurnType: TurnMovement, Source: src, Destination: dest}, nil
	}
	if i < 0 {
		return Turn{}, fmt.Errorf("%w: %v moves a piece of the player not to move, and no throw does that", ErrBadTurn, m)
	}
	return Turn{TurnType: TurnSpecialAbility, AbilityUser: tr.at[throws[i].User].pos().String(), Source: src, Destination: dest}, nil
}

// PossibleTurnsOf returns the possible_turns of g, computed by the core's
// rules: every legal move, spelled as the wire doc spells it, or nil once
// the game is over. A placement is listed as its type and position (the
// core's placements are every placeable type on every placement cell, the
// cross product the wire's Placement section means); a piece's own move
// under Movement; a throw under Special Ability, once per thrower that can
// make it; a pass as "Forfeit": true, only when nothing else is legal. A
// move that a piece can make both by itself and by a throw is listed in
// both sections, as both spellings are turns of the game. Lists are sorted
// by row, then column.
func PossibleTurnsOf(g *core.Game) (*PossibleTurns, error) {
	tr, _, err := trackGame(g, false)
	if err != nil {
		return nil, err
	}
	return tr.possibleTurns(), nil
}

func (tr *tracker) possibleTurns() *PossibleTurns {
	g := tr.g
	if g.Over() {
		return nil
	}
	var own core.MoveList
	g.GenerateOwnMoves(&own)
	throws := g.Throws(nil)
	if own.Len() == 0 && len(throws) == 0 {
		return &PossibleTurns{Forfeit: true}
	}
	var types uint16
	var positions []Pos
	movement := make(map[Pos][]Pos)
	for _, m := range own.Moves() {
		p := m.Piece()
		if g.InHand(p) {
			types |= 1 << p.Bug()
			positions = append(positions, tr.posOf(m.To()))
			continue
		}
		src := tr.at[p].pos()
		movement[src] = append(movement[src], tr.posOf(m.To()))
	}
	pt := &PossibleTurns{}
	if types != 0 {
		pt.Placement = &PlacementTurns{}
		for i := 0; i < len(wireBugOrder); i++ {
			if b := core.Bug(wireBugOrder[i]); types&(1<<b) != 0 {
				pt.Placement.PieceTypes = append(pt.Placement.PieceTypes, BugName(b))
			}
		}
		pt.Placement.Positions = posStrings(positions)
	}
	if len(movement) > 0 {
		pt.Movement = make(map[string][]string, len(movement))
		for src, dests := range movement {
			pt.Movement[src.String()] = posStrings(dests)
		}
	}
	if len(throws) > 0 {
		special := make(map[Pos]map[Pos][]Pos)
		for _, th := range throws {
			user := tr.at[th.User].pos()
			if special[user] == nil {
				special[user] = make(map[Pos][]Pos)
			}
			src := tr.at[th.Piece].pos()
			special[user][src] = append(special[user][src], tr.posOf(th.To))
		}
		pt.SpecialAbility = make(map[string]map[string][]string, len(special))
		for user, carried := range special {
			out := make(map[string][]string, len(carried))
			for src, dests := range carried {
				out[src.String()] = posStrings(dests)
			}
			pt.SpecialAbility[user.String()] = out
		}
	}
	return pt
}

// posStrings sorts positions, drops repeats and writes them out.
func posStrings(ps []Pos) []string {
	slices.SortFunc(ps, func(a, b Pos) int {
		switch {
		case a.less(b):
			return -1
		case b.less(a):
			return 1
		}
		return 0
	})
	ps = slices.Compact(ps)
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// Turns lists every turn that p offers, in a fixed order: placements (each
// type, in the order given, on each position), movements, special
// abilities (both by source position as written, sorted), then the
// forfeit. Repeats are kept, as the original controller sends them.
func (p *PossibleTurns) Turns() []Turn {
	if p == nil {
		return nil
	}
	var out []Turn
	if p.Placement != nil {
		for _, t := range p.Placement.PieceTypes {
			for _, pos := range p.Placement.Positions {
				out = append(out, Turn{TurnType: TurnPlacement, PieceType: t, Destination: pos})
			}
		}
	}
	for _, src := range sortedKeys(p.Movement) {
		for _, dst := range p.Movement[src] {
			out = append(out, Turn{TurnType: TurnMovement, Source: src, Destination: dst})
		}
	}
	for _, user := range sortedKeys(p.SpecialAbility) {
		carried := p.SpecialAbility[user]
		for _, src := range sortedKeys(carried) {
			for _, dst := range carried[src] {
				out = append(out, Turn{TurnType: TurnSpecialAbility, AbilityUser: user, Source: src, Destination: dst})
			}
		}
	}
	if p.Forfeit {
		out = append(out, Turn{TurnType: TurnForfeit})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Choice is a turn that a controller offered, with the move it makes.
type Choice struct {
	Turn Turn
	Move core.Move
}

// Offered returns the turns of p that are legal in g, each once, with their
// moves, in the order of p.Turns. The wire doc, of the original
// controller: "Its move lists are not always right: Spider and Ladybug
// destinations are sometimes missing, destinations can repeat, a Special
// Ability entry can have an empty list ... serving such a controller,
// answer only with a turn it offered (the intersection of what it offered
// and what hivebridge thinks legal), and treat its possible_turns as that
// game's law". Offered is that intersection; turns that do not parse or
// are illegal are left out.
func Offered(p *PossibleTurns, g *core.Game) ([]Choice, error) {
	if p == nil {
		return nil, nil
	}
	tr, _, err := trackGame(g, false)
	if err != nil {
		return nil, err
	}
	var l core.MoveList
	tr.g.GenerateMoves(&l)
	var out []Choice
	seen := make(map[Turn]bool)
	for _, t := range p.Turns() {
		if seen[t] {
			continue
		}
		seen[t] = true
		m, err := tr.decode(t)
		if err == nil && l.Contains(m) {
			out = append(out, Choice{Turn: t, Move: m})
		}
	}
	return out, nil
}

// TurnFor returns a turn among choices that makes move m, preferring any
// other kind to a Special Ability: the original controller "rejects every
// Special Ability reply even when it offered it" (wire doc).
func TurnFor(choices []Choice, m core.Move) (Turn, bool) {
	found := false
	var best Turn
	for _, c := range choices {
		if c.Move != m {
			continue
		}
		if c.Turn.TurnType != TurnSpecialAbility {
			return c.Turn, true
		}
		if !found {
			best, found = c.Turn, true
		}
	}
	return best, found
}

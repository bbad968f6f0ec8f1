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
// its destination, and lists each once, so that it cannot say whether a
// piece of the mover's that its Pillbug could throw to a cell could also
// walk there. Two things answer that here, both built on the core's
// exported API:
//
//   - throwsOf lists the throws, with their thrower, by the rules that the
//     core's generator applies (its doc comment on genThrows);
//   - the shadow game plays the same history in a game without the
//     Pillbug's special ability (the game type without WithPillbug, the
//     Pillbug itself still moving as a Pillbug), whose legal moves are then
//     exactly the pieces' own moves.
//
// Tests check, on random games of every type, that the two together spell
// every legal move of the core and nothing else. The shadow game leans on
// the core's Play accepting a Pillbug in a game that does not list it,
// which Play (unchecked by design) does; a core API that lists throws with
// their thrower, or generates moves without them, would replace both (see
// the package documentation).

// throw is one use of the Pillbug's special ability: the piece on a cell
// next to user is carried to the empty cell to, also next to user.
type throw struct {
	user  core.Cell
	piece core.Piece
	to    core.Cell
}

func (th throw) move() core.Move { return core.MakeMove(th.piece, th.to) }

// throwsOf lists the throws of the side to move, Pillbug first, then
// Mosquito. The rules, as the core applies them: the thrower is the
// mover's Pillbug, or its Mosquito while a Pillbug is on top of a stack
// next to it, alone on its cell (on the ground, uncovered), and not moved
// last turn; the thrown piece is next to it, alone on its cell, not moved
// last turn, and not pinned (One Hive); it lands on an empty cell next to
// the thrower; neither step passes a gate of two stacks both higher than
// one piece. Like every move of a piece on the board, a throw needs the
// mover's Queen on the board.
func throwsOf(g *core.Game) []throw {
	if g.Over() || g.Type()&core.WithPillbug == 0 {
		return nil
	}
	me := g.ToMove()
	if q, _ := core.MakePiece(me, core.Queen, 1); g.InHand(q) {
		return nil
	}
	last := g.LastMoved()
	var users [2]core.Cell
	n := 0
	canThrow := func(p core.Piece) bool {
		return g.InPlay(p) && !g.InHand(p) && p != last && g.Height(g.Position(p)) == 1
	}
	if p, _ := core.MakePiece(me, core.Pillbug, 1); canThrow(p) {
		users[n] = g.Position(p)
		n++
	}
	if p, _ := core.MakePiece(me, core.Mosquito, 1); canThrow(p) && touchesBug(g, g.Position(p), core.Pillbug) {
		users[n] = g.Position(p)
		n++
	}
	if n == 0 {
		return nil
	}
	pinned := g.Pinned()
	var out []throw
	for _, u := range users[:n] {
		for d := core.Direction(0); d < core.NumDirections; d++ {
			x := u.Neighbor(d)
			if g.Height(x) != 1 {
				continue
			}
			piece := g.Top(x)
			if piece == last || pinned&(1<<piece) != 0 || gateBlocked(g, u, d) {
				continue
			}
			for d2 := core.Direction(0); d2 < core.NumDirections; d2++ {
				z := u.Neighbor(d2)
				if z != x && g.Height(z) == 0 && !gateBlocked(g, u, d2) {
					out = append(out, throw{user: u, piece: piece, to: z})
				}
			}
		}
	}
	return out
}

// gateBlocked reports whether a piece carried over a thrower on c, at the
// height of one piece, is blocked stepping to or from c's neighbour d: both
// stacks flanking the step are higher than one piece. (The thrown piece's
// own cell, which it leaves, is never a flank of the step that matters
// higher than one piece, so it need not be emptied first.)
func gateBlocked(g *core.Game, c core.Cell, d core.Direction) bool {
	return min(g.Height(c.Neighbor(d.CounterClockwise())), g.Height(c.Neighbor(d.Clockwise()))) > 1
}

func touchesBug(g *core.Game, c core.Cell, b core.Bug) bool {
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if t := g.Top(c.Neighbor(d)); t != core.NoPiece && t.Bug() == b {
			return true
		}
	}
	return false
}

// ownMoves returns the sorted moves the side to move's pieces make by
// themselves, from the shadow game; nil without a shadow game (no Pillbug
// in play, so every move of a piece on the board is its own).
func (tr *tracker) ownMoves() []core.Move {
	if tr.shadow == nil {
		return nil
	}
	var l core.MoveList
	tr.shadow.GenerateMoves(&l)
	own := slices.Clone(l.Moves())
	slices.Sort(own)
	return own
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
	throws := throwsOf(g)
	i := slices.IndexFunc(throws, func(th throw) bool { return th.move() == m })
	if p.Color() == g.ToMove() && i < 0 {
		return Turn{TurnType: TurnMovement, Source: src, Destination: dest}, nil
	}
	if p.Color() == g.ToMove() {
		if _, own := slices.BinarySearch(tr.ownMoves(), m); own {
			return Turn{TurnType: TurnMovement, Source: src, Destination: dest}, nil
		}
	}
	if i < 0 {
		return Turn{}, fmt.Errorf("%w: %v moves a piece of the player not to move, and no throw does that", ErrBadTurn, m)
	}
	return Turn{TurnType: TurnSpecialAbility, AbilityUser: tr.posOf(throws[i].user).String(), Source: src, Destination: dest}, nil
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
	tr, _, err := trackGame(g, true, false)
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
	var l core.MoveList
	g.GenerateMoves(&l)
	if l.Len() == 1 && l.At(0) == core.Pass {
		return &PossibleTurns{Forfeit: true}
	}
	legal := slices.Clone(l.Moves())
	slices.Sort(legal)
	isLegal := func(m core.Move) bool { _, ok := slices.BinarySearch(legal, m); return ok }

	me := g.ToMove()
	throws := throwsOf(g)
	thrown := make([]core.Move, len(throws))
	for i, th := range throws {
		thrown[i] = th.move()
	}
	slices.Sort(thrown)
	var own []core.Move
	ownDone := false

	var types uint16
	var positions []Pos
	movement := make(map[Pos][]Pos)
	for _, m := range legal {
		p := m.Piece()
		if g.InHand(p) {
			types |= 1 << p.Bug()
			positions = append(positions, tr.posOf(m.To()))
			continue
		}
		if p.Color() != me {
			continue // a throw of the opponent's piece, listed below
		}
		if _, isThrow := slices.BinarySearch(thrown, m); isThrow {
			if !ownDone {
				own, ownDone = tr.ownMoves(), true
			}
			if _, ok := slices.BinarySearch(own, m); !ok {
				continue // only a throw makes it
			}
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
	for _, th := range throws {
		if !isLegal(th.move()) {
			continue // cannot happen while throwsOf agrees with the core
		}
		if pt.SpecialAbility == nil {
			pt.SpecialAbility = make(map[string]map[string][]string)
		}
		user := tr.posOf(th.user).String()
		if pt.SpecialAbility[user] == nil {
			pt.SpecialAbility[user] = make(map[string][]string)
		}
		src := tr.at[th.piece].pos().String()
		pt.SpecialAbility[user][src] = append(pt.SpecialAbility[user][src], tr.posOf(th.to).String())
	}
	for _, carried := range pt.SpecialAbility {
		for src, dests := range carried {
			carried[src] = sortPosStrings(dests)
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

// sortPosStrings sorts written positions by row, then column.
func sortPosStrings(ss []string) []string {
	ps := make([]Pos, 0, len(ss))
	for _, s := range ss {
		p, err := ParsePos(s)
		if err != nil {
			return ss
		}
		ps = append(ps, p)
	}
	return posStrings(ps)
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
	tr, _, err := trackGame(g, false, false)
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

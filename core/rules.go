package core

// RuleError tells why a move is illegal. Where the reference engine Mzinga
// has words for a rule, the message uses them, so that a viewer shows the
// same text whichever engine it talks to.
type RuleError struct {
	Msg string
}

func (e *RuleError) Error() string { return e.Msg }

func ruleError(msg string) error { return &RuleError{Msg: msg} }

// RuleBroken returns nil if m is legal now, and otherwise a *RuleError that
// names the rule it breaks: the check for a move from outside (a viewer's,
// an engine's), whose refusal must say why. Legal only says whether, and
// LegalWithScratch says whether without allocating, for the search.
func (g *Game) RuleBroken(m Move) error {
	var l MoveList
	g.GenerateMoves(&l)
	if l.Contains(m) {
		return nil
	}
	return g.explain(m)
}

// PlayChecked plays m if it is legal, and otherwise leaves the game as it
// was and returns the *RuleError of RuleBroken.
func (g *Game) PlayChecked(m Move) error {
	if err := g.RuleBroken(m); err != nil {
		return err
	}
	g.Play(m)
	return nil
}

// explain finds the rule an illegal move breaks, checking in the order the
// reference engine does so that the first broken rule is the one named.
func (g *Game) explain(m Move) error {
	if g.Over() {
		if m == Pass {
			return ruleError("You can't pass, the game is over.")
		}
		return ruleError("You can't play, the game is over.")
	}
	if m == Pass {
		return ruleError("You can't pass when you have valid moves.")
	}
	p, to := m.Piece(), m.To()
	if p >= NumPieces || m == NoMove {
		return ruleError("That is not a valid move.")
	}
	me := g.ToMove()
	// The side to move may throw an opponent's piece with its Pillbug, but
	// any other move of one is, in the reference engine's words, a move
	// out of turn.
	if p.Color() != me {
		return ruleError("It's not that player's turn.")
	}
	if !g.InPlay(p) {
		return ruleError("That piece is not enabled in this game.")
	}
	ownTurn := g.ply / 2
	if p.Bug() == Queen && g.InHand(p) && ownTurn == 0 && !g.queenFirst {
		return ruleError("You can't play your Queen Bee on your first turn.")
	}
	if g.InHand(queenOf(me)) {
		if ownTurn >= 3 && p.Bug() != Queen {
			return ruleError("You must play your Queen Bee on or before your fourth turn.")
		}
		if !g.InHand(p) {
			return ruleError("You can't move a piece in play until you've played your Queen Bee.")
		}
	}
	if g.InHand(p) {
		if p.Number() > 1 {
			if prev := p - 1; g.InHand(prev) {
				return ruleError("When there are multiple pieces of the same bug type, you must play the pieces in order.")
			}
		}
		if g.height[to] != 0 {
			return ruleError("You can't move there because a piece already exists at that position.")
		}
		return g.explainPlacement(me, to)
	}
	if g.top[g.pos[p]] != p {
		return ruleError("You can't move that piece because it has another piece on top of it.")
	}
	if p == g.lastMoved {
		return ruleError("You can't move that piece because it was moved on the last turn.")
	}
	if g.height[to] != 0 && p.Bug() != Beetle && p.Bug() != Mosquito {
		return ruleError("You can't move there because a piece already exists at that position.")
	}
	if g.height[g.pos[p]] == 1 && g.articulationPieces()&(1<<p) != 0 {
		return ruleError("You can't move that piece because it will break the hive.")
	}
	return ruleError("You can't move that piece there.")
}

// explainPlacement names the placement rule that a placement on the empty
// cell to breaks.
func (g *Game) explainPlacement(me Color, to Cell) error {
	if g.onBoard == 0 {
		return ruleError("The first piece must be placed at the centre of the board.")
	}
	touchesHive, touchesOwn := false, false
	for d := Direction(0); d < NumDirections; d++ {
		if t := g.top[to.Neighbor(d)]; t != NoPiece {
			touchesHive = true
			touchesOwn = touchesOwn || t.Color() == me
		}
	}
	switch {
	case !touchesHive:
		return ruleError("You must place a piece touching the hive.")
	case g.onBoard>>(PiecesPerColor*uint(me))&(1<<PiecesPerColor-1) == 0:
		return ruleError("You can't move that piece there.")
	case !touchesOwn:
		return ruleError("You must place a piece touching one of your own pieces.")
	case g.touchesColor(to, Piece(me.Other())*PiecesPerColor):
		return ruleError("You can't place a piece touching your opponent's pieces.")
	}
	return ruleError("You can't move that piece there.")
}

package core

// Perft counts the positions reached after exactly depth plies, the standard
// check of a move generator against published counts. A finished game has no
// children. The last ply is counted, not played ("bulk counting").
func (g *Game) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var l MoveList
	g.GenerateMoves(&l)
	if depth == 1 {
		return uint64(l.n)
	}
	var nodes uint64
	for _, m := range l.moves[:l.n] {
		g.Play(m)
		nodes += g.Perft(depth - 1)
		g.Undo()
	}
	return nodes
}

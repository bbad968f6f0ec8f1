package core_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// positionOf decodes fuzz bytes into a Position, with no check at all, so
// that every kind of nonsense reaches NewGameAt: game types and colours
// out of range, any turn, any byte as the piece moved last, and stacks of
// up to seven bytes each taken as a piece (28 to 31 name none) at cells
// within a small window, so that neighbours and stacks on one cell are
// common. The layout: type, side to move, turn (two bytes), last moved,
// then per stack q, r, height, pieces.
func positionOf(data []byte) core.Position {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	pos := core.Position{
		Type:      core.GameType(next() % 10),
		ToMove:    core.Color(next() % 3),
		Turn:      next()<<8 | next(),
		LastMoved: core.Piece(next()),
	}
	for len(data) > 0 {
		s := core.Stack{Q: next()%9 - 4, R: next()%9 - 4}
		for range next() % 8 {
			s.Pieces = append(s.Pieces, core.Piece(next()%32))
		}
		pos.Stacks = append(pos.Stacks, s)
	}
	return pos
}

// encodePosition is the inverse of positionOf for positions it can hold,
// to seed the corpus with positions of real games.
func encodePosition(p core.Position) ([]byte, bool) {
	out := []byte{byte(p.Type), byte(p.ToMove), byte(p.Turn >> 8), byte(p.Turn), byte(p.LastMoved)}
	for _, s := range p.Stacks {
		if s.Q < -4 || s.Q > 4 || s.R < -4 || s.R > 4 || len(s.Pieces) > 7 {
			return nil, false
		}
		out = append(out, byte(s.Q+4), byte(s.R+4), byte(len(s.Pieces)))
		for _, q := range s.Pieces {
			out = append(out, byte(q))
		}
	}
	return out, true
}

// FuzzNewGameAt gives NewGameAt random positions. Each must give a
// *SetUpError or a game, never a panic; and a game must hold up: its
// position described again is the one set up, set up again it has the same
// hash, and every legal move from it can be checked, played and taken
// back, and leads to a position that NewGameAt accepts too (play from an
// accepted position reaches only accepted ones).
func FuzzNewGameAt(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 7))
	var l core.MoveList
	for _, gt := range gameTypes {
		g := core.NewGame(gt.typ)
		for g.Ply() < 40 && !g.Over() {
			if b, ok := encodePosition(g.CurrentPosition()); ok && g.Ply()%4 == 0 {
				f.Add(b)
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 1, 255, 4, 4, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		pos := positionOf(data)
		g, err := core.NewGameAt(pos)
		if err != nil {
			var se *core.SetUpError
			if !errors.As(err, &se) || se.Msg == "" {
				t.Fatalf("NewGameAt = %v (%T), want a *core.SetUpError", err, err)
			}
			return
		}
		start := g.StartPosition()
		if cur := g.CurrentPosition(); !reflect.DeepEqual(cur, start) {
			t.Fatalf("CurrentPosition %+v, StartPosition %+v", cur, start)
		}
		again, err := core.NewGameAt(start)
		if err != nil || again.Hash() != g.Hash() {
			t.Fatalf("the start position set up again: %v", err)
		}
		var moves core.MoveList
		g.GenerateMoves(&moves)
		if g.Perft(1) != uint64(moves.Len()) {
			t.Fatalf("perft 1 = %d, %d moves", g.Perft(1), moves.Len())
		}
		hash := g.Hash()
		for _, m := range moves.Moves() {
			if err := g.RuleBroken(m); err != nil {
				t.Fatalf("RuleBroken of a generated move: %v", err)
			}
			g.Play(m)
			if _, err := core.NewGameAt(g.CurrentPosition()); err != nil {
				t.Fatalf("a legal move from %+v leads to a position NewGameAt refuses: %v", start, err)
			}
			g.Undo()
		}
		if g.Hash() != hash || g.MovesPlayed() != 0 {
			t.Fatalf("play and undo did not come back")
		}
	})
}

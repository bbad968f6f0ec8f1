package hivejson

import (
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// benchGame is a mid-game Base+MLP position: a seeded random game at ply
// 40, with stacks and every expansion bug in play.
func benchGame(b *testing.B) *core.Game {
	g := randomGame(core.WithMosquito|core.WithLadybug|core.WithPillbug, 2026, 40, nil)
	if g.Ply() != 40 {
		b.Fatalf("the game ended at ply %d", g.Ply())
	}
	return g
}

// BenchmarkBuildChooseTurn writes the Choose Turn request of a position as
// a controller sends it to an AI: game_state with history and complete
// possible_turns, JSON, frame.
func BenchmarkBuildChooseTurn(b *testing.B) {
	g := benchGame(b)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		req, err := NewChooseTurnRequest("7pNQ4", "KqwSQ", 1405582952293, g)
		if err != nil {
			b.Fatal(err)
		}
		buf, err = AppendFrame(buf[:0], req)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkParseChooseTurn reads that request as an AI module does: frame,
// message, and the core game rebuilt from its history and checked
// against its board, then the offered turns intersected with the legal
// moves.
func BenchmarkParseChooseTurn(b *testing.B) {
	g := benchGame(b)
	req, err := NewChooseTurnRequest("7pNQ4", "KqwSQ", 1405582952293, g)
	if err != nil {
		b.Fatal(err)
	}
	frame, err := EncodeFrame(req)
	if err != nil {
		b.Fatal(err)
	}
	d := NewDecoder(0)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		d.Feed(frame)
		raw, err := d.Next()
		if err != nil {
			b.Fatal(err)
		}
		m, err := ParseMessage(raw)
		if err != nil {
			b.Fatal(err)
		}
		r := m.(*ChooseTurnRequest)
		g2, err := GameOf(r.GameState)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Offered(r.GameState.PossibleTurns, g2); err != nil {
			b.Fatal(err)
		}
	}
}

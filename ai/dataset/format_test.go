package dataset

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// randomGame plays up to plies random legal moves of a game of type t
// from seed, under the given rules.
func randomGame(t core.GameType, seed uint64, plies int, opts ...core.GameOption) *core.Game {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := core.NewGame(t, opts...)
	var l core.MoveList
	for range plies {
		if g.Over() {
			break
		}
		g.GenerateMoves(&l)
		g.Play(l.At(rng.IntN(l.Len())))
	}
	return g
}

// uhpSpelling writes a move code as the MoveString it stands for, by the
// package comment's table: what UHP reads must be the move encoded.
func uhpSpelling(code uint16) string {
	if code == passCode {
		return "pass"
	}
	p := core.Piece(code & pieceMask).String()
	ref := core.Piece(code >> pieceBits & pieceMask)
	rel := code >> (2 * pieceBits)
	if ref == noRef {
		return p
	}
	r := ref.String()
	return p + " " + [...]string{r + "-", r + `\`, "/" + r, "-" + r, `\` + r, r + "/", r}[rel]
}

// TestMovesAreCodedAsUHPSpellsThem encodes every move of random games of
// every game type and checks that UHP's own reader, given the MoveString
// the code stands for, reads the same move, and that the code decodes to
// it.
func TestDatasetMovesAreCodedAsUHPSpellsThem(t *testing.T) {
	moves, climbs, passes := 0, 0, 0
	var scratch core.MoveList
	for seed := range uint64(160) {
		typ := core.GameType(seed % core.AllGameTypes)
		g := randomGame(typ, seed, 300)
		b := core.NewGame(typ)
		for i, m := range g.History() {
			code, err := encodeMove(b, m)
			if err != nil {
				t.Fatalf("seed %d, move %d (%s): %v", seed, i+1, uhp.FormatMove(m, b), err)
			}
			text := uhpSpelling(code)
			if got, err := uhp.ParseMove(text, b); err != nil || got != m {
				t.Fatalf("seed %d, move %d: %s coded %#04x, spelt %q, which UHP reads as %v (%v)", seed, i+1, uhp.FormatMove(m, b), code, text, got, err)
			}
			if got, err := decodeMove(b, code, &scratch); err != nil || got != m {
				t.Fatalf("seed %d, move %d: %s decodes to %v (%v)", seed, i+1, uhp.FormatMove(m, b), got, err)
			}
			switch {
			case m == core.Pass:
				passes++
			case code>>(2*pieceBits) == onTop:
				climbs++
			}
			moves++
			b.Play(m)
		}
	}
	if climbs == 0 || passes == 0 {
		t.Errorf("%d moves, %d onto a stack, %d passes: the games did not try every kind of code", moves, climbs, passes)
	}
}

// testGames returns finished and unfinished random games of several types
// and rules, each with samples at random plies.
func testGames() []*Game {
	var out []*Game
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 12 {
		typ := core.GameType(i % core.AllGameTypes)
		opts := []core.GameOption{core.RepetitionDraw(i%3 != 0), core.QueenOnFirstTurn(i%4 == 1)}
		g := randomGame(typ, uint64(100+i), 20+rng.IntN(200), opts...)
		rec := &Game{Number: i * 7, Type: typ, RepetitionDraw: i%3 != 0, QueenFirst: i%4 == 1,
			Result: []core.Result{core.WhiteWins, core.BlackWins, core.Draw}[i%3], Moves: g.History()}
		for ply := rng.IntN(3); ply <= len(rec.Moves); ply += 1 + rng.IntN(6) {
			rec.Samples = append(rec.Samples, Sample{Ply: ply, Score: rng.IntN(60001) - 30000})
		}
		out = append(out, rec)
	}
	out = append(out, &Game{Number: 1 << 40, Result: core.Draw}) // no move, no sample
	return out
}

var testSettings = Settings{Depth: 4, HashMB: 1, Skip: 10, Margin: 250, Note: "a test's"}

// writeGames writes games to a file of settings s and returns its bytes
// and the offset at which each record ends.
func writeGames(t testing.TB, s Settings, games []*Game) ([]byte, []int) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	ends := []int{buf.Len()}
	for _, g := range games {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, buf.Len())
	}
	return buf.Bytes(), ends
}

// TestRoundTrip writes games and reads them back, whole and sample by
// sample: each sample's position is the one the moves lead to, replayed
// here by core alone.
func TestDatasetRoundTrip(t *testing.T) {
	games := testGames()
	data, _ := writeGames(t, testSettings, games)
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if r.Settings() != testSettings {
		t.Errorf("settings %+v, want %+v", r.Settings(), testSettings)
	}
	for i, want := range games {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if want.Moves == nil {
			want.Moves = []core.Move{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("game %d: read back as\n%+v\nwant\n%+v", i, got, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last game: %v, want io.EOF", err)
	}

	type seen struct {
		key    uint64
		score  int
		result float64
	}
	var want []seen
	for _, g := range games {
		b := g.start()
		next := 0
		for _, s := range g.Samples {
			for ; next < s.Ply; next++ {
				b.Play(g.Moves[next])
			}
			want = append(want, seen{b.PositionKey(), s.Score, g.ResultFor(b.ToMove())})
		}
	}
	var got []seen
	if err := Read(bytes.NewReader(data), func(g *core.Game, score int, result float64) bool {
		got = append(got, seen{g.PositionKey(), score, result})
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read gave %d samples, differing from the %d replayed", len(got), len(want))
	}
	n := 0
	if err := Read(bytes.NewReader(data), func(*core.Game, int, float64) bool { n++; return n < 5 }); err != nil || n != 5 {
		t.Errorf("stopped after 5 samples: %d samples, %v", n, err)
	}
}

// TestResultFor checks the result of a game for each side.
func TestDatasetResultFor(t *testing.T) {
	for _, c := range []struct {
		r            core.Result
		white, black float64
	}{{core.WhiteWins, 1, 0}, {core.BlackWins, 0, 1}, {core.Draw, 0.5, 0.5}} {
		g := Game{Result: c.r}
		if g.ResultFor(core.White) != c.white || g.ResultFor(core.Black) != c.black {
			t.Errorf("%v: %v for White, %v for Black", c.r, g.ResultFor(core.White), g.ResultFor(core.Black))
		}
	}
}

// readAll reads a whole file through both ways a trainer may.
func readAll(data []byte) error {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
	}
	return Read(bytes.NewReader(data), func(*core.Game, int, float64) bool { return true })
}

// TestCutFileIsAnError reads every prefix of a file: one that ends between
// records reads as the games before the cut; any other is ErrCut.
func TestDatasetCutFileIsAnError(t *testing.T) {
	data, ends := writeGames(t, testSettings, testGames()[:6])
	boundary := map[int]bool{}
	for _, e := range ends {
		boundary[e] = true
	}
	for n := range len(data) {
		err := readAll(data[:n])
		switch {
		case boundary[n] && err != nil:
			t.Errorf("cut after a record at byte %d: %v", n, err)
		case !boundary[n] && !errors.Is(err, ErrCut):
			t.Errorf("cut at byte %d: %v, want ErrCut", n, err)
		}
	}
}

// TestDamagedFileIsAnError changes each byte of a file in turn: every
// change is an error, none a panic.
func TestDatasetDamagedFileIsAnError(t *testing.T) {
	data, _ := writeGames(t, testSettings, testGames()[:4])
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xFF} {
			bad := bytes.Clone(data)
			bad[i] ^= x
			if err := readAll(bad); err == nil {
				t.Errorf("byte %d changed by %#02x: read without error", i, x)
			}
		}
	}
}

// TestWriterRefuses checks what cannot be written.
func TestDatasetWriterRefuses(t *testing.T) {
	var buf bytes.Buffer
	for _, s := range []Settings{{Depth: 0, HashMB: 1}, {Depth: 64, HashMB: 1}, {Depth: 3}, {Depth: 3, HashMB: 1, Skip: 256},
		{Depth: 3, HashMB: 1, Margin: -1}, {Depth: 3, HashMB: 1, Note: string(make([]byte, 256))}, {Depth: 3, HashMB: 1, Note: "\xff"}} {
		if _, err := NewWriter(&buf, s); err == nil {
			t.Errorf("settings %+v accepted", s)
		}
	}
	w, err := NewWriter(&buf, testSettings)
	if err != nil {
		t.Fatal(err)
	}
	g := testGames()[0]
	for what, bad := range map[string]*Game{
		"result":          {Result: core.InProgress},
		"illegal move":    {Result: core.Draw, Moves: []core.Move{core.Pass}},
		"sample past end": {Result: core.Draw, Samples: []Sample{{Ply: 1}}},
		"samples in order": {Result: g.Result, Moves: g.Moves,
			Samples: []Sample{{Ply: 3}, {Ply: 3}}},
		"game type": {Result: core.Draw, Type: 8},
		"score":     {Result: core.Draw, Samples: []Sample{{Score: 1 << 31}}},
	} {
		if err := w.Write(bad); err == nil {
			t.Errorf("%s: written", what)
		}
	}
}

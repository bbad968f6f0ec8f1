package hub_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"regexp"
	"sync"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

// pieces reads UHP piece names.
func pieces(t testing.TB, names ...string) []core.Piece {
	t.Helper()
	out := make([]core.Piece, len(names))
	for i, n := range names {
		p, err := core.ParsePiece(n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = p
	}
	return out
}

// The board= value, read and written, against stacks written out by hand
// from the format of board.go.
func TestParseBoard(t *testing.T) {
	cases := []struct {
		in   string
		want []core.Stack
		out  string // as written back, if not in
	}{
		{"", nil, ""},
		{"0,0:wS1", []core.Stack{{Q: 0, R: 0, Pieces: pieces(t, "wS1")}}, ""},
		{"-1,0:wQ;0,0:wS1/bB1;1,0:bS1;2,-1:bQ", []core.Stack{
			{Q: -1, R: 0, Pieces: pieces(t, "wQ")},
			{Q: 0, R: 0, Pieces: pieces(t, "wS1", "bB1")},
			{Q: 1, R: 0, Pieces: pieces(t, "bS1")},
			{Q: 2, R: -1, Pieces: pieces(t, "bQ")},
		}, ""},
		{" 10,-20 : wq ; 11,-20:bA3/Wb2 ", []core.Stack{
			{Q: 10, R: -20, Pieces: pieces(t, "wQ")},
			{Q: 11, R: -20, Pieces: pieces(t, "bA3", "wB2")},
		}, "10,-20:wQ;11,-20:bA3/wB2"},
	}
	for _, c := range cases {
		got, err := hub.ParseBoard(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseBoard(%q) = %v, %v; want %v", c.in, got, err, c.want)
			continue
		}
		out := c.out
		if out == "" {
			out = c.in
		}
		if s := hub.FormatBoard(got); s != out {
			t.Errorf("FormatBoard(ParseBoard(%q)) = %q, want %q", c.in, s, out)
		}
	}
}

func TestParseBoardErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0,0:wS1;", "stack 2 of the board is empty"},
		{"0,0", "stack 1 of the board, '0,0', is not q,r:<pieces>"},
		{"0:wS1", "stack 1 of the board, '0:wS1': '0' is not q,r with whole numbers of up to 6 digits"},
		{"0,+1:wS1", "stack 1 of the board, '0,+1:wS1': '0,+1' is not q,r with whole numbers of up to 6 digits"},
		{"0,1234567:wS1", "stack 1 of the board, '0,1234567:wS1': '0,1234567' is not q,r with whole numbers of up to 6 digits"},
		{"0,0:", `stack 1 of the board, '0,0:': "" is not a piece name: want colour, bug and number, as wQ or bS1`},
		{"0,0:wS1//wB1", `stack 1 of the board, '0,0:wS1//wB1': "" is not a piece name: want colour, bug and number, as wQ or bS1`},
		{"0,0:wS3", `stack 1 of the board, '0,0:wS3': there is no "wS3": a player has 2 Spiders`},
		{"0,0:wX1", `stack 1 of the board, '0,0:wX1': "wX1" is not a piece name: 'X' is not a bug (Q, S, B, G, A, M, L or P)`},
	}
	for _, c := range cases {
		if got, err := hub.ParseBoard(c.in); err == nil || err.Error() != c.want {
			t.Errorf("ParseBoard(%q) = %v, %v; want the error %q", c.in, got, err, c.want)
		}
	}
}

// pos lines with a board, read and written back.
func TestParsePosBoard(t *testing.T) {
	const board = "-1,0:wQ;0,0:wS1/bB1;1,0:bS1;2,0:bQ"
	stacks, _ := hub.ParseBoard(board)
	want := hub.Pos{Variant: core.Base, Board: &hub.Board{Stacks: stacks, Turn: core.Turn{Color: core.White, Number: 4}, LastMoved: pieces(t, "bB1")[0]}}
	for in, out := range map[string]string{
		"pos variant=Base board=" + board + " turn=White[4] last=bB1":     "",
		`pos last=bB1 turn="White[4]" variant=Base board="` + board + `"`: "pos variant=Base board=" + board + " turn=White[4] last=bB1",
	} {
		p, err := hub.ParsePos(mustParse(t, in))
		if err != nil || !reflect.DeepEqual(p, want) {
			t.Errorf("ParsePos(%q) = %#v, %v; want %#v", in, p, err, want)
			continue
		}
		if out == "" {
			out = in
		}
		if s := p.Line().String(); s != out {
			t.Errorf("ParsePos(%q).Line() = %q, want %q", in, s, out)
		}
	}
	// With moves, and with no last=.
	p, err := hub.ParsePos(mustParse(t, `pos board=0,0:wS1;1,0:bS1 turn=White[2] moves="wQ -wS1;bQ bS1-"`))
	if err != nil || !p.DefaultVariant || p.Board.LastMoved != core.NoPiece || len(p.Moves) != 2 {
		t.Errorf("ParsePos with a board and moves = %#v, %v", p, err)
	}
	if _, err := p.GameString(); !errors.Is(err, hub.ErrSetUp) {
		t.Errorf("GameString of a board position = %v, want ErrSetUp", err)
	}
}

func TestParsePosBoardErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"pos board=0,0:wS1", "pos: board= needs turn=, the side to move and its turn number, as White[5]"},
		{"pos turn=White[2]", "pos: turn= and last= describe a board=, and there is none"},
		{"pos moves=wS1 last=wS1", "pos: turn= and last= describe a board=, and there is none"},
		{"pos board=0,0:wS1 board=0,0:wS1 turn=White[2]", "pos: board given twice"},
		{"pos board=0,0:wS1 turn=White[2] turn=White[2]", "pos: turn given twice"},
		{"pos board=0,0:wS1;x turn=White[2]", "pos: board=: stack 2 of the board, 'x', is not q,r:<pieces>"},
		{"pos board=0,0:wS1 turn=Red[2]", `pos: turn=: bad turn "Red[2]": the colour must be White or Black`},
		{"pos board=0,0:wS1 turn=White[2] last=wZ", `pos: last=: "wZ" is not a piece name: 'Z' is not a bug (Q, S, B, G, A, M, L or P)`},
		{`pos game="Base;NotStarted;White[1]" board=0,0:wS1 turn=White[2]`, "pos: give either game=<GameString> or variant= and moves= (and board=), not both"},
	}
	for _, c := range cases {
		if p, err := hub.ParsePos(mustParse(t, c.in)); err == nil || err.Error() != c.want {
			t.Errorf("ParsePos(%q) = %#v, %v; want the error %q", c.in, p, err, c.want)
		}
	}
}

// Load of a board checks it with core.NewGameAt and names what is wrong.
func TestLoadBoardErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"pos variant=Base board=0,0:wS1;2,0:bS1 turn=White[2]", "board=: the hive is split: wS1 and bS1 are not joined by a chain of pieces (One Hive)"},
		{"pos variant=Base board=0,0:wS1;1,0:bS1/bG1 turn=White[3]", "board=: bG1 is on top of bS1, but only a Beetle, or a Mosquito moving as one, climbs onto the hive"},
		{"pos variant=Base board=0,0:wS1;1,0:bM turn=White[2]", "board=: bM is not in the game: its game type has no Mosquito"},
		{"pos variant=Base board=0,0:wS1;1,0:bS1 turn=White[1]", "board=: at White[1] White has had 0 turns, too few to place its 1 piece"},
		{"pos variant=Base board=0,0:wS1;1,0:bS1 turn=White[2] last=wS1", "board=: the piece moved last, wS1, is White's and White is to move, so Black's Pillbug threw it, but the game has no Pillbug"},
		{`pos variant=Base board=0,0:wS1;1,0:bS1 turn=White[2] moves="wQ -wS1;bQ wS1/"`, "illegal move 2 (bQ wS1/): You can't place a piece touching your opponent's pieces."},
	}
	for _, c := range cases {
		p, err := hub.ParsePos(mustParse(t, c.in))
		if err != nil {
			t.Fatalf("ParsePos(%q): %v", c.in, err)
		}
		if g, err := p.Load(core.Base); err == nil || err.Error() != c.want {
			t.Errorf("Load(%q) = %v, %v; want the error %q", c.in, g != nil, err, c.want)
		}
	}
	var se *core.SetUpError
	p, _ := hub.ParsePos(mustParse(t, cases[0].in))
	if _, err := p.Load(core.Base); !errors.As(err, &se) {
		t.Errorf("Load of a split hive = %v, want a *core.SetUpError inside", err)
	}
}

// A pos board= line is the position it describes: the board of the
// example in board.go's documentation is the one play reaches after
// wS1, bS1 wS1-, wQ -wS1, bQ bS1-, with the same moves, and the piece moved
// last given by last= may not be thrown.
func TestLoadBoard(t *testing.T) {
	played := load(t, core.Base, "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-")
	p, err := hub.ParsePos(mustParse(t, "pos variant=Base board=-1,0:wQ;0,0:wS1;1,0:bS1;2,0:bQ turn=White[3]"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.Load(core.Base)
	if err != nil {
		t.Fatal(err)
	}
	if g.Hash() != played.Hash() || !reflect.DeepEqual(legalMoves(g), legalMoves(played)) || g.Perft(3) != played.Perft(3) {
		t.Errorf("the board is not the position after its moves")
	}
	// The example of the package documentation and the README.
	played = load(t, core.Base, "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wG1 -wQ", "bB1 bS1/", "wA1 /wQ", "bB1 bS1", `wA1 wS1\`, "bB1 wS1")
	g, err = mustPos(t, "pos variant=Base board=-2,0:wG1;-1,0:wQ;0,0:wS1/bB1;1,0:bS1;2,0:bQ;0,1:wA1 turn=White[6] last=bB1").Load(core.Base)
	if err != nil || g.Hash() != played.Hash() || g.LastMoved() != played.LastMoved() || g.Perft(2) != played.Perft(2) {
		t.Errorf("the documentation's example is not the position after its moves: %v", err)
	}
	// With the Pillbug: White's Pillbug beside Black's Ant, which Black
	// just placed. Without last=, White may throw it; with it, not.
	const line = "pos variant=Base+P board=-1,0:wQ;0,0:wS1;1,0:bS1;2,0:bQ;-1,1:wP;0,1:bA1 turn=White[4]"
	free, err := mustPos(t, line).Load(core.Base)
	if err != nil {
		t.Fatal(err)
	}
	frozen, err := mustPos(t, line+" last=bA1").Load(core.Base)
	if err != nil {
		t.Fatal(err)
	}
	ant := pieces(t, "bA1")[0]
	if !throws(free, ant) || throws(frozen, ant) {
		t.Errorf("bA1 can be thrown: %v without last=, %v with last=bA1", throws(free, ant), throws(frozen, ant))
	}
}

// throws reports whether the side to move may throw p.
func throws(g *core.Game, p core.Piece) bool {
	for _, th := range g.Throws(nil) {
		if th.Piece == p {
			return true
		}
	}
	return false
}

func mustPos(t testing.TB, line string) hub.Pos {
	t.Helper()
	p, err := hub.ParsePos(mustParse(t, line))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// load plays MoveStrings from the start of a game of type gt.
func load(t testing.TB, gt core.GameType, moves ...string) *core.Game {
	t.Helper()
	g, err := hub.Pos{Variant: gt, Moves: moves}.Load(gt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Games set up from the positions of random games, and played on a few
// moves, are written by PosOf (and GamePosOf, which cannot use game=) as
// pos board= lines that load back as the same game: the same start, the
// same moves, the same position.
func TestPosOfSetUpGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	var l core.MoveList
	n := 0
	for _, played := range randomGames(t) {
		if played.MovesPlayed() == 0 {
			continue
		}
		g, err := core.NewGameAt(played.CurrentPosition())
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(4) {
			if g.Over() {
				break
			}
			g.GenerateMoves(&l)
			g.Play(l.At(rng.IntN(l.Len())))
		}
		for _, p := range []hub.Pos{hub.PosOf(g), hub.GamePosOf(g)} {
			if p.Board == nil || p.AsGame {
				t.Fatalf("%#v is not a board position", p)
			}
			text := p.Line().String()
			back, err := hub.ParsePos(mustParse(t, text))
			if err != nil || !reflect.DeepEqual(back, p) {
				t.Fatalf("%s reads as %#v, %v; want %#v", text, back, err, p)
			}
			loaded, err := back.Load(core.Base)
			if err != nil {
				t.Fatalf("%s: Load: %v", text, err)
			}
			if !sameGame(loaded, g) || loaded.StartKey() != g.StartKey() || !loaded.SetUp() {
				t.Fatalf("%s loads as another game", text)
			}
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d games", n)
	}
}

// positionSeen answers the first legal move and keeps a copy of each game
// it is asked about.
type positionSeen struct {
	mu    sync.Mutex
	games []*core.Game
}

func (s *positionSeen) BestMove(_ context.Context, g *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	s.mu.Lock()
	s.games = append(s.games, g.Clone())
	s.mu.Unlock()
	return legalMoves(g)[0], nil
}

func (s *positionSeen) last() *core.Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.games[len(s.games)-1]
}

// A session given pos board= searches that board; a board that play cannot
// reach is answered with error message="board=: ..." and the position in
// force stays.
func TestSessionBoard(t *testing.T) {
	seen := &positionSeen{}
	s := startSession(t, testConfig(seen, true))
	const board = "pos variant=Base board=0,0:bQ;1,0:bS1;0,1:bS2;-1,1:bG1;-1,0:bA1;1,-1:wQ;2,-1:wG1;2,-2:wS1;3,-2:wB1 turn=White[6]"
	want, err := mustPos(t, board).Load(core.Base)
	if err != nil {
		t.Fatal(err)
	}
	s.send(board, "level depth=1", "go think")
	s.expect(done(hub.WriteMove(legalMoves(want)[0], want)))
	if g := seen.last(); g.Hash() != want.Hash() || !g.SetUp() || g.Ply() != 10 {
		t.Errorf("the searcher was given another game: ply %d, set up %v", g.Ply(), g.SetUp())
	}
	s.send("pos variant=Base board=0,0:wS1;2,0:bS1 turn=White[2]", "level depth=1", "go think")
	s.expect(regexp.QuoteMeta(`error message="board=: the hive is split: wS1 and bS1 are not joined by a chain of pieces (One Hive)"`))
	s.expect(done(hub.WriteMove(legalMoves(want)[0], want)))
	s.send(board+` moves="wG1 -wQ"`, "level depth=1", "go think")
	s.expect(`error message="go: the game is over: there is no move to search"`)
	s.expect(`done move=pass`)
}

package hivejson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"reflect"
	"slices"
	"testing"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// The set-up fixtures were written by hand like the others, as a
// controller that sends only the board would send them: no turn_history
// (absent in the opening, null in the puzzle).
//
// choose_turn_setup_opening.json is the position after White's Spider at
// 0,0, Black's Spider north-east of it, the White Queen south-west of the
// Spider and the Black Queen north-east of Black's Spider, White to move
// at turn_number 4. Its possible_turns were worked out by hand: White may
// place any of its four types on the five empty cells that touch a White
// piece and no Black one; the Spider at 0,0 holds the hive together, and
// the Queen slides to the two cells beside the Spider.
//
// choose_turn_setup_win.json is a puzzle: the Black Queen at 0,0 is
// surrounded but for -1,-1, and the White Grasshopper at -3,1 reaches it by
// jumping south-west over its own Queen. The controller offers only the
// Grasshopper's four jumps (to -7,1 over the Beetle, to 3,1 over the two
// Black Spiders, to -1,-1, to -5,-1 over the White Spider) and two
// placements, as the original's lists are "not always right".

// playedOpening is the opening fixture's position reached by play, its
// turn_history written out by hand.
func playedOpening(t *testing.T) *core.Game {
	t.Helper()
	s := parseRequest(t, "choose_turn_setup_opening.json").GameState
	s.TurnHistory = []Turn{
		{TurnType: TurnPlacement, PieceType: NameSpider, Destination: "0,0"},
		{TurnType: TurnPlacement, PieceType: NameSpider, Destination: "-1,1"},
		{TurnType: TurnPlacement, PieceType: NameQueen, Destination: "1,-1"},
		{TurnType: TurnPlacement, PieceType: NameQueen, Destination: "-2,2"},
	}
	g, err := GameOf(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSetUpOpeningFixture(t *testing.T) {
	s := parseRequest(t, "choose_turn_setup_opening.json").GameState
	if s.TurnHistory != nil {
		t.Fatalf("the fixture has a turn_history")
	}
	g, err := GameOf(s)
	if err != nil {
		t.Fatal(err)
	}
	if !g.SetUp() || g.MovesPlayed() != 0 || g.Ply() != 4 || g.ToMove() != core.White {
		t.Errorf("GameOf: set up %v, %d moves, ply %d, %s to move", g.SetUp(), g.MovesPlayed(), g.Ply(), g.ToMove())
	}
	// The same position as play reaches it, to the hash: the board's
	// positions are the played pieces' cells.
	played := playedOpening(t)
	if g.Hash() != played.Hash() || !slices.Equal(legalMoves(g), legalMoves(played)) || g.Perft(3) != played.Perft(3) {
		t.Errorf("the set-up game is not the played one")
	}
	// hivebridge's own state of it is the fixture, possible_turns and all,
	// and has no turn_history either.
	ours, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	checkState(t, ours, s)
	if b, _ := json.Marshal(ours); bytes.Contains(b, []byte("turn_history")) {
		t.Errorf("the state of a set-up game has a turn_history: %s", b)
	}
	choices, err := Offered(s.PossibleTurns, g)
	if err != nil || len(choices) != 22 {
		t.Errorf("Offered: %d choices, %v; want the 22 offered", len(choices), err)
	}
}

func TestSetUpWinFixture(t *testing.T) {
	req := parseRequest(t, "choose_turn_setup_win.json")
	g, err := GameOf(req.GameState)
	if err != nil {
		t.Fatal(err)
	}
	choices, err := Offered(req.GameState.PossibleTurns, g)
	if err != nil || len(choices) != 8 {
		t.Fatalf("Offered: %d choices, %v; want the 8 offered", len(choices), err)
	}
	var wins []Turn
	for _, c := range choices {
		g.Play(c.Move)
		if g.Result() == core.WhiteWins {
			wins = append(wins, c.Turn)
		}
		g.Undo()
	}
	want := Turn{TurnType: TurnMovement, Source: "-3,1", Destination: "-1,-1"}
	if len(wins) != 1 || wins[0] != want {
		t.Fatalf("winning offered turns %v, want only %v", wins, want)
	}
	reply, err := EncodeFrame(req.Reply(wins[0]))
	if err != nil {
		t.Fatal(err)
	}
	if w := readFixture(t, "choose_turn_setup_win.reply.frame"); !bytes.Equal(reply, w) {
		t.Errorf("reply\n got %s\nwant %s", reply, w)
	}
}

// winOr answers with a move that wins at once if there is one, and
// otherwise as next does.
func winOr(next engine.Searcher) engine.Searcher {
	return searchFunc(func(ctx context.Context, g *core.Game, limit engine.Limit) (core.Move, error) {
		me := g.ToMove()
		for _, m := range legalMoves(g) {
			g.Play(m)
			won := g.Result() == core.WhiteWins && me == core.White || g.Result() == core.BlackWins && me == core.Black
			g.Undo()
			if won {
				return m, nil
			}
		}
		return next.BestMove(ctx, g, limit, nil)
	})
}

// A Server answers a state without turn_history: the puzzle with its only
// winning turn, the opening with the turn its searcher picks, both in the
// controller's coordinates, byte for byte the hand-written replies.
func TestServerSetUp(t *testing.T) {
	addr := startServer(t, ServerConfig{
		Searcher: winOr(answerWith(t, map[int]Turn{4: {TurnType: TurnPlacement, PieceType: NameAnt, Destination: "2,-2"}})),
		Log:      zerolog.Nop(),
	})
	c := dialServer(t, addr)
	c.write(readFixture(t, "greetings_request.frame"), 0)
	c.readRaw()
	for _, name := range []string{"choose_turn_setup_win", "choose_turn_setup_opening"} {
		c.write(frameFixture(t, name+".json"), 5)
		if got, _ := AppendRawFrame(nil, c.readRaw()); !bytes.Equal(got, readFixture(t, name+".reply.frame")) {
			t.Errorf("%s: reply\n got %s\nwant %s", name, got, readFixture(t, name+".reply.frame"))
		}
	}
	// A board no game reaches is answered with an error key, which ends
	// that game by penalty rather than leaving the controller waiting.
	req := fixtureRequest(t, "choose_turn_setup_win.json")
	req.GameState.Board.Pieces["-9,1"] = []Piece{{ColorWhite, NameAnt}}
	req.GameState.Hands.White[NameAnt] = 2
	c.send(req)
	if r := c.readTurn(); !r.Failed() || r.ID() != "S3tUp" || !bytes.Contains(r.Error, []byte("the hive is split")) {
		t.Errorf("a split hive answered with %+v", r)
	}
}

// The controller's side: a game set up from a position is sent as a state
// without turn_history, which a module (here, the test) rebuilds into the
// same position, and whose reply, in the state's coordinates, is read back
// as the move it makes.
func TestClientSetUp(t *testing.T) {
	played := playedOpening(t)
	g, err := core.NewGameAt(played.CurrentPosition())
	if err != nil {
		t.Fatal(err)
	}
	var l core.MoveList
	g.GenerateMoves(&l)
	g.Play(l.At(3)) // a move after the set-up
	c := pipeModule(t, func(conn net.Conn, m Message) {
		req := m.(*ChooseTurnRequest)
		rebuilt, err := GameOf(req.GameState)
		if err != nil || req.GameState.TurnHistory != nil || rebuilt.Ply() != g.Ply() || !rebuilt.SetUp() {
			t.Errorf("the module rebuilt %v, %v from the request", rebuilt, err)
			return
		}
		turn, _ := TurnOf(legalMoves(rebuilt)[0], rebuilt)
		writeAll(conn, mustFrame(req.Reply(turn)))
	})
	req, err := NewChooseTurnRequest("r1", "g1", 0, g)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.ChooseTurn(context.Background(), &req)
	if err != nil {
		t.Fatal(err)
	}
	m, err := MoveOf(resp.Turn, g)
	if err != nil || m != legalMoves(g)[0] {
		t.Errorf("the reply %+v reads as %v, %v; want %v", resp.Turn, m, err, legalMoves(g)[0])
	}
}

// States of random games of every type, their turn_history taken away,
// rebuild into set-up games whose own states agree with them: board,
// hands, turn and result, and the turns they offer are the legal moves of
// the game as played, but for throws of the piece that moved last, which a
// state without history cannot tell (and so offers; see GameOf).
func TestSetUpRandomStates(t *testing.T) {
	n := 0
	for typ := core.GameType(0); typ < core.AllGameTypes; typ++ {
		for seed := uint64(0); seed < 2; seed++ {
			randomGame(typ, seed+40, 90, func(g *core.Game) {
				if g.Ply()%9 != 3 {
					return
				}
				n++
				s, err := StateOf(g)
				if err != nil {
					t.Fatal(err)
				}
				s.TurnHistory = nil
				b, _ := json.Marshal(s)
				var s2 GameState
				if err := json.Unmarshal(b, &s2); err != nil {
					t.Fatal(err)
				}
				set, err := GameOf(s2)
				if err != nil {
					t.Fatalf("%s ply %d: GameOf without history: %v\n%s", gameTypeName(typ), g.Ply(), err, b)
				}
				ours, err := StateOf(set)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(ours.Board, s.Board) || !reflect.DeepEqual(ours.Hands, s.Hands) ||
					ours.TurnNumber != s.TurnNumber || ours.PlayerTurn != s.PlayerTurn || ours.GameOver != s.GameOver ||
					ours.Winner.Color != s.Winner.Color || ours.IsDraw != s.IsDraw {
					t.Fatalf("%s ply %d: the set-up game's state differs", gameTypeName(typ), g.Ply())
				}
				// The moves as played, plus those only the piece moved
				// last is kept from.
				free := g.Clone()
				if last := g.LastMoved(); last != core.NoPiece {
					free, err = core.NewGameAt(withoutLast(g.CurrentPosition()))
					if err != nil {
						t.Fatal(err)
					}
				}
				if got, want := sortedTurns(ours.PossibleTurns), sortedTurns(mustState(t, free).PossibleTurns); !slices.Equal(got, want) {
					t.Fatalf("%s ply %d: possible_turns differ\n got %v\nwant %v", gameTypeName(typ), g.Ply(), got, want)
				}
			})
		}
	}
	if n < 40 {
		t.Errorf("only %d states", n)
	}
}

func withoutLast(p core.Position) core.Position {
	p.LastMoved = core.NoPiece
	return p
}

func mustState(t *testing.T, g *core.Game) GameState {
	t.Helper()
	s, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSetUpErrors checks every way a state without turn_history is refused,
// each with its words.
func TestSetUpErrors(t *testing.T) {
	base := func() GameState { return parseRequest(t, "choose_turn_setup_opening.json").GameState }
	cases := []struct {
		name string
		edit func(s *GameState)
		is   error
		want string
	}{
		{"player_turn unknown", func(s *GameState) { s.PlayerTurn = "Red" }, ErrInconsistent,
			`hivejson: game_state contradicts itself: player_turn is "Red", not White or Black`},
		{"player_turn against turn_number", func(s *GameState) { s.PlayerTurn = ColorBlack }, ErrInconsistent,
			"hivejson: game_state contradicts itself: player_turn is Black, but turn_number 4 (plies from 0) makes it White's turn"},
		{"turn_number negative", func(s *GameState) { s.TurnNumber = -2 }, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: turn_number is -2; it counts plies from 0"},
		{"turn_number too low", func(s *GameState) { s.TurnNumber = 2 }, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: at White[2] White has had 1 turn, too few to place its 2 pieces (pieces named as in UHP, numbered in board order)"},
		{"bad position", func(s *GameState) { s.Board.Pieces["1,2"] = []Piece{{ColorWhite, NameAnt}} }, ErrBadBoard,
			`hivejson: game_state's board is no position a game can reach: board: position "1,2" has an odd row+col, which no hexagon has in doubled coordinates`},
		{"position twice", func(s *GameState) { s.Board.Pieces["-0,0"] = []Piece{{ColorWhite, NameAnt}} }, ErrInconsistent,
			"hivejson: game_state contradicts itself: board: position 0,0 is listed twice"},
		{"empty stack", func(s *GameState) { s.Board.Pieces["2,0"] = []Piece{} }, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: board: position 2,0 holds an empty stack"},
		{"colour", func(s *GameState) { s.Board.Pieces["2,0"] = []Piece{{"Green", NameAnt}} }, ErrBadBoard,
			`hivejson: game_state's board is no position a game can reach: board: position 2,0 holds a piece of colour "Green", not White or Black`},
		{"type", func(s *GameState) { s.Board.Pieces["2,0"] = []Piece{{ColorWhite, "Dragonfly"}} }, ErrBadBoard,
			`hivejson: game_state's board is no position a game can reach: board: position 2,0 holds a piece of unknown type "Dragonfly"`},
		{"expansion not in play", func(s *GameState) { s.Board.Pieces["2,0"] = []Piece{{ColorWhite, NameMosquito}} }, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: board: position 2,0 holds a White Mosquito, which creation_parameters leave out of the game"},
		{"too many", func(s *GameState) {
			s.Board.Pieces["2,0"] = []Piece{{ColorWhite, NameSpider}}
			s.Board.Pieces["3,-1"] = []Piece{{ColorWhite, NameSpider}}
		}, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: board: White has more than 2 Spider on the board, the number a player owns"},
		{"split hive", func(s *GameState) { s.Board.Pieces["6,0"] = []Piece{{ColorWhite, NameAnt}} }, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: the hive is split: wQ and wA1 are not joined by a chain of pieces (One Hive) (pieces named as in UHP, numbered in board order)"},
		{"queen on a spider", func(s *GameState) {
			delete(s.Board.Pieces, "1,-1")
			s.Board.Pieces["0,0"] = []Piece{{ColorWhite, NameSpider}, {ColorWhite, NameQueen}}
		}, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: wQ is on top of wS1, but only a Beetle, or a Mosquito moving as one, climbs onto the hive (pieces named as in UHP, numbered in board order)"},
		{"queen late", func(s *GameState) {
			s.TurnNumber = 8
			s.Board.Pieces["1,-1"] = []Piece{{ColorWhite, NameAnt}}
			s.Board.Pieces["2,-2"] = []Piece{{ColorWhite, NameAnt}}
			s.Board.Pieces["3,-3"] = []Piece{{ColorWhite, NameAnt}}
		}, ErrBadBoard,
			"hivejson: game_state's board is no position a game can reach: White has 4 pieces on the board but not its Queen Bee, which is placed by a player's fourth turn (pieces named as in UHP, numbered in board order)"},
		{"hands against the board", func(s *GameState) { s.Hands.White[NameAnt] = 2 }, ErrInconsistent,
			"hivejson: game_state contradicts itself: hands: White has 2 Soldier Ant in hand, but the board leaves 3"},
		{"game over against the board", func(s *GameState) { s.GameOver = true }, ErrInconsistent,
			"hivejson: game_state contradicts itself: game_over is true, but after the board it is false"},
	}
	for _, c := range cases {
		s := base()
		c.edit(&s)
		g, err := GameOf(s)
		switch {
		case err == nil:
			t.Errorf("%s: GameOf accepted the state (ply %d)", c.name, g.Ply())
		case !errors.Is(err, c.is):
			t.Errorf("%s: %q is not %q", c.name, err, c.is)
		case err.Error() != c.want:
			t.Errorf("%s: GameOf = %q\n                      want %q", c.name, err, c.want)
		}
	}
}

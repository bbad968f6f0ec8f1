package hivejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// gameTypeName names a game type as UHP does, for test names.
func gameTypeName(t core.GameType) string {
	s := "Base"
	if t != core.Base {
		s += "+"
	}
	for _, x := range []struct {
		bit core.GameType
		l   string
	}{{core.WithMosquito, "M"}, {core.WithLadybug, "L"}, {core.WithPillbug, "P"}} {
		if t&x.bit != 0 {
			s += x.l
		}
	}
	return s
}

// randomGame plays a seeded random game of type t for up to plies plies,
// calling visit before every move (and once at the end). One move in three
// is drawn from the climbs and throws when there are any, so that stacks
// and Special Ability turns occur often.
func randomGame(t core.GameType, seed uint64, plies int, visit func(g *core.Game)) *core.Game {
	rng := rand.New(rand.NewPCG(seed, uint64(t)))
	g := core.NewGame(t)
	var l core.MoveList
	for g.Ply() < plies && !g.Over() {
		if visit != nil {
			visit(g)
		}
		g.GenerateMoves(&l)
		moves := l.Moves()
		if rng.IntN(3) == 0 {
			var special []core.Move
			for _, th := range g.Throws(nil) {
				special = append(special, core.MakeMove(th.Piece, th.To))
			}
			for _, m := range moves {
				if m != core.Pass && !g.InHand(m.Piece()) && g.Height(m.To()) > 0 {
					special = append(special, m)
				}
			}
			if len(special) > 0 {
				moves = special
			}
		}
		g.Play(moves[rng.IntN(len(moves))])
	}
	if visit != nil {
		visit(g)
	}
	return g
}

// expand returns the moves that the turns of p make in g, failing the test
// for a turn that does not parse, is illegal, or is spelled wrong: a
// Movement of a piece not the mover's, or a Special Ability whose user is
// not the mover's Pillbug or Mosquito next to both source and destination.
func expand(t *testing.T, p *PossibleTurns, g *core.Game) []core.Move {
	t.Helper()
	tr, _, err := trackGame(g, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []core.Move
	for _, turn := range p.Turns() {
		m, err := tr.moveOf(turn)
		if err != nil {
			t.Fatalf("ply %d: possible turn %s: %v", g.Ply(), turnString(turn), err)
		}
		switch turn.TurnType {
		case TurnMovement:
			if m.Piece().Color() != g.ToMove() {
				t.Fatalf("ply %d: Movement %s moves the opponent's piece", g.Ply(), turnString(turn))
			}
		case TurnSpecialAbility:
			up, _ := ParsePos(turn.AbilityUser)
			uc, _ := tr.cellOf(up)
			u := g.Top(uc)
			if g.Height(uc) != 1 || u.Color() != g.ToMove() || (u.Bug() != core.Pillbug && u.Bug() != core.Mosquito) {
				t.Fatalf("ply %d: Special Ability %s: user is %v", g.Ply(), turnString(turn), u)
			}
			if _, ok := uc.DirectionTo(g.Position(m.Piece())); !ok {
				t.Fatalf("ply %d: Special Ability %s: source not next to the user", g.Ply(), turnString(turn))
			}
			if _, ok := uc.DirectionTo(m.To()); !ok {
				t.Fatalf("ply %d: Special Ability %s: destination not next to the user", g.Ply(), turnString(turn))
			}
		}
		out = append(out, m)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func legalMoves(g *core.Game) []core.Move {
	var l core.MoveList
	g.GenerateMoves(&l)
	out := slices.Clone(l.Moves())
	slices.Sort(out)
	return out
}

// checkRoundTrip sends g through game_state and JSON and back.
func checkRoundTrip(t *testing.T, g *core.Game) GameState {
	t.Helper()
	s, err := StateOf(g)
	if err != nil {
		t.Fatalf("ply %d: StateOf: %v", g.Ply(), err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var s2 GameState
	if err := json.Unmarshal(b, &s2); err != nil {
		t.Fatalf("ply %d: decoding %s: %v", g.Ply(), b, err)
	}
	g2, err := GameOf(s2, core.RepetitionDraw(g.RepetitionDrawOn()))
	if err != nil {
		t.Fatalf("ply %d: GameOf: %v\n%s", g.Ply(), err, b)
	}
	if g2.Hash() != g.Hash() || g2.Ply() != g.Ply() || g2.Result() != g.Result() {
		t.Fatalf("ply %d: rebuilt game differs: hash %x/%x ply %d/%d result %v/%v", g.Ply(), g2.Hash(), g.Hash(), g2.Ply(), g.Ply(), g2.Result(), g.Result())
	}
	if !slices.Equal(g2.History(), g.History()) {
		t.Fatalf("ply %d: rebuilt history differs", g.Ply())
	}
	want := legalMoves(g)
	if got := legalMoves(g2); !slices.Equal(got, want) {
		t.Fatalf("ply %d: rebuilt game has %d legal moves, want %d", g.Ply(), len(got), len(want))
	}
	if g.Over() {
		if s2.PossibleTurns != nil {
			t.Fatalf("ply %d: game over but possible_turns is not null", g.Ply())
		}
	} else if got := expand(t, s2.PossibleTurns, g); !slices.Equal(got, want) {
		t.Fatalf("ply %d: possible_turns make %d moves, the core has %d legal\n%v\n%v", g.Ply(), len(got), len(want), got, want)
	}
	s3, err := StateOf(g2)
	if err != nil {
		t.Fatal(err)
	}
	b3, _ := json.Marshal(s3)
	if !bytes.Equal(b, b3) {
		t.Fatalf("ply %d: the rebuilt game's state is written differently:\n%s\n%s", g.Ply(), b, b3)
	}
	return s2
}

// TestRoundTripRandomGames plays seeded random games of every game type
// and, at every ply, sends the game through game_state and back: same hash,
// history and legal moves, and possible_turns that spell exactly the
// legal moves. Stacks and Special Ability turns must have occurred.
func TestRoundTripRandomGames(t *testing.T) {
	plies := 120
	seeds := 3
	if testing.Short() {
		plies, seeds = 100, 1
	}
	for typ := core.GameType(0); typ < core.AllGameTypes; typ++ {
		t.Run(gameTypeName(typ), func(t *testing.T) {
			stacks, throws, ownThrows, longest := 0, 0, 0, 0
			for seed := uint64(1); seed <= uint64(seeds); seed++ {
				var last GameState
				g := randomGame(typ, seed, plies, func(g *core.Game) {
					last = checkRoundTrip(t, g)
					for p := core.Piece(0); p < core.NumPieces; p++ {
						if c := g.Position(p); c != core.NoCell && g.Height(c) > 1 && g.Top(c) == p {
							stacks++
						}
					}
				})
				longest = max(longest, g.Ply())
				for i, turn := range last.TurnHistory {
					if turn.TurnType == TurnSpecialAbility {
						throws++
						if g.History()[i].Piece().Color() == core.Color(i&1) {
							ownThrows++
						}
					}
				}
			}
			t.Logf("%s: longest game %d plies; %d stacked positions; %d Special Ability turns (%d of the mover's own pieces)",
				gameTypeName(typ), longest, stacks, throws, ownThrows)
			if longest < 100 {
				t.Errorf("no game reached 100 plies (longest %d)", longest)
			}
			if stacks == 0 {
				t.Errorf("no stack occurred")
			}
			if typ&core.WithPillbug != 0 && (throws == 0 || ownThrows == 0) {
				t.Errorf("Special Ability turns: %d, of own pieces %d; want some of each", throws, ownThrows)
			}
		})
	}
}

func TestPos(t *testing.T) {
	good := map[string]Pos{"0,0": {0, 0}, "-1,1": {-1, 1}, "2,0": {2, 0}, "-12,-4": {-12, -4}, "-0,0": {0, 0}}
	for s, want := range good {
		if p, err := ParsePos(s); err != nil || p != want {
			t.Errorf("ParsePos(%q) = %v, %v; want %v", s, p, err, want)
		}
	}
	for _, s := range []string{"", ",", "0", "0,", ",0", "1,0", "0,1", "+1,1", " 0,0", "0,0 ", "0;0", "0,0,0", "a,b", "99999999,1", "1.0,1", "--1,1"} {
		if p, err := ParsePos(s); err == nil {
			t.Errorf("ParsePos(%q) = %v, want an error", s, p)
		}
	}
	// The wire's six neighbours, clockwise from north, are the core's six
	// directions in its clockwise order, starting from NorthEast.
	wire := []Pos{{-2, 0}, {-1, 1}, {1, 1}, {2, 0}, {1, -1}, {-1, -1}}
	d := core.NorthEast
	for i, w := range wire {
		if got := axialStep(d).pos(); got != w {
			t.Errorf("wire neighbour %d: core direction %d maps to %v, want %v", i, d, got, w)
		}
		if w.axial() != axialStep(d) {
			t.Errorf("wire neighbour %v maps back to %v", w, w.axial())
		}
		d = d.Clockwise()
	}
}

// TestGameOfErrors checks that a state that contradicts its history is
// refused with words that say what is wrong (a state without one is a
// set-up position: see TestSetUpErrors).
func TestGameOfErrors(t *testing.T) {
	g := randomGame(core.WithPillbug|core.WithMosquito, 7, 30, nil)
	base, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	clone := func() GameState {
		var s GameState
		b, _ := json.Marshal(base)
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if _, err := GameOf(clone()); err != nil {
		t.Fatalf("GameOf of an intact state: %v", err)
	}
	anyKey := func(m map[string][]Piece) string {
		for k := range m {
			return k
		}
		return ""
	}
	cases := []struct {
		name  string
		edit  func(s *GameState)
		is    error
		words []string
	}{
		{"short history", func(s *GameState) { s.TurnHistory = s.TurnHistory[:5] }, ErrInconsistent, []string{"turn_number", "5"}},
		{"player", func(s *GameState) { s.PlayerTurn = ColorBlack }, ErrInconsistent, []string{"player_turn"}},
		{"player name", func(s *GameState) { s.PlayerTurn = "white" }, ErrInconsistent, []string{"player_turn", `"white"`}},
		{"board missing", func(s *GameState) { delete(s.Board.Pieces, anyKey(s.Board.Pieces)) }, ErrInconsistent, []string{"board", "missing"}},
		{"board extra", func(s *GameState) { s.Board.Pieces["40,0"] = []Piece{{ColorWhite, NameQueen}} }, ErrInconsistent, []string{"board", "40,0"}},
		{"board bad key", func(s *GameState) { s.Board.Pieces["4,1"] = []Piece{{ColorWhite, NameQueen}} }, ErrInconsistent, []string{"board", "odd"}},
		{"board dup key", func(s *GameState) {
			k := anyKey(s.Board.Pieces)
			alias := "0" + k // a leading zero: the same position, spelled otherwise
			if k[0] == '-' {
				alias = "-0" + k[1:]
			}
			s.Board.Pieces[alias] = s.Board.Pieces[k]
		}, ErrInconsistent, []string{"twice"}},
		{"board wrong type", func(s *GameState) {
			k := anyKey(s.Board.Pieces)
			s.Board.Pieces[k] = append([]Piece{}, s.Board.Pieces[k]...)
			s.Board.Pieces[k][0].Type = "Spyder"
		}, ErrInconsistent, []string{"board", "Spyder"}},
		{"hand count", func(s *GameState) { s.Hands.White[NameAnt] = 7 }, ErrInconsistent, []string{"hands", "White", "7", NameAnt}},
		{"hand type", func(s *GameState) { s.Hands.Black["Dragonfly"] = 1 }, ErrInconsistent, []string{"hands", "Dragonfly"}},
		{"hand missing", func(s *GameState) { s.Hands.Black = Hand{} }, ErrInconsistent, []string{"hands", "Black", "lacks"}},
		{"game over", func(s *GameState) { s.GameOver = true }, ErrInconsistent, []string{"game_over"}},
		{"draw", func(s *GameState) { s.IsDraw = true }, ErrInconsistent, []string{"is_draw"}},
		{"winner", func(s *GameState) { s.Winner = Winner{true, ColorWhite} }, ErrInconsistent, []string{"winner", "White"}},
		{"type", func(s *GameState) { s.CreationParameters.UsePillbug = false }, ErrBadTurn, []string{"turn_history[", "Pillbug", "not in play"}},
		{"bad turn type", func(s *GameState) { s.TurnHistory[3].TurnType = "Jump" }, ErrBadTurn, []string{"turn_history[3]", "Jump"}},
		{"bad position", func(s *GameState) { s.TurnHistory[0].Destination = "2,0" }, ErrBadTurn, []string{"turn_history[0]", "0,0"}},
		{"far position", func(s *GameState) { s.TurnHistory[1].Destination = "10,0" }, ErrBadTurn, []string{"turn_history[1]", "10,0", "hive"}},
		{"illegal turn", func(s *GameState) {
			s.TurnHistory[2] = Turn{TurnType: TurnPlacement, PieceType: NameQueen, Destination: s.TurnHistory[1].Destination}
		}, ErrBadTurn, []string{"turn_history[2]", "already"}},
	}
	for _, c := range cases {
		s := clone()
		c.edit(&s)
		_, err := GameOf(s)
		if err == nil {
			t.Errorf("%s: GameOf accepted the state", c.name)
			continue
		}
		if !errors.Is(err, c.is) {
			t.Errorf("%s: error %q is not %q", c.name, err, c.is)
		}
		for _, w := range c.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
	// At the start of a game, no history is no loss.
	start, _ := StateOf(core.NewGame(core.Base))
	start.TurnHistory = nil
	if g, err := GameOf(start); err != nil || g.Ply() != 0 {
		t.Errorf("GameOf(start without history) = %v, %v", g, err)
	}
}

// TestTurnOfMoveOf checks the single-move conversions both ways on every
// legal move of positions of random games, and their errors.
func TestTurnOfMoveOf(t *testing.T) {
	for typ := core.GameType(0); typ < core.AllGameTypes; typ++ {
		g := randomGame(typ, 99, 40, nil)
		for _, m := range legalMoves(g) {
			turn, err := TurnOf(m, g)
			if err != nil {
				t.Fatalf("%s: TurnOf(%v): %v", gameTypeName(typ), m, err)
			}
			back, err := MoveOf(turn, g)
			if err != nil || back != m {
				t.Fatalf("%s: MoveOf(TurnOf(%v) = %s) = %v, %v", gameTypeName(typ), m, turnString(turn), back, err)
			}
		}
	}
	g := randomGame(core.Base, 5, 20, nil)
	if _, err := TurnOf(core.MakeMove(0, core.Origin.Step(20, 0)), g); !errors.Is(err, ErrBadTurn) {
		t.Errorf("TurnOf(an illegal move) = %v, want ErrBadTurn", err)
	}
	for _, turn := range []Turn{
		{TurnType: TurnForfeit},
		{TurnType: TurnPlacement, PieceType: NamePillbug, Destination: "0,0"},
		{TurnType: TurnPlacement, PieceType: "Queen", Destination: "0,0"},
		{TurnType: TurnMovement, Source: "30,0", Destination: "0,0"},
		{TurnType: TurnMovement, Source: "0,0", Destination: "x"},
		{TurnType: TurnSpecialAbility, AbilityUser: "0,0", Source: "0,0", Destination: "0,0"},
		{TurnType: "Pass"},
	} {
		if m, err := MoveOf(turn, g); !errors.Is(err, ErrBadTurn) {
			t.Errorf("MoveOf(%s) = %v, %v; want ErrBadTurn", turnString(turn), m, err)
		}
	}
}

func ExampleStateOf() {
	g := core.NewGame(core.Base)
	for _, t := range []Turn{
		{TurnType: TurnPlacement, PieceType: NameSpider, Destination: "0,0"},
		{TurnType: TurnPlacement, PieceType: NameSpider, Destination: "2,0"},
	} {
		m, err := MoveOf(t, g)
		if err != nil {
			panic(err)
		}
		g.Play(m)
	}
	s, _ := StateOf(g)
	b, _ := json.Marshal(s.Board)
	fmt.Println(string(b))
	fmt.Println(s.PlayerTurn, s.TurnNumber, s.PossibleTurns.Placement.PieceTypes, s.PossibleTurns.Placement.Positions)
	// Output:
	// {"pieces":{"0,0":[{"color":"White","type":"Spider"}],"2,0":[{"color":"Black","type":"Spider"}]}}
	// White 2 [Queen Bee Beetle Grasshopper Spider Soldier Ant] [-2,0 -1,-1 -1,1]
}

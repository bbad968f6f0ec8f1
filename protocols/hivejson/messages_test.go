package hivejson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

func TestParseMessage(t *testing.T) {
	cases := []struct {
		in   string
		want string // the type, or the error's words
		err  error
	}{
		{`{"request_type":"Greetings","request_id":"a","system_version":"0.1.0"}`, "*hivejson.GreetingsRequest", nil},
		{`{"request_type":"CHOOSE_TURN","request_id":"a","game_id":"g","game_state":{}}`, "*hivejson.ChooseTurnRequest", nil},
		{`{"response_type":"Greetings","response_id":"a","name":"x","active":true}`, "*hivejson.GreetingsResponse", nil},
		{`{"response_type":"Choose Turn","request_id":"a","game_id":"g","turn_type":"Forfeit"}`, "*hivejson.ChooseTurnResponse", nil},
		{`{"success":false,"error":"bad"}`, "*hivejson.ErrorFrame", nil},
		{`{"error":"bad"}`, "*hivejson.ErrorFrame", nil},
		{`{"request_type":"Play"}`, `"Play"`, ErrUnknownRequest},
		{`{"response_type":"Play"}`, `"Play"`, ErrUnknownMessage},
		{`{"type":"ping"}`, "no request_type", ErrUnknownMessage},
		{`[1,2]`, "not a JSON object", ErrNotObject},
		{`"Greetings"`, "not a JSON object", ErrNotObject},
		{``, "not a JSON object", ErrNotObject},
		{`{"request_type":7}`, "malformed", ErrBadMessage},
		{`{"request_type":"Choose Turn","request_timestamp":"now"}`, "malformed", ErrBadMessage},
		{`{"request_type":"Choose Turn","game_state":{"winner":5}}`, "winner", ErrBadMessage},
	}
	for _, c := range cases {
		m, err := ParseMessage([]byte(c.in))
		if c.err == nil {
			if err != nil {
				t.Errorf("ParseMessage(%s): %v", c.in, err)
			} else if got := typeName(m); got != c.want {
				t.Errorf("ParseMessage(%s) = %s, want %s", c.in, got, c.want)
			}
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseMessage(%s) = %v, %v; want an error %q mentioning %q", c.in, m, err, c.err, c.want)
		}
	}
}

func typeName(m Message) string {
	switch m.(type) {
	case *GreetingsRequest:
		return "*hivejson.GreetingsRequest"
	case *GreetingsResponse:
		return "*hivejson.GreetingsResponse"
	case *ChooseTurnRequest:
		return "*hivejson.ChooseTurnRequest"
	case *ChooseTurnResponse:
		return "*hivejson.ChooseTurnResponse"
	case *ErrorFrame:
		return "*hivejson.ErrorFrame"
	}
	return "?"
}

// TestChooseTurnResponse reads replies as AI modules send them: with
// response_id or only request_id, with an error key, with extra keys.
func TestChooseTurnResponse(t *testing.T) {
	m, _ := ParseMessage([]byte(`{"response_type":"Choose Turn","request_id":"7pNQ4","game_id":"KqwSQ","turn_type":"Special Ability","ability_user":"0,0","source":"1,1","destination":"2,0","extra":[1]}`))
	r := m.(*ChooseTurnResponse)
	want := Turn{TurnType: TurnSpecialAbility, AbilityUser: "0,0", Source: "1,1", Destination: "2,0"}
	if r.ID() != "7pNQ4" || r.GameID != "KqwSQ" || r.Turn != want || r.Failed() {
		t.Errorf("decoded %+v", r)
	}
	m, _ = ParseMessage([]byte(`{"response_type":"Choose Turn","response_id":"x","game_id":"g","error":{"message":"no idea"}}`))
	if r := m.(*ChooseTurnResponse); !r.Failed() || r.ID() != "x" {
		t.Errorf("decoded %+v, want a failed reply", r)
	}
	// Each kind of turn is written with its own keys only, in the spec's
	// order.
	req := ChooseTurnRequest{RequestID: "id", GameID: "g"}
	for turn, want := range map[Turn]string{
		{TurnType: TurnPlacement, PieceType: NameAnt, Destination: "-1,-1"}:                   `"turn_type":"Placement","piece_type":"Soldier Ant","destination":"-1,-1"}`,
		{TurnType: TurnMovement, Source: "0,0", Destination: "2,0"}:                           `"turn_type":"Movement","source":"0,0","destination":"2,0"}`,
		{TurnType: TurnSpecialAbility, AbilityUser: "0,0", Source: "1,1", Destination: "2,0"}: `"turn_type":"Special Ability","ability_user":"0,0","source":"1,1","destination":"2,0"}`,
		{TurnType: TurnForfeit}: `"turn_type":"Forfeit"}`,
	} {
		b, _ := json.Marshal(req.Reply(turn))
		prefix := `{"response_type":"Choose Turn","response_id":"id","request_id":"id","game_id":"g",`
		if string(b) != prefix+want {
			t.Errorf("reply = %s, want %s%s", b, prefix, want)
		}
	}
}

// TestChooseTurnRequestShape checks the fields the wire doc describes in a
// request that hivebridge writes: a null deadline, winner null at the
// start and absent afterwards, {} for an empty hand, possible_turns null at
// the end and "Forfeit" for a pass.
func TestChooseTurnRequestShape(t *testing.T) {
	g := core.NewGame(core.Base)
	req, err := NewChooseTurnRequest("r1", "g1", 1405582952293, g)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req)
	for _, want := range []string{
		`{"request_type":"Choose Turn","request_id":"r1","game_id":"g1","request_timestamp":1405582952293,"response_deadline":null,"game_state":{"board":{"pieces":{}},`,
		`"player_turn":"White","turn_number":0,"game_over":false,"winner":null,"is_draw":false,`,
		`"creation_parameters":{"use_mosquito":false,"use_ladybug":false,"use_pillbug":false},"turn_history":[],`,
		`"possible_turns":{"Placement":{"piece_types":["Beetle","Grasshopper","Spider","Soldier Ant"],"positions":["0,0"]}}}}`,
		`"White":{"Beetle":2,"Grasshopper":3,"Queen Bee":1,"Soldier Ant":3,"Spider":2}`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("request %s lacks %s", b, want)
		}
	}
	var back ChooseTurnRequest
	if err := json.Unmarshal(b, &back); err != nil || back.GameState.Winner != (Winner{Present: true}) || back.ResponseDeadline != nil {
		t.Errorf("read back: %+v, %v", back.GameState.Winner, err)
	}
	g.Play(core.MakeMove(mustPiece(core.White, core.Spider, 1), core.Origin))
	s, _ := StateOf(g)
	b, _ = json.Marshal(s)
	if strings.Contains(string(b), "winner") {
		t.Errorf("after the first turn, winner must be absent: %s", b)
	}
	// An empty hand is {}, also from a zero Hands.
	if b, _ := json.Marshal(Hands{}); string(b) != `{"White":{},"Black":{}}` {
		t.Errorf("empty hands = %s", b)
	}
	// A deadline, when there is one, is a number.
	dl := int64(1405583012293)
	req.ResponseDeadline = &dl
	if b, _ := json.Marshal(req); !strings.Contains(string(b), `"response_deadline":1405583012293`) {
		t.Errorf("deadline: %s", b)
	}
}

// TestForfeit checks a pass both ways: offered as "Forfeit": true and
// nothing else, read as core.Pass, written as a Forfeit turn, replayed from
// the history; and refused while other moves exist.
func TestForfeit(t *testing.T) {
	g := core.NewGame(core.Base)
	if choices, err := Offered(&PossibleTurns{Forfeit: true}, g); err != nil || len(choices) != 0 {
		t.Errorf("Offered(Forfeit) while moves exist = %v, %v; want none legal", choices, err)
	}
	if _, err := MoveOf(Turn{TurnType: TurnForfeit}, g); err == nil || !strings.Contains(err.Error(), "pass") {
		t.Errorf("MoveOf(Forfeit) with moves = %v", err)
	}
	// A seeded random Base+M game where White, at ply 39, has no move.
	g = randomGame(core.WithMosquito, 18, 39, nil)
	if l := legalMoves(g); len(l) != 1 || l[0] != core.Pass {
		t.Fatalf("the random game no longer reaches a pass at ply 39 (%d moves); pick another", len(l))
	}
	s, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(s.PossibleTurns); string(b) != `{"Forfeit":true}` {
		t.Errorf("pass: possible_turns = %s", b)
	}
	if m, err := MoveOf(Turn{TurnType: TurnForfeit}, g); err != nil || m != core.Pass {
		t.Errorf("MoveOf(Forfeit) = %v, %v", m, err)
	}
	if turn, err := TurnOf(core.Pass, g); err != nil || turn != (Turn{TurnType: TurnForfeit}) {
		t.Errorf("TurnOf(Pass) = %v, %v", turn, err)
	}
	choices, err := Offered(s.PossibleTurns, g)
	if err != nil || len(choices) != 1 || choices[0].Move != core.Pass {
		t.Errorf("Offered(pass) = %v, %v", choices, err)
	}
	g.Play(core.Pass)
	s = checkRoundTrip(t, g) // a Forfeit in the history replays
	if last := s.TurnHistory[len(s.TurnHistory)-1]; last != (Turn{TurnType: TurnForfeit}) {
		t.Errorf("the pass is recorded as %+v", last)
	}
}

func mustPiece(c core.Color, b core.Bug, n int) core.Piece {
	p, ok := core.MakePiece(c, b, n)
	if !ok {
		panic("no such piece")
	}
	return p
}

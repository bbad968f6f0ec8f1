package hivejson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// The fixtures in testdata were written by hand from docs/design/hivejson-wire.md
// and the spec's examples: the positions were laid out on the wire's
// row,col grid, their histories played by the rules by hand, and their
// possible_turns worked out by hand (the Choose Turn fixtures list them as
// the original controller would, in its own order; the pillbug one with
// its quirks: a repeated destination and a Special Ability entry with an
// empty list). *.frame files hold exact wire bytes; *.json files hold one
// message (or a game_state) pretty-printed, which the tests compact and
// frame as a peer would send it.

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// frameFixture returns a .json fixture as the frame a peer sends.
func frameFixture(t testing.TB, name string) []byte {
	t.Helper()
	f, err := AppendRawFrame(nil, readFixture(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

// decodeSplit feeds a stream to a Decoder in pieces of the given size and
// returns the messages it yields.
func decodeSplit(t *testing.T, stream []byte, piece int) []json.RawMessage {
	t.Helper()
	d := NewDecoder(0)
	var out []json.RawMessage
	for len(stream) > 0 {
		n := min(piece, len(stream))
		d.Feed(stream[:n])
		stream = stream[n:]
		for {
			msg, err := d.Next()
			if err == ErrNeedMore {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			out = append(out, msg)
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return out
}

func TestGreetingsFixture(t *testing.T) {
	raw, err := DecodeFrame(readFixture(t, "greetings_request.frame"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	req, ok := m.(*GreetingsRequest)
	if !ok {
		t.Fatalf("ParseMessage = %T, want *GreetingsRequest", m)
	}
	if want := NewGreetingsRequest("k5i7O"); *req != want {
		t.Errorf("request = %+v, want %+v", *req, want)
	}
	reply := req.Reply(GreetingsResponse{
		Name:        "hivebridge",
		Active:      true,
		Version:     "0.1.0",
		LongName:    "hivebridge \u2013 Hive bridge",
		Description: "Any Hive engine behind one protocol \U0001F41D",
		Author:      "hivebridge authors",
		ProjectURL:  "https://github.com/hivebridge/hivebridge",
		Language:    "Go",
	})
	got, err := EncodeFrame(reply)
	if err != nil {
		t.Fatal(err)
	}
	want := readFixture(t, "greetings_reply.frame")
	if !bytes.Equal(got, want) {
		t.Errorf("reply frame\n got %s\nwant %s", got, want)
	}
	// And back: the reply decodes to what was sent.
	m, err = ParseMessage(mustDecodeFrame(t, want))
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := m.(*GreetingsResponse); !ok || *r != reply || r.ID() != "k5i7O" {
		t.Errorf("reply decodes to %#v", m)
	}

	// The old spelling is accepted; our own request is written as the
	// fixture is.
	old, err := ParseMessage([]byte(`{"request_type":"GREETINGS","request_id":"a","system_version":"0.0.1"}`))
	if r, ok := old.(*GreetingsRequest); err != nil || !ok || r.RequestID != "a" {
		t.Errorf("GREETINGS: %#v, %v", old, err)
	}
	ours, _ := EncodeFrame(NewGreetingsRequest("k5i7O"))
	if !bytes.Equal(ours, readFixture(t, "greetings_request.frame")) {
		t.Errorf("NewGreetingsRequest frame = %s", ours)
	}
}

func mustDecodeFrame(t *testing.T, f []byte) json.RawMessage {
	t.Helper()
	raw, err := DecodeFrame(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestUTF16Fixture reads a Greetings reply from a Node peer whose long_name
// has a rune beyond the BMP: its length counts UTF-16 units, neither bytes
// nor runes. Packed with another frame and split at every byte, it must
// decode the same.
func TestUTF16Fixture(t *testing.T) {
	f := readFixture(t, "greetings_reply_utf8.frame")
	raw := mustDecodeFrame(t, f)
	var r GreetingsResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.LongName != "R\u00e4ndo[m] \U0001F41D" || r.Description != "The random monkey AI \u2013 \u732b" || r.ID() != "k5i7O" {
		t.Errorf("decoded %+v", r)
	}
	stream := append(slices.Clone(f), f...)
	for piece := 1; piece <= len(stream); piece++ {
		msgs := decodeSplit(t, stream, piece)
		if len(msgs) != 2 || !bytes.Equal(msgs[0], raw) || !bytes.Equal(msgs[1], raw) {
			t.Fatalf("split every %d bytes: %d messages", piece, len(msgs))
		}
	}
	// Re-encoded, it is ASCII and its length is its byte count.
	out, err := EncodeFrame(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range out {
		if c >= 0x80 {
			t.Fatalf("EncodeFrame wrote a non-ASCII byte: %s", out)
		}
	}
	if !bytes.Contains(out, []byte(`R\u00e4ndo[m] \ud83d\udc1d`)) {
		t.Errorf("EncodeFrame = %s", out)
	}
}

func TestErrorFrameFixture(t *testing.T) {
	m, err := ParseMessage(mustDecodeFrame(t, readFixture(t, "error.frame")))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := m.(*ErrorFrame)
	if !ok || e.Success || !strings.Contains(e.Message, "Unexpected token") {
		t.Fatalf("ParseMessage = %#v", m)
	}
	f, _ := EncodeFrame(NewErrorFrame(ErrBadLength))
	if want := `{"success":false,"error":"hivejson: frame length is not a decimal number"}`; string(f) != "74#"+want {
		t.Errorf("error frame = %s", f)
	}
}

// parseRequest decodes a Choose Turn fixture as it arrives: framed, split
// into pieces of 7 bytes.
func parseRequest(t *testing.T, name string) *ChooseTurnRequest {
	t.Helper()
	msgs := decodeSplit(t, frameFixture(t, name), 7)
	if len(msgs) != 1 {
		t.Fatalf("%s: %d messages", name, len(msgs))
	}
	m, err := ParseMessage(msgs[0])
	if err != nil {
		t.Fatal(err)
	}
	req, ok := m.(*ChooseTurnRequest)
	if !ok {
		t.Fatalf("%s: ParseMessage = %T", name, m)
	}
	return req
}

// sortedTurns lists the distinct turns of p in a canonical order.
func sortedTurns(p *PossibleTurns) []string {
	var out []string
	for _, t := range p.Turns() {
		out = append(out, turnString(t))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkState compares a game_state that hivebridge wrote with the one a
// fixture holds, key by key, possible_turns as sets.
func checkState(t *testing.T, got, want GameState) {
	t.Helper()
	if !reflect.DeepEqual(got.Board, want.Board) {
		t.Errorf("board\n got %v\nwant %v", got.Board, want.Board)
	}
	if !reflect.DeepEqual(got.Hands, want.Hands) {
		t.Errorf("hands\n got %v\nwant %v", got.Hands, want.Hands)
	}
	if got.PlayerTurn != want.PlayerTurn || got.TurnNumber != want.TurnNumber || got.GameOver != want.GameOver ||
		got.IsDraw != want.IsDraw || got.Winner.Color != want.Winner.Color || got.CreationParameters != want.CreationParameters {
		t.Errorf("turn and result: got %s %d over=%v draw=%v winner=%q %+v, want %s %d over=%v draw=%v winner=%q %+v",
			got.PlayerTurn, got.TurnNumber, got.GameOver, got.IsDraw, got.Winner.Color, got.CreationParameters,
			want.PlayerTurn, want.TurnNumber, want.GameOver, want.IsDraw, want.Winner.Color, want.CreationParameters)
	}
	if !reflect.DeepEqual(got.TurnHistory, want.TurnHistory) {
		t.Errorf("turn_history\n got %v\nwant %v", got.TurnHistory, want.TurnHistory)
	}
	if (got.PossibleTurns == nil) != (want.PossibleTurns == nil) {
		t.Fatalf("possible_turns: got %v, want %v", got.PossibleTurns, want.PossibleTurns)
	}
	if g, w := sortedTurns(got.PossibleTurns), sortedTurns(want.PossibleTurns); !slices.Equal(g, w) {
		t.Errorf("possible_turns\n got %d: %v\nwant %d: %v", len(g), g, len(w), w)
	}
}

func TestChooseTurnMidgameFixture(t *testing.T) {
	req := parseRequest(t, "choose_turn_midgame.json")
	if req.RequestID != "7pNQ4" || req.GameID != "KqwSQ" || req.RequestTimestamp != 1405582952293 || req.ResponseDeadline != nil {
		t.Errorf("request fields: %+v", req)
	}
	s := req.GameState
	if s.Winner.Present {
		t.Errorf("winner is absent in the fixture, decoded as %+v", s.Winner)
	}
	g, err := GameOf(s)
	if err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 16 || g.Type() != core.WithMosquito|core.WithLadybug|core.WithPillbug {
		t.Errorf("GameOf: ply %d type %v", g.Ply(), g.Type())
	}
	// The three-high stack: the Black Spider under the White Beetle under
	// the Black Mosquito.
	bm, _ := core.MakePiece(core.Black, core.Mosquito, 1)
	wb, _ := core.MakePiece(core.White, core.Beetle, 1)
	bs, _ := core.MakePiece(core.Black, core.Spider, 1)
	if c := g.Position(bm); g.Height(c) != 3 || g.Top(c) != bm || g.Under(bm) != wb || g.Under(wb) != bs {
		t.Errorf("the stack at 2,0 is not bS1 < wB1 < bM")
	}
	// hivebridge's own game_state of the position is the fixture's
	// (history without the extra keys, which Turn drops; the hand-written
	// possible_turns as a set).
	ours, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	checkState(t, ours, s)
	// Answer: the Grasshopper jumps over the stack.
	choices, err := Offered(s.PossibleTurns, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(choices) != 6*8+7 {
		t.Errorf("Offered: %d legal choices, want %d", len(choices), 6*8+7)
	}
	pick := Turn{TurnType: TurnMovement, Source: "1,1", Destination: "3,-1"}
	m, err := MoveOf(pick, g)
	if err != nil {
		t.Fatal(err)
	}
	turn, ok := TurnFor(choices, m)
	if !ok || turn != pick {
		t.Fatalf("TurnFor = %+v, %v", turn, ok)
	}
	reply, err := EncodeFrame(req.Reply(turn))
	if err != nil {
		t.Fatal(err)
	}
	if want := readFixture(t, "choose_turn_midgame.reply.frame"); !bytes.Equal(reply, want) {
		t.Errorf("reply\n got %s\nwant %s", reply, want)
	}
	// The reply, read back by a controller, makes the move.
	rm, err := ParseMessage(mustDecodeFrame(t, reply))
	if err != nil {
		t.Fatal(err)
	}
	r := rm.(*ChooseTurnResponse)
	if back, err := MoveOf(r.Turn, g); err != nil || back != m || r.ID() != "7pNQ4" || r.Failed() {
		t.Errorf("reply read back: %v, %v", back, err)
	}
}

func TestChooseTurnPillbugFixture(t *testing.T) {
	req := parseRequest(t, "choose_turn_pillbug.json")
	s := req.GameState
	g, err := GameOf(s)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's lists, as the original sends them, repeat a
	// destination and have an empty Special Ability entry; as sets they
	// are the hand-computed turns of the position, which hivebridge's
	// own must equal.
	checkState(t, ours, s)
	if n := len(ours.PossibleTurns.SpecialAbility["0,0"]); n != 2 {
		t.Errorf("hivebridge's Special Ability lists %d carried pieces, want 2 (no empty list)", n)
	}
	choices, err := Offered(s.PossibleTurns, g)
	if err != nil {
		t.Fatal(err)
	}
	distinct := len(sortedTurns(s.PossibleTurns))
	if len(choices) != distinct {
		t.Errorf("Offered: %d choices, want the %d distinct offered turns", len(choices), distinct)
	}
	// The Queen reaches -1,1 by itself or by a throw: answer the Movement.
	// It reaches 1,-1 only by a throw: answer the Special Ability.
	wq, _ := core.MakePiece(core.White, core.Queen, 1)
	tr, _, _ := trackGame(g, false)
	cell := func(s string) core.Cell {
		p, _ := ParsePos(s)
		c, err := tr.cellOf(p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if turn, ok := TurnFor(choices, core.MakeMove(wq, cell("-1,1"))); !ok || turn.TurnType != TurnMovement {
		t.Errorf("TurnFor(wQ to -1,1) = %+v, %v; want the Movement", turn, ok)
	}
	throwOnly := core.MakeMove(wq, cell("1,-1"))
	turn, ok := TurnFor(choices, throwOnly)
	if !ok || turn.TurnType != TurnSpecialAbility {
		t.Fatalf("TurnFor(wQ to 1,-1) = %+v, %v; want the Special Ability", turn, ok)
	}
	if ot, err := TurnOf(throwOnly, g); err != nil || ot != turn {
		t.Errorf("TurnOf(wQ to 1,-1) = %+v, %v; want %+v", ot, err, turn)
	}
	reply, err := EncodeFrame(req.Reply(turn))
	if err != nil {
		t.Fatal(err)
	}
	if want := readFixture(t, "choose_turn_pillbug.reply.frame"); !bytes.Equal(reply, want) {
		t.Errorf("reply\n got %s\nwant %s", reply, want)
	}
	// Played, the throw is recorded as the Special Ability it was, and
	// the state after it rebuilds.
	g.Play(throwOnly)
	after, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	if last := after.TurnHistory[len(after.TurnHistory)-1]; last != turn {
		t.Errorf("history records %+v, want %+v", last, turn)
	}
	if g2, err := GameOf(after); err != nil || g2.Hash() != g.Hash() {
		t.Errorf("GameOf(after the throw): %v", err)
	}
}

func TestGameOverFixture(t *testing.T) {
	var s GameState
	if err := json.Unmarshal(readFixture(t, "game_over_state.json"), &s); err != nil {
		t.Fatal(err)
	}
	g, err := GameOf(s)
	if err != nil {
		t.Fatal(err)
	}
	if g.Result() != core.WhiteWins || g.Ply() != 13 {
		t.Errorf("result %v after %d plies, want White's win after 13", g.Result(), g.Ply())
	}
	ours, err := StateOf(g)
	if err != nil {
		t.Fatal(err)
	}
	checkState(t, ours, s)
	b, _ := json.Marshal(ours)
	for _, want := range []string{`"game_over":true,"winner":"White","is_draw":false`, `"possible_turns":null`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("state %s lacks %s", b, want)
		}
	}
	// Nothing is legal any more, and a turn says why.
	if p, err := PossibleTurnsOf(g); p != nil || err != nil {
		t.Errorf("PossibleTurnsOf(over) = %v, %v", p, err)
	}
	if _, err := MoveOf(Turn{TurnType: TurnForfeit}, g); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("MoveOf(Forfeit) after the end = %v", err)
	}
	// The winner must agree.
	s.Winner = Winner{Present: true, Color: ColorBlack}
	if _, err := GameOf(s); err == nil {
		t.Errorf("GameOf accepted Black as the winner")
	}
}

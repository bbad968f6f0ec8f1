package hivejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// FuzzFrameDecoder feeds arbitrary bytes to a Decoder, all at once and in
// pieces of a fuzzed size, counting lengths in UTF-16 units and in UTF-8
// bytes. It must never panic, every error must be a *FrameError, both
// feedings must decode alike, Stalled must never panic either, and every
// frame decoded must round-trip: framed again by AppendRawFrame it is
// ASCII-only, its length is its byte count, and it decodes to the same JSON
// value in either count.
func FuzzFrameDecoder(f *testing.F) {
	seeds := []string{
		ping, ping + ping, " \n" + ping, "0015#" + `{"type":"ping"}`,
		`15#{"type":"ping"`, "15", "#", "-1#{}", "abc#{}", "1x#{}", "99999999999999999999#",
		`{"type":"ping"}`, `5#hello`, `0#`, "2#{}\n3#[1]", `14#{"type":"ping"}` + ping,
		"10#{\"s\":\"\U0001F41D\"}", "7#{\"s\":\"\U0001F41D\"}", "10#{\"s\":\"\xf0\x9f\"}", "3#\"\xff\"",
		`6#"\ud83d"`, `5#1e400`, "5000#{}",
		"12#{\"s\":\"\U0001F41D\"}" + ping, "12#{\"s\":\"\U0001F41D\"}", "13#{\"s\":\"\u00e9\u732b\"}",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	for _, name := range []string{"greetings_request.frame", "greetings_reply.frame", "greetings_reply_utf8.frame", "error.frame", "choose_turn_pillbug.reply.frame"} {
		f.Add(readFixture(f, name), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		const maxLen = 4096
		for _, length := range []FrameLength{UTF16Units, UTF8Bytes} {
			all := decodeAll(data, 0, maxLen, length) // panics on an error that is not a *FrameError
			if split := decodeAll(data, int(piece)+1, maxLen, length); !sameResults(all, split) {
				t.Fatalf("%s at once: %v\nin pieces of %d: %v", length, all, int(piece)+1, split)
			}
			d := NewDecoder(maxLen)
			d.SetFrameLength(length)
			d.Feed(data)
			for {
				if _, err := d.Next(); err == ErrNeedMore {
					break
				}
			}
			if err := d.Stalled(); err != nil && !errors.Is(err, ErrFrameLength) {
				t.Fatalf("Stalled = %v", err)
			}
			for _, r := range all {
				if r.err == nil {
					checkReframes(t, r.msg)
				}
			}
		}
	})
}

// checkReframes checks that a decoded frame, framed again, is ASCII-only,
// has its byte count for length, and decodes to the same value whether
// its length is read as UTF-16 units or UTF-8 bytes.
func checkReframes(t *testing.T, msg string) {
	frame, err := AppendRawFrame(nil, []byte(msg))
	if err != nil {
		t.Fatalf("a decoded frame %q does not frame again: %v", msg, err)
	}
	hash := bytes.IndexByte(frame, '#')
	n, _ := strconv.Atoi(string(frame[:hash]))
	body := frame[hash+1:]
	if n != len(body) || n != UTF16Len(body) {
		t.Fatalf("frame %q: length %d for %d bytes", frame, n, len(body))
	}
	for _, c := range body {
		if c >= 0x80 {
			t.Fatalf("frame %q is not ASCII", frame)
		}
	}
	back, err := DecodeFrame(frame, 0)
	if err != nil {
		t.Fatalf("frame %q does not decode: %v", frame, err)
	}
	d := NewDecoder(0)
	d.SetFrameLength(UTF8Bytes)
	d.Feed(frame)
	inBytes, err := d.Next()
	if err != nil || !bytes.Equal(inBytes, back) {
		t.Fatalf("frame %q decodes as %q in UTF-16 units, as %q, %v in bytes", frame, back, inBytes, err)
	}
	if a, b := jsonValue(t, []byte(msg)), jsonValue(t, back); !reflect.DeepEqual(a, b) {
		t.Fatalf("%q framed again reads as %q: %v != %v", msg, back, a, b)
	}
}

func jsonValue(t *testing.T, b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return v
}

// FuzzGameStateDecode decodes arbitrary JSON as a game_state, with or
// without turn_history (a set-up position). It must never panic, and a
// state that rebuilds into a game must round-trip: the game's
// own state agrees with it in everything GameOf checks, rebuilds into the
// same game, and is written the same way twice; the turns it offers are
// the legal ones among its possible_turns.
func FuzzGameStateDecode(f *testing.F) {
	for _, name := range []string{"choose_turn_midgame.json", "choose_turn_pillbug.json", "choose_turn_setup_opening.json", "choose_turn_setup_win.json"} {
		var req ChooseTurnRequest
		if err := json.Unmarshal(readFixture(f, name), &req); err != nil {
			f.Fatal(err)
		}
		b, _ := json.Marshal(req.GameState)
		f.Add(b)
		f.Add(bytes.Replace(b, []byte(`"turn_number":`), []byte(`"turn_number":1`), 1))
	}
	f.Add(readFixture(f, "game_over_state.json"))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"turn_history":[],"player_turn":"White"}`))
	f.Add([]byte(`{"board":{"pieces":{"0,0":[{"color":"White","type":"Spider"}]}},"player_turn":"Black","turn_number":1,"turn_history":[{"turn_type":"Placement","piece_type":"Spider","destination":"0,0"}],"hands":{"White":{"Spider":1,"Beetle":2,"Grasshopper":3,"Queen Bee":1,"Soldier Ant":3},"Black":{"Spider":2,"Beetle":2,"Grasshopper":3,"Queen Bee":1,"Soldier Ant":3}}}`))
	for typ := core.GameType(0); typ < core.AllGameTypes; typ++ {
		g := randomGame(typ, 3, 12+4*int(typ), nil)
		s, _ := StateOf(g)
		b, _ := json.Marshal(s)
		f.Add(b)
		s.TurnHistory = nil // the same position, set up
		b, _ = json.Marshal(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s GameState
		if json.Unmarshal(data, &s) != nil {
			return
		}
		g, err := GameOf(s)
		if err != nil {
			return
		}
		if _, err := Offered(s.PossibleTurns, g); err != nil {
			t.Fatalf("Offered: %v", err)
		}
		ours, err := StateOf(g)
		if err != nil {
			t.Fatalf("StateOf of a rebuilt game: %v", err)
		}
		if ours.PlayerTurn != s.PlayerTurn || ours.TurnNumber != s.TurnNumber || ours.GameOver != s.GameOver ||
			ours.IsDraw != s.IsDraw || ours.Winner.Color != s.Winner.Color || ours.CreationParameters != s.CreationParameters {
			t.Fatalf("state disagrees with the one it was built from")
		}
		if len(ours.Board.Pieces) != len(s.Board.Pieces) {
			t.Fatalf("board has %d positions, the input %d", len(ours.Board.Pieces), len(s.Board.Pieces))
		}
		for key, stack := range s.Board.Pieces {
			p, _ := ParsePos(key)
			if !reflect.DeepEqual(ours.Board.Pieces[p.String()], stack) {
				t.Fatalf("board at %s differs", key)
			}
		}
		b, err := json.Marshal(ours)
		if err != nil {
			t.Fatal(err)
		}
		var again GameState
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatal(err)
		}
		g2, err := GameOf(again)
		if err != nil {
			t.Fatalf("our own state does not rebuild: %v\n%s", err, b)
		}
		if g2.Hash() != g.Hash() || !reflect.DeepEqual(g2.History(), g.History()) {
			t.Fatalf("our own state rebuilds into another game")
		}
		ours2, _ := StateOf(g2)
		if b2, _ := json.Marshal(ours2); !bytes.Equal(b, b2) {
			t.Fatalf("written twice, differently:\n%s\n%s", b, b2)
		}
	})
}

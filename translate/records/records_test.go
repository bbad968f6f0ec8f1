package records_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// TestBoardSpaceAsMzingaConvertsIt reads each real BoardSpace SGF record
// beside the PGN Mzinga made of it (protocols/sgf/testdata, from Mzinga's
// test assets) and checks that the two give the same game: type, players,
// result and every move, compared as core plays them (both are written
// again by uhp.FormatMove, so that two spellings of one move compare
// equal).
func TestBoardSpaceAsMzingaConvertsIt(t *testing.T) {
	sgfs, _ := filepath.Glob("../../protocols/sgf/testdata/*.sgf")
	if len(sgfs) < 5 {
		t.Fatalf("%d SGF records found, want the real ones", len(sgfs))
	}
	for _, path := range sgfs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			fromSGF := readOne(t, path)
			fromPGN := readOne(t, strings.TrimSuffix(path, ".sgf")+".pgn")
			if fromSGF.GameType != fromPGN.GameType || fromSGF.White != fromPGN.White || fromSGF.Black != fromPGN.Black {
				t.Errorf("SGF: %s, %s against %s; PGN: %s, %s against %s", uhp.FormatGameType(fromSGF.GameType), fromSGF.White, fromSGF.Black,
					uhp.FormatGameType(fromPGN.GameType), fromPGN.White, fromPGN.Black)
			}
			if fromSGF.Result != fromPGN.Result {
				t.Errorf("result: SGF %q, PGN %q", fromSGF.Result, fromPGN.Result)
			}
			if len(fromSGF.Moves) != len(fromPGN.Moves) {
				t.Errorf("%d moves from the SGF, %d from the PGN", len(fromSGF.Moves), len(fromPGN.Moves))
			}
			for i := range min(len(fromSGF.Moves), len(fromPGN.Moves)) {
				if fromSGF.Moves[i] != fromPGN.Moves[i] {
					t.Fatalf("ply %d: SGF %q, PGN %q", i+1, fromSGF.Moves[i], fromPGN.Moves[i])
				}
			}
		})
	}
}

func readOne(t *testing.T, path string) records.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := records.Read(path, data)
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("%s: %d games, errors %v", path, len(recs), errs)
	}
	return recs[0]
}

// TestRoundTrips writes random legal games of every game type in every
// format and reads them back: the same GameString each time.
func TestRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	var l core.MoveList
	var recs []records.Record
	for gt := core.GameType(0); gt < core.AllGameTypes; gt++ {
		for range 3 {
			g := core.NewGame(gt, core.RepetitionDraw(false))
			r := records.Record{GameType: gt, White: "alice", Black: "bob"}
			for g.Ply() < 20+rng.IntN(100) && !g.Over() {
				g.GenerateMoves(&l)
				m := l.At(rng.IntN(l.Len()))
				r.Moves = append(r.Moves, uhp.FormatMove(m, g))
				g.Play(m)
			}
			if g.Over() {
				r.Result = core.StateOf(g).String()
			}
			// An engine's score on every third move, as match --pgn writes.
			r.Comments = make([]string, len(r.Moves))
			for i := 0; i < len(r.Moves); i += 3 {
				r.Comments[i] = fmt.Sprintf("%+d/%d", rng.IntN(2000)-1000, 1+rng.IntN(20))
			}
			// A move class's NAG on every fifth, as analyze writes.
			r.NAGs = make([][]int, len(r.Moves))
			for i := 1; i < len(r.Moves); i += 5 {
				r.NAGs[i] = []int{1 + rng.IntN(6)}
			}
			recs = append(recs, r)
		}
	}
	for _, f := range records.Formats() {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := records.Write(&buf, f, recs...); err != nil {
				t.Fatal(err)
			}
			var back []records.Record
			if f == records.SGF {
				// BoardSpace writes a game a file: read each tree alone.
				for _, one := range recs {
					var b bytes.Buffer
					if err := records.Write(&b, f, one); err != nil {
						t.Fatal(err)
					}
					got, errs := records.Read("written.sgf", b.Bytes())
					if len(errs) > 0 {
						t.Fatal(errs)
					}
					back = append(back, got...)
				}
			} else {
				var errs []error
				back, errs = records.Read("written", buf.Bytes())
				if len(errs) > 0 {
					t.Fatal(errs)
				}
			}
			if len(back) != len(recs) {
				t.Fatalf("%d games read back, %d written", len(back), len(recs))
			}
			for i := range recs {
				want, _ := recs[i].UHP()
				got, err := back[i].UHP()
				if err != nil || got.String() != want.String() {
					t.Fatalf("game %d: read back %q, %v; wrote %q", i, got.String(), err, want.String())
				}
				if f != records.GameString && (back[i].White != "alice" || back[i].Black != "bob") {
					t.Errorf("game %d: players %q and %q", i, back[i].White, back[i].Black)
				}
				if (f == records.PGN || f == records.JSONL) && !slices.Equal(back[i].Comments, recs[i].Comments) {
					t.Errorf("game %d: comments read back %q, written %q", i, back[i].Comments, recs[i].Comments)
				}
				if (f == records.PGN || f == records.JSONL) && !slices.EqualFunc(back[i].NAGs, recs[i].NAGs, slices.Equal) {
					t.Errorf("game %d: NAGs read back %v, written %v", i, back[i].NAGs, recs[i].NAGs)
				}
			}
		})
	}
}

// TestIllegalMoveNamesEverything reads a file whose second game has an
// illegal move: the first game comes back, the second is refused whole,
// with the file, the game, the ply, the move and the rule in the message.
func TestIllegalMoveNamesEverything(t *testing.T) {
	data := "Base;InProgress;White[2];wS1;bS1 wS1-\nBase;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ wS1/\n"
	recs, errs := records.Read("games.txt", []byte(data))
	if len(recs) != 1 || len(errs) != 1 {
		t.Fatalf("%d games, errors %v", len(recs), errs)
	}
	var ge *records.GameError
	var pe *records.PlyError
	if !errors.As(errs[0], &ge) || ge.Game != 2 || !errors.As(errs[0], &pe) || pe.Ply != 4 || pe.Move != "bQ wS1/" {
		t.Fatalf("error %v", errs[0])
	}
	msg := errs[0].Error()
	for _, want := range []string{"games.txt", "game 2", "ply 4", "bQ wS1/"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
}

// TestQueenFirstIsKeptNotSent reads a real hivegame.com record whose
// players placed their Queens on their first turns: it is kept and
// marked, written to every record format, and refused only as a UHP game.
func TestQueenFirstIsKeptNotSent(t *testing.T) {
	r := readOne(t, "../../protocols/pgn/testdata/hivegame/q_first_missing_result.pgn")
	if !r.QueenFirst || !slices.ContainsFunc(r.Moves[:2], func(m string) bool { return strings.HasPrefix(m[1:], "Q") }) {
		t.Fatalf("QueenFirst %v, first moves %v", r.QueenFirst, r.Moves[:2])
	}
	if _, err := r.UHP(); !errors.Is(err, records.ErrQueenFirst) {
		t.Errorf("UHP: %v, want ErrQueenFirst", err)
	}
	for _, f := range records.Formats() {
		if err := records.Write(&bytes.Buffer{}, f, r); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestDetect(t *testing.T) {
	for text, want := range map[string]records.Format{
		"(;FF[4]GM[27]SU[hive])":           records.SGF,
		"\ufeff[GameType \"Base\"]\n":      records.PGN,
		"1. wS1\n2. bS1 wS1-\n":            records.PGN,
		"Base+MLP;InProgress;Black[1];wS1": records.GameString,
		`{"game_type":"Base","moves":[]}`:  records.JSONL,
	} {
		if got, err := records.Detect([]byte(text)); got != want || err != nil {
			t.Errorf("Detect(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "hello", "Chess;InProgress"} {
		if got, err := records.Detect([]byte(bad)); err == nil {
			t.Errorf("Detect(%q) = %q, want an error", bad, got)
		}
	}
}

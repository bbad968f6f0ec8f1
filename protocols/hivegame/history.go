package hivegame

import (
	"fmt"
	"strings"
)

// Error is an error of this package that callers may test for with
// errors.Is. It is a string type so that such errors are constants, not
// package variables.
type Error string

func (e Error) Error() string { return string(e) }

// ErrPass is what FormatMove and Client.Play answer to a pass. The site
// passes for a player by itself: after every move, play_turn_from_position
// (engine/src/state.rs) records "pass" for an opponent left without a move
// and hands the turn back, and play_move (apis/src/api/v1/bot/play.rs)
// refuses "pass" at every ply ("Invalid move format: expected 'piece
// position'").
const ErrPass = Error("hivegame: a pass is never posted: the site passes for a player who has no move by itself")

// HistoryMove is one ply of a game's history as the site records it:
// History.moves' (piece, destination) pair (engine/src/history.rs).
type HistoryMove struct {
	// Piece is the piece moved, e.g. "wS1", "bQ"; "pass" for a pass.
	Piece string
	// Destination is where it went, in UHP's relative notation against
	// the first neighbour the site found ("bG1 -wS1": west of wS1; "wB1
	// bQ": on top of bQ). It is empty for the first move of the game, on
	// an empty board, and for a pass.
	Destination string
	// Pass is true for a pass, which the site records by itself.
	Pass bool
}

// HistoryError is a history string ParseHistory cannot read.
type HistoryError struct {
	// Ply is the index of the bad entry, counting from 0 as the site's
	// turn does.
	Ply int
	// Entry is the entry's text (shortened if long).
	Entry string
	// Reason says what is wrong with it.
	Reason string
}

func (e *HistoryError) Error() string {
	return fmt.Sprintf("hivegame: history ply %d %q: %s", e.Ply, e.Entry, e.Reason)
}

// ParseHistory reads a game row's history. The site writes each ply as
// "piece destination;" (update_gamestate, db/src/models/game.rs), with the
// space even when the destination is empty, so a game reads
//
//	"wS1 ;bG1 -wS1;wA1 wS1/;pass ;"
//
// and a game without moves is "". ParseHistory reads it as the site's own
// History::new_from_str does: entries split at each ';' with a final ';'
// optional (so the mock form "wS1;bG1 -wS1" of hive-hydra's tests and of
// the unlocated Bot API document reads too), each entry split at white
// space, a piece alone allowed only as the first move or as "pass", an
// empty entry refused.
//
// It is stricter than new_from_str in one way, which the site leaves as a
// TODO: the piece and destination must be spelt as the site spells them
// (piece.rs and direction.rs Display: "wS1", "bQ"; "wS1", "wS1-", "-wS1",
// "wS1/", "/wS1", "wS1\", "\wS1"; "." is taken as the first move's
// destination only), and an entry of more than two words, whose extra
// words new_from_str drops, is refused: such a history is not one the
// site writes, and reading it would hide what is wrong with it.
func ParseHistory(s string) ([]HistoryMove, error) {
	if s == "" {
		return nil, nil
	}
	entries := strings.Split(s, ";")
	if entries[len(entries)-1] == "" {
		entries = entries[:len(entries)-1]
	}
	moves := make([]HistoryMove, 0, len(entries))
	for ply, entry := range entries {
		words := strings.Fields(entry)
		var m HistoryMove
		switch len(words) {
		case 1:
			m = HistoryMove{Piece: words[0]}
		case 2:
			m = HistoryMove{Piece: words[0], Destination: words[1]}
		}
		if m.Piece == "pass" {
			m.Pass = true
		}
		if reason := checkMove(ply, m, len(words)); reason != "" {
			return nil, &HistoryError{Ply: ply, Entry: truncate(entry, 40), Reason: reason}
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// checkMove says what is wrong with m as ply ply of a history, read from
// words words (or made by a caller, words 0), or "" when nothing is.
func checkMove(ply int, m HistoryMove, words int) string {
	switch {
	case words == 0 && m.Piece == "":
		return "the entry is empty"
	case words > 2:
		return "more than a piece and a destination"
	case m.Pass != (m.Piece == "pass"):
		return "Pass and a piece of \"pass\" disagree"
	case m.Pass && m.Destination != "":
		return "a pass has no destination"
	case m.Pass:
		return ""
	case !isPiece(m.Piece):
		return "not a piece"
	case m.Destination == "" && ply > 0:
		return "no destination: only the first move may be a piece alone"
	case m.Destination == "." && ply > 0:
		return "\".\" is the first move's destination only"
	case m.Destination != "" && m.Destination != "." && !isDestination(m.Destination):
		return "not a destination"
	}
	return ""
}

// FormatHistory writes moves as the site writes a row's history: "piece
// destination;" for each, the space even when the destination is empty,
// so that the first move is "wS1 ;" and a pass "pass ;" (a pass may have
// Piece "pass" or ""). ParseHistory reads back what it writes. It refuses
// moves that ParseHistory would not give.
func FormatHistory(moves []HistoryMove) (string, error) {
	var b strings.Builder
	for ply, m := range moves {
		if m.Pass && m.Piece == "" {
			m.Piece = "pass"
		}
		if reason := checkMove(ply, m, 0); reason != "" {
			return "", &HistoryError{Ply: ply, Entry: truncate(m.Piece+" "+m.Destination, 40), Reason: reason}
		}
		b.WriteString(m.Piece)
		b.WriteByte(' ')
		b.WriteString(m.Destination)
		b.WriteByte(';')
	}
	return b.String(), nil
}

// FormatMove writes a move for PlayRequest.PiecePos, for the game's turn
// (its number of plies played). play_move (apis/src/api/v1/bot/play.rs)
// reads it in two ways:
//
//   - at turn 0 the piece alone ("wS1"): the first piece always goes to
//     the initial spawn position, and the site reads only the piece, so
//     destination is ignored;
//   - at every other turn "piece destination" ("bG1 -wS1"), split at the
//     first space; without a destination the site answers "Invalid move
//     format: expected 'piece position'", even for Black's first move.
//
// A pass is never posted (ErrPass). The piece and destination must be
// spelt as the site spells them (see ParseHistory); the site may record
// the move against another neighbour than the one sent.
func FormatMove(turn int, piece, destination string) (string, error) {
	if piece == "pass" {
		return "", ErrPass
	}
	if turn < 0 {
		return "", fmt.Errorf("hivegame: turn %d is negative", turn)
	}
	if !isPiece(piece) {
		return "", fmt.Errorf("hivegame: %q is not a piece (e.g. wS1, bQ)", truncate(piece, 40))
	}
	if turn == 0 {
		return piece, nil
	}
	if destination == "" {
		return "", fmt.Errorf("hivegame: %s at turn %d needs a destination: only the first move of the game is a piece alone", piece, turn)
	}
	if !isDestination(destination) {
		return "", fmt.Errorf("hivegame: %q is not a destination (e.g. wS1-, -wS1, wS1/, \\wS1, or a piece to climb on)", truncate(destination, 40))
	}
	return piece + " " + destination, nil
}

// isPiece reports whether s is a piece as Piece's Display writes it
// (engine/src/piece.rs): the color 'w' or 'b', the bug letter, and for
// the bugs that come several to a side (Ant, Beetle, Grasshopper, Spider)
// their number, which Piece::from_str requires. The others take a number
// too, which from_str ignores.
func isPiece(s string) bool {
	if len(s) < 2 || len(s) > 3 || (s[0] != 'w' && s[0] != 'b') {
		return false
	}
	numbered := len(s) == 3 && '1' <= s[2] && s[2] <= '9'
	switch s[1] {
	case 'A', 'B', 'G', 'S':
		return numbered
	case 'L', 'M', 'P', 'Q':
		return len(s) == 2 || numbered
	}
	return false
}

// isDestination reports whether s is a destination as
// Direction::to_history_string writes it (engine/src/direction.rs): a
// reference piece with at most one of '-', '/', '\' before it (west,
// south-west, north-west) or after it (east, north-east, south-east), or
// the bare piece to climb on.
func isDestination(s string) bool {
	if s != "" && isDirection(s[0]) {
		s = s[1:]
	} else if s != "" && isDirection(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return isPiece(s)
}

func isDirection(c byte) bool { return c == '-' || c == '/' || c == '\\' }

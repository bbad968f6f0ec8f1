// Package records reads and writes whole files of game records in every
// format hivebridge knows, told apart by their content: Hive PGN (Mzinga's
// and hivegame.com's, protocols/pgn), BoardSpace's SGF (protocols/sgf), UHP
// GameStrings one a line, and JSON lines as `hivebridge games export
// --format jsonl` writes them. Every game read is replayed through core,
// each move checked: a game with an illegal move is an error naming the
// file, the game, the ply, the move and the rule it breaks, and is not
// returned at all, so that no part of it is taken for a whole game.
//
// The codecs are pure and know nothing of each other (the house's rule);
// this package is where a record's moves become UHP MoveStrings and back.
package records

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// Format is a kind of game record file.
type Format string

// The formats.
const (
	PGN        Format = "pgn"
	SGF        Format = "sgf"
	GameString Format = "gamestring" // one UHP GameString a line
	JSONL      Format = "jsonl"      // one JSON object a game, a line each
)

// Formats lists every format, for flags and messages.
func Formats() []Format { return []Format{PGN, SGF, GameString, JSONL} }

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if strings.EqualFold(s, string(f)) {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: want one of pgn, sgf, gamestring, jsonl", s)
}

// Record is one game, its moves checked by core.
type Record struct {
	GameType core.GameType
	// White and Black name the players ("" when the record names none).
	White, Black string
	// Date, Event, Site and Round are the record's, as written.
	Date, Event, Site, Round string
	// Result is the outcome as UHP spells a GameState: WhiteWins,
	// BlackWins or Draw, or "" when the record gives none (a game in
	// progress, or of an unknown end).
	Result string
	// How says how a game that did not end by the rules ended, when the
	// record says: "resignation", "agreement", "time".
	How string
	// Moves are the game's moves as UHP writes them (uhp.FormatMove), so
	// that two spellings of one move (wS1- and wS1-, a pillbug's throw,
	// BoardSpace's grid cells) become one.
	Moves []string
	// QueenFirst says that a Queen was placed on a player's first turn,
	// which BoardSpace and hivegame.com allow in some games and UHP does
	// not: the game is kept, replayed under core.QueenOnFirstTurn, and
	// refused only where it would be sent to a UHP engine (UHP).
	QueenFirst bool
	// Tags are a PGN record's other tags, kept as they were.
	Tags []Tag
	// Comments, when not nil, are a comment for each move ("" for none),
	// written in PGN after the ply (an engine's score, say).
	Comments []string
	// NAGs, when not nil, are each move's Numeric Annotation Glyphs (nil
	// for none): PGN's "$N" after the ply (analyze's move classes, say),
	// kept through a PGN or a JSON line and dropped by SGF and GameStrings,
	// which have no place for them.
	NAGs [][]int

	// end is where the moves lead, as the replay that checked them found
	// it, so that writing a record read does not replay it again: valid
	// while the record holds as many moves.
	end *position
}

// position is a game's state and turn after some plies.
type position struct {
	plies int
	state uhp.GameState
	turn  uhp.Turn
}

// ended returns the position after g's moves.
func ended(g *core.Game) *position {
	return &position{plies: g.Ply(), state: uhp.StateOf(g), turn: uhp.TurnOf(g)}
}

// Tag is a PGN tag a record keeps.
type Tag struct{ Name, Value string }

// ErrQueenFirst is the error of a record played under a rule UHP does not
// have, where it would be sent to a UHP engine.
var ErrQueenFirst = errors.New("a Queen was placed on a player's first turn, which this game's site allowed and UHP's tournament opening forbids: a UHP engine cannot be given it")

// options are the core.GameOptions every record is replayed with: no
// repetition draw (neither BoardSpace nor Mzinga has one, and a record
// carries its own result), and the Queen allowed on the first turn (see
// Record.QueenFirst).
func options() []core.GameOption {
	return []core.GameOption{core.RepetitionDraw(false), core.QueenOnFirstTurn(true)}
}

// Replay returns the record's game played out, each move checked.
func (r Record) Replay() (*core.Game, error) { return r.replay(func(core.Move) {}) }

// replay plays the record's game out, each move checked, and tells each
// move played.
func (r Record) replay(each func(core.Move)) (*core.Game, error) {
	g := core.NewGame(r.GameType, options()...)
	var scratch core.MoveList
	for i, text := range r.Moves {
		m, err := uhp.ParseMove(text, g)
		if err == nil {
			err = play(g, m, &scratch)
		}
		if err != nil {
			return nil, &PlyError{Ply: i + 1, Move: text, Err: err}
		}
		each(m)
	}
	return g, nil
}

// Played reads the record's date as its producers write it: PGN's
// 2006.01.02 (Mzinga), hivegame.com's 02-Jan-2006_15:04:05, BoardSpace's
// Java Date.toString (Sat Apr 02 15:15:58 EDT 2016), or RFC 3339.
func (r Record) Played() (time.Time, bool) {
	for _, layout := range []string{"2006.01.02", "02-Jan-2006_15:04:05", "Mon Jan 02 15:04:05 MST 2006", time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(r.Date)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// UHP returns the record as a UHP GameString, or ErrQueenFirst.
func (r Record) UHP() (uhp.GameString, error) {
	if r.QueenFirst {
		return uhp.GameString{}, ErrQueenFirst
	}
	return r.gameString()
}

// UHPString returns the record's GameString whatever rule it was played
// under: the text to keep or show it by (UHP refuses it where it would go
// to an engine).
func (r Record) UHPString() (string, error) {
	gs, err := r.gameString()
	return gs.String(), err
}

// gameString returns the record's GameString, whatever its rules.
func (r Record) gameString() (uhp.GameString, error) {
	if r.end != nil && r.end.plies == len(r.Moves) {
		return uhp.GameString{Type: r.GameType, State: r.end.state, Turn: r.end.turn, Moves: r.Moves}, nil
	}
	g, err := r.Replay()
	if err != nil {
		return uhp.GameString{}, err
	}
	gs := uhp.GameString{Type: r.GameType, State: uhp.StateOf(g), Turn: uhp.TurnOf(g), Moves: r.Moves}
	return gs, nil
}

// PlyError is a move of a record that cannot be played.
type PlyError struct {
	Ply  int // from 1
	Move string
	Err  error
}

func (e *PlyError) Error() string { return fmt.Sprintf("ply %d (%s): %v", e.Ply, e.Move, e.Err) }

func (e *PlyError) Unwrap() error { return e.Err }

// GameError is a game of a file that cannot be taken whole.
type GameError struct {
	File string
	Game int // from 1, the game's place in the file
	Err  error
}

func (e *GameError) Error() string { return fmt.Sprintf("%s: game %d: %v", e.File, e.Game, e.Err) }

func (e *GameError) Unwrap() error { return e.Err }

// Detect tells a file's format from its content: SGF begins with "(;",
// PGN with a tag or a numbered move, JSON lines with "{", and a GameString
// with a game type and a ";".
func Detect(data []byte) (Format, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := strings.TrimSpace(string(data[:min(len(data), 4096)]))
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimSpace(first)
	switch {
	case text == "":
		return "", errors.New("the file is empty")
	case strings.HasPrefix(text, "("):
		return SGF, nil
	case strings.HasPrefix(text, "["):
		return PGN, nil
	case strings.HasPrefix(text, "{"):
		return JSONL, nil
	}
	if typ, _, ok := strings.Cut(first, ";"); ok {
		if _, err := uhp.ParseGameType(typ); err == nil {
			return GameString, nil
		}
	}
	if n, _, ok := strings.Cut(first, "."); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		return PGN, nil
	}
	return "", errors.New("not a game record hivebridge reads (PGN, SGF, GameStrings or JSON lines)")
}

// Read reads every game of a file (name says which in errors): those that
// replay, and an error (a *GameError, or the file's own) for each that
// does not.
func Read(name string, data []byte) ([]Record, []error) {
	f, err := Detect(data)
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", name, err)}
	}
	return ReadAs(f, name, data)
}

// ReadAs reads a file of a known format.
func ReadAs(f Format, name string, data []byte) ([]Record, []error) {
	switch f {
	case PGN:
		return readPGN(name, data)
	case SGF:
		return readSGF(name, data)
	case GameString:
		return readGameStrings(name, data)
	case JSONL:
		return readJSONL(name, data)
	}
	return nil, []error{fmt.Errorf("%s: unknown format %q", name, f)}
}

// New returns the record of a game of type t with moves (MoveStrings in
// any spelling UHP reads), each checked; the caller fills in the rest.
func New(t core.GameType, moves []string) (Record, error) {
	r := Record{GameType: t}
	err := r.check(moves)
	return r, err
}

// check sets the record's moves to texts checked (checked), and where they
// lead.
func (r *Record) check(texts []string) error {
	var err error
	r.Moves, r.QueenFirst, r.end, err = checked(r.GameType, texts)
	return err
}

// checked replays texts (MoveStrings in any spelling UHP reads) and
// returns them as UHP writes them, and whether a Queen came on a player's
// first turn.
func checked(t core.GameType, texts []string) (moves []string, queenFirst bool, end *position, err error) {
	g := core.NewGame(t, options()...)
	var scratch core.MoveList
	for i, text := range texts {
		m, err := uhp.ParseMove(text, g)
		if err == nil {
			moves = append(moves, uhp.FormatMove(m, g))
			queenFirst = queenFirst || isQueenFirst(g, m)
			err = play(g, m, &scratch)
		}
		if err != nil {
			return nil, false, nil, &PlyError{Ply: i + 1, Move: text, Err: err}
		}
	}
	return moves, queenFirst, ended(g), nil
}

// fromMoves checks moves replayed already (an SGF record's) and writes them
// as UHP does.
func fromMoves(t core.GameType, ms []core.Move) (moves []string, queenFirst bool, end *position, err error) {
	g := core.NewGame(t, options()...)
	var scratch core.MoveList
	for i, m := range ms {
		text := uhp.FormatMove(m, g)
		queenFirst = queenFirst || isQueenFirst(g, m)
		if err := play(g, m, &scratch); err != nil {
			return nil, false, nil, &PlyError{Ply: i + 1, Move: text, Err: err}
		}
		moves = append(moves, text)
	}
	return moves, queenFirst, ended(g), nil
}

// play plays m if it is legal, or says which rule it breaks: the check
// the search uses (LegalWithScratch generates only what could hold m), so
// that a file of games replays at thousands of games a second.
func play(g *core.Game, m core.Move, scratch *core.MoveList) error {
	if !g.LegalWithScratch(m, scratch) {
		if err := g.RuleBroken(m); err != nil {
			return err
		}
	}
	g.Play(m)
	return nil
}

// isQueenFirst reports whether m places a Queen on its player's first turn.
func isQueenFirst(g *core.Game, m core.Move) bool {
	return m != core.Pass && g.Ply() < 2 && m.Piece().Bug() == core.Queen && g.InHand(m.Piece())
}

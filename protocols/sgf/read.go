package sgf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// ReadOptions adjust Read.
type ReadOptions struct {
	// GameOptions are passed to core.NewGame for each game replayed,
	// after Read's own core.RepetitionDraw(false), which they may
	// override. A record whose games put a Queen down on a player's first
	// turn, which BoardSpace allows in some games and the core forbids by
	// default (the tournament opening), needs the core's option that
	// allows it.
	GameOptions []core.GameOption
	// MaxGames bounds the game trees a file may hold, 0 meaning
	// DefaultMaxGames. Each game costs a core.Game (some twenty
	// kilobytes) to replay, so a hostile file of a million empty trees
	// would cost seconds; a BoardSpace file holds one or two.
	MaxGames int
}

// DefaultMaxGames is ReadOptions.MaxGames's default.
const DefaultMaxGames = 1000

// GameError is the failure of one game of a file: its header is wrong or
// one of its actions cannot be replayed.
type GameError struct {
	// Index is the game tree's place in the file, from 0 (the message
	// counts from 1), and Name its GN.
	Index int
	Name  string
	// Ply is the turn, from 1, that the failing action belongs to, and
	// Action the action as written (P1[25 Done ]); both are zero for an
	// error in the header. Move is the action that wrote the move
	// (P1[24 Dropb bB1 N 13 .]) when the failing action is the Done that
	// commits it.
	Ply          int
	Action, Move string
	// Game has the header and the moves replayed before the failure. It
	// is not a whole game, and Read does not return it as one.
	Game *Game
	// Err says what is wrong: for an illegal move, the core's
	// *core.RuleError, which errors.As finds.
	Err error
}

func (e *GameError) Error() string {
	s := "sgf: game " + strconv.Itoa(e.Index+1)
	if e.Name != "" {
		s += " (" + e.Name + ")"
	}
	if e.Action != "" {
		s += ", ply " + strconv.Itoa(e.Ply) + ", "
		if e.Move != "" && e.Move != e.Action {
			s += e.Move + " then "
		}
		s += e.Action
	}
	return s + ": " + e.Err.Error()
}

func (e *GameError) Unwrap() error { return e.Err }

// ReadError lists the games of a file that Read could not read, in file
// order.
type ReadError struct {
	Games []*GameError
}

func (e *ReadError) Error() string {
	if len(e.Games) == 1 {
		return e.Games[0].Error()
	}
	msgs := make([]string, len(e.Games))
	for i, g := range e.Games {
		msgs[i] = g.Error()
	}
	return fmt.Sprintf("sgf: %d games failed:\n%s", len(e.Games), strings.Join(msgs, "\n"))
}

// Unwrap gives the games' errors to errors.Is and errors.As.
func (e *ReadError) Unwrap() []error {
	errs := make([]error, len(e.Games))
	for i, g := range e.Games {
		errs[i] = g
	}
	return errs
}

// Read reads a BoardSpace Hive record with no ReadOptions: see ReadWith.
func Read(data []byte) ([]Game, error) { return ReadWith(data, ReadOptions{}) }

// ReadWith reads the games of a BoardSpace Hive record (sgf.md in the
// notes describes the format; the rules below cite its sources).
//
// It returns the games that replayed whole, and a nil error, or a
// *SyntaxError and no games when the file is not SGF (or an error and no
// games when it holds more than MaxGames game trees), or the games that
// replayed whole and a *ReadError that lists each game that did not (with
// what of it could be read). One bad game does not hide the others.
//
// Each game tree of the file is a game, read along its main line; a tree
// whose root node is the same as an earlier tree's (same properties, same
// values) and whose moves are the same too (or which fails the same way)
// is BoardSpace's copy of that game and is skipped: BoardSpace
// files may hold the game twice, the second time with the client's noise
// (Start twice, P-1[...] replay artefacts), and Mzinga's conversion holds
// the first tree only.
//
// The root gives the header: GM must be 27 (HiveConstants.Hive_SGF) if
// present; SU the variant (ParseVariant); P0[id "..."] and P1[id "..."]
// the players of seats 0 and 1; CM the colour map, whose first number,
// when not 0, gives seat 0 the black pieces (HiveGameBoard.doInit,
// swappedRacks, playerColor).
//
// Every other node holds actions: P0[n Verb args] or P1[...], the seat
// that acted, n the action's index (ignored), then BoardSpace's verb in any
// case, as Hivemovespec.parse reads them. Values that do not start with a
// number (the closing P0[time 0:12:35 ]) and P-1 (replay artefacts, which
// commonMove.playerNumberToken maps to no player) are not actions. The
// verbs, as HiveGameBoard.Execute replays them:
//
//   - Pick <pool> <rack row> <piece>, Pickb <col> <row> <piece>: take a
//     piece from a hand or from the top of a board cell. Picking the
//     cell where the pending piece was just dropped takes it back.
//   - Dropb and Pdropb <piece> <col> <row> <hint>: put the piece taken
//     at the cell, the move waiting for Done; Pdropb is the same drop
//     through a Pillbug. A drop back on the piece's own cell cancels it.
//   - Move and PMove <W|B> <piece> <col> <row> <hint>: a robot's pick and
//     drop at once, W or B the piece's colour; MoveDone and PMoveDone
//     are the same and Done too.
//   - Done ends the turn with the waiting move. Done with nothing waiting,
//     by the player to move, is a pass: newer clients record a forced
//     pass as a bare Done (HV-Dumbot-Kaur50-2023-01-17-0059). A second
//     Done by the player who just moved is noise ("some damaged games
//     have 2 dones in a row").
//   - Pass and Done, or PassDone (and NullMove, which Execute turns into
//     a Done without a move), pass.
//   - Resign, then Done: that seat loses; a second Resign before the
//     Done takes it back. A record that stops after the Resign is taken
//     as resigned, as Mzinga takes it.
//   - OfferDraw and DeclineDraw, each with its Done, use no turn;
//     AcceptDraw then Done ends the game drawn.
//   - WinOnTime ends the game, won by the seat that claims it.
//   - PlayWhite and PlayBlack (hive-pielm's choice of colours) set the
//     seats' colours as Execute does (swappedRacks against the colour
//     map); Swap exchanges them.
//   - Drop (a piece put back in its hand) cancels the waiting move; Start,
//     Reset (which BoardSpace's own replay skips, HiveGameViewer.
//     PerformAndTransmit), Edit and the undo requests change nothing.
//   - Any other verb is an error.
//
// Piece tokens are BoardSpace's names, wQ, bS1, wM1 (see grid.go); before
// about 2016 they had no colour, which the action then gives: the Pick's
// pool, the Move's W or B, the Pickb's cell, and for a bare Dropb with
// nothing taken the acting seat's colour (HivePiece.getBug). The cells are
// grid coordinates of BoardSpace's board, authoritative: BoardSpace replays
// from them and recomputes the hint text after them ("attachment
// descriptors which are to help humans parse moves, but are not parsed",
// Hivemovespec), so Read ignores the hint. The first piece's cell is the
// core's origin wherever it is (N 13, but M 13 in a 2018 record), and a
// drop on an occupied cell is a climb.
//
// Each turn is checked by the core as it is replayed (RuleBroken): a move
// the core refuses, a turn played by the seat whose colour is not to move,
// or a move after the game has ended fails the game. Passes and Dones
// after the end are left out (BoardSpace: "some damaged game records allow
// another pass after gameover").
//
// Result is, in this order: a resignation, an accepted draw, a claim on
// time, the core's verdict after the last move, and otherwise what RE
// names (see Game.ResultText) or core.InProgress.
func ReadWith(data []byte, opts ReadOptions) ([]Game, error) {
	trees, err := Parse(data)
	if err != nil {
		return nil, err
	}
	limit := opts.MaxGames
	if limit <= 0 {
		limit = DefaultMaxGames
	}
	if len(trees) > limit {
		return nil, fmt.Errorf("sgf: %d game trees, more than the %d that ReadOptions.MaxGames allows", len(trees), limit)
	}
	var games []Game
	var failed []*GameError
	seen := map[string]bool{}
	for i, t := range trees {
		nodes := t.MainLine()
		g, gerr := readGame(i, nodes, opts)
		key := rootKey(nodes[0])
		if gerr != nil {
			key += movesKey(gerr.Game.Moves) + gerr.Err.Error()
		} else {
			key += movesKey(g.Moves)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if gerr != nil {
			failed = append(failed, gerr)
			continue
		}
		games = append(games, *g)
	}
	if len(failed) > 0 {
		return games, &ReadError{Games: failed}
	}
	return games, nil
}

// movesKey identifies a list of moves.
func movesKey(moves []core.Move) string {
	b := make([]byte, 0, 2*len(moves)+1)
	b = append(b, '|')
	for _, m := range moves {
		b = append(b, byte(m>>8), byte(m))
	}
	return string(b)
}

// rootKey identifies a root node by its properties and values.
func rootKey(n *Node) string {
	var b strings.Builder
	for _, p := range n.Props {
		b.WriteString(p.ID)
		for _, v := range p.Values {
			b.WriteByte('[')
			b.WriteString(strconv.Quote(v))
		}
		b.WriteByte(';')
	}
	return b.String()
}

// header reads the root node into g; it returns the players of seats 0
// and 1 and whether the colour map gives seat 0 the black pieces.
func header(g *Game, root *Node) (names [2]string, swapped bool, err error) {
	haveSU := false
	fail := func(e error) {
		if err == nil {
			err = e
		}
	}
	for _, p := range root.Props {
		v := decodeText(p.Values[0])
		switch p.ID {
		case "GM":
			if strings.TrimSpace(v) != "27" {
				fail(fmt.Errorf("GM[%s] is not Hive's game number (27)", v))
			}
			g.Props = append(g.Props, p)
		case "SU":
			t, verr := ParseVariant(v)
			g.Variant, g.GameType, haveSU = v, t, true
			fail(verr)
		case "CM":
			first, _, _ := strings.Cut(v, ",")
			n, cerr := strconv.Atoi(strings.TrimSpace(first))
			if cerr != nil {
				fail(fmt.Errorf("CM[%s] is not a colour map such as 0,1", v))
			}
			swapped = n != 0
			g.Props = append(g.Props, p)
		case "DT":
			g.Date = v
		case "GN":
			g.Name = v
		case "RE":
			g.ResultText = v
		case "EV":
			g.Event = v
		case "PC":
			g.Site = v
		case "RO":
			g.Round = v
		case "P0", "P1":
			seat := int(p.ID[1] - '0')
			var rest []string
			for _, v := range p.Values {
				if name, ok := playerName(decodeText(v)); ok {
					names[seat] = name
				} else {
					rest = append(rest, v)
				}
			}
			if len(rest) > 0 {
				g.Props = append(g.Props, Property{ID: p.ID, Values: rest})
			}
		default:
			g.Props = append(g.Props, p)
		}
	}
	if !haveSU {
		fail(errors.New("no variant (SU property)"))
	}
	return names, swapped, err
}

// setNames gives the seats' names to their colours.
func (g *Game) setNames(names [2]string, seat0Black bool) {
	g.White, g.Black = names[0], names[1]
	if seat0Black {
		g.White, g.Black = names[1], names[0]
	}
}

// readGame reads one game tree's main line.
func readGame(index int, nodes []*Node, opts ReadOptions) (*Game, *GameError) {
	g := &Game{Index: index, Options: opts.GameOptions}
	names, swapped, err := header(g, nodes[0])
	g.setNames(names, swapped)
	if err != nil {
		return nil, &GameError{Index: index, Name: g.Name, Game: g, Err: err}
	}
	r := newReplay(g.GameType, swapped, g.Options)
	for _, n := range nodes[1:] {
		for _, p := range n.Props {
			if p.ID != "P0" && p.ID != "P1" {
				continue
			}
			seat := int(p.ID[1] - '0')
			for _, v := range p.Values {
				f := strings.Fields(v)
				if len(f) < 2 || !digits(f[0]) {
					continue
				}
				a := action{seat: seat, verb: strings.ToLower(f[1]), args: f[2:], text: p.ID + "[" + v + "]"}
				if err := r.do(a); err != nil {
					g.Moves = r.moves
					g.setNames(names, r.swapped)
					return nil, &GameError{Index: index, Name: g.Name, Ply: len(r.moves) + 1, Action: a.text, Move: r.committing, Game: g, Err: err}
				}
			}
		}
	}
	r.finish()
	g.Moves = r.moves
	g.Ending, g.Result = r.ending, r.result
	g.setNames(names, r.swapped)
	if g.Ending == Unended {
		g.Result = resultFromText(g.ResultText, g.White, g.Black)
	}
	return g, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// action is one player action of a record.
type action struct {
	seat int
	verb string // lower case
	args []string
	text string // as written
}

// pending is what a Done would commit.
type pending uint8

const (
	noPending  pending = iota
	movePend           // a piece dropped on a cell
	passPend           // Pass
	noTurnPend         // a draw offer or refusal: Done uses no turn
	acceptPend         // AcceptDraw
	resignPend         // Resign
)

// replay is the state of one game's replay: the core's game, the pieces'
// BoardSpace cells, and the actions since the last Done.
type replay struct {
	g          *core.Game
	grid       *gridMap
	colorMap   bool // the colour map gives seat 0 the black pieces
	swapped    bool // seat 0 has the black pieces now
	held       core.Piece
	pend       pending
	pendPiece  core.Piece
	pendTo     gridCell
	pendText   string // the action that made the pending move
	committing string // the action whose move the current Done commits
	moves      []core.Move
	ending     Ending
	result     core.Result
	resignSeat int
}

func newReplay(t core.GameType, swapped bool, opts []core.GameOption) *replay {
	o := append([]core.GameOption{core.RepetitionDraw(false)}, opts...)
	return &replay{g: core.NewGame(t, o...), grid: newGridMap(), colorMap: swapped, swapped: swapped, held: core.NoPiece}
}

// color returns the colour seat plays (HiveGameBoard.playerColor).
func (r *replay) color(seat int) core.Color {
	if (seat == 0) != r.swapped {
		return core.White
	}
	return core.Black
}

func need(a action, n int, form string) error {
	if len(a.args) < n {
		return fmt.Errorf("%s needs %s", a.verb, form)
	}
	return nil
}

// do replays one action.
func (r *replay) do(a action) error {
	r.committing = ""
	switch a.verb {
	case "pick":
		if err := need(a, 3, "a pool, a rack row and a piece"); err != nil {
			return err
		}
		c, err := parseColorToken(a.args[0])
		if err != nil {
			return err
		}
		p, err := pieceOf(a.args[2], c)
		if err != nil {
			return err
		}
		r.pend, r.held = noPending, p
	case "pickb":
		if err := need(a, 3, "a column, a row and a piece"); err != nil {
			return err
		}
		d, err := parseGridCell(a.args[0], a.args[1])
		if err != nil {
			return err
		}
		if r.pend == movePend && r.pendTo == d {
			r.pend, r.held = noPending, r.pendPiece
			return nil
		}
		if r.pend == movePend {
			r.pend = noPending
		}
		if r.grid.count[d] == 0 {
			return fmt.Errorf("there is no piece at %s to pick up", d)
		}
		r.held = r.g.Top(r.grid.cell[d])
	case "dropb", "pdropb":
		if err := need(a, 3, "a piece, a column and a row"); err != nil {
			return err
		}
		d, err := parseGridCell(a.args[1], a.args[2])
		if err != nil {
			return err
		}
		p := r.held
		if p == core.NoPiece {
			if p, err = pieceOf(a.args[0], r.color(a.seat)); err != nil {
				return err
			}
		}
		r.held = core.NoPiece
		if r.grid.at[p] == d {
			r.pend = noPending // put back where it was taken from
			return nil
		}
		r.pend, r.pendPiece, r.pendTo, r.pendText = movePend, p, d, a.text
	case "move", "pmove", "movedone", "pmovedone":
		if err := need(a, 4, "a colour, a piece, a column and a row"); err != nil {
			return err
		}
		c, err := parseColorToken(a.args[0])
		if err != nil {
			return err
		}
		p, err := pieceOf(a.args[1], c)
		if err != nil {
			return err
		}
		d, err := parseGridCell(a.args[2], a.args[3])
		if err != nil {
			return err
		}
		r.held = core.NoPiece
		r.pend, r.pendPiece, r.pendTo, r.pendText = movePend, p, d, a.text
		if strings.HasSuffix(a.verb, "done") {
			return r.done(a.seat)
		}
	case "done":
		return r.done(a.seat)
	case "pass":
		r.pend, r.held = passPend, core.NoPiece
	case "passdone", "nullmove":
		r.pend, r.held = passPend, core.NoPiece
		return r.done(a.seat)
	case "resign":
		if r.pend == resignPend {
			r.pend = noPending
		} else {
			r.pend, r.resignSeat = resignPend, a.seat
		}
	case "offerdraw", "declinedraw":
		r.pend = noTurnPend
	case "acceptdraw":
		if r.pend == acceptPend {
			r.pend = noTurnPend
		} else {
			r.pend = acceptPend
		}
	case "winontime":
		if r.ending == Unended {
			r.ending, r.result = WonOnTime, winner(r.color(a.seat))
		}
	case "playwhite":
		r.swapped = !r.colorMap
	case "playblack":
		r.swapped = r.colorMap
	case "swap":
		r.swapped = !r.swapped
	case "drop":
		r.pend, r.held = noPending, core.NoPiece
	case "start", "reset", "undo", "edit", "pleaseundo", "dontundo", "allowundo":
	default:
		return fmt.Errorf("unknown action %q", a.verb)
	}
	return nil
}

func winner(c core.Color) core.Result {
	if c == core.White {
		return core.WhiteWins
	}
	return core.BlackWins
}

// done ends a turn with what is pending.
func (r *replay) done(seat int) error {
	kind, p, d := r.pend, r.pendPiece, r.pendTo
	r.pend, r.held = noPending, core.NoPiece
	if kind == movePend {
		r.committing = r.pendText
	}
	if r.ending != Unended {
		if kind == movePend {
			return fmt.Errorf("a move after the game ended (%s)", r.ending)
		}
		return nil
	}
	switch kind {
	case noTurnPend:
		return nil
	case acceptPend:
		r.ending, r.result = DrawAgreed, core.Draw
		return nil
	case resignPend:
		r.ending, r.result = Resigned, winner(r.color(seat).Other())
		return nil
	case noPending:
		if r.color(seat) != r.g.ToMove() {
			return nil // a second Done
		}
		return r.play(core.Pass, 0)
	}
	if c := r.color(seat); c != r.g.ToMove() {
		return fmt.Errorf("P%d plays %s, but it is %s's turn", seat, c, r.g.ToMove())
	}
	if kind == passPend {
		return r.play(core.Pass, 0)
	}
	to, err := r.grid.coreCell(r.g, d)
	if err != nil {
		return err
	}
	return r.play(core.MakeMove(p, to), d)
}

// play checks and plays move m, to BoardSpace cell d.
func (r *replay) play(m core.Move, d gridCell) error {
	if err := r.g.RuleBroken(m); err != nil {
		if m != core.Pass && m.Piece().Bug() == core.Queen && r.g.InHand(m.Piece()) && r.g.Ply() < 2 {
			return fmt.Errorf("%w (BoardSpace allows the Queen on the first turn in some games: replay with the core's option that allows it, in ReadOptions.GameOptions)", err)
		}
		return err
	}
	r.g.Play(m)
	if m != core.Pass {
		r.grid.moved(m.Piece(), d, m.To())
	}
	r.moves = append(r.moves, m)
	if r.g.Over() {
		r.ending, r.result = EndedByRules, r.g.Result()
	}
	return nil
}

// finish handles the end of the record: a Resign that no Done followed.
func (r *replay) finish() {
	if r.pend == resignPend && r.ending == Unended {
		r.ending, r.result = Resigned, winner(r.color(r.resignSeat).Other())
	}
}

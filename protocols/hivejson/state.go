package hivejson

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// GameState is a Choose Turn request's game_state, "intended for direct
// deserialization (see core/domain/game.js load_game)" in the original.
type GameState struct {
	Board Board `json:"board"`
	Hands Hands `json:"hands"`
	// PlayerTurn is the colour to move, "White" or "Black".
	PlayerTurn string `json:"player_turn"`
	// TurnNumber counts "plies from 0, passes included" (wire doc).
	TurnNumber int    `json:"turn_number"`
	GameOver   bool   `json:"game_over"`
	Winner     Winner `json:"winner,omitzero"`
	IsDraw     bool   `json:"is_draw"`
	// CreationParameters names the expansions in play.
	CreationParameters CreationParameters `json:"creation_parameters"`
	// TurnHistory holds "every ply, in reply form" (wire doc), oldest
	// first. It is what tells the pieces apart (see GameOf). Without it
	// (absent or null) the state is a set-up position: the board alone.
	TurnHistory []Turn `json:"turn_history,omitzero"`
	// PossibleTurns is "null once the game is over" (wire doc).
	PossibleTurns *PossibleTurns `json:"possible_turns"`
}

// Board is game_state.board. Pieces maps each occupied "row,col" to its
// stack, bottom to top: "keys are occupied positions, values are
// piece-stacks" (spec).
type Board struct {
	Pieces map[string][]Piece `json:"pieces"`
}

// Piece is one piece of a stack. "Pieces have no numbers: the position
// tells which bug is meant" (wire doc).
type Piece struct {
	Color string `json:"color"`
	Type  string `json:"type"`
}

// Hands is game_state.hands, the pieces each player has still to place.
type Hands struct {
	White Hand `json:"White"`
	Black Hand `json:"Black"`
}

// Hand counts a player's pieces in hand by type name; "zero counts are
// omitted, so an empty hand is {}" (wire doc).
type Hand map[string]int

// MarshalJSON writes a nil hand as {}, as the wire writes an empty one.
func (h Hand) MarshalJSON() ([]byte, error) {
	if h == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]int(h))
}

// CreationParameters is game_state.creation_parameters: which expansion
// bugs are in play.
type CreationParameters struct {
	UseMosquito bool `json:"use_mosquito"`
	UseLadybug  bool `json:"use_ladybug"`
	UsePillbug  bool `json:"use_pillbug"`
}

// GameType returns the core's game type of the parameters.
func (p CreationParameters) GameType() core.GameType {
	var t core.GameType
	if p.UseMosquito {
		t |= core.WithMosquito
	}
	if p.UseLadybug {
		t |= core.WithLadybug
	}
	if p.UsePillbug {
		t |= core.WithPillbug
	}
	return t
}

// CreationParametersOf returns the parameters of a game type.
func CreationParametersOf(t core.GameType) CreationParameters {
	return CreationParameters{
		UseMosquito: t&core.WithMosquito != 0,
		UseLadybug:  t&core.WithLadybug != 0,
		UsePillbug:  t&core.WithPillbug != 0,
	}
}

// Winner is game_state.winner, which has three forms on the wire: "winner
// (null before the first turn, absent afterwards until someone wins)"
// (wire doc), or the winner's colour. The zero Winner is absent.
type Winner struct {
	Present bool   // the key is on the wire
	Color   string // "White" or "Black"; "" with Present is null
}

// IsZero reports whether the key is absent, for the omitzero option.
func (w Winner) IsZero() bool { return !w.Present }

// MarshalJSON writes null or the colour.
func (w Winner) MarshalJSON() ([]byte, error) {
	if w.Color == "" {
		return []byte("null"), nil
	}
	return json.Marshal(w.Color)
}

// UnmarshalJSON reads null or a string.
func (w *Winner) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*w = Winner{Present: true}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("winner: %w", err)
	}
	*w = Winner{Present: true, Color: s}
	return nil
}

// PossibleTurns is game_state.possible_turns, "one or more of" (wire doc):
//
//	"Placement": {"piece_types":[T...], "positions":["r,c"...]}  every type on every position
//	"Movement": {"r,c": ["r,c", ...]}                             per movable top piece
//	"Special Ability": {"user r,c": {"carried r,c": ["r,c", ...]}} pillbug, or a mosquito beside one
//	"Forfeit": true                                               only when nothing else is legal
//
// A section with nothing in it is left out.
type PossibleTurns struct {
	Placement      *PlacementTurns                `json:"Placement,omitempty"`
	Movement       map[string][]string            `json:"Movement,omitempty"`
	SpecialAbility map[string]map[string][]string `json:"Special Ability,omitempty"`
	Forfeit        bool                           `json:"Forfeit,omitempty"`
}

// PlacementTurns is the Placement section of possible_turns: "every type
// on every position".
type PlacementTurns struct {
	PieceTypes []string `json:"piece_types"`
	Positions  []string `json:"positions"`
}

// Errors of GameOf, wrapped with the details.
const (
	// ErrBadBoard: a game_state without turn_history whose board is no
	// position of a game (see GameOf).
	ErrBadBoard engine.Error = "hivejson: game_state's board is no position a game can reach"
	// ErrInconsistent: the game_state contradicts itself: its board, hands,
	// turn or result are not what its turn history (or, without one, its
	// board) makes them.
	ErrInconsistent engine.Error = "hivejson: game_state contradicts itself"
	// ErrBadTurn: a turn that is malformed or illegal in its position.
	ErrBadTurn engine.Error = "hivejson: bad turn"
)

// StateOf returns the game_state of g: its board, hands, turn, result,
// history, and the possible turns computed by the core's rules, complete
// and correct (see PossibleTurnsOf). It follows g's history from its first
// move, since that is where the wire's coordinates come from; g itself is
// not touched.
//
// A game set up from a position (core.NewGameAt) has no turn_history on
// the wire, which holds "every ply" from the empty board: its state is the
// board as it stands now, as a peer that sends only the board would send
// it. The piece moved last, which the wire cannot say without the history,
// is still kept out of possible_turns.
func StateOf(g *core.Game) (GameState, error) {
	tr, hist, err := trackGame(g, true)
	if err != nil {
		return GameState{}, err
	}
	if g.SetUp() {
		hist = nil
	}
	g = tr.g
	s := GameState{
		Board:              Board{Pieces: make(map[string][]Piece)},
		Hands:              Hands{White: handOf(g, core.White), Black: handOf(g, core.Black)},
		PlayerTurn:         ColorName(g.ToMove()),
		TurnNumber:         g.Ply(),
		GameOver:           g.Over(),
		IsDraw:             g.Result() == core.Draw,
		CreationParameters: CreationParametersOf(g.Type()),
		TurnHistory:        hist,
	}
	switch {
	case g.Result() == core.WhiteWins:
		s.Winner = Winner{Present: true, Color: ColorWhite}
	case g.Result() == core.BlackWins:
		s.Winner = Winner{Present: true, Color: ColorBlack}
	case g.Ply() == 0:
		s.Winner = Winner{Present: true}
	}
	for pos, stack := range tr.stacks() {
		s.Board.Pieces[pos.String()] = stack
	}
	s.PossibleTurns = tr.possibleTurns()
	return s, nil
}

// handOf counts the pieces of colour c in hand by type name.
func handOf(g *core.Game, c core.Color) Hand {
	h := Hand{}
	for p := core.Piece(c) * core.PiecesPerColor; p < core.Piece(c+1)*core.PiecesPerColor; p++ {
		if g.InPlay(p) && g.InHand(p) {
			h[BugName(p.Bug())]++
		}
	}
	return h
}

// GameOf rebuilds the core game of a game_state by playing its
// turn_history from the start, each turn checked by the core's rules, and
// then checks that the result agrees with the rest of the state: board,
// hands, player_turn, turn_number, game_over, winner and is_draw.
// possible_turns is not read (the original's are not always right; see
// Offered).
//
// Piece identity: the wire does not number pieces, the core does. The
// mapping is by history order: a player's k-th placed Spider (Beetle,
// Grasshopper, Soldier Ant) is the core's S k (B k, G k, A k), as the
// notation numbers pieces in the order they enter play and as the core
// requires them to be placed. A Movement moves the top piece of its
// source.
//
// A state without turn_history (absent or null) is a set-up position (see
// setUp): the board, the hands and the turn are all there is, and the game
// starts there, with no history. The wire does not number pieces, so a
// player's pieces of one type are numbered in the order of their
// positions (by row, then column, each stack from the bottom up); and it
// cannot say which piece moved last, so none is taken to have (with the
// Pillbug, a server answers only with turns the controller offered, so
// that is safe). A board that play cannot reach is refused with
// ErrBadBoard and the core's reason (core.NewGameAt).
//
// The game is made with opts, after core.RepetitionDraw(false): neither
// the spec nor the wire doc knows a draw by repetition (the wire doc lists
// how the original controller's rules differ from Hive's, and ends games
// by game_over alone), and a history that the controller accepted must
// replay, which it would not if the core declared a draw halfway through
// it. Pass core.RepetitionDraw(true) to judge repetitions as the core does
// by default (StateOf of a game drawn by repetition needs it to rebuild).
func GameOf(s GameState, opts ...core.GameOption) (*core.Game, error) {
	t := s.CreationParameters.GameType()
	opts = append([]core.GameOption{core.RepetitionDraw(false)}, opts...)
	if s.TurnHistory == nil {
		g, err := setUp(s, opts...)
		if err != nil {
			return nil, err
		}
		tr, _, err := trackGame(g, false)
		if err != nil {
			return nil, err
		}
		if err := tr.check(s, "the board"); err != nil {
			return nil, err
		}
		return g, nil
	}
	tr := newTracker(t, opts...)
	if len(s.TurnHistory) != s.TurnNumber {
		return nil, fmt.Errorf("%w: turn_number is %d but turn_history has %d turns",
			ErrInconsistent, s.TurnNumber, len(s.TurnHistory))
	}
	for i, turn := range s.TurnHistory {
		m, err := tr.moveOf(turn)
		if err != nil {
			return nil, fmt.Errorf("turn_history[%d]: %w", i, err)
		}
		if err := tr.play(m); err != nil {
			return nil, fmt.Errorf("turn_history[%d]: %w", i, err)
		}
	}
	if err := tr.check(s, "the history"); err != nil {
		return nil, err
	}
	return tr.g, nil
}

// setUp returns the game that starts at the board of s, a state without
// turn_history (see GameOf).
func setUp(s GameState, opts ...core.GameOption) (*core.Game, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadBoard}, args...)...)
	}
	toMove, ok := parseColor(s.PlayerTurn)
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: player_turn is %q, not White or Black", ErrInconsistent, s.PlayerTurn)
	case s.TurnNumber < 0:
		return nil, bad("turn_number is %d; it counts plies from 0", s.TurnNumber)
	case core.Color(s.TurnNumber&1) != toMove:
		return nil, fmt.Errorf("%w: player_turn is %s, but turn_number %d (plies from 0) makes it %s's turn",
			ErrInconsistent, s.PlayerTurn, s.TurnNumber, ColorName(core.Color(s.TurnNumber&1)))
	}
	t := s.CreationParameters.GameType()
	positions := make([]Pos, 0, len(s.Board.Pieces))
	stackAt := make(map[Pos][]Piece, len(s.Board.Pieces))
	for key, stack := range s.Board.Pieces {
		p, err := ParsePos(key)
		if err != nil {
			return nil, bad("board: %v", err)
		}
		if _, dup := stackAt[p]; dup {
			return nil, fmt.Errorf("%w: board: position %s is listed twice", ErrInconsistent, p)
		}
		if len(stack) == 0 {
			return nil, bad("board: position %s holds an empty stack", p)
		}
		positions = append(positions, p)
		stackAt[p] = stack
	}
	slices.SortFunc(positions, func(a, b Pos) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	var count [2][core.NumBugs]int
	pos := core.Position{Type: t, ToMove: toMove, Turn: s.TurnNumber/2 + 1, LastMoved: core.NoPiece}
	for _, at := range positions {
		a := at.axial()
		st := core.Stack{Q: a.q, R: a.r}
		for _, piece := range stackAt[at] {
			c, ok := parseColor(piece.Color)
			if !ok {
				return nil, bad("board: position %s holds a piece of colour %q, not White or Black", at, piece.Color)
			}
			b, ok := ParseBug(piece.Type)
			if !ok {
				return nil, bad("board: position %s holds a piece of unknown type %q", at, piece.Type)
			}
			if !t.Has(b) {
				return nil, bad("board: position %s holds a %s %s, which creation_parameters leave out of the game", at, piece.Color, piece.Type)
			}
			count[c][b]++
			n := count[c][b]
			if n > core.BugCount(b) {
				return nil, bad("board: %s has more than %d %s on the board, the number a player owns", piece.Color, core.BugCount(b), piece.Type)
			}
			p, _ := core.MakePiece(c, b, n)
			st.Pieces = append(st.Pieces, p)
		}
		pos.Stacks = append(pos.Stacks, st)
	}
	g, err := core.NewGameAt(pos, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w (pieces named as in UHP, numbered in board order)", ErrBadBoard, err)
	}
	return g, nil
}

// check compares the tracked game with the rest of the state; source says
// what the game was built from, the history or the board.
func (tr *tracker) check(s GameState, source string) error {
	g := tr.g
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInconsistent}, args...)...)
	}
	if c, ok := parseColor(s.PlayerTurn); !ok || c != g.ToMove() {
		return bad("player_turn is %q, but after %s %s is to move", s.PlayerTurn, source, ColorName(g.ToMove()))
	}
	want := tr.stacks()
	seen := make(map[Pos]bool, len(s.Board.Pieces))
	for key, stack := range s.Board.Pieces {
		p, err := ParsePos(key)
		if err != nil {
			return bad("board: %v", err)
		}
		if seen[p] {
			return bad("board: position %s is listed twice", p)
		}
		seen[p] = true
		if !slices.Equal(stack, want[p]) {
			return bad("board: %q holds %v, but %s leaves %v there", key, stack, source, want[p])
		}
	}
	for p, stack := range want {
		if !seen[p] {
			return bad("board: %q is missing; %s leaves %v there", p.String(), source, stack)
		}
	}
	for c, h := range [2]Hand{s.Hands.White, s.Hands.Black} {
		color := core.Color(c)
		have := handOf(g, color)
		for name, n := range h {
			if _, ok := ParseBug(name); !ok {
				return bad("hands: %s: unknown piece type %q", ColorName(color), name)
			}
			if n != have[name] {
				return bad("hands: %s has %d %s in hand, but %s leaves %d", ColorName(color), n, name, source, have[name])
			}
		}
		for name, n := range have {
			if _, ok := h[name]; !ok && n != 0 {
				return bad("hands: %s lacks %s, but %s leaves %d in hand", ColorName(color), name, source, n)
			}
		}
	}
	r := g.Result()
	if s.GameOver != g.Over() {
		return bad("game_over is %v, but after %s it is %v", s.GameOver, source, g.Over())
	}
	if s.IsDraw != (r == core.Draw) {
		return bad("is_draw is %v, but after %s it is %v", s.IsDraw, source, r == core.Draw)
	}
	winner := ""
	switch r {
	case core.WhiteWins:
		winner = ColorWhite
	case core.BlackWins:
		winner = ColorBlack
	}
	if s.Winner.Color != winner {
		return bad("winner is %q, but after %s it is %q", s.Winner.Color, source, winner)
	}
	return nil
}

// TurnOf returns m, a legal move of g, as a Turn. A move that a piece can
// make by itself is spelled Movement, even where the Pillbug could also
// carry it there; a move that only a throw makes is spelled Special
// Ability, with the Pillbug as ability_user in preference to a Mosquito.
func TurnOf(m core.Move, g *core.Game) (Turn, error) {
	tr, _, err := trackGame(g, false)
	if err != nil {
		return Turn{}, err
	}
	if !tr.g.Legal(m) {
		return Turn{}, fmt.Errorf("%w: %v", ErrBadTurn, tr.g.RuleBroken(m))
	}
	return tr.turnOf(m)
}

// MoveOf returns the core move that turn t makes in g, if it is legal.
//
// Moves are compared "by what they do (piece and destination), never by
// their spelling" (docs/design/architecture.md): a Movement or a Special Ability
// is the move of the top piece of its source to its destination, legal if
// the core finds it legal by either route, so that a peer that calls a
// throw a Movement, or the reverse, is not turned away. A Special Ability
// must still name, as ability_user, a cell that holds the mover's Pillbug
// or Mosquito. A Placement places the lowest-numbered piece of its type in
// the mover's hand (see GameOf); a Forfeit is a pass, legal only when
// nothing else is.
func MoveOf(t Turn, g *core.Game) (core.Move, error) {
	tr, _, err := trackGame(g, false)
	if err != nil {
		return core.NoMove, err
	}
	return tr.moveOf(t)
}

// tracker follows a game from its first move and measures the absolute
// position of every piece: the first piece stands at axial (0, 0), or the
// pieces of a set-up game where they were set up, and every later
// destination is found from a piece next to it. Walking from
// neighbour to neighbour is the only way to read coordinates off the
// core's board, whose 1024 cells wrap around.
type tracker struct {
	g  *core.Game
	at [core.NumPieces]axial
}

// newTracker returns a tracker of a new game of type t.
func newTracker(t core.GameType, opts ...core.GameOption) *tracker {
	return &tracker{g: core.NewGame(t, opts...)}
}

// trackGame follows g's history in a copy of g, from its start: the empty
// board, or the position it was set up at, whose pieces stand at the axial
// coordinates they were set up with (GameOf sets a board up at its own
// positions, so that the coordinates of its turns are the state's). With
// history set it spells each turn of the history.
func trackGame(g *core.Game, history bool) (*tracker, []Turn, error) {
	start := g.Clone()
	for start.MovesPlayed() > 0 {
		start.Undo()
	}
	tr := &tracker{g: start}
	for _, st := range start.StartPosition().Stacks {
		for _, p := range st.Pieces {
			tr.at[p] = axial{st.Q, st.R}
		}
	}
	var turns []Turn
	if history {
		turns = make([]Turn, 0, g.MovesPlayed())
	}
	for _, m := range g.History() {
		if history {
			t, err := tr.turnOf(m)
			if err != nil {
				return nil, nil, err
			}
			turns = append(turns, t)
		}
		if err := tr.play(m); err != nil {
			return nil, nil, err
		}
	}
	if tr.g.Hash() != g.Hash() || tr.g.Ply() != g.Ply() {
		return nil, nil, errors.New("hivejson: replaying the game's history did not reach its position")
	}
	return tr, turns, nil
}

// play plays m, a legal move, after measuring where it goes.
func (tr *tracker) play(m core.Move) error {
	if m != core.Pass {
		a, ok := tr.axialOf(m.To())
		if !ok {
			return fmt.Errorf("hivejson: move %v goes nowhere near the hive", m)
		}
		tr.at[m.Piece()] = a
	}
	tr.g.Play(m)
	return nil
}

// axialOf returns the absolute position of cell c: that of the piece on
// it, or a step from a piece next to it, or the origin on an empty board.
// It fails for a cell that is neither on nor next to the hive.
func (tr *tracker) axialOf(c core.Cell) (axial, bool) {
	g := tr.g
	if g.OnBoard() == 0 {
		return axial{}, c == core.Origin
	}
	if t := g.Top(c); t != core.NoPiece {
		return tr.at[t], true
	}
	for d := core.Direction(0); d < core.NumDirections; d++ {
		if t := g.Top(c.Neighbor(d)); t != core.NoPiece {
			return tr.at[t].add(axialStep(d.Opposite())), true
		}
	}
	return axial{}, false
}

// posOf returns the wire position of a cell on or next to the hive.
func (tr *tracker) posOf(c core.Cell) Pos {
	a, _ := tr.axialOf(c)
	return a.pos()
}

// cellOf returns the cell at a wire position on or next to the hive (the
// origin on an empty board): every legal destination is one.
func (tr *tracker) cellOf(p Pos) (core.Cell, error) {
	g := tr.g
	a := p.axial()
	if g.OnBoard() == 0 {
		if a != (axial{}) {
			return core.NoCell, fmt.Errorf("position %s: the first piece of a game goes at 0,0", p)
		}
		return core.Origin, nil
	}
	for all := g.OnBoard(); all != 0; all &= all - 1 {
		piece := core.Piece(bits.TrailingZeros32(all))
		if tr.at[piece] == a {
			return g.Position(piece), nil
		}
		if d, ok := tr.at[piece].direction(a); ok {
			return g.Position(piece).Neighbor(d), nil
		}
	}
	return core.NoCell, fmt.Errorf("position %s is neither on nor next to the hive", p)
}

// stacks returns every occupied position with its stack, bottom to top.
func (tr *tracker) stacks() map[Pos][]Piece {
	g := tr.g
	out := make(map[Pos][]Piece)
	for all := g.OnBoard(); all != 0; all &= all - 1 {
		p := core.Piece(bits.TrailingZeros32(all))
		c := g.Position(p)
		if g.Top(c) != p {
			continue
		}
		stack := make([]Piece, g.Height(c))
		for i, q := len(stack)-1, p; q != core.NoPiece; i, q = i-1, g.Under(q) {
			stack[i] = Piece{Color: ColorName(q.Color()), Type: BugName(q.Bug())}
		}
		out[tr.at[p].pos()] = stack
	}
	return out
}

// moveOf returns the move turn t makes in the tracked game, if legal (see
// MoveOf).
func (tr *tracker) moveOf(t Turn) (core.Move, error) {
	m, err := tr.decode(t)
	if err != nil {
		return core.NoMove, err
	}
	if err := tr.g.RuleBroken(m); err != nil {
		return core.NoMove, fmt.Errorf("%w %s: %w", ErrBadTurn, turnString(t), err)
	}
	return m, nil
}

// decode returns the move turn t spells in the tracked game, legal or not.
func (tr *tracker) decode(t Turn) (core.Move, error) {
	g := tr.g
	me := g.ToMove()
	bad := func(format string, args ...any) (core.Move, error) {
		return core.NoMove, fmt.Errorf("%w %s: "+format, append([]any{ErrBadTurn, turnString(t)}, args...)...)
	}
	cell := func(field, s string) (core.Cell, error) {
		p, err := ParsePos(s)
		if err != nil {
			return core.NoCell, fmt.Errorf("%s: %w", field, err)
		}
		c, err := tr.cellOf(p)
		if err != nil {
			return core.NoCell, fmt.Errorf("%s: %w", field, err)
		}
		return c, nil
	}
	var m core.Move
	switch t.TurnType {
	case TurnForfeit:
		m = core.Pass
	case TurnPlacement:
		b, ok := ParseBug(t.PieceType)
		if !ok {
			return bad("unknown piece_type %q", t.PieceType)
		}
		if !g.Type().Has(b) {
			return bad("%s is not in play in this game", t.PieceType)
		}
		piece := core.NoPiece
		for n := 1; n <= core.BugCount(b); n++ {
			if p, _ := core.MakePiece(me, b, n); g.InHand(p) {
				piece = p
				break
			}
		}
		if piece == core.NoPiece {
			return bad("%s has no %s in hand", ColorName(me), t.PieceType)
		}
		to, err := cell("destination", t.Destination)
		if err != nil {
			return bad("%v", err)
		}
		m = core.MakeMove(piece, to)
	case TurnMovement, TurnSpecialAbility:
		from, err := cell("source", t.Source)
		if err != nil {
			return bad("%v", err)
		}
		piece := g.Top(from)
		if piece == core.NoPiece {
			return bad("no piece at source %s", t.Source)
		}
		to, err := cell("destination", t.Destination)
		if err != nil {
			return bad("%v", err)
		}
		if t.TurnType == TurnSpecialAbility {
			user, err := cell("ability_user", t.AbilityUser)
			if err != nil {
				return bad("%v", err)
			}
			u := g.Top(user)
			if u == core.NoPiece || u.Color() != me || (u.Bug() != core.Pillbug && u.Bug() != core.Mosquito) {
				return bad("ability_user %s holds no Pillbug or Mosquito of %s", t.AbilityUser, ColorName(me))
			}
		}
		m = core.MakeMove(piece, to)
	default:
		return bad("unknown turn_type %q", t.TurnType)
	}
	return m, nil
}

// turnString writes a turn for an error message.
func turnString(t Turn) string {
	b, _ := json.Marshal(t)
	return string(b)
}

package daemon

import (
	"slices"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// The players that front ends which send whole positions name in the
// archive: the Hub protocol and the Choose-Turn API identify neither the
// GUI nor the controller, so the side that is not the backend is named by
// its role.
const (
	HubGUI         = "Hub GUI"
	JSONController = "JSON controller"
)

// positionLog keeps in the archive the games of a front end that is sent
// whole positions rather than moves: a Hub GUI's pos, a Choose-Turn
// controller's game_state with its turn_history. A position that extends
// the game's moves adds the new ones; one that takes back moves (a prefix
// of the game, or a prefix followed by other moves, at most one turn of
// two plies taken back: a GUI's undo, a pondered move not played) is an
// undo; any other position, a new-game, or a position of another game
// type, ends the game (abandoned) and starts another. A set-up position
// (Hub's board=, a game_state without turn_history) has no moves from the
// start to keep: it ends the game and is not archived. The backend's
// answers are recorded as they are answered, so that the move that ends a
// game is kept though no position follows it.
type positionLog struct {
	keeper  *archive.Keeper
	source  string
	backend string      // the backend's player name
	other   string      // the other side's: HubGUI or JSONController
	drained func() bool // the daemon is stopping: a game cut now is interrupted

	gameType core.GameType
	moves    []string          // the game's moves, as recorded
	over     bool              // the game ended by the rules
	rec      *archive.Recorder // nil until the game's first move
	ended    *archive.Recorder // the game ended last, its end maybe not written yet
}

// settle waits until the last change recorded is archived (or given up):
// each is called before the session answers its next command.
func (l *positionLog) settle() {
	if l.rec != nil {
		l.rec.Settle()
	}
	if l.ended != nil {
		l.ended.Settle()
		l.ended = nil
	}
}

// position records the position a front end was sent.
func (l *positionLog) position(g *core.Game) {
	l.settle()
	gs, err := uhp.Describe(g)
	if err != nil { // a set-up position
		l.end("abandoned", "a set-up position followed")
		l.reset(g.Type())
		return
	}
	moves := gs.Moves
	common := 0
	for common < len(moves) && common < len(l.moves) && moves[common] == l.moves[common] {
		common++
	}
	takeBack := len(l.moves) - common
	switch {
	case g.Type() != l.gameType:
		l.restart(g, gs)
		return
	case takeBack == 0 && !(l.over && len(moves) > common): // the game's moves and maybe more
	case !l.over && l.rec != nil && common > 0 && (common == len(moves) || takeBack <= 2):
		l.rec.Undone(takeBack, l.gameString(g.Type(), moves[:common]))
		l.moves = l.moves[:common]
	default:
		l.restart(g, gs)
		return
	}
	if common < len(moves) {
		l.played(g.Type(), moves, common, l.other)
	}
	l.ifOver(g, gs)
}

// answered records the backend's move m in the position g, when g is the
// game's position.
func (l *positionLog) answered(g *core.Game, m core.Move) {
	l.settle()
	if l.rec == nil && len(l.moves) == 0 {
		l.gameType = g.Type() // a search of a game's start, without pos
	}
	gs, err := uhp.Describe(g)
	if err != nil || g.Type() != l.gameType || l.over || !slices.Equal(gs.Moves, l.moves) || !g.Legal(m) {
		return
	}
	text := uhp.FormatMove(m, g)
	after := g.Clone()
	after.Play(m)
	l.played(g.Type(), append(gs.Moves, text), len(gs.Moves), l.backend)
	if d, err := uhp.Describe(after); err == nil {
		l.ifOver(after, d)
	}
}

// played records moves[from:], played by by; l.moves was moves[:from].
// A game not yet in the archive starts there with them, in one write: a
// Begin then a Played would make the answer wait for the start's commit
// (each Played settles the write before it).
func (l *positionLog) played(t core.GameType, moves []string, from int, by string) {
	if l.rec == nil {
		l.rec = l.keeper.Begin(l.source, uhp.FormatGameType(t), l.gameString(t, moves), moves[from:], by, archive.Players{})
	} else {
		for i := from; i < len(moves); i++ {
			l.rec.Played(moves[i], by)
		}
	}
	l.moves = append(l.moves, moves[from:]...)
}

// ifOver ends the game when the rules have ended it at g.
func (l *positionLog) ifOver(g *core.Game, gs uhp.GameString) {
	if !g.Over() || l.rec == nil || l.over {
		return
	}
	l.over = true
	l.rec.Ended(archive.End{How: "state", Result: gs.State.String()}, gs.String())
	l.rec, l.ended = nil, l.rec
}

// restart ends the game and starts one at g, with its moves all played
// by the other side (they came before the backend was asked anything).
func (l *positionLog) restart(g *core.Game, gs uhp.GameString) {
	l.end("abandoned", "another game's position followed")
	l.reset(g.Type())
	if len(gs.Moves) == 0 {
		return
	}
	l.rec = l.keeper.Begin(l.source, uhp.FormatGameType(g.Type()), gs.String(), gs.Moves, l.other, archive.Players{})
	l.moves = append([]string(nil), gs.Moves...)
	l.ifOver(g, gs)
}

// newGame ends the game: a Hub new-game.
func (l *positionLog) newGame() {
	l.settle()
	l.end("abandoned", "a new game started")
	l.reset(l.gameType)
}

// closed ends the game as the session ends.
func (l *positionLog) closed() {
	if l.drained() {
		l.end("interrupted", "the server shut down")
	} else {
		l.end("disconnect", "")
	}
}

// end ends the game in progress, if it has begun, in the manner how.
func (l *positionLog) end(how, reason string) {
	if l.rec == nil {
		return
	}
	l.rec.Ended(archive.End{How: how, Reason: reason}, l.gameString(l.gameType, l.moves))
	l.rec, l.ended = nil, l.rec
}

// reset makes the log's game a new one of type t, with no move yet.
func (l *positionLog) reset(t core.GameType) {
	l.gameType, l.moves, l.over = t, nil, false
}

// gameString is the GameString of a game in progress of type t after moves.
func (l *positionLog) gameString(t core.GameType, moves []string) string {
	g := core.NewGame(t)
	for _, text := range moves {
		m, err := uhp.ParseMove(text, g)
		if err != nil {
			break // the moves were written by uhp.Describe from a game: never
		}
		g.Play(m)
	}
	gs, _ := uhp.Describe(g)
	return gs.String()
}

// hubGames follows a Hub session's games (hub.GameWatcher).
type hubGames struct{ log *positionLog }

func (h hubGames) Position(g *core.Game)              { h.log.position(g) }
func (h hubGames) NewGame()                           { h.log.newGame() }
func (h hubGames) Answered(g *core.Game, m core.Move) { h.log.answered(g, m) }

// jsonGames follows the games of a Choose-Turn connection
// (hivejson.Watcher): one for each game_id, since "one connection may be
// asked to play both colours" of several games.
type jsonGames struct {
	newLog func() *positionLog
	games  map[string]*positionLog
}

func (j *jsonGames) game(id string) *positionLog {
	l := j.games[id]
	if l == nil {
		l = j.newLog()
		j.games[id] = l
	}
	return l
}

// Request records a request's game; first, the games of the connection
// settle, so that its answer proves its previous answers' moves kept.
func (j *jsonGames) Request(id string, g *core.Game) {
	for _, l := range j.games {
		l.settle()
	}
	j.game(id).position(g)
}

func (j *jsonGames) Answered(id string, g *core.Game, m core.Move) { j.game(id).answered(g, m) }

func (j *jsonGames) Closed() {
	for _, l := range j.games {
		l.closed()
	}
}

// positionLog returns a new log of the games of a session of source,
// whose other side is other.
func (s *Server) positionLog(source, other string) *positionLog {
	return &positionLog{keeper: s.archive.keeper, source: source, backend: s.backendName(), other: other, drained: s.draining.Load}
}

// watchJSON is the JSON server's Watch: the games of a connection, when
// the daemon keeps an archive. It is asked once the archive is open.
func (s *Server) watchJSON() hivejson.Watcher {
	if s.archive == nil {
		return nil
	}
	return &jsonGames{newLog: func() *positionLog { return s.positionLog("hivejson", JSONController) }, games: map[string]*positionLog{}}
}

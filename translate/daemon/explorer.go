package daemon

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// The opening explorer's answer to GET /explorer: the moves played from
// the asker's position in the archive's finished games, written as UHP
// MoveStrings on the asker's board (the archive keeps them in a canonical
// frame, the same for every rotation and reflection of the position).

// explorerAnswer is the answer for a position.
type explorerAnswer struct {
	// Position is the GameString of the position asked about, its moves
	// in hivebridge's spelling.
	Position string `json:"position"`
	// Key is the position's orientation-free key, in hexadecimal.
	Key string `json:"key"`
	// Games is how many games the moves below were played in: every
	// archived game that reached the position and went on from it.
	Games int            `json:"games"`
	Moves []explorerMove `json:"moves"`
}

// explorerMove is one move of an answer.
type explorerMove struct {
	// Move is the MoveString on the asker's board.
	Move string `json:"move"`
	// Legal is false for a move the rules forbid in the asker's position
	// although it was played from the same board: the piece moved last,
	// which the key leaves out, may not move (a Pillbug's throw).
	Legal bool `json:"legal"`
	Games int  `json:"games"`
	White int  `json:"white"`
	Draws int  `json:"draws"`
	Black int  `json:"black"`
	// GameIDs are some of the games that played it, newest first:
	// GET /games/{id} reads one, and GET /explorer with move and before
	// (the last id) the next page.
	GameIDs []int64 `json:"game_ids"`
	// Score, asked for with depth, is the engine's score of the move for
	// the player who makes it, in pieces as UHP reports write them (a
	// forced win in N plies 1000-N): a search of the position it leads to,
	// depth plies deep. Absent for a move that is not legal here.
	Score *float64 `json:"score,omitempty"`
}

// explorerGamesPage is the answer to a page of one move's games.
type explorerGamesPage struct {
	Position string  `json:"position"`
	Move     string  `json:"move"`
	GameIDs  []int64 `json:"game_ids"`
}

// Bounds of GET /explorer's games per move, and of the depth of the
// searches that score its moves: a few plies, enough to tell a blunder, and
// a search each for every move listed.
const (
	explorerDefaultGames = 5
	explorerMaxGames     = 100
	explorerMaxDepth     = 4
)

// explorerQuery is what GET /explorer asks.
type explorerQuery struct {
	game   *core.Game
	games  int
	move   string // a page of this move's games, when not empty
	before int64
	depth  int // the depth of the search that scores each move; 0: none
}

// parseExplorerQuery reads GET /explorer's query: the position as
// position=<GameString>, or as type=<GameTypeString> (Base when absent)
// and moves=<MoveStrings separated by ;> (none: the start); games=<n> ids
// per move; and for a page of one move's games, move=<MoveString> and
// before=<id>. Every fault is named.
func parseExplorerQuery(raw string) (explorerQuery, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		if strings.Contains(raw, ";") {
			return explorerQuery{}, fmt.Errorf("malformed query: %w (a GameString's and the moves' semicolons are written %%3B, as encodeURIComponent writes them)", err)
		}
		return explorerQuery{}, fmt.Errorf("malformed query: %w", err)
	}
	known := []string{"position", "type", "moves", "games", "move", "before", "depth"}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(known, k) {
			return explorerQuery{}, fmt.Errorf("unknown parameter %q: /explorer takes %s", k, strings.Join(known, ", "))
		}
		if len(q[k]) > 1 {
			return explorerQuery{}, fmt.Errorf("parameter %q given %d times", k, len(q[k]))
		}
	}
	var text string
	switch {
	case q.Has("position") && (q.Has("type") || q.Has("moves")):
		return explorerQuery{}, errors.New("give the position either as position (a GameString) or as type and moves, not both")
	case q.Has("position"):
		text = q.Get("position")
	default:
		typ := q.Get("type")
		if typ == "" {
			typ = "Base"
		}
		text = typ + ";InProgress;White[1]"
		if moves := strings.TrimSpace(q.Get("moves")); moves != "" {
			text += ";" + moves
		}
	}
	gs, err := uhp.ParseGameString(text)
	if err != nil {
		return explorerQuery{}, fmt.Errorf("position: %w", err)
	}
	g, err := gs.Load()
	if err != nil {
		return explorerQuery{}, fmt.Errorf("position: %w", err)
	}
	eq := explorerQuery{game: g, games: explorerDefaultGames, move: q.Get("move")}
	if v := q.Get("games"); v != "" {
		if eq.games, err = strconv.Atoi(v); err != nil || eq.games < 0 || eq.games > explorerMaxGames {
			return explorerQuery{}, fmt.Errorf("games %q: want a whole number from 0 to %d", v, explorerMaxGames)
		}
	}
	if v := q.Get("depth"); v != "" {
		if eq.depth, err = strconv.Atoi(v); err != nil || eq.depth < 0 || eq.depth > explorerMaxDepth {
			return explorerQuery{}, fmt.Errorf("depth %q: want a whole number of plies from 0 (no scores) to %d", v, explorerMaxDepth)
		}
	}
	if v := q.Get("before"); v != "" {
		if eq.before, err = strconv.ParseInt(v, 10, 64); err != nil || eq.before < 1 {
			return explorerQuery{}, fmt.Errorf("before %q: want a game id, a whole number from 1", v)
		}
		if eq.move == "" {
			return explorerQuery{}, errors.New("before pages one move's games: give the move too")
		}
	}
	return eq, nil
}

// describePosition is the GameString of g in hivebridge's spelling.
func describePosition(g *core.Game) string {
	gs, err := uhp.Describe(g)
	if err != nil {
		return ""
	}
	return gs.String()
}

// explorerRoutes serves GET /explorer.
func (s *Server) explorerRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /explorer", s.withArchive(func(w http.ResponseWriter, r *http.Request, store archive.Store) {
		eq, err := parseExplorerQuery(r.URL.RawQuery)
		if err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		g := eq.game
		o := core.Orient(g)
		if eq.move != "" {
			m, err := uhp.ParseMove(eq.move, g)
			var om core.OrientedMove
			ok := err == nil
			if ok {
				om, ok = o.Canonical(g, m)
			}
			if !ok {
				httpError(w, http.StatusBadRequest, fmt.Errorf("move %q is not a move of this position", eq.move))
				return
			}
			ids, err := store.ExplorerGames(r.Context(), o.Key(), om, eq.before, max(eq.games, 1))
			if err != nil {
				archiveError(w, err)
				return
			}
			writeJSON(w, explorerGamesPage{Position: describePosition(g), Move: uhp.FormatMove(m, g), GameIDs: ids})
			return
		}
		found, err := store.Explore(r.Context(), o.Key(), eq.games)
		if err != nil {
			archiveError(w, err)
			return
		}
		answer := explorerAnswer{Position: describePosition(g), Key: fmt.Sprintf("%016x", o.Key()), Moves: []explorerMove{}}
		for _, f := range found {
			m, ok := o.Board(g, f.Move)
			if !ok {
				continue // a move of another position with the same key: a collision
			}
			if f.Games == nil {
				f.Games = []int64{}
			}
			answer.Games += f.Total()
			em := explorerMove{Move: uhp.FormatMove(m, g), Legal: !g.Over() && g.Legal(m),
				Games: f.Total(), White: f.White, Draws: f.Draws, Black: f.Black, GameIDs: f.Games}
			if em.Legal && eq.depth > 0 {
				score, err := s.scoreMove(r.Context(), g, m, eq.depth)
				if err != nil {
					httpError(w, http.StatusServiceUnavailable, fmt.Errorf("scoring %s: %w", em.Move, err))
					return
				}
				em.Score = &score
			}
			answer.Moves = append(answer.Moves, em)
		}
		writeJSON(w, answer)
	}))
}

// scoreMove is the score of m, a legal move of g, for the player who makes
// it: a search of depth plies of the position m leads to, by the pool's
// searcher (within --max-search-time, as every search), seen from the
// other side; a game m ends scores as its result.
func (s *Server) scoreMove(ctx context.Context, g *core.Game, m core.Move, depth int) (float64, error) {
	after := g.Clone()
	after.Play(m)
	mover := g.ToMove()
	if after.Over() {
		switch after.Result() {
		case core.Draw:
			return 0, nil
		case core.WhiteWins:
			if mover == core.White {
				return engine.ForcedScoreBase - 1, nil
			}
		case core.BlackWins:
			if mover == core.Black {
				return engine.ForcedScoreBase - 1, nil
			}
		}
		return -(engine.ForcedScoreBase - 1), nil
	}
	var last engine.Score
	if _, err := s.searcher.BestMove(ctx, after, engine.Limit{Depth: depth}, func(p engine.Progress) {
		if p.Score.Kind != engine.NoScore && p.Best() {
			last = p.Score
		}
	}); err != nil {
		return 0, err
	}
	// The reply's score, from the mover's side: a win for the reply in
	// N plies is a loss for the mover in N+1, counted from before m.
	switch last.Kind {
	case engine.Win:
		last = engine.LossIn(last.Plies + 1)
	case engine.Loss:
		last = engine.WinIn(last.Plies + 1)
	default:
		last.Centi = -last.Centi
	}
	return last.Pieces(), nil
}

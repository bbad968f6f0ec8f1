package dataset

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/hivebridge/hivebridge/ai"
	"github.com/hivebridge/hivebridge/core"
)

// DefaultSettings returns the labelling's defaults (see Labeller): a search
// of 4 plies, as deep as the deeper side of the games of
// scripts/nnue-data.sh (depth 3 against depth 4) and five times as fast
// as 5 plies, which makes a million positions a night's work on one core;
// a table of 1 MB, which a search of that depth hardly fills and which
// costs little to empty before every position; the first ten plies
// passed over (the openings end with random plies at ply 8).
func DefaultSettings() Settings { return Settings{Depth: 4, HashMB: 1, Skip: 10, Margin: 250} }

// pressedQueen is the number of neighbours from which the native search's
// quiescence search looks at the moves that close in on a Queen: from it
// on, a move that does is Hive's capture.
const pressedQueen = 3

// Stats count what the labelling did with the positions of its games.
type Stats struct {
	Games     int // games labelled
	Positions int // positions seen, the final one of each game included
	Samples   int // positions labelled and kept
	// Why the others were passed over, each counted under the first
	// reason that applies, in this order:
	Over     int // the game is over
	Repeated int // the position came before in the same game
	Opening  int // before Settings.Skip
	Queen    int // a Queen has five neighbours: the next move may end the game
	Forced   int // one legal move or none
	Swing    int // a search of one ply moved the score by more than Settings.Margin
	Decided  int // the label search found a forced result
	Attack   int // the best move closes in on a Queen with pressedQueen neighbours or more
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.Games += o.Games
	s.Positions += o.Positions
	s.Samples += o.Samples
	s.Over += o.Over
	s.Repeated += o.Repeated
	s.Opening += o.Opening
	s.Queen += o.Queen
	s.Forced += o.Forced
	s.Swing += o.Swing
	s.Decided += o.Decided
	s.Attack += o.Attack
}

// Labeller chooses the quiet positions of a game and labels each with the
// score of a native search of fixed depth, made with an emptied table and
// history, so that a label is a function of the position and the settings
// alone, which an independent search reproduces.
//
// A position is kept when the static evaluation can be asked to judge it,
// as the trainers of NNUE networks choose theirs (Stockfish's skip the
// positions whose best move is a capture and the early plies; bee-search
// labels every position with a deeper search): it is not the first
// positions of the game (Skip: the openings are random plies), nor one
// seen before in the game, nor one where a Queen has five neighbours
// (the next move may end the game), nor one with one legal move or none;
// a search of one ply, which ends in the quiescence search, does not move
// the score more than Margin from the static evaluation (the position is
// not quiet); the label search proves no forced result (the score is then
// a distance to the end, not a judgement); and the best move it finds does
// not close in on an enemy Queen that has pressedQueen neighbours or more
// (the quiescence search's moves: the position's worth is a tactic's).
type Labeller struct {
	set  Settings
	s    *ai.Searcher
	list core.MoveList
}

// NewLabeller returns a labeller of settings set with its own searcher.
func NewLabeller(set Settings) (*Labeller, error) {
	if err := set.check(); err != nil {
		return nil, err
	}
	return &Labeller{set: set, s: ai.New(1, set.HashMB)}, nil
}

// Label replays the finished game src (from the empty board) and returns
// its record: its moves, result and samples. ctx stops it between and
// during searches, with ctx's error.
func (l *Labeller) Label(ctx context.Context, number int, src *core.Game, result core.Result) (*Game, Stats, error) {
	var st Stats
	if src.SetUp() {
		return nil, st, fmt.Errorf("game %d starts from a set-up position", number)
	}
	rec := &Game{Number: number, Type: src.Type(), RepetitionDraw: src.RepetitionDrawOn(),
		QueenFirst: src.QueenOnFirstTurnAllowed(), Result: result, Moves: append([]core.Move(nil), src.History()...)}
	g := rec.start()
	seen := make(map[uint64]bool, len(rec.Moves))
	for ply := 0; ; ply++ {
		st.Positions++
		score, keep, err := l.judge(ctx, g, ply, seen, &st)
		if err != nil {
			return nil, st, fmt.Errorf("game %d, ply %d: %w", number, ply, err)
		}
		if keep {
			st.Samples++
			rec.Samples = append(rec.Samples, Sample{Ply: ply, Score: score})
		}
		if ply == len(rec.Moves) {
			break
		}
		if err := g.PlayChecked(rec.Moves[ply]); err != nil {
			return nil, st, fmt.Errorf("game %d, move %d: %w", number, ply+1, err)
		}
	}
	st.Games = 1
	return rec, st, nil
}

// judge decides whether the position g, after ply moves, is kept, and
// labels it if so (see Labeller).
func (l *Labeller) judge(ctx context.Context, g *core.Game, ply int, seen map[uint64]bool, st *Stats) (int, bool, error) {
	key := g.PositionKey()
	repeated := seen[key]
	seen[key] = true
	switch {
	case g.Over():
		st.Over++
		return 0, false, nil
	case repeated:
		st.Repeated++
		return 0, false, nil
	case ply < l.set.Skip:
		st.Opening++
		return 0, false, nil
	case queenNeighbors(g, core.White) >= 5 || queenNeighbors(g, core.Black) >= 5:
		st.Queen++
		return 0, false, nil
	}
	if g.GenerateMoves(&l.list); l.list.Len() < 2 {
		st.Forced++
		return 0, false, nil
	}
	shallow, err := l.search(ctx, g, 1)
	if err != nil {
		return 0, false, err
	}
	if decided(shallow.Score) {
		st.Decided++
		return 0, false, nil
	}
	if d := shallow.Score - ai.Evaluate(g); d > l.set.Margin || -d > l.set.Margin {
		st.Swing++
		return 0, false, nil
	}
	info, err := l.search(ctx, g, l.set.Depth)
	switch {
	case err != nil:
		return 0, false, err
	case decided(info.Score):
		st.Decided++
		return 0, false, nil
	case attacks(g, info.Move):
		st.Attack++
		return 0, false, nil
	}
	return info.Score, true, nil
}

// search searches g to depth with an emptied searcher and checks that the
// search completed that depth.
func (l *Labeller) search(ctx context.Context, g *core.Game, depth int) (ai.Info, error) {
	l.s.Clear()
	info := l.s.Search(ctx, g, ai.Limits{Depth: depth}, nil)
	if err := ctx.Err(); err != nil {
		return info, err // the search may have stopped short
	}
	if info.Depth != depth && !decided(info.Score) {
		return info, fmt.Errorf("the search stopped at depth %d of %d", info.Depth, depth)
	}
	return info, nil
}

// decided reports whether score is a forced result rather than an
// evaluation.
func decided(score int) bool {
	return score >= ai.MateScore-ai.MaxPly || score <= -(ai.MateScore-ai.MaxPly)
}

// queenNeighbors returns the number of occupied cells next to c's Queen,
// or -1 while it is in hand.
func queenNeighbors(g *core.Game, c core.Color) int {
	q := g.Position(core.Piece(c) * core.PiecesPerColor)
	if q == core.NoCell {
		return -1
	}
	return bits.OnesCount8(g.Neighbors(q))
}

// attacks reports whether m, a move of the side to move in g, closes in on
// the enemy Queen while it has pressedQueen neighbours or more: after it
// the Queen has more neighbours, or the moving piece on top.
func attacks(g *core.Game, m core.Move) bool {
	enemy := g.ToMove().Other()
	before := queenNeighbors(g, enemy)
	if before < pressedQueen || m == core.Pass || m == core.NoMove {
		return false
	}
	queen := core.Piece(enemy) * core.PiecesPerColor
	g.Play(m)
	after := queenNeighbors(g, enemy)
	climbed := g.Top(g.Position(queen)) == m.Piece()
	g.Undo()
	return after > before || climbed
}

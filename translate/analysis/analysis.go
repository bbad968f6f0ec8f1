// Package analysis scores a whole game with any backend, move by move: the
// score of every position from White's side, the best move and line where
// the one played differs, and each move classed by what it lost in
// expected score (a score turned into a win probability by a Curve fitted
// to real games' results). It walks the game; the searching is the
// backend's, and the reading and writing of records is translate/records'.
package analysis

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/records"
)

// Class is what a move cost its player.
type Class string

// The classes, by the loss in expected score of the move played against
// the best move's. The bounds are lichess's (lila, modules/analyse,
// Advice.scala: a judgement at a loss of 0.1, 0.2 and 0.3 in its "winning
// chances", which run from -1 to 1, so 0.05, 0.10 and 0.15 of an expected
// score from 0 to 1), applied to expected scores of our own curve.
const (
	Best       Class = "best"       // the backend's own choice
	Good       Class = "good"       // another move, losing less than InaccuracyLoss
	Inaccuracy Class = "inaccuracy" // losing InaccuracyLoss or more
	Mistake    Class = "mistake"    // MistakeLoss or more
	Blunder    Class = "blunder"    // BlunderLoss or more
	// Unclassed: the backend gave no score to class the move by.
	Unclassed Class = ""
)

// The least losses in expected score of the classes (see Class).
const (
	InaccuracyLoss = 0.05
	MistakeLoss    = 0.10
	BlunderLoss    = 0.15
)

// Classes lists the classes, best first.
func Classes() []Class { return []Class{Best, Good, Inaccuracy, Mistake, Blunder} }

// ClassOf classes a move other than the best by its loss.
func ClassOf(loss float64) Class {
	switch {
	case loss >= BlunderLoss:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	case loss >= InaccuracyLoss:
		return Inaccuracy
	}
	return Good
}

// NAG is the class's Numeric Annotation Glyph as chess PGN defines them:
// $6 a questionable move (?!), $2 a poor move (?), $4 a very poor move
// (??), as lichess marks its three judgements; 0 for best and good moves,
// which, as on lichess, are left unmarked ($1, "!", says more than that the
// engine agreed).
func (c Class) NAG() int {
	switch c {
	case Inaccuracy:
		return 6
	case Mistake:
		return 2
	case Blunder:
		return 4
	}
	return 0
}

// Config is how to analyse a game.
type Config struct {
	// Limit bounds each position's search.
	Limit engine.Limit
	// Curve turns scores into expected scores (Fitted when zero).
	Curve Curve
	// Progress, if not nil, is told after each position searched how many
	// of how many are done.
	Progress func(done, total int)
	// Ply, if not nil, is told each ply as soon as it is analysed, which
	// is when the positions before and after it have both been searched:
	// the game is walked backwards, so from the last ply to the first. It
	// is what the finished Analysis holds for that ply, so that a viewer
	// can draw the game's scores as they come.
	Ply func(Ply)
}

// Analysis is a game analysed: what JSON writes, and what Record and the
// command's table are made from.
type Analysis struct {
	GameType string `json:"game_type"`
	White    string `json:"white,omitempty"`
	Black    string `json:"black,omitempty"`
	Result   string `json:"result,omitempty"`
	// Engine names the backend that searched, and Depth and Time (in
	// seconds) its limit per position.
	Engine string  `json:"engine"`
	Depth  int     `json:"depth,omitempty"`
	Time   float64 `json:"time,omitempty"`
	Curve  Curve   `json:"curve"`
	// Start is the score of the position before the first move.
	Start   Score     `json:"start"`
	Plies   []Ply     `json:"plies"`
	Players [2]Player `json:"players"` // White's and Black's
}

// Score is a position's score from White's side, as analyze writes it:
// "+0.35" (an evaluation in pieces), "#3" or "#-3" (White, or Black, wins
// by force in 3 plies; "#0" and "#-0" when the backend did not say how far),
// WhiteWins, BlackWins or Draw when the game is over there, and "" when the
// backend gave no score.
type Score string

// Ply is one move of the game, analysed.
type Ply struct {
	Ply   int    `json:"ply"` // from 1
	Color string `json:"color"`
	Move  string `json:"move"`
	// Score is the position's after the move, and Depth its search's
	// (0 when the game was over there); Expected is White's expected
	// score there.
	Score    Score   `json:"score"`
	Depth    int     `json:"depth,omitempty"`
	Expected float64 `json:"expected"`
	// Best is the backend's move in the position before, with the score
	// it gave that position (BestDepth its search's depth), and Line the
	// line it expected, when the move played is another.
	Best      string   `json:"best"`
	BestScore Score    `json:"best_score"`
	BestDepth int      `json:"best_depth,omitempty"`
	Line      []string `json:"line,omitempty"`
	// Loss is what the move cost its player in expected score against
	// the best move (0 for the best move itself), and Class its class.
	Loss  float64 `json:"loss"`
	Class Class   `json:"class"`
}

// Player sums up one player's moves.
type Player struct {
	Name string `json:"name,omitempty"`
	// Classes counts the player's moves of each class; Classed is their
	// sum.
	Classes map[Class]int `json:"classes"`
	Classed int           `json:"classed"`
	// MeanLoss is the mean loss in expected score of the classed moves.
	MeanLoss float64 `json:"mean_loss"`
}

// position is what the search of one position gave, for its side to move.
type position struct {
	searched bool
	score    engine.Score
	depth    int
	best     core.Move
	line     []core.Move
}

// Analyse scores every position of rec's game with e, which it keeps to
// itself while it runs: e forgets what it knew first, then searches each
// position within cfg.Limit, keeping what it learns from one position to
// the next (the native searcher's table), so that each search starts from
// what the ones before found.
//
// It walks the game backwards, from the last position to the first: a
// position's search then finds in the table what the searches of the
// positions after it learnt of the lines that follow, down to the game's
// end, the way chess programs' "blundercheck" goes; forwards, each search
// would find only what was learnt of the positions before it. The engine is
// given the whole game once and takes one move back between searches.
func Analyse(ctx context.Context, e translate.Engine, rec records.Record, cfg Config) (*Analysis, error) {
	if cfg.Curve == (Curve{}) {
		cfg.Curve = Fitted()
	}
	g, err := rec.Replay()
	if err != nil {
		return nil, err
	}
	// A record is replayed with the Queen allowed on a first turn (some
	// sites allow it); a game that placed none there is searched by UHP's
	// rules, which forbid it, or the backend would be asked for, and
	// answer, first moves no UHP game may play.
	if !rec.QueenFirst {
		if gs, err := rec.UHP(); err == nil {
			if strict, err := gs.Load(); err == nil {
				g = strict
			}
		}
	}
	moves := g.History()
	n := len(moves)
	positions := make([]position, n+1)
	total := n + 1
	if g.Over() {
		total--
	}
	a := &Analysis{GameType: uhp.FormatGameType(rec.GameType), White: rec.White, Black: rec.Black, Result: rec.Result,
		Engine: e.Info().ID, Depth: cfg.Limit.Depth, Time: cfg.Limit.Time.Seconds(), Curve: cfg.Curve}
	end := g.Result()
	if err := e.Forget(ctx); err != nil {
		return nil, err
	}
	if err := e.NewGame(ctx, g); err != nil {
		return nil, err
	}
	done := 0
	for i := n; i >= 0; i-- {
		if !g.Over() {
			if positions[i], err = search(ctx, e, g, cfg.Limit); err != nil {
				return nil, fmt.Errorf("position after ply %d: %w", i, err)
			}
			// A search cut short answers its best move so far: once ctx
			// is done the rest would be all such answers.
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			done++
			if cfg.Progress != nil {
				cfg.Progress(done, total)
			}
		}
		// With the position after ply i+1 searched before, ply i+1 is
		// known.
		if cfg.Ply != nil && i < n {
			cfg.Ply(a.ply(g, i, moves[i], positions[i], positions[i+1], end))
		}
		if i > 0 {
			if err := e.Undo(ctx, 1); err != nil {
				return nil, err
			}
			g.Undo()
		}
	}
	a.fill(g, moves, positions, end)
	return a, nil
}

// search searches g, which e holds too, and keeps the last score the
// search reported.
func search(ctx context.Context, e translate.Engine, g *core.Game, limit engine.Limit) (position, error) {
	var last engine.Progress
	m, err := e.BestMove(ctx, limit, func(p engine.Progress) {
		if p.Score.Kind != engine.NoScore {
			last = p
		}
	})
	if err != nil {
		return position{}, err
	}
	line := last.PV
	if len(line) == 0 || line[0] != m {
		line = []core.Move{m}
	}
	return position{searched: true, score: last.Score, depth: last.Depth, best: m, line: line}, nil
}

// fill writes the analysis of the game g (at its start), whose moves are
// moves, whose positions were searched, and which ended in end.
func (a *Analysis) fill(g *core.Game, moves []core.Move, positions []position, end core.Result) {
	a.Start, _, _ = a.positionScore(0, positions[0], end)
	a.Players[core.White].Name, a.Players[core.Black].Name = a.White, a.Black
	for c := range a.Players {
		a.Players[c].Classes = map[Class]int{}
	}
	for i, m := range moves {
		ply := a.ply(g, i, m, positions[i], positions[i+1], end)
		if ply.Class != Unclassed {
			p := &a.Players[g.ToMove()]
			p.Classes[ply.Class]++
			p.Classed++
			p.MeanLoss += ply.Loss
		}
		a.Plies = append(a.Plies, ply)
		g.Play(m)
	}
	for c := range a.Players {
		if p := &a.Players[c]; p.Classed > 0 {
			p.MeanLoss /= float64(p.Classed)
		}
	}
}

// positionScore is the score from White's side of the position after i
// plies, searched as p (not searched: the game is over there, ended in
// end), White's expected score there, and whether it has one.
func (a *Analysis) positionScore(i int, p position, end core.Result) (Score, float64, bool) {
	if !p.searched {
		return Score(end.String()), map[core.Result]float64{core.WhiteWins: 1, core.Draw: 0.5}[end], true
	}
	toMove := core.Color(i & 1)
	e, ok := a.Curve.Expected(p.score)
	if toMove == core.Black {
		e = 1 - e
	}
	return whiteScore(p.score, toMove), e, ok
}

// ply analyses the move m played in g, the position after i plies,
// searched as before, which leads to the position searched as after.
func (a *Analysis) ply(g *core.Game, i int, m core.Move, before, after position, end core.Result) Ply {
	scoreBefore, whiteBefore, scoredBefore := a.positionScore(i, before, end)
	scoreAfter, whiteAfter, scoredAfter := a.positionScore(i+1, after, end)
	mover := g.ToMove()
	ply := Ply{Ply: i + 1, Color: mover.String(), Move: uhp.FormatMove(m, g), Score: scoreAfter, Depth: after.depth,
		Expected: whiteAfter, Best: uhp.FormatMove(before.best, g), BestScore: scoreBefore, BestDepth: before.depth}
	if before.best != m {
		ply.Line = moveStrings(g, before.line)
	}
	if scoredBefore && scoredAfter {
		ply.Class = Best
		if before.best != m {
			gain := whiteAfter - whiteBefore // White's expected score gained by the move
			if mover == core.Black {
				gain = -gain
			}
			ply.Loss = max(0, -gain)
			ply.Class = ClassOf(ply.Loss)
		}
	}
	return ply
}

// whiteScore writes a score of the side to move from White's side.
func whiteScore(s engine.Score, toMove core.Color) Score {
	if toMove == core.Black {
		switch s.Kind {
		case engine.Eval:
			s.Centi = -s.Centi
		case engine.Win:
			s.Kind = engine.Loss
		case engine.Loss:
			s.Kind = engine.Win
		}
	}
	switch s.Kind {
	case engine.Eval:
		return Score(strconv.FormatFloat(float64(s.Centi)/100, 'f', 2, 64)).signed()
	case engine.Win:
		return Score("#" + strconv.Itoa(s.Plies))
	case engine.Loss:
		return Score("#-" + strconv.Itoa(s.Plies))
	}
	return ""
}

// signed gives a positive evaluation its plus sign.
func (s Score) signed() Score {
	if !strings.HasPrefix(string(s), "-") {
		return "+" + s
	}
	return s
}

// moveStrings writes a line of moves from g as UHP MoveStrings, up to the
// first that is not legal where it comes (an engine's line may be stale).
func moveStrings(g *core.Game, line []core.Move) []string {
	c := g.Clone()
	var out []string
	for _, m := range line {
		if c.Over() || !c.Legal(m) {
			break
		}
		out = append(out, uhp.FormatMove(m, c))
		c.Play(m)
	}
	return out
}

// Record returns rec annotated with the analysis, for PGN: each move's
// comment (replacing any it had) its score from White's side and the depth
// of its search, its class and loss, and, where it is not the best move,
// the best move with its score and line; each inaccuracy, mistake and
// blunder its NAG; and an Annotator tag naming the backend.
func (a *Analysis) Record(rec records.Record) records.Record {
	rec.Comments = make([]string, len(a.Plies))
	rec.NAGs = make([][]int, len(a.Plies))
	for i, p := range a.Plies {
		rec.Comments[i] = p.Comment()
		if nag := p.Class.NAG(); nag != 0 {
			rec.NAGs[i] = []int{nag}
		}
	}
	limit := "depth " + strconv.Itoa(a.Depth)
	if a.Depth == 0 {
		limit = strconv.FormatFloat(a.Time, 'f', -1, 64) + " s a position"
	}
	tags := []records.Tag{{Name: "Annotator", Value: "hivebridge analyze: " + a.Engine + ", " + limit}}
	for _, t := range rec.Tags {
		if !strings.EqualFold(t.Name, "Annotator") {
			tags = append(tags, t)
		}
	}
	rec.Tags = tags
	return rec
}

// Comment is the ply's PGN comment: "+0.35@8 inaccuracy (-0.071); best
// wA1 -bQ (+0.62@8): wA1 -bQ, bQ wS1/, wS2 -wA1".
func (p Ply) Comment() string {
	var b strings.Builder
	b.WriteString(withDepth(p.Score, p.Depth))
	if p.Class != Unclassed {
		b.WriteString(" " + string(p.Class))
		if p.Class != Best {
			fmt.Fprintf(&b, " (-%.3f)", p.Loss)
		}
	}
	if len(p.Line) > 0 {
		fmt.Fprintf(&b, "; best %s (%s): %s", p.Best, withDepth(p.BestScore, p.BestDepth), strings.Join(p.Line, ", "))
	}
	return strings.TrimSpace(b.String())
}

// withDepth writes a score with the depth of its search, as match --pgn
// writes its comments ("+0.35@8").
func withDepth(s Score, depth int) string {
	if depth == 0 {
		return string(s)
	}
	return string(s) + "@" + strconv.Itoa(depth)
}

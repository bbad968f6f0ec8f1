package referee

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// This file is the referee of engine-vs-engine matches: hivebridge holds the
// canonical game, asks the engine of the side to move for its move through
// any backend, checks it, and tells both engines. It is the "three engine
// model" of the UHP remote-play proposal with hivebridge as the third.

// TimeControl is how long an engine may think over each move. Exactly one of
// its three forms is set: a fixed depth, a fixed time per move, or a clock
// per side with an increment (Fischer), from which each move gets an
// allocation and whose exhaustion loses the game on time.
type TimeControl struct {
	Depth    int           // depth=N: search N plies, however long it takes
	MoveTime time.Duration // movetime=S: S seconds per move
	Clock    time.Duration // time=S+inc: S seconds for the whole game...
	Inc      time.Duration // ...plus inc seconds added after each move
}

// ParseTimeControl reads "depth=N", "movetime=S" or "time=S+inc", with S and
// inc in seconds, possibly fractional ("time=60+0.5"; "time=60" has no
// increment).
func ParseTimeControl(s string) (TimeControl, error) {
	key, value, found := strings.Cut(strings.TrimSpace(s), "=")
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s; want depth=N, movetime=S or time=S+inc (seconds)", s, why)
	}
	if !found {
		return bad("no =")
	}
	switch strings.ToLower(key) {
	case "depth":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return bad("the depth must be a whole number of plies, at least 1")
		}
		return TimeControl{Depth: n}, nil
	case "movetime":
		d, err := parseSeconds(value)
		if err != nil || d <= 0 {
			return bad("the time per move must be a positive number of seconds")
		}
		return TimeControl{MoveTime: d}, nil
	case "time":
		base, inc, _ := strings.Cut(value, "+")
		b, err := parseSeconds(base)
		if err != nil || b <= 0 {
			return bad("the clock must be a positive number of seconds")
		}
		var i time.Duration
		if inc != "" {
			if i, err = parseSeconds(inc); err != nil || i < 0 {
				return bad("the increment must be a number of seconds, 0 or more")
			}
		}
		return TimeControl{Clock: b, Inc: i}, nil
	}
	return bad("unknown kind " + strconv.Quote(key))
}

func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != f || f > 1e6 {
		return 0, errors.New("not a number of seconds")
	}
	return time.Duration(f * float64(time.Second)).Round(time.Millisecond), nil
}

// String writes the time control as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	switch {
	case tc.Depth > 0:
		return "depth=" + strconv.Itoa(tc.Depth)
	case tc.MoveTime > 0:
		return "movetime=" + secs(tc.MoveTime)
	case tc.Clock > 0:
		if tc.Inc > 0 {
			return "time=" + secs(tc.Clock) + "+" + secs(tc.Inc)
		}
		return "time=" + secs(tc.Clock)
	}
	return "none"
}

// valid reports whether exactly one form is set.
func (tc TimeControl) valid() bool {
	n := 0
	for _, set := range []bool{tc.Depth > 0, tc.MoveTime > 0, tc.Clock > 0} {
		if set {
			n++
		}
	}
	return n == 1 && tc.Inc >= 0 && (tc.Inc == 0 || tc.Clock > 0)
}

// uhpProblem says why a UHP engine cannot be given tc fairly, or "" when
// it can. UHP tells an engine its time in whole seconds, at least one
// (translate.WholeSeconds): a fraction of a second per move would be told
// as more or less than the other engine gets, and a clock whose first
// share is under a second would have the engine told a second it does not
// have, move after move. A clock's later shares are told rounded down,
// and as one second once they fall under it (near the end of a clock
// without an increment); the clock is always charged the time the engine
// really took.
func (tc TimeControl) uhpProblem() string {
	switch {
	case tc.MoveTime > 0 && tc.MoveTime%time.Second != 0:
		return fmt.Sprintf("UHP tells an engine whole seconds only; use movetime=%d", max(int64(tc.MoveTime.Round(time.Second)/time.Second), 1))
	case tc.Clock > 0 && tc.allocation(tc.Clock) < time.Second:
		return fmt.Sprintf("its first move's share of the clock is %s, and UHP tells an engine whole seconds, at least one; use a clock of 30 s or more, or an increment of 1 s or more", tc.allocation(tc.Clock).Round(time.Millisecond))
	}
	return ""
}

// allocation is the time a move may take with remaining on the clock: the
// same share as a Hub GUI's sudden-death level gets (hub.Allocate), so that
// a match and a Hub session time an engine alike.
func (tc TimeControl) allocation(remaining time.Duration) time.Duration {
	return hub.Allocate(remaining, 0, tc.Inc)
}

// DefaultMaxPlies is the move cap when Config.MaxPlies is 0: 200 turns
// of each side. Two engines that shuffle pieces without repeating a
// position would otherwise play for ever.
const DefaultMaxPlies = 400

// Config describes a match between two engines, A and B. A (White) plays
// White in the even-numbered games and Black in the odd ones; B (Black) the
// other way round. Games 2k and 2k+1 start from the same opening, so each
// opening is played from both sides.
type Config struct {
	// White and Black are the backend specs of engines A and B, in the
	// syntax of Open. The names say who is White in game 0; the colours
	// alternate from game to game.
	White, Black string
	// WhiteOptions and BlackOptions are "Name=Value" engine options of A
	// and B, checked against what each declares.
	WhiteOptions, BlackOptions []string
	// Games is the number of games to play (at least 1).
	Games int
	// GameType is the game type of random openings and of the empty
	// opening; an openings file gives each opening its own.
	GameType core.GameType
	// TC is the time control of both engines; WhiteTC and BlackTC, when
	// not nil, replace it for A and B respectively (so A at depth 3 can
	// meet B at depth 1), whichever colour each plays.
	TC               TimeControl
	WhiteTC, BlackTC *TimeControl
	// Openings, if any, are the start positions, used in turn: opening k
	// starts games 2k and 2k+1, cycling when there are fewer openings than
	// game pairs. With none, RandomPlies random legal plies from Seed
	// start each pair (0: every game starts empty).
	Openings    []uhp.GameString
	RandomPlies int
	Seed        uint64
	// Concurrency is the number of games played at once, each with its
	// own engines (at least 1).
	Concurrency int
	// MaxPlies is the move cap: a game that reaches this many plies
	// (opening included) is adjudicated a draw. 0 means DefaultMaxPlies.
	MaxPlies int
	// SPRT, when not nil, stops the match as soon as the test accepts
	// one of its hypotheses.
	SPRT *SPRT
	// Disagreement is how a game ended by a rules disagreement is scored
	// (the zero value: a draw).
	Disagreement DisagreementPolicy
	// Engine sets up the backends: the log and the timeouts. Its
	// EngineOptions are ignored: WhiteOptions and BlackOptions apply.
	Engine translate.Config
	// OnMove, if set, is told of every move the engines play, from the
	// goroutines of the games, concurrently when Concurrency is above 1.
	OnMove func(MoveReport)
	// Archive, if set, keeps every game as it is played.
	Archive *archive.Keeper
}

// TCOf returns the time control of engine A (engineA true) or B.
func (cfg *Config) TCOf(engineA bool) TimeControl {
	switch {
	case engineA && cfg.WhiteTC != nil:
		return *cfg.WhiteTC
	case !engineA && cfg.BlackTC != nil:
		return *cfg.BlackTC
	}
	return cfg.TC
}

// Ending is the kind of a game's end, so that the ways games ended are
// counted apart: a forfeit is an engine's failure, a rules disagreement is
// not.
type Ending uint8

// The kinds of ending.
const (
	ByRules        Ending = iota // a Queen surrounded, or threefold repetition
	ByMoveCap                    // adjudicated a draw at the move cap
	ByForfeit                    // an engine failed: it crashed, hung, erred, moved illegally or ran out of time
	ByDisagreement               // an engine's verdict of the position differed from the referee's
	// ByRefusal: an engine answered a command of hivebridge's with err
	// or invalidmove (a translate.RefusedError). hivebridge may have sent
	// what the engine cannot read, so the game is void, not the engine's
	// loss, and the match stops there.
	ByRefusal
)

// GameRecord is one finished game of a match.
type GameRecord struct {
	Index      int         // 0-based number of the game in the match
	AWhite     bool        // engine A played White
	Opening    string      // the GameString of the start position
	GameString string      // the whole game, as uhp.Describe writes it
	Result     core.Result // WhiteWins, BlackWins or Draw; InProgress for a void game (see Void)
	Ending     Ending
	Reason     string        // how it ended: "white queen surrounded", "black forfeits on bestmove: ..."
	Disagree   *Disagreement // the verdicts, when Ending is ByDisagreement
	Plies      int           // moves played, opening included
	Elapsed    time.Duration
	// Evals are, for each move the engines played (the opening's are not
	// theirs), what the engine that played it said of it when it chose
	// it: the depth and score of its last report, if it reported the
	// move it played; a zero Eval where it said nothing.
	Evals []Eval
}

// Eval is an engine's last word on the move it played: the depth it
// searched and the score, from its own side's view.
type Eval struct {
	Depth int
	Score engine.Score
}

// MoveReport tells, as a game goes on, how the engine that just moved
// thought about its move.
type MoveReport struct {
	Game int  // the game's index in the match
	A    bool // engine A moved
	Ply  int  // the ply of the move, from the start of the game
	Eval Eval
}

// Void reports whether the game has no result: a rules disagreement under
// DisagreementVoid, or a refusal of hivebridge's command. It counts in no
// score.
func (r GameRecord) Void() bool { return r.Result == core.InProgress }

// AScore is engine A's points from the game: 1, 0.5 or 0 (0 for a void
// game, which Stats leave out).
func (r GameRecord) AScore() float64 {
	switch {
	case r.Result == core.Draw:
		return 0.5
	case (r.Result == core.WhiteWins) == r.AWhite:
		return 1
	}
	return 0
}

// Progress is reported after each finished game, from one goroutine at a
// time, in the order the games finish.
type Progress struct {
	Game     GameRecord // the game just finished
	Done     int        // games finished so far
	Total    int        // games in the match
	InFlight int        // games being played now
	Stats    Stats      // engine A's results so far
	SPRT     *SPRTState // the test's state, when there is one
}

// Result is the outcome of a match.
type Result struct {
	Games   []GameRecord // the finished games, in game order
	Stats   Stats        // engine A's results
	SPRT    *SPRTState   // the test's state at the end, when there is one
	Stopped string       // why the match ended before all its games ("" when it did not)
	Elapsed time.Duration
}

// openings returns the start position of each game pair.
func (cfg *Config) openings() ([]*core.Game, error) {
	pairs := (cfg.Games + 1) / 2
	out := make([]*core.Game, pairs)
	if len(cfg.Openings) > 0 {
		loaded := make([]*core.Game, len(cfg.Openings))
		for i, gs := range cfg.Openings {
			g, err := gs.Load(core.RepetitionDraw(true))
			if err != nil {
				return nil, fmt.Errorf("opening %d %q: %w", i+1, gs, err)
			}
			if g.Over() {
				return nil, fmt.Errorf("opening %d %q: the game is already over", i+1, gs)
			}
			loaded[i] = g
		}
		for k := range out {
			out[k] = loaded[k%len(loaded)]
		}
		return out, nil
	}
	for k := range out {
		g, err := RandomOpening(cfg.GameType, cfg.RandomPlies, cfg.Seed, uint64(k))
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

// RandomOpening plays plies random legal moves from the start of a game of
// type t. Opening k of seed s is the same on every machine and run, whatever
// the other openings and the concurrency: it draws from its own PCG stream
// (s, k). An opening that would end the game is drawn again from the same
// stream.
func RandomOpening(t core.GameType, plies int, seed, k uint64) (*core.Game, error) {
	rng := rand.New(rand.NewPCG(seed, k))
	var l core.MoveList
	for range 100 {
		g := core.NewGame(t, core.RepetitionDraw(true))
		for range plies {
			g.GenerateMoves(&l)
			if l.Len() == 0 {
				break
			}
			g.Play(l.At(rng.IntN(l.Len())))
		}
		if !g.Over() {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no random opening of %d plies that leaves the game going", plies)
}

// ReadOpenings reads an openings file: one GameString a line; blank lines
// and lines starting with # are skipped, and so is anything from a tab on,
// so that the games file a match writes (--out) serves as openings too.
// Each opening is checked against the rules.
func ReadOpenings(r io.Reader) ([]uhp.GameString, error) {
	var out []uhp.GameString
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "\t")
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		gs, err := uhp.ParseGameString(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		g, err := gs.Load()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if g.Over() {
			return nil, fmt.Errorf("line %d: the game is already over", n)
		}
		out = append(out, gs)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no opening in the file")
	}
	return out, nil
}

// check reports a configuration that cannot run.
func (cfg *Config) check() error {
	switch {
	case cfg.Games < 1:
		return fmt.Errorf("the number of games must be at least 1, not %d", cfg.Games)
	case cfg.Concurrency < 1:
		return fmt.Errorf("the concurrency must be at least 1, not %d", cfg.Concurrency)
	case cfg.RandomPlies < 0:
		return fmt.Errorf("the number of random plies must be 0 or more, not %d", cfg.RandomPlies)
	case cfg.MaxPlies < 0:
		return fmt.Errorf("the move cap must be 0 (the default) or more, not %d", cfg.MaxPlies)
	case len(cfg.Openings) > 0 && cfg.RandomPlies > 0:
		return errors.New("openings and random plies exclude each other")
	}
	for _, side := range []struct {
		name, spec string
		tc         TimeControl
	}{{"A", cfg.White, cfg.TCOf(true)}, {"B", cfg.Black, cfg.TCOf(false)}} {
		if !side.tc.valid() {
			return fmt.Errorf("engine %s has no valid time control (%s)", side.name, side.tc)
		}
		if sp, err := translate.ParseSpec(side.spec); err == nil && sp.Kind == "uhp" {
			if why := side.tc.uhpProblem(); why != "" {
				return fmt.Errorf("engine %s (%s) cannot be given %s fairly: %s", side.name, side.spec, side.tc, why)
			}
		}
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.check(); err != nil {
			return err
		}
	}
	return nil
}

// preflight opens each engine once before the match, so that a bad spec, a
// bad option or a game type an engine does not play stops the match at once
// with one clear error rather than forfeiting every game.
func (cfg *Config) preflight(ctx context.Context, starts []*core.Game) error {
	for _, side := range []struct {
		name, spec string
		options    []string
	}{{"A", cfg.White, cfg.WhiteOptions}, {"B", cfg.Black, cfg.BlackOptions}} {
		e, err := cfg.open(ctx, side.spec, side.options, side.name)
		if err != nil {
			return fmt.Errorf("engine %s: %w", side.name, err)
		}
		expansions := e.Info().Expansions
		id := e.Info().ID
		e.Close()
		for _, g := range starts {
			if g.Type()&^expansions != 0 {
				return fmt.Errorf("engine %s (%s) does not play %s games", side.name, id, uhp.FormatGameType(g.Type()))
			}
		}
	}
	return nil
}

// open starts one engine with its options.
func (cfg *Config) open(ctx context.Context, spec string, options []string, label string) (translate.Engine, error) {
	c := cfg.Engine
	c.EngineOptions = options
	c.Log = c.Log.With().Str("match_engine", label).Logger()
	return translate.Open(ctx, spec, c)
}

// outcome is what a worker hands the collector: a finished game, or none
// when the match was stopped while it was being played.
type outcome struct {
	rec      GameRecord
	finished bool
}

// Run plays the match and returns every finished game with engine A's
// statistics. progress, if not nil, is called after each game. The match
// stops early when ctx ends (the games in flight are abandoned and ctx's
// error returned with what was finished) or when the SPRT accepts a
// hypothesis. Every engine it starts is closed before it returns.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (Result, error) {
	start := time.Now()
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	cfg.Engine = cfg.Engine.WithDefaults()
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	starts, err := cfg.openings()
	if err != nil {
		return Result{}, err
	}
	if err := cfg.preflight(ctx, starts); err != nil {
		return Result{}, err
	}

	matchCtx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan int)
	results := make(chan outcome)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the feeder: one game number per free worker
		defer wg.Done()
		defer close(jobs)
		for i := range cfg.Games {
			select {
			case jobs <- i:
			case <-matchCtx.Done():
				return
			}
		}
	}()
	workers := min(cfg.Concurrency, cfg.Games)
	var running atomic.Int32 // games being played, for Progress only
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				running.Add(1)
				rec, finished := cfg.playGame(matchCtx, i, starts[i/2])
				running.Add(-1)
				results <- outcome{rec, finished}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var res Result
	var sprt *SPRTState
	if cfg.SPRT != nil {
		sprt = &SPRTState{Test: *cfg.SPRT}
	}
	for o := range results { // read to the end, so no worker is left blocked
		if !o.finished || res.Stopped != "" {
			continue
		}
		res.Games = append(res.Games, o.rec)
		res.Stats.Add(o.rec)
		if o.rec.Ending == ByRefusal {
			res.Stopped = fmt.Sprintf("game %d void, not scored: %s", o.rec.Index, o.rec.Reason)
			stop()
		}
		if sprt != nil && res.Stopped == "" {
			sprt.Update(res.Stats.Total)
			if sprt.Verdict != SPRTContinue {
				res.Stopped = "SPRT: " + sprt.Verdict.String()
				stop()
			}
		}
		if progress != nil {
			p := Progress{Game: o.rec, Done: len(res.Games), Total: cfg.Games, InFlight: int(running.Load()), Stats: res.Stats}
			if sprt != nil {
				s := *sprt
				p.SPRT = &s
			}
			progress(p)
		}
	}
	sort.Slice(res.Games, func(i, j int) bool { return res.Games[i].Index < res.Games[j].Index })
	res.SPRT = sprt
	res.Elapsed = time.Since(start)
	if err := ctx.Err(); err != nil && res.Stopped == "" {
		res.Stopped = "interrupted"
		return res, err
	}
	return res, nil
}

// forfeit is an engine's failure that loses it the game, unless it is a
// refusal of hivebridge's command, which voids the game.
type forfeit struct {
	color core.Color
	why   string
	void  bool
}

// failure is the forfeit of the engine of colour c that failed with err
// on what, a refusal of hivebridge's command voiding the game.
func failure(c core.Color, what string, err error) *forfeit {
	if errors.As(err, new(*translate.RefusedError)) {
		return &forfeit{color: c, why: fmt.Sprintf("void: %s refused hivebridge's command on %s, which may be hivebridge's doing as much as the engine's: %v", colourName(c), what, err), void: true}
	}
	return &forfeit{color: c, why: fmt.Sprintf("%s forfeits on %s: %v", colourName(c), what, err)}
}

// playGame plays game i of the match from start. finished is false when the
// match was stopped before the game ended: its record means nothing.
func (cfg *Config) playGame(ctx context.Context, i int, start *core.Game) (rec GameRecord, finished bool) {
	began := time.Now()
	aWhite := i%2 == 0
	g := start.Clone()
	g.SetRepetitionDraw(true)
	rec = GameRecord{Index: i, AWhite: aWhite, Opening: gameString(start)}
	var kept gameArchive
	end := func(result core.Result, ending Ending, reason string) (GameRecord, bool) {
		if ctx.Err() != nil {
			kept.ended(g, core.InProgress, ByRules, "")
			return rec, false // an engine failing because the match stopped is no forfeit
		}
		kept.ended(g, result, ending, reason)
		// The GameString's state is the referee's verdict of the board
		// as played: InProgress after a forfeit, an adjudication or most
		// disagreements; Result is what the game scores.
		rec.GameString = gameString(g)
		rec.Result, rec.Ending, rec.Reason, rec.Plies, rec.Elapsed = result, ending, reason, g.MovesPlayed(), time.Since(began)
		return rec, true
	}
	lose := func(f forfeit) (GameRecord, bool) {
		if f.void {
			return end(core.InProgress, ByRefusal, f.why)
		}
		winner := core.WhiteWins
		if f.color == core.White {
			winner = core.BlackWins
		}
		return end(winner, ByForfeit, f.why)
	}
	// hear hears the engines after action ("newgame" or "play <move>")
	// and ends the game (ended true) if a verdict differs from the
	// referee's, or an engine cannot be brought in step, a forfeit.
	hear := func(engines [2]translate.Engine, action string) (_ GameRecord, finished, ended bool) {
		d, f := hearVerdicts(ctx, engines, g, action)
		switch {
		case f != nil:
			rec, finished := lose(*f)
			return rec, finished, true
		case d != nil:
			rec.Disagree = d
			rec, finished := end(d.Scored(cfg.Disagreement), ByDisagreement, d.reason(cfg.Disagreement))
			return rec, finished, true
		}
		return rec, false, false
	}

	// engines[c] is the engine playing colour c; tcs[c] its time control.
	var engines [2]translate.Engine
	var tcs [2]TimeControl
	sides := [2]struct {
		spec    string
		options []string
		label   string
		a       bool
	}{{cfg.White, cfg.WhiteOptions, "A", true}, {cfg.Black, cfg.BlackOptions, "B", false}}
	if !aWhite {
		sides[0], sides[1] = sides[1], sides[0]
	}
	defer func() {
		for _, e := range engines {
			if e != nil {
				e.Close()
			}
		}
	}()
	for c := core.White; c <= core.Black; c++ {
		s := sides[c]
		e, err := cfg.open(ctx, s.spec, s.options, fmt.Sprintf("%s game %d", s.label, i))
		if err != nil {
			return lose(*failure(c, "start", err))
		}
		engines[c], tcs[c] = e, cfg.TCOf(s.a)
	}
	for c, e := range engines {
		if err := e.NewGame(ctx, g); err != nil {
			return lose(*failure(core.Color(c), "newgame", err))
		}
	}
	kept = cfg.beginArchive(g, engines, [2]string{sides[0].spec, sides[1].spec})
	if rec, finished, ended := hear(engines, "newgame"); ended {
		return rec, finished
	}
	clocks := [2]time.Duration{tcs[0].Clock, tcs[1].Clock}
	for !g.Over() {
		if g.MovesPlayed() >= cfg.MaxPlies {
			return end(core.Draw, ByMoveCap, fmt.Sprintf("move cap (%d plies)", cfg.MaxPlies))
		}
		me := g.ToMove()
		m, eval, f := cfg.askMove(ctx, engines[me], tcs[me], &clocks[me], me, g)
		if f != nil {
			return lose(*f)
		}
		rec.Evals = append(rec.Evals, eval)
		if cfg.OnMove != nil {
			cfg.OnMove(MoveReport{Game: i, A: sides[me].a, Ply: g.MovesPlayed() + 1, Eval: eval})
		}
		text := uhp.FormatMove(m, g)
		// The engine checked the move already; the referee's game is
		// the canonical one, so it checks again.
		if err := g.PlayChecked(m); err != nil {
			return lose(forfeit{color: me, why: fmt.Sprintf("%s forfeits: illegal move %s: %v", colourName(me), text, err)})
		}
		kept.played(g, me)
		for c, e := range engines {
			if err := e.Play(ctx, m); err != nil {
				return lose(*failure(core.Color(c), "play "+text, err))
			}
		}
		// Before the next engine is asked for a move, and before the
		// referee's own verdict ends the game: both engines must see it
		// as the referee does.
		if rec, finished, ended := hear(engines, "play "+text); ended {
			return rec, finished
		}
	}
	return end(g.Result(), ByRules, endReason(g))
}

// askMove asks the engine of colour me for its move within its time
// control, charging its clock if it has one, and returns with the move what
// the engine last said of it.
func (cfg *Config) askMove(ctx context.Context, e translate.Engine, tc TimeControl, clock *time.Duration, me core.Color, g *core.Game) (core.Move, Eval, *forfeit) {
	limit := engine.Limit{Depth: tc.Depth, Time: tc.MoveTime}
	moveCtx := ctx
	if tc.Clock > 0 {
		limit = engine.Limit{Time: tc.allocation(*clock)}
		// The engine has lost once its clock is out: no point waiting.
		var cancel context.CancelFunc
		moveCtx, cancel = context.WithTimeout(ctx, *clock)
		defer cancel()
	}
	asked := time.Now()
	var last engine.Progress
	m, err := e.BestMove(moveCtx, limit, func(p engine.Progress) { last = p })
	took := time.Since(asked)
	if tc.Clock > 0 {
		if took > *clock {
			return core.NoMove, Eval{}, &forfeit{color: me, why: fmt.Sprintf("%s loses on time: took %s with %s on its clock", colourName(me), took.Round(time.Millisecond), clock.Round(time.Millisecond))}
		}
		*clock += tc.Inc - took
	}
	if err != nil {
		return core.NoMove, Eval{}, failure(me, "bestmove ("+describeLimit(limit)+")", err)
	}
	var eval Eval
	if last.Move == m {
		eval = Eval{Depth: last.Depth, Score: last.Score}
	}
	return m, eval, nil
}

func describeLimit(l engine.Limit) string {
	if l.Time > 0 {
		return "time " + l.Time.String()
	}
	return "depth " + strconv.Itoa(l.Depth)
}

// endReason says how a game that is over ended by the rules.
func endReason(g *core.Game) string {
	surrounded := func(c core.Color) bool {
		cell := g.Position(core.Piece(c) * core.PiecesPerColor)
		return cell != core.NoCell && g.Neighbors(cell) == 0x3F
	}
	w, b := surrounded(core.White), surrounded(core.Black)
	switch {
	case w && b:
		return "both queens surrounded"
	case w:
		return "white queen surrounded"
	case b:
		return "black queen surrounded"
	case g.Result() == core.Draw:
		return "threefold repetition"
	}
	return "game over"
}

// side names a colour in a reason: "white" or "black".
func colourName(c core.Color) string { return strings.ToLower(c.String()) }

// gameString writes the GameString of a game of the match. Its games start
// from openings, which are GameStrings or random moves from the empty
// board, so every one has a GameString; were one set up from a position,
// the record would say why it has none (uhp.ErrSetUp) rather than lie.
func gameString(g *core.Game) string {
	gs, err := uhp.Describe(g)
	if err != nil {
		return err.Error()
	}
	return gs.String()
}

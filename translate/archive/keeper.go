package archive

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// KeeperConfig sets how a Keeper writes.
type KeeperConfig struct {
	Log zerolog.Logger
	// Attempts is how many times a write is tried before the keeper gives
	// up on it (3 when zero), waiting Backoff, then twice that, between
	// tries (20ms when zero); each try may take Timeout (2s when zero).
	Attempts int
	Backoff  time.Duration
	Timeout  time.Duration
	// Pause is how long, after a write failed, the keeper writes nothing
	// (1s when zero): while the database is down, sessions are not slowed
	// by tries bound to fail. The first write after it catches up.
	Pause time.Duration
	// Backlog is how many ended games the keeper holds, while the
	// database is down, to write once it is back (10000 when zero); a
	// game past it, or still held when the keeper closes, is lost.
	Backlog int
	// OnLost is told of games (never started in the archive) and moves a
	// game ended without archiving.
	OnLost func(games, moves int)
	// OnRefused is told of each write the database refused for what it
	// holds, with its cause (one of RefusalCauses): the keeper gives that
	// game up, and counts what it lacks in OnLost when the game ends.
	OnRefused func(cause string)
	// OnWait is told how long a session waited in Settle for a write that
	// had not ended yet: what the archive adds to a session's answers.
	OnWait func(time.Duration)
	// OnStart is told the id the archive gave each game once its start is
	// written: a referee's worker reports it with the game's result.
	OnStart func(id int64)
	// Journal, when not empty, is the directory of the end journal
	// (journal.go): a session whose next command finds its last game's
	// end not committed yet appends the game there and goes on, where it
	// would wait for the commit. Opening the keeper replays the journals
	// that processes killed left there. OnJournaled is told of each game
	// so kept.
	Journal     string
	OnJournaled func()
}

func (c KeeperConfig) withDefaults() KeeperConfig {
	if c.Attempts <= 0 {
		c.Attempts = 3
	}
	if c.Backoff <= 0 {
		c.Backoff = 20 * time.Millisecond
	}
	if c.Timeout <= 0 {
		c.Timeout = 2 * time.Second
	}
	if c.Pause <= 0 {
		c.Pause = time.Second
	}
	if c.Backlog <= 0 {
		c.Backlog = 10000
	}
	if c.OnLost == nil {
		c.OnLost = func(int, int) {}
	}
	if c.OnWait == nil {
		c.OnWait = func(time.Duration) {}
	}
	if c.OnRefused == nil {
		c.OnRefused = func(string) {}
	}
	if c.OnStart == nil {
		c.OnStart = func(int64) {}
	}
	if c.OnJournaled == nil {
		c.OnJournaled = func() {}
	}
	return c
}

// Keeper writes the games of a process to a store as they are played. A
// change to a game is written in the background, so that nobody waits for
// the database to be told of a move; the game's next change, and the
// session's next command (Recorder.Settle), wait for that write to end,
// so that each game has at most one write under way: its last change. A
// write that fails is tried again a bounded number of times, then left for
// the game's next write to catch up; a game that ends while the database
// is down is held and written once it is back. A write the database
// refuses for what it holds (RefusalCause) is not an outage: it would fail
// again at every try, so the keeper gives up that game at once, without
// pausing or holding up the others. What the keeper gives up on is logged
// and counted. No failure of the database reaches the game.
type Keeper struct {
	store Store
	cfg   KeeperConfig

	mu        sync.Mutex
	downUntil time.Time   // no writes are tried before then
	lastErr   error       // the last failure, until a write succeeds
	backlog   []*Recorder // ended games the archive lacks

	journal *endJournal    // nil without one
	writing sync.WaitGroup // the recorders' writes under way
	stop    chan struct{}  // closed by Close
	done    chan struct{}  // closed when the retrying goroutine ends
}

// NewKeeper returns a keeper writing to store; Close it before the store.
// With a journal (KeeperConfig.Journal), it first writes the games that
// the journals of processes no longer running hold.
func NewKeeper(store Store, cfg KeeperConfig) *Keeper {
	k := &Keeper{store: store, cfg: cfg.withDefaults(), stop: make(chan struct{}), done: make(chan struct{})}
	if k.cfg.Journal != "" {
		k.openJournal()
	}
	go k.retry()
	return k
}

// openJournal replays the journals of the processes gone and starts this
// one's; a keeper without one (a store that cannot replay it, a directory
// it cannot write) has its sessions wait for their ends' commits.
func (k *Keeper) openJournal() {
	log := k.cfg.Log.With().Str("journal", k.cfg.Journal).Logger()
	ek, ok := k.store.(endKeeper)
	if !ok {
		log.Warn().Str("archive", k.store.Name()).Msg("this archive keeps no end journal")
		return
	}
	written, skipped, err := replayJournals(context.Background(), k.cfg.Journal, ek, k.cfg.Timeout)
	switch {
	case err != nil:
		log.Error().Err(err).Int("games", written).Msg("replaying the end journal left by a stopped process; the rest is tried at the next start")
	case written > 0 || skipped > 0:
		log.Info().Int("games", written).Int("lines_skipped", skipped).Msg("ended games kept in the journal of a stopped process written to the archive")
	}
	j, err := openEndJournal(k.cfg.Journal)
	if err != nil {
		log.Error().Err(err).Msg("opening the end journal; sessions wait for their games' ends to be committed")
		return
	}
	k.journal = j
}

// retry writes the backlog whenever the pause after a failure is over.
func (k *Keeper) retry() {
	defer close(k.done)
	t := time.NewTicker(k.cfg.Pause)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
			k.writeBacklog()
		}
	}
}

// backlogWriters bounds the held games written at once: enough for a
// writer that gathers the writes nobody waits for (the SQL stores' group
// commit) to take hundreds in one transaction, where one game at a time
// would have each wait out the gathering window alone (100 games, 30 s).
const backlogWriters = 256

// writeBacklog writes what it can of the backlog, and keeps the rest: a
// game leaves the backlog only once written, so that Pending never
// misses one being written.
func (k *Keeper) writeBacklog() {
	k.mu.Lock()
	held := append([]*Recorder(nil), k.backlog...)
	k.mu.Unlock()
	var (
		mu      sync.Mutex
		written = map[*Recorder]bool{}
		wg      sync.WaitGroup
		slots   = make(chan struct{}, backlogWriters)
	)
	for _, r := range held {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if r.flushEnd() {
				mu.Lock()
				written[r] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(written) == 0 {
		return
	}
	k.mu.Lock()
	left := k.backlog[:0]
	for _, r := range k.backlog {
		if !written[r] {
			left = append(left, r)
		}
	}
	k.backlog = left
	k.mu.Unlock()
}

// Pending returns how many ended games wait for the database.
func (k *Keeper) Pending() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.backlog)
}

// Close waits for the writes under way, tries the backlog once more and
// reports what it still lacks as lost (not the games the end journal
// keeps for the next start). The recorders of games in progress
// must have ended first.
func (k *Keeper) Close() {
	if h, ok := k.store.(hurrier); ok {
		// Nobody is left to settle the last writes: the writer need
		// not gather others for them, nor for the backlog's.
		defer h.hurry()()
	}
	k.writing.Wait()
	close(k.stop)
	<-k.done
	k.mu.Lock()
	k.downUntil = time.Time{}
	k.mu.Unlock()
	k.writeBacklog()
	k.mu.Lock()
	left := k.backlog
	k.backlog = nil
	k.mu.Unlock()
	for _, r := range left {
		r.lostUnlessJournaled()
	}
	if k.journal != nil {
		if n := k.journal.close(); n > 0 {
			k.cfg.Log.Warn().Int("games", n).Str("journal", k.cfg.Journal).Msg("ended games left in the end journal, to be written at the next start")
		}
	}
}

// Store returns the keeper's store.
func (k *Keeper) Store() Store { return k.store }

// paused reports whether writes are being skipped after a failure.
func (k *Keeper) paused() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return time.Now().Before(k.downUntil)
}

func (k *Keeper) failed(err error) {
	k.mu.Lock()
	first := k.lastErr == nil
	k.downUntil, k.lastErr = time.Now().Add(k.cfg.Pause), err
	k.mu.Unlock()
	if first {
		k.cfg.Log.Error().Err(err).Str("archive", k.store.Name()).Msg("archive writes failing; games play on unarchived")
	}
}

func (k *Keeper) succeeded() {
	k.mu.Lock()
	was := k.lastErr
	k.downUntil, k.lastErr = time.Time{}, nil
	k.mu.Unlock()
	if was != nil {
		k.cfg.Log.Info().Str("archive", k.store.Name()).Msg("archive writes succeed again")
	}
}

// Health returns nil when the archive is taking writes, or why not: from
// a write that failed until one succeeds. A database that answers a ping
// may still refuse writes (its disk full), so only a write clears it.
func (k *Keeper) Health(ctx context.Context) error {
	k.mu.Lock()
	err := k.lastErr
	k.mu.Unlock()
	if err == nil {
		return nil
	}
	return fmt.Errorf("archive %s: %w", k.store.Name(), err)
}

// errPaused is the failure of a write not tried, in the pause after a
// failure.
var errPaused = errors.New("archive writes paused after a failure")

// try runs write up to the bound, and returns nil when it succeeded; the
// write may wait patience for others to share its transaction (see
// patiently). A write the database refused for what it holds is tried
// once: its error comes back with its cause, and the keeper goes on as if
// it had not been tried (no pause, its health unchanged).
func (k *Keeper) try(patience time.Duration, write func(ctx context.Context) error) (cause string, err error) {
	if k.paused() {
		return "", errPaused
	}
	wait := k.cfg.Backoff
	for i := range k.cfg.Attempts {
		if i > 0 {
			time.Sleep(wait)
			wait *= 2
		}
		ctx, cancel := context.WithTimeout(patiently(context.Background(), patience), k.cfg.Timeout)
		err = write(ctx)
		cancel()
		if err == nil {
			k.succeeded()
			return "", nil
		}
		if cause := RefusalCause(err); cause != "" {
			return cause, err
		}
	}
	k.failed(err)
	return "", err
}

// Players says who plays each side of a game. An empty name is decided
// by the moves: the one player who played all that side's moves, or
// Viewer when there are none or several (a viewer who asked the backend
// for some moves and chose others).
type Players struct{ White, Black string }

// Recorder keeps one game. Its methods are called from the one goroutine
// that plays the game, each after the game has changed and before the
// change is answered. Each starts the change's write and returns without
// waiting for it, once the game's previous write has ended (Ended does not
// wait even for that: its write follows the one under way): a game has at
// most one write under way, and a process killed outright loses at most
// that one change of each game (and, from the answer that ended a game,
// its end). Settle waits for them, so that what a session answers after a
// move proves the move kept.
type Recorder struct {
	k        *Keeper
	end      *End // once ended
	start    Start
	players  Players
	id       int64 // 0 until the archive holds the game
	moves    []Move
	archived int // moves[:archived] are in the archive as they are now
	// gameString is the game's GameString as of moves[:stringAt]: a
	// move played adds to it only when a write needs it (gameStringNow),
	// since most writes are a move's alone (Change.Append), which takes
	// none, and making one at every move was most of what the archive
	// allocated for a session.
	gameString string
	stringAt   int
	stale      bool // the game's row differs from the archive's
	// synced says the archive holds moves[:archived] and no other (the
	// last write succeeded, and nothing was taken back since): the next
	// write may only add moves (Change.Append).
	synced bool
	// named are the players as the archive holds them; row and rowPlies
	// the GameString its row holds and the plies it holds.
	named    Players
	row      string
	rowPlies int
	over     bool
	// patience is how long the game's writes may wait for others to
	// share their transaction (see Played); 0 for the writer's
	// gathering window.
	patience time.Duration
	// held says the last move's write waits for the game's end (see
	// PlayedLast).
	held bool
	// refused is the write the database refused for what it held, once
	// one was: the keeper writes nothing more of the game.
	refused error
	// writing is closed when the game's write under way ends (committed,
	// or given up); nil when none is. The writing goroutine (or the
	// store's writer, for a write offered) owns the fields above until
	// then.
	writing chan struct{}
	// offered is the write under way when it was handed to the store's
	// writer (offer); nil otherwise.
	offered *offered
	// ended is the game as it ended, for the keeper's journal (see
	// Settle); nil without a journal, and once journaled. behind is then
	// the end's write, which nobody waited for; ticket is the game's line
	// in the journal, done once endKept says the end is written.
	ended   *endedGame
	behind  chan struct{}
	ticket  atomic.Pointer[journalTicket]
	endKept atomic.Bool
}

// Begin starts keeping a game: its source, its type, the GameString it
// starts from and the moves already in it (all played by by).
func (k *Keeper) Begin(source, gameType, gameString string, moves []string, by string, players Players) *Recorder {
	now := time.Now()
	// The key begins with the time, so that the games started together
	// sit together in its index, rather than one page of it each.
	key := make([]byte, 16)
	binary.BigEndian.PutUint64(key, uint64(now.UnixNano()))
	rand.Read(key[8:])
	r := &Recorder{k: k, players: players, gameString: gameString, stringAt: len(moves), stale: true,
		start: Start{Key: hex.EncodeToString(key), Source: source, GameType: gameType, Started: now}}
	for i, text := range moves {
		r.moves = append(r.moves, Move{Ply: i, Text: text, By: by, At: now})
	}
	r.write(nil, false)
	return r
}

// Settle waits until the game's last change is in the archive, or its
// write has been given up (bounded by the keeper's tries). An ended game
// whose end is not committed yet is appended to the keeper's journal
// instead, when it has one, and not waited for: it is as safe there.
func (r *Recorder) Settle() {
	if r.held {
		r.held = false
		r.write(nil, false)
	}
	if r.writing == nil {
		return
	}
	select {
	case <-r.writing:
	default:
		if r.journalEnd() {
			r.behind, r.writing, r.offered = r.writing, nil, nil
			return
		}
		start := time.Now()
		if h, ok := r.k.store.(hurrier); ok {
			defer h.hurry()()
		}
		awaitWrite(r.writing, r.offered, r.k.cfg.Timeout)
		r.k.cfg.OnWait(time.Since(start))
	}
	r.writing, r.offered = nil, nil
}

// awaitWrite waits for a game's write under way to end (done). One
// handed to the store's writer (o, when not nil) is given up once it has
// taken longer than a try may (timeout), and the keeper's usual tries
// follow: a database that holds a write up keeps a session no longer than
// they do. The timer is made only when somebody waits, not for every
// write.
func awaitWrite(done <-chan struct{}, o *offered, timeout time.Duration) {
	if o != nil {
		t := time.NewTimer(time.Until(o.at.Add(timeout)))
		defer t.Stop()
		select {
		case <-done:
			return
		case <-t.C:
			o.giveUp()
		}
	}
	<-done
}

// A hurrier is a store whose writer may hold a write back to gather
// others with it: told that a session waits, it commits what it holds.
type hurrier interface {
	hurry() (release func())
}

// write starts bringing the archive up to date in the background, with
// the game's end when ending; the caller has settled, or before waits on
// the writing goroutine for the write under way to end (and then changes
// the fields that goroutine owned).
func (r *Recorder) write(before func(), ending bool) {
	if before == nil && !ending && r.offer() {
		return
	}
	done := make(chan struct{})
	r.writing, r.offered = done, nil
	r.k.writing.Add(1)
	go func() {
		defer r.k.writing.Done()
		defer close(done)
		if before != nil {
			before()
		}
		var end *End
		if ending {
			end = r.end
		}
		if end == nil {
			r.flush(nil)
			return
		}
		if r.flushEnd() {
			return
		}
		// An ended game the archive cannot take now is held in the
		// keeper's backlog, or reported lost when that is full.
		r.k.mu.Lock()
		held := len(r.k.backlog) < r.k.cfg.Backlog
		if held {
			r.k.backlog = append(r.k.backlog, r)
		}
		r.k.mu.Unlock()
		if !held {
			r.lostUnlessJournaled()
		}
	}()
}

// An offerer is a store whose writer takes a game's update without a
// goroutine of the caller's waiting for its commit: finish is told how it
// went, in the writer's goroutine. It reports whether the writer took it.
type offerer interface {
	offerUpdate(id int64, c Change, patience time.Duration, finish func(error)) bool
}

// offer writes a change to a game the archive holds, as flush would, by
// handing it to the store's writer (offerer), and reports whether it did;
// when it did not, it has changed nothing, and the write goes the usual
// way. The writes a game plays are most of a busy daemon's, and a
// goroutine each, waiting on a channel for its commit, was most of what
// the archive cost it: the writer woke them by the hundred at each commit,
// ahead of the sessions' commands (scripts/archive-load.sh at 10,000
// sessions). Should the write fail, or outlive a try's timeout while a
// session or the game's end waits for it (awaitWrite), the keeper's usual
// tries follow, in a goroutine; a write given up on may still be
// committed, before the tries that follow it (the writer keeps the order),
// which write the game whole.
func (r *Recorder) offer() bool {
	o, ok := r.k.store.(offerer)
	kept := min(len(r.moves), MaxPlies)
	if !ok || r.id == 0 || r.refused != nil || (!r.stale && r.archived == kept) || r.k.paused() {
		return false
	}
	white, black := r.names()
	w := &offered{r: r, c: r.change(nil, kept, white, black), kept: kept, white: white, black: black,
		at: time.Now(), done: make(chan struct{})}
	synced := r.synced
	// A write that fails may still be committed later: the next is not
	// an addition.
	r.synced, r.writing, r.offered = false, w.done, w
	r.k.writing.Add(1)
	if !o.offerUpdate(r.id, w.c, r.patience, w.finish) {
		r.synced, r.writing, r.offered = synced, nil, nil
		r.k.writing.Done()
		return false
	}
	return true
}

// offered is a game's write handed to the store's writer (offer): c
// brings the archive to the game's moves[:kept], named white and black.
type offered struct {
	r            *Recorder
	c            Change
	kept         int
	white, black string
	at           time.Time // when it was handed over
	done         chan struct{}
	// told says the write's outcome is taken: from the writer (finish),
	// or by a session that gave up waiting for it (giveUp).
	told atomic.Bool
}

// finish takes the writer's word on the write, in the writer's goroutine.
func (w *offered) finish(err error) {
	if !w.told.CompareAndSwap(false, true) {
		return
	}
	if err != nil {
		w.tryAgain(err)
		return
	}
	r := w.r
	defer r.k.writing.Done()
	defer close(w.done)
	r.updated(w.c, w.kept, w.white, w.black)
	r.archived, r.stale = w.kept, false
	r.k.succeeded()
}

// giveUp gives the write up before the writer has said how it went.
func (w *offered) giveUp() {
	if w.told.CompareAndSwap(false, true) {
		w.tryAgain(context.DeadlineExceeded)
	}
}

// tryAgain follows a write that failed with err with the keeper's usual
// tries, in a goroutine, unless the database refused it for what it held.
func (w *offered) tryAgain(err error) {
	r := w.r
	go func() {
		defer r.k.writing.Done()
		defer close(w.done)
		if cause := RefusalCause(err); cause != "" {
			r.refuse(cause, err)
			return
		}
		r.flush(nil)
	}()
}

// ID returns the game's id in the archive, 0 while it has none; it
// settles first, and waits for an end kept in the journal to be written.
func (r *Recorder) ID() int64 {
	r.Settle()
	if r.behind != nil {
		<-r.behind
	}
	return r.id
}

// journalEnd appends the ended game to the keeper's journal, and reports
// whether it did: its end then need not be waited for. The game's line is
// done once its end is written (flushEnd), whichever comes first.
func (r *Recorder) journalEnd() bool {
	if r.ended == nil || r.k.journal == nil {
		return false
	}
	t, err := r.k.journal.add(r.ended.line())
	if err != nil {
		r.k.cfg.Log.Warn().Err(err).Msg("appending an ended game to the end journal; the session waits for its commit")
		return false
	}
	r.ended = nil
	r.ticket.Store(t)
	if r.endKept.Load() {
		t.done()
	}
	r.k.cfg.OnJournaled()
	return true
}

// Played records a move, spelled as the game's GameString spells it: the
// GameString after it is the one before with the move added and the turn
// moved on (gameStringAfter); a move that ends the game is followed by
// Ended, which gives the GameString with the result. A move past
// MaxPlies, or of a game the archive refused, is not written (it is
// counted as not archived when the game ends).
//
// A game played fast sends its next command soon after a move, and that
// command waits for the move's write (Settle): so that it need not, the
// move's write waits for others to share its transaction no longer than
// an eighth of the time since the game's move before (patienceShare),
// which in a game of two commands a move, each after a think that varies
// by half, is before the next command comes. A game played at a human's
// or a viewer's pace keeps the writer's whole window.
func (r *Recorder) Played(text, by string) {
	if r.record(text, by) {
		r.write(nil, false)
	}
}

// record adds a move to the game, once its write before is settled, and
// reports whether the move is to be written.
func (r *Recorder) record(text, by string) bool {
	r.Settle()
	now := time.Now()
	if len(r.moves) > 0 {
		r.patience = max(time.Millisecond, now.Sub(r.moves[len(r.moves)-1].At)/patienceShare)
	}
	r.moves = append(r.moves, Move{Ply: len(r.moves), Text: text, By: by, At: now})
	if len(r.moves) > MaxPlies || r.refused != nil {
		return false
	}
	r.stale = true
	return true
}

// PlayedLast records a move that ends the game, which Ended follows at
// once: the move is written with the end, in one write rather than two,
// so that the session's next command waits for one commit, not two in a
// row. Should anything come between them, Settle writes the move first.
func (r *Recorder) PlayedLast(text, by string) {
	if r.record(text, by) {
		r.held = true
	}
}

// patienceShare is the share of the time between a game's moves that its
// next move's write may wait for company (see Played).
const patienceShare = 8

// endPatience is how long a game's end waits for others to share its
// transaction: hardly at all, so that the archive's readers (/games) see
// a game end as its players do. Nobody waits for it (a session that comes
// to wait journals it: see Settle), and it is committed at the writer's
// lowered priority all the same.
const endPatience = time.Millisecond

// Undone records that the last n moves were taken back.
func (r *Recorder) Undone(n int, gameString string) {
	r.Settle()
	n = min(n, len(r.moves))
	r.moves = r.moves[:len(r.moves)-n]
	r.archived = min(r.archived, len(r.moves))
	r.gameString, r.stringAt = gameString, len(r.moves)
	r.synced = false
	if r.refused != nil {
		return
	}
	r.stale = true
	r.write(nil, false)
}

// Ended records how the game ended; the recorder takes nothing more. A
// game the archive cannot take now is held in the keeper's backlog, or
// reported lost when that is full. It does not wait for the game's write
// under way (in the answer to a move that ends the game, that move's): the
// end is written after it, in the background, and Settle waits for both.
func (r *Recorder) Ended(end End, gameString string) {
	if r.over {
		return
	}
	r.over, r.held = true, false
	if end.At.IsZero() {
		end.At = time.Now()
	}
	if r.k.journal != nil {
		white, black := r.names()
		kept := min(len(r.moves), MaxPlies)
		r.ended = &endedGame{start: r.start, white: white, black: black, moves: r.moves[:kept:kept], gameString: gameString, end: end}
	}
	under, offered := r.writing, r.offered
	r.write(func() {
		if under != nil {
			awaitWrite(under, offered, r.k.cfg.Timeout)
		}
		r.gameString, r.stringAt, r.stale, r.end = gameString, len(r.moves), true, &end
		r.patience = endPatience
	}, true)
}

// lost reports what the archive lacks of an ended game the keeper gives
// up on: all of it when it was never started there.
func (r *Recorder) lost() {
	games, moves := 0, len(r.moves)-r.archived
	if r.id == 0 {
		games = 1
	}
	r.k.cfg.OnLost(games, moves)
	r.k.cfg.Log.Warn().Int64("game", r.id).Int("moves_lost", moves).Str("how", r.end.How).Msg("game ended without being archived whole")
}

// lostUnlessJournaled reports what the archive lacks of an ended game
// the keeper gives up on (lost), unless the game is in the end journal,
// whose line stays until the game is written, by the next process to open
// the archive if not by this one.
func (r *Recorder) lostUnlessJournaled() {
	if r.ticket.Load() != nil {
		r.k.cfg.Log.Warn().Int64("game", r.id).Str("how", r.end.How).Msg("an ended game the archive could not take is kept in the end journal, to be written at the next start")
		return
	}
	r.lost()
}

// flushEnd writes an ended game, and reports whether the keeper is done
// with it: written, or given up after the database refused a write. What
// the archive then lacks (the moves past MaxPlies, what was not written
// before the refusal) is reported lost.
func (r *Recorder) flushEnd() bool {
	if !r.flush(r.end) {
		return false
	}
	if r.id == 0 || r.archived < len(r.moves) {
		r.lost()
	}
	r.endKept.Store(true)
	if t := r.ticket.Load(); t != nil {
		t.done()
	}
	return true
}

// refuse gives the game up after the database refused a write of it for
// what it held: the next would be refused as well.
func (r *Recorder) refuse(cause string, err error) {
	r.refused = err
	r.k.cfg.OnRefused(cause)
	r.k.cfg.Log.Error().Err(err).Int64("game", r.id).Str("cause", cause).Str("archive", r.k.store.Name()).
		Msg("the archive refused a game's write for what it held: the game is not archived further")
}

// Over reports whether the game has ended.
func (r *Recorder) Over() bool { return r.over }

// names decides the players from the moves where they are not given.
func (r *Recorder) names() (white, black string) {
	side := func(given string, parity int) string {
		if given != "" {
			return given
		}
		name := ""
		for _, m := range r.moves {
			if m.Ply%2 != parity {
				continue
			}
			if name != "" && m.By != name {
				return Viewer
			}
			name = m.By
		}
		if name == "" {
			return Viewer
		}
		return name
	}
	return side(r.players.White, 0), side(r.players.Black, 1)
}

// appends reports whether the write that brings the archive to
// moves[:kept] may be a move's usual write, an addition of moves
// (Change.Append): the archive holds the moves before and none after, the
// game goes on, and its GameString is the row's with the moves after it
// added, as readers make it.
func (r *Recorder) appends(end *End, kept int) bool {
	if !r.synced || end != nil || r.rowPlies > r.stringAt || kept != len(r.moves) {
		return false
	}
	// The moves after stringAt are added alike to the GameString and
	// to the row's, so they agree if they agree before them.
	return isGameStringAfter(r.gameString, r.row, r.moves[r.rowPlies:r.stringAt])
}

// gameStringNow returns the game's GameString: the one given last, with
// the moves played since added.
func (r *Recorder) gameStringNow() string {
	if r.stringAt < len(r.moves) {
		texts := make([]string, 0, len(r.moves)-r.stringAt)
		for _, m := range r.moves[r.stringAt:] {
			texts = append(texts, m.Text)
		}
		if gs, ok := gameStringAfter(r.gameString, texts); ok {
			r.gameString, r.stringAt = gs, len(r.moves)
		}
	}
	return r.gameString
}

// flush brings the archive up to date (its first MaxPlies moves), and
// reports whether it is, or whether the game was given up when the
// database refused its write.
func (r *Recorder) flush(end *End) bool {
	if r.refused != nil {
		return true
	}
	kept := min(len(r.moves), MaxPlies)
	if !r.stale && r.archived == kept && end == nil {
		return true
	}
	white, black := r.names()
	cause, err := r.k.try(r.patience, func(ctx context.Context) error {
		if r.id == 0 {
			st := r.start
			st.White, st.Black, st.GameString, st.Moves = white, black, r.gameStringNow(), r.moves[:kept]
			id, err := r.k.store.Start(ctx, st)
			if err != nil {
				return err
			}
			r.k.cfg.OnStart(id)
			r.id, r.archived, r.synced = id, kept, true
			r.named, r.row, r.rowPlies = Players{white, black}, st.GameString, kept
			if end == nil {
				return nil
			}
		}
		c := r.change(end, kept, white, black)
		// A write that fails may still be committed later (its
		// context ended first): the next is not an addition.
		r.synced = false
		if err := r.k.store.Update(ctx, r.id, c); err != nil {
			return err
		}
		r.updated(c, kept, white, black)
		return nil
	})
	switch {
	case err == nil:
		r.archived, r.stale = kept, false
		return true
	case cause != "":
		r.refuse(cause, err)
		return true
	}
	return false
}

// change returns the write that brings the archive to moves[:kept], with
// end when not nil, and names the players when the archive names others.
func (r *Recorder) change(end *End, kept int, white, black string) Change {
	c := Change{From: r.archived, Moves: r.moves[r.archived:kept], Append: r.appends(end, kept), Synced: r.synced}
	if !c.Append {
		c.GameString, c.End = r.gameStringNow(), end
	}
	if r.named != (Players{white, black}) {
		c.White, c.Black = white, black
	}
	return c
}

// updated notes that the archive took c (see change): its game's row as
// the archive now holds it.
func (r *Recorder) updated(c Change, kept int, white, black string) {
	r.synced, r.named = true, Players{white, black}
	if !c.Append {
		r.row, r.rowPlies = c.GameString, kept
	}
}

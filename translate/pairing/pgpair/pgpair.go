// Package pgpair pairs the viewers of several daemons that share one
// PostgreSQL archive: a viewer who starts a remote game on one daemon is
// paired with a viewer waiting on any of them, and their moves go from
// daemon to daemon through PostgreSQL's LISTEN/NOTIFY, with the deadlines
// and forfeits of pairing on one daemon (translate.Pairing). A load
// balancer can then send each viewer to any daemon.
package pgpair

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/pairing"
)

// Pairing is one daemon's side of the shared pairing. The requests wait in
// the archive's pair_requests table; each daemon listens on a channel of
// its own, where the others send it the news of its viewers' games.
//
// A listening connection that ends (the server restarted, the backend
// terminated, the network cut) is opened again, LISTEN and all, after
// retryFirst, then twice as long each time up to retryMax; meanwhile the
// daemon pairs nobody and Health says why. Notices sent to it meanwhile
// are lost: its players' games end as a partner's silence does (on time).
type Pairing struct {
	wait, moveWait time.Duration
	log            zerolog.Logger
	channel        string          // this daemon's
	conf           *pgx.ConnConfig // of every connection it opens

	db     *pgxpool.Pool
	listen *pgx.Conn // the receiving goroutine's, until done
	// notifyMu serializes notices on one connection, so that a player's
	// move and its leaving arrive in the order they were sent.
	notifyMu sync.Mutex
	notify   *pgx.Conn

	// deafMu guards deaf: why the daemon is not listening now, nil
	// while it is.
	deafMu sync.Mutex
	deaf   error

	mu      sync.Mutex
	waiting map[int64]chan notice // request id -> its partner's arrival
	// early holds a partner's arrival for a request whose viewer is not
	// yet waiting: a partner on another daemon may take the request
	// between its INSERT's commit and the viewer's registering here.
	early map[int64]notice
	seats map[string]*seat // "table:colour" -> a seat of this daemon

	stop context.CancelFunc
	done chan struct{}
}

// notice is one message between daemons.
type notice struct {
	Kind    string `json:"k"`           // paired, move, leave
	Seat    string `json:"s"`           // whom it is for: "req:ID" or "table:colour"
	Move    uint16 `json:"m,omitempty"` // move
	Channel string `json:"c,omitempty"` // paired: the partner's daemon
	Why     string `json:"w,omitempty"` // leave
	How     string `json:"h,omitempty"` // leave
}

// The bounds of the wait between two tries to listen again: soon after a
// connection cut, and not more often than that while PostgreSQL is down
// for long.
const (
	retryFirst = 100 * time.Millisecond
	retryMax   = 5 * time.Second
)

// applicationName names the pairing's connections in pg_stat_activity,
// unless the URL names them.
const applicationName = "hivebridge pairing"

// Open joins the pairing of the daemons on the PostgreSQL archive at dsn
// (already migrated by archive.Open). Viewers wait up to wait for a
// partner; players may think up to moveWait a move.
func Open(ctx context.Context, dsn string, wait, moveWait time.Duration, log zerolog.Logger) (*Pairing, error) {
	id := make([]byte, 8)
	rand.Read(id)
	p := &Pairing{wait: wait, moveWait: moveWait, log: log, channel: "hivebridge_pair_" + hex.EncodeToString(id),
		waiting: map[int64]chan notice{}, early: map[int64]notice{}, seats: map[string]*seat{}, done: make(chan struct{})}
	fail := func(err error) (*Pairing, error) {
		p.Close()
		return nil, fmt.Errorf("pairing through %s: %w", archive.Redact(dsn), err)
	}
	poolConf, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return fail(err)
	}
	if _, named := poolConf.ConnConfig.RuntimeParams["application_name"]; !named {
		poolConf.ConnConfig.RuntimeParams["application_name"] = applicationName
	}
	p.conf = poolConf.ConnConfig.Copy()
	if p.db, err = pgxpool.NewWithConfig(ctx, poolConf); err != nil {
		return fail(err)
	}
	if p.listen, err = p.listenConn(ctx); err != nil {
		return fail(err)
	}
	if p.notify, err = pgx.ConnectConfig(ctx, p.conf.Copy()); err != nil {
		return fail(err)
	}
	lctx, stop := context.WithCancel(context.Background())
	p.stop = stop
	go p.receive(lctx)
	return p, nil
}

// listenConn opens a connection that listens on the daemon's channel.
func (p *Pairing) listenConn(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, p.conf.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+p.channel); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return conn, nil
}

// Health returns "" while the daemon listens for the other daemons'
// notices, or why it does not (reconnecting): the daemon then pairs
// nobody, and its /healthz says it is degraded.
func (p *Pairing) Health() string {
	p.deafMu.Lock()
	defer p.deafMu.Unlock()
	if p.deaf == nil {
		return ""
	}
	return "pairing: not listening through PostgreSQL (reconnecting): " + p.deaf.Error()
}

func (p *Pairing) setDeaf(err error) {
	p.deafMu.Lock()
	p.deaf = err
	p.deafMu.Unlock()
}

// Close leaves the pairing: the daemon's listening ends.
func (p *Pairing) Close() {
	if p.stop != nil {
		p.stop()
		<-p.done
	}
	if p.listen != nil {
		p.listen.Close(context.Background())
	}
	p.notifyMu.Lock()
	if p.notify != nil {
		p.notify.Close(context.Background())
	}
	p.notifyMu.Unlock()
	if p.db != nil {
		p.db.Close()
	}
}

// receive listens for as long as the pairing is open, again after any
// loss of its connection.
func (p *Pairing) receive(ctx context.Context) {
	defer close(p.done)
	for {
		err := p.relay(ctx)
		if ctx.Err() != nil {
			return
		}
		p.setDeaf(err)
		p.log.Error().Err(err).Msg("pairing: listening through PostgreSQL ended; reconnecting")
		if !p.relisten(ctx) {
			return
		}
		p.setDeaf(nil)
		p.log.Info().Msg("pairing: listening through PostgreSQL again")
	}
}

// relisten replaces the lost listening connection, trying again after
// retryFirst, then twice as long each time up to retryMax, until it
// listens (true) or ctx ends (false).
func (p *Pairing) relisten(ctx context.Context) bool {
	p.listen.Close(ctx)
	wait := retryFirst
	for {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(wait):
		}
		conn, err := p.listenConn(ctx)
		if err == nil {
			p.listen = conn
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		p.setDeaf(err)
		wait = min(2*wait, retryMax)
	}
}

// relay hands each notice to the request or seat it is for, until the
// connection fails or ctx ends.
func (p *Pairing) relay(ctx context.Context) error {
	for {
		n, err := p.listen.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var msg notice
		if err := json.Unmarshal([]byte(n.Payload), &msg); err != nil {
			p.log.Warn().Str("payload", n.Payload).Msg("pairing: unreadable notice")
			continue
		}
		p.mu.Lock()
		if id, ok := strings.CutPrefix(msg.Seat, "req:"); ok {
			var req int64
			fmt.Sscan(id, &req)
			if ch := p.waiting[req]; ch != nil {
				ch <- msg
			} else {
				p.early[req] = msg
			}
		} else if s := p.seats[msg.Seat]; s != nil {
			switch msg.Kind {
			case "move":
				select {
				case s.inbox <- core.Move(msg.Move):
				default:
				}
			case "leave":
				s.leave(pairing.SeatError{Msg: msg.Why, How: msg.How})
			}
		}
		p.mu.Unlock()
	}
}

// send sends a notice to the daemon listening on channel. Its connection,
// lost, is opened again, and the notice sent again on it when the first
// was certainly not delivered: a notice delivered twice would be a move
// played twice.
func (p *Pairing) send(ctx context.Context, channel string, n notice) error {
	payload, _ := json.Marshal(n)
	p.notifyMu.Lock()
	defer p.notifyMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for again := false; ; again = true {
		if p.notify == nil || p.notify.IsClosed() {
			conn, err := pgx.ConnectConfig(ctx, p.conf.Copy())
			if err != nil {
				return err
			}
			p.notify = conn
		}
		_, err := p.notify.Exec(ctx, "SELECT pg_notify($1, $2)", channel, string(payload))
		if err == nil || again || !undelivered(err) {
			return err
		}
	}
}

// undelivered reports whether err proves that a notice was not delivered:
// nothing was sent, or the server ended the session (terminated, shut
// down) before the notice's commit, which is when PostgreSQL delivers it.
func undelivered(err error) bool {
	if pgconn.SafeToRetry(err) {
		return true
	}
	if pg, ok := errors.AsType[*pgconn.PgError](err); ok {
		switch pg.Code {
		case "57P01", "57P02", "57P03": // admin_shutdown, crash_shutdown, cannot_connect_now
			return true
		}
	}
	return false
}

// Match implements uhp.Matchmaker across daemons: it takes the oldest
// request it can pair with, or waits for a partner as a request of its
// own.
func (p *Pairing) Match(ctx context.Context, t core.GameType, want core.Color, named bool) (uhp.Opponent, core.Color, error) {
	if h := p.Health(); h != "" {
		// A partner's news would not reach this daemon.
		return nil, want, errors.New("pairing across daemons is unavailable while this daemon reconnects to PostgreSQL")
	}
	gameType := uhp.FormatGameType(t)
	var (
		req   request
		found bool
	)
	if err := once(func() (err error) {
		req, found, err = p.take(ctx, gameType, want, named)
		return err
	}); err != nil {
		return nil, want, err
	}
	if !found {
		return p.await(ctx, gameType, want, named)
	}
	mine := p.seat(req.id, req.color.Other(), req.channel)
	if err := p.send(ctx, req.channel, notice{Kind: "paired", Seat: fmt.Sprintf("req:%d", req.id), Channel: p.channel}); err != nil {
		p.forget(mine)
		return nil, want, err
	}
	return mine, mine.color, nil
}

// request is a viewer's request waiting for a partner.
type request struct {
	id      int64
	channel string // its daemon's
	color   core.Color
}

// take takes the oldest request that a viewer who wants want (named: and
// asked for it by name) can be paired with, if there is one.
func (p *Pairing) take(ctx context.Context, gameType string, want core.Color, named bool) (req request, found bool, err error) {
	tx, err := p.db.Begin(ctx)
	if err != nil {
		return req, false, err
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, `SELECT id, channel, color, named FROM pair_requests
		WHERE taken = 0 AND game_type = $1 ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 16`, gameType)
	if err != nil {
		return req, false, err
	}
	for rows.Next() {
		var (
			id         int64
			ch         string
			color, nmd int
		)
		if err := rows.Scan(&id, &ch, &color, &nmd); err != nil {
			rows.Close()
			return req, false, err
		}
		if !found && !(named && nmd == 1 && core.Color(color) == want) {
			req, found = request{id: id, channel: ch, color: core.Color(color)}, true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || !found {
		return req, false, err
	}
	if _, err := tx.Exec(ctx, `UPDATE pair_requests SET taken = 1 WHERE id = $1`, req.id); err != nil {
		return req, false, err
	}
	return req, true, tx.Commit(ctx)
}

// once runs op, and again once should its failure prove that it changed
// nothing (undelivered): after PostgreSQL restarted, or ended the
// pairing's sessions, each connection of the pool fails so when it is
// next used, and a viewer should not be refused for that.
func once(op func() error) error {
	err := op()
	if err != nil && undelivered(err) {
		err = op()
	}
	return err
}

// await files a request and waits for a partner, or for the wait to end.
func (p *Pairing) await(ctx context.Context, gameType string, want core.Color, named bool) (uhp.Opponent, core.Color, error) {
	nmd := 0
	if named {
		nmd = 1
	}
	var id int64
	if err := once(func() error {
		return p.db.QueryRow(ctx, `INSERT INTO pair_requests (channel, game_type, color, named, created_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			p.channel, gameType, int(want), nmd, time.Now().UnixMilli()).Scan(&id)
	}); err != nil {
		return nil, want, err
	}
	arrived := make(chan notice, 1)
	p.mu.Lock()
	if n, ok := p.early[id]; ok { // taken before this viewer waited
		delete(p.early, id)
		arrived <- n
	}
	p.waiting[id] = arrived
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.waiting, id)
		p.mu.Unlock()
	}()
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case n := <-arrived:
		s := p.seat(id, want, n.Channel)
		return s, s.color, nil
	case <-timer.C:
	case <-ctx.Done():
	}
	// Withdraw the request, unless a partner took it as the wait ended.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	var tag pgconn.CommandTag
	if err := once(func() (err error) {
		tag, err = p.db.Exec(dctx, `DELETE FROM pair_requests WHERE id = $1 AND taken = 0`, id)
		return err
	}); err != nil {
		return nil, want, err
	}
	if tag.RowsAffected() == 1 {
		return nil, want, ctx.Err() // nobody came: the backend plays
	}
	select {
	case n := <-arrived:
		s := p.seat(id, want, n.Channel)
		return s, s.color, nil
	case <-time.After(5 * time.Second):
		return nil, want, errors.New("a partner took the request but never said so")
	}
}

// seat makes and registers this daemon's seat at a table.
func (p *Pairing) seat(table int64, color core.Color, theirChannel string) *seat {
	s := &seat{p: p, color: color, moveWait: p.moveWait, inbox: make(chan core.Move, 1), left: make(chan struct{}),
		key: fmt.Sprintf("%d:%d", table, color), theirKey: fmt.Sprintf("%d:%d", table, color.Other()), theirChannel: theirChannel}
	p.mu.Lock()
	p.seats[s.key] = s
	p.mu.Unlock()
	return s
}

func (p *Pairing) forget(s *seat) {
	p.mu.Lock()
	delete(p.seats, s.key)
	p.mu.Unlock()
}

// seat is a viewer's side of a table: the other player's moves and
// leaving arrive from its daemon; this one's go to it.
type seat struct {
	p             *Pairing
	color         core.Color
	moveWait      time.Duration
	key, theirKey string
	theirChannel  string
	inbox         chan core.Move
	once          sync.Once
	left          chan struct{}
	why           pairing.SeatError
}

func (s *seat) leave(why pairing.SeatError) {
	s.once.Do(func() {
		s.why = why
		close(s.left)
	})
}

// BestMove waits for the other player's move (see pairing.AwaitMove).
func (s *seat) BestMove(ctx context.Context, _ *core.Game, _ engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	return pairing.AwaitMove(ctx, s.inbox, s.left, func() error { return s.why }, s.color.Other(), s.moveWait)
}

// Moved sends this player's move to the other's daemon.
func (s *seat) Moved(m core.Move) {
	if err := s.p.send(context.Background(), s.theirChannel, notice{Kind: "move", Seat: s.theirKey, Move: uint16(m)}); err != nil {
		s.p.log.Warn().Err(err).Msg("pairing: a move could not be sent")
	}
}

// Leave ends the table for both players.
func (s *seat) Leave(why uhp.Leaving) {
	s.leave(pairing.SeatError{Msg: "you left", How: why.How})
	s.p.forget(s)
	if err := s.p.send(context.Background(), s.theirChannel, notice{Kind: "leave", Seat: s.theirKey, Why: s.color.String() + " " + why.Reason, How: why.How}); err != nil {
		s.p.log.Warn().Err(err).Msg("pairing: leaving could not be sent")
	}
}

// KeptElsewhere says that White's session records the game, so that it is
// archived once.
func (s *seat) KeptElsewhere() bool { return s.color == core.Black }

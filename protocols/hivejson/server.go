package hivejson

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hivebridge/hivebridge/internal/accept"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// The AI module's side of the protocol. "The controller (game core) is the
// TCP client; the AI module is the TCP server. One connection per AI
// carries Greetings first, then every Choose Turn, one request in flight
// at a time" (wire doc). A Server answers each connection on a goroutine
// of its own, which owns that connection's state (its Decoder), reading a
// request, answering it, and only then reading the next; while it
// searches, another goroutine reads ahead only to see the controller leave
// (see watchEnd). It knows nothing of processes or flags: it needs a
// listener or a connection, and a Searcher to choose its moves.

// ServerConfig sets up a Server. Zero durations and sizes take the
// defaults below.
type ServerConfig struct {
	// Greeting is the module's identity, the answer to every Greetings
	// request (with the request's id, and Active set: "the controller needs
	// "active":true or it never uses the AI").
	Greeting GreetingsResponse
	// Searcher chooses the turns.
	Searcher engine.Searcher
	// DefaultTime is how long to think when a request's response_deadline
	// is null, as it "always is in practice" (wire doc).
	DefaultTime time.Duration
	// MaxTime, if not zero, bounds how long any request may think,
	// whatever its response_deadline grants (up to an hour): the search
	// is asked to end by then and stopped a Margin later, so that a
	// daemon's engines are not held for as long as a controller cares to
	// ask.
	MaxTime time.Duration
	// Margin is kept back from a request's time for the answer to reach
	// the controller (at most a fifth of the time), and is how long a
	// search may overrun DefaultTime before the Server stops it.
	Margin time.Duration
	// IdleTimeout closes a connection that sends no complete frame for
	// this long.
	IdleTimeout time.Duration
	// WriteTimeout bounds each answer's write: a controller that stops
	// reading is dropped rather than left to block its connection.
	WriteTimeout time.Duration
	// MaxFrame caps the length of a request, in the FrameLength unit.
	MaxFrame int
	// FrameLength is what the length of a controller's frames counts:
	// UTF-16 units (the zero value, the original's), or UTF-8 bytes.
	FrameLength FrameLength
	// MaxConns bounds the connections Serve answers at once; one more is
	// answered with an error frame and closed. Zero means no bound.
	MaxConns int
	// Admit, if set, is asked about each connection Serve accepts before
	// anything is read from it (whether its address is allowed, say); a
	// connection it refuses is answered with an error frame that carries
	// the refusal, and closed.
	Admit func(net.Conn) error
	// Log receives the diagnostics: connections, requests answered, and
	// every frame refused or ignored.
	Log zerolog.Logger
	// Watch, if set, is called for each connection, and what it returns
	// (if not nil) is told of the games played on it, so that a daemon
	// can keep the games it serves.
	Watch func() Watcher
}

// Watcher follows the games of one connection. Its methods run on the
// connection's goroutine, and none may change the game it is given.
type Watcher interface {
	// Request is told of the game of each Choose Turn request whose
	// game_state could be read, before it is answered.
	Request(gameID string, g *core.Game)
	// Answered is told of the move of each turn answered, in the
	// request's game, before the reply is sent.
	Answered(gameID string, g *core.Game, m core.Move)
	// Closed is told that the connection has ended.
	Closed()
}

// The defaults of ServerConfig.
const (
	DefaultThinkTime    = 5 * time.Second
	DefaultMargin       = time.Second
	DefaultIdleTimeout  = 10 * time.Minute
	DefaultWriteTimeout = 30 * time.Second
)

// minThink is the least time a search is given, even when a request's
// deadline leaves less: an answer a little late may still count ("+/- 5
// seconds", says the spec), no answer never does.
const minThink = 20 * time.Millisecond

// maxTotal bounds the time a request's deadline may grant: no controller
// waits an hour for one turn, and the bound keeps the arithmetic on a
// peer's numbers from overflowing.
const maxTotal = time.Hour

// readAhead bounds what is read of a connection while a request is
// answered, to see the controller leave: a controller that sends more
// before its answer (one request is in flight at a time) has the rest wait
// in the connection, and its leaving is then seen after the answer.
const readAhead = 64 << 10

// ErrIdle is why ServeConn closes a connection that sent nothing for the
// idle timeout.
const ErrIdle engine.Error = "hivejson: connection idle for too long"

// Server answers controllers: Greetings with its identity, Choose Turn
// with a turn that the request offered, chosen by its Searcher.
type Server struct {
	cfg    ServerConfig
	nextID atomic.Uint64
}

// NewServer returns a Server with cfg, its zero fields set to the
// defaults.
func NewServer(cfg ServerConfig) *Server {
	if cfg.DefaultTime <= 0 {
		cfg.DefaultTime = DefaultThinkTime
	}
	if cfg.Margin <= 0 {
		cfg.Margin = DefaultMargin
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.MaxFrame <= 0 {
		cfg.MaxFrame = DefaultMaxLen
	}
	cfg.Greeting.Active = true
	return &Server{cfg: cfg}
}

// Serve accepts connections on l and answers each on its own goroutine
// until ctx is done, then closes l, lets every connection finish the
// request in hand (its search is cancelled with ctx, so it answers at
// once) and returns nil once all have ended. It returns the listener's
// error if accepting fails otherwise. A connection over MaxConns, or one
// that Admit refuses, is answered with an error frame and closed.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	var conns sync.WaitGroup
	var open atomic.Int64 // connections being served
	defer conns.Wait()
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	var wait time.Duration
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			if accept.Temporary(err) {
				// A passing failure to accept (out of file
				// descriptors, say): wait, from 5 ms doubling to a
				// second as net/http does, rather than spin or give
				// up and end the module.
				wait = min(max(2*wait, 5*time.Millisecond), time.Second)
				s.cfg.Log.Warn().Err(err).Dur("retry_in", wait).Msg("accept failed: waiting before the next")
				time.Sleep(wait)
				continue
			}
			return err
		}
		wait = 0
		if err := s.admit(conn, &open); err != nil {
			conns.Go(func() { s.Refuse(conn, err) })
			continue
		}
		conns.Go(func() {
			defer open.Add(-1)
			s.ServeConn(ctx, conn)
		})
	}
}

// admit takes one of the MaxConns places for conn, or says why not.
func (s *Server) admit(conn net.Conn, open *atomic.Int64) error {
	if s.cfg.Admit != nil {
		if err := s.cfg.Admit(conn); err != nil {
			return err
		}
	}
	if n := open.Add(1); s.cfg.MaxConns > 0 && n > int64(s.cfg.MaxConns) {
		open.Add(-1)
		return fmt.Errorf("hivejson: the module has reached its limit of %d connections; try again later", s.cfg.MaxConns)
	}
	return nil
}

// Refuse answers a connection the module will not serve with one error
// frame that says why, within the write timeout, and closes it.
func (s *Server) Refuse(conn net.Conn, why error) {
	defer conn.Close()
	s.cfg.Log.Warn().Str("remote", conn.RemoteAddr().String()).Err(why).Msg("connection refused")
	frame, err := EncodeFrame(NewErrorFrame(why))
	if err != nil {
		return
	}
	conn.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
	conn.Write(frame)
}

// ServeConn answers the requests of one controller on conn until it
// closes the connection (nil), sends nothing for the idle timeout
// (ErrIdle), a write fails, or ctx is done (nil); it closes conn.
//
// A malformed frame or a message that is no request ("non-numeric length,
// invalid JSON, unknown request type") is answered with one error frame,
// as the reference server answers it, and the connection goes on. An error
// frame is never answered: "two such peers can ping-pong forever" (wire
// doc). A response sent to the module is answered by nothing either: it
// asks nothing.
func (s *Server) ServeConn(ctx context.Context, conn net.Conn) error {
	defer conn.Close()
	c := &serverConn{
		s:    s,
		conn: conn,
		dec:  NewDecoder(s.cfg.MaxFrame),
		log:  s.cfg.Log.With().Uint64("conn", s.nextID.Add(1)).Str("remote", conn.RemoteAddr().String()).Logger(),
	}
	c.dec.SetFrameLength(s.cfg.FrameLength)
	// A pending read ends at once when ctx is done; the loop then sees
	// ctx.Err and stops.
	stop := context.AfterFunc(ctx, func() { conn.SetReadDeadline(time.Now()) })
	defer stop()
	c.log.Info().Msg("controller connected")
	if s.cfg.Watch != nil {
		c.games = s.cfg.Watch()
	}
	if c.games != nil {
		defer c.games.Closed()
	}
	err := c.run(ctx)
	c.log.Info().AnErr("end", err).Msg("controller disconnected")
	return err
}

// serverConn is the state of one connection, owned by its goroutine.
type serverConn struct {
	s    *Server
	conn net.Conn
	dec  *Decoder
	out  []byte
	log  zerolog.Logger
	// games, if not nil, is told of the games played (ServerConfig.Watch).
	games Watcher
	// gone is why the connection ended while a request was answered
	// (io.EOF when the controller closed it), seen by watchEnd.
	gone error
	// ahead holds what watchEnd reads; only one goroutine at a time
	// touches it.
	ahead []byte
}

func (c *serverConn) run(ctx context.Context) error {
	for {
		if err := c.conn.SetReadDeadline(time.Now().Add(c.s.cfg.IdleTimeout)); err != nil {
			return err
		}
		// Checked after the deadline is set, so that a ctx done since
		// cannot have its interruption overwritten.
		if ctx.Err() != nil {
			return nil
		}
		raw, err := c.dec.ReadFrame(c.conn)
		received := time.Now()
		var fe *FrameError
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, ErrTruncated):
			c.log.Warn().Err(err).Msg("the controller closed the connection inside a frame")
			return nil
		case errors.As(err, &fe):
			c.log.Warn().Err(err).Msg("malformed frame; answered with an error frame")
			if err := c.send(NewErrorFrame(err)); err != nil {
				return err
			}
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			if ctx.Err() != nil {
				return nil
			}
			if stalled := c.dec.Stalled(); stalled != nil {
				// The frame never ended at the length as counted: say
				// why before hanging up.
				c.log.Warn().Err(stalled).Msg("a frame never ended; answered with an error frame")
				c.send(NewErrorFrame(stalled))
			}
			return ErrIdle
		default:
			return err
		}
		msg, err := ParseMessage(raw)
		if err != nil {
			c.log.Warn().Err(err).Msg("not a request; answered with an error frame")
			if err := c.send(NewErrorFrame(err)); err != nil {
				return err
			}
			continue
		}
		var reply any
		switch m := msg.(type) {
		case *GreetingsRequest:
			c.log.Info().Str("request_id", m.RequestID).Str("system_version", m.SystemVersion).Msg("greeted")
			reply = m.Reply(c.s.cfg.Greeting)
		case *ChooseTurnRequest:
			reply = c.chooseTurn(ctx, m, received)
			if c.gone != nil {
				// The controller has left: there is no one to answer.
				if errors.Is(c.gone, io.EOF) {
					return nil
				}
				return c.gone
			}
		case *ErrorFrame:
			c.log.Warn().Str("error", m.Message).Msg("the controller sent an error frame; not answered")
		default:
			c.log.Warn().Type("message", m).Msg("the controller sent a response, which asks nothing; not answered")
		}
		if reply != nil {
			if err := c.send(reply); err != nil {
				return err
			}
		}
	}
}

// send writes v as one frame within the write timeout.
func (c *serverConn) send(v any) error {
	var err error
	if c.out, err = AppendFrame(c.out[:0], v); err != nil {
		return err
	}
	if err := c.conn.SetWriteDeadline(time.Now().Add(c.s.cfg.WriteTimeout)); err != nil {
		return err
	}
	_, err = c.conn.Write(c.out)
	return err
}

// chooseTurn answers a Choose Turn request: the game rebuilt from its
// history (GameOf), the turns it offers that are legal (Offered), and the
// Searcher's move among them, within the request's time. The answer is
// always an offered turn: "serving such a controller, answer only with a
// turn it offered ... and treat its possible_turns as that game's law"
// (wire doc). So, when the search runs out of time, or finds a move that
// the controller did not offer (its lists miss some), the answer is an
// offered turn all the same (see fallback), since any legal turn is better
// than losing the game by penalty. A request that cannot be answered with
// a legal offered turn at all (a game_state that contradicts itself, a
// game over, nothing legal offered) or whose search fails otherwise gets
// a reply with an error key, which ends that game by penalty rather than
// leaving the controller waiting forever.
func (c *serverConn) chooseTurn(ctx context.Context, req *ChooseTurnRequest, received time.Time) ChooseTurnResponse {
	log := c.log.With().Str("request_id", req.RequestID).Str("game_id", req.GameID).Int("turn_number", req.GameState.TurnNumber).Logger()
	refuse := func(err error) ChooseTurnResponse {
		log.Warn().Err(err).Msg("Choose Turn answered with an error")
		return req.Refuse(err)
	}
	g, err := GameOf(req.GameState)
	if err != nil {
		return refuse(err)
	}
	reply := func(chosen Choice) ChooseTurnResponse {
		if c.games != nil {
			c.games.Answered(req.GameID, g, chosen.Move)
		}
		return req.Reply(chosen.Turn)
	}
	if c.games != nil {
		c.games.Request(req.GameID, g)
	}
	choices, err := Offered(req.GameState.PossibleTurns, g)
	if err != nil {
		return refuse(err)
	}
	if len(choices) == 0 {
		if g.Over() {
			return refuse(errors.New("hivejson: the game is over; there is no turn to choose"))
		}
		return refuse(errors.New("hivejson: possible_turns offers no turn that is legal in the game_state"))
	}
	if onlyMove(choices) {
		turn, _ := TurnFor(choices, choices[0].Move)
		log.Debug().Str("turn", turnString(turn)).Msg("only one move offered; answered without a search")
		return reply(Choice{Turn: turn, Move: choices[0].Move})
	}
	think, answerBy := c.s.budget(req, received)
	sctx, cancel := context.WithDeadline(ctx, answerBy)
	watched := c.watchEnd(cancel)
	var last engine.Progress
	m, err := c.s.cfg.Searcher.BestMove(sctx, g, engine.Limit{Time: think}, func(p engine.Progress) {
		if p.Best() { // an engine's other lines (MultiPV) score other moves
			last = p
		}
	})
	timedOut := sctx.Err() != nil
	cancel()
	watched()
	if c.gone != nil {
		log.Info().AnErr("end", c.gone).Dur("took", time.Since(received)).Msg("the controller left during the search; not answered")
		return req.Refuse(c.gone)
	}
	chosen := Choice{Move: m}
	ok := false
	switch {
	case err != nil && !timedOut:
		return refuse(err)
	case err != nil:
		log.Warn().Err(err).Dur("think", think).Msg("the search gave no move in time; answering with an offered turn")
	default:
		if chosen.Turn, ok = TurnFor(choices, m); !ok {
			described, _ := TurnOf(m, g)
			log.Warn().Str("move", turnString(described)).Msg("the searcher's move was not offered; answering with an offered turn")
		}
	}
	if last.Move == m && m != core.NoMove {
		// What the search said of the move it chose: its depth, score
		// and effort, for whoever tunes or debugs the module.
		log.Debug().Int("depth", last.Depth).Float64("score", last.Score.Pieces()).Bool("forced", last.Score.Kind == engine.Win || last.Score.Kind == engine.Loss).
			Uint64("nodes", last.Nodes).Dur("elapsed", last.Elapsed).Msg("search of the chosen turn")
	}
	if !ok {
		chosen = fallback(choices)
	}
	log.Info().Str("turn", turnString(chosen.Turn)).Dur("took", time.Since(received)).Msg("Choose Turn answered")
	return reply(chosen)
}

// watchEnd reads the connection on a goroutine of its own while a request
// is answered, so that the controller's leaving cancels the search at once
// (cancel) rather than after a search of up to an hour. The idle timeout
// does not run meanwhile: the controller is waiting for the module. The
// function it returns stops the reading, hands what was read to the
// Decoder, to be read as if it had come after the answer, and sets c.gone
// if the connection ended; it must be called before the connection is read
// again.
func (c *serverConn) watchEnd(cancel context.CancelFunc) (stop func()) {
	if c.ahead == nil {
		c.ahead = make([]byte, 0, 4096)
	}
	c.conn.SetReadDeadline(time.Time{})
	ended := make(chan error, 1)
	go func() {
		buf := c.ahead[:0]
		for len(buf) < readAhead {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := c.conn.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err != nil {
				c.ahead = buf
				// A deadline is the module's own doing: stop below,
				// or the server's context ending (whose search is
				// cancelled with it).
				if errors.Is(err, os.ErrDeadlineExceeded) {
					err = nil
				} else {
					cancel()
				}
				ended <- err
				return
			}
		}
		c.ahead = buf
		ended <- nil
	}()
	return func() {
		c.conn.SetReadDeadline(time.Now())
		c.gone = <-ended
		c.dec.Feed(c.ahead)
		if cap(c.ahead) > 4096 {
			c.ahead = nil // a controller that wrote ahead once need not keep its buffer
		}
	}
}

// onlyMove reports whether every choice makes the same move, so that there
// is nothing to search.
func onlyMove(choices []Choice) bool {
	for _, c := range choices[1:] {
		if c.Move != choices[0].Move {
			return false
		}
	}
	return true
}

// fallback returns the turn to answer when the search gives none: the
// first offered choice that is not a Special Ability, which the original
// controller "rejects ... even when it offered it" (wire doc), else the
// first.
func fallback(choices []Choice) Choice {
	for _, c := range choices {
		if c.Turn.TurnType != TurnSpecialAbility {
			return c
		}
	}
	return choices[0]
}

// budget returns how long to think about a request received at received,
// and the time by which the answer must be written.
//
// Without a response_deadline, think for DefaultTime and stop the search
// a Margin later. With one, the time granted is measured from the
// request's own request_timestamp when it has one, so that the two
// machines' clocks need not agree; a reserve, a fifth of that time but at
// most Margin, is kept back for the answer's journey, and the search is
// asked to end a reserve before that.
//
// MaxTime, when set, caps the time to think, and the answer is then due a
// Margin after it at the latest.
func (s *Server) budget(req *ChooseTurnRequest, received time.Time) (think time.Duration, answerBy time.Time) {
	think, answerBy = s.granted(req, received)
	if s.cfg.MaxTime > 0 && think > s.cfg.MaxTime {
		think = s.cfg.MaxTime
		if by := received.Add(think + s.cfg.Margin); by.Before(answerBy) {
			answerBy = by
		}
	}
	return think, answerBy
}

// granted is budget without MaxTime: the time a request grants.
func (s *Server) granted(req *ChooseTurnRequest, received time.Time) (think time.Duration, answerBy time.Time) {
	if req.ResponseDeadline == nil {
		return s.cfg.DefaultTime, received.Add(s.cfg.DefaultTime + s.cfg.Margin)
	}
	deadline := *req.ResponseDeadline
	var ms int64
	if req.RequestTimestamp > 0 {
		ms = deadline - req.RequestTimestamp
	} else {
		ms = deadline - received.UnixMilli()
	}
	total := time.Duration(min(max(ms, 0), maxTotal.Milliseconds())) * time.Millisecond
	total = max(total, 2*minThink)
	reserve := min(total/5, s.cfg.Margin)
	return max(total-2*reserve, minThink), received.Add(total - reserve)
}

package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
)

// JSONModule is the Engine of a Choose-Turn JSON AI module listening at a
// TCP address (--backend hivejson://host:port): hivebridge is the
// controller, the game core of the original, and the module answers its
// Choose Turn requests.
//
// The module keeps no game: each BestMove sends the whole game_state, with
// its history and possible_turns computed completely and correctly by
// hivebridge's own rules ("driving such an AI, send complete and correct
// possible_turns ... and check every reply against them", wire doc), and
// checks the turn that comes back against the rules. So NewGame, Play and
// Undo only change hivebridge's copy of the game.
//
// Nothing times out in the original protocol; here every exchange has a
// deadline, sent to the module as response_deadline when the search has a
// time limit. A module that misses it, hangs up, answers with an error or
// with garbage, or answers an illegal turn gives an error that says which,
// and its connection is closed: the next search dials it again and greets
// it again, so that the session goes on.
type JSONModule struct {
	addr   string
	length hivejson.FrameLength // what the module's frame lengths count
	cfg    Config
	log    zerolog.Logger
	prefix string // of this engine's request and game ids

	infoMu sync.Mutex
	info   engine.Info

	keptGame          // one exchange at a time, and hivebridge's copy of the game
	conn     net.Conn // nil when not connected
	client   *hivejson.Client
	gameID   string
	serial   uint64 // of request and game ids
}

// DialJSON connects to the JSON AI module at addr, whose frame lengths
// count length, and greets it, failing fast when nothing answers there or
// the module says it is not usable.
func DialJSON(ctx context.Context, addr string, length hivejson.FrameLength, cfg Config) (*JSONModule, error) {
	cfg = cfg.WithDefaults()
	m := &JSONModule{
		addr:   addr,
		length: length,
		cfg:    cfg,
		log:    cfg.Log.With().Str("engine", "hivejson://"+addr).Logger(),
		prefix: randomPrefix(),
		info:   engine.Info{ID: "hivejson://" + addr, Expansions: core.AllExpansions},
	}
	if err := m.connect(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// randomPrefix returns five random letters, as the original's ids are
// ("7pNQ4"), so that the game ids of two hivebridge controllers on one
// module do not collide.
func randomPrefix() string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 5)
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}

// nextID returns a new request or game id.
func (m *JSONModule) nextID() string {
	m.serial++
	return m.prefix + strconv.FormatUint(m.serial, 10)
}

// connect dials the module and greets it, within Timeouts.Start; the
// Greetings reply names the module. The wire doc: "the controller needs
// "active":true or it never uses the AI", nor does hivebridge.
func (m *JSONModule) connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Timeouts.Start)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", m.addr)
	if err != nil {
		return fmt.Errorf("cannot reach the JSON AI module at %s: %w", m.addr, err)
	}
	client := hivejson.NewClient(conn, 0)
	client.SetFrameLength(m.length)
	client.OnSkip = func(raw json.RawMessage, why string) {
		m.log.Warn().Str("why", why).Int("bytes", len(raw)).Msg("the module sent a frame that is not the reply; skipped")
	}
	hello, err := client.Greet(ctx, m.nextID())
	if err != nil {
		conn.Close()
		return fmt.Errorf("the JSON AI module at %s did not answer Greetings within %s: %w", m.addr, m.cfg.Timeouts.Start, err)
	}
	id := moduleID(hello, m.addr)
	if !hello.Active {
		conn.Close()
		return fmt.Errorf("the JSON AI module %s at %s says it is not active (not in a usable state)", id, m.addr)
	}
	m.infoMu.Lock()
	m.info.ID = id
	m.infoMu.Unlock()
	m.conn, m.client = conn, client
	m.log = m.cfg.Log.With().Str("engine", id).Str("addr", m.addr).Logger()
	m.log.Info().Str("long_name", hello.LongName).Str("description", hello.Description).Msg("JSON AI module connected")
	return nil
}

// moduleID names a module by its Greetings reply: its name, the "short
// name / code-name internally used to identify in records", and version.
func moduleID(hello *hivejson.GreetingsResponse, addr string) string {
	name := hello.Name
	if name == "" {
		name = hello.LongName
	}
	if name == "" {
		name = "hivejson://" + addr
	}
	return strings.TrimSpace(name + " " + hello.Version)
}

// disconnect closes the connection after a failed exchange: a late reply
// could still come on it, and a new connection starts clean.
func (m *JSONModule) disconnect() {
	if m.conn != nil {
		m.conn.Close()
		m.conn, m.client = nil, nil
	}
}

// Info is the module's name from its Greetings reply. The protocol says
// nothing of expansions, and its game_state carries them, so every
// expansion is assumed.
func (m *JSONModule) Info() engine.Info {
	m.infoMu.Lock()
	defer m.infoMu.Unlock()
	return m.info
}

// Options are none: the protocol has no way to set any.
func (m *JSONModule) Options() []*engine.Option { return nil }

// NewGame makes hivebridge's copy of the game a copy of g; a game that does
// not go on from the last one gets a new game_id, "used to identify game
// among multiple simultaneous ongoing games".
func (m *JSONModule) NewGame(_ context.Context, g *core.Game) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.game == nil || m.game.Type() != g.Type() || m.game.StartKey() != g.StartKey() || !related(m.game.History(), g.History()) {
		m.gameID = m.nextID()
	}
	m.game = g.Clone()
	return nil
}

// aliveWait is how long BestMove waits to learn whether the module has
// closed the connection since the last search (a module may close idle
// connections; hivebridge's own does after ten minutes). On loopback or a
// LAN the news has long arrived; a millisecond costs a search nothing.
const aliveWait = time.Millisecond

// Forget does nothing: every Choose Turn request carries the whole game,
// and the protocol has no way to tell a module to clear anything.
func (m *JSONModule) Forget(context.Context) error { return nil }

// BestMove sends a Choose Turn request for the game and returns the move of
// the module's turn, once checked against the rules. With a time limit the
// request's response_deadline is that far ahead and the reply is awaited
// Timeouts.Margin longer; the protocol has no depth, so with a depth limit
// alone the deadline is null, as the original sends it, the module thinks
// as long as it likes, and the reply is awaited for Timeouts.Depth. The
// protocol reports no intermediate moves: report is never called.
func (m *JSONModule) BestMove(ctx context.Context, limit engine.Limit, _ func(engine.Progress)) (core.Move, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := searchable(m.game); err != nil {
		return core.NoMove, err
	}
	if m.client != nil && !m.client.Alive(aliveWait) {
		m.log.Info().Msg("the module closed the connection since the last search; dialling it again")
		m.disconnect()
	}
	if m.client == nil {
		if err := m.connect(ctx); err != nil {
			return core.NoMove, err
		}
	}
	now := time.Now()
	req, err := hivejson.NewChooseTurnRequest(m.nextID(), m.gameID, now.UnixMilli(), m.game)
	if err != nil {
		return core.NoMove, err
	}
	wait := m.cfg.Timeouts.Depth
	if limit.Time > 0 {
		deadline := now.Add(limit.Time).UnixMilli()
		req.ResponseDeadline = &deadline
		wait = limit.Time + m.cfg.Timeouts.Margin
	}
	id := m.Info().ID
	rctx, cancel := context.WithTimeout(ctx, wait)
	resp, err := m.client.ChooseTurn(rctx, &req)
	cancel()
	if err != nil {
		m.disconnect()
		if ctx.Err() != nil {
			return core.NoMove, ctx.Err()
		}
		m.log.Warn().Err(err).Msg("Choose Turn failed; the module will be dialled again at the next search")
		return core.NoMove, explainJSONError(id, wait, err)
	}
	mv, err := hivejson.MoveOf(resp.Turn, m.game)
	if err != nil {
		m.disconnect()
		turn, _ := json.Marshal(resp.Turn)
		return core.NoMove, fmt.Errorf("JSON AI module %s answered %s, which is not a legal turn: %w", id, turn, err)
	}
	return mv, nil
}

// explainJSONError says in a viewer's words why a Choose Turn exchange
// failed.
func explainJSONError(id string, wait time.Duration, err error) error {
	switch {
	case errors.Is(err, hivejson.ErrNoReply):
		return fmt.Errorf("JSON AI module %s did not answer Choose Turn within %s", id, wait)
	case errors.Is(err, hivejson.ErrPeerClosed):
		return fmt.Errorf("JSON AI module %s closed the connection instead of answering Choose Turn", id)
	case errors.Is(err, hivejson.ErrPeerError):
		return fmt.Errorf("JSON AI module %s answered Choose Turn with an error: %w", id, err)
	case errors.Is(err, hivejson.ErrGarbage):
		return fmt.Errorf("JSON AI module %s answered Choose Turn with garbage: %w", id, err)
	}
	return fmt.Errorf("JSON AI module %s: Choose Turn failed: %w", id, err)
}

// Close closes the connection to the module.
func (m *JSONModule) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.disconnect()
	return nil
}

package pgpair

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// cutOff is a PostgreSQL server whose archive database (hive) can be cut
// off: its pairing connections ended, and no new connection taken until
// it is let back.
type cutOff struct {
	url   string // the archive's
	admin *pgx.Conn
}

func startCutOff(t *testing.T) *cutOff {
	t.Helper()
	pg := pgtest.Start(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	if _, err := admin.Exec(ctx, "CREATE DATABASE hive"); err != nil {
		t.Fatal(err)
	}
	c := &cutOff{url: strings.Replace(pg.URL, "/postgres?", "/hive?", 1), admin: admin}
	store, err := archive.Open(ctx, c.url, archive.Reader) // the schema
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	return c
}

func (c *cutOff) exec(t *testing.T, sql string) {
	t.Helper()
	if _, err := c.admin.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// cut ends the pairing connections; with block, no new connection to the
// archive is taken until let.
func (c *cutOff) cut(t *testing.T, block bool) {
	t.Helper()
	if block {
		c.exec(t, "ALTER DATABASE hive ALLOW_CONNECTIONS false")
	}
	c.exec(t, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'hive' AND application_name = '"+applicationName+"'")
}

// listeners returns the server processes of the pairing's listening
// connections.
func (c *cutOff) listeners(t *testing.T) map[int32]bool {
	t.Helper()
	rows, err := c.admin.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = 'hive' AND application_name = $1
		AND query LIKE 'LISTEN %'`, applicationName)
	if err != nil {
		t.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		t.Fatal(err)
	}
	set := map[int32]bool{}
	for _, pid := range pids {
		set[pid] = true
	}
	return set
}

func (c *cutOff) let(t *testing.T) { c.exec(t, "ALTER DATABASE hive ALLOW_CONNECTIONS true") }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("20s without %s", what)
		}
	}
}

// pair pairs a viewer of one with a viewer of two (one asks for White).
func pair(t *testing.T, one, two *Pairing) (white, black uhp.Opponent) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type matched struct {
		op    uhp.Opponent
		color core.Color
		err   error
	}
	waiting := make(chan matched, 1)
	go func() {
		op, color, err := one.Match(ctx, core.Base, core.White, true)
		waiting <- matched{op, color, err}
	}()
	var op uhp.Opponent
	var color core.Color
	var err error
	waitFor(t, "a request filed", func() bool {
		one.mu.Lock()
		defer one.mu.Unlock()
		return len(one.waiting) == 1
	})
	if op, color, err = two.Match(ctx, core.Base, core.White, false); err != nil || op == nil || color != core.Black {
		t.Fatalf("the second viewer: %v as %v, %v", op, color, err)
	}
	w := <-waiting
	if w.err != nil || w.op == nil || w.color != core.White {
		t.Fatalf("the first viewer: %v as %v, %v", w.op, w.color, w.err)
	}
	return w.op, op
}

// relays checks that a move of one side reaches the other.
func relays(t *testing.T, from, to uhp.Opponent, m core.Move) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	from.Moved(m)
	if got, err := to.BestMove(ctx, nil, engine.Limit{}, nil); err != nil || got != m {
		t.Fatalf("move %d arrived as %d, %v", m, got, err)
	}
}

// TestListensAgain: when the connections of the pairing end (the backend
// terminated), a daemon says it is unhealthy and pairs nobody until it
// listens again, which it does once PostgreSQL takes connections; then it
// pairs viewers and relays their moves, and a game under way when the
// connections end again goes on.
func TestListensAgain(t *testing.T) {
	pg := startCutOff(t)
	ctx := context.Background()
	open := func() *Pairing {
		p, err := Open(ctx, pg.url, 10*time.Second, 20*time.Second, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	one, two := open(), open()
	if one.Health() != "" || two.Health() != "" {
		t.Fatalf("unhealthy at the start: %q, %q", one.Health(), two.Health())
	}
	pg.cut(t, true)
	waitFor(t, "both unhealthy", func() bool { return one.Health() != "" && two.Health() != "" })
	if h := one.Health(); !strings.HasPrefix(h, "pairing: not listening through PostgreSQL") {
		t.Errorf("Health while cut off: %q", h)
	}
	if op, _, err := one.Match(ctx, core.Base, core.White, false); err == nil || op != nil {
		t.Errorf("Match while cut off: %v, %v; want an error", op, err)
	}
	pg.let(t)
	waitFor(t, "both healthy again", func() bool { return one.Health() == "" && two.Health() == "" })
	white, black := pair(t, one, two)
	relays(t, white, black, core.Move(11))
	relays(t, black, white, core.Move(12))

	// Cut again, mid-game: the connections that send notices, and the
	// pool's, are lost too. The game goes on once both listen again.
	before := pg.listeners(t)
	pg.cut(t, false)
	waitFor(t, "the listening connections replaced", func() bool {
		now := pg.listeners(t)
		for pid := range now {
			if before[pid] {
				return false
			}
		}
		return len(now) == 2 && one.Health() == "" && two.Health() == ""
	})
	relays(t, white, black, core.Move(13))
	relays(t, black, white, core.Move(14))
	white.Leave(uhp.Leaving{How: uhp.LeftSession, Reason: "left the session"})
	black.Leave(uhp.Leaving{How: uhp.LeftSession, Reason: "left the session"})
	w, b := pair(t, two, one)
	relays(t, w, b, core.Move(15))
}

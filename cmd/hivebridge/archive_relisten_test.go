package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hivebridge/hivebridge/internal/pgtest"
)

// TestArchivePairListensAgain: two daemons pair viewers through
// PostgreSQL. Their listening connections are terminated
// (pg_terminate_backend) while the database takes no new connection:
// /healthz says degraded. Once it takes connections again, the daemons
// listen again, /healthz says ok, and a viewer on each is paired and
// their moves relayed.
func TestArchivePairListensAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	pg := pgtest.Start(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	exec := func(sql string) {
		t.Helper()
		if _, err := admin.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// The archive in a database of its own, which the test can close to
	// new connections (PostgreSQL will not close the one it is on).
	exec("CREATE DATABASE hive")
	db := strings.Replace(pg.URL, "/postgres?", "/hive?", 1)
	one, two := pairingDaemons(t, db)
	for _, d := range []*testDaemon{one, two} {
		if h := healthz(t, d.httpAddr); h != "ok\n" {
			t.Fatalf("/healthz at the start: %q", h)
		}
	}

	exec("ALTER DATABASE hive ALLOW_CONNECTIONS false")
	exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'hive' AND query LIKE 'LISTEN %'")
	waitHealth := func(d *testDaemon, ok bool) string {
		t.Helper()
		var h string
		waitForState(t, 20*time.Second, fmt.Sprintf("/healthz to be ok: %v", ok), func() (bool, string) {
			h = healthz(t, d.httpAddr)
			return (h == "ok\n") == ok, fmt.Sprintf("%q", h)
		})
		return h
	}
	for _, d := range []*testDaemon{one, two} {
		if h := waitHealth(d, false); !strings.HasPrefix(h, "degraded: pairing: not listening through PostgreSQL") {
			t.Errorf("/healthz cut off: %q", h)
		}
	}
	exec("ALTER DATABASE hive ALLOW_CONNECTIONS true")
	waitHealth(one, true)
	waitHealth(two, true)

	white, black := pairViewers(t, one.uhpAddr, two.uhpAddr, "newgame remote Base White")
	if got := white.answer(t); len(got) != 1 || got[0] != "Base;NotStarted;White[1]" {
		t.Fatalf("white's newgame: %q", got)
	}
	fmt.Fprintln(white.conn, "play wS1")
	if got := black.answer(t); len(got) != 1 || got[0] != "Base;InProgress;Black[1];wS1" {
		t.Fatalf("black's newgame: %q", got)
	}
	fmt.Fprintln(black.conn, "play bS1 wS1-")
	if got := white.answer(t); len(got) != 3 || got[1] != "bS1 wS1-" {
		t.Fatalf("white's play: %q", got)
	}
}

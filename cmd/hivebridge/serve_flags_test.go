package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/translate/daemon"
)

// serveFlags runs hivebridge serve with args through a run function that
// only keeps the configuration the flags give: nothing is started.
func serveFlags(t *testing.T, args ...string) (daemon.Config, error) {
	t.Helper()
	var got daemon.Config
	cmd := NewCmdServe(func(_ context.Context, _ *cobra.Command, cfg daemon.Config) error {
		got = cfg
		return nil
	})
	cmd.SetArgs(args)
	out := &syncbuf.Buffer{}
	cmd.SetOut(out)
	cmd.SetErr(out)
	err := cmd.Execute()
	return got, err
}

// TestServeFlagDefaults: the defaults --help states.
func TestServeFlagDefaults(t *testing.T) {
	cfg, err := serveFlags(t, "--uhp", ":7777")
	if err != nil {
		t.Fatal(err)
	}
	want := daemon.Config{
		UHPAddr: ":7777", Backend: "native", FrameLength: hivejson.UTF16Units,
		MaxSessions: 2000, MaxUnauthenticated: 32, MaxHTTPConns: 1024, MaxLine: 64 * 1024,
		AuthTimeout: 10 * time.Second, IdleTimeout: 10 * time.Minute,
		MaxSearchTime: 5 * time.Minute, MaxSearchDepth: 40,
		PoolSize: runtime.NumCPU(), PoolQueue: 4096, PoolHashMB: 16, PoolWait: 30 * time.Second,
		SessionMaxThreads: 1, SessionMaxHash: 16, SessionMaxPerft: 4,
		PairWait: 30 * time.Second, MoveWait: 15 * time.Minute, Grace: 10 * time.Second,
		ArchiveBacklog: 10000,
	}
	cfg.Log, cfg.Page, cfg.PagePrefix, cfg.Version = want.Log, nil, "", ""
	if !configEqual(cfg, want) {
		t.Errorf("defaults\n%+v\nwant\n%+v", cfg, want)
	}
}

// configEqual compares configurations field by field (their slices by
// content).
func configEqual(a, b daemon.Config) bool {
	return slices.Equal(a.Origins, b.Origins) && slices.Equal(a.AllowFrom, b.AllowFrom) &&
		slices.Equal(a.PublicHosts, b.PublicHosts) && slices.Equal(a.EngineOptions, b.EngineOptions) &&
		strings.EqualFold(a.Backend, b.Backend) && a.UHPAddr == b.UHPAddr && a.HubAddr == b.HubAddr &&
		a.JSONAddr == b.JSONAddr && a.HTTPAddr == b.HTTPAddr && a.Token == b.Token && a.FrameLength == b.FrameLength &&
		a.MaxSessions == b.MaxSessions && a.MaxUnauthenticated == b.MaxUnauthenticated && a.MaxHTTPConns == b.MaxHTTPConns &&
		a.MaxLine == b.MaxLine && a.AuthTimeout == b.AuthTimeout && a.IdleTimeout == b.IdleTimeout &&
		a.MaxSearchTime == b.MaxSearchTime && a.MaxSearchDepth == b.MaxSearchDepth && a.PoolSize == b.PoolSize &&
		a.PoolQueue == b.PoolQueue && a.PoolHashMB == b.PoolHashMB && a.PoolWait == b.PoolWait &&
		a.SessionMaxThreads == b.SessionMaxThreads && a.SessionMaxHash == b.SessionMaxHash && a.SessionMaxPerft == b.SessionMaxPerft &&
		a.PairViewers == b.PairViewers && a.PairWait == b.PairWait && a.MoveWait == b.MoveWait && a.Grace == b.Grace &&
		a.DB == b.DB && a.ArchiveBacklog == b.ArchiveBacklog && a.ArchiveRetention == b.ArchiveRetention
}

// TestServeFlags: each flag reaches the configuration, and the token file
// is read.
func TestServeFlags(t *testing.T) {
	token := filepath.Join(t.TempDir(), "token")
	os.WriteFile(token, []byte("  s3cret\n"), 0o600)
	cfg, err := serveFlags(t, "--http", "0.0.0.0:8080", "--hub", ":7778", "--token-file", token,
		"--allow-from", "127.0.0.1,10.0.0.0/8", "--public-host", "hive.example.org", "--frame-length", "utf8",
		"--backend", "uhp:mzinga", "--engine-option", "Threads=2", "--max-search-time", "30s", "--pair-viewers",
		"--db", "none", "--archive-retention", "2160h", "--page-size", "x")
	if err == nil {
		t.Fatalf("an unknown flag was accepted: %+v", cfg)
	}
	cfg, err = serveFlags(t, "--http", "0.0.0.0:8080", "--hub", ":7778", "--token-file", token,
		"--allow-from", "127.0.0.1,10.0.0.0/8", "--public-host", "hive.example.org", "--frame-length", "utf8",
		"--backend", "uhp:mzinga", "--engine-option", "Threads=2", "--max-search-time", "30s", "--pair-viewers",
		"--db", "none", "--archive-retention", "2160h")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != "0.0.0.0:8080" || cfg.HubAddr != ":7778" || cfg.Token != "s3cret" ||
		!slices.Equal(cfg.AllowFrom, []string{"127.0.0.1", "10.0.0.0/8"}) || !slices.Equal(cfg.PublicHosts, []string{"hive.example.org"}) ||
		cfg.FrameLength != hivejson.UTF8Bytes || cfg.Backend != "uhp:mzinga" || !slices.Equal(cfg.EngineOptions, []string{"Threads=2"}) ||
		cfg.MaxSearchTime != 30*time.Second || !cfg.PairViewers || cfg.DB != "none" || cfg.ArchiveRetention != 2160*time.Hour ||
		cfg.Version != version || cfg.Page == nil {
		t.Errorf("flags gave %+v", cfg)
	}
	for _, args := range [][]string{
		{"--frame-length", "utf32"},
		{"--token-file", filepath.Join(t.TempDir(), "missing")},
	} {
		if _, err := serveFlags(t, append([]string{"--uhp", ":0"}, args...)...); err == nil {
			t.Errorf("serve %s was accepted", strings.Join(args, " "))
		}
	}
}

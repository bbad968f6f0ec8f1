package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/hivegametest"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/hivegame"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/bot"
)

// botFlagsRun runs hivebridge bot with args through a run function that
// only keeps the setup the flags give: the site is not reached.
func botFlagsRun(t *testing.T, args ...string) (botSetup, error) {
	t.Helper()
	var got botSetup
	cmd := NewCmdBot(func(_ context.Context, _ *cobra.Command, s botSetup) error {
		got = s
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return got, cmd.Execute()
}

// TestBotCommandFlags: one account from flags, its credentials from a file
// or the environment and never from the command line; several from a
// --config file, which no account flag may accompany.
func TestBotCommandFlags(t *testing.T) {
	dir := t.TempDir()
	cred := filepath.Join(dir, "cred")
	os.WriteFile(cred, []byte("me@example.org\nhunter2\n"), 0o600)
	s, err := botFlagsRun(t, "--name", "mybot", "--credentials", cred, "--backend", "uhp:nokamute uhp", "--engine-option", "Threads=2",
		"--move-time", "3s", "--depth", "4", "--max-games", "3", "--game-type", "Base+MLP", "--time-control", "Real Time",
		"--rated", "casual", "--allow", "friend", "--refuse", "troll", "--poll", "2s", "--margin", "500ms", "--http", ":9090", "--db", "games.db")
	if err != nil {
		t.Fatal(err)
	}
	a := s.bot.Accounts[0]
	if a.Name != "mybot" || a.Site != bot.DefaultSite || a.Credentials != (hivegame.Credentials{Email: "me@example.org", Password: "hunter2"}) ||
		a.Backend != "uhp:nokamute uhp" || !slices.Equal(a.EngineOptions, []string{"Threads=2"}) || a.MoveTime != 3*time.Second || a.Depth != 4 {
		t.Errorf("account %+v", a)
	}
	p := a.Policy
	if p.MaxGames != 3 || !slices.Equal(p.GameTypes, []string{"Base+MLP"}) || !slices.Equal(p.TimeKinds, []hivegame.TimeKind{hivegame.RealTime}) ||
		p.Rated == nil || *p.Rated || !slices.Equal(p.Allow, []string{"friend"}) || !slices.Equal(p.Refuse, []string{"troll"}) {
		t.Errorf("policy %+v", p)
	}
	if s.bot.PollInterval != 2*time.Second || s.bot.NetworkMargin != 500*time.Millisecond || s.http != ":9090" || s.db != "games.db" {
		t.Errorf("setup %+v", s)
	}

	t.Setenv(emailVar, "env@example.org")
	t.Setenv(passwordVar, "from the environment")
	if s, err := botFlagsRun(t, "--name", "envbot"); err != nil || s.bot.Accounts[0].Credentials.Password != "from the environment" || s.db != "" {
		t.Errorf("credentials from the environment: %+v, %v", s, err)
	}
	t.Setenv(passwordVar, "")
	if _, err := botFlagsRun(t, "--name", "envbot"); err == nil || !strings.Contains(err.Error(), passwordVar) {
		t.Errorf("no password anywhere: %v", err)
	}

	config := filepath.Join(dir, "bots.json")
	os.WriteFile(config, []byte(`{"poll_interval": "3s", "accounts": [{"name": "a", "credentials_file": "cred"}, {"name": "b", "credentials_file": "cred"}]}`), 0o600)
	if s, err := botFlagsRun(t, "--config", config, "--http", ":0"); err != nil || len(s.bot.Accounts) != 2 || s.bot.PollInterval != 3*time.Second {
		t.Errorf("--config: %+v, %v", s, err)
	}
	for _, args := range [][]string{
		{"--config", config, "--name", "x"},
		{"--config", config, "--backend", "native"},
		{},
		{"--name", "x", "--credentials", filepath.Join(dir, "missing")},
		{"--name", "x", "--credentials", cred, "--rated", "often"},
		{"--name", "x", "--credentials", cred, "--time-control", "Blitz"},
	} {
		if _, err := botFlagsRun(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestBotCommand runs hivebridge bot --config against the stand-in site: it
// accepts a challenge and plays, serves /healthz and /metrics, keeps the
// game in --db, logs no credential, and stops when its context ends.
func TestBotCommand(t *testing.T) {
	site := hivegametest.New(hivegametest.Options{})
	h := httptest.NewServer(site.Handler())
	defer h.Close()
	defer site.Close()
	site.AddUser("cmdbot", "cmdbot@example.org", "pa55-w0rd", true)
	site.AddUser("person", "person@example.org", "x", false)
	dir := t.TempDir()
	cred := filepath.Join(dir, "cred")
	os.WriteFile(cred, []byte("cmdbot@example.org\npa55-w0rd\n"), 0o600)
	db := filepath.Join(dir, "games.db")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := NewCmdBot(nil)
	out, errs := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	cmd.SetOut(out)
	cmd.SetErr(errs)
	config := filepath.Join(dir, "bots.json")
	os.WriteFile(config, []byte(`{"poll_interval": "20ms", "sweep_interval": "100ms",
  "accounts": [{"name": "cmdbot", "site": "`+h.URL+`", "credentials_file": "cred", "depth": 1}]}`), 0o600)
	cmd.SetArgs([]string{"--config", config, "--http", "127.0.0.1:0", "--db", db})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()

	addr := ""
	waitFor(t, 10*time.Second, "the HTTP address", func() bool {
		m := regexp.MustCompile(`http listening on (\S+)`).FindStringSubmatch(out.String())
		if m != nil {
			addr = m[1]
		}
		return addr != ""
	})
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	waitFor(t, 10*time.Second, "/healthz to say ok", func() bool {
		code, body := get("/healthz")
		return code == 200 && body == "ok\n"
	})
	// Real time: the game may be aborted until Black has moved.
	id, err := site.Challenge("person", "cmdbot", hivegametest.ChallengeSpec{GameType: core.Base, Color: hivegametest.ColorBlack,
		Time: hivegametest.RealTime{BaseMinutes: 5}})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the bot to accept and move", func() bool {
		_, body := get("/metrics")
		return strings.Contains(body, `hivebridge_bot_moves_total{account="cmdbot",by="backend"} 1`) && strings.Contains(body, "go_goroutines")
	})
	if err := site.Control("person", id, "abort"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the bot to see the game aborted", func() bool {
		_, body := get("/metrics")
		return strings.Contains(body, `hivebridge_bot_games_ended_total{account="cmdbot",result="aborted"} 1`)
	})
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the command stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop within 10s of its context ending")
	}
	if strings.Contains(errs.String()+out.String(), "pa55-w0rd") {
		t.Errorf("the password was printed:\n%s%s", out, errs)
	}
	store, err := archive.Open(context.Background(), db, archive.Reader)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	games, _, err := store.List(context.Background(), archive.Filter{PerPage: 10})
	if err != nil || len(games) != 1 || games[0].White != "cmdbot" || !strings.HasPrefix(games[0].Black, "person (") || games[0].How != "aborted" {
		t.Errorf("archive: %+v, %v", games, err)
	}
}

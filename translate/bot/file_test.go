package bot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/protocols/hivegame"
)

// The configuration file names where each account's credentials are (a
// file beside it, or the environment), never holds them, and refuses
// settings it does not know.
func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("ant.credentials", "ant@example.org\nant's password\n")
	path := write("bot.json", `{
  "poll_interval": "2s",
  "network_margin": "1.5s",
  "accounts": [
    {"name": "antbot", "credentials_file": "ant.credentials", "backend": "uhp:nokamute uhp", "engine_options": ["Threads=2"],
     "move_time": "5s", "depth": 3,
     "policy": {"game_types": ["Base+MLP"], "rated": "casual", "time_controls": ["Real Time", "untimed"],
                "min_base": "5m", "max_increment": "30s", "refuse": ["troll"], "max_games": 3},
     "challenge": {"opponent": "beebot", "game_type": "Base+MLP", "time_control": {"RealTime": {"base": 10, "increment": 5}}, "total": 2}},
    {"name": "beebot", "site": "http://localhost:8080", "email_env": "BEE_EMAIL", "password_env": "BEE_PASSWORD"}
  ]
}`)
	env := map[string]string{"BEE_EMAIL": "bee@example.org", "BEE_PASSWORD": "bee's password"}
	cfg, err := LoadConfig(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PollInterval != 2*time.Second || cfg.NetworkMargin != 1500*time.Millisecond || len(cfg.Accounts) != 2 {
		t.Fatalf("read %+v", cfg)
	}
	ant, bee := cfg.Accounts[0], cfg.Accounts[1]
	if ant.Credentials != (hivegame.Credentials{Email: "ant@example.org", Password: "ant's password"}) ||
		bee.Credentials != (hivegame.Credentials{Email: "bee@example.org", Password: "bee's password"}) {
		t.Errorf("credentials not read from the file and the environment")
	}
	p := ant.Policy
	if ant.Backend != "uhp:nokamute uhp" || ant.MoveTime != 5*time.Second || ant.Depth != 3 || p.Rated == nil || *p.Rated ||
		len(p.TimeKinds) != 2 || p.TimeKinds[0] != hivegame.RealTime || p.MinBase != 5*time.Minute || p.MaxGames != 3 {
		t.Errorf("antbot read as %+v", ant)
	}
	if c := ant.Challenge; c == nil || c.Opponent != "beebot" || c.Time.Kind != hivegame.RealTime || c.Time.BaseMinutes != 10 || c.Total != 2 {
		t.Errorf("antbot's challenge read as %+v", c)
	}
	if _, err := New(cfg, Deps{}); err != nil {
		t.Errorf("New of the file's configuration: %v", err)
	}
	// Printed, the configuration shows no password.
	if s := fmt.Sprintf("%+v %v", cfg, cfg); strings.Contains(s, "password") {
		t.Errorf("the configuration prints a password: %s", s)
	}

	for name, text := range map[string]string{
		"a misspelt setting":        `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "movetime": "1s"}]}`,
		"no credentials":            `{"accounts": [{"name": "x"}]}`,
		"two sources":               `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "email_env": "BEE_EMAIL", "password_env": "BEE_PASSWORD"}]}`,
		"an unset variable":         `{"accounts": [{"name": "x", "email_env": "BEE_EMAIL", "password_env": "NOT_SET"}]}`,
		"a bad duration":            `{"poll_interval": 5, "accounts": []}`,
		"a bad rated":               `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "policy": {"rated": "sometimes"}}]}`,
		"a challenge with no clock": `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "challenge": {"game_type": "Base"}}]}`,
	} {
		if _, err := LoadConfig(write("bad.json", text), func(k string) string { return env[k] }); err == nil {
			t.Errorf("%s: read without an error", name)
		} else if strings.Contains(err.Error(), "password") && !strings.Contains(err.Error(), "password_env") && !strings.Contains(err.Error(), "PASSWORD") {
			t.Errorf("%s: the error tells the password: %v", name, err)
		}
	}
	// A file that reads is still checked by New.
	for name, text := range map[string]string{
		"an unknown backend":    `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "backend": "chess:stockfish"}]}`,
		"a game type unknown":   `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "policy": {"game_types": ["Chess"]}}]}`,
		"two of one name":       `{"accounts": [{"name": "x", "credentials_file": "ant.credentials"}, {"name": "X", "credentials_file": "ant.credentials"}]}`,
		"a challenge of Base+M": `{"accounts": [{"name": "x", "credentials_file": "ant.credentials", "challenge": {"game_type": "Base+M", "time_control": "Untimed"}}]}`,
		"no account":            `{"accounts": []}`,
	} {
		cfg, err := LoadConfig(write("bad.json", text), func(k string) string { return env[k] })
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := New(cfg, Deps{}); err == nil {
			t.Errorf("%s: New took it", name)
		}
	}
}

// A credentials file is two lines; its text is never in an error.
func TestReadCredentials(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c")
	for text, ok := range map[string]bool{
		"me@example.org\nhunter2\n": true, "me@example.org\r\nhunter2": true,
		"hunter2\n": false, "me\n\nhunter2\n": false, "me\nhunter2\nmore\n": false, "me\n \n": false,
	} {
		os.WriteFile(path, []byte(text), 0o600)
		c, err := ReadCredentials(path)
		if ok != (err == nil) {
			t.Errorf("%q: %+v, %v", text, c, err)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: the error tells the password: %v", text, err)
		}
		if ok && (c.Email != "me@example.org" || c.Password != "hunter2") {
			t.Errorf("%q: read %q and %q", text, c.Email, c.Password)
		}
	}
}

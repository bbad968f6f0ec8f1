package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// NewCmdBench returns the bench command group. loadF is bench load's run
// function (see NewCmdBenchLoad); nil runs the load.
func NewCmdBench(loadF func(cmd *cobra.Command, cfg loadConfig) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure hivebridge",
	}
	cmd.AddCommand(NewCmdBenchLoad(loadF), NewCmdBenchSearch(nil))
	return cmd
}

// loadConfig holds the flags of bench load.
type loadConfig struct {
	url      string
	sessions int
	duration time.Duration
	token    string
	think    time.Duration
	depth    int
	gameType string        // --gametype as given
	game     core.GameType // --gametype read
	ramp     time.Duration
	timeline time.Duration // report the latencies of each window this long; 0 does not
}

// NewCmdBenchLoad returns bench load: many WebSocket sessions playing games
// against a hivebridge daemon at once. runF runs it with the configuration
// the flags give; nil plays (runLoad), and a test passes its own to check
// the flags without dialling a daemon.
func NewCmdBenchLoad(runF func(cmd *cobra.Command, cfg loadConfig) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, cfg loadConfig) error {
			return runLoad(cmd.Context(), cmd.OutOrStdout(), cfg)
		}
	}
	var cfg loadConfig
	cmd := &cobra.Command{
		Use:   "load --url ws://HOST:PORT/uhp --sessions N --duration D",
		Short: "Play games against a daemon from many WebSocket sessions at once",
		Long: `Opens N WebSocket sessions to a hivebridge daemon, and in each plays games:
bestmove depth D, then play the move it answered, until the game ends, then a
new game (at once: a game's end is not followed by a pause); each session
pauses --think (with jitter) between the commands of a game, as a viewer
does. At the end it reports the commands per second, the latency
percentiles of the commands (all of them, those sent once every session had
started, and each command's own: newgame, bestmove, play), the errors, and
the daemon's resident memory (from its /metrics). --timeline 5s adds the
percentiles of each 5 s, to tell a tail spread over the run from one of a
few stalls.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			gt, err := uhp.ParseGameType(cfg.gameType)
			if err != nil {
				return err
			}
			cfg.game = gt
			return runF(cmd, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.url, "url", "ws://127.0.0.1:8080/uhp", "the daemon's WebSocket address")
	f.IntVar(&cfg.sessions, "sessions", 100, "sessions at once")
	f.DurationVar(&cfg.duration, "duration", 30*time.Second, "how long to play")
	f.StringVar(&cfg.token, "token", "", "the daemon's bearer token, if it wants one")
	f.DurationVar(&cfg.think, "think", time.Second, "mean pause between a session's commands")
	f.IntVar(&cfg.depth, "depth", 1, "the depth of each bestmove")
	f.StringVar(&cfg.gameType, "gametype", "Base+MLP", "the game type played")
	f.DurationVar(&cfg.ramp, "ramp", 5*time.Second, "spread the sessions' starts over this long")
	f.DurationVar(&cfg.timeline, "timeline", 0, "also report the latencies of each window this long")
	return cmd
}

// loadStats gathers what the sessions measured.
type loadStats struct {
	start   time.Time
	mu      sync.Mutex
	samples []loadSample
	errors  map[string]int
	games   int
}

// A loadSample is one command's latency, when it was sent from the
// load's start, and the command (its first word: newgame, bestmove, play).
type loadSample struct {
	at, took time.Duration
	command  string
}

func (s *loadStats) record(command string, sent time.Time, took time.Duration) {
	command, _, _ = strings.Cut(command, " ")
	s.mu.Lock()
	s.samples = append(s.samples, loadSample{sent.Sub(s.start), took, command})
	s.mu.Unlock()
}

// latencies returns the sorted latencies of the commands sent in [from, to)
// that command names, or of all of them when it is empty.
func (s *loadStats) latencies(from, to time.Duration, command string) []time.Duration {
	var l []time.Duration
	for _, x := range s.samples {
		if x.at >= from && x.at < to && (command == "" || x.command == command) {
			l = append(l, x.took)
		}
	}
	slices.Sort(l)
	return l
}

// percentiles formats the p50, p90, p99 and maximum of sorted latencies.
func percentiles(l []time.Duration) string {
	pct := func(p float64) time.Duration {
		if len(l) == 0 {
			return 0
		}
		return l[min(len(l)-1, int(p*float64(len(l))))].Round(time.Microsecond)
	}
	return fmt.Sprintf("p50=%s p90=%s p99=%s max=%s", pct(0.5), pct(0.9), pct(0.99), pct(1))
}

func (s *loadStats) fail(err error) {
	s.mu.Lock()
	msg := err.Error()
	if len(msg) > 80 {
		msg = msg[:80]
	}
	s.errors[msg]++
	s.mu.Unlock()
}

// runLoad plays from cfg.sessions sessions for cfg.duration after the
// ramp, then writes what they measured to out.
func runLoad(ctx context.Context, out io.Writer, cfg loadConfig) error {
	stats := &loadStats{errors: map[string]int{}, start: time.Now()}
	ctx, cancel := context.WithTimeout(ctx, cfg.ramp+cfg.duration)
	defer cancel()
	header := http.Header{}
	if cfg.token != "" {
		header.Set("Authorization", "Bearer "+cfg.token)
	}
	var wg sync.WaitGroup
	for i := range cfg.sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			delay := time.Duration(0)
			if cfg.sessions > 1 {
				delay = cfg.ramp * time.Duration(i) / time.Duration(cfg.sessions)
			}
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return
			}
			loadSession(ctx, cfg, header, stats, uint64(i))
		}()
	}
	wg.Wait()
	elapsed := time.Since(stats.start)
	nerr := 0
	for _, n := range stats.errors {
		nerr += n
	}
	all := stats.latencies(0, elapsed, "")
	fmt.Fprintf(out, "sessions=%d duration=%s commands=%d games=%d errors=%d\n", cfg.sessions, elapsed.Round(time.Millisecond), len(all), stats.games, nerr)
	fmt.Fprintf(out, "commands/s=%.0f %s\n", float64(len(all))/cfg.duration.Seconds(), percentiles(all))
	fmt.Fprintf(out, "after the ramp: %s\n", percentiles(stats.latencies(cfg.ramp, elapsed, "")))
	for _, command := range []string{"newgame", "bestmove", "play"} {
		l := stats.latencies(0, elapsed, command)
		fmt.Fprintf(out, "command %s commands=%d %s\n", command, len(l), percentiles(l))
	}
	if cfg.timeline > 0 {
		for from := time.Duration(0); from < elapsed; from += cfg.timeline {
			l := stats.latencies(from, from+cfg.timeline, "")
			fmt.Fprintf(out, "window %s-%s commands=%d %s\n", from, from+cfg.timeline, len(l), percentiles(l))
		}
	}
	for msg, n := range stats.errors {
		fmt.Fprintf(out, "error %dx: %s\n", n, msg)
	}
	if rss, err := daemonRSS(cfg); err == nil {
		fmt.Fprintf(out, "daemon resident memory=%.1f MB\n", rss/1e6)
	}
	return nil
}

// loadSession plays games on one WebSocket session until ctx ends.
func loadSession(ctx context.Context, cfg loadConfig, header http.Header, stats *loadStats, seed uint64) {
	dialer := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, _, err := dialer.DialContext(ctx, cfg.url, header)
	if err != nil {
		if ctx.Err() == nil {
			stats.fail(err)
		}
		return
	}
	defer conn.Close()
	go func() {
		<-ctx.Done()
		conn.SetReadDeadline(time.Now())
	}()
	if _, _, err := conn.ReadMessage(); err != nil { // the info answer
		stats.fail(err)
		return
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	do := func(command string) ([]string, error) {
		sent := time.Now()
		if err := conn.WriteMessage(websocket.TextMessage, []byte(command)); err != nil {
			return nil, err
		}
		_, data, err := conn.ReadMessage()
		if err != nil {
			return nil, err
		}
		stats.record(command, sent, time.Since(sent))
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) == 0 || lines[len(lines)-1] != "ok" {
			return nil, fmt.Errorf("answer without ok: %q", data)
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "err ") || strings.HasPrefix(l, "invalidmove ") {
				return nil, errors.New(l)
			}
		}
		return lines[:len(lines)-1], nil
	}
	pause := func() bool {
		jitter := time.Duration(rng.Int64N(int64(cfg.think) + 1))
		select {
		case <-time.After(cfg.think/2 + jitter):
			return true
		case <-ctx.Done():
			return false
		}
	}
	for ctx.Err() == nil {
		lines, err := do("newgame " + uhp.FormatGameType(cfg.game))
		if err != nil {
			if ctx.Err() == nil {
				stats.fail(err)
			}
			return
		}
		state := lines[0]
		for ctx.Err() == nil && (strings.Contains(state, ";InProgress;") || strings.Contains(state, ";NotStarted;")) {
			if !pause() {
				return
			}
			answer, err := do("bestmove depth " + strconv.Itoa(cfg.depth))
			if err != nil {
				if ctx.Err() == nil {
					stats.fail(err)
				}
				return
			}
			if !pause() {
				return
			}
			played, err := do("play " + answer[len(answer)-1])
			if err != nil {
				if ctx.Err() == nil {
					stats.fail(err)
				}
				return
			}
			state = played[0]
		}
		stats.mu.Lock()
		stats.games++
		stats.mu.Unlock()
	}
}

// daemonRSS reads the daemon's resident memory from its /metrics.
func daemonRSS(cfg loadConfig) (float64, error) {
	u, err := url.Parse(cfg.url)
	if err != nil {
		return 0, err
	}
	u.Scheme = strings.Replace(strings.Replace(u.Scheme, "wss", "https", 1), "ws", "http", 1)
	u.Path, u.RawQuery = "/metrics", ""
	req, _ := http.NewRequest("GET", u.String(), nil)
	if cfg.token != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.token)
	}
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "process_resident_memory_bytes "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, errors.New("no process_resident_memory_bytes in /metrics")
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/pgtest"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/translate/archive"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// proc is hivebridge in a process of its own (this test binary run as
// hivebridge), so that it can be killed outright; its standard error comes
// a line at a time.
type proc struct {
	cmd    *exec.Cmd
	stdout *syncbuf.Buffer
	stderr *syncbuf.Buffer
	lines  chan string // standard error's lines, until it closes
	exited chan struct{}
}

// startProc starts hivebridge with args; the test kills it at its end if
// it still runs.
func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	p := &proc{cmd: cmd, stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, lines: make(chan string, 1000), exited: make(chan struct{})}
	cmd.Stdout = p.stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.stderr.Write([]byte(sc.Text() + "\n"))
			select {
			case p.lines <- sc.Text():
			default: // nobody is waiting for lines any more
			}
		}
		close(p.lines)
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.kill(t) })
	return p
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill(t *testing.T) {
	p.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		t.Errorf("%v did not die of SIGKILL within 10s", p.cmd.Args[1:])
	}
}

// stop sends SIGSTOP and waits until the process is stopped (Linux's
// /proc/PID/stat says so): a signal is delivered asynchronously.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGSTOP)
	stat := fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
		b, err := os.ReadFile(stat)
		if err != nil {
			t.Fatalf("%v: %v", p.cmd.Args[1:], err)
		}
		// The state follows the command's name, in parentheses.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && bytes.HasPrefix(b[i+1:], []byte(" T")) {
			return
		}
	}
	t.Fatalf("%v did not stop within 10s of SIGSTOP", p.cmd.Args[1:])
}

// await returns the submatches of the first line of standard error that
// matches re, failing the test after timeout or at the process's exit.
func (p *proc) await(t *testing.T, re *regexp.Regexp, timeout time.Duration) []string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				t.Fatalf("%v exited without a line matching %s:\n%s", p.cmd.Args[1:], re, p.stderr.String())
			}
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		case <-deadline:
			t.Fatalf("%v: no line matching %s within %s:\n%s", p.cmd.Args[1:], re, timeout, p.stderr.String())
		}
	}
}

// exit waits for the process to exit by itself, and fails the test unless
// it exits with code within timeout.
func (p *proc) exit(t *testing.T, timeout time.Duration, code int) {
	t.Helper()
	go func() {
		for range p.lines { // drained, so that the process never blocks on standard error
		}
	}()
	select {
	case <-p.exited:
		if got := p.cmd.ProcessState.ExitCode(); got != code {
			t.Errorf("%v exited %d, want %d:\n%s", p.cmd.Args[1:], got, code, p.stderr.String())
		}
	case <-time.After(timeout):
		t.Errorf("%v did not exit within %s:\n%s", p.cmd.Args[1:], timeout, p.stderr.String())
	}
}

// TestDistributedMatchKilledWorker: a coordinator and three workers, each
// a process, play a test of 12 game pairs in PostgreSQL; one worker is
// killed with SIGKILL in the middle of a pair. Its lease runs out, another
// worker plays that pair again, and the test is done with every pair
// counted once: its counts (wins, draws, losses and the pentanomial) are
// those of the archive's games of the pairs it counted, and the
// coordinator's table says so.
func TestDistributedMatchKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL and hivebridge processes")
	}
	began := time.Now()
	db := pgtest.Start(t).URL
	const games = 24
	creator := startProc(t, "match", "--db", db, "--distributed", "--white", "native", "--black", "native",
		"--white-name", "A", "--black-name", "B", "--white-tc", "depth=2", "--black-tc", "depth=1",
		"--white-option", "HashMB=1", "--black-option", "HashMB=1",
		"--games", strconv.Itoa(games), "--random-plies", "4", "--seed", "3", "--poll", "100ms")
	id, _ := strconv.ParseInt(creator.await(t, regexp.MustCompile(`^test (\d+) created`), 30*time.Second)[1], 10, 64)
	// Ctrl-C on the coordinator leaves the test in the database, where
	// another follows it.
	creator.cmd.Process.Signal(os.Interrupt)
	creator.await(t, regexp.MustCompile(`test \d+ goes on in the database; follow it again with --distributed --test \d+`), 30*time.Second)
	creator.exit(t, 30*time.Second, 1)
	if t.Failed() {
		return
	}
	coordinator := startProc(t, "match", "--db", db, "--distributed", "--test", strconv.FormatInt(id, 10), "--poll", "100ms")
	coordinator.await(t, regexp.MustCompile(`^following test \d+`), 30*time.Second)

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)

	worker := func(name string) *proc {
		return startProc(t, "worker", "--db", db, "--name", name, "--lease", "2s", "--poll", "100ms", "--exit-idle")
	}
	victim := worker("victim")
	others := []*proc{worker("w1"), worker("w2")}
	// Killed once the first game of a pair is over and the second is in
	// the archive, in play: the pair is the victim's, played half, not
	// reported. A game here takes tens of milliseconds, so the pair is
	// looked at only while the victim is stopped (SIGSTOP), and again after
	// each millisecond it is let run (SIGCONT), until its second game is
	// caught in play or the pair has left the victim's hands; then the
	// next pair it starts is watched. (Polling the archive while the victim
	// ran could miss every game it had left to play: once, under load, it
	// did.)
	var (
		killed        int
		inPlay        int64 // the victim's second game, in the archive's own tables
		state, holder string
		claims        int
	)
	// halfPlayed stops the victim and looks at the pair: caught, it
	// leaves the victim stopped; else it lets it run again.
	halfPlayed := func() (caught, gone bool) {
		victim.stop(t)
		defer func() {
			if !caught {
				victim.cmd.Process.Signal(syscall.SIGCONT)
			}
		}()
		if err := conn.QueryRow(ctx, `SELECT state, worker, claims FROM match_pairs WHERE test = $1 AND pair = $2`, id, killed).
			Scan(&state, &holder, &claims); err != nil {
			t.Fatal(err)
		}
		if state != "leased" || holder != "victim" {
			return false, true
		}
		err := conn.QueryRow(ctx, `SELECT g.id FROM games g JOIN owners o ON o.id = g.owner
			WHERE o.pid = $1 AND g.status = 'playing'`, victim.cmd.Process.Pid).Scan(&inPlay)
		return err == nil, false
	}
	for pairs := 1; ; pairs++ {
		m := victim.await(t, regexp.MustCompile(`^test \d+ pair (\d+): game (\d*[02468]) `), 30*time.Second)
		killed, _ = strconv.Atoi(m[1])
		caught, gone := false, false
		for deadline := time.Now().Add(10 * time.Second); !caught && !gone && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			caught, gone = halfPlayed()
		}
		if caught {
			break
		}
		if pairs == games/2 {
			t.Fatalf("no pair of the victim's caught half played; the last, %d: %s by %q", killed, state, holder)
		}
	}
	victim.kill(t)

	coordinator.exit(t, 60*time.Second, 0)
	for _, w := range others {
		w.exit(t, 30*time.Second, 0)
	}
	if t.Failed() {
		return
	}

	if err := conn.QueryRow(ctx, `SELECT state, worker, claims FROM match_pairs WHERE test = $1 AND pair = $2`, id, killed).
		Scan(&state, &holder, &claims); err != nil {
		t.Fatal(err)
	}
	if state != "done" || holder == "victim" || claims < 2 {
		t.Errorf("the killed pair %d: %s by %q, claimed %d times; want it played again, by another worker", killed, state, holder, claims)
	}
	tests, err := referee.OpenTests(ctx, db, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer tests.Close()
	st, err := tests.Status(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != referee.TestDone || st.PairsDone != games/2 || len(st.Played) != games || len(st.Leases) != 0 {
		t.Fatalf("the test at the end: %s, %d pairs done, %d games, %d leases; want it done with its %d games", st.State, st.PairsDone, len(st.Played), len(st.Leases), games)
	}

	// The counts again, from the archive's games of the counted pairs.
	store := archivetest.Read(t, db)
	var fromArchive referee.Stats
	counted := map[int64]bool{}
	for k := range games / 2 {
		var scores [2]float64
		for j := range 2 {
			i := 2*k + j
			g, err := store.Get(ctx, st.ArchiveIDs[i])
			if err != nil {
				t.Fatalf("game %d: archive id %d: %v", i, st.ArchiveIDs[i], err)
			}
			counted[g.ID] = true
			aWhite := g.White == "A"
			if aWhite != (j == 0) || g.Status != archive.Finished || g.Source != "match" {
				t.Fatalf("game %d in the archive: %+v; want a finished match game, A White in the pair's first", i, g)
			}
			state, err := core.ParseGameState(g.Result)
			if err != nil {
				t.Fatal(err)
			}
			rec := referee.GameRecord{Index: i, AWhite: aWhite, Result: state.Result()}
			fromArchive.Add(rec)
			scores[j] = rec.AScore()
		}
		fromArchive.Pairs.Add(scores[0], scores[1])
	}
	if fromArchive != st.Stats {
		t.Errorf("the test counted %+v; its games in the archive give %+v", st.Stats, fromArchive)
	}
	// The victim's first game of the killed pair is in the archive, and
	// counted nowhere; its game in play was marked interrupted by the
	// worker that claimed the pair again.
	uncounted := 0
	for _, g := range archivetest.AllGames(t, store) {
		if !counted[g.ID] {
			uncounted++
		}
		switch {
		case g.ID == inPlay && g.Status != archive.Interrupted:
			t.Errorf("the victim's game in play: %+v; want it marked interrupted", g)
		case g.Status == archive.Playing:
			t.Errorf("game %d is still in play: %+v", g.ID, g)
		}
	}
	if uncounted < 2 || counted[inPlay] {
		t.Errorf("%d archived games not counted; want the victim's two at least", uncounted)
	}

	// The coordinator's table is the test's.
	out := coordinator.stdout.String()
	total := st.Stats.Total
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^total\s+` + strconv.Itoa(games) + `\s+` + strconv.Itoa(total.Wins) + `\s+` + strconv.Itoa(total.Losses) + `\s+` + strconv.Itoa(total.Draws) + `\s`),
		regexp.MustCompile(regexp.QuoteMeta(st.Stats.Pairs.String())),
		regexp.MustCompile(`(?m)^Test ` + strconv.FormatInt(id, 10) + `: done; workers: `),
	} {
		if !want.MatchString(out) {
			t.Errorf("the coordinator's table has no %s:\n%s", want, out)
		}
	}
	// And match --status shows it, with each worker's games.
	root := NewCmdRoot()
	var status bytes.Buffer
	root.SetOut(&status)
	root.SetErr(&status)
	root.SetArgs([]string{"match", "--db", db, "--status", strconv.FormatInt(id, 10)})
	if err := root.Execute(); err != nil {
		t.Fatalf("match --status: %v\n%s", err, status.String())
	}
	for _, want := range []string{"Test " + strconv.FormatInt(id, 10) + ": done", st.Stats.Pairs.String(),
		fmt.Sprintf("W/D/L (A): %d/%d/%d", total.Wins, total.Draws, total.Losses), "Games: 24 of 24 (12 of 12 pairs); pairs in play: 0"} {
		if !strings.Contains(status.String(), want) {
			t.Errorf("match --status says no %q:\n%s", want, status.String())
		}
	}
	for _, w := range st.Workers {
		if !regexp.MustCompile(`(?m)^` + w.Worker + `\s+` + strconv.Itoa(w.Pairs) + `\s`).MatchString(status.String()) {
			t.Errorf("match --status has no line for worker %s's %d pairs:\n%s", w.Worker, w.Pairs, status.String())
		}
	}
	t.Logf("test %d: %d games in %s; pair %d killed mid-way and played again; %s",
		id, games, time.Since(began).Round(time.Millisecond), killed, st.Stats.Pairs)
}

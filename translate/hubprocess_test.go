package translate_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/translate"
)

// startHubFake starts this test binary as a fake Hub engine in the given
// mode, and checks at the end of the test that none of its processes is
// left. It returns the directory of the fake's records.
func startHubFake(t *testing.T, mode string) (*translate.HubProcess, *syncbuf.Buffer, string) {
	t.Helper()
	return startFakeWith(t, mode, "StartHub", fakeengine.SetenvHub, translate.StartHub)
}

// received returns the lines each run of the fake read, in the order the
// runs started.
func received(t *testing.T, dir string) [][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "lines-*"))
	slices.SortFunc(files, func(a, b string) int {
		ia, _ := os.Stat(a)
		ib, _ := os.Stat(b)
		return ia.ModTime().Compare(ib.ModTime())
	})
	var runs [][]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, strings.Split(strings.TrimSpace(string(b)), "\n"))
	}
	return runs
}

// lastLines returns the last n lines the last run of the fake read.
func lastLines(t *testing.T, dir string, n int) string {
	t.Helper()
	runs := received(t, dir)
	if len(runs) == 0 {
		t.Fatal("no run of the fake recorded anything")
	}
	run := runs[len(runs)-1]
	return strings.Join(run[max(len(run)-n, 0):], "\n")
}

// TestHubEngineHandshakeAndSearches goes through the handshake, then
// searches with every kind of limit, checking what the engine is sent.
func TestHubEngineHandshakeAndSearches(t *testing.T) {
	p, _, dir := startHubFake(t, "good")
	ctx := context.Background()
	if info := p.Info(); info.ID != "fake good" || info.Expansions != core.AllExpansions {
		t.Fatalf("Info = %+v", info)
	}
	var names []string
	for _, o := range p.Options() {
		names = append(names, o.Name+":"+string(o.Type)+"="+o.Value())
	}
	// The string parameter book-file cannot be a UHP option.
	if got := strings.Join(names, " "); got != "variant:enum=Base threads:int=1 hash:int=16 book:bool=True contempt:double=0" {
		t.Fatalf("options %s", got)
	}
	if got := strings.Join(received(t, dir)[0], "|"); got != "hub" {
		t.Fatalf("sent %q before the first search, want hub alone (init waits for the options)", got)
	}

	g := uhptest.Load(t, midgame)
	if err := p.NewGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var reported []engine.Progress
	m, err := p.BestMove(ctx, engine.Limit{Depth: 3}, func(p engine.Progress) { reported = append(reported, p) })
	if err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove = %v, %v", m, err)
	}
	// The info line's fields, read back: depth=3 score=993 nodes=12345
	// time=0.25 nps=0.049 and a PV of two moves, the first the best.
	if len(reported) != 1 {
		t.Fatalf("reported %+v, want the one info line", reported)
	}
	r := reported[0]
	if r.Move != m || r.Depth != 3 || r.Score != engine.WinIn(7) || r.Nodes != 12345 || r.Elapsed != 250*time.Millisecond || r.NPS != 49000 || len(r.PV) != 2 || r.PV[0] != m {
		t.Errorf("reported %+v, want the info line's depth, score, nodes, time, nps and pv", r)
	}
	want := "hub\ninit\nnew-game\npos variant=Base+MLP moves=\"wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ-\"\nlevel depth=3\ngo think"
	if got := lastLines(t, dir, 6); got != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
	// The same game goes on: no new-game, no init.
	g.Play(m)
	p.Play(ctx, m)
	if _, err := p.BestMove(ctx, engine.Limit{Time: 250 * time.Millisecond}, nil); err != nil {
		t.Fatal(err)
	}
	if got := lastLines(t, dir, 3); !strings.HasPrefix(got, "pos ") || !strings.HasSuffix(got, "\nlevel move-time=0.25\ngo think") {
		t.Errorf("sent\n%s", got)
	}
	if _, err := p.BestMove(ctx, engine.Limit{Depth: 4, Time: 2 * time.Second}, nil); err != nil {
		t.Fatal(err)
	}
	if got := lastLines(t, dir, 2); got != "level depth=4 move-time=2\ngo think" {
		t.Errorf("sent\n%s", got)
	}
	// Taken back: still the same game.
	g.Undo()
	p.Undo(ctx, 1)
	if m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove after undo = %v, %v", m, err)
	}
	if got := lastLines(t, dir, 4); strings.Contains(got, "new-game") {
		t.Errorf("new-game sent after an undo:\n%s", got)
	}
	// Another game: new-game.
	g = uhptest.Load(t, "Base+L;InProgress;White[2];wS1;bL wS1/")
	p.NewGame(ctx, g)
	if m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove in another game = %v, %v", m, err)
	}
	if got := lastLines(t, dir, 4); !strings.HasPrefix(got, "new-game\npos variant=Base+L ") {
		t.Errorf("sent\n%s", got)
	}
	// Forget: the same game, but the next search starts with new-game,
	// which clears the engine's tables.
	if err := p.Forget(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if got := lastLines(t, dir, 4); !strings.HasPrefix(got, "new-game\npos variant=Base+L ") {
		t.Errorf("after Forget, sent\n%s", got)
	}

	// No limit is level infinite, and cancelling stops it: the move the
	// engine answers stop with is returned.
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	m, err = p.BestMove(cctx, engine.Limit{}, nil)
	if err != nil || m != firstLegal(g) {
		t.Fatalf("a stopped infinite search = %v, %v", m, err)
	}
	if got := lastLines(t, dir, 3); got != "level infinite\ngo think\nstop" {
		t.Errorf("sent\n%s", got)
	}
	if !translate.Interruptible(p) {
		t.Errorf("a Hub engine is not interruptible")
	}
}

// TestHubEngineOptions checks --engine-option against a Hub engine: names
// and values checked against the parameters it declares, set with
// set-param (and init sent again before the next search), refusals
// reported, and every setting replayed into a restarted engine.
func TestHubEngineOptions(t *testing.T) {
	p, _, dir := startHubFake(t, "crash")
	err := translate.ApplyOptions(p, []string{"Hash=99999"})
	if err == nil || !strings.Contains(err.Error(), "option hash takes a whole number from 1 to 1024") {
		t.Fatalf("an out-of-range value: %v", err)
	}
	err = translate.ApplyOptions(p, []string{"ponder=true"})
	if err == nil || !strings.Contains(err.Error(), "fake crash declares no such option; valid names: variant, threads, hash, book, contempt") {
		t.Fatalf("an unknown option: %v", err)
	}
	if err := translate.ApplyOptions(p, []string{"Threads=4", "book=False", "contempt=-0.5", "variant=base+mlp"}); err != nil {
		t.Fatal(err)
	}
	want := "set-param name=threads value=4\nping\nset-param name=book value=false\nping\nset-param name=contempt value=-0.5\nping\nset-param name=variant value=Base+MLP\nping"
	if got := lastLines(t, dir, 8); got != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
	ctx := context.Background()
	g := uhptest.Load(t, midgame)
	p.NewGame(ctx, g)
	// The fake crashes at its first search; its next run gets the
	// settings again, then init.
	if _, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err == nil || !strings.Contains(err.Error(), "exited while searching; restarted") {
		t.Fatalf("BestMove of a crashing engine: %v", err)
	}
	if m, err := p.BestMove(ctx, engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
		t.Fatalf("BestMove after the restart = %v, %v", m, err)
	}
	runs := received(t, dir)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	got := strings.Join(runs[1][:7], "\n")
	want = "hub\nset-param name=threads value=4\nset-param name=book value=false\nset-param name=contempt value=-0.5\nset-param name=variant value=Base+MLP\nping\ninit"
	if got != want {
		t.Errorf("the restarted engine was sent\n%s\nwant\n%s", got, want)
	}
	// A setting after init is followed by init again.
	if err := translate.ApplyOptions(p, []string{"threads=2"}); err != nil {
		t.Fatal(err)
	}
	p.BestMove(ctx, engine.Limit{Depth: 1}, nil)
	if got := lastLines(t, dir, 6); !strings.HasPrefix(got, "set-param name=threads value=2\nping\ninit\n") {
		t.Errorf("sent\n%s", got)
	}

	refusing, _, _ := startHubFake(t, "refuse")
	err = translate.ApplyOptions(refusing, []string{"threads=2"})
	if err == nil || !strings.Contains(err.Error(), "engine fake refuse refused set-param name=threads value=2: I will not set threads") {
		t.Fatalf("a refused parameter: %v", err)
	}
}

// TestHubMisbehavingEngines shows that each misbehaviour gives the caller
// a clear error (or, for an engine that was only slow or needed stop, the
// move), and that the next search works with the game intact.
func TestHubMisbehavingEngines(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		wantErr string // "" when the move still arrives
	}{
		{"crash", "exited while searching; restarted"},
		{"hang", "did not answer go think within 400ms; restarted"},
		{"deaf", "exited while searching; restarted"},
		{"garbage", `answered go think with "banana", which is not a legal move`},
		{"illegal", `answered go think with "pass", which is not a legal move: You can't pass when you have valid moves.`},
		{"baddone", "answered go think with a done hivebridge cannot read: done: move= is missing"},
		{"complain", `answered go think with "wS1", which is not a legal move: `},
		{"noready", "did not answer init with ready within"},
		{"slow", ""},
		{"stopped", ""},
		{"flood", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			p, logs, _ := startHubFake(t, tc.mode)
			g, took, err := searchMisbehaving(t, p, tc.wantErr)
			if tc.mode == "complain" && !strings.Contains(err.Error(), "the engine said: I cannot load that position") {
				t.Errorf("the engine's complaint is not in %v", err)
			}
			// Bounded: the time, the margin, two graces, a restart; init
			// has the start timeout.
			limit := 100*time.Millisecond + fakeengine.Timeouts().Margin + 2*fakeengine.Timeouts().Grace + 3*time.Second
			if tc.mode == "noready" {
				limit += fakeengine.Timeouts().Start
			}
			if took > limit {
				t.Errorf("BestMove took %v, more than %v", took, limit)
			}
			checkRecovered(t, p, g, logs, tc.mode)
		})
	}
}

// TestHubEngineWithoutWait fails to start within the start timeout, and a
// program that is no Hub engine fails at once.
func TestHubEngineWithoutWait(t *testing.T) {
	dir := fakeengine.SetenvHub(t, "nowait")
	checkStartFails(t, dir, "StartHub", "did not start as a Hub engine (no wait answer to hub within 300ms)", func(cfg translate.Config) error {
		_, err := translate.StartHub(context.Background(), os.Args[0], nil, cfg)
		return err
	})

	_, err := translate.StartHub(context.Background(), "true", nil, shortStart())
	if err == nil || !strings.Contains(err.Error(), "engine true exited before its answer to hub: it is not a Hub engine") {
		t.Fatalf("StartHub(true) = %v", err)
	}
}

// TestHubEngineCancelled stops a search the caller gives up on, kills an
// engine that ignores stop, and the next search works.
func TestHubEngineCancelled(t *testing.T) {
	p, _, _ := startHubFake(t, "hang")
	checkCancelled(t, p)
	if err := p.NewGame(context.Background(), core.NewGame(core.Base)); err != nil {
		t.Fatal(err)
	}
}

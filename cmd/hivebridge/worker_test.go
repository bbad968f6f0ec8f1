package main

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hivebridge/hivebridge/translate/referee"
)

// TestWorkerFlags: the worker command's flags, and its place in the root.
func TestWorkerFlags(t *testing.T) {
	got, _ := mustRun(t, NewCmdWorker, "--db", "postgres://hive@db/hive", "--engine", "new=uhp:./new --x=1", "--engine", "old=native",
		"--name", "box", "--concurrency", "3", "--lease", "5s", "--poll", "250ms", "--exit-idle")
	w := got.worker
	want := map[string]string{"new": "uhp:./new --x=1", "old": "native"}
	if got.db != "postgres://hive@db/hive" || !maps.Equal(w.Engines, want) || w.Name != "box" || w.Concurrency != 3 ||
		w.Lease != 5*time.Second || w.Poll != 250*time.Millisecond || !w.ExitIdle {
		t.Errorf("worker flags gave %+v", got)
	}
	if got, _ := mustRun(t, NewCmdWorker, "--db", "postgresql://db/hive"); got.worker.Name == "" || got.worker.Lease != time.Minute {
		t.Errorf("worker's defaults: %+v, want a name and a lease of a minute", got.worker)
	}
	refused(t, NewCmdWorker, map[string][]string{
		"postgres://":                        {},
		"a PostgreSQL database":              {"--db", "games.db"},
		"want NAME=SPEC":                     {"--db", "postgres://db/hive", "--engine", "native"},
		"--engine \"a=nonsense:x\"":          {"--db", "postgres://db/hive", "--engine", "a=nonsense:x"},
		"--concurrency must be at least 1":   {"--db", "postgres://db/hive", "--concurrency", "0"},
		"--lease must be 100ms or more":      {"--db", "postgres://db/hive", "--lease", "10ms"},
		"unknown flag":                       {"--db", "postgres://db/hive", "--white", "native"},
		"unknown command \"extra\"":          {"--db", "postgres://db/hive", "extra"},
		"--lease must be 100ms or more, and": {"--db", "postgres://db/hive", "--poll", "0s"},
	})
	var names []string
	for _, c := range NewCmdRoot().Commands() {
		names = append(names, c.Name())
	}
	if !slices.Contains(names, "worker") {
		t.Errorf("the root has no worker command: %v", names)
	}
}

// TestDistributedFlags: match's flags of a distributed test, and what it
// refuses before it reaches the database.
func TestDistributedFlags(t *testing.T) {
	got, _ := mustRun(t, NewCmdMatch, "--distributed", "--db", "postgres://db/hive", "--white", "native", "--black", "native",
		"--white-name", "new", "--black-name", "old", "--games", "10", "--poll", "3s")
	if !got.flags.test.distributed || got.flags.test.poll != 3*time.Second || got.referee.WhiteName != "new" || got.referee.BlackName != "old" {
		t.Errorf("match --distributed gave %+v", got.flags)
	}
	refused(t, NewCmdMatch, map[string][]string{
		"unknown command \"3\"":        {"--white", "native", "--black", "native", "3"},
		"accepts at most 1 arg(s)":     {"--status", "--db", "postgres://db/hive", "3", "4"},
		"give --distributed as well":   {"--test", "3", "--db", "postgres://db/hive"},
		"--status reads a distributed": {"--status", "--db", "games.db"},
		"keeps the test in PostgreSQL": {"--distributed", "--test", "3", "--db", "games.db"},
		"or neither":                   {"--white", "native", "--black", "native", "--white-name", "new"},
		"--poll must be a positive":    {"--white", "native", "--black", "native", "--poll", "0s"},
	})
	for want, f := range map[string]matchFlags{
		"keeps the test in PostgreSQL": {db: "games.db"},
		"takes no --out, --pgn":        {db: "postgres://db/hive", out: "games.tsv"},
	} {
		f.test.distributed = true
		err := runDistributed(&cobra.Command{}, matchConfig{flags: f})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--distributed with %+v: %v, want it refused: %s", f, err, want)
		}
	}
}

// TestDistributedStatusTable: match --status shows a test as OpenBench's
// test page does: the results, the pairs, Elo, the LLR against its bounds,
// each worker's games and the pairs in play.
func TestDistributedStatusTable(t *testing.T) {
	sprt := referee.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	st := referee.TestStatus{ID: 7, Games: 100,
		Settings: referee.TestSettings{White: "native", Black: "uhp:old", WhiteName: "new", BlackName: "old", TC: "depth=1",
			GameType: "Base", RandomPlies: 4, Seed: 1, MaxPlies: 400, SPRT: &sprt, Disagreement: "draw"},
		Created: time.Now().Add(-time.Minute),
		Workers: []referee.WorkerTally{{Worker: "box-1", Pairs: 3, Score: referee.Score{Wins: 4, Draws: 1, Losses: 1}}},
		Leases:  []referee.LeaseInfo{{Pair: 3, Worker: "box-2", Until: time.Now().Add(30 * time.Second), Claims: 2}}}
	st.State, st.PairsDone = referee.TestOpen, 3
	st.Stats = referee.Stats{AsWhite: referee.Score{Wins: 2, Draws: 1}, AsBlack: referee.Score{Wins: 2, Losses: 1},
		Total: referee.Score{Wins: 4, Draws: 1, Losses: 1}, Pairs: referee.PairCounts{WW: 1, WD: 1, WL: 1}}
	st.SPRT = &referee.SPRTState{Test: sprt}
	st.SPRT.Update(st.Stats)
	var out bytes.Buffer
	if err := printTestStatus(&out, st); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Test 7: open\n",
		"A = new (native) [depth=1] vs B = old (uhp:old) [depth=1]\n",
		"Openings: 4 random plies from seed 1 (Base); move cap 400 plies\n",
		"Games: 6 of 100 (3 of 50 pairs); pairs in play: 1\n",
		"W/D/L (A): 4/1/1; as White 2/1/0, as Black 2/0/1\n",
		"Ptnml(0-2): [0, 0, 1, 1, 1], WL/DD: 1/0\n",
		"(pairs), nElo ",
		"(-2.94, 2.94) [0, 10] Elo on game pairs: no verdict yet\n",
		"box-1                         3      6      4      1      1\n",
		"pair 3 in play: box-2, lease ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the status has no %q:\n%s", want, out.String())
		}
	}
}

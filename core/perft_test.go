package core_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// perftRow is one published count: the leaves of a game type's start
// position at one depth.
type perftRow struct {
	gameType core.GameType
	name     string
	depth    int
	nodes    uint64
}

// gameTypeByName maps the names the reference table uses to game types;
// the notation itself lives in protocols/uhp, which core must not import.
func gameTypeByName(name string) (core.GameType, bool) {
	t := core.Base
	base, exp, found := strings.Cut(name, "+")
	if base != "Base" || (found && exp == "") {
		return 0, false
	}
	for _, r := range exp {
		switch r {
		case 'M':
			t |= core.WithMosquito
		case 'L':
			t |= core.WithLadybug
		case 'P':
			t |= core.WithPillbug
		default:
			return 0, false
		}
	}
	return t, true
}

// readPerftTable reads testdata/perft-start.csv, a copy of the counts that
// three independent engines agree on.
func readPerftTable(t testing.TB) []perftRow {
	t.Helper()
	f, err := os.Open("../testdata/perft-start.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "gametype,") {
			continue
		}
		fields := strings.Split(line, ",")
		if len(fields) != 3 {
			t.Fatalf("bad perft row %q", line)
		}
		gt, ok := gameTypeByName(fields[0])
		depth, err1 := strconv.Atoi(fields[1])
		nodes, err2 := strconv.ParseUint(fields[2], 10, 64)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad perft row %q", line)
		}
		rows = append(rows, perftRow{gt, fields[0], depth, nodes})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 72 {
		t.Fatalf("read %d perft rows, want 72 (9 depths of 8 game types)", len(rows))
	}
	return rows
}

// TestPerftStart checks every game type's start position against the
// published counts up to depth 5 (depth 6 and beyond with -perft.deep,
// which takes minutes).
func TestPerftStart(t *testing.T) {
	maxDepth := 5
	if testing.Short() {
		maxDepth = 4
	}
	if d, err := strconv.Atoi(os.Getenv("HIVEBRIDGE_PERFT_DEPTH")); err == nil {
		maxDepth = d
	}
	for _, row := range readPerftTable(t) {
		if row.depth > maxDepth {
			continue
		}
		row := row
		t.Run(row.name+"/"+strconv.Itoa(row.depth), func(t *testing.T) {
			t.Parallel()
			g := core.NewGame(row.gameType)
			if got := g.Perft(row.depth); got != row.nodes {
				t.Errorf("perft(%s, %d) = %d, want %d", row.name, row.depth, got, row.nodes)
			}
		})
	}
}

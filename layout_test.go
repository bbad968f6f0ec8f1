// Package hivebridge_test holds the house's rules as tests: which package
// may import which (docs/architecture.md), checked on what go list reports
// of every package of the module, and what Hub may take from UHP.
package hivebridge_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/hivebridge/hivebridge"

// rule is what one package of the module may import: the packages of the
// module (directly), and the modules outside the standard library (with
// their packages).
type rule struct {
	module   []string
	external []string
}

// rules lists every package of the module and exactly what may cross into
// it; a package without a rule fails the test, so that each new one is
// given its place. The arrows point down the floors: core, then the
// engine contract, the protocols and the searcher, then translate and the
// packages beneath it, then the command.
var rules = map[string]rule{
	"core":        {},
	"core/engine": {module: []string{"core"}},

	// A protocol knows core and the engine contract; Hub uses UHP's
	// MoveString codec (TestHubTakesOnlyMoveStrings says which names).
	"protocols/uhp": {module: []string{"core", "core/engine"}, external: []string{"github.com/rs/zerolog"}},
	// hivejson's AI-module server and the daemon's listeners share which
	// Accept errors pass (internal/accept).
	"protocols/hivejson": {module: []string{"core", "core/engine", "internal/accept"}, external: []string{"github.com/rs/zerolog"}},
	"protocols/hub":      {module: []string{"core", "core/engine", "protocols/uhp"}, external: []string{"github.com/rs/zerolog"}},
	"protocols/sgf":      {module: []string{"core"}},
	"protocols/pgn":      {},
	// hivegame.com's bot API: its types, its answers' decoding and the
	// REST client, on the standard library alone.
	"protocols/hivegame": {},

	"ai":       {module: []string{"ai/nnue", "core", "core/engine"}},
	"ai/texel": {module: []string{"ai", "core"}},
	// The learned evaluation reads positions through core alone, so that
	// the searcher can use it; its trainer labels positions with the
	// searcher.
	"ai/nnue":       {module: []string{"core"}},
	"ai/nnue/train": {module: []string{"ai", "ai/nnue", "core"}},
	// dataset: the learned evaluation's training data, labelled by the
	// searcher, its games read from UHP's GameStrings.
	"ai/dataset": {module: []string{"ai", "core", "protocols/uhp"}},

	// translate: the backends, their registry and supervision, and the
	// pool; beneath it one package per job.
	"translate":         {module: []string{"ai", "core", "core/engine", "protocols/hivejson", "protocols/hub", "protocols/uhp"}, external: []string{"github.com/rs/zerolog"}},
	"translate/records": {module: []string{"core", "protocols/pgn", "protocols/sgf", "protocols/uhp"}},
	// analysis walks a game through any backend and classes its moves.
	"translate/analysis":       {module: []string{"core", "core/engine", "protocols/uhp", "translate", "translate/records"}},
	"translate/archive":        {module: []string{"core", "protocols/uhp", "translate/records"}, external: []string{"github.com/jackc/pgx/v5", "github.com/rs/zerolog", "modernc.org/sqlite"}},
	"translate/pairing":        {module: []string{"core", "core/engine", "protocols/uhp"}},
	"translate/pairing/pgpair": {module: []string{"core", "core/engine", "protocols/uhp", "translate/archive", "translate/pairing"}, external: []string{"github.com/jackc/pgx/v5", "github.com/rs/zerolog"}},
	"translate/referee":        {module: []string{"core", "core/engine", "protocols/hub", "protocols/uhp", "translate", "translate/archive"}, external: []string{"github.com/jackc/pgx/v5", "github.com/rs/zerolog"}},
	// bot plays for hivegame.com's bot accounts through any backend.
	"translate/bot":      {module: []string{"ai", "core", "core/engine", "protocols/hivegame", "protocols/uhp", "translate", "translate/archive"}, external: []string{"github.com/prometheus/client_golang", "github.com/rs/zerolog"}},
	"translate/daemon":   {module: []string{"core", "core/engine", "internal/accept", "internal/allowlist", "protocols/hivejson", "protocols/hub", "protocols/uhp", "translate", "translate/analysis", "translate/archive", "translate/pairing", "translate/pairing/pgpair", "translate/records", "translate/referee"}, external: []string{"github.com/gorilla/websocket", "github.com/prometheus/client_golang", "github.com/rs/zerolog"}},
	"internal/allowlist": {},
	"internal/accept":    {},
	"internal/syncbuf":   {},
	"internal/pgtest":    {},
	// Test set-up, imported by tests only: archivetest, each database and
	// the archive read back (the daemon's and the command's tests);
	// uhptest, games loaded from and described as GameStrings; enginetest,
	// searchers standing in for an engine in the protocols' session tests;
	// accepttest, a listener whose Accept fails (the accept loops' tests);
	// writehold, an archive's writes held up by another connection (the
	// archive's own tests and the command's: it imports no archive code).
	"internal/archivetest":       {module: []string{"internal/pgtest", "translate/archive"}},
	"internal/writehold":         {external: []string{"github.com/jackc/pgx/v5", "modernc.org/sqlite"}},
	"internal/uhptest":           {module: []string{"core", "protocols/uhp"}},
	"internal/enginetest":        {module: []string{"core", "core/engine"}},
	"internal/accept/accepttest": {},
	// hivegametest, the stand-in for hivegame.com's bot API, keeps its
	// games by core's rules and reads moves with UHP's codec; it knows
	// nothing of the client it tests (protocols/hivegame).
	"internal/hivegametest": {module: []string{"core", "protocols/uhp"}},
	"internal/fakeengine":   {module: []string{"ai", "core", "core/engine", "protocols/hub", "protocols/uhp", "translate"}},
	"cmd/hivebridge/web":    {},
	"cmd/hivebridge":        {module: []string{"*"}, external: []string{"*"}},
}

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
	Standard   bool
	Module     *struct{ Path string }
}

// goList lists the module's packages with their imports and deps.
func goList(t *testing.T) []listed {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports,Deps,Standard,Module", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var all []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	return all
}

// TestPackageRule checks every package's imports against its rule, and
// core's whole closure (go list -deps) against the standard library.
func TestPackageRule(t *testing.T) {
	all := goList(t)
	modules := map[string]string{} // package path -> its module, for packages outside this one
	for _, p := range all {
		if p.Module != nil {
			modules[p.ImportPath] = p.Module.Path
		}
	}
	seen := map[string]bool{}
	for _, p := range all {
		pkg, ours := strings.CutPrefix(p.ImportPath, module+"/")
		if !ours {
			continue
		}
		seen[pkg] = true
		r, ok := rules[pkg]
		if !ok {
			t.Errorf("%s has no rule: give it its place in rules and docs/architecture.md", pkg)
			continue
		}
		for _, imp := range p.Imports {
			if dep, inModule := strings.CutPrefix(imp, module+"/"); inModule {
				if !slices.Contains(r.module, dep) && !slices.Contains(r.module, "*") {
					t.Errorf("%s imports %s, which its rule forbids (it may import %v of the module)", pkg, dep, r.module)
				}
				continue
			}
			if mod, external := modules[imp]; external && mod != module {
				if !slices.Contains(r.external, mod) && !slices.Contains(r.external, "*") {
					t.Errorf("%s imports %s (module %s), which its rule forbids (it may import %v)", pkg, imp, mod, r.external)
				}
			}
		}
		if pkg == "core" || pkg == "core/engine" {
			for _, dep := range p.Deps {
				if mod, external := modules[dep]; external && mod != module {
					t.Errorf("%s depends on %s (through go list -deps): core knows the standard library only", pkg, dep)
				}
			}
		}
	}
	for pkg := range rules {
		if !seen[pkg] {
			t.Errorf("go list did not list %s: the rules name a package that is gone", pkg)
		}
	}
}

// hubMayTake is all that protocols/hub may take from protocols/uhp: the
// MoveString codec.
var hubMayTake = []string{"FormatMove", "ParseMove"}

// TestHubTakesOnlyMoveStrings reads protocols/hub's sources (tests apart)
// and lists every name it takes from protocols/uhp.
func TestHubTakesOnlyMoveStrings(t *testing.T) {
	files, err := filepath.Glob("protocols/hub/*.go")
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		local := ""
		for _, imp := range f.Imports {
			if imp.Path.Value == `"`+module+`/protocols/uhp"` {
				local = "uhp"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == local {
					taken[sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	var names []string
	for name := range taken {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(hubMayTake, name) {
			t.Errorf("protocols/hub takes uhp.%s: Hub may take UHP's MoveString codec (%v) and nothing else", name, hubMayTake)
		}
	}
}

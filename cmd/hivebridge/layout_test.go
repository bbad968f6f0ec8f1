package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPackageRule checks the dependency rules of the house
// (architecture.md) on the module's real imports, as go list reports
// them: core knows nothing but the standard library, the engine contract
// nothing but core, no protocol imports another except Hub's use of UHP's
// MoveString codec, and the searcher knows no protocol.
func TestPackageRule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/hivebridge/hivebridge/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/hivebridge/hivebridge/"
	// allowed lists, for each package a rule binds, the packages of the
	// module it may import; any other import of the module breaks the rule.
	allowed := map[string][]string{
		"core":               {},
		"core/engine":        {"core"},
		"protocols/uhp":      {"core", "core/engine"},
		"protocols/hivejson": {"core", "core/engine"},
		"protocols/hub":      {"core", "core/engine", "protocols/uhp"},
		"ai":                 {"core", "core/engine"},
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		may, bound := allowed[pkg]
		if !bound {
			continue
		}
		seen[pkg] = true
		for _, imp := range fields[1:] {
			dep, inModule := strings.CutPrefix(imp, module)
			if !inModule {
				if pkg == "core" && strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
					t.Errorf("core imports %s: core imports the standard library only", imp)
				}
				continue
			}
			ok := false
			for _, a := range may {
				ok = ok || dep == a
			}
			if !ok {
				t.Errorf("%s imports %s, which the rule forbids (it may import %v of the module)", pkg, dep, may)
			}
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("go list did not list %s: the rule names a package that is gone", pkg)
		}
	}
}

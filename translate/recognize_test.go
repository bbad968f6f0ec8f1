package translate_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/internal/fakeengine"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/translate"
)

// TestWrongProgram gives each kind of backend the wrong program: a Hub
// engine as a UHP one, a UHP engine as a Hub one, and a program that
// prints a banner of its own as either. Each is refused with what it looks
// like and the spec to use, from its first line, in well under the start
// timeout of ten seconds (the bound asserted is generous, for a loaded
// machine; the time taken is logged).
func TestWrongProgram(t *testing.T) {
	bin := os.Args[0]
	for _, tc := range []struct {
		name, spec string
		setenv     func(*testing.T)
		want       string
	}{
		{"hub engine as uhp", `uhp:"` + bin + `"`, func(t *testing.T) { fakeengine.SetenvHub(t, "good") },
			`engine "` + bin + `" speaks Hub, not UHP (it answered hub with "id name=fake version=good"): use the backend spec "hub:` + bin + `"`},
		{"uhp engine as hub", `hub:"` + bin + `"`, func(t *testing.T) { fakeengine.Setenv(t, "good") },
			`engine "` + bin + `" speaks UHP, not Hub (it printed "id fake good"): use the backend spec "uhp:` + bin + `"`},
		{"banner as uhp", `uhp:"` + bin + `"`, func(t *testing.T) { fakeengine.Setenv(t, "banner") },
			`engine "` + bin + `" does not speak UHP as started: it printed "BannerChess 2.0 -- type 'help' for help", where a UHP engine prints its "id <name>" line; does it need an argument to speak UHP?`},
		{"banner as hub", `hub:"` + bin + `"`, func(t *testing.T) { fakeengine.Setenv(t, "banner") },
			`engine "` + bin + `" does not speak Hub as started: it answered hub with "BannerChess 2.0 -- type 'help' for help", where a Hub engine answers "id name=..."; does it need an argument to speak Hub, as Scan needs "hub" ("hub:scan hub")?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.setenv(t)
			start := time.Now()
			_, err := translate.Open(context.Background(), tc.spec, translate.Config{Log: zerolog.Nop()})
			took := time.Since(start)
			t.Logf("refused in %v", took)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Open(%s) = %v\nwant %s", tc.spec, err, tc.want)
			}
			if took > 3*time.Second {
				t.Errorf("refused in %v, want well under the start timeout", took)
			}
		})
	}
}

// TestSlowStartingEngine starts a UHP engine that prints its info only
// after the probe was sent: it answers the probe with err after its info,
// and that answer is read and dropped, so that every later answer is the
// answer to its own command.
func TestSlowStartingEngine(t *testing.T) {
	p, _ := startFake(t, "slowstart")
	if id := p.Info().ID; id != "fake slowstart" {
		t.Errorf("ID %q", id)
	}
	g := uhptest.Load(t, midgame)
	for range 3 {
		if err := p.NewGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
		if m, err := p.BestMove(context.Background(), engine.Limit{Depth: 1}, nil); err != nil || m != firstLegal(g) {
			t.Fatalf("BestMove = %v, %v; want the first legal move", m, err)
		}
		g.Play(firstLegal(g))
	}
}

// TestSpecString writes specs that read back as the program and
// arguments they were written from.
func TestSpecString(t *testing.T) {
	for _, spec := range []string{"native", "hivejson://127.0.0.1:5000", "hivejson://127.0.0.1:5000?frame-length=utf8", "hub:scan hub"} {
		if sp, err := translate.ParseSpec(spec); err != nil || sp.String() != spec {
			t.Errorf("ParseSpec(%q).String() = %q, %v", spec, sp.String(), err)
		}
	}
	for _, words := range [][]string{
		{"mzinga"},
		{"/opt/my engine/bin", "a b", `it's`, `say "hi" \ bye`, ""},
	} {
		spec := translate.Spec{Kind: "uhp", Program: words[0], Args: words[1:]}.String()
		got, err := translate.ParseSpec(spec)
		if err != nil {
			t.Fatalf("ParseSpec(%q): %v", spec, err)
		}
		back := append([]string{got.Program}, got.Args...)
		if len(back) != len(words) {
			t.Fatalf("%q reads back as %q", spec, back)
		}
		for i := range words {
			if back[i] != words[i] {
				t.Errorf("%q reads back as %q, want %q", spec, back, words)
			}
		}
	}
}

// TestUHPEngineNamedLikeHub starts a UHP engine whose id line reads like a
// Hub one ("id fake name=odd"): printed unprompted, it is a UHP engine's,
// since a Hub engine says nothing until it is sent hub.
func TestUHPEngineNamedLikeHub(t *testing.T) {
	p, _ := startFake(t, "name=odd")
	if id := p.Info().ID; id != "fake name=odd" {
		t.Errorf("ID %q", id)
	}
}

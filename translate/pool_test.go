package translate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/translate"
)

// optionValues returns the values of an engine's options by name.
func optionValues(e translate.Engine) map[string]string {
	v := map[string]string{}
	for _, o := range e.Options() {
		v[o.Name] = o.Value()
	}
	return v
}

// TestSessionOptions gives sessions of a pool of one native engine their
// own Threads and HashMB within the operator's bounds: each session's
// values are applied to the engine for its searches, a value over the
// bound is refused, and a session that keeps the pool's values puts them
// back.
func TestSessionOptions(t *testing.T) {
	open := func(context.Context) (translate.Engine, error) {
		n := translate.NewNative()
		return n, translate.ApplyOptions(n, []string{"HashMB=4"})
	}
	pool := translate.NewPool(open, translate.PoolConfig{Limit: 1, Queue: 4, Wait: time.Minute})
	defer pool.Close(time.Second)
	first, _ := open(context.Background())
	so := pool.SessionOptions(first, map[string]int{"Threads": 2, "HashMB": 8, "Nonesuch": 3})
	pool.Add(first)

	greedy, options := so.New()
	var described []string
	for _, o := range options {
		described = append(described, strings.Join([]string{o.Name, o.Value(), o.Min, o.Max}, " "))
	}
	if got, want := strings.Join(described, "; "), "Threads 1 1 2; HashMB 4 1 8"; got != want {
		t.Fatalf("session options %q, want %q", got, want)
	}
	if err := options[1].Set("16"); err == nil || err.Error() != `option HashMB takes a whole number from 1 to 8, not "16"` {
		t.Errorf("HashMB=16 over the bound: %v", err)
	}
	if err := options[0].Set("3"); err == nil {
		t.Error("Threads=3 over the bound was accepted")
	}
	options[0].Set("2")
	options[1].Set("8")
	modest, _ := so.New()

	g := core.NewGame(core.Base)
	search := func(s engine.Searcher) map[string]string {
		t.Helper()
		if m, err := s.BestMove(context.Background(), g, engine.Limit{Depth: 1}, nil); err != nil || !g.Legal(m) {
			t.Fatalf("BestMove = %v, %v", m, err)
		}
		e, err := pool.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Release(e, false)
		return optionValues(e)
	}
	if v := search(greedy); v["Threads"] != "2" || v["HashMB"] != "8" {
		t.Errorf("after the greedy session's search the engine has %v, want Threads 2, HashMB 8", v)
	}
	if v := search(modest); v["Threads"] != "1" || v["HashMB"] != "4" {
		t.Errorf("after the modest session's search the engine has %v, want the pool's Threads 1, HashMB 4", v)
	}

	// A bound under the engine's own value lets sessions keep that value.
	low := pool.SessionOptions(first, map[string]int{"HashMB": 2})
	if _, opts := low.New(); len(opts) != 1 || opts[0].Max != "4" {
		t.Errorf("bound 2 under the engine's 4: %+v", opts)
	}
}

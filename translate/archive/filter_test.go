package archive

import (
	"strings"
	"testing"
	"time"
)

func TestParseFilter(t *testing.T) {
	f, err := ParseFilterQuery("player=native&type=Base%2BMLP&result=Draw&status=finished&since=2025-01-02&until=2025-02-01T10:00:00Z&page=2&per_page=10")
	if err != nil {
		t.Fatal(err)
	}
	want := Filter{Player: "native", GameType: "Base+MLP", Result: "Draw", Status: Finished,
		Since: time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC), Page: 2, PerPage: 10}
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
	for query, says := range map[string]string{
		"page=0":                            "page",
		"page=x":                            "page",
		"per_page=1001":                     "per_page",
		"result=won":                        "result",
		"status=lost":                       "status",
		"since=yesterday":                   "since",
		"colour=white":                      `unknown filter "colour"`,
		"player=a&player=b":                 "given 2 times",
		"since=2025-02-01&until=2025-01-01": "not after",
		"%zz":                               "malformed",
	} {
		if _, err := ParseFilterQuery(query); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want an error about %s", query, err, says)
		}
	}
}

// FuzzParseFilter: any query is read or refused, never a crash, and what
// is read is a page the store can serve.
func FuzzParseFilter(f *testing.F) {
	for _, seed := range []string{"", "player=x&page=2", "since=2025-01-01&until=2025-01-02", "per_page=1000", "result=Draw&status=playing", "%", "a=1&a=2"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, query string) {
		filter, err := ParseFilterQuery(query)
		if err != nil {
			return
		}
		if filter.Page < 1 || filter.PerPage < 1 || filter.PerPage > MaxPerPage || filter.offset() < 0 {
			t.Errorf("%q: %+v", query, filter)
		}
	})
}

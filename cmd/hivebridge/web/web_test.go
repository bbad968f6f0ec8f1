package web

import (
	"io/fs"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestHandlerServes: the page at /, its files under /assets/ with their
// types and the policy that keeps the page to the daemon, and nothing else.
func TestHandlerServes(t *testing.T) {
	h := Handler()
	for path, want := range map[string]struct {
		status int
		ctype  string
		body   string
	}{
		"/":                  {200, "text/html; charset=utf-8", "<title>hivebridge"},
		"/assets/app.js":     {200, "text/javascript; charset=utf-8", "UHPConnection"},
		"/assets/uhp.js":     {200, "text/javascript; charset=utf-8", "export class UHPConnection"},
		"/assets/archive.js": {200, "text/javascript; charset=utf-8", "export function setupArchive"},
		"/assets/records.js": {200, "text/javascript; charset=utf-8", "export function setupRecords"},
		"/assets/tests.js":   {200, "text/javascript; charset=utf-8", "export function setupTests"},
		"/assets/viewer.css": {200, "text/css; charset=utf-8", ".board"},
		"/assets/icon.svg":   {200, "image/svg+xml", "<svg"},
		"/assets/":           {404, "", ""},
		"/assets/index.html": {404, "", ""},
		"/assets/nope.js":    {404, "", ""},
		"/index.html":        {404, "", ""},
		"/uhp":               {404, "", ""},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want.status {
			t.Errorf("GET %s: %d, want %d", path, rec.Code, want.status)
			continue
		}
		if want.status != 200 {
			continue
		}
		if got := rec.Header().Get("Content-Type"); got != want.ctype {
			t.Errorf("GET %s: Content-Type %q, want %q", path, got, want.ctype)
		}
		if !strings.Contains(rec.Body.String(), want.body) {
			t.Errorf("GET %s: body lacks %q", path, want.body)
		}
		csp := rec.Header().Get("Content-Security-Policy")
		for _, directive := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'"} {
			if !strings.Contains(csp, directive) {
				t.Errorf("GET %s: the policy %q lacks %s", path, csp, directive)
			}
		}
	}
}

// TestNothingFetchedFromElsewhere: the page's files name no address but
// the SVG namespace, and every file they load is embedded.
func TestNothingFetchedFromElsewhere(t *testing.T) {
	static, err := fs.Sub(files, "static")
	if err != nil {
		t.Fatal(err)
	}
	url := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*`)
	loads := regexp.MustCompile(`(?:src|href)="([^"]+)"|from '([^']+)'|import\('([^']+)'\)`)
	fs.WalkDir(static, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range url.FindAllString(string(b), -1) {
			if u != "http://www.w3.org/2000/svg" {
				t.Errorf("%s names %s", path, u)
			}
		}
		for _, m := range loads.FindAllStringSubmatch(string(b), -1) {
			ref := m[1] + m[2] + m[3]
			ref = strings.TrimPrefix(strings.TrimPrefix(ref, "./"), "assets/")
			if _, err := fs.Stat(static, ref); err != nil {
				t.Errorf("%s loads %s, which is not embedded", path, ref)
			}
		}
		return nil
	})
}

// TestNoTokenInAddresses: the page's scripts never put the token in an
// address (proxies log them): no query parameter names it. The browser
// tests check the addresses the page asks for (TestBrowser/Token).
func TestNoTokenInAddresses(t *testing.T) {
	static, err := fs.Sub(files, "static")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := fs.Glob(static, "*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	inAddress := regexp.MustCompile(`(?i)[?&]token=|searchParams\.(set|append)\(\s*['"]token`)
	for _, path := range scripts {
		b, err := fs.ReadFile(static, path)
		if err != nil {
			t.Fatal(err)
		}
		if m := inAddress.Find(b); m != nil {
			t.Errorf("%s puts the token in an address: %s", path, m)
		}
	}
}

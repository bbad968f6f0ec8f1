// Package web is hivebridge's viewer: a page that plays Hive in a browser
// as a UHP viewer on the daemon's /uhp WebSocket. It is plain HTML, CSS and
// JavaScript modules embedded in the binary: no build step, and nothing
// fetched from anywhere but the daemon that serves it.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var files embed.FS

// AssetPrefix is the path under which the page's scripts, styles and icon
// are served, relative to the page.
const AssetPrefix = "/assets/"

// contentSecurityPolicy lets the page load only the daemon's own files and
// talk only to the daemon (its WebSocket and /healthz), so that nothing is
// ever fetched from elsewhere.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the page at "/" and its files under AssetPrefix. They
// hold no secret, so they are public even on a daemon with a token: the
// page asks for the token when /healthz answers 401, and sends it as its
// WebSocket session's first message, "auth TOKEN".
func Handler() http.Handler {
	static, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	assets := http.StripPrefix(AssetPrefix, http.FileServerFS(static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// Embedded files carry no modification time: have the browser ask
		// each time, so a new binary's page is never mixed with an old one's.
		h.Set("Cache-Control", "no-cache")
		switch {
		case r.URL.Path == "/":
			http.ServeFileFS(w, r, static, "index.html")
		case strings.HasPrefix(r.URL.Path, AssetPrefix) && r.URL.Path != AssetPrefix && r.URL.Path != AssetPrefix+"index.html":
			assets.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}

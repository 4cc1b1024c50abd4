package web

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed index.html dpso.js dpso.css xterm xterm-addon-fit
var files embed.FS

// nonceMark is the placeholder of index.html that each page's nonce
// replaces.
const nonceMark = "{{NONCE}}"

// CSP is the Content-Security-Policy of a page whose nonce is nonce (the
// assets are served under it too, with nonce "").
func CSP(nonce string) string {
	style := "style-src 'self'"
	if nonce != "" {
		style += " 'nonce-" + nonce + "'"
	}
	return "default-src 'none'; script-src 'self'; " + style + "; connect-src 'self'; base-uri 'none'; form-action 'none'"
}

// headers sets the headers every response of the page carries.
func headers(h http.Header, nonce string) {
	h.Set("Content-Security-Policy", CSP(nonce))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}

// ServePage writes the page, with a fresh nonce.
func ServePage(w http.ResponseWriter) {
	b, err := files.ReadFile("index.html")
	if err != nil { // embedded: cannot happen but for a broken build
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var raw [18]byte
	rand.Read(raw[:])
	nonce := base64.RawURLEncoding.EncodeToString(raw[:])
	headers(w.Header(), nonce)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(bytes.ReplaceAll(b, []byte(nonceMark), []byte(nonce)))
}

// Assets serves the page's scripts, stylesheets and the vendored licences
// (GET and HEAD); any other path is 404, folders included.
func Assets() http.Handler {
	sub, _ := fs.Sub(files, ".")
	fileServer := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean(r.URL.Path)
		if !IsAsset(p) {
			http.NotFound(w, r)
			return
		}
		headers(w.Header(), "")
		if strings.HasSuffix(p, ".mjs") || strings.HasSuffix(p, ".js") {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		fileServer.ServeHTTP(w, r)
	})
}

// IsAsset reports whether the clean path p is one of the page's files
// (not the page itself, not a folder).
func IsAsset(p string) bool {
	name := strings.TrimPrefix(p, "/")
	if name == "" || name == "index.html" || name != path.Clean(name) {
		return false
	}
	st, err := fs.Stat(files, name)
	return err == nil && !st.IsDir()
}

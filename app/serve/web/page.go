package web

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
)

//go:embed index.html dpso.js dpso.css xterm xterm-addon-fit
var files embed.FS

// nonceMark is the placeholder of index.html that each page's nonce
// replaces.
const nonceMark = "{{NONCE}}"

// CSP is the Content-Security-Policy of a page whose nonce is nonce (the
// assets are served under it too, with nonce ""), which the pages of
// ancestors alone may frame (its frame-ancestors: "'none'", or sources as
// FrameAncestors checks them).
func CSP(nonce, ancestors string) string {
	style := "style-src 'self'"
	if nonce != "" {
		style += " 'nonce-" + nonce + "'"
	}
	return "default-src 'none'; script-src 'self'; " + style + "; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors " + ancestors
}

// headers sets the headers every response of the page carries.
func headers(h http.Header, nonce, ancestors string) {
	h.Set("Content-Security-Policy", CSP(nonce, ancestors))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}

// ServePage writes the page, with a fresh nonce, framed by ancestors
// alone (CSP).
func ServePage(w http.ResponseWriter, ancestors string) {
	b, err := files.ReadFile("index.html")
	if err != nil { // embedded: cannot happen but for a broken build
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var raw [18]byte
	rand.Read(raw[:])
	nonce := base64.RawURLEncoding.EncodeToString(raw[:])
	headers(w.Header(), nonce, ancestors)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(bytes.ReplaceAll(b, []byte(nonceMark), []byte(nonce)))
}

// Assets serves the page's scripts, stylesheets and the vendored licences
// (GET and HEAD), under the page's CSP; any other path is 404, folders
// included.
func Assets(ancestors string) http.Handler {
	sub, _ := fs.Sub(files, ".")
	fileServer := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean(r.URL.Path)
		if !IsAsset(p) {
			http.NotFound(w, r)
			return
		}
		headers(w.Header(), "", ancestors)
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

// FrameAncestors checks a frame-ancestors list (sources separated by
// spaces) and returns it as the CSP carries it: "" or "'none'" is
// "'none'" (no page may frame this one); otherwise each source is 'self',
// a scheme ("https:") or an origin (scheme://host[:port], the host's
// first label may be *), at most 16 of them.
func FrameAncestors(list string) (string, error) {
	srcs := strings.Fields(list)
	if len(srcs) == 0 || (len(srcs) == 1 && srcs[0] == "'none'") {
		return "'none'", nil
	}
	if len(srcs) > 16 {
		return "", fmt.Errorf("%d sources, more than 16", len(srcs))
	}
	for _, s := range srcs {
		if s == "'self'" || schemeSource.MatchString(s) || originSource.MatchString(s) {
			continue
		}
		if s == "'none'" {
			return "", errors.New("'none' stands alone")
		}
		return "", fmt.Errorf("%q is not 'self', a scheme (https:) or an origin (https://host[:port])", s)
	}
	return strings.Join(srcs, " "), nil
}

var (
	schemeSource = regexp.MustCompile(`^[a-z][a-z0-9+.-]{0,31}:$`)
	originSource = regexp.MustCompile(`^[a-z][a-z0-9+.-]{0,31}://(\*\.)?[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})*(:[0-9]{1,5})?$`)
)

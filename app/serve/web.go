package serve

import (
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/base32"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"dpso/app/serve/web"
	"dpso/theory"
)

// WebLimits are the browser transport's limits on one page, beside the
// limits every session has (the caps, the idle timeout, --max-sessions,
// the size and the write deadline: limits.go).
type WebLimits struct {
	// MaxMessage is the largest WebSocket message a page may send, in
	// bytes (keys, a paste, a size); a larger one ends the session.
	MaxMessage int64
	// PerAddress caps the browser sessions from one address (negative:
	// none).
	PerAddress int
	// HelloTimeout is how long a new socket has to send its terminal's
	// size.
	HelloTimeout time.Duration
	// ResizeEvery is the shortest time between two resizes given to the
	// explorer; the sizes a page sends meanwhile are dropped but the last.
	ResizeEvery time.Duration
}

// DefaultWebLimits are the limits of a Config whose WebLimits are zero.
var DefaultWebLimits = WebLimits{MaxMessage: 64 << 10, PerAddress: 8, HelloTimeout: 10 * time.Second, ResizeEvery: 200 * time.Millisecond}

// webServer is the browser transport: the page (package web) and one
// explorer session per WebSocket, run by Server.session as an SSH
// session's.
type webServer struct {
	s      *Server
	cfg    *Config
	lim    WebLimits
	scheme string // "http" or "https"
	tokGen bool   // the token was generated
	srv    *http.Server
	tls    *tls.Config // nil: plain HTTP
	assets http.Handler
	// ancestors is the page's CSP frame-ancestors (Config.FrameAncestors).
	ancestors string

	mu      sync.Mutex
	perAddr map[string]int
	conns   map[*websocket.Conn]struct{}
	closed  bool
}

// tokenPattern is what a class token may be: it travels in an address.
var tokenPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

// newWebServer checks the browser transport's configuration: beyond
// loopback, TLS or InsecureHTTP, and a token (generated when none is
// given).
func newWebServer(s *Server, cfg *Config) (*webServer, error) {
	host, _, err := net.SplitHostPort(cfg.Web)
	if err != nil {
		return nil, fmt.Errorf("--web: %s is not HOST:PORT (%v)", theory.Quote(cfg.Web), err)
	}
	ancestors, err := web.FrameAncestors(cfg.FrameAncestors)
	if err != nil {
		return nil, fmt.Errorf("--frame-ancestors: %s: %v", theory.Quote(cfg.FrameAncestors), err)
	}
	w := &webServer{s: s, cfg: cfg, lim: cfg.WebLimits, scheme: "http", assets: web.Assets(ancestors), ancestors: ancestors,
		perAddr: map[string]int{}, conns: map[*websocket.Conn]struct{}{}}
	var certs []tls.Certificate
	switch {
	case cfg.TLSCert != "" && cfg.TLSKey == "":
		return nil, errors.New("--tls-cert: give --tls-key too (the certificate's private key)")
	case cfg.TLSKey != "" && cfg.TLSCert == "":
		return nil, errors.New("--tls-key: give --tls-cert too (the certificate of this key)")
	case cfg.TLSCert != "":
		cert, err := loadCert(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return nil, err
		}
		certs, w.scheme = []tls.Certificate{cert}, "https"
	}
	if !loopback(host) && certs == nil && !cfg.InsecureHTTP {
		return nil, fmt.Errorf("--web: %s reaches beyond this machine: give --tls-cert and --tls-key to serve HTTPS, or --insecure-http to serve plain HTTP, where the class token and every key typed cross the network readable", theory.Quote(cfg.Web))
	}
	switch {
	case cfg.Token != "" && !tokenPattern.MatchString(cfg.Token):
		return nil, fmt.Errorf("--token: %s is not 8 to 64 letters, digits, - or _ (it travels in the page's address)", theory.Quote(cfg.Token))
	case cfg.Token == "" && !loopback(host):
		var raw [10]byte
		rand.Read(raw[:])
		cfg.Token, w.tokGen = strings.ToLower(base32.StdEncoding.EncodeToString(raw[:])), true
	}
	w.fillLimits()
	w.srv = &http.Server{
		Handler:           w,
		ReadHeaderTimeout: w.lim.HelloTimeout,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	if certs != nil {
		w.tls = &tls.Config{Certificates: certs, MinVersion: tls.VersionTLS12}
	}
	return w, nil
}

// fillLimits gives every zero limit its default.
func (w *webServer) fillLimits() {
	d := DefaultWebLimits
	if w.lim.MaxMessage == 0 {
		w.lim.MaxMessage = d.MaxMessage
	}
	if w.lim.PerAddress == 0 {
		w.lim.PerAddress = d.PerAddress
	}
	if w.lim.HelloTimeout == 0 {
		w.lim.HelloTimeout = d.HelloTimeout
	}
	if w.lim.ResizeEvery == 0 {
		w.lim.ResizeEvery = d.ResizeEvery
	}
}

// ServeWeb serves the browser transport on ln until Shutdown (then it
// returns nil).
func (s *Server) ServeWeb(ln net.Listener) error {
	if s.web == nil {
		return errors.New("serve: no browser transport configured (Config.Web)")
	}
	var err error
	if s.web.tls != nil {
		err = s.web.srv.Serve(tls.NewListener(ln, s.web.tls))
	} else {
		err = s.web.srv.Serve(ln)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// banner is the browser transport's start-up lines: the address to open
// first.
func (w *webServer) banner(addr string) string {
	var b strings.Builder
	base := w.base(urlHost(addr))
	fmt.Fprintf(&b, "web: %s\n", base)
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	fmt.Fprintf(&b, "     open it in a browser: an explorer per tab; the address's query opens a screen, as dpso explore's flags do: add %spreset=3 or %sstate=S (y shows S) to the address above\n", sep, sep)
	switch {
	case w.tokGen:
		fmt.Fprintf(&b, "     the class token %s was generated for this run (--token sets one); a page without it is refused\n", w.cfg.Token)
	case w.cfg.Token != "":
		b.WriteString("     a page without the class token (--token) is refused\n")
	default:
		b.WriteString("     admitting every page (loopback only: this machine's users)\n")
	}
	if w.scheme == "http" && w.cfg.InsecureHTTP {
		b.WriteString("     --insecure-http: plain HTTP, so the token and every key typed cross the network readable\n")
	}
	return b.String()
}

// base is the page's address on host (HOST:PORT), with the token.
func (w *webServer) base(host string) string {
	u := url.URL{Scheme: w.scheme, Host: host, Path: "/"}
	if w.cfg.Token != "" {
		u.RawQuery = "token=" + url.QueryEscape(w.cfg.Token)
	}
	return u.String()
}

// urlHost is a listening address as a browser would reach it: an
// unspecified host (0.0.0.0, ::) becomes this machine's first address
// beyond loopback.
func urlHost(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
					return net.JoinHostPort(n.IP.String(), port)
				}
			}
		}
	}
	return net.JoinHostPort(host, port)
}

// link is the address that opens a state string in a browser, given to
// the SSH sessions ("" without the browser transport).
func (s *Server) link() string {
	if s.web == nil {
		return ""
	}
	return s.web.base(urlHost(s.cfg.Web))
}

// ServeHTTP serves the page (/), its files and the WebSocket (/ws).
func (w *webServer) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rw.Header().Set("Allow", "GET, HEAD")
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case "/":
		web.ServePage(rw, w.ancestors)
	case "/ws":
		w.socket(rw, r)
	default:
		w.assets.ServeHTTP(rw, r)
	}
}

// close stops the transport: its listener, its connections and every
// WebSocket still open.
func (w *webServer) close() error {
	w.mu.Lock()
	w.closed = true
	conns := make([]*websocket.Conn, 0, len(w.conns))
	for c := range w.conns {
		conns = append(conns, c)
	}
	w.mu.Unlock()
	err := w.srv.Close()
	for _, c := range conns {
		c.CloseNow()
	}
	return err
}

// track counts a WebSocket in, unless the transport is closed.
func (w *webServer) track(c *websocket.Conn) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.conns[c] = struct{}{}
	return true
}

func (w *webServer) untrack(c *websocket.Conn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.conns, c)
}

// claim counts a session from addr, unless PerAddress are open already.
func (w *webServer) claim(addr string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lim.PerAddress > 0 && w.perAddr[addr] >= w.lim.PerAddress {
		return false
	}
	w.perAddr[addr]++
	return true
}

func (w *webServer) release(addr string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.perAddr[addr]--; w.perAddr[addr] <= 0 {
		delete(w.perAddr, addr)
	}
}

// socket serves one page's WebSocket: the token, the sessions of its
// address, its terminal's size, then an explorer session on the address's
// query (dpso explore's flags).
func (w *webServer) socket(rw http.ResponseWriter, r *http.Request) {
	// Accept refuses (403) a page of another origin than this server's:
	// another site's page cannot open a session in a student's browser.
	conn, err := websocket.Accept(rw, r, nil)
	if err != nil {
		w.s.logf("refused a browser from %s: %v", r.RemoteAddr, err)
		return
	}
	if !w.track(conn) {
		conn.CloseNow()
		return
	}
	defer w.untrack(conn)
	w.s.enter()
	defer w.s.leaveHandler()
	conn.SetReadLimit(w.lim.MaxMessage)
	t := newWebTerminal(conn, r, w)
	code := w.serveTab(t, r)
	t.finish(code)
}

// serveTab checks a page's token, the sessions of its address and its
// first message, then runs its session; it returns the exit status.
func (w *webServer) serveTab(t *webTerminal, r *http.Request) int {
	args, token, err := linkArgs(r.URL.RawQuery)
	if w.cfg.Token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(w.cfg.Token)) != 1 {
		t.Say("dpso serve: this class needs its token: open the address the lecturer shares (it ends in ?token=…)")
		w.s.logf("refused %s: no class token or a wrong one", t.Who())
		return 2
	}
	if err != nil {
		t.Say("dpso: " + err.Error())
		return 2
	}
	addr := hostOf(r.RemoteAddr)
	if !w.claim(addr) {
		are := "are"
		if w.lim.PerAddress == 1 {
			are = "is"
		}
		t.Say(fmt.Sprintf("dpso serve: %s from your address %s open already (dpso serve --max-per-address); close one first", sessions(w.lim.PerAddress, "browser"), are))
		w.s.logf("refused %s: %s from its address", t.Who(), sessions(w.lim.PerAddress, ""))
		return 1
	}
	defer w.release(addr)
	if err := t.hello(); err != nil {
		w.s.logf("refused %s: %v", t.Who(), err)
		return 2
	}
	t.start()
	return w.s.session(t, args)
}

// hostOf is the host of a HOST:PORT address.
func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// flagName is what a name of the page's query may be: a flag's name.
var flagName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// maxQuery is the longest query a page's address may have.
const maxQuery = 4096

// linkArgs reads a page's query as dpso explore's flags, in their order:
// ?preset=3&screen=clip is --preset=3 --screen=clip, a name without a
// value (?plain) the flag alone; token is the class token, not a flag.
func linkArgs(raw string) (args []string, token string, err error) {
	if len(raw) > maxQuery {
		return nil, "", fmt.Errorf("the page's address has a query of %d bytes, more than the %d a link may have", len(raw), maxQuery)
	}
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, hasValue := strings.Cut(part, "=")
		name, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return nil, "", fmt.Errorf("the page's address has a query that is not URL-encoded: %s", theory.Quote(part))
		}
		if name == "token" {
			token = value
			continue
		}
		if !flagName.MatchString(name) {
			return nil, token, fmt.Errorf("the page's address names %s, which is not a flag of dpso explore (see dpso explore --help)", theory.Quote(name))
		}
		if hasValue {
			args = append(args, "--"+name+"="+value)
		} else {
			args = append(args, "--"+name)
		}
	}
	return args, token, nil
}

// maxPEM is the largest certificate or key file read: a file beyond it is
// not a PEM certificate (and /dev/zero is not read forever).
const maxPEM = 1 << 20

// loadCert reads the TLS certificate and its key, each a regular file of
// at most maxPEM bytes.
func loadCert(certFile, keyFile string) (tls.Certificate, error) {
	cert, err := readSmall("tls-cert", certFile, maxPEM)
	if err != nil {
		return tls.Certificate{}, err
	}
	key, err := readSmall("tls-key", keyFile, maxPEM)
	if err != nil {
		return tls.Certificate{}, err
	}
	c, err := tls.X509KeyPair(cert, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--tls-cert: %s and --tls-key %s are not a PEM certificate and its key (%v)", theory.Quote(certFile), theory.Quote(keyFile), err)
	}
	return c, nil
}

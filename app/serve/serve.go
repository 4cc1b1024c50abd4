package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"dpso/theory"
	"dpso/tui"
	"dpso/tui/backend"
)

// Config configures the server. Zero values take the defaults named.
type Config struct {
	// Listen is the address, default DefaultListen (loopback).
	Listen string
	// HostKey is the host key's file, created when missing (default
	// DefaultHostKey()).
	HostKey string
	// AuthorizedKeys is an authorized_keys file: only its keys (and the
	// instructor's) get a session, and with Token anyone who types it.
	// Without either every client does, which beyond loopback needs Open.
	AuthorizedKeys string
	// Open admits every client on an address beyond loopback.
	Open bool
	// InstructorKey is an authorized_keys file of the keys that may
	// broadcast to every session.
	InstructorKey string
	// MaxSessions caps the explorer sessions at once (default 40);
	// MaxPerKey those of one client (default 2): its authorized key, or
	// its address or, on loopback, its local user (Server.identity).
	MaxSessions, MaxPerKey int
	// LoginGrace is how long an SSH connection may go without a session
	// under way — its handshake, its channel, its shell request — before
	// it is closed (default 20 s); MaxStartups is how many such
	// connections are kept at once, the oldest closed for the newest
	// (default 16).
	LoginGrace  time.Duration
	MaxStartups int
	// WriteTimeout is how long one write to a client may wait (it reads
	// nothing: its window is full) before the client is dropped (default
	// 10 s).
	WriteTimeout time.Duration
	// CPUs is the pool's slots (default GOMAXPROCS); SessionWorkers the
	// most a run of a session is given (default half the slots).
	CPUs, SessionWorkers int
	// Caps are the per-session caps (see DefaultCaps).
	Caps Caps
	// Idle ends a session without a key for that long (default 15
	// minutes; negative: never).
	Idle time.Duration
	// Parse reads a session's arguments as dpso explore's flags; its
	// error's message is the one line to show (the CLI's own).
	Parse func(args []string) (tui.Options, error)
	// Runner is the engine (default backend.Local); tests inject a fake.
	Runner backend.Runner
	// Log receives one line per session and per refused client (default
	// io.Discard).
	Log io.Writer
	// Now is the clock of the log lines (default time.Now).
	Now func() time.Time

	// Web is the browser transport's address (HTTP and WebSocket: web.go);
	// "" serves no browser.
	Web string
	// NoSSH serves the browser transport alone: no SSH listener, no host
	// key.
	NoSSH bool
	// FrameAncestors are the pages that may show the browser's page in a
	// frame (its CSP's frame-ancestors: sources separated by spaces, as
	// web.FrameAncestors checks them); "" lets no page frame it, so that
	// no other site can lay the explorer under its own (clickjacking).
	FrameAncestors string
	// Token is the class token: a browser gives it in its address
	// (?token=), an SSH client without an admitted key types it when ssh
	// asks; "" asks none on loopback, and beyond loopback the browser
	// transport generates one.
	Token string
	// TLSCert and TLSKey serve the browser over HTTPS (PEM files).
	TLSCert, TLSKey string
	// InsecureHTTP serves plain HTTP on an address beyond loopback.
	InsecureHTTP bool
	// WebLimits are the browser transport's limits (zero fields: those of
	// DefaultWebLimits).
	WebLimits WebLimits
}

// Defaults of Config.
const (
	DefaultListen       = "127.0.0.1:2222"
	DefaultMaxSessions  = 40
	DefaultMaxPerKey    = 2
	DefaultIdle         = 15 * time.Minute
	DefaultLoginGrace   = 20 * time.Second
	DefaultMaxStartups  = 16
	DefaultWriteTimeout = 10 * time.Second
)

// Server is a running dpso serve.
type Server struct {
	cfg        Config
	srv        *ssh.Server
	pool       *Pool
	authorized []gossh.PublicKey // nil: every client
	instructor []gossh.PublicKey
	hostFP     string
	keyCreated bool

	mu       sync.Mutex
	sessions map[*session]struct{}
	perKey   map[string]int // sessions per terminal ID
	closing  bool
	active   int           // SSH sessions being handled (explorers, broadcasts, refusals)
	drained  chan struct{} // closed once closing and no session is handled
	logMu    sync.Mutex

	web *webServer // nil: no browser transport

	waitMu  sync.Mutex
	waiting []*conn // SSH connections without a session under way, oldest first

	onSize func(w, h int) // tests: each size an explorer is drawn at
	onDrop func()         // tests: each input event dropped past a session's budget
}

// New checks cfg and builds the server (the host key read or created).
// Beyond loopback it refuses to start without AuthorizedKeys or Open.
func New(cfg Config) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxPerKey == 0 {
		cfg.MaxPerKey = DefaultMaxPerKey
	}
	if cfg.LoginGrace == 0 {
		cfg.LoginGrace = DefaultLoginGrace
	}
	if cfg.MaxStartups == 0 {
		cfg.MaxStartups = DefaultMaxStartups
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.Idle == 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Parse == nil {
		return nil, errors.New("serve: Config.Parse is not set")
	}
	if cfg.Token != "" && !tokenPattern.MatchString(cfg.Token) {
		return nil, fmt.Errorf("--token: %s is not 8 to 64 letters, digits, - or _ (it travels in a page's address)", theory.Quote(cfg.Token))
	}
	if !cfg.NoSSH {
		host, port, err := net.SplitHostPort(cfg.Listen)
		if err != nil {
			return nil, fmt.Errorf("--listen: %s is not HOST:PORT (%v)", theory.Quote(cfg.Listen), err)
		}
		if _, err := net.LookupPort("tcp", port); err != nil {
			return nil, fmt.Errorf("--listen: %s: the port %s is not a port number from 0 to 65535 (or a service's name)", theory.Quote(cfg.Listen), theory.Quote(port))
		}
		if !loopback(host) && cfg.AuthorizedKeys == "" && cfg.Token == "" && !cfg.Open {
			return nil, fmt.Errorf("--listen: %s reaches beyond this machine, and anyone who reaches it would get a session: give --authorized-keys FILE (the class's public keys), --token WORD (a passphrase for the board) or, to admit everyone, --open", theory.Quote(cfg.Listen))
		}
	}
	var err error
	s := &Server{cfg: cfg, sessions: map[*session]struct{}{}, perKey: map[string]int{}, drained: make(chan struct{})}
	if cfg.AuthorizedKeys != "" {
		if s.authorized, err = readKeys("authorized-keys", cfg.AuthorizedKeys); err != nil {
			return nil, err
		}
	}
	if cfg.InstructorKey != "" {
		if s.instructor, err = readKeys("instructor-key", cfg.InstructorKey); err != nil {
			return nil, err
		}
	}
	if cfg.Web != "" {
		if s.web, err = newWebServer(s, &s.cfg); err != nil {
			return nil, err
		}
	} else if cfg.NoSSH {
		return nil, errors.New("serve: Config.NoSSH without Config.Web serves nothing")
	}
	s.pool = NewPool(cfg.Runner, cfg.CPUs, cfg.SessionWorkers, cfg.Caps)
	if cfg.NoSSH {
		return s, nil
	}
	path, makeDir := cfg.HostKey, false
	if path == "" {
		if path, err = DefaultHostKey(); err != nil {
			return nil, err
		}
		makeDir = true
	}
	signer, created, err := hostKey(path, makeDir)
	if err != nil {
		return nil, err
	}
	s.hostFP, s.keyCreated, s.cfg.HostKey = gossh.FingerprintSHA256(signer.PublicKey()), created, path
	if s.srv, err = s.newSSH(signer); err != nil {
		return nil, err
	}
	return s, nil
}

// loopback reports whether host names this machine only.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Banner is the server's start-up lines: where it listens (sshAddr and
// webAddr, "" for a transport not served), its host key, who gets in and
// the caps.
func (s *Server) Banner(sshAddr, webAddr string) string {
	var b strings.Builder
	if sshAddr != "" {
		port := sshAddr
		if _, p, err := net.SplitHostPort(sshAddr); err == nil {
			port = p
		}
		fmt.Fprintf(&b, "dpso serve: listening on %s; students connect with: ssh -p %s HOST (add -t -- --preset 3 to open a preset)\n", sshAddr, port)
		verb := "kept in"
		if s.keyCreated {
			verb = "created in"
		}
		fmt.Fprintf(&b, "host key %s (%s %s)\n", s.hostFP, verb, theory.Quote(s.cfg.HostKey))
		switch {
		case s.authorized != nil:
			fmt.Fprintf(&b, "admitting the %d keys of %s", len(s.authorized), theory.Quote(s.cfg.AuthorizedKeys))
			if s.instructor != nil {
				b.WriteString(" and the instructor's")
			}
			if s.cfg.Token != "" {
				b.WriteString(", and anyone who types the class token")
			}
			b.WriteString("\n")
		case s.cfg.Token != "":
			b.WriteString("admitting anyone who types the class token (--token) when ssh asks")
			if s.instructor != nil {
				b.WriteString(", and the instructor's key")
			}
			b.WriteString("\n")
		case s.cfg.Open:
			b.WriteString("--open: anyone who reaches this address gets a session\n")
		default:
			b.WriteString("warning: admitting every SSH client with any key or none: every user of this machine can get a session (loopback only); give --token WORD (a passphrase to write on the board) or --authorized-keys FILE to choose who\n")
		}
	}
	if webAddr != "" {
		b.WriteString(s.web.banner(webAddr))
	}
	c := s.cfg.Caps
	fmt.Fprintf(&b, "each session: n ≤ %s, d ≤ %s, trials ≤ %s, work budget ≤ %s, a run's time on its CPU slots ≤ %s, a pause ≤ %s; each run takes at most %s of the %s CPU slots, served in turn by session; %d sessions at most, %d per client; a session idle for %s ends; noise from secure randomness\n",
		capText(int64(c.N)), capText(int64(c.D)), capText(int64(c.Trials)), capText(c.WorkBudget), limitText(c.RunTime), limitText(c.Pause),
		theory.FormatCount(int64(s.pool.workers)), theory.FormatCount(int64(s.pool.cpus)), s.cfg.MaxSessions, s.cfg.MaxPerKey, idleText(s.cfg.Idle))
	return b.String()
}

func capText(n int64) string {
	if n <= 0 {
		return "∞"
	}
	return theory.FormatCount(n)
}

func limitText(d time.Duration) string {
	if d <= 0 {
		return "∞"
	}
	return durText(d)
}

func idleText(d time.Duration) string {
	if d < 0 {
		return "never"
	}
	return d.String()
}

// ListenAndServe listens on Config.Listen (SSH, unless Config.NoSSH) and
// Config.Web (the browser transport, if set) and serves until Shutdown;
// ready, if not nil, gets the banner (Banner) once both listen. It
// returns nil after Shutdown.
func (s *Server) ListenAndServe(ready func(banner string)) error {
	var sshLn, webLn net.Listener
	var sshAddr, webAddr string
	var err error
	if !s.cfg.NoSSH {
		if sshLn, err = net.Listen("tcp", s.cfg.Listen); err != nil {
			return fmt.Errorf("--listen: %v", err)
		}
		sshAddr = sshLn.Addr().String()
	}
	if s.web != nil {
		if webLn, err = net.Listen("tcp", s.cfg.Web); err != nil {
			if sshLn != nil {
				sshLn.Close()
			}
			return fmt.Errorf("--web: %v", err)
		}
		webAddr = webLn.Addr().String()
	}
	if ready != nil {
		ready(s.Banner(sshAddr, webAddr))
	}
	errs := make(chan error, 2)
	n := 0
	if sshLn != nil {
		n++
		go func() { errs <- s.Serve(sshLn) }()
	}
	if webLn != nil {
		n++
		go func() { errs <- s.ServeWeb(webLn) }()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
			s.closeListeners() // the other transport stops too
		}
	}
	return first
}

// Serve serves SSH on ln until Shutdown (then it returns nil).
func (s *Server) Serve(ln net.Listener) error {
	err := s.srv.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// closeListeners closes both transports' listeners and connections.
func (s *Server) closeListeners() error {
	var err error
	if s.srv != nil {
		if cerr := s.srv.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) {
			err = cerr
		}
	}
	if s.web != nil {
		if cerr := s.web.close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}

// clientGrace is how long Shutdown waits, once every session has ended,
// for the clients to close their connections before it closes them.
const clientGrace = time.Second

// Shutdown tells every session that the server is stopping (why: "it got
// SIGTERM", say) and ends it, waits until every session has ended or ctx
// is done, gives the clients up to clientGrace to hang up themselves, then
// closes the listeners and every connection, which ends any
// session still writing to a client that reads nothing (a client that
// keeps its connection open after its session is waited for clientGrace
// at most).
func (s *Server) Shutdown(ctx context.Context, why string) error {
	s.mu.Lock()
	s.closing = true
	open := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		open = append(open, ss)
	}
	if s.active == 0 {
		s.closeDrained()
	}
	s.mu.Unlock()
	for _, ss := range open {
		ss.end(endShutdown, "dpso serve: the server is stopping ("+why+"); this session ends now. Thank you!")
	}
	var err error
	select {
	case <-s.drained:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if s.srv != nil {
		s.closeWaiting()
		// A client whose session has ended (its exit status sent) closes
		// its connection itself; closing it first makes its ssh exit 255
		// ("send disconnect: Broken pipe"). Give the clients clientGrace
		// to go, then close what is left.
		grace, cancel := context.WithTimeout(ctx, clientGrace)
		_ = s.srv.Shutdown(grace)
		cancel()
	}
	if cerr := s.closeListeners(); err == nil {
		err = cerr
	}
	for _, ss := range open {
		ss.hangup()
	}
	return err
}

// enter and leaveHandler count the sessions being handled, for Shutdown.
func (s *Server) enter() {
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
}

func (s *Server) leaveHandler() {
	s.mu.Lock()
	s.active--
	if s.active == 0 && s.closing {
		s.closeDrained()
	}
	s.mu.Unlock()
}

// closeDrained closes drained once (s.mu held).
func (s *Server) closeDrained() {
	select {
	case <-s.drained:
	default:
		close(s.drained)
	}
}

// logf writes one log line, stamped.
func (s *Server) logf(format string, a ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "%s dpso serve: %s\n", s.cfg.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, a...))
}

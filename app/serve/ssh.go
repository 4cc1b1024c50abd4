package serve

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	rm "charm.land/wish/v2/recover"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"

	"dpso/theory"
)

// This file is the SSH transport: the server (wish on charm.land/ssh),
// who gets in, what a connection and a channel may hold before a session
// starts, and the adapter from an SSH session to a Terminal. What a
// session may hold once it runs is the session's (session.go), the same
// for any transport.

// Bounds of the SSH transport.
const (
	// maxChannels is the most session channels one connection holds at
	// once (OpenSSH's MaxSessions is 10).
	maxChannels = 4
	// maxEnvRequests and maxEnvBytes bound a channel's env requests
	// (names and values together); the rest are refused.
	maxEnvRequests = 32
	maxEnvBytes    = 8 << 10
)

// newSSH builds the SSH server of s: host key, authentication, the
// handshake's grace (Config.LoginGrace), the connections that have not
// started a session (Config.MaxStartups), the session channels' filter,
// and the handler, inside wish's recover middleware.
func (s *Server) newSSH(signer gossh.Signer) (*ssh.Server, error) {
	opts := []ssh.Option{
		wish.WithAddress(s.cfg.Listen),
		wish.WithVersion("dpso"),
		wish.WithPublicKeyAuth(s.publicKey),
		wish.WithMiddleware(rm.MiddlewareWithLogger(panicLog{s}, func(ssh.Handler) ssh.Handler { return s.handle })),
		func(srv *ssh.Server) error {
			srv.AddHostKey(signer)
			srv.HandshakeTimeout = s.cfg.LoginGrace
			srv.ConnCallback = s.connect
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
			return nil
		},
	}
	switch {
	case s.cfg.Token != "":
		opts = append(opts, wish.WithPasswordAuth(s.password), wish.WithKeyboardInteractiveAuth(s.tokenPrompt))
	case s.authorized == nil:
		// Keyless clients too: keyboard-interactive without a question.
		opts = append(opts, wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }))
	}
	return wish.NewServer(opts...)
}

// panicLog is the server's log as the recover middleware's logger: a
// panic in a session's handler is one log line (with its stack), and the
// server goes on.
type panicLog struct{ s *Server }

func (p panicLog) Printf(format string, v ...any) { p.s.logf(format, v...) }

// publicKey admits a key: one of AuthorizedKeys or the instructor's; with
// neither AuthorizedKeys nor Token, any. A refused key is logged with its
// fingerprint (with Token, the client then asks its user for the token).
func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if hasKey(s.authorized, key) || hasKey(s.instructor, key) || (s.authorized == nil && s.cfg.Token == "") {
		return true
	}
	s.logf("refused key %s of user %s from %s", gossh.FingerprintSHA256(key), theory.Quote(ctx.User()), ctx.RemoteAddr())
	return false
}

// password admits the class token typed as a password.
func (s *Server) password(ctx ssh.Context, pw string) bool { return s.tokenIs(ctx, pw) }

// tokenPrompt asks for the class token (keyboard-interactive: what ssh
// asks when the client has no admitted key).
func (s *Server) tokenPrompt(ctx ssh.Context, ask gossh.KeyboardInteractiveChallenge) bool {
	answers, err := ask("", "dpso serve: this class's sessions need the token the lecturer gives (dpso serve --token)", []string{"class token: "}, []bool{false})
	return err == nil && len(answers) == 1 && s.tokenIs(ctx, answers[0])
}

func (s *Server) tokenIs(ctx ssh.Context, got string) bool {
	if subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) == 1 {
		return true
	}
	s.logf("wrong token from user %s at %s", theory.Quote(ctx.User()), ctx.RemoteAddr())
	return false
}

// conn is a connection as the server tracks it before and between its
// sessions: one that has no session channel with a shell or a command
// for Config.LoginGrace — no handshake, no channel, a channel that asks
// for neither — is closed, and among those waiting so, past
// Config.MaxStartups the oldest is closed for the newest.
type conn struct {
	net.Conn
	s      *Server
	mu     sync.Mutex
	open   int  // session channels that started a shell or a command, open
	chans  int  // session channels open
	closed bool // Close was called
	grace  *time.Timer
}

// connect is the server's ConnCallback: every accepted connection starts
// waiting (s.waiting), its grace running.
func (s *Server) connect(ctx ssh.Context, nc net.Conn) net.Conn {
	c := &conn{Conn: nc, s: s}
	ctx.SetValue(connKey, c)
	c.mu.Lock() // a short grace may expire before AfterFunc returns
	c.grace = time.AfterFunc(s.cfg.LoginGrace, c.expire)
	c.mu.Unlock()
	s.waitMu.Lock()
	if len(s.waiting) >= s.cfg.MaxStartups {
		old := s.waiting[0]
		s.waiting = s.waiting[1:]
		go old.Close()
	}
	s.waiting = append(s.waiting, c)
	s.waitMu.Unlock()
	return c
}

var connKey = &struct{ name string }{"dpso-conn"}

// expire closes the connection if it still has no session under way.
func (c *conn) expire() {
	c.mu.Lock()
	idle := c.open == 0
	c.mu.Unlock()
	if idle {
		c.Close()
	}
}

// started marks a session under way on the connection; done ends it,
// and the last one ended starts the grace again.
func (c *conn) started() {
	c.mu.Lock()
	c.open++
	c.grace.Stop()
	c.mu.Unlock()
	c.s.unwait(c)
}

func (c *conn) done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open--; c.open == 0 && !c.closed {
		c.grace.Reset(c.s.cfg.LoginGrace)
	}
}

func (c *conn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.grace.Stop()
	c.mu.Unlock()
	c.s.unwait(c)
	return c.Conn.Close()
}

// unwait drops c from the connections waiting for a session.
func (s *Server) unwait(c *conn) {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	s.waiting = slices.DeleteFunc(s.waiting, func(x *conn) bool { return x == c })
}

// closeWaiting closes every connection that has no session under way
// (Shutdown).
func (s *Server) closeWaiting() {
	s.waitMu.Lock()
	w := slices.Clone(s.waiting)
	s.waitMu.Unlock()
	for _, c := range w {
		c.Close()
	}
}

// sessionChannel is the server's "session" channel handler: at most
// maxChannels per connection, and the channel's requests filtered
// (filterRequests) before charm.land/ssh's own session handler reads them.
func (s *Server) sessionChannel(srv *ssh.Server, sc *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	c, _ := ctx.Value(connKey).(*conn)
	if c == nil {
		nc.Reject(gossh.ConnectionFailed, "no connection")
		return
	}
	c.mu.Lock()
	full := c.chans >= maxChannels
	if !full {
		c.chans++
	}
	c.mu.Unlock()
	if full {
		nc.Reject(gossh.ResourceShortage, fmt.Sprintf("dpso serve: at most %d sessions per connection", maxChannels))
		return
	}
	defer func() {
		c.mu.Lock()
		c.chans--
		c.mu.Unlock()
	}()
	ssh.DefaultSessionHandler(srv, sc, &filteredChannel{NewChannel: nc, c: c}, ctx)
}

// filteredChannel is a new session channel whose requests pass through
// filterRequests.
type filteredChannel struct {
	gossh.NewChannel
	c *conn
}

func (f *filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go f.c.filterRequests(reqs, out)
	return ch, out, nil
}

// filterRequests passes a channel's requests on, but for env requests past
// maxEnvRequests or maxEnvBytes, which it refuses; the first shell, exec
// or subsystem request marks a session under way on the connection.
func (c *conn) filterRequests(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	envs, envBytes, started := 0, 0, false
	defer func() {
		if started {
			c.done()
		}
	}()
	for req := range in {
		switch req.Type {
		case "env":
			if envs >= maxEnvRequests || envBytes+len(req.Payload) > maxEnvBytes {
				if req.WantReply {
					req.Reply(false, nil)
				}
				continue
			}
			envs++
			envBytes += len(req.Payload)
		case "shell", "exec", "subsystem":
			if !started {
				started = true
				c.started()
			}
		}
		out <- req
	}
}

// handle serves one SSH session: the instructor's broadcast, or an
// explorer (Server.session, which recovers a panic in it) on the
// session's terminal. A panic outside the explorer (the broadcast) is the
// recover middleware's to log; the client is told and the session ends
// with status 1, the others go on.
func (s *Server) handle(sess ssh.Session) {
	s.enter()
	defer s.leaveHandler()
	t := s.sshTerminal(sess)
	finished := false
	defer func() {
		if !finished { // a panic is unwinding: the middleware recovers it
			t.Say("dpso serve: this session hit an internal error (a bug, logged on the server); the server goes on: connect again")
			sess.Exit(1)
			s.logf("session of %s ended: internal error (panic)", t.Who())
		}
	}()
	args := sess.Command()
	if len(args) > 0 && args[0] == "broadcast" {
		s.broadcastCmd(sess, args[1:])
		finished = true
		return
	}
	code := s.session(t, args)
	finished = true
	sess.Exit(code)
}

// sshTerminal is an SSH session as a terminal: its channel's data, its
// pty's size and window changes, its environment (with the pty's TERM),
// the line it is told on its extended data under the session's write
// deadline, and its client's identity.
type sshTerminal struct {
	sess ssh.Session
	link string
	id   string
	errw *deadlineWriter
}

func (s *Server) sshTerminal(sess ssh.Session) *sshTerminal {
	t := &sshTerminal{sess: sess, link: s.link(), id: s.identity(sess)}
	t.errw = newDeadlineWriter(sess.Stderr(), s.cfg.WriteTimeout, t.Hangup)
	return t
}

func (t *sshTerminal) Context() context.Context { return t.sess.Context() }

func (t *sshTerminal) Interactive() bool {
	_, _, ok := t.sess.Pty()
	return ok
}

func (t *sshTerminal) Input() io.Reader  { return t.sess }
func (t *sshTerminal) Output() io.Writer { return t.sess }

func (t *sshTerminal) Size() (int, int) {
	pty, _, _ := t.sess.Pty()
	return pty.Window.Width, pty.Window.Height
}

// Profile is the one the session's environment says (TERM, COLORTERM,
// NO_COLOR): a remote terminal is not asked.
func (t *sshTerminal) Profile() colorprofile.Profile { return colorprofile.Env(t.Environ()) }

func (t *sshTerminal) Environ() []string {
	env := t.sess.Environ()
	if pty, _, ok := t.sess.Pty(); ok {
		env = append(env, "TERM="+pty.Term)
	}
	return env
}

// Watch reads the window changes at once, whatever the session does (see
// sizeBox).
func (t *sshTerminal) Watch(ctx context.Context, resize func(w, h int)) {
	_, winCh, _ := t.sess.Pty()
	for {
		select {
		case <-ctx.Done():
			return
		case w, ok := <-winCh:
			if !ok {
				return
			}
			resize(w.Width, w.Height)
		}
	}
}

// Say ends the line with \r\n, as a terminal needs.
func (t *sshTerminal) Say(line string) { say(t.errw, line) }

// Status does nothing: an SSH terminal has no line outside the explorer
// while it runs (the banner on its last line is the offer's words).
func (t *sshTerminal) Status(string) {}

// Who is the key's fingerprint (or "no key"), the user name (quoted: the
// client chose it) and the address.
func (t *sshTerminal) Who() string { return who(t.sess) }

func (t *sshTerminal) ID() string { return t.id }

// Hangup closes the session's connection.
func (t *sshTerminal) Hangup() {
	if c, ok := t.sess.Context().Value(connKey).(*conn); ok {
		c.Close()
	}
}

func (t *sshTerminal) Where() string { return "an SSH session" }

func (t *sshTerminal) Link() string { return t.link }

// say writes a line to a terminal (after the explorer ended or before it
// started), ending it with \r\n as a terminal needs.
func say(w io.Writer, line string) {
	_, _ = io.WriteString(w, line+"\r\n")
}

// identity is the client Config.MaxPerKey counts: an admitted key of
// AuthorizedKeys (or the instructor's) by its fingerprint; else, on
// loopback, the local user that owns the client's socket where the system
// says (Linux), or the user name the client gives; else its address.
// Without AuthorizedKeys any key is admitted, so a key names no one.
func (s *Server) identity(sess ssh.Session) string {
	if k := sess.PublicKey(); k != nil && (hasKey(s.authorized, k) || hasKey(s.instructor, k)) {
		return "key " + gossh.FingerprintSHA256(k)
	}
	remote, ok := sess.RemoteAddr().(*net.TCPAddr)
	if !ok {
		return "address " + sess.RemoteAddr().String()
	}
	if remote.IP.IsLoopback() {
		if uid, ok := socketOwner(sess.LocalAddr(), remote); ok {
			return "local user " + uid
		}
		return "user " + theory.Quote(sess.User()) + " on loopback"
	}
	return "address " + remote.IP.String()
}

// who names a session's client for the log: its key's fingerprint (or
// "no key"), its user name (quoted: the client chose it) and address.
func who(sess ssh.Session) string {
	key := "no key"
	if k := sess.PublicKey(); k != nil {
		key = "key " + gossh.FingerprintSHA256(k)
	}
	return fmt.Sprintf("%s, user %s, from %s", key, theory.Quote(sess.User()), sess.RemoteAddr())
}

package serve

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	bm "charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"dpso/theory"
)

// terminal is a session's client, whatever carries it: an SSH session
// with its pty (sshTerminal) or a browser tab's WebSocket (webTerminal).
// The session code (Server.session, explore) reaches the client only
// through it, so that both transports share the pool, the caps, the
// broadcast, the idle timeout and the shutdown.
type terminal interface {
	// Context is done once the client has gone.
	Context() context.Context
	// Interactive reports whether the client has a terminal to draw on.
	Interactive() bool
	// ProgramOptions are the explorer's program's input, output, first
	// size, colour profile and environment.
	ProgramOptions() []tea.ProgramOption
	// Environ is the client's environment (NO_COLOR and COLORFGBG are
	// read from it).
	Environ() []string
	// Watch calls resize with each new size of the terminal until ctx is
	// done.
	Watch(ctx context.Context, resize func(w, h int))
	// Say writes one line outside the explorer: before it starts or after
	// it ended.
	Say(line string)
	// Who names the client in the log.
	Who() string
	// Where is what the client is, as a sentence names it ("an SSH
	// session", "a browser tab").
	Where() string
	// Link is the address that opens a state string in a browser ("" when
	// the server serves no browser).
	Link() string
}

// sshTerminal is an SSH session as a terminal.
type sshTerminal struct {
	sess ssh.Session
	link string
}

func (t sshTerminal) Context() context.Context { return t.sess.Context() }

func (t sshTerminal) Interactive() bool {
	_, _, ok := t.sess.Pty()
	return ok
}

func (t sshTerminal) ProgramOptions() []tea.ProgramOption { return bm.MakeOptions(t.sess) }

func (t sshTerminal) Environ() []string { return t.sess.Environ() }

func (t sshTerminal) Watch(ctx context.Context, resize func(w, h int)) {
	_, winCh, _ := t.sess.Pty()
	for {
		select {
		case <-ctx.Done():
			return
		case w := <-winCh:
			resize(w.Width, w.Height)
		}
	}
}

// Say ends the line with \r\n, as a terminal needs.
func (t sshTerminal) Say(line string) { say(t.sess, line) }

// Who is the key's fingerprint (or "no key"), the user name (quoted: the
// client chose it) and the address.
func (t sshTerminal) Who() string { return who(t.sess) }

func (t sshTerminal) Where() string { return "an SSH session" }

func (t sshTerminal) Link() string { return t.link }

// who names an SSH session's client for the log.
func who(sess ssh.Session) string {
	key := "no key"
	if k := sess.PublicKey(); k != nil {
		key = "key " + gossh.FingerprintSHA256(k)
	}
	return fmt.Sprintf("%s, user %s, from %s", key, theory.Quote(sess.User()), sess.RemoteAddr())
}

// say writes a line to an SSH session's terminal (after the explorer
// ended or before it started), ending it with \r\n as a terminal needs.
func say(sess ssh.Session, line string) {
	fmt.Fprint(sess.Stderr(), line+"\r\n")
}

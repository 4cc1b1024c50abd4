package serve

import (
	"context"
	"io"

	"github.com/charmbracelet/colorprofile"
)

// terminal is a session's client, whatever carries it: an SSH session
// with its pty (sshTerminal) or a browser tab's WebSocket (webTerminal).
// The session code (Server.session, explore) reaches the client only
// through it, so that both transports share the pool, the caps, the
// session's limits (limits.go), the broadcast, the idle timeout and the
// shutdown.
type terminal interface {
	// Context is done once the client has gone.
	Context() context.Context
	// Interactive reports whether the client has a terminal to draw on.
	Interactive() bool
	// Input is what the client types; Output its screen. The session
	// reads Input through the terminal guard and writes Output under its
	// write deadline.
	Input() io.Reader
	Output() io.Writer
	// Size is the client's terminal size as it gives it (the session
	// clamps it).
	Size() (w, h int)
	// Profile is the client's colour profile.
	Profile() colorprofile.Profile
	// Environ is the client's environment (the session reads TERM,
	// COLORTERM, NO_COLOR and COLORFGBG from it).
	Environ() []string
	// Watch calls resize with each new size of the terminal until ctx is
	// done; resize never blocks.
	Watch(ctx context.Context, resize func(w, h int))
	// Say writes one line outside the explorer: before it starts or after
	// it ended.
	Say(line string)
	// Status puts line in the client's status line outside the explorer
	// while it runs ("": back to its own words): a browser page's, which
	// a screen reader announces; an SSH terminal has none.
	Status(line string)
	// Who names the client in the log.
	Who() string
	// ID is the client Config.MaxPerKey counts (a key, an address, a local
	// user); "" for a client the transport counts itself (a browser's
	// tabs, per address: WebLimits.PerAddress).
	ID() string
	// Hangup drops the client's connection at once (a client that reads
	// nothing); it may be called more than once.
	Hangup()
	// Where is what the client is, as a sentence names it ("an SSH
	// session", "a browser tab").
	Where() string
	// Link is the address that opens a state string in a browser ("" when
	// the server serves no browser).
	Link() string
}

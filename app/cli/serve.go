package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/app/serve"
	"dpso/internal/statestring"
	"dpso/theory"
	"dpso/tui"
	"dpso/tui/input"
)

// shutdownGrace is how long a stopping server waits for its sessions to
// close after telling them, before it closes their connections.
const shutdownGrace = 5 * time.Second

func newServeCmd(e *env) *cobra.Command {
	var cfg serve.Config
	caps := serve.DefaultCaps
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the explorer over SSH: every session its own explorer (a class on one laptop)",
		Long: fmt.Sprintf(`serve runs an SSH server (127.0.0.1:2222 by default) where every session gets
its own explorer, drawn for the client's terminal: ssh -p 2222 HOST, or
ssh -p 2222 HOST -t -- --preset 3 to open on a preset, a state string or any
flags of dpso explore (checked as dpso explore checks them; a bad one ends
the session with its one-line message and status 2).

The host key is generated once and kept (--host-key). Who gets in: the keys
of --authorized-keys FILE, anyone who types the class's --token WORD when
ssh asks (a passphrase to write on the board), or, with neither, every user
of this machine (loopback only; the server warns at start); beyond loopback
one of those, or --open (anyone who reaches the port). One client has at
most --max-per-key sessions at once.

All sessions' runs share --cpus slots, served in turn by session (a student
with several runs waiting is served once per turn, as every other), each
run at most --session-workers of them; a run waiting for a slot shows its
place in the queue, and a paused run gives its slots back (--max-pause
cancels it). Each session is capped (--max-n, --max-d, --max-trials,
--max-work-budget: the form refuses a value above a cap and says so, a
sweep's grid included) and each run bounded in time (--max-run-time: a run
planned longer is refused before it starts, one that reaches it stopped).
A session draws at most a %d×%d terminal, holds a paste up to %d MiB, reads
what is typed at a bounded rate and drops a client whose screen waits %s
unread (it stopped reading and what is in flight fills its SSH window or
the page's socket: a client paused a few seconds keeps its session); an
SSH connection without a session for %s is closed; a session
without a key for --idle ends; noise is drawn from secure randomness. The
holder of --instructor-key sends a preset or a state string to every
session with ssh -p 2222 HOST -- broadcast --preset 3 (with --screen clip,
on that screen as its state string opens it; broadcast --help lists what it
takes); each student opens it with b (B dismisses it).

--web ADDR serves the explorer to browsers (a page per tab, xterm.js over a
WebSocket, everything embedded in dpso: nothing comes from elsewhere), alone,
or beside SSH when --listen is given too; both share the sessions, the caps,
the CPU slots and the broadcast. The page's address opens a screen as dpso
explore's flags do: /?preset=3, /?state=S (y shows it), /?preset=4&screen=clip.
Beyond loopback --web needs --tls-cert and --tls-key (HTTPS) or
--insecure-http, and a class token: --token, or one generated and printed in
the address to share.

SIGINT, SIGTERM or SIGHUP tells every session that the server is stopping,
ends them and exits 0 (a second signal cuts the %s grace short). A log
line on stderr per session says who (key fingerprint, user, address), when
and for how long; never what they did.`, serve.MaxCols, serve.MaxRows, input.MaxPaste>>20, serve.DefaultWriteTimeout, serve.DefaultLoginGrace, shutdownGrace),
		Example: `  dpso serve
  dpso serve --listen 0.0.0.0:2222 --authorized-keys class.pub --instructor-key me.pub
  dpso serve --listen 0.0.0.0:2222 --token physics101
  ssh -p 2222 localhost -t -- --preset 3
  ssh -p 2222 localhost -- broadcast --preset 1
  dpso serve --web 127.0.0.1:8080
  dpso serve --web 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem --token physics101`,
	}
	fs := cmd.Flags()
	fs.StringVar(&cfg.Listen, "listen", serve.DefaultListen, "address to listen on (HOST:PORT); beyond loopback it needs --authorized-keys, --token or --open")
	fs.StringVar(&cfg.HostKey, "host-key", "", "the server's private host key: read, or created once (ed25519, 0600) when missing (default ~/.config/dpso/ssh_host_ed25519_key)")
	fs.StringVar(&cfg.AuthorizedKeys, "authorized-keys", "", "authorized_keys file: only these keys (and the instructor's) get a session")
	fs.BoolVar(&cfg.Open, "open", false, "on an address beyond loopback, admit every client (without --authorized-keys or --token)")
	fs.StringVar(&cfg.InstructorKey, "instructor-key", "", "authorized_keys file of the key(s) that may broadcast a preset or state string to every session")
	fs.IntVar(&cfg.MaxSessions, "max-sessions", serve.DefaultMaxSessions, "explorer sessions at once")
	fs.IntVar(&cfg.MaxPerKey, "max-per-key", serve.DefaultMaxPerKey, "SSH explorer sessions at once of one client: its authorized key, or its address (on loopback, the local user)")
	fs.IntVar(&cfg.CPUs, "cpus", 0, "CPU slots shared by every session's runs (0: GOMAXPROCS)")
	fs.IntVar(&cfg.SessionWorkers, "session-workers", 0, "the most slots one run takes (0: half of --cpus, at least 1)")
	fs.IntVar(&caps.N, "max-n", caps.N, "per-session cap on n (0: none)")
	fs.IntVar(&caps.D, "max-d", caps.D, "per-session cap on d (0: none)")
	fs.IntVar(&caps.Trials, "max-trials", caps.Trials, "per-session cap on trials (0: none)")
	fs.Int64Var(&caps.WorkBudget, "max-work-budget", caps.WorkBudget, "per-session cap on the work budget, gradient evaluations (0: none)")
	fs.DurationVar(&caps.RunTime, "max-run-time", caps.RunTime, "the longest one run may hold its CPU slots (queue and pauses not counted): a run planned longer is refused, one that reaches it stopped (0: none)")
	fs.DurationVar(&caps.Pause, "max-pause", caps.Pause, "the longest a run may stay paused (its slots given back meanwhile) before it is cancelled (0: none)")
	fs.DurationVar(&cfg.Idle, "idle", serve.DefaultIdle, "end a session without a key for this long (e.g. 15m; 0 never)")
	fs.DurationVar(&cfg.LoginGrace, "login-grace", serve.DefaultLoginGrace, "close an SSH connection that has no session under way (its handshake, its channel, its shell request) for this long")
	fs.StringVar(&cfg.Web, "web", "", "serve the explorer to browsers on this address (HOST:PORT), a page per tab; alone it serves browsers only (add --listen to serve SSH beside them)")
	fs.StringVar(&cfg.Token, "token", "", "the class token (8 to 64 letters, digits, - or _): a page's address must carry it (?token=T; beyond loopback one is generated when not given), an SSH client without an authorized key types it when ssh asks")
	fs.StringVar(&cfg.TLSCert, "tls-cert", "", "serve the browsers over HTTPS with this PEM certificate (with --tls-key)")
	fs.StringVar(&cfg.TLSKey, "tls-key", "", "the PEM private key of --tls-cert")
	fs.BoolVar(&cfg.InsecureHTTP, "insecure-http", false, "serve plain HTTP beyond loopback: the token and every key typed cross the network readable")
	fs.IntVar(&cfg.WebLimits.PerAddress, "max-per-address", serve.DefaultWebLimits.PerAddress, "browser sessions at once from one address (0: no cap)")
	fs.StringVar(&cfg.FrameAncestors, "frame-ancestors", "", "the pages that may show the page in a frame, e.g. 'https://slides.example.org' (the CSP's frame-ancestors: 'self', schemes or origins, separated by spaces); none by default, so that no other site can lay the explorer under its own (clickjacking)")
	setFlagGroup(fs, "Browsers (--web)", "web", "token", "tls-cert", "tls-key", "insecure-http", "max-per-address", "frame-ancestors")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		for _, name := range []string{"max-sessions", "max-per-key", "cpus", "session-workers", "max-n", "max-d", "max-trials", "max-work-budget", "max-per-address"} {
			if f := fs.Lookup(name); f.Value.String()[0] == '-' {
				return usageErrorf("--%s: %s is negative (want 0 or more)", name, theory.Quote(f.Value.String()))
			}
		}
		for _, name := range []string{"max-sessions", "max-per-key"} {
			if fs.Lookup(name).Value.String() == "0" {
				return usageErrorf("--%s: 0 sessions would serve nobody (want 1 or more)", name)
			}
		}
		if fs.Changed("token") && cfg.Token == "" {
			return usageErrorf("--token: an empty value is not allowed (leave the flag out: beyond loopback the browsers' token is then generated)")
		}
		if cfg.LoginGrace <= 0 {
			return usageErrorf("--login-grace: %s is not a positive duration (e.g. 20s)", theory.Quote(cfg.LoginGrace.String()))
		}
		for name, d := range map[string]time.Duration{"max-run-time": caps.RunTime, "max-pause": caps.Pause} {
			if d < 0 {
				return usageErrorf("--%s: %s is negative (want a duration such as 30s, or 0 for none)", name, theory.Quote(d.String()))
			}
		}
		switch {
		case cfg.Idle < 0:
			return usageErrorf("--idle: %s is negative (want a duration such as 15m, or 0 for never)", theory.Quote(cfg.Idle.String()))
		case cfg.Idle == 0:
			cfg.Idle = -1 // never
		}
		if err := webFlags(fs, &cfg); err != nil {
			return err
		}
		cfg.Caps = caps
		cfg.Parse = sessionArgs
		cfg.Log = e.stderr
		srv, err := serve.New(cfg)
		if err != nil {
			return usageErrorf("%v", err)
		}
		sigs := make(chan os.Signal, 2)
		signal.Notify(sigs, serveSignals...)
		defer signal.Stop(sigs)
		return e.serve(sigs, srv)
	}
	return cmd
}

// serveSignals stop dpso serve, each telling every session: SIGHUP (the
// lecturer's terminal closed) as SIGTERM.
var serveSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalWhy is the reason a signal gives the sessions.
func signalWhy(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "it got SIGINT (Ctrl-C)"
	case syscall.SIGHUP:
		return "it got SIGHUP: its terminal closed"
	}
	return "it got SIGTERM"
}

// webFlags checks the flags of the two transports against each other:
// --web without --listen serves browsers alone, so SSH's own flags need
// --listen; the browsers' flags need --web.
func webFlags(fs *pflag.FlagSet, cfg *serve.Config) error {
	if cfg.Web == "" {
		for _, name := range []string{"tls-cert", "tls-key", "insecure-http", "max-per-address", "frame-ancestors"} {
			if fs.Changed(name) {
				return usageErrorf("--%s: it sets the browsers' transport, which only --web ADDR serves", name)
			}
		}
		return nil
	}
	if cfg.WebLimits.PerAddress == 0 {
		cfg.WebLimits.PerAddress = -1 // no cap
	}
	if fs.Changed("listen") {
		return nil
	}
	for _, name := range []string{"host-key", "authorized-keys", "open", "instructor-key", "max-per-key", "login-grace"} {
		if fs.Changed(name) {
			return usageErrorf("--%s: --web alone serves browsers only, no SSH; give --listen too to serve SSH beside them", name)
		}
	}
	cfg.NoSSH = true
	return nil
}

// serve runs srv until a signal comes, then shuts it down, telling every
// session which; nil once it has stopped.
func (e *env) serve(sigs <-chan os.Signal, srv *serve.Server) error {
	done := make(chan error, 1)
	go func() {
		done <- srv.ListenAndServe(func(banner string) { io.WriteString(e.stderr, banner) })
	}()
	var sig os.Signal
	select {
	case err := <-done:
		return err
	case sig = <-sigs:
	}
	// A second signal cuts the grace short: the connections close at once.
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-sctx.Done():
		}
	}()
	if err := srv.Shutdown(sctx, signalWhy(sig)); err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return err
	}
	return <-done
}

// sessionArgs reads an SSH session's arguments as dpso explore's flags:
// the same flags and the same function (exploreOpts.options) as the
// command, and the same one-line message for a bad one ("dpso: …").
// --out and --data are refused: a session writes and reads no file of the
// server.
func sessionArgs(args []string) (tui.Options, error) {
	opts, err := exploreArgs(args)
	if err != nil {
		return opts, errors.New("dpso: " + sanitize(oneLine(err.Error()), 0))
	}
	return opts, nil
}

func exploreArgs(args []string) (tui.Options, error) {
	fs := pflag.NewFlagSet("dpso explore", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	o := addExploreFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return tui.Options{}, usageErrorf("a session takes the flags of dpso explore (dpso explore --help lists them), e.g. ssh -t HOST -- --preset 3")
		}
		return tui.Options{}, flagError(nil, err)
	}
	if rest := fs.Args(); len(rest) > 0 {
		return tui.Options{}, usageErrorf("dpso explore takes no arguments, got %s (flags start with --; see dpso explore --help)", theory.Quote(rest[0]))
	}
	for _, name := range []string{"out", "data"} {
		if fs.Changed(name) {
			return tui.Options{}, usageErrorf("--%s: a session reads and writes no file of the server; run dpso explore --%s on your own machine", name, name)
		}
	}
	// A state string that names a data file is refused before anything
	// looks at the path: the answer is the same whatever is there.
	if o.state != "" {
		if st, err := statestring.Parse(o.state, tui.ScreenNames()); err == nil && st.Spec.Data != "" {
			return tui.Options{}, usageErrorf("--state: this state string reads a data file, and a session reads no file of the server; open it in dpso explore on your own machine")
		}
	}
	return o.options()
}

// Package serve is `dpso serve`: the explorer for a class on one laptop,
// one explorer per session, over SSH (charm.land/wish/v2 on
// charm.land/ssh) or in a browser tab (xterm.js over a WebSocket: web.go).
//
// A session reaches its client only through a terminal (terminal.go): an
// SSH session with its pty, or a tab's socket. Everything else is the
// session's, the same for both transports (session.go, limits.go): its
// arguments (dpso explore's flags, parsed by Config.Parse, the CLI's own
// function; a bad one is its one-line message and exit status 2), its own
// root model (tui.New) and Bubble Tea program, and its limits:
//
//   - the size it draws is held to MaxCols × MaxRows, whatever the client
//     asks for (an SSH pty-req of 2³²−1 × 2³²−1 is one packet);
//   - what the client types goes through the terminal guard (tui/input:
//     over-long control sequences, pastes capped at 1 MiB), typed bytes at
//     a bounded rate and input events within a budget, so that a flood
//     costs its session alone, and little;
//   - each write to the client waits at most Config.WriteTimeout: a client
//     that reads nothing is dropped, and no shutdown waits on it;
//   - a resize is read at once and the latest given to the explorer, so a
//     burst of them never stops the transport reading;
//   - Config.MaxSessions in all, Config.MaxPerKey per client (its
//     authorized key; else its address, on loopback the local user that
//     owns its socket); an idle timeout (Config.Idle);
//   - every Spec the form takes passes Caps.Limit: no data file of the
//     server, secure randomness (a seed is refused), the caps on n, d,
//     trials and the work budget, refused naming the field and the cap.
//
// [Pool] is the CPUs all sessions' engine calls share: Config.CPUs slots,
// each call holding one per worker it is given (at most
// Config.SessionWorkers; results are the same bits for any number). Each
// session has a [Seat]; the seats are served in turn (sched.go: one call
// of each session per turn, however many it queues), a waiting call is
// told its place and every call that it holds its slots, before the
// engine reports (engine.Progress.Queue; a Seat is a backend.Queued
// runner: the explorer shows a run "asking for a CPU slot" from its key
// to the queue's first report, then "queued (position k)" and the wait,
// and running only once it holds a slot; a prescription waiting for its
// slot is shown "queued (position k)" where it is awaited, a Seat being a
// backend.QueuedPrescriber too), a paused call gives its slots back and
// queues again when resumed (a pause past Caps.Pause cancels it), and a
// call may hold its slots for Caps.RunTime: one whose planned work would
// take longer is refused before it starts (a comparison's refusal names
// the largest n whose plan fits, engine.FitN through the inner runner),
// one that reaches it is stopped. A sweep's grid is held to the caps point by point.
//
// The SSH transport (ssh.go) bounds what it alone holds: a connection
// with no session under way (no handshake, no channel, no shell request)
// is closed after Config.LoginGrace, and past Config.MaxStartups such
// connections the oldest is closed for the newest; a connection holds at
// most 4 session channels, a channel 32 env requests of 8 KiB in all. Who
// gets in: the keys of Config.AuthorizedKeys (and the instructor's),
// anyone who types Config.Token when ssh asks, or, with neither, every
// client (loopback only: the banner warns; beyond loopback New refuses
// unless Config.Open). Every session runs inside wish's recover
// middleware: a panic ends its session, whose student is told, and is
// logged; the others go on. Key and certificate files are read only if
// regular and small (keys.go). The host key is generated once (ed25519)
// and kept in Config.HostKey, written by internal/outfile (0600, atomic,
// never over an existing file).
//
// The holder of Config.InstructorKey may send a preset or a state string
// to every session (`ssh host -- broadcast --preset 3`): each session
// shows it as a banner on its last line, which the student opens with b
// or dismisses with B; nothing changes unasked.
//
// Shutdown (the CLI calls it on SIGINT, SIGTERM and SIGHUP) tells every
// session that the server is stopping, ends its explorer (its runs
// cancelled) without waiting on any one, waits for the sessions to close
// or its context, then closes every connection. A log line per session
// says who (the key's SHA-256 fingerprint, the user name, the address),
// when, for how long and how it ended; never what they did.
package serve

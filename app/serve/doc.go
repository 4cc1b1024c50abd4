// Package serve is `dpso serve`: the explorer over SSH, one explorer per
// session, for a class on one laptop (charm.land/wish/v2 on charm.land/ssh).
//
// Each session gets its own root model (tui.New) and its own Bubble Tea
// program, with the client's terminal: its size (and its resizes), its
// colour profile (from the session's TERM and environment, NO_COLOR
// included) and its background (the explorer asks the terminal; COLORFGBG
// is the first guess). The session's arguments (`ssh -t host -- --preset
// 3`) are dpso explore's flags, parsed and checked by the same function
// (Config.Parse, given by the CLI); a bad one is the same one-line message
// and exit status 2.
//
// What keeps one laptop responsive for a class:
//
//   - [Pool]: every session's engine calls go through one weighted
//     semaphore of Config.CPUs slots (golang.org/x/sync/semaphore, FIFO),
//     each call holding as many slots as the workers it is given (at most
//     Config.SessionWorkers, which results do not depend on), so that one
//     student's sweep takes its share and the others' runs queue behind it
//     in turn, never behind a whole class.
//   - [Caps]: per-session caps on n, d, trials and the work budget. The
//     explorer's form refuses a Spec above them (Options.Limit), naming the
//     field and the cap, as it refuses any invalid value; the pool refuses
//     a call above them (a sweep's grid included) as a refusal the status
//     bar shows.
//   - Config.MaxSessions, and an idle timeout: a session without a key for
//     Config.Idle ends, and is told why.
//
// Every session draws its noise from secure randomness (Options.Limit
// sets --rand secure and refuses a seed), so that no two students share
// noise and no run on the server is mistaken for a reproducible one.
//
// Access: the server listens on loopback (127.0.0.1:2222) by default;
// beyond loopback it needs Config.AuthorizedKeys (only those keys, and the
// instructor's, get in) or Config.Open (anyone who reaches the port), and
// New refuses otherwise. The host key is generated once (ed25519) and kept
// in Config.HostKey, written by internal/outfile (0600, atomic, never over
// an existing file). The holder of Config.InstructorKey may send a preset
// or a state string to every session (`ssh host -- broadcast --preset 3`):
// each session shows it as a banner on its last line, which the student
// opens with b or dismisses with B; nothing changes unasked.
//
// Shutdown (the CLI calls it on SIGINT and SIGTERM) tells every session
// that the server is stopping, ends its explorer (its runs cancelled),
// waits for the sessions to close and stops the server. A log line per
// session says who (the key's SHA-256 fingerprint, the user name, the
// address), when, for how long and how it ended; never what they did.
package serve

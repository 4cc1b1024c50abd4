package serve

import (
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"dpso/tui"
)

// dialAuth connects with the given authentication methods.
func dialAuth(addr string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "student", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit})
}

// answer is keyboard-interactive answering every question with a.
func answer(a string) gossh.AuthMethod {
	return gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
		out := make([]string, len(qs))
		for i := range out {
			out[i] = a
		}
		return out, nil
	})
}

// TestTokenAdmitsWhoTypesIt: with --token, a client gets in by typing the
// token (keyboard-interactive, as ssh asks, or as a password), not with a
// wrong one, nor with a key that is not authorized, nor with none; the
// banner says who gets in, and without a token or keys it warns that
// anyone on this machine does.
func TestTokenAdmitsWhoTypesIt(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner(), Token: "chalk-42-x"})
	for _, c := range []struct {
		name string
		auth gossh.AuthMethod
		ok   bool
	}{
		{"typed when asked", answer("chalk-42-x"), true},
		{"as a password", gossh.Password("chalk-42-x"), true},
		{"a wrong token", answer("chalk-41-x"), false},
		{"an empty answer", answer(""), false},
		{"any key", gossh.PublicKeys(newSigner(t)), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := dialAuth(ts.addr, c.auth)
			if err == nil {
				conn.Close()
			}
			if (err == nil) != c.ok {
				t.Fatalf("login: %v, want admitted %v", err, c.ok)
			}
		})
	}
	if b := ts.Banner(ts.addr, ""); !strings.Contains(b, "admitting anyone who types the class token (--token) when ssh asks") {
		t.Fatalf("the banner does not say who gets in:\n%s", b)
	}
	open := startServer(t, Config{Runner: newBlockRunner()})
	if b := open.Banner(open.addr, ""); !strings.Contains(b, "warning: admitting every SSH client with any key or none: every user of this machine can get a session") || !strings.Contains(b, "--token WORD") {
		t.Fatalf("no warning when anyone on this machine gets in:\n%s", b)
	}
	if _, err := New(Config{Listen: "0.0.0.0:0", HostKey: filepath.Join(t.TempDir(), "k"), Parse: testParse, Token: "chalk-42-x"}); err != nil {
		t.Fatalf("a token admits beyond loopback: %v", err)
	}
}

// TestSessionsPerClientAreCapped: one client has at most MaxPerKey
// sessions at once — counted by its authorized key, or, on loopback
// without one, by the local user that owns its socket — and another
// client is not affected; a session that ends frees its place.
func TestSessionsPerClientAreCapped(t *testing.T) {
	alice, bob := newSigner(t), newSigner(t)
	ts := startServer(t, Config{Runner: newBlockRunner(), MaxPerKey: 2, AuthorizedKeys: writeKeys(t, alice, bob)})
	a1 := connect(t, ts.addr, alice)
	a2 := connect(t, ts.addr, alice)
	a1.waitFor(ready)
	a2.waitFor(ready)
	a3 := connect(t, ts.addr, alice)
	if code := a3.exit(); code != 1 || !strings.Contains(a3.printed(), "you have 2 sessions open here already, the most one client may have (its --max-per-key)") {
		t.Fatalf("a third session of one key: status %d, %q", code, a3.printed())
	}
	b := connect(t, ts.addr, bob)
	b.waitFor(ready)
	a1.key("q")
	a1.exit()
	waitUntil(t, "the session that quit frees its place", func() bool {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return ts.perKey["key "+gossh.FingerprintSHA256(alice.PublicKey())] == 1
	})
	connect(t, ts.addr, alice).waitFor(ready)

	local := startServer(t, Config{Runner: newBlockRunner(), MaxPerKey: 1})
	first := connect(t, local.addr, nil)
	first.waitFor(ready)
	second := connect(t, local.addr, newSigner(t)) // any key: it names no one here
	if code := second.exit(); code != 1 || !strings.Contains(second.printed(), "you have 1 session open here already") {
		t.Fatalf("a second session of this machine's user: status %d, %q", code, second.printed())
	}
	if log := local.log.String(); !strings.Contains(log, "refused: dpso serve: you have 1 session open") {
		t.Fatalf("the refusal is not logged:\n%s", log)
	}
}

// TestPanicInASessionEndsOnlyIt: a panic in one session's setup ends that
// session — its student told, status 1, the panic logged with its stack —
// and the other sessions and the server go on.
func TestPanicInASessionEndsOnlyIt(t *testing.T) {
	parse := func(args []string) (tui.Options, error) {
		if len(args) > 0 && args[0] == "--panic" {
			panic("a bug in a session's setup")
		}
		return testParse(args)
	}
	ts := startServer(t, Config{Runner: newBlockRunner(), Parse: parse})
	a := connect(t, ts.addr, nil)
	a.waitFor(ready)
	b := connect(t, ts.addr, nil, "--panic")
	if code := b.exit(); code != 1 || !strings.Contains(b.printed(), "this session hit an internal error") {
		t.Fatalf("the session that panicked: status %d, %q", code, b.printed())
	}
	a.key("?")
	a.waitFor("── Keys")
	connect(t, ts.addr, nil).waitFor(ready)
	if log := ts.log.String(); !strings.Contains(log, "panic: a bug in a session's setup") || !strings.Contains(log, "ended: internal error (panic)") {
		t.Fatalf("the panic is not logged:\n%s", log)
	}
}

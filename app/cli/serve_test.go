package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestServeRefusesBeforeListening: what dpso serve refuses is refused
// before it listens, with one line and status 2.
func TestServeRefusesBeforeListening(t *testing.T) {
	dir := t.TempDir()
	notKey := filepath.Join(dir, "notes.txt")
	os.WriteFile(notKey, []byte("my notes\n"), 0o644)
	key := filepath.Join(dir, "host_key")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"beyond loopback without keys", []string{"--listen", "0.0.0.0:2222"}, "--listen: \"0.0.0.0:2222\" reaches beyond this machine"},
		{"all interfaces without keys", []string{"--listen", ":2222"}, "give --authorized-keys FILE"},
		{"not host:port", []string{"--listen", "2222"}, "--listen: \"2222\" is not HOST:PORT"},
		{"a host key that is not a key", []string{"--host-key", notKey}, "is not a private key dpso can read"},
		{"missing authorized keys", []string{"--host-key", key, "--authorized-keys", filepath.Join(dir, "none")}, "--authorized-keys: cannot read"},
		{"authorized keys without a key", []string{"--host-key", key, "--authorized-keys", notKey}, "line 1 is not a public key"},
		{"negative idle", []string{"--idle", "-1s"}, "--idle: \"-1s\" is negative"},
		{"idle not a duration", []string{"--idle", "abc"}, "--idle: \"abc\" is not a duration (a number and its unit: 500ms, 30s, 15m, 1h)"},
		{"run time without a unit's name", []string{"--max-run-time", "5x"}, "--max-run-time: \"5x\" is not a duration"},
		{"pause not a duration", []string{"--max-pause", "foo"}, "--max-pause: \"foo\" is not a duration"},
		{"negative cap", []string{"--max-n", "-5"}, "--max-n: \"-5\" is negative"},
		{"no sessions", []string{"--max-sessions", "0"}, "--max-sessions: 0 sessions would serve nobody"},
		{"web beyond loopback without TLS", []string{"--web", "0.0.0.0:8080"}, "--web: \"0.0.0.0:8080\" reaches beyond this machine: give --tls-cert and --tls-key to serve HTTPS, or --insecure-http"},
		{"web not host:port", []string{"--web", "8080"}, "--web: \"8080\" is not HOST:PORT"},
		{"a short token", []string{"--web", "127.0.0.1:8080", "--token", "abc"}, "--token: \"abc\" is not 8 to 64 letters"},
		{"a certificate without its key", []string{"--web", "127.0.0.1:8080", "--tls-cert", notKey}, "--tls-cert: give --tls-key too"},
		{"a certificate that is not one", []string{"--web", "127.0.0.1:8080", "--tls-cert", notKey, "--tls-key", notKey}, "are not a PEM certificate and its key"},
		{"a certificate that is a folder", []string{"--web", "127.0.0.1:8080", "--tls-cert", dir, "--tls-key", notKey}, "is a folder, not a regular file"},
		{"an empty token", []string{"--web", "0.0.0.0:8080", "--insecure-http", "--token", ""}, "--token: an empty value is not allowed"},
		{"an empty token for SSH", []string{"--token", ""}, "--token: an empty value is not allowed"},
		{"SSH's flags without --listen", []string{"--web", "127.0.0.1:8080", "--authorized-keys", notKey}, "--authorized-keys: --web alone serves browsers only"},
		{"no sessions per client", []string{"--max-per-key", "0"}, "--max-per-key: 0 sessions would serve nobody"},
		{"a port past 65535", []string{"--listen", "127.0.0.1:99999"}, "--listen: \"127.0.0.1:99999\": the port \"99999\" is not a port number from 0 to 65535"},
		{"a negative run time", []string{"--max-run-time", "-1s"}, "--max-run-time: \"-1s\" is negative"},
		{"a folder as host key", []string{"--host-key", dir}, "--host-key: \"" + dir},
		{"a device as authorized keys", []string{"--host-key", key, "--authorized-keys", "/dev/null"}, "--authorized-keys: \"/dev/null\" is a device, not a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"serve"}, c.args...), strings.NewReader(""), &out, &errb)
			if code != 2 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), c.want) {
				t.Fatalf("status %d, stderr %q: want 2 and one line with %q", code, errb.String(), c.want)
			}
		})
	}
	if b, _ := os.ReadFile(notKey); string(b) != "my notes\n" {
		t.Fatal("dpso serve changed a file it could not use")
	}
}

// TestServeStopsOnEverySignalTellingTheSessions: SIGINT, SIGTERM and SIGHUP
// (the lecturer's terminal closed) sent to the process each stop dpso
// serve with status 0, the session told which signal it was.
func TestServeStopsOnEverySignalTellingTheSessions(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		says string
	}{
		{syscall.SIGHUP, "it got SIGHUP: its terminal closed"},
		{syscall.SIGTERM, "it got SIGTERM"},
		{syscall.SIGINT, "it got SIGINT (Ctrl-C)"},
	} {
		t.Run(c.sig.String(), func(t *testing.T) {
			errb := &syncBuffer{}
			code := make(chan int, 1)
			go func() {
				code <- Main([]string{"serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(t.TempDir(), "k")}, strings.NewReader(""), io.Discard, errb)
			}()
			var port string
			for deadline := time.Now().Add(time.Minute); port == ""; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the server did not start: %s", errb.String())
				}
				if _, rest, ok := strings.Cut(errb.String(), "listening on 127.0.0.1:"); ok {
					port, _, _ = strings.Cut(rest, ";")
				}
			}
			conn, err := gossh.Dial("tcp", "127.0.0.1:"+port, &gossh.ClientConfig{User: "student", HostKeyCallback: gossh.InsecureIgnoreHostKey(),
				Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			sess, err := conn.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			out := &syncBuffer{}
			sess.Stdout, sess.Stderr = out, out
			sess.RequestPty("xterm", 30, 100, gossh.TerminalModes{})
			if err := sess.Shell(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Minute); !strings.Contains(out.String(), "ready"); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the session never drew its screen")
				}
			}
			syscall.Kill(os.Getpid(), c.sig)
			if got := <-code; got != 0 {
				t.Fatalf("status %d after %s, want 0: %s", got, c.sig, errb.String())
			}
			sess.Wait()
			if !strings.Contains(out.String(), "the server is stopping ("+c.says+")") {
				t.Fatalf("the session was not told %q", c.says)
			}
		})
	}
}

// TestServeHelpSaysWhenAClientIsDropped: the server drops a client when
// one write to it waits the write timeout (app/serve's
// TestClientThatReadsNothingIsDropped fills the client's window to get
// there); a
// client that merely stops reading for a while — an OpenSSH client
// stopped 55 s during a streaming comparison — keeps its session while
// its window has room, so the help says "whose screen waits … unread",
// not "that reads nothing for".
func TestServeHelpSaysWhenAClientIsDropped(t *testing.T) {
	long := newServeCmd(&env{}).Long
	if want := "drops a client whose screen waits 10s\nunread"; !strings.Contains(long, want) || strings.Contains(long, "reads nothing") {
		t.Errorf("dpso serve --help does not say %q:\n%s", want, long)
	}
}

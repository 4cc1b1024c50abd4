package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"negative cap", []string{"--max-n", "-5"}, "--max-n: \"-5\" is negative"},
		{"no sessions", []string{"--max-sessions", "0"}, "--max-sessions: 0 sessions would serve nobody"},
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

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
		{"web beyond loopback without TLS", []string{"--web", "0.0.0.0:8080"}, "--web: \"0.0.0.0:8080\" reaches beyond this machine: give --tls-cert and --tls-key to serve HTTPS, or --insecure-http"},
		{"web not host:port", []string{"--web", "8080"}, "--web: \"8080\" is not HOST:PORT"},
		{"a short token", []string{"--web", "127.0.0.1:8080", "--token", "abc"}, "--token: \"abc\" is not 8 to 64 letters"},
		{"a certificate without its key", []string{"--web", "127.0.0.1:8080", "--tls-cert", notKey}, "--tls-cert: give --tls-key too"},
		{"a certificate that is not one", []string{"--web", "127.0.0.1:8080", "--tls-cert", notKey, "--tls-key", notKey}, "are not a PEM certificate and its key"},
		{"a certificate that is a folder", []string{"--web", "127.0.0.1:8080", "--tls-cert", dir, "--tls-key", notKey}, "is not a regular file"},
		{"an empty token", []string{"--web", "0.0.0.0:8080", "--insecure-http", "--token", ""}, "--token: an empty value is not allowed"},
		{"a token without --web", []string{"--token", "class-token"}, "--token: it sets the browsers' transport, which only --web ADDR serves"},
		{"SSH's flags without --listen", []string{"--web", "127.0.0.1:8080", "--authorized-keys", notKey}, "--authorized-keys: --web alone serves browsers only"},
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

package serve

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"

	"dpso/internal/outfile"
	"dpso/theory"
)

// DefaultHostKey is where the host key is kept unless Config.HostKey
// says otherwise: dpso's folder under the user's configuration folder
// (~/.config/dpso/ssh_host_ed25519_key on Linux).
func DefaultHostKey() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration folder for the host key (%v); give --host-key FILE", err)
	}
	return filepath.Join(dir, "dpso", "ssh_host_ed25519_key"), nil
}

// hostKey reads the host key at path, or, when there is no file there,
// generates an ed25519 key and writes it (outfile.WritePrivate: 0600,
// atomic, never over a file that appeared meanwhile); created says which.
// The folder of the default path is created (0700); another path's folder
// must exist.
func hostKey(path string, makeDir bool) (signer gossh.Signer, created bool, err error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		s, err := gossh.ParsePrivateKey(b)
		if err != nil {
			return nil, false, fmt.Errorf("--host-key: %s is not a private key dpso can read (%v); give another file, or a new name for dpso to create", theory.Quote(path), err)
		}
		return s, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, fmt.Errorf("--host-key: cannot read %s: %v", theory.Quote(path), unwrap(err))
	}
	if makeDir {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, false, fmt.Errorf("--host-key: cannot create the folder of %s: %v", theory.Quote(path), unwrap(err))
		}
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "dpso serve host key")
	if err != nil {
		return nil, false, err
	}
	if err := outfile.WritePrivate(path, func(w io.Writer) error { return pem.Encode(w, block) }); err != nil {
		return nil, false, fmt.Errorf("--host-key: %v", err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	return s, true, err
}

// readKeys reads an authorized_keys file (one key a line; blank lines
// and # comments skipped), refusing a line that is not a key with its
// number. flag names the file's flag in messages.
func readKeys(flag, path string) ([]gossh.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--%s: cannot read %s: %v", flag, theory.Quote(path), unwrap(err))
	}
	var keys []gossh.PublicKey
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey(t)
		if err != nil {
			return nil, fmt.Errorf("--%s: %s line %d is not a public key (%v)", flag, theory.Quote(path), line, err)
		}
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--%s: cannot read %s: %v", flag, theory.Quote(path), err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("--%s: %s holds no public key", flag, theory.Quote(path))
	}
	return keys, nil
}

// hasKey reports whether k is one of keys.
func hasKey(keys []gossh.PublicKey, k gossh.PublicKey) bool {
	if k == nil {
		return false
	}
	kb := k.Marshal()
	for _, a := range keys {
		if bytes.Equal(a.Marshal(), kb) {
			return true
		}
	}
	return false
}

// unwrap drops a *fs.PathError's path (the message names the file).
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

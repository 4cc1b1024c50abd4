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
	"syscall"

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
	b, err := readSmall("host-key", path, maxHostKey)
	switch {
	case err == nil:
		s, err := gossh.ParsePrivateKey(b)
		if err != nil {
			return nil, false, fmt.Errorf("--host-key: %s is not a private key dpso can read (%v); give another file, or a new name for dpso to create", theory.Quote(path), err)
		}
		return s, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, err
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
	b, err := readSmall(flag, path, maxKeysFile)
	if err != nil {
		return nil, err
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

// The largest key files read: an authorized_keys file of a class (a
// thousand keys and more) and a private host key (maxPEM, web.go, bounds a
// TLS certificate and its key).
const (
	maxKeysFile = 1 << 20
	maxHostKey  = 64 << 10
)

// fileError is a key file refused for what it is (not a regular file, or
// too large), before any of it is read.
type fileError struct{ msg string }

func (e *fileError) Error() string { return e.msg }

// readSmall reads the regular file at path, at most limit bytes; anything
// else (a folder, a device such as /dev/zero, a FIFO, which would block,
// a socket) or a larger file is refused naming the flag and what it is,
// without reading it. Every error names the flag and the file (a missing
// file's wraps fs.ErrNotExist).
func readSmall(flag, path string, limit int64) ([]byte, error) {
	b, err := readRegular(flag, path, limit)
	var fe *fileError
	if err != nil && !errors.As(err, &fe) {
		return nil, fmt.Errorf("--%s: cannot read %s: %w", flag, theory.Quote(path), unwrap(err))
	}
	return b, err
}

func readRegular(flag, path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regularSmall(flag, path, fi, limit); err != nil {
		return nil, err
	}
	// Non-blocking: a FIFO put in the file's place since the Stat does
	// not hold the open, and the Stat of what was opened refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regularSmall(flag, path, fi, limit); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &fileError{fmt.Sprintf("--%s: %s grew past %s while it was read; give the file itself", flag, theory.Quote(path), sizeText(limit))}
	}
	return b, nil
}

// regularSmall refuses fi unless it is a regular file of at most limit
// bytes.
func regularSmall(flag, path string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return &fileError{fmt.Sprintf("--%s: %s is %s, not a regular file; give the file itself", flag, theory.Quote(path), kindOf(fi.Mode()))}
	}
	if fi.Size() > limit {
		return &fileError{fmt.Sprintf("--%s: %s holds %s, more than the %s such a file may (it is not one)", flag, theory.Quote(path), sizeText(fi.Size()), sizeText(limit))}
	}
	return nil
}

// sizeText writes a file's size: bytes below a KiB, else KiB or MiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return theory.Sig4.Format(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return theory.Sig4.Format(float64(n)/(1<<10)) + " KiB"
	}
	return theory.FormatCount(n) + " bytes"
}

// kindOf names a file that is not regular.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (a named pipe)"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
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

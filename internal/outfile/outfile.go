package outfile

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"dpso/theory"
)

// Mode says what Write does when the target exists.
type Mode int

const (
	// Create refuses an existing target (the default).
	Create Mode = iota
	// Replace replaces an existing regular file atomically (a reader sees
	// the old file or the new one, never a mixture).
	Replace
)

// TargetError is a target that Write refuses: Path exists and Mode does
// not allow replacing it, or it is a link, a folder or another
// non-regular file. The file is left as it was.
type TargetError struct {
	Path string
	// Exists: a regular file is already there (Replace would overwrite it).
	Exists bool
	Msg    string
}

func (e *TargetError) Error() string { return e.Msg }

// ErrExists matches (errors.Is) a *TargetError whose target exists as a
// regular file.
var ErrExists = fs.ErrExist

// Is lets errors.Is(err, ErrExists) find an existing regular target.
func (e *TargetError) Is(target error) bool { return target == fs.ErrExist && e.Exists }

// Check reports, without writing anything, whether Write(path, mode, …)
// would be refused because of its target: a *TargetError for an existing
// file (mode Create), a symbolic link, a folder or a special file; an
// error if the folder does not exist or a file cannot be created in it
// (checked by creating and removing a temporary file there).
func Check(path string, mode Mode) error {
	if err := checkTarget(path, mode); err != nil {
		return err
	}
	f, tmp, err := createTemp(path)
	if err != nil {
		return err
	}
	f.Close()
	os.Remove(tmp)
	untrack(tmp)
	return nil
}

// checkTarget inspects the target itself with Lstat (never following a
// link).
func checkTarget(path string, mode Mode) error {
	if path == "" {
		return &TargetError{Path: path, Msg: "empty file name"}
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("cannot inspect %s: %w", q(path), unwrapPath(err))
	}
	switch m := fi.Mode(); {
	case m.IsRegular() && inputOf(fi) != "":
		return &TargetError{Path: path, Msg: q(path) + " is the input file of " + inputOf(fi) + "; dpso never writes over its own input, even with --force (choose another name)"}
	case m&fs.ModeSymlink != 0:
		return &TargetError{Path: path, Msg: q(path) + " is a symbolic link; dpso never writes through a link (remove it, or choose another name)"}
	case m.IsDir():
		return &TargetError{Path: path, Msg: q(path) + " is a folder, not a file name"}
	case !m.IsRegular():
		return &TargetError{Path: path, Msg: q(path) + " exists and is not a regular file (a device, pipe or socket); choose another name"}
	case mode != Replace:
		return &TargetError{Path: path, Exists: true, Msg: q(path) + " already exists; dpso does not overwrite files unless asked (--force), so it is left untouched"}
	}
	return nil
}

// createTemp creates a new, empty temporary file beside path, exclusively
// and without following links, readable by everyone (0644).
func createTemp(path string) (*os.File, string, error) { return createTempPerm(path, 0o644) }

// createTempPerm is createTemp with the file's permissions.
func createTempPerm(path string, perm os.FileMode) (*os.File, string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	var rnd [6]byte
	for range 100 {
		rand.Read(rnd[:])
		tmp := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(rnd[:]))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow|syscall.O_CLOEXEC, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("cannot write a file in the folder %s: %w", q(dir), unwrapPath(err))
		}
		track(tmp)
		return f, tmp, nil
	}
	return nil, "", fmt.Errorf("cannot write a file in the folder %s", q(dir))
}

// Write writes the file path with write's output: into a temporary file
// beside it, synced, then put in place (see the package doc). Under mode
// Create an existing target is refused (*TargetError, errors.Is
// ErrExists), also when it appears while write runs; under Replace an
// existing regular file is replaced atomically. Links and non-regular
// targets are always refused. On any failure, including an error or a
// panic of write, no file is left at path that was not there before, and
// an existing one is unchanged.
func Write(path string, mode Mode, write func(io.Writer) error) (err error) {
	return WriteContext(context.Background(), path, mode, write)
}

// WriteContext is Write, cancelled by ctx: once ctx is done every write
// fails, the temporary file is removed and ctx's error returned; nothing
// is put in place after ctx is done.
func WriteContext(ctx context.Context, path string, mode Mode, write func(io.Writer) error) error {
	return writePerm(ctx, path, mode, 0o644, write)
}

// WritePrivate is Write under mode Create of a file only its owner may
// read or write (0600): a private key.
func WritePrivate(path string, write func(io.Writer) error) error {
	return writePerm(context.Background(), path, Create, 0o600, write)
}

// writePerm is WriteContext with the new file's permissions.
func writePerm(ctx context.Context, path string, mode Mode, perm os.FileMode, write func(io.Writer) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkTarget(path, mode); err != nil {
		return err
	}
	f, tmp, err := createTempPerm(path, perm)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
		untrack(tmp)
	}()
	if err := write(ctxWriter{ctx: ctx, w: f}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: %w", q(path), unwrapPath(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", q(path), unwrapPath(err))
	}
	if err := ctx.Err(); err != nil {
		os.Remove(tmp)
		done = true
		return err
	}
	if err := publish(tmp, path, mode); err != nil {
		os.Remove(tmp)
		done = true
		return err
	}
	done = true
	syncDir(filepath.Dir(path))
	return nil
}

// publish puts the complete temporary file tmp at path.
func publish(tmp, path string, mode Mode) error {
	if mode == Replace {
		// Refuse a link or a folder that appeared meanwhile (rename would
		// replace a link, not follow it, but the user did not ask for that).
		if err := checkTarget(path, Replace); err != nil {
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("cannot write %s: %w", q(path), unwrapPath(err))
		}
		return nil
	}
	// A hard link never replaces anything: it fails if path exists in any
	// form (a file, a dangling link), so nothing is overwritten even if a
	// file appeared after the check.
	err := os.Link(tmp, path)
	switch {
	case err == nil:
		os.Remove(tmp)
		return nil
	case errors.Is(err, fs.ErrExist):
		if terr := checkTarget(path, Create); terr != nil {
			return terr
		}
		return &TargetError{Path: path, Exists: true, Msg: q(path) + " appeared while it was being written; it is left untouched"}
	case linkUnsupported(err):
		// Some file systems have no hard links: check again and rename
		// (the window between the two is the only race left).
		if err := checkTarget(path, Create); err != nil {
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("cannot write %s: %w", q(path), unwrapPath(err))
		}
		return nil
	}
	return fmt.Errorf("cannot write %s: %w", q(path), unwrapPath(err))
}

// linkUnsupported reports whether a hard link failed because the file
// system has none (rather than because of the target).
func linkUnsupported(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) ||
		errors.Is(err, syscall.EMLINK) || errors.Is(err, syscall.EXDEV)
}

// syncDir makes a rename durable (best effort: not every system can sync
// a folder).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteSet writes one file per extension, stem+ext, each by its writer,
// under the first of stem, stem-2, stem-3, … (up to stem-999) none of whose
// files exists, each created exclusively (mode Create). If a file of the
// set appears meanwhile, the files of that attempt are removed (they are
// ours) and the next stem is tried. It returns the paths written, in the
// order of exts. On another failure the files it wrote are removed too.
func WriteSet(stem string, exts []string, write func(ext string, w io.Writer) error) ([]string, error) {
	return WriteSetContext(context.Background(), stem, exts, write)
}

// WriteSetContext is WriteSet, cancelled by ctx as WriteContext is (the
// files of the set already written are removed).
func WriteSetContext(ctx context.Context, stem string, exts []string, write func(ext string, w io.Writer) error) ([]string, error) {
	for i := 1; i < 1000; i++ {
		s := stem
		if i > 1 {
			s = fmt.Sprintf("%s-%d", stem, i)
		}
		if taken(s, exts) {
			continue
		}
		var paths []string
		var err error
		for _, ext := range exts {
			p := s + ext
			if err = WriteContext(ctx, p, Create, func(w io.Writer) error { return write(ext, w) }); err != nil {
				break
			}
			paths = append(paths, p)
		}
		if err == nil {
			return paths, nil
		}
		for _, p := range paths {
			os.Remove(p)
		}
		var te *TargetError
		if !errors.As(err, &te) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("no free name for %s after 999 tries", q(stem))
}

// taken reports whether any file of the set exists (in any form).
func taken(stem string, exts []string) bool {
	for _, ext := range exts {
		if _, err := os.Lstat(stem + ext); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// q quotes a path for a message (theory.Quote: escaped, cut).
func q(path string) string { return theory.Quote(path) }

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

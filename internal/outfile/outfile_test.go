package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// files lists dir's entries, so that a test can assert that a failed
// write left nothing behind (no temporary file either).
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fig.svg")
	if err := Write(p, Create, writeString("hello")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); got != "hello" {
		t.Errorf("content %q, want hello", got)
	}
	if fs := files(t, dir); !slices.Equal(fs, []string{"fig.svg"}) {
		t.Errorf("folder holds %v, want only fig.svg (no temporary file left)", fs)
	}
}

// TestWriteRefusals: each target Write must refuse, in each mode, leaving
// the folder exactly as it was (the link's target too).
func TestWriteRefusals(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir, p string)
		mode  Mode
		// exists: the refusal is errors.Is(ErrExists) (a regular file).
		exists bool
		want   string
	}{
		{"existing file", func(t *testing.T, dir, p string) { os.WriteFile(p, []byte("mine"), 0o644) }, Create, true, "already exists"},
		{"link to a file", func(t *testing.T, dir, p string) {
			os.WriteFile(filepath.Join(dir, "victim"), []byte("mine"), 0o644)
			os.Symlink(filepath.Join(dir, "victim"), p)
		}, Create, false, "symbolic link"},
		{"link to a file, replace", func(t *testing.T, dir, p string) {
			os.WriteFile(filepath.Join(dir, "victim"), []byte("mine"), 0o644)
			os.Symlink(filepath.Join(dir, "victim"), p)
		}, Replace, false, "symbolic link"},
		{"dangling link", func(t *testing.T, dir, p string) { os.Symlink(filepath.Join(dir, "planted"), p) }, Create, false, "symbolic link"},
		{"dangling link, replace", func(t *testing.T, dir, p string) { os.Symlink(filepath.Join(dir, "planted"), p) }, Replace, false, "symbolic link"},
		{"folder", func(t *testing.T, dir, p string) { os.Mkdir(p, 0o755) }, Replace, false, "folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "out.png")
			c.setup(t, dir, p)
			before := snapshot(t, dir)
			err := Write(p, c.mode, writeString("new"))
			var te *TargetError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a *TargetError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("message %q does not say %q", err, c.want)
			}
			if errors.Is(err, ErrExists) != c.exists {
				t.Errorf("errors.Is(err, ErrExists) = %v, want %v", !c.exists, c.exists)
			}
			if after := snapshot(t, dir); !maps(before, after) {
				t.Errorf("folder changed: before %v, after %v", before, after)
			}
			if err := Check(p, c.mode); err == nil || !errors.As(err, &te) {
				t.Errorf("Check = %v, want the same refusal", err)
			}
		})
	}
}

// snapshot maps each entry of dir to its content (or its link target).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, name := range files(t, dir) {
		p := filepath.Join(dir, name)
		fi, _ := os.Lstat(p)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			m[name] = "link:" + l
		case fi.IsDir():
			m[name] = "dir"
		default:
			m[name] = read(t, p)
		}
	}
	return m
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestReplaceExistingFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.svg")
	os.WriteFile(p, []byte("old"), 0o644)
	if err := Write(p, Replace, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); got != "new" {
		t.Errorf("content %q, want new", got)
	}
	if fs := files(t, dir); len(fs) != 1 {
		t.Errorf("folder holds %v", fs)
	}
}

// TestFailedWriteKeepsTheOldFile simulates a write that fails half way
// (a full disk, say) and one that panics: the existing file keeps its
// content and no partial or temporary file is left.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	for _, mode := range []Mode{Create, Replace} {
		t.Run(map[Mode]string{Create: "create", Replace: "replace"}[mode], func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "out.png")
			if mode == Replace {
				os.WriteFile(p, []byte("old"), 0o644)
			}
			before := snapshot(t, dir)
			errDisk := errors.New("no space left on device")
			err := Write(p, mode, func(w io.Writer) error {
				io.WriteString(w, "partial")
				return errDisk
			})
			if !errors.Is(err, errDisk) {
				t.Errorf("mode %d: err = %v, want the writer's", mode, err)
			}
			if after := snapshot(t, dir); !maps(before, after) {
				t.Errorf("mode %d: folder changed after a failed write: before %v, after %v", mode, before, after)
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("mode %d: the panic did not propagate", mode)
					}
				}()
				Write(p, mode, func(w io.Writer) error {
					io.WriteString(w, "partial")
					panic("boom")
				})
			}()
			if after := snapshot(t, dir); !maps(before, after) {
				t.Errorf("mode %d: folder changed after a panicking write: before %v, after %v", mode, before, after)
			}
		})
	}
}

// TestTargetAppearsDuringWrite: a file (or a link) created at the target
// while the content is being written is not overwritten in mode Create.
func TestTargetAppearsDuringWrite(t *testing.T) {
	for _, plant := range []string{"file", "link"} {
		t.Run(plant, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "out.json")
			victim := filepath.Join(dir, "victim")
			os.WriteFile(victim, []byte("mine"), 0o644)
			err := Write(p, Create, func(w io.Writer) error {
				if plant == "file" {
					os.WriteFile(p, []byte("theirs"), 0o644)
				} else {
					os.Symlink(victim, p)
				}
				_, err := io.WriteString(w, "new")
				return err
			})
			var te *TargetError
			if !errors.As(err, &te) {
				t.Fatalf("%s: err = %v, want a *TargetError", plant, err)
			}
			if got := read(t, victim); got != "mine" {
				t.Errorf("%s: the link's target was changed to %q", plant, got)
			}
			if plant == "file" {
				if got := read(t, p); got != "theirs" {
					t.Errorf("the file that appeared was overwritten: %q", got)
				}
			}
			if n := len(files(t, dir)); n != 2 {
				t.Errorf("%s: folder holds %v, want the victim and the planted name only", plant, files(t, dir))
			}
		})
	}
}

func TestReadOnlyFolder(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	if os.Geteuid() == 0 {
		// Root ignores folder permissions; /proc refuses new files to
		// everyone.
		if _, err := os.Stat("/proc/self"); err != nil {
			t.Skip("running as root without /proc: no read-only folder to test")
		}
		ro = "/proc"
	}
	p := filepath.Join(ro, "dpso-out.svg")
	if err := Check(p, Create); err == nil {
		t.Error("Check accepted a read-only folder")
	}
	if err := Write(p, Create, writeString("x")); err == nil {
		t.Error("Write into a read-only folder succeeded")
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after the failed write", p)
	}
	if ro != "/proc" {
		if es := files(t, ro); len(es) != 0 {
			t.Errorf("read-only folder holds %v", es)
		}
	}
	if err := Check(filepath.Join(dir, "missing", "out.svg"), Create); err == nil {
		t.Error("Check accepted a missing folder")
	}
}

// TestWriteSetPicksAFreeStem: existing files and planted (dangling) links
// with the export's predictable names are skipped, never written through.
func TestWriteSetPicksAFreeStem(t *testing.T) {
	dir := t.TempDir()
	stem := filepath.Join(dir, "dpso-20260101-120000-run")
	os.WriteFile(stem+".json", []byte("earlier"), 0o644)
	os.Symlink(filepath.Join(dir, "planted"), stem+"-2.png")
	exts := []string{".png", ".svg", ".json"}
	paths, err := WriteSet(stem, exts, func(ext string, w io.Writer) error {
		_, err := io.WriteString(w, "content"+ext)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{stem + "-3.png", stem + "-3.svg", stem + "-3.json"}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	if got := read(t, stem+".json"); got != "earlier" {
		t.Errorf("an earlier export was overwritten: %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "planted")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the planted link's target was created")
	}
	// A failure part way removes the set's files written so far.
	dir2 := t.TempDir()
	errDraw := errors.New("draw failed")
	_, err = WriteSet(filepath.Join(dir2, "x"), exts, func(ext string, w io.Writer) error {
		if ext == ".json" {
			return errDraw
		}
		_, err := io.WriteString(w, "ok")
		return err
	})
	if !errors.Is(err, errDraw) {
		t.Errorf("err = %v, want the writer's", err)
	}
	if fs := files(t, dir2); len(fs) != 0 {
		t.Errorf("a failed set left %v", fs)
	}
}

// TestWritePrivateIsOwnersOnly: a private key is written 0600 (not the
// 0644 of every other file), and never over an existing file.
func TestWritePrivateIsOwnersOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "key")
	if err := WritePrivate(p, writeString("secret")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Fatalf("permissions %o, want 600", perm)
	}
	if err := WritePrivate(p, writeString("other")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("a second WritePrivate: %v, want an existing-file refusal", err)
	}
	if got := read(t, p); got != "secret" {
		t.Fatalf("the key was changed to %q", got)
	}
}

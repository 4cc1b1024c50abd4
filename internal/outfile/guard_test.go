package outfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtectedInputIsNeverATarget: a file recorded as an input is
// refused as a target under every mode and through every name (the same
// path, a hard link); other files are not affected.
func TestProtectedInputIsNeverATarget(t *testing.T) {
	defer Unprotect()
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.csv")
	os.WriteFile(in, []byte("a,y\n1,2\n"), 0o644)
	hard := filepath.Join(dir, "hard.csv")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte("{}"), 0o644)
	Protect(in, "--data")
	for _, path := range []string{in, hard, filepath.Join(dir, ".", "rows.csv")} {
		for _, mode := range []Mode{Create, Replace} {
			err := Write(path, mode, writeString("shard"))
			var te *TargetError
			if !errors.As(err, &te) || !strings.Contains(te.Msg, "input file of --data") {
				t.Errorf("Write(%s, %d) = %v; want the input refused", path, mode, err)
			}
			if err := Check(path, mode); !errors.As(err, &te) {
				t.Errorf("Check(%s, %d) = %v; want the input refused", path, mode, err)
			}
		}
	}
	if b, _ := os.ReadFile(in); string(b) != "a,y\n1,2\n" {
		t.Errorf("the input changed: %q", b)
	}
	if err := Write(other, Replace, writeString("new")); err != nil {
		t.Errorf("another file: %v", err)
	}
	if got := files(t, dir); len(got) != 3 {
		t.Errorf("files left: %v", got)
	}
}

// TestWriteContextCancelled: a write cancelled while it writes (a signal)
// returns the context's error and leaves neither the file nor its
// temporary behind; one cancelled before it starts writes nothing.
func TestWriteContextCancelled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.svg")
	ctx, cancel := context.WithCancel(context.Background())
	err := WriteContext(ctx, path, Create, func(w io.Writer) error {
		if _, err := io.WriteString(w, "<svg>"); err != nil {
			return err
		}
		cancel() // the signal arrives mid-write
		_, err := io.WriteString(w, "</svg>")
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("files left: %v", got)
	}
	if err := WriteContext(ctx, path, Create, writeString("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("files left: %v", got)
	}
}

// TestRemoveTemps: the temporary file of a write still under way is
// removed by RemoveTemps (what a signal's exit path calls); the write
// then fails and leaves nothing.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "part-1.json")
	err := Write(path, Create, func(w io.Writer) error {
		io.WriteString(w, "{")
		if got := files(t, dir); len(got) != 1 || !strings.HasPrefix(got[0], ".part-1.json.tmp-") {
			t.Errorf("during the write: %v", got)
		}
		RemoveTemps()
		if got := files(t, dir); len(got) != 0 {
			t.Errorf("after RemoveTemps: %v", got)
		}
		return nil
	})
	if err == nil {
		t.Error("the write succeeded without its temporary file")
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("files left: %v", got)
	}
}

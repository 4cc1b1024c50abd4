package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"dpso/internal/plot"
)

// TestOutputOverInputRefused: no output replaces a file the command
// reads, whatever the flags (--force) and the name (a hard link): the
// user's data survive.
func TestOutputOverInputRefused(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "rows.csv")
	rows := "a1,a2,y\n1,2,3\n2,1,0\n0,1,1\n1,1,1\n2,2,0\n"
	os.WriteFile(data, []byte(rows), 0o644)
	hard := filepath.Join(dir, "hard.csv")
	os.Link(data, hard)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"sweep --out the data", []string{"sweep", "--data", data, "--rk", "1", "--beta", "1", "--vary", "eps", "--from", "1", "--to", "2", "--points", "2", "--out", data, "--force"}},
		{"sweep --out a hard link of the data", []string{"sweep", "--data", data, "--rk", "1", "--beta", "1", "--vary", "eps", "--from", "1", "--to", "2", "--points", "2", "--out", hard, "--force"}},
		{"run --plot the data", []string{"run", "--data", data, "--rk", "1", "--beta", "1", "--plot", data + ".svg", "--force"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "run --plot the data" {
				// An .svg name that is the data file: link it.
				os.Remove(data + ".svg")
				os.Link(data, data+".svg")
			}
			code, _, errs := dpsoCLI(tc.args...)
			if code != 2 || !strings.Contains(errs, "input file of --data") {
				t.Errorf("status %d, stderr %q; want 2 and the input named", code, errs)
			}
			if b, _ := os.ReadFile(data); string(b) != rows {
				t.Errorf("the data file changed: %.80q", b)
			}
		})
	}
}

// TestPlotWriteInterrupted: a signal while the figure is written ends
// the command with the signal's status (130 for Ctrl-C, 143 for
// SIGTERM, 129 for SIGHUP) and leaves no file, temporary or not.
func TestPlotWriteInterrupted(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "fig.svg")
			ctx, cancel := context.WithCancelCause(context.Background())
			err := savePlot(ctx, "dpso run", path, false, func(w io.Writer, _ plot.Format) error {
				if _, err := io.WriteString(w, "<svg>"); err != nil {
					return err
				}
				cancel(&signalCause{sig: sig})
				_, err := io.WriteString(w, "</svg>")
				return err
			})
			var xe *exitError
			if !errors.As(err, &xe) || xe.code != 128+int(sig) {
				t.Errorf("err %v; want exit status %d", err, 128+int(sig))
			}
			if es, _ := os.ReadDir(dir); len(es) != 0 {
				t.Errorf("files left: %v", es)
			}
		})
	}
}

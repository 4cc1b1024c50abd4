package cli

import (
	"context"
	"encoding/xml"
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

// TestHostileFileNameEscaped: a data file whose name carries an OSC
// sequence (it retitles the terminal), a BEL and XML's & and <: no output
// of any command prints it raw, the figures are well-formed XML, and the
// reproduce line quotes it so that it names the same file.
func TestHostileFileNameEscaped(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "t\x1b]0;PWNED\ax&<b.csv")
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "linreg-t-d3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(data, src, 0o644)
	common := []string{"--data", data, "--rk", "5", "--beta", "1", "--n", "300"}
	for _, tc := range []struct {
		name string
		args []string
		svg  string
	}{
		{"run table", []string{"run"}, ""},
		{"run json", []string{"run", "--json"}, ""},
		{"run csv", []string{"run", "--csv"}, ""},
		{"run figure", []string{"run", "--plot", filepath.Join(dir, "run.svg")}, filepath.Join(dir, "run.svg")},
		{"comparison", []string{"run", "--solvers", "acsa,sgd"}, ""},
		{"sweep table and figure", []string{"sweep", "--vary", "eps", "--from", "1", "--to", "2", "--points", "2", "--plot", filepath.Join(dir, "sweep.svg")}, filepath.Join(dir, "sweep.svg")},
		{"dry run", []string{"run", "--dry-run"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, tc.args...), common...)
			code, out, errs := dpsoCLI(args...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			for _, s := range []string{out, errs} {
				if i := strings.IndexAny(s, "\x1b\a"); i >= 0 {
					t.Errorf("raw control character in the output: %q", s[max(0, i-40):min(len(s), i+40)])
				}
			}
			if tc.svg != "" {
				f, err := os.Open(tc.svg)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				dec := xml.NewDecoder(f)
				for {
					_, err := dec.Token()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s is not well-formed XML: %v", tc.svg, err)
					}
				}
			}
		})
	}
}

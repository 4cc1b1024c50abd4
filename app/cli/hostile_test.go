package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// hostile is one hostile command line: the status it must end with and
// what its message must contain.
type hostile struct {
	args []string
	code int
	want []string
}

// checkMessage asserts what every error message of dpso promises: one
// line, no control character or escape sequence (ESC, OSC's BEL), valid
// UTF-8, and at most maxLine bytes however long the input was.
func checkMessage(t *testing.T, args []string, errs string) {
	t.Helper()
	const maxLine = 1200
	if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
		t.Errorf("%.80q: stderr is not one line: %.200q", args, errs)
	}
	line := strings.TrimSuffix(errs, "\n")
	if len(line) > maxLine {
		t.Errorf("%.80q: message of %d bytes (limit %d): %.200q", args, len(line), maxLine, line)
	}
	if !utf8.ValidString(line) {
		t.Errorf("%.80q: message is not valid UTF-8: %.200q", args, line)
	}
	for _, r := range line {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
			t.Errorf("%.80q: message carries %U raw: %.200q", args, r, line)
			break
		}
	}
}

// TestEchoedInputIsQuotedAndCut: values echoed by any
// error path — our flags, pflag's unknown-flag and missing-value errors,
// cobra's stray arguments, a CSV cell, a file name — come quoted, escaped
// and cut.
func TestEchoedInputIsQuotedAndCut(t *testing.T) {
	dir := t.TempDir()
	osc := "\x1b]0;pwned\x07\x1b[2J"
	long := strings.Repeat("x", 10_000)
	bigCell := filepath.Join(dir, "bigcell.csv")
	os.WriteFile(bigCell, []byte("1,2\n3,"+strings.Repeat("9z", 100_000)+"\n"), 0o644)
	escCell := filepath.Join(dir, "esc.csv")
	os.WriteFile(escCell, []byte("1,2\n3,"+osc+"\n"), 0o644)
	escName := filepath.Join(dir, "a"+osc+".csv")
	fifo := filepath.Join(dir, "fifo.csv")
	syscall.Mkfifo(fifo, 0o644)
	tsv := filepath.Join(dir, "rows.tsv")
	os.WriteFile(tsv, []byte("\xef\xbb\xbfa\tb\ty\n1\t2\t3\n2\t1\t0\n0\t1\t1\n"), 0o644)
	huge := filepath.Join(dir, "huge.csv")
	os.WriteFile(huge, []byte("a,y\n1,2\n1e308,3\n2,1\n"), 0o644)
	longLine := filepath.Join(dir, "longline.csv")
	os.WriteFile(longLine, []byte("a,y\n"+strings.Repeat("1,", 600_000)+"1\n"), 0o644)
	cases := []hostile{
		// Values: no NaN, no wrapped integer, no
		// silent default for an empty value.
		{[]string{"privacy", "--eps", "1", "--delta", "1e-320"}, 2, []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{[]string{"privacy", "--eps", "1e-200"}, 2, []string{"--eps:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"privacy", "--eps", "1e200"}, 2, []string{"--eps:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"bounds", "--n", "100", "--d", "2", "--eps", "1", "--delta", "1e-320"}, 2, []string{"--delta:"}},
		{[]string{"run", "--scenario", "mean-hard", "--r", "1e6", "--curvature", "1e-300"}, 2, []string{"--curvature:", "proof's domain"}},
		{[]string{"sweep", "--scenario", "linreg-t", "--vary", "n", "--from", "100", "--to", "1e308"}, 2, []string{"--to:", "[2, 10⁸]"}},
		{[]string{"sweep", "--scenario", "linreg-t", "--vary", "d", "--from", "1", "--to", "1e30"}, 2, []string{"--to:", "[1, 10000]"}},
		{[]string{"sweep", "--scenario", "linreg-t", "--vary", "eps", "--from", "1e-300", "--to", "1"}, 2, []string{"--from:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"sweep", "--scenario", "linreg-t", "--vary", "n", "--from", "100", "--to", "1000", "--solvers", ""}, 2, []string{"--solvers:", "empty"}},
		{[]string{"sweep", "--scenario", "linreg-t", "--vary", "n", "--from", "100", "--to", "1000", "--solvers", "acsa,,nonprivate-schedule"}, 2, []string{"--solvers:", "empty name"}},
		{[]string{"run", "--scenario", ""}, 2, []string{"--scenario:", "empty value"}},
		{[]string{"run", "--oracle", ""}, 2, []string{"--oracle:", "empty value"}},
		{[]string{"run", "--rand", ""}, 2, []string{"--rand:", "empty value"}},
		{[]string{"run", "--solver", ""}, 2, []string{"--solver:", "empty value"}},
		{[]string{"run", "--class", ""}, 2, []string{"--class:", "empty value"}},
		{[]string{"run", "--plot", ""}, 2, []string{"--plot:", "empty file name"}},
		{[]string{"sweep", "--plot", "", "--vary", "n", "--from", "100", "--to", "1000"}, 2, []string{"--plot:", "empty file name"}},
		{[]string{"run", "--data", ""}, 2, []string{"--data:", "empty value"}},
		// Memory bounded by the flags.
		{[]string{"run", "--scenario", "linreg-t", "--d", "100", "--n", "200000", "--trials", "10000", "--iters", "10000", "--checkpoints", "10000", "--json"}, 2, []string{"--trials:", "1 GiB", "at most 3341 trials"}},
		// Input files.
		{[]string{"run", "--data", fifo, "--rk", "1", "--beta", "1"}, 2, []string{"--data:", "named pipe"}},
		{[]string{"run", "--data", "/dev/zero", "--rk", "1", "--beta", "1"}, 2, []string{"--data:", "character device"}},
		{[]string{"run", "--data", huge, "--rk", "1", "--beta", "1"}, 2, []string{"--data:", "line 3, column 1", "float64's range"}},
		{[]string{"run", "--data", longLine, "--rk", "1", "--beta", "1"}, 2, []string{"--data:", "line 2", "1048576 bytes"}},
		{[]string{"run", "--data", tsv, "--rk", "1", "--beta", "1", "--trials", "0"}, 2, []string{"--trials:"}},
		{[]string{"run", "--" + osc}, 2, []string{`unknown flag "--\x1b]0;pwned\a\x1b[2J"`}},
		{[]string{"run", "--" + long}, 2, []string{"unknown flag", `…" (10002 bytes)`}},
		{[]string{"run", "-" + osc}, 2, []string{"unknown shorthand flag", `\x1b`}},
		{[]string{"run", "--scenario", long}, 2, []string{"--scenario:", "unknown scenario", `…" (10000 bytes)`}},
		{[]string{"run", "--scenario", osc}, 2, []string{"--scenario:", `\x1b]0;pwned`}},
		{[]string{"run", "--k", osc}, 2, []string{"--k:", "not a number", `\x1b`}},
		{[]string{"run", "--seed", long}, 2, []string{"--seed:", "not an integer"}},
		{[]string{"run", "--solver", "\u202eevil"}, 2, []string{"--solver:", `\u202e`}},
		{[]string{"run", "--json=" + osc}, 2, []string{"--json:"}},
		{[]string{"run", osc}, 2, []string{"takes no arguments", `\x1b`}},
		{[]string{"bounds", "--class", osc}, 2, []string{"--class:", `\x1b`}},
		{[]string{"sweep", "--vary", osc, "--from", "1", "--to", "2"}, 2, []string{"--vary:", `\x1b`}},
		{[]string{"run", "--plot", "fig" + osc + ".gif"}, 2, []string{"--plot:", `\x1b`}},
		{[]string{"run", "--data", escName, "--rk", "1", "--beta", "1"}, 2, []string{"--data:", `\x1b`}},
		{[]string{"run", "--data", bigCell, "--rk", "1", "--beta", "1"}, 2, []string{"--data:", "line 2, column 2", `(200000 bytes)`}},
		{[]string{"run", "--data", escCell, "--rk", "1", "--beta", "1"}, 2, []string{"--data:", "line 2, column 2", `\x1b`}},
	}
	for _, c := range cases {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := dpsoCLI(c.args...)
			if code != c.code || out != "" {
				t.Errorf("%.80q: status %d, stdout %.100q; want %d and nothing", c.args, code, out, c.code)
			}
			checkMessage(t, c.args, errs)
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%.80q: message %.300q lacks %q", c.args, errs, w)
				}
			}
		})
	}
}

package cli

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dpso/internal/testutil/golden"
	"dpso/theory"
)

// docValue marks a number the documentation quotes from the program
// rather than types: <!-- dpso-value NAME -->TEXT<!-- /dpso-value -->,
// where NAME says what TEXT is (docValueOf) and TestDocValues checks (and
// with DPSO_UPDATE_GOLDEN=1 rewrites) TEXT against it.
var docValue = regexp.MustCompile(`<!-- dpso-value ([^>]*?) -->(.*?)<!-- /dpso-value -->`)

// docValueOf is the text of the value NAME names: "default CMD --FLAG",
// the flag's default in dpso CMD's command tree, written as the docs
// write numbers (theory.FormatNumber: 2·10⁶; a duration in minutes).
func docValueOf(name string) (string, error) {
	f := strings.Fields(name)
	if len(f) != 3 || f[0] != "default" || !strings.HasPrefix(f[2], "--") {
		return "", fmt.Errorf("unknown value %q (want \"default CMD --FLAG\")", name)
	}
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, isTTY: func() bool { return false }}
	root := e.rootFor([]string{f[1]})
	cmd, _, err := root.Find([]string{f[1]})
	if err != nil || cmd == root {
		return "", fmt.Errorf("%s: no command %s", name, f[1])
	}
	fl := cmd.Flags().Lookup(strings.TrimPrefix(f[2], "--"))
	if fl == nil {
		return "", fmt.Errorf("%s: dpso %s has no flag %s", name, f[1], f[2])
	}
	switch fl.Value.Type() {
	case "int", "int64", "float64":
		v, err := strconv.ParseFloat(fl.DefValue, 64)
		if err != nil {
			return "", fmt.Errorf("%s: default %q: %v", name, fl.DefValue, err)
		}
		return theory.FormatNumber(v), nil
	case "duration":
		d, err := time.ParseDuration(fl.DefValue)
		if err != nil {
			return "", fmt.Errorf("%s: default %q: %v", name, fl.DefValue, err)
		}
		if d%time.Minute == 0 {
			return theory.FormatNumber(d.Minutes()) + " minutes", nil
		}
		return d.String(), nil
	}
	return fl.DefValue, nil
}

// TestDocValues: every value the README and docs/ mark as quoted from the
// program (docValue) is what the program has: a number in the prose is
// computed, not typed, so that it cannot drift from the code.
func TestDocValues(t *testing.T) {
	atRepoRoot(t)
	marked := 0
	for _, page := range markdownFiles(t) {
		text := readFile(t, page)
		var errs []string
		out := docValue.ReplaceAllStringFunc(text, func(m string) string {
			sub := docValue.FindStringSubmatch(m)
			marked++
			want, err := docValueOf(sub[1])
			if err != nil {
				errs = append(errs, err.Error())
				return m
			}
			if want != sub[2] {
				errs = append(errs, fmt.Sprintf("%s: %q, the program says %q", sub[1], sub[2], want))
			}
			return strings.Replace(m, "-->"+sub[2]+"<!--", "-->"+want+"<!--", 1)
		})
		if out == text {
			continue
		}
		if golden.Update() {
			if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s quotes values that are not the program's (DPSO_UPDATE_GOLDEN=1 go test ./app/cli -run TestDocValues rewrites them):\n  %s", page, strings.Join(errs, "\n  "))
	}
	if marked == 0 {
		t.Error("no marked value in the docs: the test checks nothing")
	}
}

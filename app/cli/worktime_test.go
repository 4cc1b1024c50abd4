package cli

import (
	"bytes"
	"strings"
	"testing"

	"dpso/internal/engine"
)

// TestLongWorkWarnedUpFront: a call whose planned work, at this build's
// pace (secondsPerFloat = 1.5 ns per float), passes longJob (an hour)
// says so on stderr before it starts — 4.8·10¹² floats on one core are
// 7,200 s, "2.0 h" — and one at exactly an hour (2.4·10¹² floats) says
// nothing; a dry run of 10⁸ samples of d = 10⁴ on one worker says it
// would take hours and still prints its prescription, a small one says
// nothing.
func TestLongWorkWarnedUpFront(t *testing.T) {
	for _, c := range []struct {
		name string
		plan engine.Plan
		want string
	}{
		{"two hours on one core", engine.Plan{Jobs: 1, Workers: 1, Work: 4.8e12},
			"dpso run: 4.8·10¹² floats to draw and process in 1 run takes about 2.0 h on 1 core at 1.5 ns per float, this build's measured pace (an estimate); Ctrl-C cancels; a smaller --n or --d, or fewer --trials, shortens it\n"},
		{"one hour on one core", engine.Plan{Jobs: 1, Workers: 1, Work: 2.4e12}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var errs bytes.Buffer
			e := &env{stderr: &errs}
			e.warnLongWork("dpso run", c.plan, false, workHint("dpso run"))
			if errs.String() != c.want {
				t.Errorf("stderr\n got %q\nwant %q", errs.String(), c.want)
			}
		})
	}
	code, out, errs := dpsoCLI("run", "--scenario", "linreg-t", "--n", "100000000", "--d", "10000", "--workers", "1", "--dry-run")
	if code != 0 || !strings.Contains(out, "n, d         100000000, 10000\n") ||
		!strings.HasPrefix(errs, "dpso run --dry-run: ") || !strings.Contains(errs, " would take about ") || !strings.Contains(errs, " h on 1 core ") {
		t.Errorf("status %d, stderr %q, stdout %q: want the prescription and an estimate in hours", code, errs, out)
	}
	if code, _, errs := dpsoCLI("run", "--scenario", "linreg-t", "--n", "1000", "--dry-run"); code != 0 || errs != "" {
		t.Errorf("a small dry run: status %d, stderr %q", code, errs)
	}
}

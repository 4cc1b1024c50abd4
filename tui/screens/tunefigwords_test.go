package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui/common"
	"dpso/tui/style"
)

// TestTuneFigureWritesTheScreensNumbers: the figure the tuning screen
// exports (plot.Tune) writes the numbers the screen writes for the same
// run, in the same digits: each bar's mean ± s.e. as the screen's bar
// writes it (EstText), F(w₀) − F* as its w₀ line does, and the screen's
// verdict word for word — where the figure wrote "3.122×" under a
// screen's "3.12×" and "7.825·10⁻⁵ ± 1.3·10⁻⁵" beside "7.83·10⁻⁵ ±
// 1.34·10⁻⁵", so that a slide and the screen disagreed.
func TestTuneFigureWritesTheScreensNumbers(t *testing.T) {
	res := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, Class: "smooth-sc", N: 200, D: 3, Trials: 3, Seed: 1})
	tj, why := tuneJob(res)
	if why != "" {
		t.Fatal(why)
	}
	rep, err := engine.Tune(context.Background(), res, tj.TuneSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := style.NewTheme(style.Dark, true, true)
	var lines []string
	for _, sec := range tuneSections(&st, rep, nil, 132, false) {
		lines = append(lines, sec.Lines...)
	}
	screen := strings.Join(strings.Fields(stripANSI(strings.Join(lines, " "))), " ")
	f, err := plot.Tune(rep, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := tuneRows(rep, "")
	verdict := tuneVerdict(rep, rows)
	if verdict == "" || !strings.Contains(screen, verdict) {
		t.Fatalf("the screen does not show its verdict %q:\n%s", verdict, screen)
	}
	if !slices.Contains(f.Verdicts(), verdict) {
		t.Errorf("the figure's verdicts %q lack the screen's %q", f.Verdicts(), verdict)
	}
	bars := map[string]string{}
	for _, s := range f.Series() {
		switch s.Role {
		case plot.RoleSolver:
			// "tuned: the private search, …: value": the value last.
			bars[s.Solver] = s.Name[strings.LastIndex(s.Name, ": ")+2:]
		case plot.RoleStart:
			if w0 := common.FmtNum(rep.W0.Mean); !strings.Contains(s.Name, w0) || !strings.Contains(screen, w0) {
				t.Errorf("the figure's w₀ line %q or the screen does not write F(w₀) − F* as %s", s.Name, w0)
			}
		}
	}
	for _, r := range rows {
		want := EstText(r.est)
		short := map[string]string{"prescribed": "prescribed", "tuned": "tuned (private)", "oracle-tuned": "oracle (not private)"}[r.name]
		if !strings.Contains(screen, want) {
			t.Errorf("the screen's %s bar does not write %q:\n%s", r.name, want, screen)
		}
		if got := bars[short]; got != want {
			t.Errorf("the figure's %s bar writes %q, the screen %q", r.name, got, want)
		}
	}
}

package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"dpso/solvers"
	"dpso/tui/presets"
	"dpso/tui/screens"
)

// captionAliases are the paper's names a caption may give a solver, with
// the name the legend shows.
var captionAliases = map[string]string{"AC-SA": "acsa", "Lipschitz DP-SGD": "lipschitz-dpsgd"}

// namedSolvers are the solvers a clause names (by the legend's name or
// an alias), each once.
func namedSolvers(clause string) []string {
	var out []string
	add := func(word, name string) {
		re := regexp.MustCompile(`(^|[^A-Za-z0-9-])` + regexp.QuoteMeta(word) + `($|[^A-Za-z0-9-])`)
		if re.MatchString(clause) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, n := range solvers.Names() {
		add(n, n)
	}
	for a, n := range captionAliases {
		add(a, n)
	}
	return out
}

// checkCaptionNamesDrawn: every solver the shown caption names is on the
// chart (its curve or its refusal in the legend: the run's solvers),
// except in a clause about what is not shown or what c adds, whose
// solvers the chart must not draw (a "Not shown: klz-gd" beside klz-gd's
// curve is false).
func checkCaptionNamesDrawn(t *testing.T, m *Model, when string) {
	t.Helper()
	caption := m.head.Caption()
	var drawn []string
	if r := m.runs.Last(screens.ChartKind); r != nil {
		drawn = r.Names
	}
	clauses := regexp.MustCompile(`[.;:] `).Split(caption, -1)
	for _, c := range clauses {
		aside := strings.HasPrefix(c, "Not shown") || strings.HasPrefix(c, "c runs") || strings.HasPrefix(c, "c adds") || strings.Contains(c, "c's ")
		for _, n := range namedSolvers(c) {
			on := slices.Contains(drawn, n)
			switch {
			case aside && on:
				t.Errorf("%s: the caption says %q of %s, which the chart draws (%v):\n%s", when, c, n, drawn, caption)
			case !aside && !on:
				t.Errorf("%s: the caption names %s (%q), which the chart does not draw (%v):\n%s", when, n, c, drawn, caption)
			}
		}
	}
}

// TestPresetCaptionNamesWhatIsDrawn: on every preset that opens on the
// chart, the caption names only what the chart draws — on loading (its
// action run), after r (the form's solver beside the preset's versus
// solvers) and after c (every baseline) — by the legend's names or the
// paper's (captionAliases); what c would add is named only as c's.
func TestPresetCaptionNamesWhatIsDrawn(t *testing.T) {
	for i, p := range presets.All {
		if p.Screen != "" {
			continue
		}
		t.Run(fmt.Sprintf("preset %d", i+1), func(t *testing.T) {
			m := loadedPreset(t, i, 80, 24)
			checkCaptionNamesDrawn(t, m, "on loading")
			keyUntil(t, m, "r", func() bool { return settled(m) && m.run().What != screens.CompareWhat })
			checkCaptionNamesDrawn(t, m, "after r")
			keyUntil(t, m, "c", func() bool { return settled(m) && m.run().What == screens.CompareWhat })
			checkCaptionNamesDrawn(t, m, "after c")
		})
	}
}

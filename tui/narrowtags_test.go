package tui

import (
	"regexp"
	"strings"
	"testing"
)

// TestNarrowLegendKeepsNotPrivate: after a comparison, the legend at
// 80×24 (too narrow for every solver's ε') still tags the non-private
// baseline "not private" on its own entry — the lowest curve on the chart
// is a floor without a guarantee, and the privacy panel that says so is a
// hidden tab at 80 columns, named in the tab bar beside the chart; at
// 132×42 each solver carries its ε' as well.
func TestNarrowLegendKeepsNotPrivate(t *testing.T) {
	s := example1
	s.N, s.Trials, s.Workers = 2000, 2, 1
	baseline := regexp.MustCompile(`── nonprivate-schedule \S+ not private`)
	for _, c := range []struct {
		name  string
		w, h  int
		wants []string
	}{
		{"80x24", 80, 24, []string{"Privacy"}},
		{"132x42", 132, 42, []string{"── acsa ", "ε' "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newEngineModel(t, &s, c.w, c.h)
			keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare })
			v := screenText(m)
			if !baseline.MatchString(v) {
				t.Errorf("the legend does not tag nonprivate-schedule \"not private\" at %s:\n%s", c.name, v)
			}
			for _, w := range c.wants {
				if !strings.Contains(v, w) {
					t.Errorf("the screen at %s lacks %q:\n%s", c.name, w, v)
				}
			}
		})
	}
}

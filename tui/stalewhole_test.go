package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/style"
)

// flat is text with its ANSI codes stripped and every run of white space
// (a wrapped line's break among them) one space.
func flat(s string) string { return strings.Join(strings.Fields(style.StripANSI(s)), " ") }

// TestStaleWarningWhole: preset 3 at 80×24, 120×32 (a projector) and
// 132×42, its run done, → on k: the chart says whole that what it draws
// is the run's, not the form's — the warning outranks the legend's lines,
// which a small chart cuts — and the help's latest messages give it whole.
func TestStaleWarningWhole(t *testing.T) {
	for _, sz := range wordSizes {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := loadedPreset(t, 2, w, h)
			id := m.run().ID
			m.form.SetFocus(form.K)
			formKeys(t, m, "right")
			pump(t, m, nil, func() bool { return m.specRev == m.form.Rev() && prescReady(m) })
			want := common.StaleNote(id)
			if v := flat(m.chartScreen().Chart.View()); !strings.Contains(v, want) {
				t.Errorf("the chart does not say whole %q:\n%s", want, screenText(m))
			}
			found := false
			for _, msg := range m.help.Messages() {
				found = found || msg.Text == want && msg.Warn
			}
			if !found {
				t.Errorf("the help's latest messages lack %q: %+v", want, m.help.Messages())
			}
		})
	}
}

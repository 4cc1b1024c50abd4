package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/internal/testutil/userrows"
	"dpso/theory"
	"dpso/tui/components/form"
)

// userDataSpec is a Spec on a small CSV file of user data (200 rows, two
// features and a label) written in a temporary folder, with the constants
// user data need.
func userDataSpec(t *testing.T) spec.Spec {
	t.Helper()
	path := userrows.Write(t, "rows.csv", 200, func(i int) []float64 {
		x1, x2 := float64(i%7)-3, float64(i%5)-2
		return []float64{x1, x2, x1 + 2*x2 + float64(i%3-1)}
	})
	return spec.Spec{Data: path, Class: theory.SmoothSC, Rk: 10, Beta: 5, Mu: 0.1}
}

// TestUserDataNamed: on user data (dpso explore --data) the explorer names
// the file with its n and d where it names the problem — the form's
// scenario, n and d rows (they showed an empty scenario, n 0 and d 0), the
// header, the chart's title, the ready status line — says the seed is
// unused under secure noise, and the privacy panel states what dpso run
// --data states: secure noise, composition of every release reading the
// rows, the non-private diagnostics.
func TestUserDataNamed(t *testing.T) {
	sp := userDataSpec(t)
	const name = "rows.csv (user data, n = 200, d = 2)"
	for _, size := range [][2]int{{132, 42}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 4}, &sp, size[0], size[1])
			f := m.form
			for id, want := range map[form.Field]string{form.Scenario: "rows.csv", form.N: "200", form.D: "2"} {
				if got := f.ValueLabel(id); got != want {
					t.Errorf("%v: form's %s shows %q, want %q", size, id.Label(), got, want)
				}
			}
			if got := f.ValueNote(form.Seed); got != "secure noise: no seed" {
				t.Errorf("%v: the seed's note %q", size, got)
			}
			v := screenText(m)
			lines := strings.Split(v, "\n")
			if !strings.Contains(lines[0], name) {
				t.Errorf("%v: header %q does not name %q", size, lines[0], name)
			}
			if st := statusLine(m); !strings.Contains(st, name) || !strings.Contains(st, "secure noise") {
				t.Errorf("%v: ready status %q", size, st)
			}
			if title, _ := m.chartScreen().Chart.Title(); !strings.HasPrefix(title, "Excess risk on rows.csv") && size[0] == 132 {
				t.Errorf("%v: chart title %q", size, title)
			}
			m.privacy.SetSize(46, 20)
			pv := stripANSI(strings.Join(strings.Fields(m.privacy.View()), " "))
			for _, want := range []string{"crypto/rand (secure, not reproducible)", "their budgets add", "non-private diagnostics"} {
				if !strings.Contains(pv, want) {
					t.Errorf("%v: the privacy panel lacks %q:\n%s", size, want, m.privacy.View())
				}
			}
		})
	}
	// At 132×42 the panel has the room for them in the layout.
	m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
	if v := screenText(m); !strings.Contains(v, "non-private diagnostics") {
		t.Errorf("the privacy panel's facts are cut at 132×42:\n%s", v)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) })
	if st := statusLine(m); strings.Contains(st, "seed 0") {
		t.Errorf("a run on user data with secure noise shows a seed: %q", st)
	}
}

package tui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"dpso/tui/screens"

	"charm.land/lipgloss/v2"
)

// TestRefusedRunIsNotDone: a run whose solver refuses
// ends refused — the status bar shows ✗ and the sentence, never "✓ done" —
// and so does a sweep where every point refused; there is then nothing to
// export.
func TestRefusedRunIsNotDone(t *testing.T) {
	sp := example1
	sp.Solver = "lipschitz-dpsgd"
	m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) })
	v := screenText(m)
	if r := m.run(); r.Phase != runs.Refused || r.Refusal != "lipschitz-dpsgd refuses: "+fakeRefusal {
		t.Errorf("a refused run ended in phase %d with %q", r.Phase, r.Refusal)
	}
	// The state names the solver; the sentence after it is the reason.
	if status := strings.Split(v, "\n")[m.stateRow()]; strings.Contains(v, "✓ done") || !strings.HasPrefix(status, "✗ refused lipschitz-dpsgd") || !strings.Contains(status, "noise calibrated") {
		t.Errorf("a refused run's status:\n%s", v)
	}
	if !strings.Contains(v, "✗ lipschitz-dpsgd refused: "+fakeRefusal) {
		t.Errorf("the chart's legend does not show the refusal:\n%s", v)
	}
	exportAndWait(t, m)
	if !strings.HasPrefix(m.status.Text, "nothing to export: lipschitz-dpsgd refuses") {
		t.Errorf("export of a refused run: %q", m.status.Text)
	}
	keyUntil(t, m, "s", func() bool { return settled(m) && m.run().Family == screens.SweepNKind })
	v = screenText(m)
	if r := m.run(); strings.Contains(v, "✓ done") || !strings.Contains(v, "✗ refused sweep") || r.Refusal != "lipschitz-dpsgd refuses: "+fakeRefusal+" (at every n of the sweep)" {
		t.Errorf("a refused sweep (%q):\n%s", r.Refusal, v)
	}
}

// TestRefusalDoesNotOutliveItsKey: a refused k keeps
// neither its ✗ nor its text once a run starts.
func TestRefusalDoesNotOutliveItsKey(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 6, K: 2.5, N: 10000, Trials: 2}
	m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
	m.form.SetFocus(form.K)
	formKeys(t, m, "right") // k = 3: refused on ν = 6
	if v := stripANSI(m.form.View()); !strings.Contains(v, "✗") {
		t.Fatalf("no refusal to clear:\n%s", v)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if v := stripANSI(m.form.View()); strings.Contains(v, "✗") || strings.Contains(v, "refused") {
		t.Errorf("the refusal outlived the successful run:\n%s", v)
	}
}

// TestRefusalIsOnTheFieldItNames: a value refused
// because of another field puts the ✗ on that field and says which value
// was tried; a field the form does not show (beta) leaves it on the field
// stepped.
func TestRefusalIsOnTheFieldItNames(t *testing.T) {
	sp := example1
	sp.Eps = math.Inf(1)
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 132, 42)
	m.form.SetFocus(form.Oracle)
	for i := 0; i < 10; i++ {
		formKeys(t, m, "right")
		if _, msg := m.form.Refusal(); strings.Contains(msg, "eps:") {
			break
		}
	}
	field, msg := m.form.Refusal()
	if field != form.Eps || !strings.HasPrefix(msg, "oracle shuffle-") || !strings.Contains(msg, "→ eps: the shuffle oracle") {
		t.Errorf("an oracle refused for ε = ∞: ✗ on field %d, message %q", field, msg)
	}
	rowOf := func(label string) string {
		for _, l := range strings.Split(stripANSI(m.form.View()), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " ▸"), label+" ") {
				return l
			}
		}
		return ""
	}
	if !strings.Contains(rowOf("ε"), "✗") || strings.Contains(rowOf("oracle"), "✗") {
		t.Errorf("the ✗ is not on ε:\n%s", stripANSI(m.form.View()))
	}

	// affine-hard's smooth-convex class was refused for β (a linear loss
	// declares β = 0); acsa now takes β = 0 with T = 1 (rem: affine
	// optimal), so stepping to it refuses nothing.
	hard := spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 2}
	m = newTestModel(t, &fakeRunner{points: 3}, &hard, 132, 42)
	m.form.SetFocus(form.Class)
	for i := 0; i < len(theory.Classes); i++ {
		formKeys(t, m, "right")
		if _, msg := m.form.Refusal(); strings.Contains(msg, "beta:") {
			t.Errorf("a class of affine-hard refused for β: %q", msg)
		}
	}
}

// TestRefusedRunDrawsStartLine: a run whose solver refuses (lipschitz-dpsgd
// on linreg-t, L_f = ∞: its prescription refuses too) still draws the
// start line F(w₀) − F*, the scenario's own number, and no certificate.
func TestRefusedRunDrawsStartLine(t *testing.T) {
	s := spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Solver: "lipschitz-dpsgd", N: 10000, Trials: 3}
	m := newTestModel(t, &fakeRunner{points: 4}, &s, 132, 42)
	p := m.chartScreen().Presc.Prescription
	if p == nil || p.Refused == "" || !(p.W0.Mean > 0) {
		t.Fatalf("the prescription should refuse and give F(w₀) − F* > 0: %+v", p)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Refused })
	v := stripANSI(m.chartScreen().View())
	if !strings.Contains(v, "══ w₀ "+common.FmtNum(p.W0.Mean)) {
		t.Errorf("the refused run's chart has no start line w₀ %s:\n%s", common.FmtNum(p.W0.Mean), v)
	}
	if strings.Contains(v, "certified") {
		t.Errorf("a refused prescription has no certificate to draw:\n%s", v)
	}
}

// TestRefusedValueStatus: after a refused typed value the status bar says
// the refusal first, marked ✗ with its field, and labels the run before
// it as the last run ("last run: ✓ done acsa"), so that it no longer reads
// "✓ done acsa … refused: k: …" — a run both done and refused.
func TestRefusedValueStatus(t *testing.T) {
	for _, w := range []int{80, 132} {
		t.Run(fmt.Sprintf("width=%d", w), func(t *testing.T) {
			h := 24
			if w > 80 {
				h = 42
			}
			m := newTestModel(t, &fakeRunner{points: 3}, &example1, w, h)
			keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
			m.form.SetFocus(form.K)
			for _, k := range []string{"1", "enter"} {
				keyUntil(t, m, k, func() bool { return true })
			}
			pump(t, m, nil, func() bool { return m.status.Err })
			line := statusLine(m)
			if !strings.HasPrefix(line, "✗ refused k: ") {
				t.Errorf("%d columns: status %q, want the refusal first, \"✗ refused k: …\"", w, line)
			}
			if i, j := strings.Index(line, "last run: ✓ done acsa"), strings.Index(line, "refused"); i < 0 || i < j || strings.Count(line, "✓ done") != 1 {
				t.Errorf("%d columns: status %q, want the earlier run after it as \"last run: ✓ done acsa\"", w, line)
			}
			if lipgloss.Width(line) > w {
				t.Errorf("%d columns: status %q is wider than the screen", w, line)
			}
			keyUntil(t, m, "down", func() bool { return true }) // any key clears it
			if line := statusLine(m); !strings.HasPrefix(line, "✓ done acsa") {
				t.Errorf("%d columns: after a key, status %q, want the run's state back", w, line)
			}
		})
	}
}

// TestHelpGivesEachRefusalWhole: after a comparison where a solver
// refused, the help's latest messages give its reason whole (the legend
// cuts a long one, ending in "(? full)").
func TestHelpGivesEachRefusalWhole(t *testing.T) {
	sp := example1
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 80, 24)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare })
	m.Update(press("?"))
	help := strings.Join(strings.Fields(screenText(m)), " ")
	m.Update(press("?"))
	if want := "lipschitz-dpsgd refused: " + fakeRefusal; !strings.Contains(help, want) {
		t.Errorf("the help does not give %q:\n%s", want, help)
	}
}

// TestHelpForgetsAReplacedPresetsMessages: a refusal typed on one preset
// (preset 4, → on k past ν/2) is not among the help's latest messages
// once another preset is loaded and run (preset 7): the messages of a
// replaced preset go with it.
func TestHelpForgetsAReplacedPresetsMessages(t *testing.T) {
	m := loadedPreset(t, 3, 80, 24)
	for range 4 {
		formKeys(t, m, "right")
	}
	pump(t, m, nil, func() bool { return m.status.Err })
	m.Update(press("?"))
	help := strings.Join(strings.Fields(screenText(m)), " ")
	m.Update(press("?"))
	if !strings.Contains(help, "status: refused k") {
		t.Fatalf("preset 4 refuses no k after → ×4; help:\n%s", help)
	}
	pump(t, m, m.loadPreset(6, true), func() bool { return settled(m) && prescReady(m) })
	m.Update(press("?"))
	help = strings.Join(strings.Fields(screenText(m)), " ")
	m.Update(press("?"))
	if strings.Contains(help, "refused k") || strings.Contains(help, "linreg-t") {
		t.Errorf("after loading preset 7 the help keeps preset 4's refusal:\n%s", help)
	}
}

// TestSteppedRefusalShowsItsValue: → on k past the last k the data allow
// (preset 4, ν = 10) keeps the field at its value, and each further →
// tries the next: the ✗ beside the field and the message name the value
// refused, so that no message names a k the screen never showed.
func TestSteppedRefusalShowsItsValue(t *testing.T) {
	m := loadedPreset(t, 3, 80, 24)
	var seen []string
	for range 6 {
		formKeys(t, m, "right")
		_, msg := m.form.Refusal()
		if msg == "" {
			continue
		}
		v, _, ok := strings.Cut(strings.TrimPrefix(msg, "k "), " → ")
		if !strings.HasPrefix(msg, "k ") || !ok {
			t.Fatalf("the refusal %q does not say which k it refuses", msg)
		}
		if row := stripANSI(m.form.View()); !strings.Contains(row, "✗ "+v) {
			t.Errorf("the field does not show the refused k = %s beside its ✗:\n%s", v, row)
		}
		seen = append(seen, v)
	}
	if len(seen) < 2 || seen[0] == seen[len(seen)-1] {
		t.Errorf("→ past a refused k refused %v: want at least two different values named", seen)
	}
}

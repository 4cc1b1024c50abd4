package tui

import (
	"dpso/solvers"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// typeKeys presses the runes of text one by one (a value typed in one
// sequence), then pumps until the form's Spec reached the root.
func typeKeys(t *testing.T, m *Model, text string, then ...string) {
	t.Helper()
	var cmds []tea.Cmd
	for _, r := range text {
		_, c := m.Update(press(string(r)))
		cmds = append(cmds, c)
	}
	for _, k := range then {
		_, c := m.Update(press(k))
		cmds = append(cmds, c)
	}
	pump(t, m, tea.Batch(cmds...), func() bool { return m.specRev == m.form.Rev() && prescReady(m) })
}

// TestTypedValues: on a numeric field, digits type a
// value in place; enter sets it, with the flag's parsing (300000, 3e5, and
// the explorer's own 3·10⁵) and the Spec's resolution; esc cancels; ← →
// still step the grid.
func TestTypedValues(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	f := m.form
	f.SetFocus(form.N)
	for _, text := range []string{"3·10⁵", "300000", "3e5", "3×10^5"} {
		formKeys(t, m, "left") // back to the grid: 5000
		if f.Resolved().Spec.N == 300000 {
			t.Fatal("n did not leave 3·10⁵")
		}
		typeKeys(t, m, text, "enter")
		if got := f.Resolved().Spec.N; got != 300000 || f.Editing() {
			_, refusal := f.Refusal()
			t.Errorf("n typed as %q: %d (editing %v, refusal %q)", text, got, f.Editing(), refusal)
		}
	}
	formKeys(t, m, "right")
	if got := f.Resolved().Spec.N; got != 500000 {
		t.Errorf("→ from a typed n = 3·10⁵: %d, want the grid's 5·10⁵", got)
	}
	f.SetFocus(form.Seed)
	typeKeys(t, m, "1234", "enter")
	f.SetFocus(form.Trials)
	typeKeys(t, m, "50", "enter")
	f.SetFocus(form.K)
	typeKeys(t, m, "inf", "enter")
	if rs := f.Resolved().Spec; rs.Seed != 1234 || rs.Trials != 50 || !math.IsInf(rs.K, 1) {
		t.Errorf("seed %d, trials %d, k %v; want 1234, 50, ∞", rs.Seed, rs.Trials, rs.K)
	}
	if got := m.status.Reproduce(); !strings.Contains(got, "--n 500000") || !strings.Contains(got, "--seed 1234") || !strings.Contains(got, "--trials 50") {
		t.Errorf("the reproduce line does not carry the typed values: %q", got)
	}

	// Refusals: the flag's range for a typed 0 (which the Spec reads as its
	// default), integers, the Spec's own rules; the Spec is unchanged.
	for _, c := range []struct {
		field form.Field
		text  string
		want  string
	}{
		{form.N, "0", "n: n = 0 is outside [2, 10⁸]"},
		{form.N, "2.5", `n: "2.5" is not an integer in [2, 10⁸]`}, // the CLI's --n message
		{form.N, "2e8", "n: n = 200000000 is outside [2, 10⁸]"},
		{form.N, "1e99", "n: n = 10⁹⁹ is outside [2, 10⁸]"}, // not 100 digits
		{form.N, "1..2", `n: "1..2" is not an integer in [2, 10⁸]`},
		{form.Trials, "1x", `trials: "1x" is not an integer in [1, 10000]`},
		{form.Eps, "1abc", `ε: "1abc" is not a number in [10⁻¹⁰⁰, ∞]`},
		{form.K, "2,5", `k: "2,5" is not a number in [2, ∞]`},
		{form.K, "1", "k: k = 1 is outside [2, ∞]"},
		{form.Eps, "0", "ε: ε = 0 is outside [10⁻¹⁰⁰, ∞]"},
		{form.Trials, "0", "trials: trials = 0 is outside [1, 10000]"},
		{form.D, "5", "d: example1 is defined with d = 1; it cannot be changed"},
		{form.Seed, "1.5", `seed: "1.5" is not an integer in [0, 2⁶⁴−1]`},
	} {
		f.SetFocus(c.field)
		before := runs.RunKey(f.Resolved())
		typeKeys(t, m, c.text, "enter")
		if _, msg := f.Refusal(); !strings.Contains(msg, c.want) || runs.RunKey(f.Resolved()) != before {
			t.Errorf("%s typed %q: refusal %q, want %q; Spec changed %v", c.field.Label(), c.text, msg, c.want, runs.RunKey(f.Resolved()) != before)
		}
	}

	// esc cancels; letters go into the value while it is typed, not to the
	// explorer's keys.
	f.SetFocus(form.N)
	before := f.Resolved().Spec.N
	typeKeys(t, m, "7s", "esc")
	if f.Editing() || f.Resolved().Spec.N != before || m.active != 0 || m.run() != nil {
		t.Errorf("esc: editing %v, n %d, screen %d, run %v", f.Editing(), f.Resolved().Spec.N, m.active, m.run())
	}
	// Non-numeric fields do not type.
	f.SetFocus(form.Class)
	m.Update(press("3"))
	if f.Editing() {
		t.Error("the class field started typing")
	}
}

// TestAdaptiveClipField: the form shows dp-sgd's
// adaptive clipping only while the solver is dp-sgd; turning it on sets
// the Spec's field through the spec's field table (the reproduce line
// carries --adaptive-clip, as the flag writes it), and leaving dp-sgd
// turns it off.
func TestAdaptiveClipField(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	if strings.Contains(screenText(m), form.Adaptive.Label()) {
		t.Fatal("the adaptive clipping field is shown with acsa")
	}
	m.form.SetFocus(form.Adaptive)
	if m.form.Focus() == form.Adaptive {
		t.Fatal("a hidden field took the focus")
	}
	m.form.SetFocus(form.Solver)
	for i := 0; i < 10 && m.form.Resolved().Solver.Name() != dpsgd; i++ {
		formKeys(t, m, "right")
	}
	if m.form.Resolved().Solver.Name() != dpsgd {
		t.Fatal("the solver field never reached dp-sgd")
	}
	formKeys(t, m, "tab")
	if m.form.Focus() != form.Oracle {
		t.Fatalf("focus %d after the solver, want the oracle", m.form.Focus())
	}
	formKeys(t, m, "tab")
	if m.form.Focus() != form.Adaptive || !strings.Contains(screenText(m), "adapt. C") {
		t.Fatalf("with dp-sgd the adaptive clipping field is not next:\n%s", screenText(m))
	}
	formKeys(t, m, "right")
	if !m.form.Resolved().Spec.AdaptiveClip || !strings.Contains(screenText(m), "--adaptive-clip") {
		t.Fatalf("adaptive clipping on: Spec %v, screen:\n%s", m.form.Resolved().Spec.AdaptiveClip, screenText(m))
	}
	formKeys(t, m, "shift+tab", "shift+tab", "right") // the solver, one step on
	if m.form.Resolved().Solver.Name() == dpsgd || m.form.Resolved().Spec.AdaptiveClip || strings.Contains(screenText(m), "--adaptive-clip") {
		t.Errorf("leaving dp-sgd kept adaptive clipping (solver %s):\n%s", m.form.Resolved().Solver.Name(), screenText(m))
	}
}

// TestSolverStepSkipsOtherClasses: → on the solver goes past the paper's
// solvers of the other classes (which the Spec refuses) to the next one
// that applies, without a refusal, and says what it skipped; ε says it is
// zCDP.
func TestSolverStepSkipsOtherClasses(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	m.form.SetFocus(form.Solver)
	formKeys(t, m, "right")
	got := m.form.Resolved().Solver.Name()
	if d, _ := solvers.DescriptorOf(got); !d.Baseline() {
		t.Errorf("→ from acsa on smooth-convex reached %s", got)
	}
	if _, msg := m.form.Refusal(); msg != "" {
		t.Errorf("a refusal on the way: %s", msg)
	}
	if v := screenText(m); !strings.Contains(v, "skipped clipped-sgd") || !strings.Contains(v, "ε          1 zCDP, ρ = 0.5") {
		t.Errorf("the form does not say what it skipped, or ε's privacy model:\n%s", v)
	}
}

package tui

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/tui/presets"
)

// TestPresetCaptionSurvivesAChange: a loaded preset's caption (its next
// step first) stays on screen when the user changes what it asks for; the
// header names the change ("preset 4 · k changed"). Another preset
// replaces it.
func TestPresetCaptionSurvivesAChange(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
	i, err := presets.Index("heavy tails")
	if err != nil {
		t.Fatal(err)
	}
	pump(t, m, m.loadPreset(i, true), func() bool { return prescReady(m) && settled(m) })
	if v := screenText(m); !strings.Contains(v, "preset 4: Heavy tails") || !strings.Contains(v, "next: "+presets.All[i].Next()) {
		t.Fatalf("the loaded preset's caption:\n%s", v)
	}
	formKeys(t, m, "right", "right") // k = 3: not the preset's step (k = 4), whose caption is its own
	v := screenText(m)
	if m.form.Resolved().Spec.K != 3 || !strings.Contains(v, "preset 4 · k changed") || !strings.Contains(v, "next: "+presets.All[i].Next()) {
		t.Errorf("after two → on k (k = %v) the caption is gone or does not name the change:\n%s", m.form.Resolved().Spec.K, v)
	}
	if story := strings.Fields(presets.All[i].Caption())[:20]; !strings.Contains(strings.Join(strings.Fields(v), " "), strings.Join(story, " ")) {
		t.Errorf("the caption's story is gone:\n%s", v)
	}
	pump(t, m, m.loadPreset(0, false), func() bool { return prescReady(m) })
	if v := screenText(m); strings.Contains(v, "preset 4") || !strings.Contains(v, "preset 1: Moment clipping") {
		t.Errorf("another preset does not replace the caption:\n%s", v)
	}
}

// TestPresetUnderASessionLimitIsUnchanged: where the session forces a
// setting on every Spec (dpso serve's secure randomness), a preset loads
// as itself — the header names no change — until the user makes one.
func TestPresetUnderASessionLimitIsUnchanged(t *testing.T) {
	secure := func(s spec.Spec) (spec.Spec, error) {
		s.Rand = solvers.Secure.String()
		return s, nil
	}
	m := newTestModelOpts(t, Options{Runner: &fakeRunner{points: 3}, Limit: secure, Manual: true}, nil, 132, 42)
	if got := m.form.Resolved().Spec.Rand; got != solvers.Secure.String() {
		t.Fatalf("the form's randomness is %q, want the limit's secure", got)
	}
	if l := m.head.Label(); l != "preset 1" {
		t.Errorf("preset 1 under the session's limit is labelled %q, want %q", l, "preset 1")
	}
	formKeys(t, m, "left")
	if l := m.head.Label(); !strings.Contains(l, "n changed") {
		t.Errorf("after ← on n (n = %d) the label is %q, want the change named", m.form.Resolved().Spec.N, l)
	}
}

// TestNStepsFromTheFirstPreset: → and ← on n step from the first preset's
// n = 2·10⁶ along the grid, both ways.
func TestNStepsFromTheFirstPreset(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
	if n := m.form.Resolved().Spec.N; n != 2_000_000 {
		t.Fatalf("the first preset's n = %d, want 2·10⁶", n)
	}
	formKeys(t, m, "right")
	if n := m.form.Resolved().Spec.N; n != 5_000_000 {
		t.Errorf("→ on n from 2·10⁶ gives %d, want 5·10⁶", n)
	}
	formKeys(t, m, "left", "left")
	if n := m.form.Resolved().Spec.N; n != 1_000_000 {
		t.Errorf("← twice from 5·10⁶ gives %d, want 10⁶", n)
	}
}

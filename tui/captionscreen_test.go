package tui

import (
	"strings"
	"testing"
	"time"

	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/screens"
)

// TestCaptionSaysWhichScreenItDescribes: preset 8's caption is its n
// sweep's; on its n sweep and on its ε sweep (a caption of its own) it
// is said of the screen shown, and on any other screen — the chart, the
// d sweep — it says it is s's screen's, not the one shown, where it read
// as the chart's.
func TestCaptionSaysWhichScreenItDescribes(t *testing.T) {
	i := presetNamed(t, "hard instance")
	m := loadedPreset(t, i, 120, 32)
	const off = "at seed 0, on s's screen (sweep n (log-log)), not this one: "
	p := presets.All[i]
	if got := m.head.CaptionText(); !strings.Contains(got, "at seed 0: "+p.Caption()) || strings.Contains(got, "not this one") {
		t.Errorf("on its n sweep the caption is %q", got)
	}
	keyUntil(t, m, "esc", func() bool { return m.active == 0 })
	if got := m.head.CaptionText(); !strings.Contains(got, off+p.Caption()) {
		t.Errorf("on the chart the caption does not say it is the n sweep's: %q", got)
	}
	keyUntil(t, m, "d", func() bool { return doneOf(m, screens.SweepDKind) })
	if got := m.head.CaptionText(); !strings.Contains(got, off+p.Caption()) {
		t.Errorf("on the d sweep the caption does not say it is the n sweep's: %q", got)
	}
	keyUntil(t, m, "v", func() bool { return doneOf(m, screens.SweepEpsKind) })
	eps, _ := p.SweepCaption(screens.SweepEpsKind)
	if got := m.head.CaptionText(); !strings.Contains(got, "at seed 0: "+eps) || strings.Contains(got, "not this one") {
		t.Errorf("on its ε sweep the caption is %q", got)
	}
}

// TestChangedPresetCaptionQuotesTheRun: after a field of preset 4
// changes (→ on k, the preset's next step) and r runs it, the caption
// quotes that run's own numbers — its solver's mean final excess risk,
// as the legend draws it — before the preset's pinned numbers, which it
// still labels as the preset's k = 2 run at seed 0; before r (the run on
// screen is the preset's) it quotes none.
func TestChangedPresetCaptionQuotesTheRun(t *testing.T) {
	i := presetNamed(t, "larger k")
	m := loadedPreset(t, i, 132, 42)
	formKeys(t, m, "right")
	if got := m.head.CaptionText(); strings.Contains(got, "this run") || !strings.Contains(got, "at the preset's k = 2, seed 0 (not the run on screen): ") {
		t.Errorf("k changed, not run: caption %q", got)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Spec.Spec.K != 2 })
	rep := m.run().Comparison.Reports[0]
	want := "this run: " + rep.Solver + " " + common.FmtNum(rep.Excess.Mean) + " · at the preset's k = 2, seed 0 (not the run on screen): "
	if got := m.head.CaptionText(); !strings.Contains(got, want) {
		t.Errorf("after r the caption does not quote the run (%q):\n%q", want, got)
	}
}

// TestSecureRunCaptionQuotesTheRun: under a server's secure noise the
// preset's run is not its pinned seed-0 run: once it ends, the caption
// quotes that run's own numbers first, then the pinned ones "at seed 0".
func TestSecureRunCaptionQuotesTheRun(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
	opts.Limit = secureOnly
	m := newTestModelOpts(t, opts, nil, 132, 42)
	if got := m.head.CaptionText(); strings.Contains(got, "this run") {
		t.Errorf("before any run the caption quotes one: %q", got)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) })
	var parts []string
	for _, rep := range m.run().Comparison.Reports {
		parts = append(parts, rep.Solver+" "+common.FmtNum(rep.Excess.Mean))
	}
	want := "this run: " + strings.Join(parts, ", ") + " · at seed 0: "
	if got := m.head.CaptionText(); !strings.Contains(got, want) {
		t.Errorf("the caption over a secure run does not quote it (%q):\n%q", want, got)
	}
}

// TestPresetFourStepCaption: preset 4's own next step (→ on k three
// times, k = 4) has a caption of its own, as preset 9's n = 10³ step
// does: at k = 4 its numbers are the k = 4 run's, labelled "at seed 0"
// (not "not the run on screen"), with the preset's k = 2 numbers named
// as such.
func TestPresetFourStepCaption(t *testing.T) {
	i := presetNamed(t, "larger k")
	p := presets.All[i]
	m := loadedPreset(t, i, 120, 32)
	formKeys(t, m, "right", "right", "right")
	if k := m.form.Resolved().Spec.K; k != 4 {
		t.Fatalf("→ three times on k gives k = %g, want 4", k)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Spec.Spec.K == 4 })
	got := m.head.CaptionText()
	if !strings.Contains(got, "at seed 0: "+p.StepCaption()) || strings.Contains(got, "not the run on screen") {
		t.Errorf("at k = 4 the caption is not the step's: %q", got)
	}
	if !strings.Contains(p.StepCaption(), "At k = 4 the clip threshold is C = 468") || !strings.Contains(p.StepCaption(), "at the preset's k = 2") {
		t.Errorf("the step's caption %q", p.StepCaption())
	}
}

package tui

import (
	"strings"
	"testing"

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

package tui

import (
	"strings"
	"testing"
)

// TestPresetCaptionSurvivesAChange: a loaded preset's caption (its next
// step first) stays on screen when the user changes what it asks for; the
// header names the change ("preset 4 · k changed"). Another preset
// replaces it.
func TestPresetCaptionSurvivesAChange(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
	i, err := PresetIndex("heavy tails")
	if err != nil {
		t.Fatal(err)
	}
	pump(t, m, m.loadPreset(i, true), func() bool { return prescReady(m) && settled(m) })
	if v := screenText(m); !strings.Contains(v, "preset 4: Heavy tails") || !strings.Contains(v, "next: "+Presets[i].next) {
		t.Fatalf("the loaded preset's caption:\n%s", v)
	}
	formKeys(t, m, "right", "right", "right")
	v := screenText(m)
	if m.form.Resolved().Spec.K != 4 || !strings.Contains(v, "preset 4 · k changed") || !strings.Contains(v, "next: "+Presets[i].next) {
		t.Errorf("after three → on k (k = %v) the caption is gone or does not name the change:\n%s", m.form.Resolved().Spec.K, v)
	}
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "C falls from 3400 to 470") {
		t.Errorf("the caption's story is gone:\n%s", v)
	}
	pump(t, m, m.loadPreset(0, false), func() bool { return prescReady(m) })
	if v := screenText(m); strings.Contains(v, "preset 4") || !strings.Contains(v, "preset 1: Moment clipping") {
		t.Errorf("another preset does not replace the caption:\n%s", v)
	}
}

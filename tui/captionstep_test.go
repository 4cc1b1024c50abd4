package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/statestring"
	"dpso/tui/presets"
	"dpso/tui/screens"
)

// presetNamed is the index of the preset whose title contains title.
func presetNamed(t *testing.T, title string) int {
	t.Helper()
	i, err := presets.Index(title)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// TestPresetCaptionFollowsTheRun: the caption under the header describes
// the run on screen. Preset 9 at its own n quotes its run's numbers "at
// seed 0"; one step away from it (n = 5·10³, no run of the preset's) its
// numbers are labelled as the preset's at n = 10⁴, not the screen's; at
// its next step (← on n three times, n = 10³) the caption is that step's,
// whose numbers are the n = 10³ run's — and a state string copied there
// opens with the same caption.
func TestPresetCaptionFollowsTheRun(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 32}, {132, 42}} {
		i := presetNamed(t, "constants cost")
		m := loadedPreset(t, i, size[0], size[1])
		p := presets.All[i]
		step, ok := p.Step()
		if !ok || step.N != 1000 {
			t.Fatalf("preset 9 has no step to n = 10³ with a caption of its own (%+v)", step)
		}
		if got := m.head.CaptionText(); !strings.Contains(got, "at seed 0: "+p.Caption()) {
			t.Errorf("%v: on loading the caption is %q", size, got)
		}
		formKeys(t, m, "left")
		got := m.head.CaptionText()
		if m.form.Resolved().Spec.N != 5000 || !strings.Contains(got, "at the preset's n = 10⁴, seed 0 (not the run on screen): "+p.Caption()) {
			t.Errorf("%v: at n = %d the caption does not say its numbers are the preset's n = 10⁴ run's: %q", size, m.form.Resolved().Spec.N, got)
		}
		formKeys(t, m, "left", "left")
		got = m.head.CaptionText()
		if m.form.Resolved().Spec.N != 1000 || !strings.Contains(got, "at seed 0: "+p.StepCaption()) || strings.Contains(got, p.Caption()) {
			t.Errorf("%v: at the preset's step (n = %d) the caption is not the step's: %q", size, m.form.Resolved().Spec.N, got)
		}
		small, err := presets.Fill("{tuned_small} {prescribed_small} {oracle_small}", presetFacts(t, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, num := range strings.Fields(small) {
			if !strings.Contains(got, num) {
				t.Errorf("%v: the step's caption lacks the n = 10³ run's %s: %q", size, num, got)
			}
		}
		if big, _ := presets.Fill("{tuned} {prescribed}", presetFacts(t, p)); strings.Contains(got, strings.Fields(big)[0]) || strings.Contains(got, strings.Fields(big)[1]) {
			t.Errorf("%v: the step's caption quotes the n = 10⁴ run's numbers (%s): %q", size, big, got)
		}
		checkCaptionWhole(t, m, p, size[0])

		// A state string copied at the step opens with the step's caption.
		m.show(m.screenIndex(screens.TuneKind))
		st, err := statestring.Parse(m.State().String(), ScreenNames())
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Runner: &fakeRunner{points: 3}}
		if err := opts.OpenState(st); err != nil {
			t.Fatal(err)
		}
		b, err := New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.head.CaptionText(); !strings.Contains(got, "at seed 0: "+p.StepCaption()) {
			t.Errorf("%v: the state string copied at n = 10³ opens with the caption %q", size, got)
		}
	}
}

// presetFacts are preset p's pinned facts, read from the file its texts
// are filled from (presets/facts.json, by title; presets.Fill needs them
// by name).
func presetFacts(t *testing.T, p presets.Preset) presets.Facts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("presets", "facts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]presets.Facts
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	f, ok := all[p.Title]
	if !ok {
		t.Fatalf("no pinned facts for %s", p.Title)
	}
	return f
}

// TestSweepCaptionDescribesThatSweep: preset 8 loads on its n sweep and
// its caption speaks of n; v's ε sweep shows a caption of its own that
// speaks of ε, says the hard instance is rebuilt at each ε (w₀ moves with
// it) and quotes no slope in n.
func TestSweepCaptionDescribesThatSweep(t *testing.T) {
	i := presetNamed(t, "hard instance")
	m := loadedPreset(t, i, 120, 32)
	p := presets.All[i]
	if got := m.head.Caption(); got != p.Caption() || !strings.Contains(got, " in n") {
		t.Fatalf("on the n sweep the caption is %q", got)
	}
	keyUntil(t, m, "v", func() bool { return m.shownKind() == screens.SweepEpsKind && settled(m) })
	want, ok := p.SweepCaption(screens.SweepEpsKind)
	if !ok {
		t.Fatal("preset 8 has no caption for its ε sweep")
	}
	got := m.head.Caption()
	if got != want || strings.Contains(got, " in n ") || strings.Contains(got, p.Caption()) {
		t.Errorf("on the ε sweep the caption is %q", got)
	}
	for _, w := range []string{"rebuilds the hard instance at each ε", "w₀ falls from"} {
		if !strings.Contains(got, w) {
			t.Errorf("the ε sweep's caption lacks %q: %q", w, got)
		}
	}
	keyUntil(t, m, "s", func() bool { return m.shownKind() == screens.SweepNKind && settled(m) })
	if got := m.head.Caption(); got != p.Caption() {
		t.Errorf("back on the n sweep the caption is %q", got)
	}
}

// TestNextStepIsNotDone: a preset whose loading runs r does not ask for r
// as its next step while the chart draws that run (preset 1, 6 and 7),
// and still asks for it where nothing has run (the explorer's first
// screen, preset 1 not run).
func TestNextStepIsNotDone(t *testing.T) {
	for _, title := range []string{"Moment clipping", "hinge loss", "LASSO"} {
		t.Run(title, func(t *testing.T) {
			m := loadedPreset(t, presetNamed(t, title), 132, 42)
			if m.run() == nil || m.shownKind() != screens.ChartKind {
				t.Fatalf("loading %s ran nothing on the chart", title)
			}
			lead, _, _ := strings.Cut(m.head.CaptionText(), " · at ")
			if strings.HasPrefix(lead, "▸ next: press r") {
				t.Errorf("after loading ran r the next step is %q", lead)
			}
		})
	}
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
	if m.head.Title() != presets.All[0].Title || m.run() != nil {
		t.Skip("the first screen is not preset 1 waiting for r")
	}
	if lead := m.head.CaptionText(); !strings.HasPrefix(lead, "▸ next: press r") {
		t.Errorf("on the first screen, before any run, the next step is %q", lead)
	}
}

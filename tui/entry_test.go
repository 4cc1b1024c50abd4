package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui/backend"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// startOn is the explorer opened on s (Options.Start, what `dpso explore`
// with run flags does) on the real engine, sized 132×42.
func startOn(t *testing.T, s spec.Spec) *Model {
	t.Helper()
	opts := Options{Runner: backend.Local{}, Start: &s, ExportDir: t.TempDir(), Manual: true}
	m := newTestModelOpts(t, opts, nil, 132, 42)
	if got := m.form.Spec(); got.Scenario != s.Scenario || got.N != s.N || got.Solver != s.Solver {
		t.Fatalf("the form opened on %+v, want %+v", got, s)
	}
	return m
}

// TestExploreOpensOnTheSpec: the explorer
// opened on `--scenario linreg-t --n 20000` runs that scenario at that n
// on r, and its reproduce line is the same command.
func TestExploreOpensOnTheSpec(t *testing.T) {
	m := startOn(t, spec.Spec{Scenario: scenarios.LinRegT, N: 20000})
	if v := screenText(m); !strings.Contains(v, "reproduce: dpso run --scenario linreg-t --n 20000") {
		t.Errorf("reproduce line:\n%s", v)
	}
	pump(t, m, m.handleKey(press("r")), func() bool { return settled(m) })
	r := m.run()
	if r.Phase != runs.Done || r.Spec.Spec.Scenario != scenarios.LinRegT || r.Spec.Spec.N != 20000 || r.Names[0] != "acsa" {
		t.Errorf("r ran %s n = %d %v, phase %d", r.Spec.Spec.Scenario, r.Spec.Spec.N, r.Names, r.Phase)
	}
	if v := screenText(m); !strings.Contains(v, "✓ done acsa") {
		t.Errorf("screen after r:\n%s", v)
	}
}

// TestExploreRefusalIsNotDone: opened on
// linreg-t with --solver lipschitz-dpsgd, r ends refused (L_f = ∞) and
// the screen says so, never "✓ done".
func TestExploreRefusalIsNotDone(t *testing.T) {
	m := startOn(t, spec.Spec{Scenario: scenarios.LinRegT, Solver: "lipschitz-dpsgd"})
	pump(t, m, m.handleKey(press("r")), func() bool { return settled(m) })
	if r := m.run(); r.Phase != runs.Refused || !strings.HasPrefix(r.Refusal, "lipschitz-dpsgd refuses: the worst-case Lipschitz parameter L_f is infinite") {
		t.Errorf("phase %d, refusal %q", r.Phase, r.Refusal)
	}
	if v := screenText(m); strings.Contains(v, "✓ done") || !strings.Contains(v, "lipschitz-dpsgd refuses") {
		t.Errorf("a refused run's screen:\n%s", v)
	}
}

// TestPresetKeys: in the presets list a digit loads
// the preset of that number; / filters the list by title — what is typed,
// q included, is the filter's —, enter loads the match, esc clears the
// filter and a second esc closes the list.
func TestPresetKeys(t *testing.T) {
	fr := &fakeRunner{points: 3}
	m := newTestModel(t, fr, &example1, 132, 42)
	m.handleKey(press("p"))
	pump(t, m, m.handleKey(press("4")), func() bool { return m.overlay == nil && m.head.Title() == presets.All[3].Title })
	if got := m.form.Spec(); got.Scenario != presets.All[3].Spec.Scenario || got.K != presets.All[3].Spec.K {
		t.Errorf("4 loaded %+v, want preset 4's %+v", got, presets.All[3].Spec)
	}

	hard := 0
	for i, p := range presets.All {
		if strings.HasPrefix(p.Title, "The lower bound's hard") {
			hard = i
		}
	}
	m.handleKey(press("p"))
	for _, k := range []string{"/", "h", "a", "r", "d"} {
		m.handleKey(press(k))
	}
	v := screenText(m)
	if !strings.Contains(v, "/ hard") || !strings.Contains(v, itoa(hard+1)+"  "+presets.All[hard].Title) || strings.Contains(v, "1  "+presets.All[0].Title) {
		t.Errorf("filtered by \"hard\":\n%s", v)
	}
	m.handleKey(press("q")) // the filter's text, not quit
	if m.quitting || !strings.Contains(screenText(m), "no title contains \"hardq\"") {
		t.Errorf("q while filtering: quitting %v\n%s", m.quitting, screenText(m))
	}
	m.handleKey(press("backspace"))
	pump(t, m, m.handleKey(press("enter")), func() bool { return m.overlay == nil && m.head.Title() == presets.All[hard].Title })

	m.handleKey(press("p"))
	for _, k := range []string{"/", "x", "esc"} {
		m.handleKey(press(k))
	}
	if m.overlay == nil || strings.Contains(stripANSI(m.presets.View()), " / x") || m.presets.Filtering() {
		t.Error("esc while filtering should clear the filter and keep the list open")
	}
	pump(t, m, m.handleKey(press("esc")), func() bool { return m.overlay == nil })
}

// TestPresetIndex: presets by number (1-based, as listed) or by a unique
// part of the title; an ambiguous or unknown name lists the presets.
func TestPresetIndex(t *testing.T) {
	for _, c := range []struct {
		name string
		want int
		err  string
	}{
		{"1", 0, ""},
		{"3", 2, ""},
		{"moment clipping", 0, ""},
		{"hard INSTANCE", 7, ""},
		{"0", 0, "no preset 0"},
		{"99", 0, "no preset 99"},
		{"nothing like it", 0, "no preset's title contains"},
		{"lipschitz", 0, "is in the titles of 2 presets (1 Moment clipping beats Lipschitz DP-SGD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := presets.Index(c.name)
			switch {
			case c.err == "" && (err != nil || got != c.want):
				t.Errorf("PresetIndex(%q) = %d, %v; want %d", c.name, got, err, c.want)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "1 "+presets.All[0].Title) && !strings.Contains(c.err, "titles of")):
				t.Errorf("PresetIndex(%q): %v; want an error with %q and the list", c.name, err, c.err)
			}
		})
	}
}

// TestNewIsTheEmbeddingEntry: New builds the root model from Options
// alone — NO_COLOR and COLORFGBG, which Run reads for the terminal, leave
// it as the Options say — and every run it starts ends with its context
// (an SSH session's, closed by the client), without a quit.
func TestNewIsTheEmbeddingEntry(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("COLORFGBG", "0;15")
	fr := &fakeRunner{points: 4, hold: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, err := New(ctx, testOpts(t, fr, 0))
	if err != nil {
		t.Fatal(err)
	}
	if m.styles.Plain || !m.styles.Dark {
		t.Errorf("New read the environment: plain %v, dark %v (the Options ask for neither)", m.styles.Plain, m.styles.Dark)
	}
	m.Update(tea.WindowSizeMsg{Width: 132, Height: 42})
	pump(t, m, m.Init(), func() bool { return prescReady(m) })
	_, cmd := m.Update(press("r"))
	// Until the runner holds the run (its command runs in a goroutine).
	pump(t, m, cmd, func() bool {
		fr.mu.Lock()
		defer fr.mu.Unlock()
		return len(fr.ctxs) == 1
	})
	cancel()
	select { // the run's context ends with New's
	case <-fr.ctxs[0].Done():
	case <-time.After(10 * time.Second): // a guard against a hang, not a timing
		t.Fatal("the run goes on after New's context was cancelled")
	}
}

// TestExplorePresetRunsAsTheListDoes: Options.PresetRun (dpso explore
// --preset N) loads the preset and starts its action, as choosing it in
// the list does; with flags over it (Options.Start) the caption stays
// and names what they changed.
func TestExplorePresetRunsAsTheListDoes(t *testing.T) {
	hard, _ := presets.Index("hard instance")
	opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
	opts.Preset, opts.PresetRun = hard, true
	m := newTestModelOpts(t, opts, nil, 132, 42)
	pump(t, m, nil, func() bool { return doneOf(m, screens.SweepNKind) })
	if m.shownKind() != screens.SweepNKind || m.run() == nil || m.run().Family != screens.SweepNKind {
		t.Errorf("--preset %d: screen %s, run %v", hard+1, m.shownKind(), m.run())
	}
	start := presets.All[hard].Spec
	start.Trials = 2
	opts.Start = &start
	m = newTestModelOpts(t, opts, nil, 132, 42)
	pump(t, m, nil, func() bool { return doneOf(m, screens.SweepNKind) })
	if v := screenText(m); !strings.Contains(v, "preset 8 · trials changed") || m.run() == nil {
		t.Errorf("--preset with --trials:\n%s", v)
	}
}

package tui

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// wordScreens are the screens TestPresetScreenWords visits on every
// preset, by their keys: the sweeps over n, ε, d and k, the clipping
// sweep, the tuning screen.
// The sweeps over ε, d and k are read on the small terminal and the
// wide one only (the projector's 120×32 lays them out as the wide one
// does): the package's tests stay within minutes on a loaded machine.
var wordScreens = []struct {
	key  string
	kind runs.ScreenKind
	// wideAndSmall: read at 80×24 and 132×42 only.
	wideAndSmall bool
}{{"s", screens.SweepNKind, false}, {"v", screens.SweepEpsKind, true}, {"d", screens.SweepDKind, true}, {"o", screens.SweepKKind, true}, {"x", screens.ClipKind, false}, {"g", screens.TuneKind, false}}

// searches are TestPresetScreenWords's searches, each run once for the
// three sizes.
var searches sync.Map

// loadedPresetOn is the explorer on the runner f at w×h with preset i
// loaded, its action run to its end and nothing left computing.
func loadedPresetOn(t *testing.T, f *fakeRunner, i, w, h int) *Model {
	t.Helper()
	m := newTestModel(t, f, nil, w, h)
	cmd := m.loadPreset(i, true)
	// Ready: the form's Spec reached every component and its
	// prescription came, the action (if any) ended, and nothing on screen
	// is still computing, so that the screen is the same at every run.
	// Under load the action's run can end before the Spec's message is
	// delivered: waiting for the run alone drew the preset's run beside
	// the first preset's prescription and reproduce line.
	done := func() bool { return m.specRev == m.form.Rev() && prescReady(m) }
	if presets.All[i].Starts() {
		done = func() bool { return m.specRev == m.form.Rev() && prescReady(m) && settled(m) }
	}
	pump(t, m, cmd, func() bool { return done() && !strings.Contains(screenText(m), "computing") })
	return m
}

// TestPresetScreenWords: TestPresetWordsAtThreeSizes's reading on the
// side panels of every screen — every preset at 80×24, 120×32 and
// 132×42, on the screen it opens on (the chart and its theorem panel,
// for most) and on its sweeps over n, ε, d and k
// (s, v, d, o), clipping sweep (x) and tuning screen (g: its search on the fake
// runner made at a smaller n where the preset's takes minutes,
// smallTune) run to their end, each
// side panel read (the screen's panel, the privacy and clipping panels;
// the side tabs on the small terminal): no line of a panel is cut
// without a visible way to the rest (a line ending in a cut word); a
// panel that does not show every line says how many are below and names
// the keys that scroll it, and those keys do (read to the end, it shows
// every line once); every "on the chart" or "in the legend" names
// something the screen draws; and no value of a rate with its constants
// set to 1 stands beside a ✓ that reads as "holds here".
func TestPresetScreenWords(t *testing.T) {
	for i := range presets.All {
		for _, sz := range wordSizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("preset %d at %dx%d", i+1, w, h), func(t *testing.T) {
				m := loadedPresetOn(t, &fakeRunner{points: 3, tuneWorkers: 1, tuneMemo: &searches, tuneSmall: true}, i, w, h)
				// The screen the preset opens on first (the chart and
				// its theorem panel, for most).
				for _, p := range sidePanels(m) {
					checkPanelWords(t, m, p.name+" panel on loading", readPanel(t, m, p, "loading"))
				}
				for _, sc := range wordScreens {
					if sc.wideAndSmall && w == 120 {
						continue
					}
					showScreen(t, m, sc.key, sc.kind)
					for _, p := range sidePanels(m) {
						text := readPanel(t, m, p, sc.key)
						checkPanelWords(t, m, p.name+" panel on "+sc.key, text)
					}
					m.Update(press("esc"))
				}
			})
		}
	}
}

// showScreen shows the screen of kind (its key) and pumps until the run
// it asks for ended, or at once when it asks for none (the preset's
// Spec gives it no job: the screen says why).
func showScreen(t *testing.T, m *Model, k string, kind runs.ScreenKind) {
	t.Helper()
	var cmd tea.Cmd
	if m.screens[m.active].def.Kind != kind { // shown: its key would leave it
		_, cmd = m.Update(press(k))
	}
	if m.screens[m.active].def.Kind != kind {
		t.Fatalf("%s shows %s, not %s", k, m.screens[m.active].def.Kind, kind)
	}
	_, why := m.screens[m.active].screen.Job(m.form.Resolved())
	// The screen is rendered last, once the run ended: a render per
	// progress message was a fifth of the test's CPU time.
	pump(t, m, cmd, func() bool {
		if r := m.run(); r != nil && (r.Active() || !r.Drained) {
			return false
		}
		if why == "" && m.runs.Last(kind) == nil {
			return false
		}
		return !strings.Contains(screenText(m), "computing")
	})
}

// sidePanel is a side panel as the root lays it out: its name, its view,
// and the side tab that shows it (compact).
type sidePanel struct {
	name string
	view func() string
	// tab: the side tab that shows it (compact).
	tab int
}

// sidePanels are the panels around the shown screen: on a wide terminal
// the screen's own, the privacy and the clipping panels; on a small one
// the side tabs; and a screen whose own lines scroll (the tuning
// screen), read as a panel is.
func sidePanels(m *Model) []sidePanel {
	screen := m.screens[m.active].screen
	title, panel := screen.Panel()
	var out []sidePanel
	if m.compact {
		for i, n := range []string{title, "Privacy", "Clipping"} {
			out = append(out, sidePanel{name: n, view: func() string { return stripANSI(m.side.View()) }, tab: i})
		}
	} else {
		out = []sidePanel{
			{name: title, view: func() string { return stripANSI(panel.View()) }},
			{name: "Privacy", view: func() string { return stripANSI(m.privacy.View()) }},
			{name: "Clipping", view: func() string { return stripANSI(m.clip.View()) }},
		}
	}
	if s, ok := screen.(common.ScrollScreen); ok {
		out = append(out, sidePanel{name: s.Title() + " screen", view: func() string { return stripANSI(screen.View()) }})
	}
	return out
}

// scrollLine matches a panel's last line when it does not show every
// line: how many are below and the keys that scroll them — after how
// many presses of t.
var scrollLine = regexp.MustCompile(`↓ (\d+) more lines?: (j, pgdn|t(?: twice| (\d+) times)?, then j)`)

// readPanel brings p on screen and reads it to its end with the keys
// its last line names: the lines of every page, each once, the title
// and the scroll line left out. Every key it pressed is undone: t is
// pressed until the scroll keys are where they were.
func readPanel(t *testing.T, m *Model, p sidePanel, screenKey string) []string {
	t.Helper()
	screen := m.screens[m.active].screen
	start, ring := m.at(screen), len(m.ring(screen))
	for i := 0; m.compact && m.side.Index() != p.tab && i < ring; i++ {
		m.Update(press("t"))
	}
	defer func() {
		for i := 0; m.at(screen) != start && i < ring; i++ {
			m.Update(press("t"))
		}
	}()
	// A block's lines under its title and the line that says how to
	// scroll them: its last, or its title's rule where its lines take
	// every row (the tuning screen's).
	body := func(view string) ([]string, string) {
		all := strings.Split(view, "\n")
		lines := all[1:]
		last := strings.TrimSpace(lines[len(lines)-1])
		if strings.Contains(last, "↓ ") || strings.HasPrefix(last, "↑ ") {
			return lines[:len(lines)-1], last
		}
		if i := strings.Index(all[0], "↓ "); i >= 0 {
			return lines, strings.TrimRight(all[0][i:], "─ ")
		}
		return lines, ""
	}
	view := p.view()
	lines, hint := body(view)
	out := append([]string(nil), lines...)
	if hint == "" {
		return out
	}
	mt := scrollLine.FindStringSubmatch(hint)
	if mt == nil {
		t.Errorf("%s panel on %s: its last line %q does not say how many lines are below and which keys scroll them", p.name, screenKey, hint)
		return out
	}
	presses := 0
	switch {
	case mt[3] != "":
		fmt.Sscan(mt[3], &presses)
	case strings.HasPrefix(mt[2], "t twice"):
		presses = 2
	case strings.HasPrefix(mt[2], "t,"):
		presses = 1
	}
	for range presses {
		m.Update(press("t"))
	}
	view = p.view()
	var below int
	fmt.Sscan(mt[1], &below)
	for i := 0; i < below; i++ {
		before := view
		m.Update(press("j"))
		if view = p.view(); view == before {
			t.Errorf("%s panel on %s: %q, but j does not scroll it:\n%s", p.name, screenKey, hint, before)
			return out
		}
		lines, _ = body(view)
		out = append(out, lines[len(lines)-1])
	}
	if _, h := body(view); strings.Contains(h, "↓") {
		t.Errorf("%s panel on %s: read to its end (%d lines), it still says %q", p.name, screenKey, below, h)
	}
	for range below {
		m.Update(press("k"))
	}
	return out
}

// cutWord matches a word cut with "…" (right after a letter, at the
// line's end or inside it: not a range "a … b", a formula's elided
// argument "min{…}", or an ellipsis of a state: "computing…").
var cutWord = regexp.MustCompile(`[^\s{…]…`)

// stateEllipsis is a line that ends in a state's "…", not a cut.
var stateEllipsis = regexp.MustCompile(`^[^…]*(computing|running|exporting|waiting)…[^…]*$`)

// checkPanelWords reads a panel's lines: none is cut without "(? full)";
// "on the chart" and "in the legend" name what the screen shows; a rate
// (constants set to 1) is never ticked.
func checkPanelWords(t *testing.T, m *Model, where string, lines []string) {
	t.Helper()
	for _, l := range lines {
		if cutWord.MatchString(l) && !stateEllipsis.MatchString(l) && !strings.Contains(l, "(? full)") {
			t.Errorf("%s: a line is cut: %q", where, strings.TrimSpace(l))
		}
	}
	text := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	checkNamesDrawn(t, m, where, text)
	// The rates' section (after "every constant set to 1") ticks
	// nothing, and no line gives a rate's value beside a ✓.
	inRates := false
	for _, l := range lines {
		if strings.Contains(l, "every constant set to 1") || strings.Contains(l, "constants set to 1") {
			inRates = true
		}
		rateValue := regexp.MustCompile(`\brate\s+[0-9]`).MatchString(l)
		if strings.Contains(l, "✓") && (inRates || rateValue) {
			t.Errorf("%s: a ✓ beside a rate with its constants set to 1 reads as a bound that holds here: %q", where, strings.TrimSpace(l))
		}
	}
}

// drawnNames are the elements a text may say are on a chart or in its
// legend.
var drawnNames = []string{"w₀", "certified", "noise off", "fitted line", "shape", "start line"}

// checkNamesDrawn: a sentence of text that says something is "on the
// chart" or "in the legend" names an element the screen shows (one of
// drawnNames, or a run's solver).
func checkNamesDrawn(t *testing.T, m *Model, where, text string) {
	t.Helper()
	screen := ""
	for _, s := range strings.Split(text, ". ") {
		if !strings.Contains(s, "on the chart") && !strings.Contains(s, "in the legend") {
			continue
		}
		if screen == "" {
			screen = screenText(m)
		}
		named := false
		for _, name := range drawnNames {
			named = named || strings.Contains(s, name) && strings.Contains(screen, name)
		}
		if r := m.run(); r != nil {
			for _, n := range r.Names {
				named = named || strings.Contains(s, n) && strings.Contains(screen, n)
			}
		}
		if !named {
			t.Errorf("%s says %q, naming nothing the screen shows", where, s)
		}
	}
}

// TestSideTabNamesDiffer: on every screen the side tabs' names (the
// screen's panel, Privacy, Clipping) differ in their first four letters,
// so that no two read alike ("Clipped" beside "Clipping").
func TestSideTabNamesDiffer(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 80, 24)
	for _, e := range m.screens {
		title, _ := e.screen.Panel()
		names := []string{title, "Privacy", "Clipping"}
		for i, a := range names {
			for _, b := range names[i+1:] {
				if head := func(s string) string { return strings.ToLower(string([]rune(s)[:min(4, len([]rune(s)))])) }; head(a) == head(b) {
					t.Errorf("%s screen: its side tabs %q and %q read alike", e.def.Kind, a, b)
				}
			}
		}
	}
}

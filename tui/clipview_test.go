package tui

import (
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestClipScreen: x shows the clipping
// trade-off and runs the clipping sweep of the form's Spec; the chart
// draws the measured curve, the noise-off curve and the start line, its
// title names the prescribed and the best C, the table marks them and
// gives each C's clipped fraction; the reproduce line is `dpso sweep …
// --vary clip`; e exports the sweep's document; esc returns to the chart.
func TestClipScreen(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
	cs := m.clipScreen()
	if m.screens[m.active].screen != cs {
		t.Fatal("x does not show the clipping screen")
	}
	v := stripANSI(cs.View())
	for _, w := range []string{"Clipping: excess vs C", "prescribed 157", "best 0.", "noise off: clipping + sampling + optimization", "w₀", "clip threshold C (log)"} {
		if !strings.Contains(v, w) {
			t.Errorf("the clipping chart lacks %q:\n%s", w, v)
		}
	}
	names := map[string]bool{}
	for _, s := range cs.Chart.Series() {
		names[s.Label] = len(s.Points) > 0
	}
	if !names["acsa"] || !names["noise off: clipping + sampling + optimization"] || !names["w₀"] {
		t.Errorf("series %v", names)
	}
	tv := stripANSI(cs.Table.View())
	for _, w := range []string{"★ ", "◀ ", "%", "noise off"} {
		if !strings.Contains(tv, w) {
			t.Errorf("the table lacks %q:\n%s", w, tv)
		}
	}
	if r := m.status.Reproduce(); !strings.HasPrefix(r, "dpso sweep ") || !strings.HasSuffix(r, "--vary clip") || strings.Contains(r, "--clip") {
		t.Errorf("reproduce line %q", r)
	}
	exportAndWait(t, m)
	if !strings.Contains(m.status.Text, "-clip.{png,svg,json} in ") {
		t.Fatalf("e on the clipping screen: %q", m.status.Text)
	}
	files, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-clip.json"))
	if len(files) != 1 {
		t.Fatalf("exports %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Sweep          string
		PrescribedClip *float64 `json:"prescribed_clip"`
	}
	if json.Unmarshal(b, &j) != nil || j.Sweep != "clip" || j.PrescribedClip == nil || *j.PrescribedClip != cs.Report().PrescribedClip {
		t.Errorf("exported %s", b)
	}
	keyUntil(t, m, "esc", func() bool { return m.active == 0 })
}

// TestClipPresetRunsTheClippingSweep: loading the clipping preset shows
// the clipping screen and runs its sweep.
func TestClipPresetRunsTheClippingSweep(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	i := 0
	for ; i < len(presets.All) && presets.All[i].Screen != screens.ClipKind; i++ {
	}
	if i == len(presets.All) {
		t.Fatal("no clipping preset")
	}
	keyUntil(t, m, "p", func() bool { return m.overlay != nil })
	cur, _ := m.presets.Selected()
	for range i - cur {
		m.Update(press("down"))
	}
	keyUntil(t, m, "enter", func() bool { return doneOf(m, screens.ClipKind) })
	if m.screens[m.active].screen != m.clipScreen() || m.head.Title() != presets.All[i].Title {
		t.Errorf("active screen %d, preset %q", m.active, m.head.Title())
	}
}

// TestClipTableScrolls: at 80×24 the clipping table does not fit its
// panel; it says how many lines are below, and pgdn and j bring them
// (the rest of the rows and the legend's end) into view, and pgup back.
func TestClipTableScrolls(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 80, 24)
	keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
	tv := stripANSI(m.clipScreen().Table.View())
	if !strings.Contains(tv, "more lines: j, pgdn") {
		t.Fatalf("the table at 80×24 does not say it scrolls:\n%s", tv)
	}
	if strings.Contains(tv, "prescription's.") {
		t.Fatalf("the table's legend fits at 80×24 (the test needs a table that does not):\n%s", tv)
	}
	for range 10 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	tv = stripANSI(m.clipScreen().Table.View())
	if !strings.Contains(tv, "prescription's.") || strings.Contains(tv, "more lines") {
		t.Errorf("pgdn does not bring the end of the table into view:\n%s", tv)
	}
	for range 10 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	}
	if tv := stripANSI(m.clipScreen().Table.View()); !strings.Contains(tv, "C      clip") {
		t.Errorf("pgup does not return to the table's head:\n%s", tv)
	}
}

// sweepTable is a sweep screen's table: its cached View and a fresh
// render.
type sweepTable interface {
	View() string
	Render() string
}

// TestSweepTablesFollowTheirSweep: the sweep screens' tables are cached
// between changes; rendered after every message of a sweep, as a program
// renders, each ends showing its finished sweep (what it renders afresh),
// and repaints on a new background colour.
func TestSweepTablesFollowTheirSweep(t *testing.T) {
	for _, c := range []struct {
		key   string
		kind  runs.ScreenKind
		table func(*Model) sweepTable
	}{
		{"s", screens.SweepNKind, func(m *Model) sweepTable { return m.sweepScreen().Table }},
		{"x", screens.ClipKind, func(m *Model) sweepTable { return m.clipScreen().Table }},
	} {
		t.Run(c.key, func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
			before := c.table(m).View()
			keyUntil(t, m, c.key, func() bool {
				c.table(m).View()
				return doneOf(m, c.kind)
			})
			got := c.table(m).View()
			if got == before || got != c.table(m).Render() {
				t.Fatalf("the table shows\n%s\nafter its sweep, which renders as\n%s", stripANSI(got), stripANSI(c.table(m).Render()))
			}
			bg := color.Color(color.White)
			if !m.dark {
				bg = color.Black
			}
			m.Update(tea.BackgroundColorMsg{Color: bg})
			if now := c.table(m).View(); now == got || now != c.table(m).Render() {
				t.Errorf("the table did not repaint on the other background (dark before: %v)", !m.dark)
			}
		})
	}
}

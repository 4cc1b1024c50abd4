package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/presets"
	"dpso/tui/screens"
)

// TestClipTableHeaderStays: where the C sweep's table scrolls, its
// column header stays under the title while the rows page by (pgdn, j),
// so that every row on screen is read under its column's name; pgup
// returns to the table's first row. The clipping preset, loaded from the
// presets list (p), at the sizes where its table scrolls.
func TestClipTableHeaderStays(t *testing.T) {
	i := 0
	for ; i < len(presets.All) && presets.All[i].Screen != screens.ClipKind; i++ {
	}
	if i == len(presets.All) {
		t.Fatal("no clipping preset")
	}
	for _, tc := range []struct {
		w, h  int
		moves []string
	}{
		{80, 24, []string{"pgdown"}},
		{80, 24, []string{"pgdown", "pgdown"}},
		{80, 24, []string{"j", "j", "j"}},
		{120, 32, []string{"pgdown"}},
		{80, 24, []string{"pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown"}},
	} {
		t.Run(fmt.Sprintf("%dx%d/%s", tc.w, tc.h, strings.Join(tc.moves, ",")), func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 9}, &example1, tc.w, tc.h)
			keyUntil(t, m, "p", func() bool { return m.overlay != nil })
			cur, _ := m.presets.Selected()
			for range i - cur {
				m.Update(press("down"))
			}
			keyUntil(t, m, "enter", func() bool { return doneOf(m, screens.ClipKind) })
			table := func() []string { return strings.Split(stripANSI(m.clipScreen().Table.View()), "\n") }
			checkHeaderStays(t, m, table, tc.moves, "clip")
		})
	}
}

// checkHeaderStays pages a scrolling table (table: its panel's rows) by
// moves and checks that its second row, the column header (containing
// col), stays while the rows move, and that pgup returns to the first
// rows.
func checkHeaderStays(t *testing.T, m *Model, table func() []string, moves []string, col string) {
	t.Helper()
	first := table()
	if !strings.Contains(first[len(first)-1], "more lines") {
		t.Fatalf("the table fits (the test needs one that scrolls):\n%s", strings.Join(first, "\n"))
	}
	header := first[1]
	if !strings.Contains(header, col) {
		t.Fatalf("the panel's second row is not the table's header:\n%s", strings.Join(first, "\n"))
	}
	for _, k := range moves {
		m.Update(press(k))
	}
	moved := table()
	if moved[1] != header {
		t.Errorf("after %v the header row is %q, not %q:\n%s", moves, moved[1], header, strings.Join(moved, "\n"))
	}
	if strings.Join(moved, "\n") == strings.Join(first, "\n") {
		t.Errorf("after %v the table did not scroll:\n%s", moves, strings.Join(moved, "\n"))
	}
	for range 10 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	}
	if back := table(); strings.Join(back, "\n") != strings.Join(first, "\n") {
		t.Errorf("pgup does not return to the table's first rows:\n%s\nwant\n%s", strings.Join(back, "\n"), strings.Join(first, "\n"))
	}
}

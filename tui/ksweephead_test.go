package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/screens"
)

// TestKSweepTableHeaderStays: where the k sweep's table of points (its
// panel's first block) scrolls, its column header stays under the title
// while the rows page by, so that every row on screen is read under its
// column's name; pgup returns to the table's first row. At the sizes
// where the table is one block of columns and scrolls (at 80 columns it
// wraps into two blocks, each with its own header, and only the title is
// held).
func TestKSweepTableHeaderStays(t *testing.T) {
	for _, tc := range []struct {
		w, h  int
		moves []string
	}{
		{120, 32, []string{"pgdown"}},
		{100, 30, []string{"pgdown"}},
		{120, 32, []string{"j", "j", "j"}},
		{120, 32, []string{"pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown"}},
	} {
		t.Run(fmt.Sprintf("%dx%d/%s", tc.w, tc.h, strings.Join(tc.moves, ",")), func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 9}, &example1, tc.w, tc.h)
			keyUntil(t, m, "o", func() bool { return doneOf(m, screens.SweepKKind) })
			scr := m.screens[m.screenIndex(screens.SweepKKind)].screen.(*screens.RateSweepScreen)
			table := func() []string { return strings.Split(stripANSI(scr.Table.View()), "\n") }
			first := table()
			if !strings.Contains(first[len(first)-1], "more lines") {
				t.Fatalf("the table fits at %d×%d (the test needs one that scrolls):\n%s", tc.w, tc.h, strings.Join(first, "\n"))
			}
			header := first[1]
			if !strings.Contains(header, "excess ± s.e.") {
				t.Fatalf("the panel's second row is not the table's header:\n%s", strings.Join(first, "\n"))
			}
			for _, k := range tc.moves {
				m.Update(press(k))
			}
			moved := table()
			if moved[1] != header {
				t.Errorf("after %v the header row is %q, not %q:\n%s", tc.moves, moved[1], header, strings.Join(moved, "\n"))
			}
			if strings.Join(moved, "\n") == strings.Join(first, "\n") {
				t.Errorf("after %v the table did not scroll:\n%s", tc.moves, strings.Join(moved, "\n"))
			}
			for range 10 {
				m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
			}
			if back := table(); strings.Join(back, "\n") != strings.Join(first, "\n") {
				t.Errorf("pgup does not return to the table's first rows:\n%s\nwant\n%s", strings.Join(back, "\n"), strings.Join(first, "\n"))
			}
		})
	}
}

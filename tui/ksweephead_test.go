package tui

import (
	"fmt"
	"strings"
	"testing"

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
			checkHeaderStays(t, m, table, tc.moves, "excess ± s.e.")
		})
	}
}

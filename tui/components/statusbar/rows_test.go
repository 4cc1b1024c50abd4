package statusbar

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// countingClock reads a fixed time and counts its readings.
type countingClock struct {
	t     time.Time
	reads int
}

func (c *countingClock) now() time.Time { c.reads++; return c.t }

// drawnStateRows is the rows the state line takes in a render of b (the
// rows above the reproduce line and the keys that are not padding),
// drawn with room for any number of them.
func drawnStateRows(b *Model, w int) int {
	b.SetSize(w, 100)
	lines := strings.Split(b.View(), "\n")
	n := 0
	for _, l := range lines[:len(lines)-2] {
		if l != "" {
			n++
		}
	}
	return n
}

// TestRowsKeepTheRowsOfBothRenders pins what Rows lays out: the rows
// the state line takes in a render with the transient message, or in the
// render after the next key clears it, whichever is more (so that the
// panels do not change size under a key that scrolls them), at the time
// the last render read — Rows reads no clock — and the run's facts as
// that render after the key lists them (Facts). A long message wraps
// under the state; a short one fits beside it while the run's outcome,
// once it goes, wraps; a refusal of the key comes first, marked ✗.
func TestRowsKeepTheRowsOfBothRenders(t *testing.T) {
	long := strings.Repeat("a refusal that is long enough to wrap under the state line ", 3)
	refused := &runs.Run{Job: runs.Job{What: "acsa"}, ID: 2, Phase: runs.Refused, Refusal: "acsa refuses: " + long}
	done := &runs.Run{Job: runs.Job{What: "acsa"}, ID: 1, Phase: runs.Done}
	for _, tc := range []struct {
		name string
		run  *runs.Run
		msg  common.StatusMsg
	}{
		{"no message", refused, common.StatusMsg{}},
		{"long message, no run", nil, common.StatusMsg{Text: long}},
		{"long message over a done run", done, common.StatusMsg{Text: long}},
		{"short message over a refused run", refused, common.StatusMsg{Text: "copied"}},
		{"folded message over a refused run", refused, common.StatusMsg{Text: long, Short: "copied", Fold: true}},
		{"refused key over a refused run", refused, common.StatusMsg{Text: long, Err: true}},
		{"refused key, short, over a done run", done, common.StatusMsg{Text: "nothing to export", Err: true}},
	} {
		for _, w := range []int{80, 132} {
			t.Run(fmt.Sprintf("%s at %d", tc.name, w), func(t *testing.T) {
				st := style.NewTheme(style.Dark, true, true)
				keys := common.DefaultKeyMap(nil)
				clock := &countingClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
				b := New(common.Common{Styles: &st, KeyMap: &keys}, clock.now, true, time.Second)
				if tc.run != nil {
					b.Update(runs.Event{Run: tc.run})
				}
				b.Update(tc.msg)
				with := drawnStateRows(b, w)
				after := *b
				after.Update(tea.KeyPressMsg{})
				afterRows := drawnStateRows(&after, w)

				reads := clock.reads
				got := b.Rows(w, false)
				if clock.reads != reads {
					t.Errorf("Rows read the clock %d times", clock.reads-reads)
				}
				if want := 2 + max(with, afterRows); got != want {
					t.Errorf("Rows = %d, want 2 + max(%d rows with the message, %d after the key)", got, with, afterRows)
				}
				if b.Facts() != after.Facts() {
					t.Errorf("facts after Rows %q, want the render after the key's %q", b.Facts(), after.Facts())
				}
				if tc.msg.Text != "" && after.Rows(w, false) != 2+afterRows {
					t.Errorf("after the key Rows = %d, want %d", after.Rows(w, false), 2+afterRows)
				}
			})
		}
	}
}

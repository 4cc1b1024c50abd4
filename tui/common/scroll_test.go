package common

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/viewport"

	"dpso/tui/style"
)

// TestScrollHintWhole: the line under a scrolled panel, scrolled part
// way, is whole in a narrow panel: the up key's words give way first,
// and the keys that scroll down are always named.
func TestScrollHintWhole(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	km := DefaultKeyMap(nil)
	var lines []string
	for range 30 {
		lines = append(lines, "line")
	}
	for _, tc := range []struct {
		w       int
		presses int
		want    string
	}{
		{30, 0, "↑ k · ↓ 16 more lines: j, pgdn"},
		{34, 0, "↑ pgup · ↓ 16 more lines: j, pgdn"},
		{60, 0, "↑ pgup · ↓ 16 more lines: j, pgdn"},
		{36, 1, "↑ t, k · ↓ 16 more lines: t, then j"},
		{60, 1, "↑ t, then k · ↓ 16 more lines: t, then j"},
		{60, 2, "↑ t twice, then k · ↓ 16 more lines: t twice, then j"},
		{52, 3, "↑ t 3 times, k · ↓ 16 more lines: t 3 times, then j"},
		{40, 3, "↓ 16 more lines: t 3 times, then j"},
	} {
		vp := viewport.New()
		vp.SetWidth(tc.w)
		vp.SetHeight(10)
		vp.SetContentLines(lines)
		vp.ScrollDown(4)
		got := style.StripANSI(scrollHint(&st, vp, &km, tc.w, tc.presses))
		if strings.TrimRight(got, " ") != tc.want {
			t.Errorf("%d cells, %d presses: %q, want %q", tc.w, tc.presses, got, tc.want)
		}
	}
}

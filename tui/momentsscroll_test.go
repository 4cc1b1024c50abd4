package tui

import (
	"regexp"
	"strings"
	"testing"

	"dpso/tui/screens"
)

// TestMomentsScreenScrolls: at 80×24 the moment profile's lines — the
// profile, the contradicted L_f and the note on reading it — do not fit
// its rows; the last row says how many lines are below and names the
// keys (t as many times as it takes, then j), and those keys bring the
// note's last words on screen, where "a taller terminal shows it" hid
// them with no key.
func TestMomentsScreenScrolls(t *testing.T) {
	sp := linregT
	sp.Lf = 1e4 // below the scenario's own L_f = ∞: the screen says so
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 80, 24)
	keyUntil(t, m, "m", func() bool { return prescReady(m) && m.screens[m.active].def.Kind == screens.MomentsKind })
	const last = "that gap is what clipping buys."
	flat := func() string { return strings.Join(strings.Fields(stripANSI(m.screens[m.active].screen.View())), " ") }
	if strings.Contains(flat(), last) {
		t.Fatalf("the moment profile fits 80×24: nothing to scroll:\n%s", screenText(m))
	}
	mt := regexp.MustCompile(`↓ \d+ more lines?: (t(?: twice| \d times)?), then j`).FindStringSubmatch(screenText(m))
	if mt == nil {
		t.Fatalf("the moment profile does not say how to reach its hidden lines:\n%s", screenText(m))
	}
	presses := map[string]int{"t": 1, "t twice": 2}[mt[1]]
	if presses == 0 {
		presses = int(mt[1][2] - '0')
	}
	for range presses {
		m.Update(press("t"))
	}
	for i := 0; i < 20 && !strings.Contains(flat(), last); i++ {
		m.Update(press("j"))
	}
	if !strings.Contains(flat(), last) {
		t.Errorf("t, then j do not reach the note's end:\n%s", screenText(m))
	}
	for i := 0; i < 20 && !strings.Contains(flat(), "the bound it declares is false for these data"); i++ {
		m.Update(press("k"))
	}
	if !strings.Contains(flat(), "the bound it declares is false for these data") {
		t.Errorf("k does not scroll back to the contradicted L_f:\n%s", screenText(m))
	}
}

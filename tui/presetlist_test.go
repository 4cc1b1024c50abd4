package tui

import (
	"dpso/tui/presets"
	"dpso/tui/runs"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPresetBurst: keys sent in a burst after a preset is chosen (p, 5,
// r back to back, before any command's message came back) act on the
// loaded preset: 5 loads preset 5 and closes the list within its own
// Update, so r runs that preset — it is not taken by the list, still
// open until its load message came back (where it loaded the preset
// again and ran nothing). The same holds for the help: ?, esc, r runs.
func TestPresetBurst(t *testing.T) {
	for _, tc := range []struct {
		keys  []string
		title string
	}{
		{[]string{"p", "5", "r"}, presets.All[4].Title},
		{[]string{"p", "down", "enter", "r"}, presets.All[1].Title},
		{[]string{"?", "esc", "r"}, presets.All[0].Title},
	} {
		t.Run(strings.Join(tc.keys, " "), func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
			var cmds []tea.Cmd
			for _, k := range tc.keys {
				_, c := m.Update(press(k))
				cmds = append(cmds, c)
			}
			if m.overlay != nil {
				t.Errorf("%v: the overlay is still open after the burst", tc.keys)
			}
			r := m.run()
			if r == nil || r.Family != m.screens[m.active].def.Family() || !r.Active() || runs.RunKey(r.Spec) != runs.RunKey(m.form.Resolved()) || m.head.Title() != tc.title {
				t.Fatalf("%v: r did not start a run of the loaded preset %q (preset %q, run %+v)", tc.keys, tc.title, m.head.Title(), r)
			}
			id := r.ID
			pump(t, m, tea.Batch(cmds...), func() bool { return settled(m) && prescReady(m) })
			if m.run().ID != id || m.overlay != nil || m.head.Title() != tc.title {
				t.Errorf("%v: a message of the burst changed what r ran: run #%d (want #%d), preset %q", tc.keys, m.run().ID, id, m.head.Title())
			}
		})
	}
}

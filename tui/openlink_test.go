package tui

import (
	"strings"
	"testing"

	"dpso/internal/statestring"
	"dpso/tui/screens"
)

// TestOpenStateDropsTheLinkOfTheScreenBefore: y's link to the screen
// shown ("link to this screen …: …?state=…") is of that screen; a
// state string opened without a key (an instructor's broadcast accepted)
// shows another, so the link goes — from the status bar, where it stood
// in place of the reproduce line, and from the help's messages — and the
// reproduce line is the new screen's. Likewise a screen shown after y.
func TestOpenStateDropsTheLinkOfTheScreenBefore(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 3}, 0)
	opts.Link = "http://127.0.0.1:8877/"
	from := example1
	m := newTestModelOpts(t, opts, &from, 120, 32)
	noLink := func(when string) {
		t.Helper()
		if v := screenText(m); strings.Contains(v, "link to this screen") || strings.Contains(v, "link: http") {
			t.Errorf("%s, the link to the screen before is still shown:\n%s", when, v)
		}
		m.help.SetSize(120, 200)
		if v := stripANSI(m.help.View()); strings.Contains(v, "link to this screen") {
			t.Errorf("%s, the help still lists the link to the screen before:\n%s", when, v)
		}
	}
	m.Update(press("y"))
	if v := screenText(m); !strings.Contains(v, "link: http://127.0.0.1:8877/?state=") {
		t.Fatalf("y shows no link:\n%s", v)
	}
	st := statestring.State{Spec: example1, Screen: string(screens.ClipKind)}
	st.Spec.N = 4001
	_, cmd := m.Update(OpenState(st))
	pump(t, m, cmd, func() bool { return doneOf(m, screens.ClipKind) })
	noLink("after opening a state string")
	if v := screenText(m); !strings.Contains(v, "reproduce: dpso sweep") {
		t.Errorf("the clipping screen's reproduce line is not shown:\n%s", v)
	}

	m.Update(press("y"))
	m.reopen(0, true) // a screen shown without a key of its own
	noLink("after showing the chart")
}

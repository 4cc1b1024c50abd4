package serve

import (
	"strings"
	"testing"

	"dpso/internal/statestring"
	"dpso/tui/presets"
)

// TestBroadcastOfUserDataIsRefused: an instructor's broadcast of a state
// string that names a data file (one copied with y on dpso explore
// --data) is refused before any session sees it: a session reads no file
// of the server, so no student's explorer would open, let alone run on,
// the path it carries.
func TestBroadcastOfUserDataIsRefused(t *testing.T) {
	ts, _ := startWeb(t, Config{Runner: newBlockRunner()}, false)
	s := presets.All[0].Spec
	s.Scenario, s.Data, s.Rk = "", "/etc/passwd", 1
	for _, sc := range []string{"chart", "tune"} {
		tok := statestring.State{Spec: s, Screen: sc, Run: statestring.RunKey}.String()
		if _, err := ts.parseOffer([]string{"--state", tok}); err == nil || !strings.Contains(err.Error(), "no file of the server") {
			t.Errorf("%s: broadcast of a state string on a data file: %v, want the refusal", sc, err)
		}
	}
}

package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/common"
	"dpso/tui/presets"
)

// TestHelpSaysWhereKeysWork: the help's key list, read on the main screen,
// says that n works on the audit screen only, and the presets list's digit
// key names every preset that only loads (nothing runs on loading), so that
// "load and run" is not read as true of it.
func TestHelpSaysWhereKeysWork(t *testing.T) {
	m := loadedPreset(t, 0, 132, 42)
	m.Update(press("?"))
	if v := screenText(m); !strings.Contains(v, "on the audit screen (u) only: negative control") {
		t.Errorf("the help does not say where n works:\n%s", v)
	}
	pick := common.DefaultKeyMap(nil).PickPreset.Help().Desc
	for i, p := range presets.All {
		t.Run(p.Title, func(t *testing.T) {
			if named := strings.Contains(pick, fmt.Sprintf("preset %d only loads", i+1)); named == p.Starts() {
				t.Errorf("preset %d starts a run: %v; the digit key's help names it as one that only loads: %v (%q)", i+1, p.Starts(), named, pick)
			}
		})
	}
}

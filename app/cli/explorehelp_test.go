package cli

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/presets"
)

// TestExploreHelpNamesPresetsThatOnlyLoad: explore's help says --preset
// starts its run at once; every preset where nothing runs on loading is
// named there as the exception, and no other.
func TestExploreHelpNamesPresetsThatOnlyLoad(t *testing.T) {
	long := strings.Join(strings.Fields(newExploreCmd(&env{}).Long), " ")
	for i, p := range presets.All {
		t.Run(p.Title, func(t *testing.T) {
			named := strings.Contains(long, fmt.Sprintf("except preset %d, where nothing runs on loading", i+1))
			if named == p.Starts() {
				t.Errorf("preset %d starts a run: %v; explore's help names it as an exception: %v", i+1, p.Starts(), named)
			}
		})
	}
}

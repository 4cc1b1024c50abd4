package tui

import (
	"regexp"
	"strings"
	"testing"

	"dpso/tui/presets"
)

// TestFirstCaptionFoldedShowsTheResult: the first screen's caption,
// folded, reaches r's result at 132 columns — "r: acsa ends at 7.83·10⁻⁵",
// the legend's name and the pinned run's number — so that naming the
// solvers as the legend does costs no word of what the run showed.
func TestFirstCaptionFoldedShowsTheResult(t *testing.T) {
	result := regexp.MustCompile(`r: acsa ends at [^,]+`).FindString(presets.All[0].Caption())
	if result == "" {
		t.Fatalf("preset 1's caption names no result of acsa in the legend's name: %q", presets.All[0].Caption())
	}
	m := loadedPreset(t, 0, 132, 42)
	rows := m.head.Rows(m.width, m.height)
	folded := strings.Join(strings.Split(screenText(m), "\n")[1:1+rows], " ")
	if !strings.Contains(folded, result) {
		t.Errorf("the folded caption at 132 columns does not reach %q:\n%s", result, folded)
	}
}

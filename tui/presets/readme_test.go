package presets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMETour: the README's five-minute tour lists the presets in
// order, each with its title and what loading it runs, so that
// `dpso explore --preset N` opens the row's preset.
func TestREADMETour(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for i, p := range All {
		t.Run(p.Title, func(t *testing.T) {
			row := fmt.Sprintf("| %d | %s | %s | ", i+1, p.Title, p.Action)
			if !strings.Contains(readme, row) {
				t.Errorf("the README's tour lacks preset %d's row %q", i+1, row)
			}
		})
	}
	if strings.Contains(readme, fmt.Sprintf("\n| %d | ", len(All)+1)) {
		t.Errorf("the README's tour has more rows than the %d presets", len(All))
	}
}

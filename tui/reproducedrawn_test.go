package tui

import (
	"strings"
	"testing"
)

// TestReproduceIsTheDrawnRun: on preset 3, → on k while its comparison is
// drawn leaves the comparison on the chart (as the run before) — the
// reproduce line is still its command, dpso run --solvers at the k it
// ran, not the form's next single run at the new k.
func TestReproduceIsTheDrawnRun(t *testing.T) {
	m := loadedPreset(t, 2, 80, 24)
	drawn := m.status.Reproduce()
	if !strings.Contains(drawn, "--solvers ") {
		t.Fatalf("preset 3's comparison: reproduce %q", drawn)
	}
	formKeys(t, m, "right")
	if m.form.Resolved().Spec.K == m.run().Spec.Spec.K {
		t.Fatal("→ on k did not change k")
	}
	if got := m.status.Reproduce(); got != drawn {
		t.Errorf("after → on k the reproduce line is %q, not the drawn comparison's %q", got, drawn)
	}
}

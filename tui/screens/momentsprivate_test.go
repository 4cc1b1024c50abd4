package screens

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/runs"
)

// TestMomentsOnPrivateConstants: on rows whose constants are private the
// moment profile is refused, and the screen says why in its own terms —
// the profile would read the rows without privacy; give the constants or
// estimate them non-privately — not the prescription's refusal ("run it":
// a run does not fill this screen).
func TestMomentsOnPrivateConstants(t *testing.T) {
	rs := mustResolve(t, spec.Spec{Data: "../../examples/linreg-t-d3.csv", Constants: "private", Trials: 2})
	if !rs.PrivateConstants() {
		t.Fatal("the fixture's constants are not private")
	}
	_, err := engine.Prescribe(context.Background(), rs)
	if err == nil {
		t.Fatal("a prescription on private constants was made before running: the fixture no longer shows the case")
	}
	mv := newMomentsScreen(testCommon(), nil)
	mv.SetSize(90, 16)
	mv.Update(runs.PrescriptionMsg{Spec: rs, Key: runs.PrescKey(rs), Err: err.Error()})
	v := strings.Join(strings.Fields(stripANSI(mv.View())), " ")
	for _, want := range []string{"would read your rows without privacy", "give the constants", "--estimate-constants (NOT private)"} {
		if !strings.Contains(v, want) {
			t.Errorf("lacks %q:\n%s", want, v)
		}
	}
	for _, bad := range []string{"run it", "a prescription without running"} {
		if strings.Contains(v, bad) {
			t.Errorf("says %q:\n%s", bad, v)
		}
	}
	if _, why := mv.Export(); !strings.Contains(why, "without privacy") {
		t.Errorf("export says %q", why)
	}
}

package screens

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/tui/common"
)

// TestTuneTitleNamesDrawnBars: before its first search, the tuning
// screen's title and introduction name the bars it will draw — on a
// scenario the prescribed, tuned and oracle-tuned runs; on the user's rows
// (no references) the tuned run alone, saying why the others are off —
// never a prescribed run or oracle reference that is not drawn.
func TestTuneTitleNamesDrawnBars(t *testing.T) {
	rows := spec.Spec{Data: "../../examples/linreg-t-d3.csv", Constants: "private", Holdout: 0.2, Rand: "seeded", Trials: 2}
	for _, c := range []struct {
		name    string
		s       spec.Spec
		want    []string
		notWant []string
	}{
		{"scenario", example1,
			[]string{"What the constants cost: prescribed · tuned · oracle-tuned", "beside it the prescribed run and the oracle-tuned reference"},
			[]string{"no references"}},
		{"user rows", rows,
			[]string{"What the constants cost: the tuned run (no references on your rows)", "draws the tuned run alone", "dpso tune --references adds them"},
			[]string{"oracle-tuned ─", "· oracle-tuned", "beside it the prescribed run"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTuneScreen(testCommon())
			s.SetSize(120, 30)
			s.Update(common.SpecMsg{Spec: mustResolve(t, c.s)})
			v := strings.Join(strings.Fields(stripANSI(s.View())), " ")
			for _, w := range c.want {
				if !strings.Contains(v, w) {
					t.Errorf("lacks %q:\n%s", w, v)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(v, w) {
					t.Errorf("says %q:\n%s", w, v)
				}
			}
		})
	}
}

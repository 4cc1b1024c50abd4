package screens

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	goldenfile "dpso/internal/testutil/golden"
	"dpso/scenarios"
	"dpso/tui/runs"
)

// golden compares got, ANSI stripped and trailing spaces trimmed, with
// testdata/name.golden (go test -update or DPSO_UPDATE_GOLDEN=1 rewrites
// it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	lines := strings.Split(stripANSI(got), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	goldenfile.Equal(t, name, strings.Join(lines, "\n")+"\n")
}

// prescription is the prescription of s as the prescriber delivers it.
func prescription(t *testing.T, s spec.Spec) runs.PrescriptionMsg {
	t.Helper()
	rs := mustResolve(t, s)
	p, err := engine.Prescribe(context.Background(), rs)
	if err != nil {
		t.Fatal(err)
	}
	return runs.PrescriptionMsg{Spec: rs, Key: runs.PrescKey(rs), Prescription: p}
}

// TestGoldenMoments: the moment profile of Example 1 (closed form) and of
// a heavy-tailed profile (a moment that does not exist, L_f infinite).
func TestGoldenMoments(t *testing.T) {
	mv := newMomentsScreen(testCommon(), nil)
	mv.SetSize(90, 16)
	mv.Update(prescription(t, example1))
	golden(t, "moments-example1-90x16", mv.View())
	mv.profile, mv.k, mv.name = []scenarios.MomentEntry{
		{K: 2, R: 1.5, Method: "exact"}, {K: 4, R: 3, SE: 0.01, Method: "Monte Carlo (1048576 draws)"},
		{K: 8, R: math.Inf(1), Method: "does not exist (k ≥ 6)"}, {K: math.Inf(1), R: math.Inf(1), Method: "L_f (worst case)"},
	}, 4, "linreg-t"
	mv.Invalidate() // set by hand, not by Update: lay the lines out again
	golden(t, "moments-heavy-90x16", mv.View())
}

// TestMomentsNumbersWhole: at every width from 40 to 90 cells the moment
// profile shows the bars' scale whole (both ends, in the header or on a
// line of its own), every value whole, and no word or number cut with
// "…" (the title's formula goes to a line of its own where it does not
// fit the rule).
func TestMomentsNumbersWhole(t *testing.T) {
	mv := newMomentsScreen(testCommon(), nil)
	mv.Update(prescription(t, example1))
	cut := regexp.MustCompile(`[^\s{]…`)
	for w := 40; w <= 90; w++ {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			mv.SetSize(w, 20)
			view := stripANSI(mv.View())
			if !strings.Contains(view, "0.316 … 2·10²⁰") {
				t.Errorf("the scale is not shown whole:\n%s", view)
			}
			if !strings.Contains(strings.Join(strings.Fields(view), " "), "(E sup_w ‖∇f(w,x)‖^k)^{1/k}") {
				t.Errorf("the formula of r̃_k is not shown whole:\n%s", view)
			}
			for _, l := range strings.Split(view, "\n") {
				if cut.MatchString(l) {
					t.Errorf("a line is cut: %q", l)
				}
			}
		})
	}
}

// TestMomentsNoteNeverCutSilently: the moment profile of preset 1's data
// (a declared L_f contradicted: its ⚠ takes four lines at 46 columns)
// shows its note on reading r̃_k whole where it fits, and where it does
// not, a last line says how many lines are below and the keys that
// scroll to them — never the note's first words cut off by the panel's
// height, as at 80×24.
func TestMomentsNoteNeverCutSilently(t *testing.T) {
	mv := newMomentsScreen(testCommon(), nil)
	mv.Update(prescription(t, spec.Spec{Scenario: scenarios.LinRegT, Class: "smooth-convex", K: 4, N: 10000, D: 10, Tail: 20, Lf: 1e4, Trials: 2}))
	for _, w := range []int{40, 46, 60, 90} {
		for h := 8; h <= 30; h++ {
			t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
				mv.SetSize(w, h)
				lines := strings.Split(strings.TrimRight(stripANSI(mv.View()), "\n "), "\n")
				for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
					lines = lines[:len(lines)-1]
				}
				flat := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
				if strings.Contains(flat, "that gap is what clipping buys.") {
					return
				}
				if last := lines[len(lines)-1]; !strings.Contains(last, "more line") || !strings.Contains(last, "j") {
					t.Errorf("the note is cut with no word of it:\n%s", strings.Join(lines, "\n"))
				}
			})
		}
	}
}

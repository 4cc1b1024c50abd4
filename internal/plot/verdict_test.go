package plot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// squash is s as the SVG's text reads it, for comparing texts: the font's
// fallbacks applied (sanitize), without the exponent marks and spaces
// that lines and raised segments split.
func squash(s string) string {
	s = strings.ReplaceAll(sanitize(s), "^", "")
	return strings.Join(strings.Fields(s), "")
}

// figureSVG is f's SVG text (and, with DPSO_FIG_DIR set, its PNG there as
// name.png, for a reader's eyes).
func figureSVG(t *testing.T, f *Figure, name string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf, SVG); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("DPSO_FIG_DIR"); dir != "" {
		var p bytes.Buffer
		if err := f.Write(&p, PNG); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), p.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return svgText(t, buf.Bytes())
}

// TestSweepFigureCarriesTheScreensVerdict: a sweep's figure says where
// the theory is in force over its grid in the words of the explorer's
// slope table (report.SweepVerdict, computed here for the same run) —
// "not yet in force at any point …: the slope is pre-asymptotic" over n,
// ε, k and C on the hard mean instance, "in force at every point" on
// preset 10's heavy-tailed regression at n = 4·10⁵ — with the words
// where the screen has ⚠ and ✓, which the figures' font lacks; and a
// certificate above the axes that promises nothing says "(vacuous)"
// beside its arrow and in the legend.
func TestSweepFigureCarriesTheScreensVerdict(t *testing.T) {
	hard, err := spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, D: 10, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	heavy, err := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, K: 4, N: 400000, D: 1, Tail: 20, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		rs     spec.Resolved
		sweep  engine.SweepSpec
		inArgs string // the words the verdict must have
	}{
		{"n", hard, engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 8000, Points: 4}, "not yet in force at any point"},
		{"eps", hard, engine.SweepSpec{Param: spec.SweepEps, From: 1, To: 10, Points: 3}, "not yet in force at any point"},
		{"k", hard, engine.SweepSpec{Param: spec.SweepK, From: 2, To: 4, Points: 3}, "not yet in force at any point"},
		{"clip", hard, engine.SweepSpec{Param: spec.SweepClip, Points: 3}, "clipped-sgd's certificate: vacuous (above w₀) at every C"},
		{"eps in force", heavy, engine.SweepSpec{Param: spec.SweepEps, From: 1, To: 10, Points: 3}, "in force at every point"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sw, err := engine.Sweep(context.Background(), c.rs, c.sweep, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Sweep(sw, Options{})
			if err != nil {
				t.Fatal(err)
			}
			trade := c.sweep.Param == spec.SweepK || c.sweep.Param == spec.SweepClip
			want, good := report.SweepVerdict(sw, sweepSymbol(c.sweep.Param), num, slopeText, trade)
			guides := slices.ContainsFunc(f.Series(), func(s Series) bool { return s.Role == RoleRate })
			if c.sweep.Param == spec.SweepClip {
				// No shape guide over C (the bounds do not vary with it):
				// the explorer legend's words on the certificate, not a
				// sentence about a shape the figure does not draw.
				if guides {
					t.Fatal("the clip sweep draws shape guides: the case does not test what it says")
				}
				from := report.CertFrom(sw, 0, "C", num)
				want, good = sw.Solvers[0]+"'s certificate: "+from, strings.HasPrefix(from, "below")
			}
			if !strings.Contains(want, c.inArgs) {
				t.Fatalf("the run's verdict %q lacks %q: the case does not test what it says", want, c.inArgs)
			}
			if good != strings.HasPrefix(c.inArgs, "in force") || c.sweep.Param == spec.SweepK && !guides {
				t.Fatalf("verdict %q good = %v", want, good)
			}
			words := figureWords(want)
			if strings.ContainsAny(words, "⚠✓") || !strings.HasPrefix(words, c.inArgs) {
				t.Errorf("the figure's words %q keep a glyph the font lacks or lose the screen's words", words)
			}
			if v := f.Verdicts(); !slices.Contains(v, words) {
				t.Errorf("the figure's verdicts %q lack the screen's %q", v, words)
			}
			if !guides && strings.Contains(strings.Join(f.Verdicts(), "\n"), "shape") {
				t.Errorf("the verdicts %q name a shape the figure does not draw", f.Verdicts())
			}
			svg := figureSVG(t, f, "verdict-sweep-"+strings.ReplaceAll(c.name, " ", "-"))
			if !strings.Contains(squash(svg), squash(words)) {
				t.Errorf("the SVG's text lacks the verdict %q", words)
			}
			if lay := f.Layout(); lay.VerdictPx < 32 || lay.Verdict.Y0 < lay.Title.Y1-1 || lay.Verdict.Y1 > lay.Axes.Y0 {
				t.Errorf("the verdict at %g px in %+v, not between the title %+v and the axes %+v", lay.VerdictPx, lay.Verdict, lay.Title, lay.Axes)
			}
			// A certificate that promises nothing says so wherever its
			// range is printed.
			for si, solver := range sw.Solvers {
				if !strings.HasPrefix(report.CertFrom(sw, si, sweepSymbol(c.sweep.Param), num), "vacuous") {
					continue
				}
				for _, it := range f.legend {
					if strings.Contains(it.short, solver+" certified ≤") && !strings.Contains(it.short, "(vacuous)") {
						t.Errorf("legend entry %q gives a vacuous certificate's range without saying so", it.short)
					}
				}
				for _, l := range f.lineTexts {
					if strings.HasPrefix(l, solver+" certified ≤") && !strings.HasSuffix(l, "(vacuous)") {
						t.Errorf("label %q gives a vacuous certificate's range without saying so", l)
					}
				}
			}
		})
	}
}

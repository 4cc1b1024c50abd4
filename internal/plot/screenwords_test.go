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

// TestComparisonFigureSaysEachSolversPrivacy: a comparison's figure gives
// beside each solver's result what the explorer's legend gives
// (report.PrivacyTags: its ε', "not private", the accountant's name), in
// its full and short legend text and in the SVG's text.
func TestComparisonFigureSaysEachSolversPrivacy(t *testing.T) {
	c, f := comparisonFigure(t, spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, D: 3, N: 2000, Trials: 2}, "acsa", "nonprivate-schedule", "dp-sgd")
	tags, note := report.PrivacyTags(c.Reports, theory.Human.Format)
	want := map[string]string{"nonprivate-schedule": "not private", "dp-sgd": " pld", "acsa": "ε' "}
	var buf bytes.Buffer
	if err := f.Write(&buf, SVG); err != nil {
		t.Fatal(err)
	}
	svg := svgText(t, buf.Bytes())
	for i, r := range c.Reports {
		t.Run(r.Solver, func(t *testing.T) {
			if !strings.Contains(tags[i], want[r.Solver]) {
				t.Fatalf("tag %q lacks %q", tags[i], want[r.Solver])
			}
			entry := r.Solver + ": " + num(r.Excess.Mean)
			found := false
			for _, it := range f.legend {
				if strings.Contains(it.short, entry) {
					found = true
					if !strings.Contains(it.short, ", "+tags[i]) || !strings.Contains(it.text, ", "+tags[i]) {
						t.Errorf("legend entry %q / %q lacks the screen's tag %q", it.text, it.short, tags[i])
					}
				}
			}
			if !found {
				t.Errorf("no legend entry for %s", r.Solver)
			}
			if !strings.Contains(svg, sanitize(tags[i])) {
				t.Errorf("the SVG's text lacks %q", tags[i])
			}
		})
	}
	if note == "" || !strings.Contains(strings.Join(f.notes, "\n"), note) {
		t.Errorf("the notes lack the tags' δ %q: %q", note, f.notes)
	}
}

// TestSweepFigureSaysWhereTheCertificatePromises: a sweep's figure says
// in its certificate's legend entry what the explorer's legend says of
// it (report.CertFrom: "vacuous (above w₀) at every n", "below w₀ from
// n = …"), and a k sweep's figure gives its own reason for fitting no
// slope, not the clipping trade-off's.
func TestSweepFigureSaysWhereTheCertificatePromises(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, D: 10, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		sweep engine.SweepSpec
	}{
		{"n", engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 8000, Points: 4}},
		{"k", engine.SweepSpec{Param: spec.SweepK, From: 2, To: 4, Points: 3}},
		{"clip", engine.SweepSpec{Param: spec.SweepClip, Points: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sw, err := engine.Sweep(context.Background(), rs, c.sweep, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Sweep(sw, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sym := sweepSymbol(c.sweep.Param)
			from := report.CertFrom(sw, 0, sym, num)
			if !slices.ContainsFunc(f.legend, func(it legendItem) bool {
				return strings.Contains(it.text, sw.Solvers[0]+" certified") && strings.Contains(it.text, ": "+from)
			}) {
				t.Errorf("no certificate entry says %q", from)
			}
			all := strings.Join(f.notes, "\n")
			if c.sweep.Param == spec.SweepK && (strings.Contains(all, "trade-off is not a power law") || !strings.Contains(all, report.NoSlopeWhy(spec.SweepK))) {
				t.Errorf("the k sweep's notes do not give its own reason for no slope: %q", f.notes)
			}
			var buf bytes.Buffer
			if err := f.Write(&buf, PNG); err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("DPSO_FIG_DIR"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, "verdict-"+c.name+".png"), buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if lay := f.Layout(); lay.NotesDrawn == 0 || lay.LegendDrawn < lay.LegendEntries {
				t.Errorf("notes drawn %d of %d, legend entries %d of %d: an entry is cut", lay.NotesDrawn, lay.NotesTotal, lay.LegendDrawn, lay.LegendEntries)
			}
		})
	}
}

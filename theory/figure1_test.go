package theory

import (
	"math"
	"strings"
	"testing"
)

// TestFigure1RatesMatchTheorems holds each displayed rate against the bound
// it specializes (evaluated at k = 2, r̃₂ = r̃_k = √d): the ratio must be
// exactly 1 where the specialization drops nothing, and lie in the interval
// spanned by the dropped constants and logarithms otherwise (termwise
// ratios; see each case).
func TestFigure1RatesMatchTheorems(t *testing.T) {
	fig := Figure1()
	if len(fig.Rows) != 3 {
		t.Fatalf("%d rows", len(fig.Rows))
	}
	type band struct{ lo, hi float64 }
	for _, n := range []float64{100, 1e4, 1e7} {
		for _, d := range []float64{1, 50, 1e3} {
			for _, eps := range []float64{0.3, 1, 5} {
				if math.Sqrt(2*d) > eps*n { // keep the lower bounds' min{1, ·} off 1
					continue
				}
				s := SummaryPoint{N: n, Dim: d, Eps: eps, Kappa: 4, KappaF: 9, Mu: 0.5}
				ln := math.Log(n)
				convex := Figure1Params(n, d, eps) // β = D = 1
				sc := convex
				sc.Mu, sc.Beta, sc.KappaF = s.Mu, s.Kappa*s.Mu, s.KappaF
				want := map[string]band{
					PriorKLZ21Convex: {1, 1},                 // √d·√(d/n) = d/√n
					SmoothConvexACSA: {1, 1},                 // the remark's expression
					LowerConvex:      {1, math.Pow(2, 0.25)}, // (√2·a)^(1/2) vs a^(1/2)
					PriorKLZ21SC:     {1, 1},                 // no logs in eq:iuj
					SmoothSCSGD:      {1, math.Sqrt(ln)},     // √(ln n) in the privacy term
					LowerSC:          {1, math.Sqrt2},        // √d/(√ρn) = √2·√d/(εn)
					PPLProxSGD:       {ln, ln},               // ln n in both terms
				}
				for _, r := range fig.Rows {
					for _, c := range []SummaryCell{r.Prior, r.Ours, r.Lower} {
						if c.BoundID == "" {
							if c.Value != nil || c.Rate != "—" {
								t.Errorf("%s: a cell without a bound has a rate", r.Title)
							}
							continue
						}
						p := sc
						if r.Class == SmoothConvex {
							p = convex
						}
						b := mustEval(t, c.BoundID, p)
						ratio := b.Value / c.Value(s)
						w := want[c.BoundID]
						if ratio < w.lo*(1-1e-12) || ratio > w.hi*(1+1e-12) {
							t.Errorf("%s / %s at n=%g d=%g ε=%g: bound/rate = %.15g, want in [%g, %g]",
								r.Title, c.BoundID, n, d, eps, ratio, w.lo, w.hi)
						}
					}
				}
			}
		}
	}
}

func TestFigure1Content(t *testing.T) {
	fig := Figure1()
	wantClasses := []Class{SmoothConvex, SmoothSC, PPL}
	for i, r := range fig.Rows {
		if r.Class != wantClasses[i] || r.Note == "" || r.Ours.Source == "" || r.Lower.Source == "" || r.Prior.Source == "" {
			t.Errorf("row %d incomplete: %+v", i, r)
		}
		if r.Ours.BoundID != ForClass(r.Class)[0] || r.Lower.BoundID != ForClass(r.Class)[1] {
			t.Errorf("row %s: ours %s, lower %s; ForClass %v", r.Title, r.Ours.BoundID, r.Lower.BoundID, ForClass(r.Class))
		}
	}
	md := fig.Markdown()
	for _, s := range []string{"| Function class | Previous upper bound | Our upper bound | Lower bound |",
		"d/√n (ε ≈ 1)", "min{d^(2/3)/(εn)^(4/9)", "(κ·d/μ)·(1/n + √d/(εn))", "k = 2", fig.Provenance} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q", s)
		}
	}
	// The caption cites the non-smooth theorems as the PDF numbers them
	// (paperNumbers, from the paper's own LaTeX), not by their labels.
	if !strings.Contains(md, "See Theorem 12 and Theorem 18 for non-smooth upper bounds.") || strings.Contains(md, "[thm:") {
		t.Errorf("Markdown's caption does not cite the PDF's theorem numbers:\n%s", strings.SplitN(md, "\n", 2)[0])
	}
	// A fresh value each call: editing one does not change the next.
	fig.Rows[0].Title = "changed"
	if Figure1().Rows[0].Title == "changed" {
		t.Error("Figure1 shares its rows between calls")
	}
}

package theory_test

import (
	"fmt"

	"dpso/theory"
)

// ExampleEvaluate evaluates the paper's upper bound for smooth convex
// losses (Theorem "thm: convex ACSA one pass", with every hidden constant
// set to 1: a rate, not a certificate) at n = 10⁴ samples in d = 10, zCDP
// ε = 1, k = 2, a domain of diameter D = 2 and moments r̃₂ = r̃_k = 3,
// β = 1: its value, its terms, the one that dominates, the theorem's
// conditions at these parameters, and the local rate d log(bound)/d log n.
// Inputs not given stay NaN ("not given"); a bound that needs one of them
// returns a *MissingError naming it.
func ExampleEvaluate() {
	p := theory.NewParams()
	p.N, p.Dim, p.Eps, p.K, p.Diam, p.R2, p.Rk, p.Beta = 1e4, 10, 1, 2, 2, 3, 3, 1
	b, err := theory.Evaluate(theory.SmoothConvexACSA, p)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s = %.4g (%s)\n", b.ID, b.Value, theory.Cite(b.Source))
	for _, t := range b.Terms {
		fmt.Printf("  %s = %.4g\n", t.Name, t.Value)
	}
	fmt.Println("dominant:", b.Dominant)
	for _, c := range b.Conditions {
		fmt.Printf("  holds %v: %s\n", c.Holds, c.Text)
	}
	fmt.Printf("rate in n: %.3f\n", b.RateN)
	p.Beta = theory.NewParams().Beta
	_, err = theory.Evaluate(theory.SmoothConvexACSA, p)
	fmt.Println(err)
	// Output:
	// smooth-convex-acsa = 0.3263 (Lowy & Razaviyayn, Theorem 9 (complete version in Appendix F.1), Algorithm 2)
	//   r̃₂·D/√n (statistical) = 0.06
	//   r̃_k·D·a^((k−1)/k) (privacy) = 0.1067
	//   r̃_k·D·min{…} (smoothness) = 0.1596
	// dominant: r̃_k·D·min{…} (smoothness)
	//   holds true: n ≥ T = ⌈min{(βD/r̃_k)^(2k/(5k−1))·(εn/√d)^((2k−2)/(5k−1)), √(βD/r̃_k)·n^(1/4)}⌉ (complete version; T = 6)
	// rate in n: -0.473
	// smooth-convex-acsa needs beta (β)
}

package accountant

import (
	"context"
	"math"
	"testing"
)

// TestAfterZCDPAgainstGaussianComposition: a ρ-zCDP Gaussian release (μ₀
// = √(2ρ)) followed by T full-batch (q = 1) Gaussian steps at noise
// multiplier z under add/remove is exactly μ-GDP with μ² = 2ρ + T/z² (Dong,
// Roth & Su 2022, Corollary 3.3), whose exact ε' at δ solves
// Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ (Balle & Wang 2018, Theorem 8).
// The golden values are scipy's (brentq, xtol 10⁻¹⁴, /usr/bin/python3):
//
//	eps(mu) = brentq(lambda e: norm.cdf(-e/mu+mu/2) - exp(e)*norm.cdf(-e/mu-mu/2) - 1e-5, 0, 100)
//
// and, for the two releases accounted apart at δ/2 each and added (basic
// composition, what dpso stated before composing them), eps(√(2ρ), δ/2) +
// eps(√T/z, δ/2). Any ρ-zCDP release may come first, so the bound cannot be
// the exact Gaussian composition; it must never be below it (soundness),
// and it must be below basic composition (what composing buys).
func TestAfterZCDPAgainstGaussianComposition(t *testing.T) {
	const delta = 1e-5
	cases := []struct {
		name         string
		rho, z       float64
		steps        int
		exact, basic float64
	}{
		{"rho 0.05, z 4, T 9", 0.05, 4, 9, 3.4544257849127096, 4.5193525198880815},
		{"rho 0.05, z 2, T 1", 0.05, 2, 1, 2.4064991608783, 3.326761763328283},
		{"rho 0.2, z 3, T 4", 0.2, 3, 4, 3.970164307051908, 5.557643262243795},
	}
	for _, c := range cases {
		for _, k := range []Kind{PLD, RDP} {
			t.Run(c.name+", "+k.String(), func(t *testing.T) {
				m := Mechanism{Sigma: c.z, Q: 1, Steps: c.steps, Adjacency: AddRemove}
				e, err := AfterZCDPMechanismEpsilon(k, m, c.rho, delta)
				if err != nil {
					t.Fatal(err)
				}
				if !(e >= c.exact) || !(e < c.basic) {
					t.Errorf("ε' = %v; want in [%v (exact Gaussian composition), %v (basic composition))", e, c.exact, c.basic)
				}
			})
		}
	}
	t.Run("no prior release is the steps alone", func(t *testing.T) {
		// μ = √9/4 = 0.75: eps(0.75) = 3.14679799465868 (scipy, as above);
		// the profile's grid is 2⁻¹⁰ wide in ε and the PLD's 10⁻⁴ in loss.
		m := Mechanism{Sigma: 4, Q: 1, Steps: 9, Adjacency: AddRemove}
		e, err := AfterZCDPMechanismEpsilon(PLD, m, 0, delta)
		if err != nil {
			t.Fatal(err)
		}
		if want := 3.14679799465868; !(e >= want) || e > want+2e-3 {
			t.Errorf("ε' = %v; want %v within the grids' 2·10⁻³ above", e, want)
		}
	})
}

// TestCalibrateAfterZCDPMeetsTheTarget: the σ returned meets the target
// with the prior release composed, σ/(1 + 2·CalibrateTol) misses it, and it
// is above the σ the steps alone would need (the prior release only adds
// loss) — dp-sgd's calibration on the user's rows after the private
// constants (ρ₀ = 0.05 of ρ = 0.5, whose exact ε' at 10⁻⁵ is
// 4.377178095681225 by the scipy solve above at μ = 1).
func TestCalibrateAfterZCDPMeetsTheTarget(t *testing.T) {
	const delta, target, rho0 = 1e-5, 4.377178095681225, 0.05
	for _, k := range []Kind{PLD, RDP} {
		t.Run(k.String(), func(t *testing.T) {
			q, steps := 256.0/430, 9
			s, err := CalibrateAfterZCDP(context.Background(), k, ReplaceOne, q, steps, rho0, target, delta)
			if err != nil {
				t.Fatal(err)
			}
			at := func(s float64) float64 {
				e, err := AfterZCDPMechanismEpsilon(k, Mechanism{Sigma: s, Q: q, Steps: steps, Adjacency: ReplaceOne}, rho0, delta)
				if err != nil {
					t.Fatal(err)
				}
				return e
			}
			if e := at(s); !(e <= target) {
				t.Errorf("σ = %v: ε' = %v above the target %v", s, e, target)
			}
			if e := at(s / (1 + 2*CalibrateTol)); !(e > target) {
				t.Errorf("σ/(1 + 2·tol) = %v still meets the target (ε' = %v): not the smallest", s/(1+2*CalibrateTol), e)
			}
			alone, err := CalibrateContext(context.Background(), k, ReplaceOne, q, steps, target, delta)
			if err != nil {
				t.Fatal(err)
			}
			if !(s > alone) {
				t.Errorf("σ = %v with the prior release, %v without: want more noise with it", s, alone)
			}
		})
	}
	t.Run("refuses a negative prior", func(t *testing.T) {
		if _, err := CalibrateAfterZCDP(context.Background(), PLD, ReplaceOne, 0.5, 9, -1, target, delta); err == nil {
			t.Error("ρ = −1 accepted")
		}
		if _, err := AfterZCDPEpsilon(GaussianProfile(1), math.NaN(), delta); err == nil {
			t.Error("ρ = NaN accepted")
		}
	})
}

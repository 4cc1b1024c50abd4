package accountant

import (
	"context"
	"math"
	"testing"
)

// TestSelectionEpsilonGolden: SelectionEpsilon and SelectionShift against
// scripts/privacy/selection_golden.py, which computes the same bound by
// another route (the base profile by quadrature, φ' by its series, ε₂ by
// brute force over 20001 values of G, the zCDP release's term as a
// continuous integral). Go's discretisations only raise the bound, so
// golden ≤ Go ≤ golden + 2·10⁻³.
func TestSelectionEpsilonGolden(t *testing.T) {
	for _, c := range []struct {
		name              string
		r                 Repetitions
		z, rhoF, delta    float64
		mean, eps2, epsPr float64
	}{
		{"geometric mean 2, z 1.2", Repetitions{Shape: 1, Mean: 2}, 1.2, 0, 1e-5, 2, 0.447082934, 4.129172666},
		{"geometric mean 10, z 1.7", Repetitions{Shape: 1, Mean: 10}, 1.7, 0, 1e-5, 10, 1.045482875, 3.741719557},
		{"tnb eta 0.5 mean 5, z 1.5", Repetitions{Shape: 0.5, Mean: 5}, 1.5, 0, 1e-6, 5, 0.767552235, 4.086253293},
		{"poisson mean 4, z 2", Repetitions{Shape: math.Inf(1), Mean: 4}, 2, 0, 1e-5, 4, 0.789650605, 2.943252675},
		{"geometric mean 10, z 1.7, rho_f 0.01", Repetitions{Shape: 1, Mean: 10}, 1.7, 0.01, 1e-5, 10, 1.045482875, 3.966179151},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := GaussianProfile(c.z)
			if m := SelectionMean(c.r); math.Abs(m-c.mean) > 1e-9*c.mean {
				t.Errorf("E[K] = %.12g, golden %.12g", m, c.mean)
			}
			e2, _, err := SelectionShift(c.r, q)
			if err != nil {
				t.Fatal(err)
			}
			if !(e2 >= c.eps2-1e-6 && e2 <= c.eps2+2e-3) {
				t.Errorf("ε₂ = %.9f, golden %.9f", e2, c.eps2)
			}
			e, err := SelectionEpsilon(q, c.r, c.rhoF, c.delta)
			if err != nil {
				t.Fatal(err)
			}
			if !(e >= c.epsPr-1e-6 && e <= c.epsPr+2e-3) {
				t.Errorf("ε' = %.9f, golden %.9f", e, c.epsPr)
			}
			t.Logf("ε₂ %.6f (golden %+.1e), ε' %.6f (golden %+.1e)", e2, e2-c.eps2, e, e-c.epsPr)
		})
	}
}

// TestSelectionSubsampledGolden: a base mechanism that is not Gaussian —
// one Poisson-subsampled Gaussian step (σ = 1, q = 0.3, replace-one), its
// profile read off the PLD — against selection_golden.py, whose profile is
// the hockey-stick integral of the two mixtures by quadrature; K geometric
// with mean 10, δ = 10⁻⁵. The PLD's pessimistic grid only raises the Go
// value.
func TestSelectionSubsampledGolden(t *testing.T) {
	q, err := SubsampledGaussianProfile(Mechanism{Sigma: 1, Q: 0.3, Steps: 1, Adjacency: ReplaceOne}, PLDOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Repetitions{Shape: 1, Mean: 10}
	const goldenEps2, goldenEps = 0.974257033, 4.775121817
	e2, _, err := SelectionShift(r, q)
	if err != nil {
		t.Fatal(err)
	}
	e, err := SelectionEpsilon(q, r, 0, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if !(e2 >= goldenEps2-1e-6 && e2 <= goldenEps2+2e-3) || !(e >= goldenEps-1e-6 && e <= goldenEps+2e-3) {
		t.Errorf("ε₂ = %.9f (golden %.9f), ε' = %.9f (golden %.9f)", e2, goldenEps2, e, goldenEps)
	}
	t.Logf("ε₂ %.6f (golden %+.1e), ε' %.6f (golden %+.1e)", e2, e2-goldenEps2, e, e-goldenEps)
}

// TestSelectionPureDP: for a pure ε-DP base mechanism (randomized
// response's profile, δ(t) = (e^ε − e^t)₊/(1 + e^ε)) the theorem gives at
// most (2 + η)ε for the truncated negative binomial — Liu & Talwar's 3ε
// for geometric K (STOC 2019, Theorem 3.4) and Papernot & Steinke's
// (2 + η)ε (ICLR 2022, Theorem 2 with ε-DP Q).
func TestSelectionPureDP(t *testing.T) {
	for _, eps := range []float64{0.1, 0.5, 1, 2} {
		q := newProfile()
		for k := range q.Delta {
			q.Delta[k] = math.Max(0, math.Exp(eps)-math.Exp(q.eps(k))) / (1 + math.Exp(eps))
		}
		for _, r := range []Repetitions{{Shape: 1, Mean: 10}, {Shape: 0, Mean: 10}, {Shape: 0.5, Mean: 3}, {Shape: 2, Mean: 30}} {
			got, err := SelectionEpsilon(q, r, 0, 1e-12)
			if err != nil {
				t.Fatal(err)
			}
			if want := (2 + r.Shape) * eps; !(got <= want+2*profileStep) {
				t.Errorf("ε = %g, η = %g, E[K] = %g: ε' = %g, above (2 + η)ε = %g", eps, r.Shape, r.Mean, got, want)
			}
		}
	}
}

// TestSubsampledGaussianProfile: the tabulated profile agrees with the PLD
// accountant's ε'(δ): at or above PLDEpsilon the profile is at most δ, a
// grid step below it above δ.
func TestSubsampledGaussianProfile(t *testing.T) {
	for _, m := range []Mechanism{
		{Sigma: 1, Q: 0.02, Steps: 100, Adjacency: ReplaceOne},
		{Sigma: 0.8, Q: 0.1, Steps: 20, Adjacency: AddRemove},
		{Sigma: 2, Q: 1, Steps: 1, Adjacency: ReplaceOne},
	} {
		p, err := SubsampledGaussianProfile(m, PLDOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, delta := range []float64{1e-3, 1e-5, 1e-7} {
			e, err := PLDEpsilon(m, delta, PLDOptions{})
			if err != nil {
				t.Fatal(err)
			}
			k := int(math.Ceil((e - p.Lo) / p.Step))
			if v := p.Delta[k]; v > delta*(1+1e-9) {
				t.Errorf("%+v: δ(%g) = %g above δ = %g at PLD's ε' = %g", m, p.eps(k), v, delta, e)
			}
			if v := p.At(e - 2*p.Step); e > 2*p.Step && !(v > delta*(1-1e-9)) {
				t.Errorf("%+v: δ(%g) = %g not above δ = %g below PLD's ε' = %g", m, e-2*p.Step, v, delta, e)
			}
		}
	}
}

// TestCalibrateSelection: the common factor meets the target, and a
// factor 0.2% smaller misses it (the answer is the smallest, to
// CalibrateTol).
func TestCalibrateSelection(t *testing.T) {
	t.Parallel()
	ms := []Mechanism{{Sigma: 2.4, Q: 0.05, Steps: 40, Adjacency: ReplaceOne}, {Sigma: 3.2, Q: 0.2, Steps: 10, Adjacency: ReplaceOne}}
	r := Repetitions{Shape: 1, Mean: 5}
	n, ok, err := CalibrateSelection(context.Background(), ms, 3, r, 0.01, 4, 1e-5, PLDOptions{})
	if err != nil || !ok {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	if !(n.Eps <= 4) || !(n.Factor > 0 && n.Factor <= 1) {
		t.Fatalf("%+v", n)
	}
	at := func(f float64) float64 {
		var ps []Profile
		for _, m := range ms {
			m.Sigma *= f
			p, err := SubsampledGaussianProfile(m, PLDOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		e, err := SelectionEpsilon(MaxProfile(append(ps, GaussianProfile(3*f))...), r, 0.01, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if e := at(n.Factor / (1 + 2*CalibrateTol)); e <= 4 {
		t.Errorf("factor %g: ε' = %g; a smaller factor %g also meets 4 (%g)", n.Factor, n.Eps, n.Factor/(1+2*CalibrateTol), e)
	}
	t.Logf("factor %.6f, ε' = %.6f, ε₂ = %.6f", n.Factor, n.Eps, n.Shift)
}

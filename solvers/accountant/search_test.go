package accountant

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
)

// goldenSearchOrders are testdata/search_golden.py's ORDERS.
var goldenSearchOrders = []float64{1.5, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64}

// TestSearchEpsilonGolden: a search whose candidates run either of two
// dp-sgd mechanisms (q = 0.05, T = 40, z = 1.22; q = 0.25, T = 8,
// z = 2.5; replace-one) or score with a Gaussian mechanism (z = 2.1),
// geometric K of mean 10, the other releases 0.025λ, at δ = 10⁻⁵, against
// testdata/search_golden.py (mpmath quadrature of each curve, the
// pointwise maximum, Theorem 2, the conversion): 5.32805872221, above
// each mechanism's search alone (5.23592639475 and 5.14278384286), since
// the two curves cross.
func TestSearchEpsilonGolden(t *testing.T) {
	o := goldenSearchOrders
	fixed := GaussianCurve(1/math.Sqrt(0.05), o)
	a := ComposedRDP(ReplaceOne, 0.05, 1.22, 40, o)
	b := ComposedRDP(ReplaceOne, 0.25, 2.5, 8, o)
	score := GaussianCurve(2.1, o)
	none := GaussianCurve(1e9, o)
	for _, c := range []struct {
		name string
		cand [][]float64
		want float64
	}{
		{"both", [][]float64{a, b, score}, 5.32805872221},
		{"first alone", [][]float64{a, none}, 5.23592639475},
		{"second alone", [][]float64{b, none}, 5.14278384286},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, got, _, err := SearchEpsilon(o, c.cand, Repetitions{1, 10}, fixed, 1e-5)
			if err != nil {
				t.Fatal(err)
			}
			// The curves are upper bounds within 4·10⁻¹²·T/(α − 1) of the
			// quadrature's (TestReplaceOneRDPGolden): far below 10⁻⁸.
			if relErr(got, c.want) > 1e-8 {
				t.Errorf("ε' = %.12g, want %.12g", got, c.want)
			}
		})
	}
}

// TestCalibrateSearchIsTheSmallest: CalibrateSearch's answer meets the
// target; each mechanism's Alone meets it in a search of that mechanism
// alone on the coarse orders and Alone/(1 + tol) does not; the common
// Scale meets it for all together on the full orders and Scale/(1 + tol)
// does not, and Z = Scale·Alone.
func TestCalibrateSearchIsTheSmallest(t *testing.T) {
	const target, delta = 4.37718, 1e-5
	reps := Repetitions{1, 10}
	curves := []SearchCurve{SubsampledGaussianCurve(ReplaceOne, 0.05, 40), SubsampledGaussianCurve(ReplaceOne, 0.25, 8), GaussianCurve}
	fixed := func(o []float64) []float64 { return GaussianCurve(1/math.Sqrt(0.05), o) }
	n, err := CalibrateSearch(context.Background(), curves, DefaultOrders(), reps, fixed, target, delta)
	if err != nil {
		t.Fatal(err)
	}
	if !(n.Eps <= target) {
		t.Fatalf("ε' = %g (target %g), scale %g", n.Eps, target, n.Scale)
	}
	epsOn := func(os []float64, zs []float64, idx ...int) float64 {
		var cand [][]float64
		for k, i := range idx {
			cand = append(cand, curves[i](zs[k], os))
		}
		_, e, _, err := SearchEpsilon(os, cand, reps, fixed(os), delta)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	eps := func(zs []float64, idx ...int) float64 { return epsOn(searchOrders, zs, idx...) }
	for i, z := range n.Alone {
		if e := eps([]float64{z}, i); e > target {
			t.Errorf("mechanism %d alone at z = %g: ε' = %g misses", i, z, e)
		}
		if e := eps([]float64{z / (1 + CalibrateTol)}, i); e <= target {
			t.Errorf("mechanism %d alone at z/(1 + tol) = %g: ε' = %g meets: z is not the smallest", i, z/(1+CalibrateTol), e)
		}
		if n.Z[i] != n.Scale*z {
			t.Errorf("Z[%d] = %g, want Scale·Alone = %g", i, n.Z[i], n.Scale*z)
		}
	}
	lower := make([]float64, len(curves))
	for i, z := range n.Alone {
		lower[i] = z * n.Scale / (1 + CalibrateTol)
	}
	if e := epsOn(DefaultOrders(), lower, 0, 1, 2); e <= target {
		t.Errorf("Scale/(1 + tol) = %g meets (ε' = %g): the scale is not the smallest", n.Scale/(1+CalibrateTol), e)
	}
}

// TestCalibrateSearchGaussianIsLargestRho: a search of one Gaussian
// mechanism is the zCDP search: its ρ = 1/(2z²) is the largest ρ of
// testdata/ps22_golden.py (0.128642865 at η = 1, mean 10, on the default
// orders) to the calibration's precision (z to relative CalibrateTol, so ρ
// to 2·CalibrateTol), never above it.
func TestCalibrateSearchGaussianIsLargestRho(t *testing.T) {
	none := func(o []float64) []float64 { return make([]float64, len(o)) }
	n, err := CalibrateSearch(context.Background(), []SearchCurve{GaussianCurve}, DefaultOrders(), Repetitions{1, 10}, none, 4.37718, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	rho := 1 / (2 * n.Z[0] * n.Z[0])
	if rho > 0.128642865*(1+1e-8) || rho < (1-2*CalibrateTol)*0.128642865 {
		t.Errorf("ρ = %.9g, want in [1 − 2·10⁻⁴, 1]·0.128642865", rho)
	}
}

// TestCalibrateSearchCancelled: a cancelled context ends the calibration
// with its error.
func TestCalibrateSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	none := func(o []float64) []float64 { return make([]float64, len(o)) }
	_, err := CalibrateSearch(ctx, []SearchCurve{SubsampledGaussianCurve(ReplaceOne, 0.05, 40)}, DefaultOrders(), Repetitions{1, 10}, none, 4.37718, 1e-5)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestSmallestMeeting: on ε'(x) = c/x the answer is c/target to within the
// tolerance, meets the target, and x/(1 + tol) does not; a target missed
// at the top fails with ErrNoSigma; ε' = 0 below the answer's bracket
// (a constant 0) ends the halving near its floor, 10⁻⁶ (within a factor e).
func TestSmallestMeeting(t *testing.T) {
	for _, c := range []float64{1e-3, 0.37, 1, 55, 8e4} {
		f := func(x float64) (float64, error) { return c / x, nil }
		x, err := smallestMeeting(f, 2, 1, math.E, MaxSigma)
		if err != nil {
			t.Fatal(err)
		}
		if want := c / 2; x < want || x > want*(1+CalibrateTol) {
			t.Errorf("c = %g: x = %.10g, want in [%g, %g]", c, x, want, want*(1+CalibrateTol))
		}
	}
	if _, err := smallestMeeting(func(x float64) (float64, error) { return 1e7 / x, nil }, 1, 1, math.E, MaxSigma); !errors.Is(err, ErrNoSigma) {
		t.Errorf("unreachable: err = %v, want ErrNoSigma", err)
	}
	if x, err := smallestMeeting(func(float64) (float64, error) { return 0, nil }, 1, 1, math.E, MaxSigma); err != nil || x > math.E*1e-6 {
		t.Errorf("ε' ≡ 0: x = %g, %v; want the bottom", x, err)
	}
}

// TestCalibrateSearchReadsItsAnswer: the answer's curve (RDP, Eps, Order
// at Z) is the one the last bisection computed at that factor: each
// mechanism's curve is computed at its Z on the full orders once, and the
// answer is the search recomputed here at Z.
func TestCalibrateSearchReadsItsAnswer(t *testing.T) {
	const target, delta = 4.37718, 1e-5
	reps := Repetitions{1, 10}
	var mu sync.Mutex
	calls := map[[2]float64]int{} // (mechanism, z) on the full orders
	counted := func(i int, c SearchCurve) SearchCurve {
		return func(z float64, os []float64) []float64 {
			if len(os) == len(DefaultOrders()) {
				mu.Lock()
				calls[[2]float64{float64(i), z}]++
				mu.Unlock()
			}
			return c(z, os)
		}
	}
	base := []SearchCurve{SubsampledGaussianCurve(ReplaceOne, 0.05, 40), GaussianCurve}
	curves := []SearchCurve{counted(0, base[0]), counted(1, base[1])}
	none := func(o []float64) []float64 { return make([]float64, len(o)) }
	n, err := CalibrateSearch(context.Background(), curves, DefaultOrders(), reps, none, target, delta)
	if err != nil {
		t.Fatal(err)
	}
	for i, z := range n.Z {
		if c := calls[[2]float64{float64(i), z}]; c != 1 {
			t.Errorf("mechanism %d: its curve at Z = %g computed %d times on the full orders, want 1", i, z, c)
		}
	}
	cand := [][]float64{base[0](n.Z[0], DefaultOrders()), base[1](n.Z[1], DefaultOrders())}
	rdp, eps, order, err := SearchEpsilon(DefaultOrders(), cand, reps, none(DefaultOrders()), delta)
	if err != nil || eps != n.Eps || order != n.Order || !slices.Equal(rdp, n.RDP) {
		t.Errorf("answer ε' = %g at order %g, the search at Z: %g at %g (%v)", n.Eps, n.Order, eps, order, err)
	}
}

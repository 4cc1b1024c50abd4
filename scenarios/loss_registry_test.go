package scenarios

import (
	"math"
	"slices"
	"testing"
)

// TestLossRegistryComplete walks scoreLosses, the one list a new loss
// joins, and holds each loss's formulas to one another and to first
// principles, so that a loss is its file and its line: its name parses
// and is listed once; its slope is the derivative of its value (central
// differences away from kinks) and its curvature bounds hold there; the
// block forms are the scalar ones to the bit; a smooth loss smooths to
// itself, a non-smooth one stays within [ℓ, ℓ + gap·τ] with the
// surrogate's slope its derivative; supSlope and supValue bound |ℓ'| and
// ℓ on [−t, t] and supSlope is attained there; the clipped potential's
// slope is its derivative and ℓ' clamped to ±C/‖a‖ (weighted by
// min(1, C/‖a‖) for a non-smooth loss); a unit slope is 1 at s = 0; a
// smooth loss bounds ‖a‖² by its eigenBound of G, row by row.
// (TestGradMatchesFiniteDifferences and its neighbours check the same
// losses through glm in w.)
func TestLossRegistryComplete(t *testing.T) {
	r := testRand(11)
	labels := func(l scoreLoss) []float64 {
		if l.classification() {
			return []float64{-1, 1}
		}
		return []float64{-2.5, -0.3, 0, 0.7, 3}
	}
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
	var names []Loss
	for i, l := range scoreLosses {
		name := l.Name()
		t.Run(string(name), func(t *testing.T) {
			if name == "" || slices.Contains(names, name) {
				t.Fatalf("loss %d: name %q empty or listed twice", i, name)
			}
			names = append(names, name)
			if got, err := ParseLoss(string(name)); err != nil || got != name || Losses[i] != name {
				t.Errorf("ParseLoss(%q) = %q, %v; Losses[%d] = %q", name, got, err, i, Losses[i])
			}
			gap, curv, minCurv := l.smoothGap(), l.curvature(), l.minCurvature()
			if _, ok := l.(eigenBounder); ok != name.Smooth() {
				t.Errorf("an eigenBounder: %v, smooth: %v (a private β, which every smooth loss gets, falls back to its eigenBound)", ok, name.Smooth())
			}
			if smooth := !math.IsInf(curv, 1); smooth != (gap == 0) || smooth != name.Smooth() || !(minCurv >= 0 && minCurv <= curv) {
				t.Errorf("smoothGap %v, curvature %v, minCurvature %v: a loss is smooth (finite curvature) exactly when its gap is 0", gap, curv, minCurv)
			}
			const h = 1e-5
			for _, y := range labels(l) {
				// Scores, with the block forms checked on all of them at once.
				var ss, xs []float64
				for range 200 {
					s := 4 * r.NormFloat64()
					ss = append(ss, s)
					xs = append(xs, 0.5, y) // sd = 2, d = 1: the label at index 1
				}
				n := len(ss)
				c, c2 := make([]float64, n), make([]float64, n)
				l.slopes(c, ss, xs, 2, 1)
				acc := l.smoothedRows(c2, ss, xs, 2, 1, 0.3, 1.7, 0.25)
				want := 0.25
				for i, s := range ss {
					if c[i] != l.slope(s, y) {
						t.Fatalf("y = %v s = %v: slopes %v, slope %v", y, s, c[i], l.slope(s, y))
					}
					v, cc := l.smoothed(s, y, 0.3)
					if want += v; c2[i] != 1.7*cc {
						t.Fatalf("y = %v s = %v: smoothedRows' coefficient %v, 1.7·smoothed's slope %v", y, s, c2[i], 1.7*cc)
					}
					f0, fp, fm := l.value(s, y), l.value(s+h, y), l.value(s-h, y)
					if second := (fp - 2*f0 + fm) / (h * h); math.Abs(second) < 1e3 { // away from a kink
						if fd := (fp - fm) / (2 * h); !near(fd, l.slope(s, y), 1e-6) {
							t.Errorf("y = %v s = %v: slope %v, finite difference %v", y, s, l.slope(s, y), fd)
						}
						if second > curv+1e-3 || second < minCurv-1e-3 {
							t.Errorf("y = %v s = %v: ℓ'' ≈ %v outside [minCurvature, curvature] = [%v, %v]", y, s, second, minCurv, curv)
						}
					}
					for _, tau := range []float64{1, 1e-3} {
						v, cs := l.smoothed(s, y, tau)
						if gap == 0 && (v != f0 || cs != l.slope(s, y)) {
							t.Fatalf("smooth loss, y = %v s = %v: smoothed (%v, %v), want (%v, %v) exactly", y, s, v, cs, f0, l.slope(s, y))
						}
						if v < f0-1e-12 || v > f0+gap*tau+1e-12*math.Max(1, f0) {
							t.Errorf("y = %v s = %v τ = %v: ℓ_τ = %v outside [ℓ, ℓ + %vτ] = [%v, %v]", y, s, tau, v, gap, f0, f0+gap*tau)
						}
						vp, _ := l.smoothed(s+h*tau, y, tau)
						vm, _ := l.smoothed(s-h*tau, y, tau)
						if fd := (vp - vm) / (2 * h * tau); !near(fd, cs, 1e-5) {
							t.Errorf("y = %v s = %v τ = %v: smoothed slope %v, finite difference %v", y, s, tau, cs, fd)
						}
					}
					// The clipped potential at ‖a‖ = 2, C = 1 (|ℓ'| clamped to ½).
					const na, cl, tau = 2.0, 1.0, 1e-9
					v, sl := l.clipped(s, y, cl, na, tau)
					vp, _ := l.clipped(s+h, y, cl, na, tau)
					vm, _ := l.clipped(s-h, y, cl, na, tau)
					if fd := (vp - vm) / (2 * h); math.Abs((vp-2*v+vm)/(h*h)) < 1e3 && !near(fd, sl, 1e-5) {
						t.Errorf("y = %v s = %v: clipped slope %v, finite difference %v", y, s, sl, fd)
					}
					want := math.Max(-cl/na, math.Min(cl/na, l.slope(s, y)))
					if gap != 0 {
						want = l.slope(s, y) * cl / na
					}
					if math.Abs((fp-2*f0+fm)/(h*h)) < 1e3 && !near(sl, want, 1e-6) {
						t.Errorf("y = %v s = %v: clipped slope %v, want %v", y, s, sl, want)
					}
				}
				if acc != want {
					t.Errorf("y = %v: smoothedRows' sum %v, the smoothed values summed in order %v", y, acc, want)
				}
				// The suprema over [−t, t], on a grid with its ends and 0.
				for _, tt := range []float64{0.1, 1, 7} {
					grid := []float64{-tt, 0, tt}
					for j := range 401 {
						grid = append(grid, -tt+2*tt*float64(j)/400)
					}
					maxSlope := 0.0
					for _, s := range grid {
						maxSlope = math.Max(maxSlope, math.Abs(l.slope(s, y)))
						if v := l.value(s, y); v > l.supValue(tt, math.Abs(y))*(1+1e-12) {
							t.Errorf("y = %v t = %v: ℓ(%v) = %v exceeds supValue %v", y, tt, s, v, l.supValue(tt, math.Abs(y)))
						}
					}
					if sup := l.supSlope(tt, y); maxSlope > sup*(1+1e-12) || maxSlope < sup*(1-1e-12) {
						t.Errorf("y = %v t = %v: max |ℓ'| on the grid %v, supSlope %v (not attained or exceeded)", y, tt, maxSlope, sup)
					}
				}
				if l.unitSlope() != "" && y != 0 && math.Abs(l.slope(0, y)) != 1 {
					t.Errorf("unit slope claimed, but |ℓ'(0, %v)| = %v", y, math.Abs(l.slope(0, y)))
				}
				// A private β's fallback: ‖a‖² ≤ eigenBound(G, R) row by row,
				// G = ‖a‖·supSlope(R‖a‖, y) (linear or quadratic in G, so
				// in expectation E‖a‖² ≤ eigenBound(r̃₂, R) by Jensen).
				if eb, ok := l.(eigenBounder); ok {
					for _, radius := range []float64{0.1, 1, 5} {
						for _, na := range []float64{1e-3, 0.2, 1, 4, 30} {
							if g := na * l.supSlope(radius*na, y); na*na > eb.eigenBound(g, radius)*(1+1e-12) {
								t.Errorf("y = %v R = %v ‖a‖ = %v: ‖a‖² = %v above %s = %v at G = %v", y, radius, na, na*na, eb.eigenBoundFormula(), eb.eigenBound(g, radius), g)
							}
						}
					}
				}
			}
		})
	}
}

package scenarios

// The sup moments of the classification, absolute-loss and lower-bound
// scenarios (supmoment.go, supbuild.go).

import (
	"context"
	"fmt"
	"math"

	"dpso/scenarios/dist"
)

// ---- classification and absolute loss ----

// glmSup: for a loss of unit slope at s = 0 (scoreLoss.unitSlope: the
// hinge and the absolute loss) without ℓ2 term, r_k = r̃_k: the hinge's
// w = 0 gives ‖∇f(0, x)‖ = ‖a‖ = sup_w‖∇f(w, x)‖ for every x, and the
// absolute loss has ‖∇f(w, x)‖ = ‖a‖ at every w. Otherwise
// ‖∇f(·, x)‖ is not convex in w and the sup is only bracketed: below by
// the value at one point (w = 0: ‖a‖ for hinge and absolute loss, exact;
// logistic: w = −R·w*/‖w*‖, Monte Carlo), above by r̃_k (sup inside).
// γ_k is bounded above by Minkowski's inequality: |∂_j f(w, x)| ≤ |a_j| + λ₂R
// (σ(·) ≤ 1, the hinge's indicator, |sign| ≤ 1) and |∂_j F| ≤ E|∂_j f|, so
// γ_k^{1/k} ≤ 2((E|a_j|^k)^{1/k} + λ₂R), a_j ~ Student-t(ν) — an upper
// bound, not the sup. L is not computed (no closed form of ∇F). The
// Monte Carlo bracket is the logistic model's (labels drawn by σ(⟨w*, a⟩)).
func glmSup(d int, nu, R, l2, wn float64, loss scoreLoss, rt *profile) *supProfile {
	sp := &supProfile{l: math.NaN(), lMethod: "not computed (∇F has no closed form)"}
	sp.r = &supSide{inf: math.Inf(1), kmax: nu, infMethod: "unbounded features",
		eval: func(ctx context.Context, k float64) supVal {
			rtk, rse := rt.at(k)
			unit := loss.unitSlope()
			if l2 == 0 && unit != "" {
				return supVal{v: rtk, se: rse, lo: rtk, method: "= r̃_k: " + unit}
			}
			if unit != "" {
				lo := math.Pow(dist.MVTNormMoment(nu, d, k), 1/k)
				return supVal{v: rtk, se: rse, lo: lo, method: "bracket: ≥ (E‖a‖^k)^{1/k} at w = 0 (exact), ≤ r̃_k (‖∇f(·, x)‖ is not convex in w: no certified sup)"}
			}
			chiNu, chiD := dist.NewGamma(nu/2), dist.NewGamma(float64(d-1)/2)
			smp, bad := sampleOrNaN(ctx, fmt.Sprintf("logreg-r/d=%d/nu=%g/w=%g", d, nu, wn), 4, func(r *dist.Rand, row []float64) {
				m := math.Sqrt(nu / (2 * chiNu.Draw(r)))
				z1 := r.NormFloat64()
				n2 := z1 * z1
				if d > 1 {
					n2 += 2 * chiD.Draw(r)
				}
				row[0], row[1], row[2] = m, z1, n2
				row[3] = -1
				if r.Float64() < sigmoid(wn*m*z1) {
					row[3] = 1
				}
			})
			if bad != nil {
				return *bad
			}
			Mc, Z1, N2, Yc := smp.cols[0], smp.cols[1], smp.cols[2], smp.cols[3]
			m := smp.moment(ctx, k, func(dst []float64, lo int) {
				hi := lo + len(dst)
				Mc, Z1, N2, Yc := Mc[lo:hi], Z1[lo:hi], N2[lo:hi], Yc[lo:hi]
				for i := range dst {
					s := -R * Mc[i] * Z1[i] // ⟨w, a⟩ at w = −R·ŵ*
					c := sigmoid(-Yc[i] * s)
					dst[i] = math.Sqrt(math.Max(0, c*c*Mc[i]*Mc[i]*N2[i]-2*l2*c*Yc[i]*s+l2*l2*R*R))
				}
			})
			lo, _ := m.root(k, 1)
			return supVal{v: rtk, se: rse, lo: lo, method: "bracket: ≥ " + mcMethod(" at w = −R·w*/‖w*‖") + ", ≤ r̃_k (‖∇f(·, x)‖ is not convex in w: no certified sup)"}
		}}
	sp.g = &supSide{inf: math.Inf(1), kmax: nu, infMethod: "unbounded features",
		eval: func(ctx context.Context, k float64) supVal {
			v := 2 * (math.Pow(dist.StudentTAbsMoment(nu, k), 1/k) + l2*R)
			return supVal{v: v, lo: math.NaN(), method: "upper bound 2((E|a_j|^k)^{1/k} + λ₂R) (Minkowski; exact Student-t moment), not the sup"}
		}}
	return sp
}

// ---- lower-bound instances ----

// centralTwoPoint is (E|B − p|^k)^{1/k} for B ~ Bernoulli(p):
// (p(1 − p)^k + (1 − p)p^k)^{1/k}; at k = ∞ the essential sup.
func centralTwoPoint(p, k float64) float64 {
	if math.IsInf(k, 1) {
		var m float64
		if p > 0 {
			m = 1 - p
		}
		if p < 1 {
			m = math.Max(m, p)
		}
		return m
	}
	return math.Pow(p*math.Pow(1-p, k)+(1-p)*math.Pow(p, k), 1/k)
}

// meanHardSup: ∇f = μ(w − x); for x = 0 and for the atom, sup_W‖∇f‖ is
// attained at the same point w = −R·E x/‖E x‖, so r_k = r̃_k for every k.
// ∂_j f − ∂_j F = −μ(x_j − E x_j) = ∓μ|atom_j|(B − p) whatever w is:
// γ_k^{1/k} = μ|atom_j|·(p(1 − p)^k + (1 − p)p^k)^{1/k}. L = μ(R + ‖E x‖) = 2μR.
func meanHardSup(mu, R, atomJ, p float64, rt *profile) *supProfile {
	sp := &supProfile{l: 2 * mu * R, lExact: true, lMethod: "μ(R + ‖E x‖) = 2μR"}
	sp.r = &supSide{inf: rt.lf, kmax: math.Inf(1), infMethod: "= L_f",
		eval: func(ctx context.Context, k float64) supVal {
			v, _ := rt.at(k)
			return supVal{v: v, lo: v, method: "exact, = r̃_k: w = −R·E x/‖E x‖ attains sup_w ‖∇f(w, x)‖ at both atoms"}
		}}
	sp.g = &supSide{inf: mu * atomJ * centralTwoPoint(p, math.Inf(1)), kmax: math.Inf(1), infMethod: "exact (two-point law)",
		eval: func(ctx context.Context, k float64) supVal {
			v := mu * atomJ * centralTwoPoint(p, k)
			return supVal{v: v, lo: v, method: "exact (two-point law; independent of w)"}
		}}
	return sp
}

// affineHardSup: ∇f = −x does not depend on w: r_k = r̃_k, γ_k^{1/k} =
// |x_j-atom|·(p(1 − p)^k + (1 − p)p^k)^{1/k}, L = ‖E x‖.
func affineHardSup(atomJ, p, meanNorm float64, rt *profile) *supProfile {
	sp := &supProfile{l: meanNorm, lExact: true, lMethod: "‖E x‖"}
	sp.r = &supSide{inf: rt.lf, kmax: math.Inf(1), infMethod: "= L_f",
		eval: func(ctx context.Context, k float64) supVal {
			v, _ := rt.at(k)
			return supVal{v: v, lo: v, method: "exact, = r̃_k: ∇f = −x does not depend on w"}
		}}
	sp.g = &supSide{inf: atomJ * centralTwoPoint(p, math.Inf(1)), kmax: math.Inf(1), infMethod: "exact (two-point law)",
		eval: func(ctx context.Context, k float64) supVal {
			v := atomJ * centralTwoPoint(p, k)
			return supVal{v: v, lo: v, method: "exact (two-point law; independent of w)"}
		}}
	return sp
}

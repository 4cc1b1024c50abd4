package theory

import (
	"fmt"
	"math"
)

// Assumption is one of the paper's bounded-moment assumptions on the
// stochastic (sub)gradients.
type Assumption string

// The assumptions, by their stable names (flags, JSON).
const (
	// Tilde is Assumption "ass:tilde": r̃_k = (E sup_{w∈W} ‖∇f(w,x)‖^k)^{1/k}
	// (the sup inside the expectation).
	Tilde Assumption = "tilde"
	// Noncentral is Assumption "ass:boundednoncentral":
	// r_k = sup_{w∈W} (E‖∇f(w,x)‖^k)^{1/k} (the sup outside), r_k ≤ r̃_k.
	Noncentral Assumption = "noncentral"
	// Coordinatewise is Assumption "ass:coordinatewise" (of Wang et al. and
	// Kamath et al.): sup_w E|⟨∇f(w,x) − ∇F(w), e_j⟩|^k ≤ γ_k for every
	// coordinate j, and sup_w ‖∇F(w)‖ ≤ √d·γ_k^{1/k}.
	Coordinatewise Assumption = "coordinatewise"
)

// Assumptions lists the assumptions in the paper's order.
var Assumptions = []Assumption{Tilde, Noncentral, Coordinatewise}

// Label is the assumption's LaTeX \label.
func (a Assumption) Label() string {
	switch a {
	case Tilde:
		return "ass:tilde"
	case Noncentral:
		return "ass:boundednoncentral"
	case Coordinatewise:
		return "ass:coordinatewise"
	}
	return ""
}

// Symbol is the moment constant the assumption bounds, e.g. "r̃_k".
func (a Assumption) Symbol() string {
	switch a {
	case Tilde:
		return "r̃_k"
	case Noncentral:
		return "r_k"
	case Coordinatewise:
		return "γ_k^(1/k)"
	}
	return ""
}

// ParseAssumption parses an assumption name.
func ParseAssumption(s string) (Assumption, error) {
	for _, a := range Assumptions {
		if string(a) == s {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown assumption %s (want one of tilde, noncentral, coordinatewise)", Quote(s))
}

// Allowance answers whether a class's prescription (the algorithm's T, C,
// step sizes from its precise theorem) may take its moment constants under
// an assumption, and on what authority.
type Allowance struct {
	// Allowed is true when the precise theorem holds under the assumption.
	Allowed bool
	// Label is the \label of the theorem that decides (and, for
	// Coordinatewise, of the lemma that converts).
	Label string
	// Reason says why, in a sentence.
	Reason string
	// Substitute says which number the prescription then uses in place of
	// r̃_k (and r̃₂), e.g. "r_k" or "2^(1+1/k)·√d·γ_k^(1/k) ≥ r_k"; "" when
	// not allowed.
	Substitute string
}

// PrescriptionAllows says whether the prescription of class c may use the
// constants of assumption a in place of r̃_k:
//
//   - Tilde: always (every precise theorem holds under "ass:tilde", which
//     implies "ass:boundednoncentral" with r_k ≤ r̃_k).
//   - Noncentral: the smooth classes, whose precise statements "Grant
//     ass:boundednoncentral" (the complete version of "thm: convex ACSA one
//     pass", the precise statements of "thm: strongly convex smooth upper
//     bound" and "thm: PL upper bound"): their analysis uses the oracle's
//     bias and variance at the current iterate only (Lemma "bias and
//     variance of bd14" with E‖∇f(w_t, x)‖^k ≤ r_k^k). Not the non-smooth
//     classes: the precise "thm: localization convex" and "thm: localization
//     strongly convex" grant "ass:tilde", because the localization radius
//     D_i = 4r̃_k(2^i√n)^{1/k}/λ_i needs a bound on the Lipschitz constant
//     of the empirical loss over all of W (Chebyshev on sup_w‖∇f(w, x)‖),
//     and C_i uses R̃_{2k,n_i}, a sup inside the expectation;
//     "thm: asymptotic optimality" bounds the same algorithm's risk by r_2k
//     only for n ≥ N, with the same prescription.
//   - Coordinatewise: the smooth classes, through "lem: comparing
//     assumptions" (r_k ≤ 2^{1+1/k}√d·γ_k^{1/k} ≤ 4√d·γ_k^{1/k}; see
//     RkFromCoordinatewise and the remark after the lemma); not the
//     non-smooth ones, for the same reason as Noncentral.
//
// An unknown class or assumption is not allowed.
func PrescriptionAllows(c Class, a Assumption) Allowance {
	smoothLabel := map[Class]string{
		SmoothConvex: "thm: convex ACSA one pass",
		SmoothSC:     "thm: strongly convex smooth upper bound",
		PPL:          "thm: PL upper bound",
	}
	nonsmoothLabel := map[Class]string{
		NonsmoothConvex: "thm: localization convex",
		NonsmoothSC:     "thm: localization strongly convex",
	}
	lab, smooth := smoothLabel[c]
	nlab, nonsmooth := nonsmoothLabel[c]
	if !smooth && !nonsmooth {
		return Allowance{Reason: fmt.Sprintf("unknown class %s", Quote(string(c)))}
	}
	if nonsmooth {
		lab = nlab
	}
	switch a {
	case Tilde:
		return Allowance{Allowed: true, Label: lab, Substitute: "r̃_k",
			Reason: "the precise statement holds under ass:tilde"}
	case Noncentral:
		if smooth {
			return Allowance{Allowed: true, Label: lab, Substitute: "r_k (and r₂ for r̃₂)",
				Reason: "the precise statement grants ass:boundednoncentral: the analysis needs the oracle's bias and variance at each iterate only"}
		}
		return Allowance{Label: lab,
			Reason: "the precise statement grants ass:tilde: the localization radii D_i bound the empirical loss's Lipschitz constant over all of W, a sup inside the expectation (r̃_k), and C_i uses R̃_{2k,n_i} ≤ r̃_2k; thm: asymptotic optimality gives r_2k only for n ≥ an unspecified N, with the same prescription"}
	case Coordinatewise:
		if smooth {
			return Allowance{Allowed: true, Label: lab + "; lem: comparing assumptions", Substitute: "2^(1+1/k)·√d·γ_k^(1/k) ≥ r_k (and 2^(3/2)·√d·γ₂^(1/2) ≥ r₂)",
				Reason: "ass:coordinatewise implies ass:boundednoncentral with r_k ≤ 2^(1+1/k)·√d·γ_k^(1/k) (lem: comparing assumptions), under which the precise statement holds"}
		}
		return Allowance{Label: lab + "; lem: comparing assumptions",
			Reason: "ass:coordinatewise gives r_k (ass:boundednoncentral), not r̃_k, and the localization theorems need ass:tilde"}
	}
	return Allowance{Reason: fmt.Sprintf("unknown assumption %s", Quote(string(a)))}
}

// RkFromCoordinatewise is the bound of Lemma "lem: comparing assumptions"
// on r_k under Assumption "ass:coordinatewise", as its proof derives it:
// r_k ≤ 2·(L^k + d^{k/2}·γ_k)^{1/k} ≤ 2^{1+1/k}·√d·γ_k^{1/k} (the lemma
// states ≤ 4√d·γ_k^{1/k}), with gk = γ_k^{1/k} and L = sup_W ‖∇F‖; pass
// L = NaN for the assumption's own L ≤ √d·γ_k^{1/k}, which gives
// 2^{1+1/k}√d·γ_k^{1/k}. At k = ∞ it is 2·max(L, √d·γ_∞). NaN for k < 2,
// d < 1 or a negative input.
func RkFromCoordinatewise(k, d, gk, L float64) float64 {
	if !(k >= 2) || !(d >= 1) || !(gk >= 0) || L < 0 {
		return math.NaN()
	}
	g := math.Sqrt(d) * gk // (d^{k/2} γ_k)^{1/k}
	if math.IsNaN(L) {
		L = g
	}
	if math.IsInf(k, 1) {
		return 2 * math.Max(L, g)
	}
	// (L^k + g^k)^{1/k} = m·((L/m)^k + (g/m)^k)^{1/k}, m = max: no overflow.
	m := math.Max(L, g)
	if m == 0 || math.IsInf(m, 1) {
		return 2 * m
	}
	return 2 * m * math.Pow(math.Pow(L/m, k)+math.Pow(g/m, k), 1/k)
}

// Inequality is one inequality a lemma or assumption asserts between two
// numbers, evaluated. Lhs ≤ Rhs is claimed.
type Inequality struct {
	// Text states it with the numbers, e.g. "r_4 ≤ r̃_4 (2.1 ≤ 3.5)".
	Text string `json:"text"`
	// Label is the \label of what asserts it.
	Label string `json:"label"`
	// Lhs and Rhs are the two sides.
	Lhs float64 `json:"lhs"`
	Rhs float64 `json:"rhs"`
	// Holds is Lhs ≤ Rhs (false if either side is NaN).
	Holds bool `json:"holds"`
}

// HoldsWithin reports Lhs ≤ Rhs + tol, for sides estimated with error
// (Monte Carlo): pass the combined error of the two sides, e.g. 3 s.e.
func (iq Inequality) HoldsWithin(tol float64) bool {
	return iq.Lhs <= iq.Rhs+tol
}

func ineq(label, lhsName string, lhs float64, rhsName string, rhs float64) Inequality {
	return Inequality{Text: fmt.Sprintf("%s ≤ %s (%s ≤ %s)", lhsName, rhsName, Sig6.Format(lhs), Sig6.Format(rhs)),
		Label: label, Lhs: lhs, Rhs: rhs, Holds: lhs <= rhs}
}

// MomentOrder holds the moment constants of one order k; NaN = not known.
type MomentOrder struct {
	K      float64 // the order, in [2, ∞]
	RTilde float64 // r̃_k (ass:tilde)
	R      float64 // r_k (ass:boundednoncentral)
	G      float64 // γ_k^{1/k} (ass:coordinatewise)
}

// MomentProfile is what a scenario knows of its gradient moments.
type MomentProfile struct {
	Dim float64 // d
	// L is sup_{w∈W} ‖∇F(w)‖ (NaN if not known).
	L float64
	// Lf is the worst-case Lipschitz parameter L_f (NaN if not known).
	Lf float64
	// Orders are the known orders, in any order.
	Orders []MomentOrder
}

// AssumptionInequalities lists every inequality between the assumptions'
// constants that the paper asserts (or that its definitions imply), at the
// known entries of p; an entry that is NaN drops the inequalities it is in.
// With Lf the worst-case Lipschitz parameter, for each order k:
//
//   - r_k ≤ r̃_k: "ass:tilde implies ass:boundednoncentral for r ≤ r̃"
//     (after ass:boundednoncentral; sup E ≤ E sup);
//   - r̃_k ≤ L_f (after ass:tilde);
//   - L ≤ r_k: Jensen, ‖∇F(w)‖ ≤ (E‖∇f(w,x)‖^k)^{1/k} (as the proof of
//     "thm: localization convex" uses it with r̃_k);
//   - r_k ≤ 4√d·γ_k^{1/k} (Lemma "lem: comparing assumptions"), and the
//     sharper r_k ≤ RkFromCoordinatewise(k, d, γ_k^{1/k}, L) of its proof;
//   - L ≤ √d·γ_k^{1/k}, the hypothesis in ass:coordinatewise itself;
//
// and for each pair of orders j < k (Lyapunov: moments grow with the
// order): r̃_j ≤ r̃_k, r_j ≤ r_k, γ_j^{1/j} ≤ γ_k^{1/k}.
//
// The Holds of each is exact (Lhs ≤ Rhs); for Monte Carlo estimates use
// Inequality.HoldsWithin with their error.
func AssumptionInequalities(p MomentProfile) []Inequality {
	var out []Inequality
	add := func(label, ln string, l float64, rn string, r float64) {
		if math.IsNaN(l) || math.IsNaN(r) {
			return
		}
		out = append(out, ineq(label, ln, l, rn, r))
	}
	sub := func(s string, k float64) string {
		if math.IsInf(k, 1) {
			return s + "∞"
		}
		return s + fmtNum(k)
	}
	for _, o := range p.Orders {
		k := o.K
		add("ass:boundednoncentral", sub("r_", k), o.R, sub("r̃_", k), o.RTilde)
		add("ass:tilde", sub("r̃_", k), o.RTilde, "L_f", p.Lf)
		add("Jensen", "L = sup‖∇F‖", p.L, sub("r_", k), o.R)
		if !math.IsNaN(o.G) && p.Dim >= 1 {
			g := math.Sqrt(p.Dim) * o.G
			gname := "√d·" + sub("γ_", k) + "^(1/" + fmtNum(k) + ")"
			add("lem: comparing assumptions", sub("r_", k), o.R, "4"+gname, 4*g)
			add("lem: comparing assumptions (proof)", sub("r_", k), o.R, "2(L^k + (√d·γ_k^(1/k))^k)^(1/k)", RkFromCoordinatewise(k, p.Dim, o.G, p.L))
			add("ass:coordinatewise", "L = sup‖∇F‖", p.L, gname, g)
		}
	}
	for i, a := range p.Orders {
		for _, b := range p.Orders[i+1:] {
			lo, hi := a, b
			if lo.K > hi.K {
				lo, hi = hi, lo
			}
			if lo.K == hi.K {
				continue
			}
			add("Lyapunov", sub("r̃_", lo.K), lo.RTilde, sub("r̃_", hi.K), hi.RTilde)
			add("Lyapunov", sub("r_", lo.K), lo.R, sub("r_", hi.K), hi.R)
			add("Lyapunov", sub("γ_", lo.K)+"^(1/"+fmtNum(lo.K)+")", lo.G, sub("γ_", hi.K)+"^(1/"+fmtNum(hi.K)+")", hi.G)
		}
	}
	return out
}

// AssumptionOf is the moment assumption bound id's constants come from
// (Tilde for the chart bounds, and for prior work restated in r̃_k), "" for
// an unknown id.
func AssumptionOf(id string) Assumption {
	s, ok := specOf(id)
	switch {
	case !ok:
		return ""
	case s.assumption == "":
		return Tilde
	}
	return s.assumption
}

// Variant returns the id of the bound that restates chart bound id under
// assumption a, in the shuffle model if shuffle is set: e.g.
// Variant(LowerConvex, Noncentral, false) = LowerConvexNC,
// Variant(SmoothSCSGD, Tilde, true) = SmoothSCSGDShuffle. For Tilde and
// !shuffle it is id itself. ok is false when the paper states no such
// variant.
func Variant(id string, a Assumption, shuffle bool) (string, bool) {
	if _, ok := specOf(id); !ok {
		return "", false
	}
	if a == Tilde && !shuffle {
		return id, true
	}
	for _, s := range specs {
		if s.base == id && AssumptionOf(s.id) == a && s.shuffle == shuffle && s.label != "thm: asymptotic optimality" && s.label != "rem: affine optimal" {
			return s.id, true
		}
	}
	return "", false
}

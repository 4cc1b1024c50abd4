package scenarios

import (
	"fmt"
	"math"

	"dpso/theory"
)

// Contradiction is a constant given by a flag (--lf, --rk, --r2, --r2k,
// --beta, --mu) that the scenario's own constants contradict: the bound
// it declares is false for the scenario's distribution (a given L_f below
// the scenario's, a given r̃_k below its r̃_k by more than three standard
// errors, a β below its smoothness, a μ above its strong convexity). A
// run reads the given value as the user asked; its guarantees then rest
// on a false assumption, which every output that shows the constant
// says.
type Contradiction struct {
	// Field is the flag ("lf", "rk", …), Symbol the constant ("L_f",
	// "r̃_2").
	Field, Symbol string
	// Given is the flag's value, Own the scenario's (+Inf when the moment
	// does not exist).
	Given, Own float64
	// Text says it in a sentence.
	Text string
}

// Contradictions are the given constants the scenario contradicts (none
// on user data, where the given constants are all there is).
func (in *Instance) Contradictions() []Contradiction {
	s := &in.def
	if s.Data != "" {
		return nil
	}
	var out []Contradiction
	num := theory.FormatNumber
	below := func(given float64, own MomentEntry) bool {
		if math.IsInf(own.R, 1) {
			return true
		}
		se := own.SE
		if math.IsNaN(se) || math.IsInf(se, 0) {
			se = 0
		}
		return given < (own.R-3*se)*(1-1e-12)
	}
	p := in.m.prof
	if s.Lf > 0 && s.Lf < p.lf*(1-1e-12) {
		why := ""
		if math.IsInf(p.lf, 1) && !math.IsInf(p.kmax, 1) {
			why = fmt.Sprintf(" (r̃_k = ∞ already for k ≥ %s: the data's tails are unbounded)", num(p.kmax))
		}
		out = append(out, Contradiction{Field: "lf", Symbol: "L_f", Given: s.Lf, Own: p.lf,
			Text: fmt.Sprintf("the given L_f = %s is below the scenario's own L_f = %s%s: the bound it declares is false for these data", num(s.Lf), ownText(p.lf), why)})
	}
	for _, o := range []struct {
		field, sym string
		k, v       float64
	}{{"r2", "r̃_2", 2, s.R2}, {"rk", "r̃_k", s.K, s.Rk}, {"r2k", "r̃_2k", 2 * s.K, s.R2k}} {
		if o.v <= 0 {
			continue
		}
		own := p.entry(o.k)
		if below(o.v, own) {
			out = append(out, Contradiction{Field: o.field, Symbol: o.sym, Given: o.v, Own: own.R,
				Text: fmt.Sprintf("the given %s = %s (k = %s) is below the scenario's own r̃_%s = %s: the bound it declares is false for these data", o.sym, num(o.v), num(o.k), num(o.k), ownText(own.R))})
		}
	}
	if s.Beta > 0 && s.Beta < in.m.beta*(1-1e-12) {
		out = append(out, Contradiction{Field: "beta", Symbol: "β", Given: s.Beta, Own: in.m.beta,
			Text: fmt.Sprintf("the given β = %s is below the scenario's smoothness β = %s: the loss is not β-smooth with it", num(s.Beta), ownText(in.m.beta))})
	}
	if s.Mu > 0 && s.Mu > in.m.mu*(1+1e-12) {
		out = append(out, Contradiction{Field: "mu", Symbol: "μ", Given: s.Mu, Own: in.m.mu,
			Text: fmt.Sprintf("the given μ = %s is above the scenario's strong convexity μ = %s: the loss is not μ-strongly convex with it", num(s.Mu), ownText(in.m.mu))})
	}
	return out
}

// ownText writes a scenario's constant: ∞, or 6 significant digits.
func ownText(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return theory.Sig6.Format(v)
}

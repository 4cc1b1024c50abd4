package scenarios

import (
	"context"
	"fmt"
	"math"

	"dpso/solvers"
	"dpso/theory"
)

// Geometry is where the empirical risk minimizer of user data lies
// relative to W = B(0, R): computed on the rows (a non-private diagnostic,
// like every number measured on them), so that a user learns when the
// default or given diameter D cuts the minimizer off and every excess risk
// is measured against the constrained optimum F̂*_W instead of the
// unconstrained one.
type Geometry struct {
	// Radius is R = D/2; Norm is ‖ŵ_W‖ of the minimizer over W.
	Radius, Norm float64
	// Inside: ŵ_W lies strictly inside W, so it is the unconstrained
	// minimizer and the rest is moot.
	Inside bool
	// RiskW is F̂*_W = min over W; StartGap is F̂(0) − F̂*_W.
	RiskW, StartGap float64
	// Found: a minimizer strictly inside a larger ball B(0, R') (R' = 4^j R,
	// j ≤ 8) was found, with norm OutNorm and risk RiskOut (the
	// unconstrained minimum); otherwise F̂ still decreases at ‖w‖ = OutR,
	// the largest radius tried, and RiskOut is its minimum over B(0, OutR)
	// (the minimizer may not exist: separable labels under the logistic
	// loss).
	Found                  bool
	OutNorm, RiskOut, OutR float64
}

// maxGeometrySteps is the number of times dataGeometry quadruples the
// radius before it gives up looking for an interior minimizer.
const maxGeometrySteps = 8

// dataGeometry locates the empirical minimizer of m's rows: inside W when
// the certified minimizer over W has ‖ŵ‖ < R (up to 10⁻⁹ relative),
// otherwise the minimizer over B(0, 4^j R) for j = 1, 2, … until one lies
// inside its ball.
func dataGeometry(ctx context.Context, m *model, risk *sampleRisk, data *solvers.Matrix) (*Geometry, error) {
	R := m.radius
	g := &Geometry{Radius: R, Norm: math.Sqrt(sqnorm(risk.wopt)), RiskW: risk.fopt}
	g.StartGap = risk.value(make([]float64, len(risk.wopt))) - risk.fopt
	if g.Norm < R*(1-1e-9) {
		g.Inside = true
		return g, nil
	}
	r := R
	for range maxGeometrySteps {
		r *= 4
		w, _, err := minimizeSample(ctx, m.obj, m.reg, data, r)
		if err != nil {
			return nil, err
		}
		g.OutR, g.OutNorm, g.RiskOut = r, math.Sqrt(sqnorm(w)), risk.value(w)
		if g.OutNorm < r*(1-1e-9) {
			g.Found = true
			break
		}
	}
	return g, nil
}

// Note is the sentence a run on user data states when the empirical
// minimizer lies outside W ("" when it lies inside).
func (g *Geometry) Note() string {
	if g == nil || g.Inside {
		return ""
	}
	num := theory.Sig4.Format
	gap := g.RiskW - g.RiskOut
	share := ""
	if g.StartGap > 0 {
		share = fmt.Sprintf(", %s%% of the start point's gap F̂(0) − F̂*_W = %s", theory.NumberFormat{Digits: 3}.Format(100*gap/g.StartGap), num(g.StartGap))
	}
	where := fmt.Sprintf("the empirical risk minimizer of the rows has norm %s", num(g.OutNorm))
	advice := fmt.Sprintf("give --diam at least 2·%s = %s", num(g.OutNorm), num(2*g.OutNorm))
	if !g.Found {
		where = fmt.Sprintf("the empirical risk still decreases at norm %s (no minimizer within B(0, %s): it may not exist, as with separable labels under the logistic loss)", num(g.OutR), num(g.OutR))
		advice = "give a --diam that contains the parameters you care about"
	}
	return fmt.Sprintf("W = B(0, %s) cuts off the empirical risk minimizer: %s, outside W. Every excess risk here is measured against the minimum over W, F̂*_W = %s, which is %s above the unconstrained minimum %s%s. To measure against the unconstrained optimum, %s, chosen from what you know of the problem: these numbers are computed on your rows (a non-private diagnostic), and a D chosen from them would make the run depend on the rows outside its privacy guarantee",
		num(g.Radius), where, num(g.RiskW), num(gap), num(g.RiskOut), share, advice)
}

// Geometry is where the empirical minimizer of user data lies relative to
// W (nil for a scenario).
func (in *Instance) Geometry() *Geometry {
	if in.m.geometry == nil {
		return nil
	}
	g := *in.m.geometry
	return &g
}

// EstimatedConstant is a constant that --estimate-constants computed from
// the rows (not private): its flag name, its symbol and its value.
type EstimatedConstant struct {
	Name, Symbol string
	Value        float64
}

// Estimated lists the constants estimated from the rows, in the flags'
// order (r̃₂, r̃_k, r̃_2k at the run's k, L_f, β, μ, and β_f, the
// per-sample smoothness the prior bounds read); nil when none was
// (a scenario, or user data with its constants given).
func (in *Instance) Estimated() []EstimatedConstant {
	if in.def.Data == "" || !in.def.EstimateConstants {
		return nil
	}
	k := in.def.K
	r := func(order float64) float64 { v, _ := in.m.prof.eval(order); return v }
	out := []EstimatedConstant{{"r2", "r̃₂", r(2)}}
	if !math.IsInf(k, 1) && k != 2 {
		ks := theory.Sig4.Format(k)
		out = append(out, EstimatedConstant{"rk", "r̃_" + ks, r(k)})
	}
	if !math.IsInf(k, 1) {
		out = append(out, EstimatedConstant{"r2k", "r̃_" + theory.Sig4.Format(2*k), r(2 * k)})
	}
	return append(out, EstimatedConstant{"lf", "L_f", in.m.prof.lf}, EstimatedConstant{"beta", "β", in.m.beta},
		EstimatedConstant{"mu", "μ", in.m.mu}, EstimatedConstant{"beta_f", "β_f", in.m.betaF})
}

package theory

import (
	"fmt"
	"math"
	"strings"
)

// Params are the problem constants the bounds are functions of. A field
// that is NaN is "not given": [Evaluate] of a bound that needs it returns
// a [*MissingError]. Start from [NewParams] (every field NaN) and set what
// you know; the zero Params is not "nothing given" (β = 0 is a meaningful
// value: affine losses).
//
// The names in brackets are the field names used in error messages, by
// [Needs] and by the CLI flags (--n, --d, --eps, ...).
type Params struct {
	// N is the sample size n [n], in [1, ∞). It may be fractional (sweeps).
	N float64
	// Dim is the dimension d [d], in [1, ∞).
	Dim float64
	// Eps is the zCDP ε [eps], in (0, ∞): the algorithm is ρ-zCDP with
	// ρ = ε²/2.
	Eps float64
	// K is the moment order k of Assumption 1 [k], in [2, ∞]; +Inf means
	// uniformly Lipschitz (r̃_∞ = L_f).
	K float64
	// Diam is the ℓ2 diameter D of the domain W [diam], in (0, ∞).
	Diam float64
	// R2, Rk and R2k are r̃_2, r̃_k and r̃_{2k} of Assumption 1
	// (r̃_j = (E sup_{w∈W} ‖∇f(w,x)‖^j)^{1/j}) [r2, rk, r2k], in (0, ∞];
	// +Inf means that the moment does not exist.
	R2, Rk, R2k float64
	// Beta is the smoothness β of F (of F⁰ for proximal-PL) [beta], in
	// [0, ∞); β = 0 is an affine loss.
	Beta float64
	// Mu is the strong convexity (or proximal-PL) parameter μ [mu], in
	// (0, ∞).
	Mu float64
	// Lf is the worst-case Lipschitz parameter L_f = sup_{w,x} ‖∇f(w,x)‖
	// [lf], in (0, ∞]; +Inf when the gradients are unbounded.
	Lf float64
	// KappaF is the worst-case condition number κ_f = β_f/μ of f(·, x)
	// [kappa-f], in [1, ∞]; +Inf when f(·, x) is not uniformly smooth.
	KappaF float64
	// LfData is the data's own L_f where Lf is a value the user gave in
	// its place (a scenario whose declared L_f is known), NaN otherwise. It
	// is not an input of any formula: the hypothesis "L_f < ∞" of prior
	// work's Lipschitz bounds is met only if the given Lf bounds the data's
	// gradients, LfData ≤ Lf.
	LfData float64
	// R2NC, RkNC and R2kNC are r_2, r_k and r_{2k} of Assumption
	// "ass:boundednoncentral" (r_j = sup_{w∈W} (E‖∇f(w,x)‖^j)^{1/j}, the
	// sup outside the expectation, so r_j ≤ r̃_j) [r2-nc, rk-nc, r2k-nc],
	// in (0, ∞].
	R2NC, RkNC, R2kNC float64
	// G2, Gk and G2k are the coordinate-wise scales γ_2^{1/2}, γ_k^{1/k}
	// and γ_{2k}^{1/(2k)} of Assumption "ass:coordinatewise"
	// (sup_w E|⟨∇f(w,x) − ∇F(w), e_j⟩|^j ≤ γ_j for every coordinate j)
	// [g2, gk, g2k], in (0, ∞].
	G2, Gk, G2k float64
	// R2kEmp and R2kEmp4 are the weighted expected empirical moments
	// R̃_{2k,n} and R̃_{2k,n/4} of "subsub: notation" (Lemma "lem: empirical
	// moments": r_2k ≲ R̃_{2k,m} ≤ r̃_2k) [r2k-emp, r2k-emp4], in (0, ∞].
	R2kEmp, R2kEmp4 float64
	// Delta is the δ of (ε, δ)-shuffle DP [delta], in (0, 1); the shuffle
	// bounds read Eps as the shuffle ε.
	Delta float64
}

// NewParams returns Params with every field "not given" (NaN).
func NewParams() Params {
	nan := math.NaN()
	return Params{N: nan, Dim: nan, Eps: nan, K: nan, Diam: nan, R2: nan, Rk: nan, R2k: nan,
		Beta: nan, Mu: nan, Lf: nan, KappaF: nan, LfData: nan, R2NC: nan, RkNC: nan, R2kNC: nan,
		G2: nan, Gk: nan, G2k: nan, R2kEmp: nan, R2kEmp4: nan, Delta: nan}
}

// paramField describes one field of Params: its name, symbol and range.
type paramField struct {
	name, symbol string
	get          func(*Params) *float64
	iv           Interval
}

var inf = math.Inf(1)

// paramFields lists the fields in the order of the CLI flags.
var paramFields = []paramField{
	{"n", "n", func(p *Params) *float64 { return &p.N }, Interval{1, inf, false, true}},
	{"d", "d", func(p *Params) *float64 { return &p.Dim }, Interval{1, inf, false, true}},
	{"eps", "ε", func(p *Params) *float64 { return &p.Eps }, Interval{0, inf, true, true}},
	{"k", "k", func(p *Params) *float64 { return &p.K }, Interval{2, inf, false, false}},
	{"diam", "D", func(p *Params) *float64 { return &p.Diam }, Interval{0, inf, true, true}},
	{"r2", "r̃₂", func(p *Params) *float64 { return &p.R2 }, Interval{0, inf, true, false}},
	{"rk", "r̃_k", func(p *Params) *float64 { return &p.Rk }, Interval{0, inf, true, false}},
	{"r2k", "r̃_2k", func(p *Params) *float64 { return &p.R2k }, Interval{0, inf, true, false}},
	{"beta", "β", func(p *Params) *float64 { return &p.Beta }, Interval{0, inf, false, true}},
	{"mu", "μ", func(p *Params) *float64 { return &p.Mu }, Interval{0, inf, true, true}},
	{"lf", "L_f", func(p *Params) *float64 { return &p.Lf }, Interval{0, inf, true, false}},
	{"kappa-f", "κ_f", func(p *Params) *float64 { return &p.KappaF }, Interval{1, inf, false, false}},
	{"r2-nc", "r₂", func(p *Params) *float64 { return &p.R2NC }, Interval{0, inf, true, false}},
	{"rk-nc", "r_k", func(p *Params) *float64 { return &p.RkNC }, Interval{0, inf, true, false}},
	{"r2k-nc", "r_2k", func(p *Params) *float64 { return &p.R2kNC }, Interval{0, inf, true, false}},
	{"g2", "γ₂^(1/2)", func(p *Params) *float64 { return &p.G2 }, Interval{0, inf, true, false}},
	{"gk", "γ_k^(1/k)", func(p *Params) *float64 { return &p.Gk }, Interval{0, inf, true, false}},
	{"g2k", "γ_2k^(1/(2k))", func(p *Params) *float64 { return &p.G2k }, Interval{0, inf, true, false}},
	{"r2k-emp", "R̃_{2k,n}", func(p *Params) *float64 { return &p.R2kEmp }, Interval{0, inf, true, false}},
	{"r2k-emp4", "R̃_{2k,n/4}", func(p *Params) *float64 { return &p.R2kEmp4 }, Interval{0, inf, true, false}},
	{"delta", "δ", func(p *Params) *float64 { return &p.Delta }, Interval{MinDelta, 1, false, true}},
}

func fieldByName(name string) (paramField, bool) {
	for _, f := range paramFields {
		if f.name == name {
			return f, true
		}
	}
	return paramField{}, false
}

// ParamInterval is the allowed range of the named field.
func ParamInterval(name string) (Interval, bool) {
	f, ok := fieldByName(name)
	return f.iv, ok
}

// ParamError is a given parameter outside its allowed range.
type ParamError struct {
	Field string  // field name, as in Needs
	Value float64 // the rejected value
	Range string  // the allowed range, e.g. "(0, ∞)"
}

func (e *ParamError) Error() string {
	f, _ := fieldByName(e.Field)
	return fmt.Sprintf("%s (%s) = %s is not in %s", e.Field, f.symbol, fmtNum(e.Value), e.Range)
}

// MissingError reports the inputs a bound needs that are not given (NaN).
type MissingError struct {
	ID      string   // the bound
	Missing []string // field names, as in Needs
}

func (e *MissingError) Error() string {
	parts := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		f, _ := fieldByName(m)
		parts[i] = m + " (" + f.symbol + ")"
	}
	return fmt.Sprintf("%s needs %s", e.ID, strings.Join(parts, ", "))
}

// Validate checks every given (non-NaN) field against its range and
// returns the first violation as a [*ParamError].
func (p Params) Validate() error {
	for _, f := range paramFields {
		x := *f.get(&p)
		if math.IsNaN(x) {
			continue
		}
		if !f.iv.Contains(x) {
			return &ParamError{Field: f.name, Value: x, Range: f.iv.String()}
		}
	}
	return nil
}

// resolved returns p with the identifications of Assumption 1 at k = ∞:
// r̃_∞ = L_f, so when K = +Inf the three constants r̃_k, r̃_{2k} and L_f
// are one quantity, and any of them that is not given is taken from the
// first given of L_f, r̃_k, r̃_{2k}.
func (p Params) resolved() Params {
	if !math.IsInf(p.K, 1) {
		return p
	}
	src := math.NaN()
	for _, x := range []float64{p.Lf, p.Rk, p.R2k} {
		if !math.IsNaN(x) {
			src = x
			break
		}
	}
	for _, x := range []*float64{&p.Lf, &p.Rk, &p.R2k} {
		if math.IsNaN(*x) {
			*x = src
		}
	}
	return p
}

// fmtNum formats a number compactly with ∞ for infinities.
func fmtNum(x float64) string { return sig5.Format(x) }

// sig5 is the conditions' and terms' number format: 5 significant digits,
// Pretty (10⁻⁶, 1.2346·10⁵, −∞), the one formatter's rules.
var sig5 = NumberFormat{Digits: 5, Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "NaN"}

// MinDelta is the smallest δ taken anywhere: below it ln(1/δ), and the
// Gaussian tails Φ(−x) ≈ δ that the exact (ε', δ) conversion solves for,
// pass float64's precision (δ = 1e-320 gave ε' = ∞ and NaN).
const MinDelta = 1e-300

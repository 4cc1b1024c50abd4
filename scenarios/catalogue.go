package scenarios

import (
	"context"
	"fmt"
	"math"

	"dpso/theory"
)

// Param is an adjustable numeric parameter of a scenario (or its tail
// parameter), with its default and allowed interval.
type Param struct {
	Name    string  // the field's (and CLI flag's) name, e.g. "noise"
	Symbol  string  // the mathematical symbol, e.g. "σ"
	Meaning string  // one line
	Default float64 // value used when the problem leaves it unset
	Min     float64 // lower end of the allowed interval
	Max     float64 // upper end of the allowed interval
	MinOpen bool    // Min itself is excluded
	MaxOpen bool    // Max itself is excluded
}

// Interval is the allowed interval as a theory.Interval.
func (p Param) Interval() theory.Interval {
	return theory.Interval{Lo: p.Min, Hi: p.Max, LoOpen: p.MinOpen, HiOpen: p.MaxOpen}
}

// Range is the allowed interval in the usual notation, e.g. "(2, 200]".
func (p Param) Range() string { return p.Interval().String() }

// Allows reports whether v is in the allowed interval (NaN never is).
func (p Param) Allows(v float64) bool { return p.Interval().Contains(v) }

func (p Param) check(v float64, scenario string) error {
	if p.Allows(v) {
		return nil
	}
	return &FieldError{Field: p.Name, Msg: fmt.Sprintf("%s = %s is outside %s for %s (%s)", p.Symbol, theory.FormatNumber(v), p.Range(), scenario, p.Meaning)}
}

// Info describes a scenario of the catalogue.
type Info struct {
	Name        string
	Description string         // one line
	Loss        string         // the per-sample loss as a formula
	Classes     []theory.Class // supported loss classes; the first is the default
	// Tail is the tail parameter (ν, α, contamination fraction), nil when the
	// scenario has none.
	Tail *Param
	// Params are the other adjustable parameters.
	Params []Param
	// Lambda1 and Lambda2 describe the ℓ1 / ℓ2 weights when the scenario has
	// them (nil otherwise). Lambda2.Default is the weight used for the
	// strongly convex classes when L2ForSC is set (convex classes default to
	// 0); otherwise it is the default for every class.
	Lambda1, Lambda2 *Param
	// L2ForSC: the strong convexity of the strongly convex classes comes from
	// the ℓ2 term, which they require to be positive (μ = λ₂).
	L2ForSC bool
	// Default dimension d, diameter D of W and sample size n (for the
	// non-smooth classes a run may choose a smaller n: see spec.Spec.N).
	D    int
	Diam float64
	N    int
	// K is the scenario's default moment order k (0: DefaultK). hinge-t and
	// absreg-t use k = 4 with tail ν = 10: at k = 2 the localized method's
	// full schedule fits the default work budget only for n ≤ 512, where
	// at d = 10, ε = 1 its privacy noise and regularization bias are as
	// large as the excess risk at w = 0 (the theorem's bound is 5–6 times
	// that excess); at k = 4 and n = 1024 it visibly converges (see
	// TestLocalizedVisiblyWorks).
	K float64
	// FixedD / FixedDiam: d or D is part of the scenario's definition and
	// cannot be set (DiamFromProof: D is set by the lower-bound proof).
	FixedD, FixedDiam bool
	// Risk says how F(w) − F* is computed: "closed form" or "evaluation
	// sample".
	Risk string
}

// Supports reports whether the scenario supports class c.
func (in Info) Supports(c theory.Class) bool {
	for _, x := range in.Classes {
		if x == c {
			return true
		}
	}
	return false
}

// Param returns the named adjustable parameter (or the tail parameter).
func (in Info) Param(name string) (Param, bool) {
	if in.Tail != nil && in.Tail.Name == name {
		return *in.Tail, true
	}
	for _, p := range in.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// scenarioDef is a catalogue entry: its description and how to build it.
type scenarioDef struct {
	info Info
	// kmax(p) is the moment limit at the problem p: r̃_k < ∞ exactly
	// for k < kmax (+Inf when every finite moment exists).
	kmax func(p *ProblemDef) float64
	// lfFinite: L_f < ∞.
	lfFinite bool
	build    func(ctx context.Context, p *ProblemDef) (*model, error)
}

// Names of the scenarios, in display order.
const (
	Example1        = "example1"
	LinRegT         = "linreg-t"
	LinRegPareto    = "linreg-pareto"
	LogRegT         = "logreg-t"
	HingeT          = "hinge-t"
	AbsRegT         = "absreg-t"
	LassoT          = "lasso-t"
	Contaminated    = "contaminated"
	MeanHard        = "mean-hard"
	AffineHard      = "affine-hard"
	DefaultScenario = Example1
)

var (
	pNoise = Param{Name: "noise", Symbol: "σ", Meaning: "scale of the label noise ξ", Default: 1, Min: 0, Max: 100}
	pWstar = Param{Name: "wstar", Symbol: "‖w*‖", Meaning: "norm of the true parameter w* = ‖w*‖·(1, …, 1)/√d", Default: 0.5, Min: 0, Max: 1000}
	pCond  = Param{Name: "cond", Symbol: "κ_Σ", Meaning: "condition number of the feature covariance: the last ⌊d/2⌋ coordinates are scaled by 1/√κ_Σ", Default: 1, Min: 1, Max: 1e6}
	pNuLin = Param{Name: "tail", Symbol: "ν", Meaning: "degrees of freedom of the multivariate t: r̃_k < ∞ iff k < ν/2", Default: 6, Min: 2, Max: 200, MinOpen: true}
	pNuCls = Param{Name: "tail", Symbol: "ν", Meaning: "degrees of freedom of the multivariate t: r̃_k < ∞ iff k < ν", Default: 6, Min: 2, Max: 200, MinOpen: true}
	pNuAbs = Param{Name: "tail", Symbol: "ν", Meaning: "degrees of freedom of the multivariate t: r̃_k < ∞ iff k < ν", Default: 10, Min: 1, Max: 200, MinOpen: true}
	pAlpha = Param{Name: "tail", Symbol: "α", Meaning: "Pareto tail index of the radius: r̃_k < ∞ iff k < α/2", Default: 6, Min: 2, Max: 200, MinOpen: true}
	pL2SC  = Param{Name: "lambda2", Symbol: "λ₂", Meaning: "weight of the ℓ2 term (λ₂/2)‖w‖² in every per-sample loss; μ = λ₂", Default: 0.1, Min: 0, Max: 1000}
)

var catalogue = []scenarioDef{
	{
		info: Info{
			Name:        Example1,
			Description: "The paper's Example 1: 1-d linear regression on the unit ball, x⁽¹⁾, x⁽²⁾ i.i.d. truncated normal on [−10¹⁰, 10¹⁰]; r̃_2 ≤ 5, r̃_4 ≤ 8, r̃_8 ≤ 14 while L_f ≥ 10²⁰",
			Loss:        "½(w·x⁽¹⁾ − x⁽²⁾)²",
			Classes:     []theory.Class{theory.SmoothConvex, theory.SmoothSC},
			Params: []Param{{Name: "sigma", Symbol: "s", Meaning: "standard deviation of the normal before truncation (the example asks for variance ≤ 1)",
				Default: 1, Min: 0, Max: 1, MinOpen: true}},
			D: 1, Diam: 2, N: 10000, FixedD: true, FixedDiam: true, Risk: "closed form",
		},
		kmax:     func(*ProblemDef) float64 { return math.Inf(1) },
		lfFinite: true,
		build:    buildExample1,
	},
	{
		info: Info{
			Name:        LinRegT,
			Description: "d-dim linear regression y = ⟨w*, a⟩ + ξ with (a, ξ) jointly multivariate Student-t(ν): heavy-tailed features and noise, known covariance, closed-form F",
			Loss:        "½(⟨w, a⟩ − y)²",
			Classes:     []theory.Class{theory.SmoothConvex, theory.SmoothSC, theory.PPL},
			Tail:        &pNuLin,
			Params:      []Param{pNoise, pWstar, pCond},
			D:           10, Diam: 2, N: 10000, Risk: "closed form",
		},
		kmax:  func(p *ProblemDef) float64 { return p.Tail / 2 },
		build: buildLinReg,
	},
	{
		info: Info{
			Name:        LinRegPareto,
			Description: "d-dim linear regression with (a, ξ) = P·v, v uniform on the sphere of R^{d+1}, P symmetric-Pareto(α) radius: heavy-tailed features and noise, closed-form F",
			Loss:        "½(⟨w, a⟩ − y)²",
			Classes:     []theory.Class{theory.SmoothConvex, theory.SmoothSC, theory.PPL},
			Tail:        &pAlpha,
			Params:      []Param{pNoise, pWstar, pCond},
			D:           10, Diam: 2, N: 10000, Risk: "closed form",
		},
		kmax:  func(p *ProblemDef) float64 { return p.Tail / 2 },
		build: buildLinReg,
	},
	{
		info: Info{
			Name:        LogRegT,
			Description: "logistic regression, multivariate Student-t(ν) features, labels P(y = 1 | a) = σ(⟨w*, a⟩); ℓ2 term for the strongly convex class",
			Loss:        "ln(1 + e^{−y⟨w, a⟩}) + (λ₂/2)‖w‖²",
			Classes:     []theory.Class{theory.SmoothConvex, theory.SmoothSC},
			Tail:        &pNuCls,
			Params:      []Param{withDefault(pWstar, 2)},
			Lambda2:     &pL2SC, L2ForSC: true,
			D: 10, Diam: 6, N: 10000, Risk: "evaluation sample",
		},
		kmax:  func(p *ProblemDef) float64 { return p.Tail },
		build: buildClassifier,
	},
	{
		info: Info{
			Name:        HingeT,
			Description: "linear SVM: hinge loss, multivariate Student-t(ν) features, labels y = sign(⟨w*, a⟩ + ξ); ℓ2 term for the strongly convex class",
			Loss:        "max(0, 1 − y⟨w, a⟩) + (λ₂/2)‖w‖²",
			Classes:     []theory.Class{theory.NonsmoothConvex, theory.NonsmoothSC},
			Tail:        &pNuAbs,
			Params:      []Param{withDefault(pNoise, 0.5), withDefault(pWstar, 2)},
			Lambda2:     &pL2SC, L2ForSC: true,
			D: 10, Diam: 6, N: 10000, K: 4, Risk: "evaluation sample",
		},
		kmax:  func(p *ProblemDef) float64 { return p.Tail },
		build: buildClassifier,
	},
	{
		info: Info{
			Name:        AbsRegT,
			Description: "least-absolute-deviation (ℓ1) regression, (a, ξ) jointly multivariate Student-t(ν); closed-form F; ℓ2 term for the strongly convex class",
			Loss:        "|⟨w, a⟩ − y| + (λ₂/2)‖w‖²",
			Classes:     []theory.Class{theory.NonsmoothConvex, theory.NonsmoothSC},
			Tail:        &pNuAbs,
			Params:      []Param{pNoise, pWstar},
			Lambda2:     &pL2SC, L2ForSC: true,
			D: 10, Diam: 2, N: 10000, K: 4, Risk: "closed form",
		},
		kmax:  func(p *ProblemDef) float64 { return p.Tail },
		build: buildAbsReg,
	},
	{
		info: Info{
			Name:        LassoT,
			Description: "sparse linear regression with an ℓ1 penalty (proximal-PL), (a, ξ) jointly multivariate Student-t(ν), closed-form F",
			Loss:        "½(⟨w, a⟩ − y)² + λ₁‖w‖₁ + (λ₂/2)‖w‖²",
			Classes:     []theory.Class{theory.PPL},
			Tail:        &pNuLin,
			Params: []Param{pNoise, pWstar, pCond,
				{Name: "support", Symbol: "s/d", Meaning: "fraction of non-zero coordinates of w* (the first ⌈s·d⌉)", Default: 0.2, Min: 0, Max: 1, MinOpen: true}},
			Lambda1: &Param{Name: "lambda1", Symbol: "λ₁", Meaning: "weight of the ℓ1 penalty λ₁‖w‖₁ (the proximal part f¹)", Default: 0.05, Min: 0, Max: 1000},
			Lambda2: &Param{Name: "lambda2", Symbol: "λ₂", Meaning: "elastic-net weight (λ₂/2)‖w‖² in f¹", Default: 0, Min: 0, Max: 1000},
			D:       10, Diam: 2, N: 10000, Risk: "closed form",
		},
		kmax:  func(p *ProblemDef) float64 { return p.Tail / 2 },
		build: buildLinReg,
	},
	{
		info: Info{
			Name:        Contaminated,
			Description: "Gaussian linear regression with a fraction of huge outliers (Huber contamination): r̃_k ≈ frac^{1/k}·size²(R+1) grows with k; at the default sizes the prescribed C exceeds every outlier's gradient norm at every k, so nothing is clipped and k changes only the noise (a sweep of k shows it)",
			Loss:        "½(⟨w, a⟩ − y)²",
			Classes:     []theory.Class{theory.SmoothConvex, theory.SmoothSC, theory.PPL},
			Tail:        &Param{Name: "tail", Symbol: "η", Meaning: "contamination fraction: with probability η the sample is an outlier a = size·u (u uniform on the sphere), y = ±size", Default: 0.01, Min: 0, Max: 0.5},
			Params: []Param{withDefault(pNoise, 0.5), pWstar,
				{Name: "size", Symbol: "M", Meaning: "norm of an outlier's features and size of its label", Default: 100, Min: 1, Max: 1e6}},
			D: 10, Diam: 2, N: 10000, Risk: "closed form",
		},
		kmax:  func(*ProblemDef) float64 { return math.Inf(1) },
		build: buildContaminated,
	},
	{
		info: Info{
			Name:        MeanHard,
			Description: "the strongly convex lower-bound instance (Theorem [thm: strongly convex lower bound], eq. [eq:harddist]): ½μ‖w − x‖², x = 0 w.p. 1 − p, p^{−1/k}ν otherwise (scaled), p = min(1, √d/(n√ρ))",
			Loss:        "(μ/2)‖w − x‖²",
			Classes:     []theory.Class{theory.SmoothSC, theory.NonsmoothSC},
			Params: []Param{
				{Name: "r", Symbol: "r̃", Meaning: "the proof's moment scale: x is scaled by r̃/(2μ√d)", Default: 1, Min: 0, Max: 1e6, MinOpen: true},
				{Name: "curvature", Symbol: "μ", Meaning: "curvature of f(·, x) = (μ/2)‖w − x‖²: its strong convexity and smoothness", Default: 1, Min: 0, Max: 1e6, MinOpen: true}},
			D: 40, N: 10000, FixedDiam: true, Risk: "closed form",
		},
		kmax:     func(*ProblemDef) float64 { return math.Inf(1) },
		lfFinite: true,
		build:    buildMeanHard,
	},
	{
		info: Info{
			Name:        AffineHard,
			Description: "the convex lower-bound instance (Theorem [thm: convex lower bound]): linear loss −⟨w, x⟩, x = 0 w.p. 1 − p, p^{−1/k}ν otherwise, scaled by r̃/√d, p = min(1, √d/(n√ρ))",
			Loss:        "−⟨w, x⟩",
			Classes:     []theory.Class{theory.NonsmoothConvex, theory.SmoothConvex},
			Params: []Param{
				{Name: "r", Symbol: "r̃", Meaning: "the proof's moment scale: x is scaled by r̃/√d, so r̃_k = r̃ exactly", Default: 1, Min: 0, Max: 1e6, MinOpen: true}},
			D: 40, Diam: 2, N: 10000, Risk: "closed form",
		},
		kmax:     func(*ProblemDef) float64 { return math.Inf(1) },
		lfFinite: true,
		build:    buildAffineHard,
	},
}

func withDefault(p Param, def float64) Param {
	p.Default = def
	return p
}

// List returns the scenario catalogue in display order.
func List() []Info {
	out := make([]Info, len(catalogue))
	for i, c := range catalogue {
		out[i] = c.info
	}
	return out
}

// Lookup returns the named scenario's description.
func Lookup(name string) (Info, bool) {
	if d := lookupDef(name); d != nil {
		return d.info, true
	}
	return Info{}, false
}

func lookupDef(name string) *scenarioDef {
	for i := range catalogue {
		if catalogue[i].info.Name == name {
			return &catalogue[i]
		}
	}
	return nil
}

// ScenarioNames lists the catalogue's names in display order.
func ScenarioNames() []string {
	out := make([]string, len(catalogue))
	for i, c := range catalogue {
		out[i] = c.info.Name
	}
	return out
}

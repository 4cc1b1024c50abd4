package solvers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
)

// DefaultWorkBudget is the cap on per-sample gradient evaluations of the
// multi-pass solvers when Config.WorkBudget is 0. At d = 50 one evaluation
// (gradient, clip, accumulate) costs about 0.1–0.2 µs, so the default run of
// "localized" or "klz-gd" finishes in a few seconds; the theorem's T_i are
// Õ(n_i^{1+1/k}) and exceed it already for n ≈ 10³.
const DefaultWorkBudget int64 = 20_000_000

// DefaultCheckpoints is the number of log-spaced progress checkpoints when
// Config.Checkpoints is 0.
const DefaultCheckpoints = 64

// validateConfig checks the fields every solver reads. It does not look at
// the problem's constants.
func validateConfig(cfg Config) error {
	switch {
	case math.IsNaN(cfg.Eps) || cfg.Eps <= 0:
		return &ConfigError{"eps", fmt.Sprintf("ε = %s; want ε in (0, ∞] (∞ means no privacy)", exactNum(cfg.Eps))}
	case math.IsNaN(cfg.K) || cfg.K < 2:
		return &ConfigError{"k", fmt.Sprintf("k = %s; want k in [2, ∞] (the moment order of Assumption 1)", exactNum(cfg.K))}
	case cfg.Assumption != "" && cfg.Assumption != AssumeTilde && cfg.Assumption != AssumeNoncentral && cfg.Assumption != AssumeCoordinatewise:
		return &ConfigError{"assumption", fmt.Sprintf("unknown assumption %q (want tilde, noncentral or coordinatewise)", cfg.Assumption)}
	case cfg.Iters < 0:
		return &ConfigError{"iters", fmt.Sprintf("T = %d; want T ≥ 1, or 0 for the prescribed value", cfg.Iters)}
	case math.IsNaN(cfg.Clip) || cfg.Clip < 0:
		return &ConfigError{"clip", fmt.Sprintf("C = %s; want C in (0, ∞], or 0 for the prescribed value", exactNum(cfg.Clip))}
	case math.IsInf(cfg.Clip, 1) && !math.IsInf(cfg.Eps, 1):
		return &ConfigError{"clip", "C = ∞ (no clipping) has unbounded sensitivity, so no finite noise makes it private; it needs ε = ∞"}
	case math.IsNaN(cfg.Step) || math.IsInf(cfg.Step, 0) || cfg.Step < 0:
		return &ConfigError{"step", fmt.Sprintf("step = %s; want a finite step > 0, or 0 for the prescribed value", exactNum(cfg.Step))}
	case cfg.WorkBudget < 0:
		return &ConfigError{"work-budget", fmt.Sprintf("%d; want ≥ 1 gradient evaluations, or 0 for the default %d", cfg.WorkBudget, DefaultWorkBudget)}
	case cfg.Checkpoints < 0 || cfg.Checkpoints > 1_000_000:
		return &ConfigError{"checkpoints", fmt.Sprintf("%d; want 0 (default %d) to 1000000", cfg.Checkpoints, DefaultCheckpoints)}
	case cfg.Rand != Seeded && cfg.Rand != Secure:
		return &ConfigError{"rand", fmt.Sprintf("%s; want seeded or secure", cfg.Rand)}
	}
	return nil
}

// oracleName resolves the "" default.
func oracleName(cfg Config, def string) string {
	if cfg.Oracle == "" {
		return def
	}
	return cfg.Oracle
}

// newOracle makes the configured oracle and checks its kind's settings; in
// Secure mode its Gaussian noise is exact (oracle.SetExactNoise).
func newOracle(name string, cfg Config) (oracle.Oracle, error) {
	o, err := oracle.New(name)
	if err != nil {
		return nil, &ConfigError{"oracle", err.Error()}
	}
	oracle.SetExactNoise(o, cfg.Rand == Secure)
	if o.Kind() == oracle.Shuffle && !(cfg.Delta > 0 && cfg.Delta < 0.5) {
		return nil, &ConfigError{"delta", fmt.Sprintf("δ = %s; the shuffle oracle %q is (ε, δ)-shuffle DP and needs δ in (0, 1/2)", exactNum(cfg.Delta), name)}
	}
	return o, nil
}

// callCost is what one oracle call that owns a fraction 1/share of the
// per-sample budget costs: ρ/share for zCDP oracles (zCDP composes
// additively, Lemma "composition"), (ε, δ) for shuffle oracles (share must
// be 1: the one-pass solvers only).
func callCost(kind oracle.Kind, cfg Config, share float64) ledger.Cost {
	b := cfg.Budget(kind)
	b.Rho /= share
	return b
}

// refuseShuffle is the error of the multi-pass solvers for shuffle oracles.
func refuseShuffle(solver, name string) error {
	return &ConfigError{"oracle", fmt.Sprintf("%s makes many passes over each sample and composes their privacy in zCDP; "+
		"the shuffle oracle %q is (ε, δ)-shuffle DP, and the paper's analysis does not cover composing (ε, δ) over those passes; "+
		"use clip-gaussian or coordinate", solver, name)}
}

// consts wraps a problem's declared constants with the errors the
// prescriptions need.
type consts struct {
	c Constants
	k float64
	// a is the assumption whose constants moment returns; d the dimension
	// (for AssumeCoordinatewise).
	a Assumption
	d float64
	// eps is the ε the prescription's formulas use: the zCDP ε, or
	// ε/ln(d/δ) for a shuffle oracle (shuffleEps).
	eps float64
}

func (c consts) D() (float64, error) {
	d := c.c.D
	if !(d > 0) || math.IsInf(d, 0) {
		return 0, &ConfigError{"D", fmt.Sprintf("diameter D = %s; the problem must declare a finite D > 0 (W = B(0, D/2))", exactNum(d))}
	}
	return d, nil
}

// betaOrAffine is beta, or 0 for an affine loss (Constants.Affine): acsa's
// prescription is defined at β = 0 (T = 1); the others divide by β.
func (c consts) betaOrAffine() (float64, error) {
	if c.c.Beta == 0 && c.c.Affine {
		return 0, nil
	}
	return c.beta()
}

func (c consts) beta() (float64, error) {
	b := c.c.Beta
	if !(b > 0) || math.IsInf(b, 0) {
		return 0, &ConfigError{"beta", "the prescription needs the smoothness β of F, which the problem does not declare (give a finite β > 0, or override iters and step)"}
	}
	return b, nil
}

func (c consts) mu() (float64, error) {
	m := c.c.Mu
	if !(m > 0) || math.IsInf(m, 0) {
		return 0, &ConfigError{"mu", "the prescription needs the strong convexity (or proximal-PL) parameter μ, which the problem does not declare (give a finite μ > 0)"}
	}
	return m, nil
}

// moment returns r̃_j for the moment order j (j = +Inf: L_f). field is the
// name used in errors: "rk", "r2k", "r2" or "lf".
func (c consts) moment(j float64, field string) (float64, error) {
	switch c.a {
	case AssumeNoncentral, AssumeCoordinatewise:
		return c.supMoment(j)
	}
	var v float64
	if math.IsInf(j, 1) {
		v = c.c.Lf
		if math.IsNaN(v) || v <= 0 {
			return 0, &ConfigError{"lf", "the prescription at k = ∞ needs the worst-case Lipschitz parameter L_f, which the problem does not declare"}
		}
		if math.IsInf(v, 1) {
			return 0, &ConfigError{"k", "r̃_k = ∞ at k = ∞ (the worst-case Lipschitz parameter L_f is infinite); choose a finite k"}
		}
		return v, nil
	}
	v = c.c.R(j)
	if math.IsNaN(v) && c.c.Moment == nil && math.IsInf(c.k, 1) && c.c.Lf > 0 && !math.IsInf(c.c.Lf, 1) {
		// The Lipschitz regime without a moment profile: r̃_j ≤ L_f.
		v = c.c.Lf
	}
	switch {
	case math.IsNaN(v):
		return 0, &ConfigError{field, fmt.Sprintf("the prescription needs the moment r̃_%s (Assumption 1), which the problem does not declare (or override iters, clip and step)", formatOrder(j))}
	case math.IsInf(v, 1):
		if field == "r2" {
			return 0, &ConfigError{"r2", "r̃_2 = ∞: the gradients have no finite second moment, so Assumption 1 fails for every k ≥ 2"}
		}
		advice := "use data with lighter tails, or declare the moment (" + field + ")"
		if c.k > 2 {
			advice = "choose a smaller k (k ≥ 2), " + advice
		}
		return 0, &ConfigError{"k", fmt.Sprintf("r̃_%s = ∞ at k = %s: %s", formatOrder(j), formatOrder(c.k), advice)}
	case v <= 0:
		return 0, &ConfigError{field, fmt.Sprintf("r̃_%s = %s; a declared moment must be > 0", formatOrder(j), exactNum(v))}
	}
	return v, nil
}

// supMoment is r_j under AssumeNoncentral, and the bound of Lemma "lem:
// comparing assumptions" on it under AssumeCoordinatewise.
func (c consts) supMoment(j float64) (float64, error) {
	var v float64
	what := fmt.Sprintf("r_%s (Assumption ass:boundednoncentral)", formatOrder(j))
	if c.a == AssumeNoncentral {
		if c.c.Noncentral == nil {
			return 0, &ConfigError{"assumption", "the problem declares no " + what + "; use the assumption tilde"}
		}
		v = c.c.Noncentral(j)
	} else {
		what = fmt.Sprintf("γ_%s (Assumption ass:coordinatewise)", formatOrder(j))
		if c.c.Coord == nil {
			return 0, &ConfigError{"assumption", "the problem declares no " + what + "; use the assumption tilde"}
		}
		v = rkFromCoord(j, c.d, c.c.Coord(j), c.c.GradSup)
	}
	switch {
	case math.IsNaN(v):
		return 0, &ConfigError{"assumption", "the problem's " + what + " is not known; use the assumption tilde"}
	case math.IsInf(v, 1):
		return 0, &ConfigError{"k", fmt.Sprintf("%s = ∞ at k = %s; choose a smaller k", what, formatOrder(c.k))}
	case v <= 0:
		return 0, &ConfigError{"assumption", fmt.Sprintf("%s = %g; the prescription needs it > 0", what, v)}
	}
	return v, nil
}

func (c consts) rk() (float64, error)  { return c.moment(c.k, "rk") }
func (c consts) r2k() (float64, error) { return c.moment(2*c.k, "r2k") }
func (c consts) r2() (float64, error)  { return c.moment(2, "r2") }

func formatOrder(k float64) string {
	if math.IsInf(k, 1) {
		return "∞"
	}
	return exactNum(k)
}

// clipBias is the bias bound of MeanOracle1, Lemma "bias and variance of
// bd14": B = r^{(k)}/((k−1)C^{k−1}) = r·(r/C)^{k−1}/(k−1) with r = r̃_k.
// It is 0 without clipping (C = ∞). At k = ∞ (r = L_f) no gradient exceeds
// C ≥ L_f, so B = 0; for C < L_f it is the trivial ‖E z − E Π_C z‖ ≤
// E(‖z‖ − C)₊ ≤ L_f − C.
func clipBias(k, r, c float64) float64 {
	switch {
	case math.IsInf(c, 1):
		return 0
	case math.IsInf(k, 1):
		return math.Max(0, r-c)
	}
	return r * math.Pow(r/c, k-1) / (k - 1)
}

// invK is 1/k, 0 at k = ∞.
func invK(k float64) float64 { return 1 / k }

// ceilClamp is ⌈x⌉ clamped to [lo, hi]; NaN and +Inf go to hi. It also
// reports whether the clamp changed the value. The ceiling forgives a
// relative excess of 1e-12, so that a formula whose exact value is an
// integer (e.g. 10⁴^{1/4} = 10.000000000000002 in floating point) is not
// pushed to the next one by rounding.
func ceilClamp(x float64, lo, hi int) (int, bool) {
	x -= 1e-12 * math.Abs(x)
	switch {
	case math.IsNaN(x) || x >= float64(hi):
		return hi, !(x <= float64(hi))
	case x <= float64(lo):
		return lo, math.Ceil(x) < float64(lo)
	}
	return int(math.Ceil(x)), false
}

// overrides lists the overridden parameters of cfg.
func overrides(cfg Config) []string {
	var o []string
	if cfg.Iters > 0 {
		o = append(o, "iters")
	}
	if cfg.Clip > 0 {
		o = append(o, "clip")
	}
	if cfg.Step > 0 {
		o = append(o, "step")
	}
	return o
}

// markOverrides fills Params.Prescribed and Params.Overridden and adds the
// note that the theorem's prescription is not in force.
func markOverrides(pr *Params, cfg Config) {
	pr.Overridden = overrides(cfg)
	pr.Prescribed = len(pr.Overridden) == 0
	if !pr.Prescribed {
		pr.Notes = append(pr.Notes, fmt.Sprintf("overridden: %s; the theorem's prescription is not in force", strings.Join(pr.Overridden, ", ")))
	}
}

// oracleSigma is the per-coordinate noise σ an oracle adds for a call with
// these parameters, from a dry Begin on a fresh oracle when it reports it
// (interface{ Sigma() float64 }); NaN when it does not say before a call.
func oracleSigma(name string, d, s int, c float64, cost ledger.Cost) float64 {
	return newSigmaProbe(name).sigma(d, s, c, cost)
}

// sigmaProbe asks one oracle instance for σ at several parameters (Begin
// reuses its buffers, so repeated probes do not allocate).
type sigmaProbe struct{ o oracle.Oracle }

func newSigmaProbe(name string) sigmaProbe {
	o, err := oracle.New(name)
	if err != nil {
		return sigmaProbe{}
	}
	oracle.SetRand(o, rand.New(rand.NewPCG(0, 0))) // a dry run draws nothing
	return sigmaProbe{o}
}

// sigmaL2 is sigma at the oracle's own clip parameter for the ℓ2 threshold c.
func (p sigmaProbe) sigmaL2(d, s int, c float64, cost ledger.Cost) float64 {
	if p.o == nil {
		return math.NaN()
	}
	return p.sigma(d, s, p.o.Threshold(c, d), cost)
}

func (p sigmaProbe) sigma(d, s int, c float64, cost ledger.Cost) float64 {
	if p.o == nil {
		return math.NaN()
	}
	if err := p.o.Begin(d, s, c, cost); err != nil {
		return math.NaN()
	}
	if sg, ok := p.o.(interface{ Sigma() float64 }); ok {
		return sg.Sigma()
	}
	return math.NaN()
}

// kindOf is the named oracle's privacy model (ZCDP for an unknown name,
// which newOracle reports).
func kindOf(name string) oracle.Kind {
	k, _ := oracle.KindOf(name)
	return k
}

// addNote appends a note unless it is already there.
func addNote(notes *[]string, s string) {
	for _, n := range *notes {
		if n == s {
			return
		}
	}
	*notes = append(*notes, s)
}

// Assumption names the bounded-moment assumption whose constants a
// prescription reads (the names are theory.Assumption's; a test holds them
// equal). Under AssumeNoncentral and AssumeCoordinatewise the one-pass
// prescriptions (acsa, clipped-sgd, prox-sgd: their precise theorems grant
// "ass:boundednoncentral") read r_k and r_2 (Constants.Noncentral), or the
// bound of Lemma "lem: comparing assumptions" r_k ≤ 2(L^k + d^{k/2}γ_k)^{1/k}
// (Constants.Coord and GradSup; 2^{1+1/k}√d·γ_k^{1/k} when L is not known),
// in place of r̃_k and r̃_2; the localized methods, whose theorems need
// "ass:tilde", refuse them.
type Assumption string

// The assumptions.
const (
	AssumeTilde          Assumption = "tilde"
	AssumeNoncentral     Assumption = "noncentral"
	AssumeCoordinatewise Assumption = "coordinatewise"
)

// rkFromCoord is the proof's bound of Lemma "lem: comparing assumptions",
// r_k ≤ 2(L^k + d^{k/2}γ_k)^{1/k} with gk = γ_k^{1/k}; L = NaN takes the
// assumption's own L ≤ √d·γ_k^{1/k} (2^{1+1/k}√d·γ_k^{1/k}); k = ∞ gives
// 2·max(L, √d·γ_∞). The same as theory.RkFromCoordinatewise (a test holds
// them equal).
func rkFromCoord(k, d, gk, L float64) float64 {
	g := math.Sqrt(d) * gk
	if math.IsNaN(L) {
		L = g
	}
	m := math.Max(L, g)
	if math.IsInf(k, 1) || m == 0 || math.IsInf(m, 1) {
		return 2 * m
	}
	return 2 * m * math.Pow(math.Pow(L/m, k)+math.Pow(g/m, k), 1/k)
}

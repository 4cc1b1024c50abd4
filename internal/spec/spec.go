package spec

import (
	"errors"
	"fmt"
	"math/bits"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// Spec is the single, serializable description of a run that both the CLI
// flags and the explorer's form fill in. Its JSON names are the CLI's
// kebab-case flag names, which are also the Field of every *SpecError; the
// table Fields lists them with their ranges and help texts.
//
// A zero field means "the default", documented on each field; Resolve
// makes every default explicit. Lambda1/Lambda2 are pointers because 0 is a
// meaningful weight; Params holds the scenario's other adjustable
// parameters by name (see scenarios.Info.Params).
type Spec struct {
	// Scenario is a catalogue name (see scenarios.List); default
	// "example1" unless Data is set.
	Scenario string `json:"scenario,omitempty"`
	// Data is a CSV file of user data (last column the label); exclusive
	// with Scenario.
	Data string `json:"data,omitempty"`
	// Loss is the loss for user data: squared (default), logistic, hinge,
	// absolute.
	Loss string `json:"loss,omitempty"`
	// EstimateConstants computes undeclared constants of user data from the
	// data itself. That is NOT private, and every result says so.
	EstimateConstants bool `json:"estimate-constants,omitempty"`
	// Constants says where the constants the prescription reads come
	// from: "declared" (the default, kept as ""): the scenario's, or the
	// flags'; "private" or "private:S": estimated from each trial's data
	// under zCDP with the share S ∈ (0, 1) of ρ (default
	// DefaultConstantsShare; scenarios.Instance.EstimatePrivately), the
	// run getting the rest. Resolve writes the share it reads as
	// Resolved.ConstantsShare.
	Constants string `json:"constants,omitempty"`
	// Holdout is the fraction of user data's rows held out from every
	// solver, [0, scenarios.MaxHoldout]; the report gives the held-out loss
	// (a non-private diagnostic) beside the in-sample excess risk.
	Holdout float64 `json:"holdout,omitempty"`

	// Class is the loss class; default the scenario's first class (user
	// data: smooth-convex for squared/logistic, nonsmooth-convex for
	// hinge/absolute).
	Class theory.Class `json:"class,omitempty"`
	// Solver is a registered solver name; default the paper's algorithm for
	// the class (solvers.PaperSolver).
	Solver string `json:"solver,omitempty"`
	// Oracle is a mean-oracle name (see oracle.Names). "" (the default,
	// kept as "" by Resolve) lets each solver use its own (its
	// Descriptor's DefaultOracle): clip-gaussian (MeanOracle1) for the
	// paper's algorithms and the DP-SGD baselines, coordinate (MeanOracle2)
	// for klz-gd, so that Compare can mix them.
	Oracle string `json:"oracle,omitempty"`

	K   float64 `json:"k,omitempty"`   // moment order k ∈ [2, ∞]; default 2, or the scenario's Info.K (4 for hinge-t, absreg-t) when the moments the solver needs exist at the tail
	Eps float64 `json:"eps,omitempty"` // zCDP ε ∈ (0, ∞] (ρ = ε²/2); default 1
	// Delta is the run's δ: of the shuffle oracles' (ε, δ) guarantee, in
	// (0, 1/2) (default 1e-6); otherwise the δ at which the run's
	// (ε', δ)-DP equivalent is stated and dp-sgd's accountant is
	// calibrated, in (0, 1) (default 1e-5).
	Delta float64 `json:"delta,omitempty"`
	// Assumption is the moment assumption whose constants the
	// prescription reads: tilde (r̃_k, the default, kept as ""),
	// noncentral (r_k) or coordinatewise (γ_k); see theory.Assumption.
	Assumption string `json:"assumption,omitempty"`

	// N is the number of samples, [2, 10⁸]; default the scenario's Info.N,
	// except for the non-smooth classes: there the largest n ≤ Info.N
	// (Info.N or a power of two) whose full localized / localized-sc
	// schedule fits the work budget (solvers.WorkBounded ≤ WorkBudget),
	// e.g. 512 at k = 2 and 1024 at k = 4 for localized; user data: all rows.
	N    int     `json:"n,omitempty"`
	D    int     `json:"d,omitempty"`    // dimension, [1, 10⁴]; default the scenario's (user data: columns − 1)
	Diam float64 `json:"diam,omitempty"` // diameter D of W = B(0, D/2), (0, 10⁶]; default the scenario's (user data: 2)
	Tail float64 `json:"tail,omitempty"` // the scenario's tail parameter (ν, α or η); default the scenario's

	Lambda1 *float64           `json:"lambda1,omitempty"` // ℓ1 weight (lasso-t, user data with class ppl)
	Lambda2 *float64           `json:"lambda2,omitempty"` // ℓ2 weight (see Info.Lambda2)
	Params  map[string]float64 `json:"params,omitempty"`  // other scenario parameters by name

	// Overrides of the declared constants; 0 = declared. A solver whose
	// prescription reads one says "the prescription uses user-given
	// constants (…)", naming those it reads.
	Beta float64 `json:"beta,omitempty"` // smoothness β, [0, 10¹²]
	Mu   float64 `json:"mu,omitempty"`   // strong convexity μ, [0, 10¹²]
	R2   float64 `json:"r2,omitempty"`   // r̃_2, [0, ∞)
	Rk   float64 `json:"rk,omitempty"`   // r̃_k, [0, ∞)
	R2k  float64 `json:"r2k,omitempty"`  // r̃_2k, [0, ∞)
	Lf   float64 `json:"lf,omitempty"`   // L_f, [0, ∞]

	// Overrides of the solver's prescription; 0 = prescribed.
	Iters int     `json:"iters,omitempty"` // T, [0, 10⁹]
	Clip  float64 `json:"clip,omitempty"`  // C, [0, ∞] (∞ only with eps = ∞)
	Step  float64 `json:"step,omitempty"`  // step-size parameter, [0, 10¹²]

	// dp-sgd's settings (other solvers do not read them, and a call
	// without dp-sgd refuses them: CheckSolverFields); 0 or "" = its
	// default (solvers.DPSGD). Batch and SamplingRate exclude each other.
	Accountant     string  `json:"accountant,omitempty"`       // rdp | pld (default pld)
	Adjacency      string  `json:"adjacency,omitempty"`        // replace-one | add-remove (default replace-one: the paper's)
	Batch          int     `json:"batch,omitempty"`            // expected batch B = qn, [0, 10⁸]; default min(256, n)
	SamplingRate   float64 `json:"sampling-rate,omitempty"`    // Poisson rate q ∈ (0, 1]; default B/n
	Epochs         float64 `json:"epochs,omitempty"`           // expected passes E ∈ (0, 10⁶]; default 5
	AdaptiveClip   bool    `json:"adaptive-clip,omitempty"`    // quantile-based adaptive clipping
	ClipQuantile   float64 `json:"clip-quantile,omitempty"`    // its target quantile γ ∈ (0, 1); default 0.5
	ClipRate       float64 `json:"clip-rate,omitempty"`        // its rate η_C ∈ (0, 100]; default 0.2
	ClipCountNoise float64 `json:"clip-count-noise,omitempty"` // its count noise σ_b ∈ (0, ∞); default B/20

	// klz-gd's overrides (refused for a call without klz-gd, as dp-sgd's);
	// 0 = prescribed.
	KLZGroups int     `json:"klz-groups,omitempty"` // m, [0, 10⁸]
	KLZTau    float64 `json:"klz-tau,omitempty"`    // τ, [0, ∞] (∞ only with eps = ∞; not with clip)

	Trials int    `json:"trials,omitempty"` // [1, 10⁴]; default 5 on a scenario, 1 on user data (every trial on the same rows costs its budget again)
	Seed   uint64 `json:"seed,omitempty"`   // any; default 0
	// Rand is the randomness: seeded | secure; default seeded on a
	// scenario (reproducible) and secure on user data, where seeded noise
	// is not private (anyone with the seed removes it) and must be asked
	// for.
	Rand string `json:"rand,omitempty"`
	// SplitBudget divides the budget ε among everything a call releases
	// from the same data (trials × solvers × sweep points on user data):
	// each release gets ρ/m (zCDP) or (ε/m, δ/m) (shuffle), so that the
	// total is the ε given. Without it each release gets the full budget
	// and the outputs say what the total is.
	SplitBudget bool `json:"split-budget,omitempty"`

	Workers     int   `json:"workers,omitempty"`     // goroutines, [0, 4096]; 0 = GOMAXPROCS
	WorkBudget  int64 `json:"work-budget,omitempty"` // gradient evaluations, [0, 10¹⁵]; 0 = the solver's default
	Checkpoints int   `json:"checkpoints,omitempty"` // progress checkpoints, [0, 10⁴]; 0 = the solvers' 64
}

// Limits and defaults of the run's fields (the problem's are scenarios').
const (
	MaxTrials = 10_000
	// DefaultEps is the default zCDP ε.
	DefaultEps    = 1.0
	DefaultTrials = 5
	// DefaultDataTrials is the default number of trials on user data: one
	// release of the budget.
	DefaultDataTrials = 1
	// MinEps and MaxEps bound a finite zCDP ε: beyond them ρ = ε²/2, or
	// the noise σ ∝ 1/ε (σ² ∝ 1/ρ) of the oracles, leaves the range where
	// float64 holds it with full precision (ε = 1e-100 is ρ = 5e-201, a
	// budget of no use; ε = 1e100 adds noise of order 1e-100, none at
	// all). ε = ∞ (no privacy) is allowed.
	MinEps = 1e-100
	MaxEps = 1e100
	// MinDelta bounds δ from below (theory.MinDelta).
	MinDelta = theory.MinDelta
	// DefaultDelta is δ for the shuffle oracles when unset.
	DefaultDelta = 1e-6
	// MaxDelta is the shuffle protocols' bound on δ (δ < 1/2).
	MaxDelta = 0.5
	// DefaultConstantsShare is ρ₀/ρ of private constants when no share
	// is given.
	DefaultConstantsShare = 0.1
	// ConstantsPrivate is --constants' value for private estimates.
	ConstantsPrivate = "private"
	// DefaultConversionDelta is the δ of a zCDP run when unset: the δ at
	// which its (ε', δ)-DP equivalent is shown and dp-sgd's accountant is
	// calibrated, as `dpso privacy`'s default.
	DefaultConversionDelta = 1e-5
	// DefaultAccountant is dp-sgd's accountant when unset.
	DefaultAccountant = "pld"
	// ReplaceOne is the paper's neighbouring relation (datasets at
	// Hamming distance 1), every solver's, and dp-sgd's default; AddRemove
	// (one record added or removed) is dp-sgd's by --adjacency, to
	// reproduce practitioners' accounting.
	ReplaceOne = "replace-one"
	AddRemove  = "add-remove"
	// MaxEpochs caps epochs.
	MaxEpochs = 1e6
	// MaxClipRate caps clip-rate.
	MaxClipRate = 100
	// MaxIters caps the override iters.
	MaxIters = 1_000_000_000
	// MaxWorkers caps workers.
	MaxWorkers = 4096
	// MaxWorkBudget caps work-budget (gradient evaluations).
	MaxWorkBudget = 1_000_000_000_000_000
	// MaxCheckpoints caps checkpoints.
	MaxCheckpoints = 10_000
)

// SpecError is an invalid Spec: Field is the CLI's flag name ("eps", "k",
// "n", "tail", a scenario parameter's name, …; FlagName maps the few other
// names errors use) and Msg says the allowed range or rule. It is the
// problem library's own field error, so that errors of a problem's rules
// and of the run's are one type. The CLI maps it to exit status 2; the
// explorer shows it next to the field.
type SpecError = scenarios.FieldError

func specErr(field, format string, a ...any) error {
	return &SpecError{Field: field, Msg: sprintf(format, a...)}
}

// UserInput is an error of the user's input, as UserInputOf finds it:
// the flag whose value is at fault and what is wrong with it.
type UserInput struct {
	// Flag is the flag, without "--": FlagName of a *SpecError's or a
	// *solvers.ConfigError's field, "data" for a *scenarios.DataError,
	// "solver" for a *solvers.RefusedError.
	Flag string
	// Msg says what is wrong: the error's message, a data error's Detail
	// (its file, line and column), a refusal's reason.
	Msg string
	// Refused is the solver of a *solvers.RefusedError ("" for the
	// others).
	Refused string
}

// UserInputOf reports whether err is the user's input — a *SpecError, a
// *scenarios.DataError, a *solvers.ConfigError or a *solvers.RefusedError,
// the one list of them — and what it says (a refusal first, then in that
// order, where an error wraps several). The CLI prints them as usage
// errors (exit status 2) naming the flag.
func UserInputOf(err error) (UserInput, bool) {
	var se *SpecError
	var de *scenarios.DataError
	var ce *solvers.ConfigError
	var re *solvers.RefusedError
	switch {
	case errors.As(err, &re):
		return UserInput{Flag: "solver", Msg: re.Reason, Refused: re.Solver}, true
	case errors.As(err, &se):
		return UserInput{Flag: FlagName(se.Field), Msg: se.Msg}, true
	case errors.As(err, &de):
		return UserInput{Flag: "data", Msg: de.Detail()}, true
	case errors.As(err, &ce):
		return UserInput{Flag: FlagName(ce.Field), Msg: ce.Msg}, true
	}
	return UserInput{}, false
}

// FlagName is the CLI flag (without "--") that sets the field an error
// names: the field itself for a Spec field or a scenario parameter, and for
// the solvers' own *solvers.ConfigError names "D" → "diam" and "problem",
// "schedule" → "solver". It is the one mapping from error fields to flags.
func FlagName(field string) string {
	switch field {
	case "D":
		return "diam"
	case "problem", "schedule":
		return "solver"
	}
	return field
}

// Validate reports the first invalid field of s as a *SpecError, checking
// every field's range and every cross-field rule. It is cheap: no I/O (a
// data file is read when its problem is built) and no Monte Carlo.
func (s Spec) Validate() error {
	_, err := s.Resolve()
	return err
}

// Clone copies s deeply (Params and the λ pointers).
func (s Spec) Clone() Spec {
	c := s
	if s.Params != nil {
		c.Params = make(map[string]float64, len(s.Params))
		for k, v := range s.Params {
			c.Params[k] = v
		}
	}
	if s.Lambda1 != nil {
		v := *s.Lambda1
		c.Lambda1 = &v
	}
	if s.Lambda2 != nil {
		v := *s.Lambda2
		c.Lambda2 = &v
	}
	return c
}

// defaultN is the default sample size of a scenario whose catalogue
// default is n0, at class c, moment order k and work budget wb: n0, except
// for the non-smooth classes, whose paper algorithms (localized,
// localized-sc; the baselines reuse their schedules) make Õ(n^{2+1/k})
// gradient evaluations (Theorem "localization convex"; their solvers are
// solvers.WorkBounded). There it is the largest n — n0 itself or a power
// of two below it — whose full prescribed schedule is sure to fit the work
// budget (ScheduleWork ≤ wb, default solvers.DefaultWorkBudget), so that a default run executes
// the theorem's T_i in full and takes seconds, rather than having every
// T_i cut by the budget (at n0 = 10⁴, k = 2 by a factor 10⁻³, which leaves
// the iterate at w₀). With the default budget: localized n = 512 at k = 2,
// 1024 at k = 4; localized-sc n = 1024 at k = 2, 2048 at k = 4. If even the
// smallest n the solver accepts does not fit, that n (the budget then
// binds, and the run says so).
func defaultN(n0 int, c theory.Class, k float64, wb int64) int {
	d, _ := solvers.PaperSolver(c)
	solver, ok := d.Solver.(solvers.WorkBounded)
	if !ok {
		return n0
	}
	budget := float64(solvers.DefaultWorkBudget)
	if wb > 0 {
		budget = float64(wb)
	}
	fits := func(n int) bool {
		w, ok := solver.ScheduleWork(n, k)
		return ok && w <= budget
	}
	if fits(n0) {
		return n0
	}
	smallest := 0
	for m := 1 << (bits.Len(uint(n0)) - 1); m >= 2; m /= 2 {
		if m == n0 {
			continue
		}
		if _, ok := solver.ScheduleWork(m, k); !ok {
			break
		}
		smallest = m
		if fits(m) {
			return m
		}
	}
	if smallest == 0 {
		return n0
	}
	return smallest
}

// defaultNNote says why the default n is not the catalogue's n0 ("" when
// it is): the non-smooth classes' localized schedules (defaultN).
func defaultNNote(n0, n int, c theory.Class, k float64, wb int64) string {
	if n == n0 {
		return ""
	}
	d, _ := solvers.PaperSolver(c)
	budget := float64(solvers.DefaultWorkBudget)
	if wb > 0 {
		budget = float64(wb)
	}
	var w float64
	solver, ok := d.Solver.(solvers.WorkBounded)
	if ok {
		w, ok = solver.ScheduleWork(n, k)
	}
	if !ok || w > budget {
		return fmt.Sprintf("n = %d (default for class %s): the smallest n %s accepts; even its schedule at k = %s exceeds the work budget of %s gradient evaluations, which binds (set n, or a larger work budget)",
			n, c, d.Name(), theory.Human.Format(k), theory.Human.Format(budget))
	}
	return fmt.Sprintf("n = %d (the default for class %s; the catalogue's is %d): the largest n whose full %s schedule at k = %s fits the work budget of %s gradient evaluations (it makes %s), so the theorem's T_i run in full; set n for another",
		n, c, n0, d.Name(), theory.Human.Format(k), theory.Human.Format(budget), theory.Human.Format(w))
}

// defaultNotes are Resolved.DefaultNotes of the resolved problem p
// (before resolution: unresolved): a note when n is its class's default
// and not the catalogue's, and when k is the scenario's own moment order
// (Info.K), or DefaultK because the moments the solver needs do not exist
// at Info.K. They depend on the resolved values only, not on whether the
// user typed them, so that resolving a resolved Spec gives the same notes.
func defaultNotes(solver string, unresolved, p scenarios.ProblemDef, wb int64) []string {
	if p.Data != "" && unresolved.Diam == 0 {
		// D is never chosen from the rows: the default is a fixed number,
		// and the run says when the rows' minimizer lies outside W.
		return []string{fmt.Sprintf("D = %s: the default diameter on --data (W = B(0, %s)), not chosen from the rows; give --diam from what you know of the problem (the run says when the rows' empirical risk minimizer lies outside W)",
			theory.FormatNumber(p.Diam), theory.FormatNumber(p.Diam/2))}
	}
	in, ok := scenarios.Lookup(p.Scenario)
	if !ok || p.Data != "" {
		return nil
	}
	var out []string
	if n := defaultN(in.N, p.Class, p.K, wb); p.N == n {
		if note := defaultNNote(in.N, n, p.Class, p.K, wb); note != "" {
			out = append(out, note)
		}
	}
	if in.K == 0 {
		return out
	}
	q := unresolved.Clone()
	q.K, q.N = 0, p.N
	if q.Resolve(nil) != nil || q.K != p.K {
		return out // k is not the default
	}
	tail := ""
	if in.Tail != nil {
		tail = " at " + in.Tail.Symbol + " = " + theory.FormatNumber(p.Tail)
	}
	if p.K == in.K {
		return append(out, fmt.Sprintf("k = %s: %s's default moment order (its moments exist%s); set k for another", theory.FormatNumber(p.K), in.Name, tail))
	}
	return append(out, fmt.Sprintf("k = %s, not %s's usual %s: the moments %s needs at k = %s do not exist%s; set k for another",
		theory.FormatNumber(p.K), in.Name, theory.FormatNumber(in.K), solver, theory.FormatNumber(in.K), tail))
}

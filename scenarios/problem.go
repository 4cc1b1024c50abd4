package scenarios

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"dpso/theory"
)

// Limits of a problem's fields.
const (
	// MaxN caps n: beyond 10⁸ samples a run is not interactive.
	MaxN = 100_000_000
	// MaxFloats caps n·(sample length) where a dataset is materialized
	// (user data, read into memory; a multi-pass solver's copy of a
	// synthetic one: spec.Resolved.CheckSize): 2·10⁸ floats are 1.6 GB. A
	// streamed run is held to MaxN only.
	MaxFloats = 200_000_000
	// MaxD caps the dimension d.
	MaxD = 10_000
	// MaxDiam caps the diameter D of W.
	MaxDiam = 1e6
	// MaxConstant caps the overrides of β and μ (and a solver's step).
	MaxConstant = 1e12
	// MaxDataLambda caps user data's ℓ1 and ℓ2 weights.
	MaxDataLambda = 1000
	// MaxHoldout caps the held-out fraction of user data's rows.
	MaxHoldout = 0.9
	// DefaultK is the moment order k when neither the run nor the scenario
	// sets one.
	DefaultK = 2.0
	// DefaultDataDiam is the default diameter for user data (W the unit ball).
	DefaultDataDiam = 2.0
)

// FieldError is an invalid field of a problem (or of a run: package
// internal/spec uses the same type as its SpecError): Field is the field's
// name, which is the CLI's flag name ("n", "tail", a scenario parameter's
// name, …), and Msg says the allowed range or rule.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, a ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// ConstantNeeds says which declared constants a run's prescription reads,
// so that a problem asks for exactly those (user data must declare them).
type ConstantNeeds struct {
	// None: iterations, clip threshold and step are all given, so nothing
	// is prescribed and no constant is needed.
	None bool
	// R2k: the prescription reads r̃_2k as well as r̃_k (the localized
	// methods, Theorem "localization convex").
	R2k bool
	// Solver names the solver in messages about what it needs.
	Solver string
}

// ProblemDef is what defines a problem: a catalogue scenario (or a CSV file
// of user data with its loss), the loss class, the sizes, the distribution's
// parameters and any constants the user declares instead of the
// distribution's. Package internal/spec fills it in from a run's Spec;
// [ProblemDef.Resolve] makes every default explicit and checks every
// scenario-dependent rule, and [Build] turns a resolved ProblemDef into an
// [*Instance].
//
// A zero field means "the default", as in the Spec. Lambda1/Lambda2 are
// pointers because 0 is a meaningful weight; Params holds the scenario's
// other parameters by name (see Info.Params).
type ProblemDef struct {
	Scenario string // a catalogue name; default DefaultScenario unless Data is set
	Data     string // a CSV file of user data (the label last)
	Loss     Loss   // user data's loss; default Squared
	// EstimateConstants computes user data's undeclared constants from the
	// data itself. That is NOT private, and every result says so.
	EstimateConstants bool
	// PrivateConstants: the constants the prescription reads and no flag
	// gives are estimated privately from each trial's data when it runs
	// (Instance.EstimatePrivately, Instance.WithEstimates), on a scenario
	// too; Build leaves them undeclared.
	PrivateConstants bool
	// Holdout is the fraction of user data's rows kept apart, [0, MaxHoldout]:
	// no solver reads them and the excess risk is measured on the others;
	// Instance.HoldoutLoss measures an output on them.
	Holdout float64

	Class theory.Class // default the scenario's first class (user data: by the loss)
	N     int          // samples; default the catalogue's (user data: all rows)
	D     int          // dimension; default the catalogue's (user data: its columns − 1)
	Diam  float64      // diameter of W = B(0, D/2); default the catalogue's (user data: 2)
	Tail  float64      // the tail parameter (ν, α or η); default the scenario's
	// K is the moment order k of Assumption 1 at which the constants are
	// read; default the scenario's Info.K when the moments the run needs
	// exist there, else DefaultK.
	K float64
	// Eps is the zCDP ε of the run: the lower-bound instances' law depends
	// on ρ = ε²/2 through p = min(1, √d/(n√ρ)), and the theory bounds are
	// evaluated at it.
	Eps float64

	Lambda1, Lambda2 *float64
	Params           map[string]float64

	// Declared constants given by the user; 0 = the distribution's.
	Beta, Mu, R2, Rk, R2k, Lf float64

	// Needs are the constants the run's prescription reads.
	Needs ConstantNeeds

	resolved bool
}

// Clone copies p deeply (Params and the λ pointers).
func (p ProblemDef) Clone() ProblemDef {
	c := p
	if p.Params != nil {
		c.Params = make(map[string]float64, len(p.Params))
		for k, v := range p.Params {
			c.Params[k] = v
		}
	}
	if p.Lambda1 != nil {
		v := *p.Lambda1
		c.Lambda1 = &v
	}
	if p.Lambda2 != nil {
		v := *p.Lambda2
		c.Lambda2 = &v
	}
	return c
}

// UserRows reports whether the problem's data are the user's rows (a CSV
// file), rather than draws from a public distribution.
func (p ProblemDef) UserRows() bool { return p.Data != "" }

// Name is "scenario NAME" or "user data with loss L".
func (p ProblemDef) Name() string {
	if p.Data != "" {
		return "user data with loss " + string(p.Loss)
	}
	return "scenario " + p.Scenario
}

// ResolveSource resolves which problem p is: a scenario of the catalogue
// (default DefaultScenario) or user data with its loss (default Squared).
// It reads no file; see [CheckDataFile].
func (p *ProblemDef) ResolveSource() error {
	switch {
	case p.Data != "" && p.Scenario != "":
		return fieldErr("data", "give either a scenario or a data file, not both (scenario %s, data %s)", theory.Quote(p.Scenario), theory.Quote(p.Data))
	case p.Data != "":
		l := p.Loss
		if l == "" {
			l = Squared
		}
		loss, err := ParseLoss(string(l))
		if err != nil {
			return fieldErr("loss", "%v", err)
		}
		p.Loss = loss
		return nil
	}
	if p.Scenario == "" {
		p.Scenario = DefaultScenario
	}
	def := lookupDef(p.Scenario)
	if def == nil {
		return fieldErr("scenario", "unknown scenario %s (want one of %s)", theory.Quote(p.Scenario), strings.Join(ScenarioNames(), ", "))
	}
	if p.Loss != "" {
		return fieldErr("loss", "the loss is part of scenario %s (%s); a loss is chosen for user data only", p.Scenario, def.info.Loss)
	}
	if p.EstimateConstants {
		return fieldErr("estimate-constants", "applies to user data only; scenario %s declares its constants from its distribution", p.Scenario)
	}
	if p.Holdout != 0 {
		return fieldErr("holdout", "applies to user data only; scenario %s's excess risk is measured on its population, which no solver sees", p.Scenario)
	}
	return nil
}

// Classes are the loss classes p supports, the default first: the
// scenario's (Info.Classes), or for user data smooth-convex, smooth-sc and
// ppl for a smooth loss and the non-smooth classes otherwise. p's source
// must be resolved.
func (p ProblemDef) Classes() []theory.Class {
	if p.Data == "" {
		if def := lookupDef(p.Scenario); def != nil {
			return def.info.Classes
		}
		return nil
	}
	if p.Loss.Smooth() {
		return []theory.Class{theory.SmoothConvex, theory.SmoothSC, theory.PPL}
	}
	return []theory.Class{theory.NonsmoothConvex, theory.NonsmoothSC}
}

// CheckDataFile checks, before anything else is said about a run on user
// data, that path names a regular file that can be read: the CLI calls it
// up front, so that a missing file is named before any constant the data
// would need, and a FIFO, a device (/dev/zero), a socket or a folder is
// refused before anything waits on it or reads it without end (LoadCSV
// checks the opened file again). Its errors are *FieldError on "data".
func CheckDataFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fieldErr("data", "cannot read the data file %s: %v", theory.Quote(path), err)
	}
	if !fi.Mode().IsRegular() {
		return fieldErr("data", "%s is %s, not a regular file; give a CSV file", theory.Quote(path), fileKind(fi.Mode()))
	}
	return nil
}

// fileKind names a file mode that is not a regular file's.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Resolve makes every default of p explicit and checks every rule that
// depends on the scenario (or the data's loss): fixed d and D, the tail
// parameter's and the parameters' ranges, the
// λ's, the default k (the scenario's Info.K when the moments p.Needs exist
// there), and that the moments the prescription reads exist; then that
// given constants keep the order r̃_2 ≤ r̃_k ≤ r̃_2k ≤ L_f and μ ≤ β. It
// reads no file: user data's rows and columns are checked by Build.
//
// The source and the class must be resolved (ResolveSource; Class one of
// Classes), and the fields with fixed ranges (n, d, D, k, ε, the constants)
// checked by the caller. defaultN, if not nil, gives the sample size when N
// is unset from the catalogue's n0 and the resolved k.
func (p *ProblemDef) Resolve(defaultN func(n0 int, k float64) int) error {
	var err error
	if p.Data != "" {
		err = p.resolveData()
	} else {
		err = p.resolveScenario(lookupDef(p.Scenario), defaultN)
	}
	if err != nil {
		return err
	}
	if err := checkMomentOrder(p.R2, p.Rk, p.R2k, p.Lf, p.K); err != nil {
		return err
	}
	if p.Beta > 0 && p.Mu > p.Beta {
		return fieldErr("mu", "μ = %s exceeds β = %s (a μ-strongly convex β-smooth function has μ ≤ β)", theory.FormatNumber(p.Mu), theory.FormatNumber(p.Beta))
	}
	p.resolved = true
	return nil
}

func finitePos(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// resolveScenario resolves a catalogue scenario's fields.
func (p *ProblemDef) resolveScenario(def *scenarioDef, defaultN func(n0 int, k float64) int) error {
	if def == nil {
		return fieldErr("scenario", "unknown scenario %s", theory.Quote(p.Scenario))
	}
	in := def.info
	name := in.Name
	if in.FixedD {
		if p.D != 0 && p.D != in.D {
			return fieldErr("d", "%s is defined with d = %d; it cannot be changed", name, in.D)
		}
		p.D = in.D
	}
	if p.D == 0 {
		p.D = in.D
	}
	if in.FixedDiam {
		if p.Diam != 0 && p.Diam != in.Diam {
			if in.Diam == 0 {
				return fieldErr("diam", "%s takes its domain from the lower-bound proof (D = r̃p^{1−1/k}/μ); set its parameters r and curvature instead", name)
			}
			return fieldErr("diam", "%s is defined on a ball of diameter %s; it cannot be changed", name, theory.FormatNumber(in.Diam))
		}
		p.Diam = in.Diam
	}
	if p.Diam == 0 && !in.FixedDiam {
		p.Diam = in.Diam
	}
	// Tail.
	if in.Tail == nil {
		if p.Tail != 0 {
			return fieldErr("tail", "%s has no tail parameter", name)
		}
	} else {
		if p.Tail == 0 && in.Tail.Default != 0 {
			p.Tail = in.Tail.Default
		}
		if err := in.Tail.check(p.Tail, name); err != nil {
			return err
		}
	}
	// Defaults that depend on the tail: k, then n (which depends on k).
	if p.K == 0 {
		p.K = DefaultK
		if kmax := def.kmax(p); in.K > 0 && in.K < kmax && (!p.Needs.R2k || 2*in.K < kmax) {
			p.K = in.K
		}
	}
	if p.N == 0 {
		p.N = in.N
		if defaultN != nil {
			p.N = defaultN(in.N, p.K) // ≤ in.N
		}
	}
	// Params.
	names := make([]string, 0, len(p.Params))
	for k := range p.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		q, ok := in.Param(k)
		if !ok || (in.Tail != nil && k == in.Tail.Name) {
			valid := make([]string, len(in.Params))
			for i, q := range in.Params {
				valid[i] = q.Name
			}
			if len(valid) == 0 {
				return fieldErr(k, "%s has no adjustable parameter %s", name, theory.Quote(k))
			}
			return fieldErr(k, "%s has no adjustable parameter %s (it has: %s)", name, theory.Quote(k), strings.Join(valid, ", "))
		}
		if err := q.check(p.Params[k], name); err != nil {
			return err
		}
	}
	if len(in.Params) > 0 && p.Params == nil {
		p.Params = map[string]float64{}
	}
	for _, q := range in.Params {
		if _, ok := p.Params[q.Name]; !ok {
			p.Params[q.Name] = q.Default
		}
	}
	if name == MeanHard && !math.IsInf(p.Eps, 1) { // ε = ∞ is refused below
		// Its domain comes from the proof: D = r̃p^{1−1/k}/μ must be a
		// diameter like any other (≤ MaxDiam), or W, F and F* are ∞/NaN,
		// and D² and r̃² must stay normal floats for the prescription's
		// ratios (μβD²/r̃², else 0/0).
		const minD = 1e-100
		if D := meanHardDiam(p); !(D >= minD && D <= MaxDiam) || !(p.Params["r"] >= minD) {
			field := "curvature"
			if !(p.Params["r"] >= minD) {
				field = "r"
			}
			return fieldErr(field, "r = %s and curvature μ = %s give the proof's domain D = r̃p^{1−1/k}/μ = %s; D must lie in [%s, %s] and r ≥ %s (beyond, D² or r̃² leaves float64's range); bring r/μ closer to 1",
				theory.FormatNumber(p.Params["r"]), theory.FormatNumber(p.Params["curvature"]), theory.Sig6.Format(meanHardDiam(p)),
				theory.FormatNumber(minD), theory.FormatNumber(MaxDiam), theory.FormatNumber(minD))
		}
	}
	// Regularization weights.
	if in.Lambda1 == nil {
		if p.Lambda1 != nil && *p.Lambda1 != 0 {
			return fieldErr("lambda1", "%s has no ℓ1 term", name)
		}
		p.Lambda1 = nil
	} else {
		if p.Lambda1 == nil {
			v := in.Lambda1.Default
			p.Lambda1 = &v
		}
		if err := in.Lambda1.check(*p.Lambda1, name); err != nil {
			return err
		}
	}
	if in.Lambda2 == nil {
		if p.Lambda2 != nil && *p.Lambda2 != 0 {
			return fieldErr("lambda2", "%s has no ℓ2 term", name)
		}
		p.Lambda2 = nil
	} else {
		sc := p.Class.StronglyConvex()
		if p.Lambda2 == nil {
			v := in.Lambda2.Default
			if in.L2ForSC && !sc {
				v = 0
			}
			p.Lambda2 = &v
		}
		if err := in.Lambda2.check(*p.Lambda2, name); err != nil {
			return err
		}
		if in.L2ForSC && sc && *p.Lambda2 == 0 {
			return fieldErr("lambda2", "class %s of %s takes its strong convexity μ = λ₂ from the ℓ2 term; λ₂ must be in (0, %s]", p.Class, name, theory.FormatNumber(in.Lambda2.Max))
		}
	}
	// Hard instances depend on ε through p = min(1, √d/(n√ρ)).
	if (name == MeanHard || name == AffineHard) && math.IsInf(p.Eps, 1) {
		return fieldErr("eps", "%s sets p = min(1, √d/(n√ρ)) with ρ = ε²/2, which needs a finite ε", name)
	}
	// Moments the prescription needs must exist (unless overridden).
	kmax := def.kmax(p)
	tailName := "the distribution"
	if in.Tail != nil {
		tailName = fmt.Sprintf("%s = %s", in.Tail.Symbol, theory.FormatNumber(p.Tail))
	}
	switch {
	case 2 >= kmax && p.R2 == 0:
		return fieldErr("tail", "r̃_2 is infinite for %s at %s (r̃_k < ∞ iff k < %s): the tail parameter must allow second moments, %s > %s",
			name, tailName, theory.FormatNumber(kmax), in.Tail.Symbol, theory.FormatNumber(def.tailThreshold(p, 2)))
	case math.IsInf(p.K, 1):
		if !def.lfFinite && !finitePos(p.Lf) {
			return fieldErr("k", "k = ∞ uses r̃_∞ = L_f, which is infinite for %s; pick a finite k (or declare lf)", name)
		}
	case p.Needs.R2k && 2*p.K >= kmax && p.R2k == 0: // before r̃_k: its advice covers both
		return def.moment2kErr(p, kmax, tailName)
	case p.K >= kmax && p.Rk == 0:
		return def.momentErr(p, kmax, tailName)
	}
	return nil
}

// resolveData resolves user data's fields (those that need no read of the
// file) and checks that the constants the prescription reads are given.
func (p *ProblemDef) resolveData() error {
	if p.K == 0 {
		p.K = DefaultK
	}
	if p.Tail != 0 {
		return fieldErr("tail", "user data has no tail parameter")
	}
	if !(p.Holdout >= 0 && p.Holdout <= MaxHoldout) {
		return fieldErr("holdout", "the held-out fraction %s is outside [0, %s]", theory.FormatNumber(p.Holdout), theory.FormatNumber(MaxHoldout))
	}
	if p.PrivateConstants && p.EstimateConstants {
		return fieldErr("constants", "private estimates and --estimate-constants (not private) exclude each other; choose one")
	}
	if len(p.Params) > 0 {
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range p.Params {
				if !yield(k) {
					return
				}
			}
		})
		return fieldErr(names[0], "user data has no scenario parameter %s", theory.Quote(names[0]))
	}
	if p.Diam == 0 {
		p.Diam = DefaultDataDiam
	}
	l1, l2 := 0.0, 0.0
	if p.Lambda1 != nil {
		l1 = *p.Lambda1
	}
	if p.Lambda2 != nil {
		l2 = *p.Lambda2
	}
	lim := theory.Interval{Lo: 0, Hi: MaxDataLambda}
	if !lim.Contains(l1) {
		return fieldErr("lambda1", "λ₁ = %s is outside %s", theory.FormatNumber(l1), lim)
	}
	if !lim.Contains(l2) {
		return fieldErr("lambda2", "λ₂ = %s is outside %s", theory.FormatNumber(l2), lim)
	}
	if l1 != 0 && p.Class != theory.PPL {
		return fieldErr("lambda1", "the ℓ1 term is the proximal part of class ppl; class %s has none", p.Class)
	}
	p.Lambda1, p.Lambda2 = &l1, &l2
	if p.PrivateConstants {
		// The moments and, for the squared loss, β and μ are estimated
		// privately when the run starts; the logistic loss's μ is λ₂.
		if p.Class.StronglyConvex() && p.Mu == 0 && l2 == 0 && !p.Loss.scoreStronglyConvex() {
			return fieldErr("mu", "the strong convexity μ of the %s loss is not estimated privately; declare μ, or an ℓ2 weight λ₂ > 0 (μ = λ₂)", p.Loss)
		}
		return nil
	}
	if p.EstimateConstants || p.Needs.None {
		// With T, C and the step all given, nothing is prescribed, so no
		// constant needs declaring (a solver whose schedule still
		// uses one, e.g. clipped-sgd's μ, says which).
		return nil
	}
	need := func(field, what string) error {
		return fieldErr(field, "user data needs %s declared with --%s, or estimated privately from a share of the budget with --constants private, or estimated from the data with --estimate-constants, which reads the data and is NOT private", what, field)
	}
	if p.Rk == 0 && !(math.IsInf(p.K, 1) && p.Lf > 0) {
		if math.IsInf(p.K, 1) {
			return need("lf", "L_f (k = ∞)")
		}
		return need("rk", "the moment bound r̃_k")
	}
	if p.Needs.R2k && p.R2k == 0 && !finitePos(p.Lf) {
		return need("r2k", "r̃_2k (the localized method uses it)")
	}
	switch p.Class {
	case theory.SmoothConvex, theory.SmoothSC, theory.PPL:
		if p.Beta == 0 {
			return need("beta", "the smoothness β")
		}
	}
	if p.Class.StronglyConvex() && p.Mu == 0 && l2 == 0 {
		return need("mu", "the strong convexity μ (or an ℓ2 weight lambda2 > 0, which gives μ = λ₂)")
	}
	return nil
}

// checkMomentOrder checks r̃_2 ≤ r̃_k ≤ r̃_2k ≤ L_f among the given (non-zero)
// values: moments (E G^j)^{1/j} are non-decreasing in j (Lyapunov).
func checkMomentOrder(r2, rk, r2k, lf, k float64) error {
	type m struct {
		field, sym string
		v          float64
	}
	ms := []m{{"r2", "r̃_2", r2}, {"rk", "r̃_k", rk}, {"r2k", "r̃_2k", r2k}, {"lf", "L_f", lf}}
	if k == 2 && r2 > 0 && rk > 0 && r2 != rk {
		return fieldErr("rk", "k = 2, so r̃_k = r̃_2, but rk = %s and r2 = %s differ", theory.FormatNumber(rk), theory.FormatNumber(r2))
	}
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if ms[i].v > 0 && ms[j].v > 0 && ms[j].v < ms[i].v {
				return fieldErr(ms[j].field, "%s = %s < %s = %s, but moments are non-decreasing in their order (Lyapunov's inequality)",
					ms[j].sym, theory.FormatNumber(ms[j].v), ms[i].sym, theory.FormatNumber(ms[i].v))
			}
		}
	}
	return nil
}

// errUnresolved is Build's answer to a ProblemDef that did not go through
// Resolve: a programming error, never the user's.
var errUnresolved = errors.New("scenarios: Build of a ProblemDef that was not resolved (call ProblemDef.Resolve first)")

package scenarios

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"dpso/solvers"
	"dpso/theory"
)

// Instance is a built problem: a resolved ProblemDef's loss, domain,
// declared constants, data law (or user data) and excess-risk evaluator. It
// implements solvers.Problem and is safe for concurrent use.
type Instance struct {
	def ProblemDef
	m   *model
	// declared constants with the user's overrides applied
	beta, mu, lf float64
	overrides    []string // overridden constants among beta, mu, r2, rk, r2k, lf
	given        []string // the overrides as the notes write them: "L_f = 10⁶"
	notes        []string
}

// Build builds the problem def, which must have been resolved
// ([ProblemDef.Resolve]). It may take a moment the first time a
// distribution is used (a Monte Carlo moment sample of MCDraws draws, an
// evaluation sample and its F*); those are cached. User data are read
// here: a file that cannot be read or parsed is a *DataError, rows and
// columns that contradict n or d a *FieldError. It honours ctx's
// cancellation.
func Build(ctx context.Context, def ProblemDef) (*Instance, error) {
	if !def.resolved {
		return nil, errUnresolved
	}
	rs := def.Clone()
	var m *model
	var err error
	if rs.Data != "" {
		m, err = buildData(ctx, &rs)
	} else {
		m, err = lookupDef(rs.Scenario).build(ctx, &rs)
	}
	if err != nil {
		return nil, err
	}
	in := &Instance{def: rs, m: m, beta: m.beta, mu: m.mu, lf: m.prof.lf}
	data := rs.Data != "" && !rs.EstimateConstants
	if !data {
		for _, o := range []struct {
			name, sym string
			v         float64
			dst       *float64
		}{{"beta", "β", rs.Beta, &in.beta}, {"mu", "μ", rs.Mu, &in.mu}, {"lf", "L_f", rs.Lf, &in.lf}} {
			if o.v > 0 {
				*o.dst = o.v
				in.overrides = append(in.overrides, o.name)
				in.given = append(in.given, o.sym+" = "+theory.FormatNumber(o.v))
			}
		}
		for _, o := range []struct {
			name, sym string
			v         float64
		}{{"r2", "r̃₂", rs.R2}, {"rk", "r̃_k", rs.Rk}, {"r2k", "r̃_2k", rs.R2k}} {
			if o.v > 0 {
				in.overrides = append(in.overrides, o.name)
				in.given = append(in.given, o.sym+" = "+theory.FormatNumber(o.v))
			}
		}
	}
	if err := in.checkConstants(); err != nil {
		return nil, err
	}
	in.notes = append(in.notes, m.notes...)
	switch {
	case rs.PrivateConstants:
		// WithEstimates says what the prescription reads.
	case data:
		in.notes = append(in.notes, "the prescription uses user-given constants (flags), not estimates from the data")
		// Overrides of a scenario's constants: GivenNote, per solver, names
		// those its prescription reads.
	}
	return in, nil
}

// checkConstants checks the final constants: r̃_2 ≤ r̃_k ≤ r̃_2k ≤ L_f and
// μ ≤ β, naming an overridden field when one is involved.
func (in *Instance) checkConstants() error {
	if len(in.overrides) == 0 {
		return nil
	}
	s := &in.def
	k := s.K
	vals := []struct {
		field, sym string
		v          float64
	}{{"r2", "r̃_2", in.moment(2)}, {"rk", "r̃_k", in.moment(k)}, {"r2k", "r̃_2k", in.moment(2 * k)}, {"lf", "L_f", in.lf}}
	over := func(f string) bool {
		for _, o := range in.overrides {
			if o == f {
				return true
			}
		}
		return false
	}
	for i := range vals {
		for j := i + 1; j < len(vals); j++ {
			a, b := vals[i], vals[j]
			if b.v < a.v*(1-1e-12) && (over(a.field) || over(b.field)) {
				f := b.field
				if !over(f) {
					f = a.field
				}
				// A value the user gave is echoed exactly, the problem's own
				// (computed) one to 6 digits.
				show := func(field string, v float64) string {
					if over(field) {
						return theory.FormatNumber(v)
					}
					return theory.Sig6.Format(v)
				}
				return fieldErr(f, "%s = %s < %s = %s with the given constants, but moments are non-decreasing in their order", b.sym, show(b.field, b.v), a.sym, show(a.field, a.v))
			}
		}
	}
	if in.beta > 0 && in.mu > in.beta*(1+1e-12) && (over("beta") || over("mu")) {
		return fieldErr("mu", "μ = %s exceeds β = %s", theory.FormatNumber(in.mu), theory.FormatNumber(in.beta))
	}
	return nil
}

// moment is r̃_k with the user's overrides.
func (in *Instance) moment(k float64) float64 {
	s := &in.def
	if in.def.Data == "" || in.def.EstimateConstants {
		switch {
		case math.IsInf(k, 1):
			return in.lf
		case k == s.K && s.Rk > 0:
			return s.Rk
		case k == 2 && s.R2 > 0:
			return s.R2
		case k == 2*s.K && s.R2k > 0:
			return s.R2k
		}
	}
	if math.IsInf(k, 1) {
		return in.lf
	}
	return in.m.prof.moment(k)
}

// Dim is d (solvers.Problem).
func (in *Instance) Dim() int { return in.m.d }

// Grad writes ∇_w f(w, x) (∇f⁰ for class ppl) into g without allocating
// (solvers.Problem).
func (in *Instance) Grad(g, w, x []float64) { in.m.obj.grad(g, w, x) }

// LinearModel reports whether the loss is one of the (a, y) family, whose
// gradient is ℓ'(⟨w, a⟩, y)·a + λ₂w (solvers.LinearLoss).
func (in *Instance) LinearModel() bool {
	_, ok := in.m.obj.(*glm)
	return ok
}

// Slopes sets c[i] = ℓ'(s[i], y_i) for a block of samples x_i =
// xs[i·sd:(i+1)·sd] with scores s[i] = ⟨w, a_i⟩ (solvers.LinearLoss; the
// derivative Grad uses, the loss's slope), in the loss's own loop.
func (in *Instance) Slopes(c, s, xs []float64, sd int) {
	o := in.m.obj.(*glm)
	o.loss.slopes(c[:len(s)], s, xs, sd, o.d)
}

// AffineInW reports whether the loss is affine in w, f(w, x) =
// ⟨b(x), w⟩ + c(x), whose Grad writes b(x) whatever w
// (solvers.AffineLoss): affine-hard's −⟨w, x⟩. A declared β does not
// change the loss, so it does not change this.
func (in *Instance) AffineInW() bool { return in.m.obj.affine() }

// L2 is the ℓ2 weight λ₂ inside the per-sample loss (solvers.LinearLoss).
func (in *Instance) L2() float64 { return in.m.obj.inLossL2() }

// Regularizer is f¹ for class ppl, zero otherwise (solvers.Problem).
func (in *Instance) Regularizer() solvers.Regularizer { return in.m.reg }

// Constants are the declared constants with the user's overrides
// (solvers.Problem): D, β, μ, L_f and the moment profile r̃_k for any k.
func (in *Instance) Constants() solvers.Constants {
	c := solvers.Constants{D: 2 * in.m.radius, Beta: in.beta, Mu: in.mu, Lf: in.lf, Moment: in.moment,
		Affine: in.m.obj.affine() && !slices.Contains(in.overrides, "beta")}
	if in.m.sup != nil {
		c.Noncentral = func(k float64) float64 { return in.Noncentral(k).V }
		c.Coord = func(k float64) float64 { return in.Coordinate(k).V }
		c.GradSup = in.m.sup.l
	} else {
		c.GradSup = math.NaN()
	}
	return c
}

// Def is the resolved ProblemDef the instance was built from, with n
// filled in for user data (its rows, or the subset a run asked for).
func (in *Instance) Def() ProblemDef { return in.def.Clone() }

// SampleDim is the length of one sample x.
func (in *Instance) SampleDim() int { return in.m.sdim }

// TrialMemory is what one trial's draw of n samples (Dataset) holds
// besides the instance: perm, the bytes of its random subset of the user
// rows (an int32 per training row; 0 for a scenario, whose draws are
// streams), and matrix, the bytes of the draw materialized as a
// solvers.Matrix (n·SampleDim float64s), which a solver that makes many
// passes, or a reference that minimizes over the draw, holds.
func (in *Instance) TrialMemory(n int) (perm, matrix int64) {
	if in.m.data != nil {
		perm = 4 * int64(in.m.data.Len())
	}
	return perm, 8 * int64(n) * int64(in.m.sdim)
}

// Diam is the diameter D of W (for mean-hard, the one its proof sets).
func (in *Instance) Diam() float64 { return 2 * in.m.radius }

// Dataset is trial's dataset of n samples: for a scenario, the chunked
// stream keyed by solvers.StreamKey(mode, seed, trial, "data") (see
// streamSamples), regenerated at every read (the key is drawn once, so in
// secure mode too every read of this value yields the same draw); for user
// data, a random ordered subset of n rows drawn from the stream "perm".
// Every solver of a trial must be given the same value (common random
// numbers).
func (in *Instance) Dataset(mode solvers.RandMode, seed uint64, trial int) solvers.Samples {
	n := in.def.N
	if in.m.data != nil {
		return newPermSamples(in.m.data, n, solvers.NewRand(mode, seed, trial, "perm"))
	}
	return &streamSamples{n: n, sdim: in.m.sdim, key: solvers.StreamKey(mode, seed, trial, "data"), draw: in.m.draw}
}

// Excess is F(w) − F* (closed form, or on the evaluation sample / user
// data) and the standard error of that estimate (0 when exact).
func (in *Instance) Excess(w []float64) (ex, se float64) {
	if len(w) != in.m.d {
		return math.NaN(), math.NaN()
	}
	return in.m.risk.excess(w)
}

// Risk is F(w), the population risk (user data: the empirical risk).
func (in *Instance) Risk(w []float64) float64 {
	if len(w) != in.m.d {
		return math.NaN()
	}
	return in.m.risk.value(w)
}

// RiskInfo says how the excess risk is computed, with F* and its
// certified accuracy.
func (in *Instance) RiskInfo() RiskInfo { return in.m.risk.info() }

// Moment returns r̃_k with its standard error and method, overrides
// applied.
func (in *Instance) Moment(k float64) MomentEntry {
	e := in.m.prof.entry(k)
	s := &in.def
	if s.Data == "" || s.EstimateConstants {
		switch {
		case math.IsInf(k, 1) && s.Lf > 0, k == s.K && s.Rk > 0, k == 2 && s.R2 > 0, k == 2*s.K && s.R2k > 0:
			return MomentEntry{K: k, R: in.moment(k), Method: "user-given"}
		}
	}
	return e
}

// Profile is the moment profile on MomentGrid (plus k and 2k when off the
// grid).
func (in *Instance) Profile() []MomentEntry {
	p, _ := in.ProfileContext(context.Background())
	return p
}

// ProfileContext is Profile, checking ctx between its moments (a Monte
// Carlo moment takes milliseconds): on cancellation it returns ctx's error.
func (in *Instance) ProfileContext(ctx context.Context) ([]MomentEntry, error) {
	ks := append([]float64(nil), MomentGrid...)
	for _, k := range []float64{in.def.K, 2 * in.def.K} {
		found := false
		for _, g := range ks {
			if g == k {
				found = true
			}
		}
		if !found {
			ks = append(ks, k)
		}
	}
	sortFloats(ks)
	out := make([]MomentEntry, len(ks))
	for i, k := range ks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = in.Moment(k)
	}
	return out, nil
}

// Notes are sentences about the problem to show beside results.
func (in *Instance) Notes() []string { return append([]string(nil), in.notes...) }

// GivenNote is the note that a prescription reading the named constants
// (β "beta", μ "mu", "r2", "rk", "r2k", L_f "lf") rests on user-given ones
// in place of the scenario's declared ones, naming only those among names
// the user gave: "the prescription uses user-given constants (L_f = 10⁶)
// instead of the declared ones"; "" when it reads none, and on data read
// without --constants estimates, where Notes says it for every constant.
func (in *Instance) GivenNote(names ...string) string {
	var read []string
	for i, o := range in.overrides {
		if slices.Contains(names, o) {
			read = append(read, in.given[i])
		}
	}
	if len(read) == 0 {
		return ""
	}
	return "the prescription uses user-given constants (" + strings.Join(read, ", ") + ") instead of the declared ones"
}

// UserConstants reports whether some constant was given by the user
// rather than declared from the distribution (GivenNote names those a
// prescription reads).
func (in *Instance) UserConstants() bool {
	return len(in.overrides) > 0 || (in.def.Data != "" && !in.def.EstimateConstants)
}

// TheoryInputs are the parameters at which the theory bounds are
// evaluated, the same the run uses.
type TheoryInputs struct {
	Class theory.Class
	N     int     // samples n
	D     int     // dimension d
	Eps   float64 // zCDP ε
	K     float64 // moment order k
	Diam  float64 // diameter D of W
	R2    float64 // r̃_2
	Rk    float64 // r̃_k
	R2k   float64 // r̃_2k
	Beta  float64 // β (0: not declared)
	Mu    float64 // μ (0: not declared)
	Lf    float64 // L_f (possibly +Inf)
	// KappaF is the worst-case condition number κ_f = β_f/μ of f(·, x)
	// (+Inf when f(·, x) is not uniformly smooth, NaN when unknown or μ is
	// not declared), an input of prior work's bounds.
	KappaF float64
	// UserConstants: some constants are user-given rather than declared.
	UserConstants bool
	// LfData is the scenario's own L_f where the user gave L_f in its
	// place (0 otherwise): prior work's "L_f < ∞" is met only if the given
	// value bounds it (theory.Params.LfData).
	LfData float64
	// Affine: the loss is linear in w, so β = 0 is a declared value (not
	// "not declared").
	Affine bool
	// Assumption is the moment assumption the run's prescription reads
	// (theory.Tilde unless the run chose another: TheoryUnder).
	Assumption theory.Assumption
	// Used are the moment constants the prescription reads in place of
	// r̃_k and r̃₂ under Assumption: r_k and r₂ (Noncentral), the bound of
	// "lem: comparing assumptions" on them (Coordinatewise), or r̃_k and
	// r̃₂ themselves (Tilde). NaN where not known.
	UsedRk, UsedR2 float64
	// R2NC, RkNC, R2kNC (r₂, r_k, r_2k) and G2, Gk, G2k (γ₂^{1/2},
	// γ_k^{1/k}, γ_2k^{1/(2k)}) are the constants of Assumptions
	// "ass:boundednoncentral" and "ass:coordinatewise" when Assumption is
	// one of them (NaN otherwise: the bounds restated under them).
	R2NC, RkNC, R2kNC, G2, Gk, G2k float64
	// Shuffle: the run is (Eps, Delta)-shuffle DP (a shuffle oracle); its
	// bounds are the shuffle model's.
	Shuffle bool
	Delta   float64
	// CoordOracle: the run's oracle is the coordinate-wise shuffle oracle
	// (Algorithm "alg: CSDP MeanOracle"), whose bounds are stated under
	// Assumption "ass:coordinatewise" whatever the prescription reads: G2,
	// Gk, G2k are then filled in (WithCoordOracle), NaN where not computed.
	CoordOracle bool
	// R2kEmp and R2kEmp4 are R̃_{2k,n} and R̃_{2k,⌊n/4⌋} of "subsub:
	// notation" ([Instance.EmpiricalMoment]: exact, or the certified upper
	// end of a bracket), the inputs of the localization theorems' precise
	// statements (theory.NonsmoothConvexLocalizedEmp,
	// theory.NonsmoothSCLocalizedEmp); 0 or NaN when not computed
	// (WithEmpirical fills them in for the non-smooth classes). EmpWhat
	// says what the value is (shown in those bounds' source).
	R2kEmp, R2kEmp4 float64
	EmpWhat         string
}

// Params maps the inputs to theory.Params: a constant that is not declared
// (β or μ = 0 for a non-affine loss, κ_f unknown) is NaN ("not given", so
// the bounds that need it are left out), and ε = ∞ (no privacy) is NaN too,
// since the private bounds do not apply.
func (t TheoryInputs) Params() theory.Params {
	p := theory.NewParams()
	p.N, p.Dim, p.K, p.Diam = float64(t.N), float64(t.D), t.K, t.Diam
	if !math.IsInf(t.Eps, 1) {
		p.Eps = t.Eps
	}
	p.R2, p.Rk, p.R2k, p.Lf, p.KappaF = t.R2, t.Rk, t.R2k, t.Lf, t.KappaF
	if t.LfData > 0 {
		p.LfData = t.LfData
	}
	for _, f := range []struct {
		dst *float64
		v   float64
	}{{&p.R2NC, t.R2NC}, {&p.RkNC, t.RkNC}, {&p.R2kNC, t.R2kNC}, {&p.G2, t.G2}, {&p.Gk, t.Gk}, {&p.G2k, t.G2k}} {
		if t.Assumption != "" && t.Assumption != theory.Tilde && f.v > 0 {
			*f.dst = f.v
		}
	}
	if t.CoordOracle {
		for _, f := range []struct {
			dst *float64
			v   float64
		}{{&p.G2, t.G2}, {&p.Gk, t.Gk}, {&p.G2k, t.G2k}} {
			if f.v > 0 {
				*f.dst = f.v
			}
		}
	}
	if t.R2kEmp > 0 {
		p.R2kEmp = t.R2kEmp
	}
	if t.R2kEmp4 > 0 {
		p.R2kEmp4 = t.R2kEmp4
	}
	if t.Shuffle {
		p.Delta = t.Delta
	}
	if t.Beta > 0 || t.Affine {
		p.Beta = t.Beta
	}
	if t.Mu > 0 {
		p.Mu = t.Mu
	}
	return p
}

// Bounds evaluates the theory bounds of the instance's class at its
// parameters (theory.ForClass, BoundsOf): the paper's upper bound, its lower bound
// and prior work, those whose inputs are declared.
func (in *Instance) Bounds() ([]theory.Bound, error) {
	return BoundsOf(in.Theory())
}

// BoundsOf evaluates the bounds of t's class restated for its run
// (theory.Variant): in the shuffle model, the shuffle bounds of the
// appendix on SDP — those of the ℓ2-clip oracle (lem: pvec), or with the
// coordinate-wise shuffle oracle (CoordOracle) those under
// ass:coordinatewise (prop: sdp bias var), which are shown as not
// evaluated, with the reason, when γ_k is unknown rather than left out or
// evaluated with r̃_k; the class's bounds without a shuffle variant (the zCDP
// lower bounds, prior work) are left out, since they are about zCDP
// algorithms; under Assumption "ass:boundednoncentral" or
// "ass:coordinatewise", each bound's restatement under it where the paper
// gives one (the lower bounds' parts 2 and 3), the ass:tilde bound
// otherwise (valid, since r̃_k exists). Those whose inputs are declared.
func BoundsOf(t TheoryInputs) ([]theory.Bound, error) {
	a := t.Assumption
	if a == "" {
		a = theory.Tilde
	}
	p := t.Params()
	var out []theory.Bound
	for _, id := range theory.ForClass(t.Class) {
		switch {
		case t.Shuffle:
			sa := theory.Tilde
			if t.CoordOracle {
				sa = theory.Coordinatewise
			}
			v, ok := theory.Variant(id, sa, true)
			if !ok {
				continue
			}
			id = v
		case a != theory.Tilde:
			if v, ok := theory.Variant(id, a, false); ok {
				id = v
			}
		}
		b, err := theory.Evaluate(id, p)
		if me, ok := err.(*theory.MissingError); ok && t.Shuffle && t.CoordOracle && slices.Contains(me.Missing, "gk") {
			b, err = theory.Unevaluable(id, "the coordinate-wise shuffle oracle's bound (prop: sdp bias var) is stated under ass:coordinatewise "+
				"and needs γ_k, which is not known for this run ("+err.Error()+"); r̃_k does not stand in for it")
		}
		if _, ok := err.(*theory.MissingError); ok {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		if e, ok := empVariant(t, p, id); ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// empVariant is the precise statement with R̃_{2k,n} (R̃_{2k,n/4}) of the
// localization theorem id, evaluated at t's computed empirical moment, its
// source saying what that value is; ok is false for another id, in the
// shuffle model (the statement is the zCDP one) or when the empirical
// moment was not computed.
func empVariant(t TheoryInputs, p theory.Params, id string) (theory.Bound, bool) {
	var emp string
	switch {
	case t.Shuffle:
		return theory.Bound{}, false
	case id == theory.NonsmoothConvexLocalized && p.R2kEmp > 0:
		emp = theory.NonsmoothConvexLocalizedEmp
	case id == theory.NonsmoothSCLocalized && p.R2kEmp4 > 0:
		emp = theory.NonsmoothSCLocalizedEmp
	default:
		return theory.Bound{}, false
	}
	b, err := theory.Evaluate(emp, p)
	if err != nil {
		return theory.Bound{}, false
	}
	if t.EmpWhat != "" {
		b.Source += "; " + t.EmpWhat
	}
	return b, true
}

// WithEmpirical is t with R̃_{2k,n} and R̃_{2k,⌊n/4⌋} of the instance
// ([Instance.EmpiricalMoment]) filled in for the non-smooth classes, whose
// localization theorems read them (the convex one R̃_{2k,n}, the strongly
// convex one R̃_{2k,n/4}); t unchanged otherwise. A bracketed value enters
// at its certified upper end, and EmpWhat says which.
func (in *Instance) WithEmpirical(t TheoryInputs) TheoryInputs {
	e, sym, ok := in.ClassEmpirical(t.Class, t.K, t.N)
	if !ok || !e.Computed() || math.IsInf(e.V, 1) {
		return t
	}
	if t.Class == theory.NonsmoothConvex {
		t.R2kEmp = e.V
	} else {
		t.R2kEmp4 = e.V
	}
	t.EmpWhat = e.What(sym)
	return t
}

// TheoryUnder is Theory with the constants of assumption a filled in (the
// numbers its prescription reads, and those of its bounds), for a
// shuffle-model run when delta > 0.
func (in *Instance) TheoryUnder(a theory.Assumption, delta float64) TheoryInputs {
	t := in.Theory()
	if a == "" {
		a = theory.Tilde
	}
	t.Assumption = a
	t.Shuffle, t.Delta = delta > 0, delta
	k := t.K
	t.UsedRk, t.UsedR2 = t.Rk, t.R2
	switch a {
	case theory.Noncentral:
		t.R2NC, t.RkNC, t.R2kNC = in.Noncentral(2).V, in.Noncentral(k).V, in.Noncentral(2*k).V
		t.UsedRk, t.UsedR2 = t.RkNC, t.R2NC
	case theory.Coordinatewise:
		t.G2, t.Gk, t.G2k = in.Coordinate(2).V, in.Coordinate(k).V, in.Coordinate(2*k).V
		l, _, _ := in.GradSup()
		d := float64(t.D)
		t.UsedRk, t.UsedR2 = theory.RkFromCoordinatewise(k, d, t.Gk, l), theory.RkFromCoordinatewise(2, d, t.G2, l)
	}
	return t
}

// WithCoordOracle is t for a run with the coordinate-wise shuffle oracle:
// CoordOracle set and the coordinate-wise moments γ₂^{1/2}, γ_k^{1/k},
// γ_2k^{1/(2k)} of the instance filled in (NaN where not computed: user
// data), whatever assumption the prescription reads.
func (in *Instance) WithCoordOracle(t TheoryInputs) TheoryInputs {
	t.CoordOracle = true
	t.G2, t.Gk, t.G2k = in.Coordinate(2).V, in.Coordinate(t.K).V, in.Coordinate(2*t.K).V
	return t
}

// kappaF is β_f/μ with the declared (or overridden) μ.
func (in *Instance) kappaF() float64 {
	if !(in.mu > 0) || math.IsNaN(in.m.betaF) {
		return math.NaN()
	}
	return math.Max(1, in.m.betaF/in.mu)
}

// Theory returns the inputs of the theory bounds at this instance.
func (in *Instance) Theory() TheoryInputs {
	s := &in.def
	return TheoryInputs{
		Class: s.Class, N: s.N, D: in.m.d, Eps: s.Eps, K: s.K, Diam: in.Diam(),
		R2: in.moment(2), Rk: in.moment(s.K), R2k: in.moment(2 * s.K),
		Beta: in.beta, Mu: in.mu, Lf: in.lf, UserConstants: in.UserConstants(),
		KappaF: in.kappaF(), Affine: in.m.obj.affine(), LfData: in.givenOver("lf", in.m.prof.lf),
	}
}

// givenOver is the scenario's own value v of the constant name where the
// user gave that constant in its place, 0 where they did not.
func (in *Instance) givenOver(name string, v float64) float64 {
	if slices.Contains(in.overrides, name) {
		return v
	}
	return 0
}

// ReadsGiven reports whether any of the named constants (β "beta", μ
// "mu", "r2", "rk", "r2k", L_f "lf") is user-given rather than declared:
// every constant is, on data read without --constants estimates; with
// --constants private, those a flag gives.
func (in *Instance) ReadsGiven(names ...string) bool {
	if in.def.Data != "" && !in.def.EstimateConstants {
		// With --constants private the constants no flag gives are
		// private estimates (noted apart), not given.
		return !in.def.PrivateConstants || in.dataGiven(names...)
	}
	for _, n := range names {
		if slices.Contains(in.overrides, n) {
			return true
		}
	}
	return false
}

func sortFloats(x []float64) { sort.Float64s(x) }

// dataGiven reports whether a flag gives one of names on user data (beta,
// mu, lf, r2, rk, r2k).
func (in *Instance) dataGiven(names ...string) bool {
	d := &in.def
	v := map[string]float64{"beta": d.Beta, "mu": d.Mu, "lf": d.Lf, "r2": d.R2, "rk": d.Rk, "r2k": d.R2k}
	for _, n := range names {
		if v[n] > 0 {
			return true
		}
	}
	return false
}

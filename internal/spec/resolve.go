package spec

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// PrivacyModel is the privacy model a run's budget is stated in.
type PrivacyModel int

const (
	// ZCDP: ρ-zCDP with ρ = ε²/2 (the Gaussian oracles).
	ZCDP PrivacyModel = iota
	// Shuffle: (ε, δ)-shuffle DP (the shuffle oracles).
	Shuffle
	// Accountant: (ε', δ)-DP by a privacy accountant for a solver accounted
	// as a whole (dp-sgd's Poisson-subsampled Gaussian steps), its target
	// the exact (ε', δ) of ρ = ε²/2 zCDP at the run's δ, so that it runs on
	// the same privacy as the zCDP solvers beside it.
	Accountant
)

// Privacy is a run's per-sample privacy budget, computed once, at
// resolution: ρ = ε²/2 (theory.Rho) for zCDP, (ε, δ) for the shuffle
// model, and for an accounted solver the (ε', δ) target of its accountant.
// Eps = +Inf means no privacy (no noise, and no clipping unless one is
// given).
type Privacy struct {
	Model PrivacyModel
	// Eps is the ε the run was given: the zCDP ε, or the shuffle ε.
	Eps float64
	// Rho is ρ = ε²/2 (ZCDP and Accountant; +Inf at ε = ∞; 0 for Shuffle).
	Rho float64
	// Delta is the run's δ: the shuffle model's, or for ZCDP and
	// Accountant the δ at which the (ε', δ)-DP equivalent is stated (and
	// the accountant calibrated).
	Delta float64
	// EpsDelta is the ε' of the run's (ε', δ)-DP statement at Delta: for
	// ZCDP and Accountant the exact ε' of ρ-zCDP (theory.EpsExact, the
	// Gaussian mechanism's privacy curve; the accountant's target), for
	// Shuffle the shuffle ε; +Inf without privacy.
	EpsDelta float64
	// AccountantName is the accountant ("pld" or "rdp"; Accountant only).
	AccountantName string
	// Adjacency is the neighbouring relation the statement is about:
	// ReplaceOne (the paper's: every zCDP and shuffle solver, and dp-sgd
	// by default) or AddRemove (dp-sgd with --adjacency add-remove).
	Adjacency string
}

// Private reports whether the budget is finite.
func (p Privacy) Private() bool { return !math.IsInf(p.Eps, 1) }

// Cost is the budget as the ledger states a per-sample cost: ρ for zCDP,
// (ε, δ) for the shuffle model, (ε', δ) for an accounted solver.
func (p Privacy) Cost() ledger.Cost {
	switch p.Model {
	case Shuffle:
		return ledger.Cost{Eps: p.Eps, Delta: p.Delta}
	case Accountant:
		return ledger.Cost{Eps: p.EpsDelta, Delta: p.Delta}
	}
	return ledger.Cost{Rho: p.Rho}
}

// PrivacyOf is the budget of solver d in a run of r (in a comparison each
// solver has its own): r's zCDP or shuffle budget for the solvers charged
// call by call, and for an accounted solver (d.Accounted, dp-sgd) at a
// finite zCDP ε the Accountant model with the same ε, ρ, δ and target ε'.
func (r Resolved) PrivacyOf(d solvers.Descriptor) Privacy {
	p := r.Privacy
	if p.Model == Shuffle {
		p.Adjacency = ReplaceOne
		return p
	}
	p.Model, p.AccountantName, p.Adjacency = ZCDP, "", ReplaceOne
	if d.Accounted && p.Private() {
		p.Model, p.AccountantName, p.Adjacency = Accountant, r.Spec.Accountant, r.Spec.Adjacency
	}
	return p
}

// Resolved is a Spec with every default made explicit and every value
// parsed into its type, once: nothing downstream resolves or parses the
// Spec again (parse, don't validate). Its fields are read-only by
// convention; At derives a sweep point from it.
type Resolved struct {
	// Spec is the Spec with every default explicit (user data's n stays 0,
	// "all rows", until its problem is built). Args, the explorer's cache
	// keys and the reports' headers read it.
	Spec Spec
	// Problem is the resolved definition of the problem.
	Problem scenarios.ProblemDef
	// Solver is the run's solver.
	Solver solvers.Descriptor
	// Schedule is the paper solver of the class, whose schedule the
	// baselines sgd and lipschitz-dpsgd reuse.
	Schedule string
	// Oracle is the oracle the run's solver uses: Spec.Oracle, or the
	// solver's default.
	Oracle string
	// Privacy is the per-sample budget.
	Privacy Privacy
	// Assumption is the moment assumption whose constants the
	// prescription reads (Spec.Assumption; theory.Tilde when unset),
	// allowed for the run's class by theory.PrescriptionAllows.
	Assumption theory.Assumption
	// Rand is the randomness mode.
	Rand solvers.RandMode
	// ConstantsShare is ρ₀/ρ of private estimates of the constants
	// (Spec.Constants "private[:S]"), 0 with declared constants.
	ConstantsShare float64
	// Composition says how the budget relates to everything the call
	// releases from the same data; [Resolved.ForReleases] sets it for m
	// releases (one release until then).
	Composition Composition
	// DefaultNotes say which defaults this run's other fields changed
	// from the catalogue's, and why ("n = 1024: the largest n …"), so
	// that a default that moves with the class, k or the tail is shown
	// where it moves (a run's notes, dpso list).
	DefaultNotes []string
}

// UserRows reports whether the data are the user's rows (--data), whose
// privacy the run's outputs must respect, rather than draws from a public
// distribution.
func (r Resolved) UserRows() bool { return r.Problem.UserRows() }

// Resolve validates s and returns it resolved: every default explicit,
// every value parsed. It is cheap (no I/O, no Monte Carlo), so the explorer
// calls it on every change of its form. Errors are *SpecError naming the
// first invalid field: first each field's own range (the Fields table, in
// order), then the problem's source, the class, the solver and oracle, the
// privacy parameters, the problem's scenario-dependent rules
// (scenarios.ProblemDef.Resolve) and the rules across fields.
func (s Spec) Resolve() (Resolved, error) {
	r := Resolved{Spec: s.Clone()}
	if err := r.resolve(); err != nil {
		return Resolved{}, err
	}
	return r, nil
}

func (r *Resolved) resolve() error {
	s := &r.Spec
	if err := checkRanges(s); err != nil {
		return err
	}
	p := scenarios.ProblemDef{
		Scenario: s.Scenario, Data: s.Data, Loss: scenarios.Loss(s.Loss), EstimateConstants: s.EstimateConstants,
		PrivateConstants: strings.HasPrefix(s.Constants, ConstantsPrivate), Holdout: s.Holdout,
		N: s.N, D: s.D, Diam: s.Diam, Tail: s.Tail, K: s.K,
		Lambda1: s.Lambda1, Lambda2: s.Lambda2, Params: s.Params,
		Beta: s.Beta, Mu: s.Mu, R2: s.R2, Rk: s.Rk, R2k: s.R2k, Lf: s.Lf,
	}
	if err := p.ResolveSource(); err != nil {
		return err
	}

	// Class.
	classes := p.Classes()
	if s.Class == "" {
		s.Class = classes[0]
	}
	if _, err := theory.ParseClass(string(s.Class)); err != nil {
		return specErr("class", "%v", err)
	}
	if !slices.Contains(classes, s.Class) {
		return specErr("class", "%s does not support class %s (supported: %s)", p.Name(), s.Class, classList(classes))
	}
	p.Class = s.Class

	// Solver and oracle.
	paper, ok := solvers.PaperSolver(s.Class)
	if !ok {
		return specErr("class", "no paper solver is registered for class %s", s.Class)
	}
	r.Schedule = paper.Name()
	if s.Solver == "" {
		s.Solver = paper.Name()
	}
	var renamed string
	if c, ok := solvers.Canonical(s.Solver); ok {
		renamed = renamedNote(s.Solver, c)
		s.Solver = c
	}
	d, ok := solvers.DescriptorOf(s.Solver)
	if !ok {
		return specErr("solver", "unknown solver %s (registered: %s)", theory.Quote(s.Solver), strings.Join(solvers.Names(), ", "))
	}
	if !d.Baseline() && d.Class != s.Class {
		return specErr("solver", "%s is the paper's algorithm for class %s, not %s (use class %s, or solver %s for %s, or a baseline)",
			s.Solver, d.Class, s.Class, d.Class, paper.Name(), s.Class)
	}
	r.Oracle = d.DefaultOracle
	kind := oracle.ZCDP
	if s.Oracle != "" {
		k, ok := oracle.KindOf(s.Oracle)
		if !ok {
			return specErr("oracle", "unknown oracle %s (want one of %s)", theory.Quote(s.Oracle), strings.Join(oracle.Names(), ", "))
		}
		r.Oracle, kind = s.Oracle, k
	}

	// The moment assumption of the prescription.
	if err := r.resolveAssumption(); err != nil {
		return err
	}

	// Privacy.
	if s.Eps == 0 {
		s.Eps = DefaultEps
	}
	shuffle := kind == oracle.Shuffle
	switch {
	case shuffle && s.Delta == 0:
		s.Delta = DefaultDelta
	case s.Delta == 0:
		s.Delta = DefaultConversionDelta
	}
	if shuffle && !(s.Delta < MaxDelta) {
		return specErr("delta", "δ = %s is outside (0, 1/2) (the shuffle protocols' range)", theory.FormatNumber(s.Delta))
	}
	if shuffle && math.IsInf(s.Eps, 1) {
		return specErr("eps", "the shuffle oracle %s needs a finite ε in (0, ∞)", s.Oracle)
	}
	if m := oracle.ShuffleEpsMax(s.Oracle); shuffle && s.Eps > m {
		return specErr("eps", "ε = %s is above %s, the largest ε the shuffle oracle %s is proven for (0 < ε ≤ %s); give a smaller ε, or another oracle", theory.FormatNumber(s.Eps), theory.FormatNumber(m), s.Oracle, theory.FormatNumber(m))
	}
	if err := checkEps(s.Eps); err != nil {
		return err
	}
	if err := resolveSolverOptions(s); err != nil {
		return err
	}
	r.Solver = r.Configured(d)
	r.Privacy = Privacy{Model: ZCDP, Eps: s.Eps, Rho: theory.Rho(s.Eps), Delta: s.Delta, EpsDelta: theory.EpsExact(s.Eps, s.Delta)}
	if shuffle {
		r.Privacy = Privacy{Model: Shuffle, Eps: s.Eps, Delta: s.Delta, EpsDelta: s.Eps}
	}
	r.Privacy = r.PrivacyOf(d)
	p.Eps = s.Eps
	share, err := resolveConstants(s, shuffle, r.Assumption)
	if err != nil {
		return err
	}
	r.ConstantsShare = share

	// The problem.
	p.Needs = scenarios.ConstantNeeds{None: s.Iters > 0 && s.Clip > 0 && s.Step > 0, R2k: d.Moments == solvers.Moment2K, Solver: s.Solver}
	if d.OnSchedule && paper.Moments == solvers.Moment2K {
		p.Needs.R2k, p.Needs.Solver = true, s.Solver+" (on "+paper.Name()+"'s schedule)"
	}
	class, wb := s.Class, s.WorkBudget
	unresolved := p.Clone()
	if err := p.Resolve(func(n0 int, k float64) int { return defaultN(n0, class, k, wb) }); err != nil {
		return err
	}
	r.DefaultNotes = defaultNotes(s.Solver, unresolved, p, wb)
	if renamed != "" {
		r.DefaultNotes = append(r.DefaultNotes, renamed)
	}
	r.Problem = p
	s.Loss = string(p.Loss)
	s.Scenario, s.N, s.D, s.Diam, s.Tail, s.K = p.Scenario, p.N, p.D, p.Diam, p.Tail, p.K
	s.Lambda1, s.Lambda2, s.Params = p.Lambda1, p.Lambda2, p.Params
	if s.Data != "" {
		s.Scenario = ""
	}

	// Rules across fields.
	if err := r.CheckSize(d); err != nil {
		return err
	}
	if math.IsInf(s.Clip, 1) && !math.IsInf(s.Eps, 1) {
		return specErr("clip", "C = ∞ (no clipping) has unbounded sensitivity; it needs eps = ∞")
	}
	if s.Trials == 0 {
		s.Trials = DefaultTrials
		if p.UserRows() {
			s.Trials = DefaultDataTrials
		}
	}
	if s.Rand == "" {
		s.Rand = solvers.Seeded.String()
		if p.UserRows() {
			s.Rand = solvers.Secure.String()
		}
	}
	mode, err := solvers.ParseRandMode(s.Rand)
	if err != nil {
		return specErr("rand", "unknown randomness mode %s (want seeded or secure)", theory.Quote(s.Rand))
	}
	r.Rand = mode
	if s.SplitBudget && !r.Privacy.Private() {
		return specErr("split-budget", "ε = ∞ is no budget to split (give a finite --eps)")
	}
	r.Composition = Composition{Releases: 1, Requested: r.Privacy}
	if s.Batch > 0 && s.N > 0 && s.Batch > s.N {
		return specErr("batch", "B = %s is more than n = %s (dp-sgd's expected batch is qn with q ≤ 1)", theory.FormatCount(s.Batch), theory.FormatCount(s.N))
	}
	if s.N > 0 {
		if err := CheckSamplingRate(*s, s.N); err != nil {
			return err
		}
	}
	r.Problem = r.Problem.Clone() // the Spec and the problem share no maps or pointers
	return nil
}

// renamedNote says that a solver was named by its former name.
func renamedNote(old, name string) string {
	return fmt.Sprintf("solver %s is the former name of %s, the paper solver's schedule at this ε run without clipping or noise: it moves with ε and is no floor (the non-private reference, the empirical risk minimizer on the same draws, is shown beside every run)", old, name)
}

// CanonicalNames are names with every former solver name replaced by the
// solver's name (solvers.Canonical), and the notes that say so.
func CanonicalNames(names []string) ([]string, []string) {
	out := slices.Clone(names)
	var notes []string
	for i, n := range out {
		if c, ok := solvers.Canonical(n); ok {
			out[i] = c
			notes = append(notes, renamedNote(n, c))
		}
	}
	return out, notes
}

// CheckSamplingRate refuses a dp-sgd sampling rate q whose expected batch
// qn is below one sample at n: T = ⌈E/q⌉ steps while the work budget
// (T·qn gradient evaluations) never binds — q = 10⁻³⁰⁰ planned 2³¹ − 1
// steps and ran for hours. Resolve checks it where n is known; the engine
// at the n of the built problem (user data: its rows; each sweep point).
func CheckSamplingRate(s Spec, n int) error {
	if q := s.SamplingRate; q > 0 && n > 0 && q*float64(n) < 1-1e-12 { // qn = 1 within rounding
		return specErr("sampling-rate", "q = %s gives an expected batch qn = %s below one sample at n = %s (T = ⌈E/q⌉ steps would be mostly empty); want q ≥ 1/n = %s",
			theory.FormatNumber(q), theory.FormatNumber(q*float64(n)), theory.FormatCount(n), theory.FormatNumber(1/float64(n)))
	}
	return nil
}

// resolveSolverOptions checks the settings of dp-sgd and klz-gd that do
// not depend on the problem and makes dp-sgd's accountant explicit; every
// range was checked by the field table.
func resolveSolverOptions(s *Spec) error {
	switch s.Accountant {
	case "":
		s.Accountant = DefaultAccountant
	case "pld", "rdp":
	default:
		return specErr("accountant", "unknown accountant %s (want pld or rdp)", theory.Quote(s.Accountant))
	}
	switch s.Adjacency {
	case "":
		s.Adjacency = ReplaceOne
	case ReplaceOne, AddRemove:
	default:
		return specErr("adjacency", "unknown adjacency %s (want %s or %s)", theory.Quote(s.Adjacency), ReplaceOne, AddRemove)
	}
	switch {
	case s.Batch > 0 && s.SamplingRate > 0:
		return specErr("sampling-rate", "give dp-sgd's batch once: the expected batch size B, or the sampling rate q = B/n, not both")
	case math.IsInf(s.KLZTau, 1) && !math.IsInf(s.Eps, 1):
		return specErr("klz-tau", "τ = ∞ (no clipping) has unbounded sensitivity; it needs eps = ∞")
	case s.KLZTau > 0 && s.Clip > 0:
		return specErr("klz-tau", "give klz-gd's clip threshold once: τ, or the ℓ2 threshold clip = τ√d, not both")
	}
	return nil
}

// CheckSolverFields refuses a setting of one solver (a field whose
// Field.Solver is not "": dp-sgd's accountant, batch, sampling rate, epochs
// and adaptive clipping; klz-gd's groups and τ) that s gives for a call
// that does not run that solver — names, a comparison's or a sweep's
// solvers, or, when names is empty, s's own solver — naming the field: a
// setting the call would ignore is refused rather than dropped. In a
// comparison that includes the solver the setting applies to it alone,
// except dp-sgd's add-remove adjacency, which a call with more than one
// solver refuses: a comparison is at one adjacency, the paper's
// replace-one. s is the Spec as the user gave it (Resolve makes dp-sgd's
// accountant and adjacency explicit), so callers check it beside Resolve.
func (s Spec) CheckSolverFields(names []string) error {
	runs := names
	if len(runs) == 0 {
		runs = []string{s.Solver}
	}
	if s.Adjacency == AddRemove && len(runs) > 1 {
		// Equal privacy needs one relation: the paper's solvers are
		// private under replace-one only.
		return specErr("adjacency", "a comparison states one adjacency, the paper's replace-one, under which every solver is private; add-remove (practitioners' accounting) applies to dp-sgd run alone (--solver dp-sgd)")
	}
	for _, f := range fields {
		owner := f.Solver()
		if owner == "" || f.Text(&s) == "" || slices.Contains(runs, owner) {
			continue
		}
		what := "this run's solver is " + s.Solver
		switch {
		case len(names) > 1:
			what = "the comparison runs " + strings.Join(names, ", ")
		case len(names) == 0 && s.Solver == "":
			what = "this run's solver is the class's paper algorithm"
		}
		return specErr(f.Name, "a setting of %s alone, and %s: leave it out, or run %s (--solver %s, or in a comparison --solvers …,%s)",
			owner, what, owner, owner, owner)
	}
	return nil
}

func classList(cs []theory.Class) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return strings.Join(out, ", ")
}

// Config is the solvers.Config of one trial of r (every solver of a
// comparison gets the same; Oracle "" lets each use its own default; each
// solver's own settings are on its value, Configured).
func (r Resolved) Config(trial int, observe func(solvers.Checkpoint)) solvers.Config {
	s := &r.Spec
	return solvers.Config{
		Eps: r.Privacy.Eps, Delta: r.Privacy.Delta, K: s.K, Oracle: s.Oracle, Assumption: solvers.Assumption(r.Assumption),
		Iters: s.Iters, Clip: s.Clip, Step: s.Step, WorkBudget: s.WorkBudget, Schedule: r.Schedule,
		Seed: s.Seed, Trial: trial, Rand: r.Rand, Checkpoints: s.Checkpoints, Observe: observe,
	}
}

// Swept fields: the parameters a sweep can vary.
const (
	SweepN   = "n"
	SweepEps = "eps"
	SweepD   = "d"
	// SweepClip varies the clip threshold C (an override of every phase's
	// C_i), SweepK the moment order k the prescription uses.
	SweepClip = "clip"
	SweepK    = "k"
)

// At is r with the swept field param (SweepN, SweepEps, SweepD, SweepClip
// or SweepK) set to v:
// one sweep point. The point is checked by resolving r's own resolved Spec
// with that field changed — cheap, and needed, since n, d and ε enter
// range rules, the hard instances' law and, for a run that materializes its
// dataset, the size cap n·(d+1) (CheckSize); the
// defaults r made explicit stay as they are (none of them depends on n, d
// or ε).
func (r Resolved) At(param string, v float64) (Resolved, error) {
	s := r.Spec.Clone()
	switch param {
	case SweepN:
		s.N = int(v)
	case SweepD:
		s.D = int(v)
	case SweepEps:
		s.Eps = v
	case SweepClip:
		s.Clip = v
	case SweepK:
		s.K = v
	default:
		return Resolved{}, specErr("sweep", "cannot sweep %s (want n, eps, d, clip or k)", theory.Quote(param))
	}
	return s.Resolve()
}

// resolveAssumption parses Spec.Assumption and checks, once, that the run
// may use it: the class's precise theorem must hold under it
// (theory.PrescriptionAllows, whose theorem is named in the refusal), the
// problem must declare its constants (a scenario: user data have only
// r̃_k), and no override of r̃₂, r̃_k or r̃_2k may be given (the
// prescription would not read it).
func (r *Resolved) resolveAssumption() error {
	s := &r.Spec
	r.Assumption = theory.Tilde
	if s.Assumption == "" {
		return nil
	}
	a, err := theory.ParseAssumption(s.Assumption)
	if err != nil {
		return specErr("assumption", "%v", err)
	}
	r.Assumption = a
	if a == theory.Tilde {
		return nil
	}
	al := theory.PrescriptionAllows(s.Class, a)
	if !al.Allowed {
		return specErr("assumption", "%s (%s) cannot set the prescription of class %s: %s [%s]; use tilde", a, a.Label(), s.Class, al.Reason, al.Label)
	}
	if s.Data != "" {
		return specErr("assumption", "user data declare r̃_k only (--rk, --estimate-constants); %s (%s) needs %s, which dpso computes for the catalogue's scenarios", a, a.Label(), a.Symbol())
	}
	for _, o := range []struct {
		name string
		v    float64
	}{{"r2", s.R2}, {"rk", s.Rk}, {"r2k", s.R2k}} {
		if o.v > 0 {
			return specErr("assumption", "--%s overrides an ass:tilde moment, which the assumption %s does not read (it reads %s); drop one of them", o.name, a, a.Symbol())
		}
	}
	return nil
}

// Materializes reports whether running the solver d on r keeps the whole
// dataset in memory: user rows always (they are read into memory); on a
// synthetic scenario, when the solver makes several passes (its
// Descriptor's Materializes, on r's schedule). This and
// solvers.Descriptor.Materializes are the one rule that decides which runs
// the size cap binds.
func (r Resolved) Materializes(d solvers.Descriptor) bool {
	return r.UserRows() || d.Materializes(r.Schedule)
}

// CheckSize refuses, as a *SpecError on "n", running the solver d on a
// synthetic scenario whose materialized dataset would pass the cap
// n·(d+1) ≤ scenarios.MaxFloats (1.6 GB), saying why and the largest n
// allowed. A solver that streams reads one sample at a time in O(d) memory
// and is held to n ≤ scenarios.MaxN only. User data are capped where the
// file is read (scenarios.LoadCSV), since their n and d are known only
// then.
func (r Resolved) CheckSize(d solvers.Descriptor) error {
	n, dim := int64(r.Problem.N), int64(r.Problem.D)
	if r.UserRows() || !d.Materializes(r.Schedule) || n*(dim+1) <= scenarios.MaxFloats {
		return nil
	}
	how := "makes several passes and keeps the dataset in memory"
	if d.Data == solvers.AsSchedule {
		how = "runs " + r.Schedule + "'s schedule, which makes several passes and keeps the dataset in memory"
	}
	msg := sprintf("%s %s: n·(d+1) = %s floats (%s GB) exceeds the %s (1.6 GB) a materialized dataset may take; lower n (at d = %s, n ≤ %s)",
		d.Name(), how, theory.FormatCount(n*(dim+1)), theory.Sig4.Format(float64(n*(dim+1))*8/1e9), theory.FormatCount(int64(scenarios.MaxFloats)), theory.FormatCount(dim), theory.FormatCount(int64(scenarios.MaxFloats)/(dim+1)))
	if p, ok := solvers.PaperSolver(r.Spec.Class); ok && p.Name() != d.Name() && !p.Materializes(r.Schedule) {
		msg += sprintf(", or run %s, which streams its samples in O(d) memory at any n ≤ %s", p.Name(), theory.FormatCount(int64(scenarios.MaxN)))
	}
	return specErr("n", "%s", msg)
}

// resolveConstants checks --constants and returns the share ρ₀/ρ of
// private estimates (0 for declared constants): they need a finite zCDP
// budget to take their share from (not the shuffle model's (ε, δ)),
// exclude the non-private estimate from the data, and estimate r̃_k (the
// default assumption) only. "private:S" gives the share S ∈ (0, 1);
// "private" is the default share; the Spec keeps "private" for it and
// "private:S" otherwise.
func resolveConstants(s *Spec, shuffle bool, a theory.Assumption) (float64, error) {
	v := s.Constants
	if v == "" || v == "declared" {
		s.Constants = ""
		return 0, nil
	}
	share := DefaultConstantsShare
	rest, ok := strings.CutPrefix(v, ConstantsPrivate)
	switch {
	case !ok:
		return 0, specErr("constants", "unknown source of constants %s (want declared, private, or private:S with a share S in (0, 1))", theory.Quote(v))
	case rest != "":
		x, err := theory.ParseNumber(strings.TrimPrefix(rest, ":"))
		if !strings.HasPrefix(rest, ":") || err != nil || !(x > 0 && x < 1) {
			return 0, specErr("constants", "%s: the share of the budget after private: must be a number in (0, 1), as in private:0.2", theory.Quote(v))
		}
		share = x
	}
	switch {
	case math.IsInf(s.Eps, 1):
		return 0, specErr("constants", "private estimates take a share of a finite budget; ε = ∞ has none (give a finite ε, or declared constants)")
	case shuffle:
		return 0, specErr("constants", "private estimates are zCDP releases; the shuffle oracle %s states its budget as (ε, δ), which has no zCDP share to give them", s.Oracle)
	case s.EstimateConstants:
		return 0, specErr("constants", "private estimates and the estimate from the data (not private) exclude each other; choose one")
	case a != "" && a != theory.Tilde:
		return 0, specErr("constants", "private estimates read r̃_k (Assumption ass:tilde); the assumption %s reads constants they do not estimate", a)
	}
	s.Constants = ConstantsPrivate
	if share != DefaultConstantsShare {
		s.Constants += ":" + FormatArg(share)
	}
	return share, nil
}

// PrivateConstants reports whether the run estimates its constants
// privately.
func (r Resolved) PrivateConstants() bool { return r.ConstantsShare > 0 }

// ConstantsRho is ρ₀, the zCDP budget of a private estimate of the
// constants: ConstantsShare·ρ of the per-release budget (0 with declared
// constants).
func (r Resolved) ConstantsRho() float64 {
	return r.ConstantsShare * r.Privacy.Rho
}

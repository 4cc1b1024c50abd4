package spec

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// Kind is the type of a Spec field's value.
type Kind int

const (
	String Kind = iota
	Bool
	Float
	Int
	Uint
	// OptFloat is a *float64: nil is "the default", 0 a value (λ₁, λ₂).
	OptFloat
	// ParamMap is Params: one flag per scenario parameter.
	ParamMap
)

// Group is the set of flags a command offers; a Field belongs to one.
type Group int

const (
	// Problem fields choose the problem and its privacy: scenario, class,
	// k, ε, n, d, D, tail, λ's, the scenario parameters.
	Problem Group = 1 << iota
	// Data fields are --data, --loss and --estimate-constants.
	Data
	// Solver fields choose the algorithm, its oracle, δ and the overrides
	// of the prescription.
	Solver
	// Runner fields are trials, seed, randomness and the runner's knobs.
	Runner
	// Constant fields override the declared constants (beta, mu, r2, rk,
	// r2k, lf).
	Constant
)

// Field is one field of a Spec: the one table that drives the Spec's
// range checks (Resolve), its reproduce line (Args), its JSON, and the CLI
// flag of the same name (its help text, type and parsing), so that what a
// flag accepts, what its help says and what a run checks cannot drift.
type Field struct {
	// Name is the field's JSON name, the CLI flag's name and a
	// *SpecError's Field.
	Name  string
	Group Group
	Kind  Kind
	// Range is the allowed interval of a number whose range does not
	// depend on the scenario (nil when it does, or for non-numbers). For
	// Int fields its ends are integers.
	Range *theory.Interval
	// ZeroDefault: the value 0 means "the default"; an explicit 0 outside
	// Range is then refused where it is typed (Set), since a Spec cannot
	// tell it from "unset".
	ZeroDefault bool
	// Symbol names the value in messages ("ε", "T", …); Note, if any, is
	// said in parentheses after the range.
	Symbol string
	note   func() string
	// usage is the help text before the range.
	usage func() string

	f64 func(*Spec) *float64
	i   func(*Spec) *int
	i64 func(*Spec) *int64
	u64 func(*Spec) *uint64
	str func(*Spec) *string
	bl  func(*Spec) *bool
	opt func(*Spec) **float64
}

func closed(lo, hi float64) *theory.Interval { return &theory.Interval{Lo: lo, Hi: hi} }

var inf = math.Inf(1)

// MaxSeedText is the largest seed, 2⁶⁴ − 1 = 18446744073709551615, as
// messages and help write it.
const MaxSeedText = "2⁶⁴ − 1"

// fields is the table, in the Spec's field order (the order of Args).
var fields = []Field{
	{Name: "scenario", Group: Problem, Kind: String, str: func(s *Spec) *string { return &s.Scenario },
		usage: func() string {
			return "scenario from the catalogue: " + strings.Join(scenarios.ScenarioNames(), ", ") + " (default " + scenarios.DefaultScenario + " unless --data is given; see dpso list)"
		}},
	{Name: "data", Group: Data, Kind: String, str: func(s *Spec) *string { return &s.Data },
		usage: text("CSV file of user data, one sample per line, the label last (instead of --scenario; n = its rows)")},
	{Name: "loss", Group: Data, Kind: String, str: func(s *Spec) *string { return &s.Loss },
		usage: func() string {
			ls := make([]string, len(scenarios.Losses))
			for i, l := range scenarios.Losses {
				ls[i] = string(l)
			}
			return "loss for --data: " + strings.Join(ls, ", ") + " (default squared)"
		}},
	{Name: "estimate-constants", Group: Data, Kind: Bool, bl: func(s *Spec) *bool { return &s.EstimateConstants },
		usage: text("estimate undeclared constants of --data from the data itself (NOT private; results say so)")},
	{Name: "holdout", Group: Data, Kind: Float, Range: closed(0, scenarios.MaxHoldout), Symbol: "holdout", note: text("the held-out fraction of --data's rows"),
		f64: func(s *Spec) *float64 { return &s.Holdout }, usage: text("--data: hold this fraction of the rows out of every solver and report the held-out loss beside the in-sample excess risk (0: none)")},
	{Name: "constants", Group: Constant, Kind: String, str: func(s *Spec) *string { return &s.Constants },
		usage: text("where the prescription's constants come from: declared (the scenario's, or the flags') or private[:S] (r̃_2, r̃_k, r̃_2k, β, μ estimated from each trial's data under zCDP with the share S of ρ, default 0.1; the run gets the rest) (default declared)")},
	{Name: "class", Group: Problem, Kind: String, str: func(s *Spec) *string { return (*string)(&s.Class) },
		usage: func() string {
			cs := make([]string, len(theory.Classes))
			for i, c := range theory.Classes {
				cs[i] = string(c)
			}
			return "loss class: " + strings.Join(cs, ", ") + " (default the scenario's first class)"
		}},
	{Name: "solver", Group: Solver, Kind: String, str: func(s *Spec) *string { return &s.Solver },
		usage: func() string {
			var parts []string
			for _, c := range theory.Classes {
				d, _ := solvers.PaperSolver(c)
				parts = append(parts, string(c)+" → "+d.Name())
			}
			return "solver: " + strings.Join(solvers.Names(), ", ") + " (default the paper's algorithm for the class: " + strings.Join(parts, ", ") + ")"
		}},
	{Name: "oracle", Group: Solver, Kind: String, str: func(s *Spec) *string { return &s.Oracle },
		usage: func() string {
			return "mean oracle: " + strings.Join(oracle.Names(), ", ") + " (default " + defaultOracles() + ")"
		}},
	{Name: "k", Group: Problem, Kind: Float, Range: &theory.Interval{Lo: 2, Hi: inf}, ZeroDefault: true, Symbol: "k",
		note: text("the moment order of Assumption 1"), f64: func(s *Spec) *float64 { return &s.K },
		usage: text("moment order k of Assumption 1 (inf: r̃_∞ = L_f; default 2, or the scenario's own where its moments exist: dpso list)")},
	{Name: "eps", Group: Problem, Kind: Float, Range: &theory.Interval{Lo: MinEps, Hi: inf}, ZeroDefault: true, Symbol: "ε",
		note: func() string {
			return "zCDP ε, ρ = ε²/2; finite values at most " + theory.FormatNumber(MaxEps) + ", beyond which ρ or the noise leaves float64's range"
		}, f64: func(s *Spec) *float64 { return &s.Eps },
		usage: text("zCDP ε, ρ = ε²/2 (inf: no privacy; default 1)")},
	{Name: "assumption", Group: Solver, Kind: String, str: func(s *Spec) *string { return &s.Assumption },
		usage: text("moment assumption whose constants the prescription reads: tilde (r̃_k = (E sup_w ‖∇f‖^k)^(1/k), ass:tilde, the default), " +
			"noncentral (r_k = sup_w (E‖∇f‖^k)^(1/k) ≤ r̃_k, ass:boundednoncentral) or coordinatewise (γ_k, ass:coordinatewise, via lem: comparing assumptions); " +
			"the last two for the smooth classes only, whose precise theorems hold under them (see dpso moments)")},
	{Name: "delta", Group: Solver, Kind: Float, Range: &theory.Interval{Lo: MinDelta, Hi: 1, HiOpen: true}, ZeroDefault: true, Symbol: "δ",
		f64:   func(s *Spec) *float64 { return &s.Delta },
		usage: text("δ: of the shuffle oracles' (ε, δ) guarantee (default 10⁻⁶; must be < 1/2), otherwise of the run's (ε', δ)-DP equivalent and of dp-sgd's accountant target (default 10⁻⁵)")},
	{Name: "n", Group: Problem, Kind: Int, Range: closed(2, scenarios.MaxN), ZeroDefault: true, Symbol: "n",
		i: func(s *Spec) *int { return &s.N }, usage: text("samples n (default per scenario and class: dpso list; --data: all rows)")},
	{Name: "d", Group: Problem, Kind: Int, Range: closed(1, scenarios.MaxD), ZeroDefault: true, Symbol: "d",
		i: func(s *Spec) *int { return &s.D }, usage: text("dimension d (default the scenario's)")},
	{Name: "diam", Group: Problem, Kind: Float, Range: &theory.Interval{Lo: 0, Hi: scenarios.MaxDiam, LoOpen: true}, ZeroDefault: true, Symbol: "D",
		note: text("the diameter of W = B(0, D/2)"), f64: func(s *Spec) *float64 { return &s.Diam },
		usage: text("diameter D of the domain W = B(0, D/2) (default the scenario's; --data: 2)")},
	{Name: "tail", Group: Problem, Kind: Float, ZeroDefault: true, f64: func(s *Spec) *float64 { return &s.Tail },
		usage: text("the scenario's tail parameter: ν of a Student-t, α of a Pareto, η the contamination fraction (default and range per scenario: dpso list)")},
	{Name: "lambda1", Group: Problem, Kind: OptFloat, opt: func(s *Spec) **float64 { return &s.Lambda1 },
		usage: text("ℓ1 weight λ₁ (lasso-t; --data with class ppl)")},
	{Name: "lambda2", Group: Problem, Kind: OptFloat, opt: func(s *Spec) **float64 { return &s.Lambda2 },
		usage: text("ℓ2 weight λ₂ (logreg-t, hinge-t, absreg-t: μ = λ₂ for the strongly convex classes; lasso-t's elastic net; --data)")},
	{Name: "params", Group: Problem, Kind: ParamMap},
	constant("beta", "beta", closed(0, scenarios.MaxConstant), "0 = the declared constant", "smoothness β override (0: the declared value)", func(s *Spec) *float64 { return &s.Beta }),
	constant("mu", "mu", closed(0, scenarios.MaxConstant), "0 = the declared constant", "strong convexity μ override (0: the declared value)", func(s *Spec) *float64 { return &s.Mu }),
	constant("r2", "r2", &theory.Interval{Lo: 0, Hi: inf, HiOpen: true}, "0 = the declared moment; a moment an algorithm uses must be finite", "moment r̃₂ override (0: the declared value)", func(s *Spec) *float64 { return &s.R2 }),
	constant("rk", "rk", &theory.Interval{Lo: 0, Hi: inf, HiOpen: true}, "0 = the declared moment; a moment an algorithm uses must be finite", "moment r̃_k override (0: the declared value)", func(s *Spec) *float64 { return &s.Rk }),
	constant("r2k", "r2k", &theory.Interval{Lo: 0, Hi: inf, HiOpen: true}, "0 = the declared moment; a moment an algorithm uses must be finite", "moment r̃_2k override (0: the declared value)", func(s *Spec) *float64 { return &s.R2k }),
	constant("lf", "L_f", closed(0, inf), "0 = declared", "worst-case Lipschitz L_f override (0: the declared value)", func(s *Spec) *float64 { return &s.Lf }),
	{Name: "iters", Group: Solver, Kind: Int, Range: closed(0, MaxIters), Symbol: "T", note: text("0 = prescribed"),
		i: func(s *Spec) *int { return &s.Iters }, usage: text("iterations T override (0: prescribed)")},
	{Name: "clip", Group: Solver, Kind: Float, Range: closed(0, inf), Symbol: "C", note: text("0 = prescribed"),
		f64: func(s *Spec) *float64 { return &s.Clip }, usage: text("clip threshold C override (0: prescribed; inf only with --eps inf)")},
	{Name: "step", Group: Solver, Kind: Float, Range: closed(0, scenarios.MaxConstant), Symbol: "step", note: text("0 = prescribed"),
		f64: func(s *Spec) *float64 { return &s.Step }, usage: text("step-size parameter override (0: prescribed)")},
	{Name: "accountant", Group: Solver, Kind: String, str: func(s *Spec) *string { return &s.Accountant },
		usage: text("dp-sgd's privacy accountant: pld (privacy loss distribution, tight) or rdp (Rényi DP) (default " + DefaultAccountant + ")")},
	{Name: "adjacency", Group: Solver, Kind: String, str: func(s *Spec) *string { return &s.Adjacency },
		usage: text("dp-sgd's neighbouring relation: replace-one (one record replaced, the paper's and every other solver's) or add-remove (one record added or removed, as Opacus and TF Privacy account; dp-sgd alone) (default " + ReplaceOne + ")")},
	{Name: "batch", Group: Solver, Kind: Int, Range: closed(0, scenarios.MaxN), Symbol: "B", note: text("0 = min(256, n)"),
		i: func(s *Spec) *int { return &s.Batch }, usage: text("dp-sgd's expected batch size B = qn (0: min(256, n); at most n; not with --sampling-rate)")},
	{Name: "sampling-rate", Group: Solver, Kind: Float, Range: closed(1.0/scenarios.MaxN, 1), ZeroDefault: true, Symbol: "q",
		note: text("dp-sgd's Poisson sampling rate"), f64: func(s *Spec) *float64 { return &s.SamplingRate },
		usage: text("dp-sgd's Poisson sampling rate q (default B/n; at least 1/n, an expected batch qn of one sample or more; not with --batch)")},
	{Name: "epochs", Group: Solver, Kind: Float, Range: &theory.Interval{Lo: 0, Hi: MaxEpochs, LoOpen: true}, ZeroDefault: true, Symbol: "E",
		note: text("dp-sgd's expected passes over the data"), f64: func(s *Spec) *float64 { return &s.Epochs },
		usage: text("dp-sgd's expected passes E over the data: T = ⌈E/q⌉ steps (default 5)")},
	{Name: "adaptive-clip", Group: Solver, Kind: Bool, bl: func(s *Spec) *bool { return &s.AdaptiveClip },
		usage: text("dp-sgd: adapt C to the γ-quantile of the gradient norms (Andrew et al. 2021), its cost inside the accounted budget (default off)")},
	{Name: "clip-quantile", Group: Solver, Kind: Float, Range: &theory.Interval{Lo: 0, Hi: 1, LoOpen: true, HiOpen: true}, ZeroDefault: true, Symbol: "γ",
		note: text("the target quantile of adaptive clipping"), f64: func(s *Spec) *float64 { return &s.ClipQuantile },
		usage: text("dp-sgd --adaptive-clip: target quantile γ of the gradient norms (default 0.5)")},
	{Name: "clip-rate", Group: Solver, Kind: Float, Range: &theory.Interval{Lo: 0, Hi: MaxClipRate, LoOpen: true}, ZeroDefault: true, Symbol: "η_C",
		note: text("the rate of adaptive clipping"), f64: func(s *Spec) *float64 { return &s.ClipRate },
		usage: text("dp-sgd --adaptive-clip: rate η_C of C ← C·exp(−η_C(b̃ − γ)) (default 0.2)")},
	{Name: "clip-count-noise", Group: Solver, Kind: Float, Range: &theory.Interval{Lo: 0, Hi: inf, LoOpen: true, HiOpen: true}, ZeroDefault: true, Symbol: "σ_b",
		note: text("the clipped count's noise"), f64: func(s *Spec) *float64 { return &s.ClipCountNoise },
		usage: text("dp-sgd --adaptive-clip: noise σ_b of the clipped count (default B/20; needs 2σ_b above the noise multiplier)")},
	{Name: "klz-groups", Group: Solver, Kind: Int, Range: closed(0, scenarios.MaxN), Symbol: "m", note: text("0 = prescribed"),
		i: func(s *Spec) *int { return &s.KLZGroups }, usage: text("klz-gd's number of groups m of the coordinate-wise median of means (0: prescribed)")},
	{Name: "klz-tau", Group: Solver, Kind: Float, Range: closed(0, inf), Symbol: "τ", note: text("0 = prescribed"),
		f64: func(s *Spec) *float64 { return &s.KLZTau }, usage: text("klz-gd's coordinate clip threshold τ (0: prescribed; inf only with --eps inf; not with --clip, which gives C = τ√d)")},
	{Name: "trials", Group: Runner, Kind: Int, Range: closed(1, MaxTrials), ZeroDefault: true, Symbol: "trials",
		i: func(s *Spec) *int { return &s.Trials }, usage: func() string {
			return fmt.Sprintf("independent trials (default %d; --data: %d, since every trial on the same rows spends the budget again)", DefaultTrials, DefaultDataTrials)
		}},
	{Name: "seed", Group: Runner, Kind: Uint, u64: func(s *Spec) *uint64 { return &s.Seed },
		usage: func() string {
			return "seed of every random stream with seeded randomness: same seed, same result bit for bit (any integer in [0, " + MaxSeedText + "]; refused with secure randomness, which reads none)"
		}},
	{Name: "rand", Group: Runner, Kind: String, str: func(s *Spec) *string { return &s.Rand },
		usage: text("randomness: seeded (reproducible; the default on a scenario) or secure (crypto/rand keys, Gaussian noise sampled exactly on a lattice; not reproducible; the default on --data, where seeded noise is NOT private)")},
	{Name: "split-budget", Group: Runner, Kind: Bool, bl: func(s *Spec) *bool { return &s.SplitBudget },
		usage: text("make --eps the total budget of everything released from the same data (trials × solvers × sweep points on --data): each release gets ρ/m")},
	{Name: "workers", Group: Runner, Kind: Int, Range: closed(0, MaxWorkers), Symbol: "workers",
		note: func() string { return fmt.Sprintf("0 = GOMAXPROCS = %d", runtime.GOMAXPROCS(0)) },
		i:    func(s *Spec) *int { return &s.Workers }, usage: text("goroutines of the run: trials in parallel, the cores they leave over inside each trial (0: GOMAXPROCS; results do not depend on it)")},
	{Name: "work-budget", Group: Runner, Kind: Int, Range: closed(0, MaxWorkBudget), Symbol: "work budget",
		note: text("gradient evaluations; 0 = the solver's default"),
		i64:  func(s *Spec) *int64 { return &s.WorkBudget }, usage: text("cap on gradient evaluations of the multi-pass solvers (0: the solver's default)")},
	{Name: "checkpoints", Group: Runner, Kind: Int, Range: closed(0, MaxCheckpoints), Symbol: "checkpoints",
		note: func() string { return fmt.Sprintf("0 = %d", solvers.DefaultCheckpoints) },
		i:    func(s *Spec) *int { return &s.Checkpoints }, usage: text("progress checkpoints per trial, log-spaced (0: 64)")},
}

func text(s string) func() string { return func() string { return s } }

func constant(name, sym string, r *theory.Interval, note, usage string, f func(*Spec) *float64) Field {
	return Field{Name: name, Group: Constant, Kind: Float, Range: r, Symbol: sym, note: text(note), f64: f, usage: text(usage)}
}

// defaultOracles is "clip-gaussian; klz-gd's is coordinate"-style text
// from the descriptors: the most common default, then the exceptions.
func defaultOracles() string {
	count := map[string]int{}
	var order []string
	for _, d := range solvers.Descriptors() {
		if count[d.DefaultOracle] == 0 {
			order = append(order, d.DefaultOracle)
		}
		count[d.DefaultOracle]++
	}
	if len(order) == 0 {
		return ""
	}
	common := slices.MaxFunc(order, func(a, b string) int { return count[a] - count[b] })
	out := common
	for _, d := range solvers.Descriptors() {
		if d.DefaultOracle != common {
			out += "; " + d.Name() + "'s is " + d.DefaultOracle
		}
	}
	return out
}

// Fields lists the Spec's fields in order (Params last among the problem's
// fields, as one entry).
func Fields() []Field { return slices.Clone(fields) }

// FieldByName returns the named field.
func FieldByName(name string) (Field, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Usage is the field's help text: what it sets, its default, and its
// allowed range where that does not depend on the scenario.
func (f Field) Usage() string {
	if f.usage == nil {
		return ""
	}
	u := f.usage()
	if f.Range != nil {
		u += " in " + f.RangeText()
	}
	return u
}

// RangeText is Range in the usual notation, an integer field's bounds as
// counts (theory.FormatCount: 10⁸, not 100000000).
func (f Field) RangeText() string {
	if f.Range == nil {
		return ""
	}
	if f.Kind == Int {
		return fmt.Sprintf("[%s, %s]", theory.FormatCount(int64(f.Range.Lo)), theory.FormatCount(int64(f.Range.Hi)))
	}
	return f.Range.String()
}

// number is the field's value as a float64 (exact: every Int range is
// within 2⁵³) and whether the field is a number with a fixed range.
func (f Field) number(s *Spec) (float64, bool) {
	switch {
	case f.f64 != nil:
		return *f.f64(s), true
	case f.i != nil:
		return float64(*f.i(s)), true
	case f.i64 != nil:
		return float64(*f.i64(s)), true
	}
	return 0, false
}

func (f Field) valueText(x float64) string {
	if f.Kind == Int && math.Abs(x) < 1<<62 {
		return theory.FormatCount(int64(x))
	}
	return theory.FormatNumber(x)
}

// Check reports whether x lies in the field's Range, as a *SpecError that
// says the range (and the field's note) otherwise. Fields without a fixed
// range accept every value here (their scenario checks them).
func (f Field) Check(x float64) error {
	if f.Range == nil || f.Range.Contains(x) {
		return nil
	}
	msg := fmt.Sprintf("%s = %s is outside %s", f.Symbol, f.valueText(x), f.RangeText())
	if f.note != nil {
		msg += " (" + f.note() + ")"
	}
	return &SpecError{Field: f.Name, Msg: msg}
}

// checkRanges checks every field with a fixed range, in table order; a
// zero-default field left at 0 is not checked (Resolve fills it in).
func checkRanges(s *Spec) error {
	for _, f := range fields {
		x, ok := f.number(s)
		if !ok || f.Range == nil || (f.ZeroDefault && x == 0) {
			continue
		}
		if err := f.Check(x); err != nil {
			return err
		}
	}
	return nil
}

// Set parses text as the field's value and stores it in s: numbers as
// theory.ParseNumber writes them (inf allowed, NaN refused), integers
// plainly or in an integral float notation ("1e6"). It refuses what is not
// of the field's type, and an explicit 0 of a ZeroDefault field outside
// its Range (a Spec reads 0 as "the default", so the 0 the user typed
// would be lost); every other range is checked by Resolve, once.
func (f Field) Set(s *Spec, text string) error {
	switch f.Kind {
	case String:
		if text == "" {
			return fmt.Errorf("an empty value is not allowed (leave the flag out for its default)")
		}
		*f.str(s) = text
	case Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("%s is not true or false", theory.Quote(text))
		}
		*f.bl(s) = b
	case Uint:
		x, err := strconv.ParseUint(strings.TrimSpace(text), 10, 64)
		if err != nil {
			return fmt.Errorf("%s is not an integer in [0, %s]", theory.Quote(text), MaxSeedText)
		}
		*f.u64(s) = x
	case Int:
		x, err := ParseInt(text)
		if err != nil {
			return fmt.Errorf("%s is not an integer in %s", theory.Quote(text), f.RangeText())
		}
		if x == 0 && f.ZeroDefault {
			if err := f.Check(0); err != nil {
				return err
			}
		}
		if f.i != nil {
			*f.i(s) = int(x)
		} else {
			*f.i64(s) = x
		}
	case Float, OptFloat:
		x, err := theory.ParseNumber(text)
		if err != nil {
			if f.Range != nil {
				return fmt.Errorf("%s is not a number in %s", theory.Quote(text), f.RangeText())
			}
			return fmt.Errorf("%s is not a number (write e.g. 0.5, 1e-3 or inf)", theory.Quote(text))
		}
		if f.Kind == OptFloat {
			*f.opt(s) = &x
			return nil
		}
		if x == 0 && f.ZeroDefault {
			if err := f.Check(0); err != nil {
				return err
			}
		}
		*f.f64(s) = x
	default:
		return fmt.Errorf("%s is not set by one value", f.Name)
	}
	return nil
}

// Text is the field's value as a flag argument ("" when unset): numbers
// exactly (shortest round-trip form, "inf" for +Inf), what Set parses back.
func (f Field) Text(s *Spec) string {
	switch f.Kind {
	case String:
		return *f.str(s)
	case Bool:
		if *f.bl(s) {
			return "true"
		}
		return ""
	case Uint:
		if v := *f.u64(s); v != 0 {
			return strconv.FormatUint(v, 10)
		}
		return ""
	case OptFloat:
		if p := *f.opt(s); p != nil {
			return FormatArg(*p)
		}
		return ""
	}
	x, ok := f.number(s)
	if !ok || x == 0 {
		return ""
	}
	if f.Kind == Int {
		return strconv.FormatInt(int64(x), 10)
	}
	return FormatArg(x)
}

// clear resets the field to "unset".
func (f Field) clear(s *Spec) {
	switch f.Kind {
	case String:
		*f.str(s) = ""
	case Bool:
		*f.bl(s) = false
	case Uint:
		*f.u64(s) = 0
	case OptFloat:
		*f.opt(s) = nil
	case ParamMap:
		s.Params = nil
	case Int:
		if f.i != nil {
			*f.i(s) = 0
		} else {
			*f.i64(s) = 0
		}
	case Float:
		*f.f64(s) = 0
	}
}

// ParseInt accepts integers written plainly or in float notation with an
// integral value ("1e6", "100000") up to 2⁵³.
func ParseInt(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if x, err := strconv.ParseInt(t, 10, 64); err == nil {
		return x, nil
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, fmt.Errorf("not an integer: %s", theory.Quote(s))
	}
	return int64(x), nil
}

// FormatArg writes x exactly as a flag value: the shortest decimal that
// parses back to x, and "inf"/"-inf" for infinities (what the CLI's number
// flags accept).
func FormatArg(x float64) string { return theory.Arg.Format(x) }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

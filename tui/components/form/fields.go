package form

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// Field names a control of the form, in display order (the issue's).
type Field int

const (
	Class Field = iota
	Scenario
	K
	Eps
	N
	D
	Tail
	Solver
	Oracle
	// fAdaptive is dp-sgd's adaptive clipping (--adaptive-clip), shown
	// only while the solver is dp-sgd (see form.visible).
	Adaptive
	// fAssumption is the moment assumption whose constants the
	// prescription reads (--assumption: r̃_k, r_k or γ_k).
	Assumption
	Seed
	Trials
	NumFields
)

// fieldDef is a control: its label, the Spec field (the CLI flag name,
// which is also a *spec.SpecError's Field) and why it matters.
type fieldDef struct {
	label string
	flag  string
	why   string
	// numeric fields step on an ordered grid and stop at its ends;
	// the others cycle through their list.
	numeric bool
}

var fields = [NumFields]fieldDef{
	Class:      {"class", "class", "Which theorem applies: the loss class fixes the paper's algorithm, its rate and the lower bound it is held against.", false},
	Scenario:   {"scenario", "scenario", "The data: its tails decide which moments r̃_k exist — L_f can be huge or ∞ while r̃_k stays small.", false},
	K:          {"k", "k", "Moment order of Assumption 1: a larger k assumes lighter tails and buys a faster-falling privacy term (the theorem panel's bound says how fast); k = ∞ is the Lipschitz case (r̃_∞ = L_f).", true},
	Eps:        {"ε", "eps", "Privacy (zCDP, ρ = ε²/2): a smaller ε means more noise; the privacy term grows like (√d/(εn))^((k−1)/k). ε = ∞: no privacy.", true},
	N:          {"n", "n", "Samples: the statistical term falls like 1/√n, the privacy term like n^(−(k−1)/k).", true},
	D:          {"d", "d", "Dimension: the Gaussian noise enters every coordinate, so the privacy term grows with √d.", true},
	Tail:       {"tail", "tail", "How heavy the data's tails are: moments r̃_k exist only for k below a limit set by this parameter.", true},
	Solver:     {"solver", "solver", "The paper's algorithm for the class, or a baseline: nonprivate-schedule (the same schedule without privacy), lipschitz-dpsgd (noise calibrated to L_f), klz-gd (prior state of the art), dp-sgd (DP-SGD as practitioners run it, accountant-calibrated).", false},
	Oracle:     {"oracle", "oracle", "How a private mean of per-sample gradients is formed: clip + Gaussian noise (MeanOracle1), coordinate-wise median of means (MeanOracle2), or shuffle-model protocols.", false},
	Adaptive:   {"adapt. C", runs.AdaptiveFlag, "dp-sgd's adaptive clipping (Andrew et al. 2021): after each step C ← C·exp(−η_C(b̃ − γ)) moves C toward the median gradient norm, its noisy count inside the accounted budget. The clipping panel draws C over the steps.", false},
	Assumption: {"assume", "assumption", theory.Cite("Which moment constants the prescription reads: r̃_k (sup inside E, ass:tilde), r_k ≤ r̃_k (sup outside, ass:boundednoncentral) or γ_k (per coordinate, ass:coordinatewise, via lem: comparing assumptions) — where the class's precise theorem allows it."), false},
	Seed:       {"seed", "seed", "Same seed, same result, bit for bit: change it to see another draw of the data and of the noise.", true},
	Trials:     {"trials", "trials", "Independent repetitions: the curve is their mean, and more trials shrink its standard error.", true},
}

// Label is the field's label on the form ("k", "ε", "adapt. C").
func (id Field) Label() string { return fields[id].label }

// Flag is the field's Spec field: the CLI flag of the same name, and a
// *spec.SpecError's Field.
func (id Field) Flag() string { return fields[id].flag }

// Why is why the field matters, the form's line under the focused field.
func (id Field) Why() string { return fields[id].why }

// The form's discrete grids, which → and ← step along (n reaches past the
// first preset's 2·10⁶; larger values are typed).
var (
	kGrid   = []float64{2, 2.5, 3, 4, 6, 8, 16, math.Inf(1)}
	epsGrid = []float64{0.1, 0.2, 0.5, 1, 2, 5, 10, math.Inf(1)}
	nGrid   = []float64{1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7}
	dGrid   = []float64{1, 2, 3, 5, 10, 20, 40, 50, 100, 200, 500, 1000, 2000, 5000, 10000}
)

// option is one value a field can step to.
type option struct {
	label string
	num   float64 // the value, for numeric fields (ordering)
	set   func(s *spec.Spec)
}

// normalize resets what a new scenario or class makes meaningless: a new
// scenario takes its own defaults (d, D, tail, parameters, constants) and
// the class it supports; n and k go back to their defaults, which depend
// on the scenario and the class (the non-smooth classes' n is the largest
// whose full localized schedule fits the work budget, see Spec.N); a paper
// solver follows the class.
func normalize(c *spec.Spec, id Field) {
	d, _ := solvers.DescriptorOf(c.Solver)
	paper := c.Solver != "" && !d.Baseline()
	switch id {
	case Scenario, Class:
		c.N, c.K = 0, 0
	}
	switch id {
	case Scenario:
		c.Tail, c.D, c.Diam, c.Params, c.Lambda1, c.Lambda2 = 0, 0, 0, nil, nil, nil
		c.Beta, c.Mu, c.R2, c.Rk, c.R2k, c.Lf = 0, 0, 0, 0, 0, 0
		if info, ok := scenarios.Lookup(c.Scenario); ok && c.Class != "" && !info.Supports(c.Class) {
			c.Class = ""
		}
		if paper {
			c.Solver = ""
		}
	case Class:
		c.Lambda2 = nil
		if paper {
			c.Solver = ""
		}
	}
	// Adaptive clipping is dp-sgd's: another solver would ignore it, and
	// the reproduce line would carry a flag that does nothing.
	if !runs.Adapts(c.Solver) {
		setFlag(c, Adaptive.Flag(), false)
	}
}

// options lists the values field id can take.
func (f *Model) options(id Field) []option {
	var out []option
	grid := func(xs []float64, set func(*spec.Spec, float64), label func(float64) string) {
		for _, x := range xs {
			out = append(out, option{label: label(x), num: x, set: func(s *spec.Spec) { set(s, x) }})
		}
	}
	switch id {
	case Class:
		for _, c := range theory.Classes {
			out = append(out, option{label: string(c), set: func(s *spec.Spec) { s.Class = c }})
		}
	case Scenario:
		for _, n := range scenarios.ScenarioNames() {
			out = append(out, option{label: n, set: func(s *spec.Spec) { s.Scenario = n }})
		}
	case K:
		grid(kGrid, func(s *spec.Spec, x float64) { s.K = x }, common.FmtK)
	case Eps:
		grid(epsGrid, func(s *spec.Spec, x float64) { s.Eps = x }, common.FmtNum)
	case N:
		grid(nGrid, func(s *spec.Spec, x float64) { s.N = int(x) }, func(x float64) string { return common.FmtN(int(x)) })
	case D:
		xs := slices.Clone(dGrid)
		if info, ok := scenarios.Lookup(f.res.Scenario); ok && !slices.Contains(xs, float64(info.D)) {
			xs = append(xs, float64(info.D))
			slices.Sort(xs)
		}
		grid(xs, func(s *spec.Spec, x float64) { s.D = int(x) }, func(x float64) string { return strconv.Itoa(int(x)) })
	case Tail:
		info, _ := scenarios.Lookup(f.res.Scenario)
		if info.Tail == nil {
			// No tail parameter: any value is refused with the Spec's
			// own message.
			grid([]float64{1}, func(s *spec.Spec, x float64) { s.Tail = x }, common.FmtNum)
			break
		}
		grid(tailGrid(*info.Tail), func(s *spec.Spec, x float64) { s.Tail = x }, common.FmtNum)
	case Solver:
		for _, n := range solvers.Names() {
			out = append(out, option{label: n, set: func(s *spec.Spec) { s.Solver = n }})
		}
	case Oracle:
		out = append(out, option{label: "default", set: func(s *spec.Spec) { s.Oracle = ""; s.Delta = 0 }})
		for _, n := range oracle.Names() {
			out = append(out, option{label: n, set: func(s *spec.Spec) { s.Oracle = n; s.Delta = 0 }})
		}
	case Assumption:
		for _, a := range theory.Assumptions {
			v := string(a)
			if a == theory.Tilde {
				v = "" // the default: no flag on the reproduce line
			}
			out = append(out, option{label: string(a), set: func(s *spec.Spec) { s.Assumption = v }})
		}
	case Adaptive:
		for _, on := range []bool{false, true} {
			out = append(out, option{label: onOff(on), set: func(s *spec.Spec) { setFlag(s, Adaptive.Flag(), on) }})
		}
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// setFlag sets a boolean Spec field through the spec's field table, as
// the CLI's flag of the same name does (spec.Field.Set).
func setFlag(s *spec.Spec, flag string, on bool) {
	f, ok := spec.FieldByName(flag)
	if !ok || f.Kind != spec.Bool {
		panic("tui: " + flag + " is not a boolean field of the spec") // a programming error, caught by TestFormFieldsInSpec
	}
	if err := f.Set(s, strconv.FormatBool(on)); err != nil {
		panic("tui: " + err.Error())
	}
}

// position is where the current value sits among opts: an index, or a
// half-integer between two grid values for a numeric value off the grid.
func (f *Model) position(id Field, opts []option) float64 {
	if !fields[id].numeric {
		cur := f.ValueLabel(id)
		for i, o := range opts {
			if o.label == cur || (id == Oracle && i == 0 && f.res.Oracle == "") {
				return float64(i)
			}
		}
		return -1 // not listed: the first step lands on index 0 (or the last)
	}
	v := f.numValue(id)
	for i, o := range opts {
		if o.num == v {
			return float64(i)
		}
		if o.num > v {
			return float64(i) - 0.5
		}
	}
	return float64(len(opts)) - 0.5
}

// numValue is the resolved value of a numeric field.
func (f *Model) numValue(id Field) float64 {
	switch id {
	case K:
		return f.res.K
	case Eps:
		return f.res.Eps
	case N:
		return float64(f.res.N)
	case D:
		return float64(f.res.D)
	case Tail:
		return f.res.Tail
	}
	return math.NaN()
}

// tailGrid is a grid of round values inside a tail parameter's interval:
// 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times powers of ten (and 0 when allowed),
// plus the default.
func tailGrid(p scenarios.Param) []float64 {
	var xs []float64
	if p.Allows(0) {
		xs = append(xs, 0)
	}
	for e := -4; e <= 6; e++ {
		for _, m := range []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8} {
			x := m * math.Pow(10, float64(e))
			x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64) // 3e-4, not 0.00030000000000000003
			if x > 0 && p.Allows(x) {
				xs = append(xs, x)
			}
		}
	}
	if !slices.Contains(xs, p.Default) && p.Allows(p.Default) {
		xs = append(xs, p.Default)
	}
	slices.Sort(xs)
	// A fraction in [0, ½] needs fine steps near 0 only: keep ≥ 10⁻³.
	if p.Max <= 1 {
		xs = slices.DeleteFunc(xs, func(x float64) bool { return x > 0 && x < 1e-3 })
	}
	return xs
}

// ValueLabel is the value of field id as shown.
func (f *Model) ValueLabel(id Field) string {
	r := &f.res
	if r.Data != "" {
		// User data: the file where the scenario goes, its rows and
		// columns once the prescription has read it.
		n, d, ok := common.DataDims(*r, f.presc)
		switch {
		case id == Scenario:
			return theory.Name(filepath.Base(r.Data))
		case id == N && r.N == 0 && ok:
			return strconv.Itoa(n) // a count of rows, exact
		case id == N && r.N == 0:
			return "all" // and ValueNote: "rows of the file"
		case id == D && ok:
			return strconv.Itoa(d)
		case id == D:
			return "—"
		}
	}
	switch id {
	case Class:
		return string(r.Class)
	case Scenario:
		return r.Scenario
	case K:
		return common.FmtK(r.K)
	case Eps:
		return common.FmtNum(r.Eps)
	case N:
		return common.FmtN(r.N)
	case D:
		return strconv.Itoa(r.D)
	case Tail:
		info, _ := scenarios.Lookup(r.Scenario)
		if info.Tail == nil {
			return "—"
		}
		return info.Tail.Symbol + " = " + common.FmtNum(r.Tail)
	case Solver:
		return r.Solver
	case Oracle:
		if r.Oracle == "" {
			return "default"
		}
		return r.Oracle
	case Assumption:
		return string(f.resolved.Assumption)
	case Adaptive:
		return onOff(r.AdaptiveClip)
	case Seed:
		if f.FixedByServer(Seed) {
			return "fixed (secure noise)"
		}
		if f.resolved.Rand == solvers.Secure {
			return "none" // secure noise reads no seed
		}
		return strconv.FormatUint(r.Seed, 10)
	case Trials:
		return strconv.Itoa(r.Trials)
	}
	return ""
}

// ValueNote is a muted remark after a value.
func (f *Model) ValueNote(id Field) string {
	r := &f.res
	info, _ := scenarios.Lookup(r.Scenario)
	if r.Data != "" {
		switch id {
		case Scenario:
			return "user data"
		case N:
			if r.N == 0 {
				return "rows of the file"
			}
		case D:
			return "columns: fixed"
		}
	}
	switch id {
	case Seed:
		switch {
		case f.resolved.Rand != solvers.Secure, f.FixedByServer(Seed):
		default:
			return "secure noise: no seed"
		}
	case D:
		if info.FixedD {
			return "fixed"
		}
	case Solver:
		if !f.resolved.Solver.Baseline() {
			return "paper"
		}
		return "baseline"
	case Oracle:
		if r.Oracle == "" {
			return f.resolved.Oracle // the solver's default (its Descriptor's)
		}
	case Eps:
		switch pv := f.resolved.Privacy; {
		case math.IsInf(r.Eps, 1):
			return "no privacy"
		case pv.Model == spec.Shuffle:
			return "(ε, δ)-shuffle DP"
		default:
			return "zCDP, ρ = " + common.FmtNum(pv.Rho)
		}
	case K:
		if math.IsInf(r.K, 1) {
			return "Lipschitz"
		}
	case Assumption:
		return assumptionNote(f.resolved.Assumption)
	case Adaptive:
		if !r.AdaptiveClip {
			return "fixed C"
		}
		if q := r.ClipQuantile; q != 0 && q != solvers.DefaultDPSGDQuantile {
			return "C → " + common.FmtNum(q) + "-quantile of ‖∇f‖"
		}
		return "C → median ‖∇f‖"
	}
	return ""
}

// assumptionNote is the moment constant an assumption bounds and the
// assumption as the paper's PDF numbers it, e.g. "r_k (Assumption 2)";
// the form drops the number where the line has no room for it.
func assumptionNote(a theory.Assumption) string {
	sym := a.Symbol()
	if a == theory.Coordinatewise {
		sym = "γ_k" // its bound's constant, γ_k^(1/k): the short name
	}
	return sym + " (" + theory.Cite(a.Label()) + ")"
}

// why is the focused field's one-line reason, with the tail parameter's
// meaning for the current scenario, and the privacy term's exponent of the
// current class: (2k−2)/k where the rate is squared (the strongly convex
// and proximal-PL classes), (k−1)/k otherwise, as the theorem panel
// writes it.
func (f *Model) why(id Field) string {
	w := id.Why()
	if c := f.res.Class; c.StronglyConvex() || c == theory.PPL {
		w = strings.ReplaceAll(w, "(k−1)/k", "(2k−2)/k")
	}
	if id == K {
		w = f.kWhy()
	}
	if term := f.privacyTerm(); id == Eps && term != "" {
		w = "Privacy (zCDP, ρ = ε²/2): a smaller ε means more noise; the privacy term of the theorem's bound (the theorem panel) is " + term + ". ε = ∞: no privacy."
	}
	if stat, priv := f.boundTerm(" (statistical)"), f.privacyTerm(); id == N && stat != "" && priv != "" {
		w = "Samples: the theorem's bound (the theorem panel) has the statistical term " + stat + " and the privacy term " + priv + "."
	}
	if id == Seed && f.resolved.Rand == solvers.Secure {
		w = "Secure noise reads no seed: every run draws fresh noise, so a run's numbers differ from a preset's, which are its run's at seed 0."
		if f.serverFixesNoise() {
			w += " This session's server fixes it (it refuses a seed)."
		}
	}
	if id == Tail {
		if info, ok := scenarios.Lookup(f.res.Scenario); ok && info.Tail != nil {
			w += " " + info.Tail.Symbol + ": " + info.Tail.Meaning + "."
		} else {
			w += " This scenario has none."
		}
	}
	return w
}

// typedField is what a typed value of a numeric field must be before the
// Spec's own resolution: a number in iv (integer when integer is set), the
// range and the type of the CLI flag of the same name (the spec's field
// table, spec.FieldByName). The Spec treats 0 as "the default" in these
// fields, so this check is what refuses a typed 0 (with the range the
// CLI's flag states); every other rule is the Spec's (Resolve), as for the
// flag.
type typedField struct {
	iv      theory.Interval
	integer bool
	rng     string // the range as the flag's messages write it

	set func(s *spec.Spec, x float64)
}

// typedOf is the typed-value check of the form field of flag, from the
// spec's field table (a field without a fixed range takes any number).
func typedOf(flag string, set func(s *spec.Spec, x float64)) typedField {
	tf := typedField{iv: theory.Interval{Lo: math.Inf(-1), Hi: math.Inf(1)}, set: set}
	if sf, ok := spec.FieldByName(flag); ok {
		tf.integer = sf.Kind == spec.Int
		if sf.Range != nil {
			tf.iv, tf.rng = *sf.Range, sf.RangeText()
		}
	}
	return tf
}

var typedFields = map[Field]typedField{
	K:      typedOf("k", func(s *spec.Spec, x float64) { s.K = x }),
	Eps:    typedOf("eps", func(s *spec.Spec, x float64) { s.Eps = x }),
	N:      typedOf("n", func(s *spec.Spec, x float64) { s.N = int(x) }),
	D:      typedOf("d", func(s *spec.Spec, x float64) { s.D = int(x) }),
	Tail:   typedOf("tail", func(s *spec.Spec, x float64) { s.Tail = x }),
	Trials: typedOf("trials", func(s *spec.Spec, x float64) { s.Trials = int(x) }),
	// seed: any uint64 (parsed exactly, see typedSpec).
}

// typable reports whether field id takes a typed value.
func (f *Model) typable(id Field) bool {
	if id == Seed {
		return true
	}
	if id == Tail {
		info, ok := scenarios.Lookup(f.res.Scenario)
		return ok && info.Tail != nil
	}
	_, ok := typedFields[id]
	return ok
}

// typedSpec is the form's Spec with field id set to the typed text, or the
// refusal ("field: why"). The text is a number as the CLI's flags read it
// (theory.ParseNumber: 300000, 3e5, inf, ∞) or as the explorer prints it
// (3·10⁵, 10⁻³).
func (f *Model) typedSpec(id Field, text string) (spec.Spec, string) {
	label := id.Label()
	t := normalizeNumber(text)
	c := f.user
	if id == Seed {
		v, err := strconv.ParseUint(t, 10, 64)
		if err != nil {
			x, perr := theory.ParseNumber(t)
			if perr != nil || x != math.Trunc(x) || x < 0 || x > 1<<53 {
				return c, fmt.Sprintf("seed: %s is not an integer in [0, 2⁶⁴−1]", theory.Quote(text))
			}
			v = uint64(x)
		}
		c.Seed = v
		return c, ""
	}
	tf := typedFields[id]
	x, err := theory.ParseNumber(t)
	// Not a number, or not an integer: the flag's own message.
	switch {
	case (err != nil || x != math.Trunc(x) || math.IsInf(x, 0)) && tf.integer:
		return c, fmt.Sprintf("%s: %s is not an integer in %s", label, theory.Quote(text), tf.rng)
	case err != nil && tf.rng != "":
		return c, fmt.Sprintf("%s: %s is not a number in %s", label, theory.Quote(text), tf.rng)
	case err != nil:
		return c, fmt.Sprintf("%s: %s is not a number (write e.g. 0.5, 1e-3 or inf)", label, theory.Quote(text))
	case !tf.iv.Contains(x) && tf.integer:
		v := strconv.FormatFloat(x, 'f', 0, 64)
		if math.Abs(x) >= 1e15 { // not 1e99 as 100 digits
			v = theory.FormatNumber(x)
		}
		return c, fmt.Sprintf("%s: %s = %s is outside %s", label, label, v, tf.rng)
	case !tf.iv.Contains(x):
		return c, fmt.Sprintf("%s: %s = %s is outside %s", label, label, theory.FormatNumber(x), tf.iv)
	}
	tf.set(&c, x)
	return c, ""
}

// superscripts maps the explorer's exponent digits back to ASCII.
var superscripts = strings.NewReplacer("⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9", "⁻", "-")

// normalizeNumber rewrites the explorer's own notation for a power of ten
// — 3·10⁵, 3×10^5, 3*10^5, 10⁻³ — as Go float syntax (3e5, 1e-3); any
// other text is returned trimmed, for theory.ParseNumber.
func normalizeNumber(s string) string {
	t := strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	i := strings.Index(t, "10")
	if i < 0 {
		return t
	}
	exp := t[i+2:]
	switch {
	case strings.HasPrefix(exp, "^"):
		exp = exp[1:]
	case exp != "" && exp != superscripts.Replace(exp):
		// superscript digits
	default:
		return t
	}
	exp = superscripts.Replace(exp)
	if _, err := strconv.Atoi(exp); err != nil {
		return t
	}
	mant := t[:i]
	for _, sep := range []string{"·", "×", "*", "x"} {
		if strings.HasSuffix(mant, sep) {
			mant = strings.TrimSuffix(mant, sep)
			break
		}
	}
	if mant == "" {
		mant = "1"
	} else if _, err := strconv.ParseFloat(mant, 64); err != nil {
		return t
	}
	return mant + "e" + exp
}

// FixedByServer reports whether field id is the session's server's, not
// the user's (dpso serve's limit): the seed, where every Spec's noise is
// secure. The form draws it without the ‹ › of a value that steps, and a
// key that would set it is refused at once, saying so.
func (f *Model) FixedByServer(id Field) bool {
	return id == Seed && f.resolved.Rand == solvers.Secure && f.serverFixesNoise()
}

// fixedWhy is the refusal of a key that would set a field the server
// fixes.
func (f *Model) fixedWhy(id Field) string {
	return id.Flag() + ": fixed by this server, which draws every session's noise from secure randomness: no run reads a seed, and a preset's numbers are its run's at seed 0"
}

// serverFixesNoise reports whether the session's limit (dpso serve's)
// makes every Spec's noise secure, whatever the form asks: the seed is
// then fixed (none), not the user's to set.
func (f *Model) serverFixesNoise() bool {
	if f.Limit == nil {
		return false
	}
	s := f.user
	s.Rand = "seeded"
	l, err := f.Limit(s)
	return err != nil || l.Rand == "secure"
}

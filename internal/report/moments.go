package report

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// Moments is a scenario's moment profile, as `dpso moments` shows it: r̃_k
// (Assumption "ass:tilde") at finite orders and L_f; r_k and γ_k^{1/k}
// (Assumptions "ass:boundednoncentral", "ass:coordinatewise") at the same
// orders and at ∞; L = sup_w ‖∇F‖; and the inequalities between them
// (theory.AssumptionInequalities, Lemma "lem: comparing assumptions") at
// the orders 2, k and 2k, decided with the Monte Carlo errors.
type Moments struct {
	Spec        spec.Spec // the resolved Spec of the problem
	Finite      []scenarios.MomentEntry
	Lf          scenarios.MomentEntry
	Noncentral  []scenarios.SupEntry // r_k at the orders of Finite, then ∞
	Coordinate  []scenarios.SupEntry // γ_k^{1/k}, likewise
	L           float64
	LExact      bool
	LMethod     string
	CheckOrders []float64
	Checks      []scenarios.AssumptionCheck
	// Empirical is R̃_{2k,n} (R̃_{2k,n/4} for the non-smooth strongly convex
	// class) of Lemma "lem: empirical moments" at the resolved k and n, for
	// the classes whose localized theorem reads it; nil for the others.
	Empirical *Empirical
	// Contradictions are the given constants (--lf, --rk, …) that the
	// scenario's own constants contradict.
	Contradictions []scenarios.Contradiction
	// D is the instance's d (user data: its feature columns);
	// Estimated and Geometry are, on user data, the constants computed
	// from the rows and where their minimizer lies (non-private).
	D         int
	Estimated []scenarios.EstimatedConstant
	Geometry  *scenarios.Geometry
}

// Empirical is the empirical moment a class's localized theorem reads
// (scenarios.Instance.ClassEmpirical): Sym at order Entry.K = 2k and
// sample size Entry.N (n, or ⌊n/4⌋), for the problem's resolved n.
type Empirical struct {
	Sym   string
	N     int // the problem's resolved n
	Entry scenarios.EmpiricalEntry
}

// NewMoments is the moment profile of a built problem, computed under ctx
// (its sup moments take seconds at d = 10⁴): on cancellation it returns
// ctx's error within one Monte Carlo chunk.
func NewMoments(ctx context.Context, s spec.Spec, in *scenarios.Instance) (Moments, error) {
	m := Moments{Spec: s, Lf: in.Moment(math.Inf(1)), D: in.Dim(), Estimated: in.Estimated(), Geometry: in.Geometry()}
	prof, err := in.ProfileContext(ctx)
	if err != nil {
		return Moments{}, err
	}
	m.CheckOrders = scenarios.CheckOrders(s.K)
	// Every order the rows below read: the profile's, the checks' and the
	// empirical moment's 2k.
	ks := append([]float64{2 * s.K}, m.CheckOrders...)
	for _, e := range prof {
		ks = append(ks, e.K)
	}
	if err := in.SupMomentsContext(ctx, ks); err != nil {
		return Moments{}, err
	}
	for _, e := range prof {
		if !math.IsInf(e.K, 1) {
			m.Finite = append(m.Finite, e)
			m.Noncentral = append(m.Noncentral, in.Noncentral(e.K))
			m.Coordinate = append(m.Coordinate, in.Coordinate(e.K))
		}
	}
	m.Noncentral = append(m.Noncentral, in.Noncentral(math.Inf(1)))
	m.Coordinate = append(m.Coordinate, in.Coordinate(math.Inf(1)))
	m.L, m.LExact, m.LMethod = in.GradSup()
	m.Checks = in.AssumptionChecks(m.CheckOrders)
	if e, sym, ok := in.ClassEmpirical(s.Class, s.K, s.N); ok {
		m.Empirical = &Empirical{Sym: sym, N: s.N, Entry: e}
	}
	m.Contradictions = in.Contradictions()
	return m, nil
}

// MomentsJSON is the document of `dpso moments --json`.
type MomentsJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON `json:"citation,omitempty"`
	Scenario string        `json:"scenario,omitempty"`
	// Data is the file of user data (--data), whose profile is the rows'
	// own (Private false: a non-private diagnostic); Estimated are the
	// constants computed from them, Geometry where their minimizer lies.
	Data      string         `json:"data,omitempty"`
	Private   *bool          `json:"private,omitempty"`
	Estimated *EstimatedJSON `json:"estimated_constants,omitempty"`
	Geometry  *GeometryJSON  `json:"geometry,omitempty"`
	Lf        *float64       `json:"lf"`
	Moments   []MomentJSON   `json:"moments"`
	// Noncentral is r_k, Coordinate γ_k^{1/k}, at the orders of Moments
	// and at k = null (∞).
	Noncentral []SupJSON `json:"noncentral"`
	Coordinate []SupJSON `json:"coordinatewise"`
	// GradSup is L = sup_w ‖∇F(w)‖ (exact, or an upper bound).
	GradSup GradSupJSON `json:"grad_sup"`
	// Checks are the inequalities between the assumptions' constants.
	Checks []CheckJSON `json:"checks"`
	// Empirical is the empirical moment of lem: empirical moments that the
	// class's localized theorem reads; null for the classes whose theorems
	// read none.
	Empirical *EmpiricalJSON `json:"empirical"`
	// Contradictions are the given constants the scenario contradicts:
	// the flag, the constant, the given value and the scenario's own
	// (null: ∞), in a sentence.
	Contradictions []ContradictionJSON `json:"contradictions"`
}

// ContradictionJSON is a given constant that the scenario contradicts
// (scenarios.Contradiction).
type ContradictionJSON struct {
	Field    string   `json:"field"`
	Symbol   string   `json:"symbol"`
	Given    float64  `json:"given"`
	Scenario *float64 `json:"scenario"`
	Text     string   `json:"text"`
}

// EmpiricalJSON is R̃_{2k,n} (symbol "R̃_{2k,n}") or R̃_{2k,⌊n/4⌋}
// ("R̃_{2k,n/4}") at order k (= 2k of the theorem), for the problem's
// resolved n, taken at sample size m (n or ⌊n/4⌋) with l = ⌊log₂ m⌋
// phases. Value is R̃ when exact, otherwise the certified upper end of the
// bracket [lower, value]; lower is null when no lower end is known; value,
// lower and stderr are null when not computed (method says why), value
// also when the moment does not exist.
type EmpiricalJSON struct {
	Symbol string   `json:"symbol"`
	K      float64  `json:"k"`
	N      int      `json:"n"`
	M      int      `json:"m"`
	L      int      `json:"l"`
	Value  *float64 `json:"value"`
	Lower  *float64 `json:"lower"`
	Stderr *float64 `json:"stderr"`
	Exact  bool     `json:"exact"`
	Method string   `json:"method"`
}

// MomentJSON is r̃_k at one order k.
type MomentJSON struct {
	K      float64  `json:"k"`
	Value  *float64 `json:"value"`
	Stderr *float64 `json:"stderr"`
	Method string   `json:"method"`
}

// SupJSON is r_k or γ_k^{1/k} at one order (k null: ∞): value is the sup
// or a certified upper bound on it, lower a lower bound (equal to value
// when the sup is computed; null when none is known or the moment does
// not exist).
type SupJSON struct {
	K      *float64 `json:"k"`
	Value  *float64 `json:"value"`
	Stderr *float64 `json:"stderr"`
	Lower  *float64 `json:"lower"`
	Method string   `json:"method"`
}

// GradSupJSON is L = sup_w ‖∇F(w)‖.
type GradSupJSON struct {
	Value  *float64 `json:"value"`
	Exact  bool     `json:"exact"`
	Method string   `json:"method"`
}

// CheckJSON is one inequality Lhs ≤ Rhs and its verdict; Label is the
// paper's \label of what asserts it, LabelPDF the same as the PDF numbers
// it ("Lemma 21").
type CheckJSON struct {
	Text     string   `json:"text"`
	Label    string   `json:"label"`
	LabelPDF string   `json:"label_pdf"`
	Lhs      *float64 `json:"lhs"`
	Rhs      *float64 `json:"rhs"`
	Verdict  string   `json:"verdict"`
}

func supJSON(e scenarios.SupEntry) SupJSON {
	j := SupJSON{K: theory.JSONNum(e.K), Value: theory.JSONNum(e.V), Method: e.Method}
	if !math.IsInf(e.V, 1) {
		j.Stderr, j.Lower = theory.JSONNum(e.SE), theory.JSONNum(e.Lo)
	}
	return j
}

// JSON is m's document.
func (m Moments) JSON() MomentsJSON {
	var private *bool
	if m.Spec.Data != "" {
		private = falsePtr()
	}
	j := MomentsJSON{Scenario: m.Spec.Scenario, Data: m.Spec.Data, Private: private, Estimated: estimatedJSON(m.Estimated), Geometry: geometryJSON(m.Geometry),
		Lf: theory.JSONNum(m.Lf.R), Moments: make([]MomentJSON, len(m.Finite)),
		Noncentral: []SupJSON{}, Coordinate: []SupJSON{}, Checks: []CheckJSON{},
		GradSup: GradSupJSON{Value: theory.JSONNum(m.L), Exact: m.LExact, Method: m.LMethod}}
	for i, e := range m.Finite {
		j.Moments[i] = MomentJSON{K: e.K, Value: theory.JSONNum(e.R), Stderr: momentSE(e), Method: e.Method}
	}
	for i := range m.Noncentral {
		j.Noncentral = append(j.Noncentral, supJSON(m.Noncentral[i]))
		j.Coordinate = append(j.Coordinate, supJSON(m.Coordinate[i]))
	}
	for _, c := range m.Checks {
		j.Checks = append(j.Checks, CheckJSON{Text: c.Text, Label: c.Label, LabelPDF: theory.Cite(c.Label), Lhs: theory.JSONNum(c.Lhs), Rhs: theory.JSONNum(c.Rhs), Verdict: c.Verdict})
	}
	j.Contradictions = []ContradictionJSON{}
	for _, c := range m.Contradictions {
		j.Contradictions = append(j.Contradictions, ContradictionJSON{Field: c.Field, Symbol: c.Symbol, Given: c.Given, Scenario: theory.JSONNum(c.Own), Text: c.Text})
	}
	if em := m.Empirical; em != nil {
		e := em.Entry
		j.Empirical = &EmpiricalJSON{Symbol: em.Sym, K: e.K, N: em.N, M: e.N, L: e.L,
			Value: theory.JSONNum(e.V), Exact: e.Exact, Method: e.Method}
		if !math.IsInf(e.V, 1) {
			j.Empirical.Lower, j.Empirical.Stderr = theory.JSONNum(e.Lo), theory.JSONNum(e.SE)
		}
	}
	return j
}

// WriteTable writes the table of `dpso moments`.
func (m Moments) WriteTable(w io.Writer) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	s := m.Spec
	name := s.Scenario
	if s.Data != "" {
		name = theory.Name(s.Data) + " (user data, " + s.Loss + " loss)"
	}
	if s.Data != "" {
		fmt.Fprintf(w, "NOT PRIVATE: every number below is computed on your rows (the empirical distribution's constants): a non-private diagnostic.\n")
		if row, ok := estimatedRow(m.Estimated); ok {
			fmt.Fprintf(w, "Estimated: %s.\n", strings.SplitN(row[1], " — ", 2)[0])
		}
		if g := m.Geometry.Note(); g != "" {
			fmt.Fprintf(w, "Geometry: %s.\n", g)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Moment profile of %s (d = %d, D = %s", name, m.D, n6(s.Diam))
	if s.Tail != 0 {
		if in, ok := scenarios.Lookup(s.Scenario); ok && in.Tail != nil {
			fmt.Fprintf(w, ", %s = %s", in.Tail.Symbol, n6(s.Tail))
		}
	}
	fmt.Fprintf(w, "): r̃_k = (E sup_w ‖∇f(w, x)‖^k)^{1/k}\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "K\tVALUE\t± S.E.\tMETHOD")
	for _, e := range m.Finite {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", n6(e.K), n6(e.R), seCell(e), e.Method)
	}
	fmt.Fprintf(tw, "∞ (L_f)\t%s\t%s\t%s\n", n6(m.Lf.R), seCell(m.Lf), m.Lf.Method)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "∞: the moment does not exist. A standard error of 0 means exact.")
	for _, c := range m.Contradictions {
		fmt.Fprintln(w, "⚠ "+c.Text+".")
	}
	if len(m.Noncentral) == 0 {
		return nil
	}

	fmt.Fprintln(w)
	fmt.Fprintln(w, "The sup over W outside the expectation (Assumptions ass:boundednoncentral and ass:coordinatewise):")
	fmt.Fprintln(w, "  r_k = sup_w (E‖∇f(w, x)‖^k)^{1/k} ≤ r̃_k,  γ_k = sup_w max_j E|∂_j f(w, x) − ∂_j F(w)|^k")
	fmt.Fprintln(w)
	notes := &footnotes{}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "K\tr_k\t± S.E.\t\tγ_k^(1/k)\t± S.E.\t")
	for i := range m.Noncentral {
		r, g := m.Noncentral[i], m.Coordinate[i]
		k := n6(r.K)
		if math.IsInf(r.K, 1) {
			k = "∞"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, supCell(r), supSE(r), notes.mark("r", r), supCell(g), supSE(g), notes.mark("γ", g))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	exact := "an upper bound"
	if m.LExact {
		exact = "exact"
	}
	if math.IsNaN(m.L) {
		fmt.Fprintf(w, "L = sup_w ‖∇F(w)‖: %s\n", m.LMethod)
	} else {
		fmt.Fprintf(w, "L = sup_w ‖∇F(w)‖ = %s (%s: %s)\n", n6(m.L), exact, m.LMethod)
	}
	fmt.Fprintln(w, "a…b: the sup is only bracketed (b, its certified upper end, is what a prescription may use); ≤ b: an upper bound only.")
	for _, n := range notes.list {
		fmt.Fprintf(w, "  [%d] %s\n", n.i, n.text)
	}

	if err := m.writeEmpirical(w); err != nil {
		return err
	}

	if len(m.Checks) > 0 {
		ks := make([]string, len(m.CheckOrders))
		for i, k := range m.CheckOrders {
			ks[i] = n6(k)
		}
		fmt.Fprintf(w, "\nThe inequalities between them (lem: comparing assumptions; definitions; Jensen; Lyapunov) at k = %s,\n", strings.Join(ks, ", "))
		fmt.Fprintf(w, "each side allowed %s standard errors (a bracket: its lower end minus them):\n", n6(scenarios.CheckZ))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		omitted := 0
		for _, c := range m.Checks {
			if math.IsInf(c.Lhs, 1) && math.IsInf(c.Rhs, 1) {
				omitted++ // ∞ ≤ ∞: moments that do not exist
				continue
			}
			fmt.Fprintf(tw, "  %s\t%s\t[%s]\n", c.Verdict, c.Text, theory.Cite(c.Label))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if omitted > 0 {
			fmt.Fprintf(w, "  (%d with both sides ∞ — moments that do not exist — not shown)\n", omitted)
		}
		fmt.Fprintln(w, "ass:coordinatewise (L ≤ √d·γ_k^(1/k)) is the assumption's second clause: where it fails, the assumption holds only with γ_k ≥ (L/√d)^k, and the lemma's 4√d·γ_k^(1/k) (which assumes it) may fail; the proof's 2(L^k + …)^(1/k) holds regardless.")
	}
	return nil
}

// footnotes numbers the distinct methods of the sup table.
type footnotes struct {
	list []struct {
		i    int
		text string
	}
}

func (f *footnotes) mark(sym string, e scenarios.SupEntry) string {
	if math.IsInf(e.V, 1) && strings.HasPrefix(e.Method, "does not exist") {
		return ""
	}
	text := sym + ": " + e.Method
	for _, n := range f.list {
		if n.text == text {
			return fmt.Sprintf("[%d]", n.i)
		}
	}
	i := len(f.list) + 1
	f.list = append(f.list, struct {
		i    int
		text string
	}{i, text})
	return fmt.Sprintf("[%d]", i)
}

// supCell is the value of r_k or γ_k^{1/k}: "lo…hi" when bracketed, "≤ hi"
// with no lower bound, "—" when not computed.
func supCell(e scenarios.SupEntry) string {
	switch {
	case math.IsNaN(e.V):
		return "—"
	case math.IsNaN(e.Lo) && !math.IsInf(e.V, 1):
		return "≤ " + n6(e.V)
	case e.Bracketed():
		return n6(e.Lo) + "…" + n6(e.V)
	}
	return n6(e.V)
}

func supSE(e scenarios.SupEntry) string {
	if math.IsInf(e.V, 1) || math.IsNaN(e.SE) {
		return "—"
	}
	return n6(e.SE)
}

// momentSE is a moment's standard error for JSON: null where the moment
// does not exist or the estimator's variance is infinite.
func momentSE(m scenarios.MomentEntry) *float64 {
	if math.IsInf(m.R, 1) {
		return nil
	}
	return theory.JSONNum(m.SE)
}

// seCell is a moment's standard error for the table: 0 for exact, ∞ when
// the estimator's variance is infinite, — where the moment does not exist.
func seCell(m scenarios.MomentEntry) string {
	if math.IsInf(m.R, 1) || math.IsNaN(m.SE) {
		return "—"
	}
	return n6(m.SE)
}

// writeEmpirical writes the empirical moment the class's localized
// theorem reads, when it reads one.
func (m Moments) writeEmpirical(w io.Writer) error {
	em := m.Empirical
	if em == nil {
		return nil
	}
	e := em.Entry
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The empirical moment that class %s's localized theorem reads (lem: empirical moments), at n = %s:\n", m.Spec.Class, theory.FormatCount(em.N))
	fmt.Fprintln(w, "  R̃_{2k,m} = (Σ_{i=1}^{l} 2^{−i} r̃²_{2k,⌊m/2^i⌋})^{1/2} ≤ r̃_2k·√(1 − 2^{−l}),  l = ⌊log₂ m⌋, m = n (R̃_{2k,n}) or ⌊n/4⌋ (R̃_{2k,n/4})")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\t2k\tm\tl\tVALUE\t± S.E.\tMETHOD")
	l, se := "—", "—"
	if e.L > 0 {
		l = theory.FormatCount(e.L)
	}
	if !math.IsInf(e.V, 1) && !math.IsNaN(e.SE) {
		se = n6(e.SE)
	}
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", em.Sym, n6(e.K), theory.FormatCount(e.N), l, empCell(e), se, e.Method)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "a…b: bracketed (b, the upper end lem: empirical moments gives from r̃_2k, as exact as r̃_2k itself, is what the theorem's bound reads); —: not computed.")
	return nil
}

// empCell is the value of R̃: "lo…hi" when bracketed, "≤ hi" with no lower
// end, "—" when not computed.
func empCell(e scenarios.EmpiricalEntry) string {
	switch {
	case math.IsNaN(e.V):
		return "—"
	case math.IsInf(e.V, 1) || e.Exact:
		return n6(e.V)
	case math.IsNaN(e.Lo):
		return "≤ " + n6(e.V)
	}
	return n6(e.Lo) + "…" + n6(e.V)
}

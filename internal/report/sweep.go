package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// SweepJSON is the document of `dpso sweep --json`; the explorer exports
// the same document for a sweep.
type SweepJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON `json:"citation,omitempty"`
	Sweep    string        `json:"sweep"`
	From     float64       `json:"from"`
	To       float64       `json:"to"`
	Grid     []float64     `json:"grid"`
	Scenario *string       `json:"scenario"`
	Data     string        `json:"data,omitempty"`
	Loss     string        `json:"loss,omitempty"`
	Class    theory.Class  `json:"class"`
	K        *float64      `json:"k"`
	Eps      *float64      `json:"eps"`
	N        *int          `json:"n"`
	D        *int          `json:"d"`
	Trials   int           `json:"trials"`
	Seed     *uint64       `json:"seed"` // null with secure randomness
	Rand     string        `json:"rand"`
	// Private, NotPrivate: as a run's (every point's reports agree).
	Private    bool     `json:"private"`
	NotPrivate []string `json:"not_private,omitempty"`
	// Total is what the whole sweep released from the same data.
	Total *TotalJSON `json:"total"`
	// Delta is the δ of every row's eps_delta.
	Delta   *float64         `json:"delta"`
	Solvers []string         `json:"solvers"`
	Rows    []SweepRowJSON   `json:"rows"`
	Slopes  []SweepSlopeJSON `json:"slopes"`
	Bounds  []SweepBoundJSON `json:"bounds"`
	Notes   []string         `json:"notes"`
	// W0Excess is F(w₀) − F* at every grid point.
	W0Excess *SweepW0JSON `json:"w0_excess"`
	// Reference is the non-private reference at every grid point: the
	// empirical risk minimizer's excess risk on the point's draws (null
	// where not computed; see ReferenceJSON).
	Reference *SweepReferenceJSON `json:"nonprivate_reference"`
	// PrescribedClip is the base run's prescribed C (clip and k sweeps).
	PrescribedClip *float64 `json:"prescribed_clip,omitempty"`
	// Best is each solver's grid point with the smallest mean (clip and k
	// sweeps).
	Best []SweepBestJSON `json:"best,omitempty"`
	// Diagnostics marks the rows' diagnostic fields on user data.
	Diagnostics *DiagnosticsJSON `json:"diagnostics,omitempty"`
}

// SweepW0JSON is F(w₀) − F* over the grid.
type SweepW0JSON struct {
	Values  []*float64 `json:"values"`
	Method  string     `json:"method"`
	Meaning string     `json:"meaning"`
	Private *bool      `json:"private,omitempty"`
}

// SweepReferenceJSON is the non-private reference over the grid (mean over
// the point's trials), with why it is missing where it is.
type SweepReferenceJSON struct {
	Values  []*float64 `json:"values"`
	Meaning string     `json:"meaning"`
	Note    string     `json:"note,omitempty"`
	Private bool       `json:"private"`
}

// SweepBestJSON is a solver's best grid point.
type SweepBestJSON struct {
	Solver string   `json:"solver"`
	X      *float64 `json:"x"`
	Mean   *float64 `json:"mean"`
	Stderr *float64 `json:"stderr"`
}

// DiagnosticsJSON names the fields computed on user rows outside the
// private mechanism.
type DiagnosticsJSON struct {
	Fields  []string `json:"fields"`
	Private bool     `json:"private"`
	Note    string   `json:"note"`
}

// SweepRowJSON is one (point, solver).
type SweepRowJSON struct {
	X      float64  `json:"x"`
	Solver string   `json:"solver"`
	Mean   *float64 `json:"mean"`
	Stderr *float64 `json:"stderr"`
	// Median, Q1, Q3 are the trials' median and quartiles (type 7).
	Median *float64 `json:"median"`
	Q1     *float64 `json:"q1"`
	Q3     *float64 `json:"q3"`
	// Trials are the excess risks of the trials, in trial order (null for
	// a refusal).
	Trials []*float64 `json:"trials"`
	// EpsDelta is the ε' of the solver's (ε', δ) at the sweep's δ (EpsDelta
	// in run.go: accounted for dp-sgd, exact for ρ-zCDP); null when the run
	// is not private or refused.
	EpsDelta *float64 `json:"eps_delta"`
	Refused  string   `json:"refused,omitempty"`
	// Private: the mean and stderr are functions of the private outputs
	// alone (false on user data: measured on the private rows).
	Private bool `json:"private"`
	// Clipped is the mean fraction of per-sample gradients clipped
	// (absent for a solver that does not clip).
	Clipped *float64 `json:"clipped,omitempty"`
	// NoiseOff is the mean excess risk of the same T, C, steps and draws
	// with the noise switched off (clip and k sweeps): what clipping,
	// sampling and optimization leave, not the clipping bias alone.
	NoiseOff       *float64 `json:"noise_off,omitempty"`
	NoiseOffStderr *float64 `json:"noise_off_stderr,omitempty"`
	// ClipBias is the clipping bias itself at the solver's C, F(w_C) − F*
	// of the clipped population fixed point, with its Monte Carlo error
	// (0 when exact) and how it was computed, or why not (clip and k
	// sweeps; null when not computed).
	ClipBias       *float64 `json:"clip_bias,omitempty"`
	ClipBiasStderr *float64 `json:"clip_bias_stderr,omitempty"`
	ClipBiasMethod string   `json:"clip_bias_method,omitempty"`
	// W0Excess is F(w₀) − F* at this point.
	W0Excess *float64 `json:"w0_excess"`
	// Certificate is the certificate's value at this point's parameters
	// (null when none applies or a condition fails; CertificateID names
	// it, CertificateVacuous says it is not below w0_excess).
	Certificate        *float64 `json:"certificate"`
	CertificateID      string   `json:"certificate_id,omitempty"`
	CertificateVacuous bool     `json:"certificate_vacuous,omitempty"`
	// CertificateNotCovered is CappedNotCovered where the run is
	// budget-capped: the certificate is the uncapped schedule's and does
	// not cover it, whatever its value (omitted otherwise).
	CertificateNotCovered string `json:"certificate_not_covered,omitempty"`
}

// SweepSlopeJSON is a solver's measured slope.
type SweepSlopeJSON struct {
	Solver string   `json:"solver"`
	Slope  *float64 `json:"slope"`
	Lo     *float64 `json:"lo"`
	Hi     *float64 `json:"hi"`
	Points int      `json:"points"`
	// Private: fitted to private numbers only (false on user data).
	Private bool   `json:"private"`
	Note    string `json:"note,omitempty"`
}

// SweepBoundJSON is a bound over the grid.
type SweepBoundJSON struct {
	ID     string      `json:"id"`
	Kind   theory.Kind `json:"kind"`
	Values []*float64  `json:"values"`
	Slope  *float64    `json:"slope"`
	RateN  []*float64  `json:"rate_n"`
	// RateNote says why rate_n is null or how to read the slope.
	RateNote string `json:"rate_note,omitempty"`
	Meaning  string `json:"meaning"`
}

// sweepBase is the Spec of the sweep's first point (the swept field
// varies) with its n and d those of the instance (user data's rows and
// columns).
func sweepBase(rep *engine.SweepReport) spec.Spec {
	if len(rep.Points) == 0 || len(rep.Points[0].Reports) == 0 {
		return spec.Spec{}
	}
	r := rep.Points[0].Reports[0]
	s := r.Spec
	s.N, s.D = r.Theory.N, r.Theory.D
	return s
}

// Sweep is the document of `dpso sweep --json` for rep.
func Sweep(rep *engine.SweepReport) SweepJSON {
	s := sweepBase(rep)
	j := SweepJSON{Sweep: rep.Sweep.Param, From: rep.Sweep.From, To: rep.Sweep.To, Class: s.Class,
		Trials: s.Trials, Seed: SeedJSON(s.Rand, s.Seed), Rand: s.Rand, Solvers: rep.Solvers, Notes: sweepNotes(rep),
		Total: totalJSON(rep.Total, spec.DefaultConversionDelta)}
	j.NotPrivate = sweepNotPrivate(rep)
	j.Private = len(j.NotPrivate) == 0
	diag := sweepDiagnosticPrivate(rep)
	if s.Data != "" {
		j.Data, j.Loss = s.Data, s.Loss
	} else {
		name := s.Scenario
		j.Scenario = &name
	}
	if rep.Sweep.Param != "k" {
		j.K = theory.JSONNum(s.K)
	}
	if rep.Sweep.Param != "eps" {
		j.Eps = theory.JSONNum(s.Eps)
	}
	if rep.Sweep.Param != "n" {
		n := s.N
		j.N = &n
	}
	if rep.Sweep.Param != "d" {
		d := s.D
		j.D = &d
	}
	j.Grid = make([]float64, len(rep.Points))
	j.Rows = []SweepRowJSON{}
	user := s.Data != ""
	j.W0Excess = &SweepW0JSON{Values: make([]*float64, len(rep.Points)), Meaning: W0Meaning}
	j.Reference = &SweepReferenceJSON{Values: make([]*float64, len(rep.Points)), Meaning: ReferenceMeaning}
	if user {
		j.W0Excess.Private = falsePtr()
		j.Diagnostics = &DiagnosticsJSON{Fields: []string{"mean", "stderr", "median", "q1", "q3", "trials", "slopes", "w0_excess", "clipped", "noise_off", "clip_bias"}, Private: false, Note: DiagnosticNote}
	}
	for i, p := range rep.Points {
		j.Grid[i] = p.Value
		if ref, ok := pointReference(p); ok {
			j.Reference.Values[i] = theory.JSONNum(ref.Reference.Mean)
			if j.Reference.Note == "" {
				j.Reference.Note = ref.ReferenceNote
			}
		}
		for si, r := range p.Reports {
			row := SweepRowJSON{X: p.Value, Solver: rep.Solvers[si], Refused: r.Refused, Private: diagnosticPrivate(r), W0Excess: theory.JSONNum(r.W0.Mean)}
			if si == 0 {
				j.W0Excess.Values[i] = theory.JSONNum(r.W0.Mean)
				j.W0Excess.Method = r.Risk.Method
			}
			if r.Refused == "" {
				row.Mean, row.Stderr = theory.JSONNum(r.Excess.Mean), theory.JSONNum(r.Excess.SE)
				row.Median, row.Q1, row.Q3 = theory.JSONNum(r.Excess.Median), theory.JSONNum(r.Excess.Q1), theory.JSONNum(r.Excess.Q3)
				row.Trials = make([]*float64, len(r.Trials))
				for ti, t := range r.Trials {
					row.Trials[ti] = theory.JSONNum(t.Excess)
				}
				row.Clipped = theory.JSONNum(r.Clipped)
				if rep.NoiseOff {
					row.NoiseOff, row.NoiseOffStderr = theory.JSONNum(r.NoiseOff.Mean), theory.JSONNum(r.NoiseOff.SE)
					row.ClipBias, row.ClipBiasStderr, row.ClipBiasMethod = theory.JSONNum(r.ClipBias.Excess), theory.JSONNum(r.ClipBias.SE), r.ClipBias.Method
				}
				if c := r.Certified.Cert; c != nil {
					row.Certificate, row.CertificateID = theory.JSONNum(c.Value), c.ID
					row.CertificateVacuous = r.Certified.Vacuous(r.W0.Mean)
					if r.BudgetCapped {
						row.CertificateNotCovered = CappedNotCovered
					}
				}
			}
			e, dl := EpsDelta(r)
			row.EpsDelta = theory.JSONNum(e)
			if j.Delta == nil {
				j.Delta = theory.JSONNum(dl)
			}
			j.Rows = append(j.Rows, row)
		}
	}
	if !math.IsNaN(rep.PrescribedClip) && rep.Sweep.Param != "n" && rep.Sweep.Param != "eps" && rep.Sweep.Param != "d" {
		j.PrescribedClip = theory.JSONNum(rep.PrescribedClip)
	}
	for _, b := range rep.Best {
		j.Best = append(j.Best, SweepBestJSON{Solver: b.Solver, X: theory.JSONNum(b.Value), Mean: theory.JSONNum(b.Excess.Mean), Stderr: theory.JSONNum(b.Excess.SE)})
	}
	j.Slopes = make([]SweepSlopeJSON, len(rep.Slopes))
	for i, sl := range rep.Slopes {
		j.Slopes[i] = SweepSlopeJSON{Solver: sl.Solver, Slope: theory.JSONNum(sl.Slope), Lo: theory.JSONNum(sl.Lo), Hi: theory.JSONNum(sl.Hi), Points: sl.Points, Note: sl.Note, Private: diag}
	}
	j.Bounds = make([]SweepBoundJSON, len(rep.Bounds))
	for i, b := range rep.Bounds {
		bj := SweepBoundJSON{ID: b.ID, Kind: b.Kind, Slope: theory.JSONNum(b.Slope), Values: make([]*float64, len(rep.Points)),
			RateNote: b.RateNote, Meaning: theory.RateMeaning}
		for pi, p := range rep.Points {
			if v, ok := sweepBoundAt(p, b.ID); ok {
				bj.Values[pi] = theory.JSONNum(v)
			}
		}
		if b.RateN != nil {
			bj.RateN = make([]*float64, len(b.RateN))
			for ri, r := range b.RateN {
				bj.RateN[ri] = theory.JSONNum(r)
			}
		}
		j.Bounds[i] = bj
	}
	return j
}

// pointReference is a report of the point that ran trials (every solver
// of a point shares its draws, so its reference), ok false when none did.
func pointReference(p engine.SweepPoint) (*engine.Report, bool) {
	for _, r := range p.Reports {
		if r.Refused == "" && len(r.Trials) > 0 {
			return r, true
		}
	}
	return nil, false
}

// sweepReference is the reference's mean at a point (NaN where none).
func sweepReference(p engine.SweepPoint) float64 {
	if r, ok := pointReference(p); ok {
		return r.Reference.Mean
	}
	return math.NaN()
}

// sweepBoundAt is bound id's value at a grid point (+Inf is returned as
// is; ok is false when the bound was not evaluated there). The bounds do
// not depend on the solver: those of the point's first report are read.
func sweepBoundAt(p engine.SweepPoint, id string) (float64, bool) {
	if len(p.Reports) == 0 {
		return math.NaN(), false
	}
	for _, b := range p.Reports[0].Bounds {
		if b.ID == id {
			return b.Value, true
		}
	}
	return math.NaN(), false
}

// WriteSweepTable writes the table of `dpso sweep`.
func WriteSweepTable(w io.Writer, rep *engine.SweepReport) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	s := sweepBase(rep)
	param := rep.Sweep.Param
	trade := param == spec.SweepClip || param == spec.SweepK
	name := s.Scenario
	if s.Data != "" {
		name = theory.Name(s.Data)
	}
	fixed := rep.Fixed(n6)
	fmt.Fprintf(w, "Sweep of %s from %s to %s (%d points, log grid) on %s, class %s; %s; %s per point, %s.\n",
		param, n6(rep.Sweep.From), n6(rep.Sweep.To), len(rep.Points), name, s.Class, strings.Join(fixed, ", "), plural(s.Trials, "trial"), sweepRandText(s))
	fmt.Fprintf(w, "Privacy: %s.\n", totalText(rep.Total, spec.DefaultConversionDelta))
	for _, why := range sweepNotPrivate(rep) {
		fmt.Fprintf(w, "NOT PRIVATE: %s.\n", why)
	}
	if !sweepDiagnosticPrivate(rep) && s.Data != "" {
		cols := "MEAN, ± S.E., W₀"
		if trade {
			cols = "MEAN, ± S.E., NOISE OFF, CLIP BIAS, CLIPPED, W₀ (and the empirical best points)"
		}
		fmt.Fprintf(w, "%s (and the slopes) are %s.\n", cols, DiagnosticNote)
	}
	fmt.Fprintln(w)

	// Bound columns: the rates (n, eps, d, k sweeps; a clip override does
	// not move them).
	bounds := rep.Bounds
	if param == spec.SweepClip {
		bounds = nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{strings.ToUpper(param), "SOLVER", "MEAN", "± S.E."}
	if trade {
		head = append(head, "NOISE OFF", "CLIP BIAS", "CLIPPED")
	}
	head = append(head, "W₀", "REF.", "CERT.", "ε' (δ = "+n6(sweepDelta(rep))+")")
	for _, b := range bounds {
		head = append(head, b.ID)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, p := range rep.Points {
		for si, r := range p.Reports {
			row := []string{n6(p.Value), rep.Solvers[si]}
			if r.Refused != "" {
				row = append(row, "refused", "—")
				if trade {
					row = append(row, "—", "—", "—")
				}
				row = append(row, n4(r.W0.Mean), n4(sweepReference(p)), "—", "—")
			} else {
				row = append(row, n4(r.Excess.Mean)+FlagMark(reportEstimates(r)), seText(r.Excess.SE))
				if trade {
					row = append(row, n4(r.NoiseOff.Mean), clipBiasCell(r.ClipBias), Percent(r.Clipped))
				}
				e, _ := EpsDelta(r)
				row = append(row, n4(r.W0.Mean), n4(sweepReference(p)), certCell(r), n4(e))
			}
			for _, b := range bounds {
				v, ok := sweepBoundAt(p, b.ID)
				if !ok {
					row = append(row, "—")
					continue
				}
				row = append(row, n4(v))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if slices.ContainsFunc(rep.Points, func(p engine.SweepPoint) bool {
		return slices.ContainsFunc(p.Reports, func(r *engine.Report) bool { return FlagMark(reportEstimates(r)) != "" })
	}) {
		fmt.Fprintln(w, "\n[constants flagged in k/m]: the private estimates of the constants fell back or failed in k of the point's m trials (--json: the point's constants.trials[].flags)")
	}
	fmt.Fprintln(w, "\nW₀ = F(w₀) − F*, the excess risk of doing nothing; REF. = the non-private reference, F(ŵ) − F* of the empirical risk minimizer over W on the point's draws (it depends neither on ε nor on any solver; — = not computed); CERT. = the paper's explicit-constant bound at each point's own parameters (* = vacuous: not below W₀; — = none applies or a condition fails).")
	if sweepCapped(rep) {
		fmt.Fprintln(w, cappedMark+" = "+CappedNotCovered+": the work budget cut the point's schedule and the theorem's guarantee assumes the full one, so its certificate does not cover the run (whatever its value).")
	}
	for _, line := range certSummary(rep) {
		fmt.Fprintln(w, line)
	}
	if trade {
		writeTradeOff(w, rep)
	} else {
		if err := writeSlopes(w, rep, bounds); err != nil {
			return err
		}
	}
	if len(bounds) > 0 {
		fmt.Fprintln(w, "Bound columns are rates, constants = 1: compare slopes, not levels.")
	}
	if notes := sweepNotes(rep); len(notes) > 0 {
		fmt.Fprintln(w, "\nNotes:")
		for _, n := range notes {
			fmt.Fprintln(w, "  - "+n)
		}
	}
	return nil
}

// writeSlopes prints the measured slopes and the bounds' slopes of an n,
// eps or d sweep.
func writeSlopes(w io.Writer, rep *engine.SweepReport, bounds []engine.BoundSlope) error {
	param := rep.Sweep.Param
	fmt.Fprintf(w, "\nLog-log slopes against %s (OLS of ln(mean) on ln(%s), 95%% t-interval):\n", param, param)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, sl := range rep.Slopes {
		ci := "no interval"
		if !math.IsNaN(sl.Lo) {
			ci = "[" + rate(sl.Lo) + ", " + rate(sl.Hi) + "]"
		}
		note := ""
		if sl.Note != "" {
			note = " — " + sl.Note
		}
		fmt.Fprintf(tw, "  %s\tmeasured\t%s\t%s\t(%d points)%s\n", sl.Solver, rate(sl.Slope), ci, sl.Points, note)
	}
	for _, b := range bounds {
		extra := ""
		switch {
		case len(b.RateN) > 0 && b.RateNote == "":
			extra = "theory's local rate in n: " + rate(b.RateN[0]) + " … " + rate(b.RateN[len(b.RateN)-1])
		case len(b.RateN) > 0:
			extra = "local rate " + rate(b.RateN[0]) + " … " + rate(b.RateN[len(b.RateN)-1]) + ": " + b.RateNote
		case b.RateNote != "":
			extra = b.RateNote
		}
		fmt.Fprintf(tw, "  %s\t%s bound (rate)\t%s\t\t%s\n", b.ID, b.Kind, rate(b.Slope), extra)
	}
	return tw.Flush()
}

// writeTradeOff prints a clip or k sweep's summary: the prescribed point
// and each solver's empirical best.
func writeTradeOff(w io.Writer, rep *engine.SweepReport) {
	param := rep.Sweep.Param
	fmt.Fprintln(w)
	if param == spec.SweepClip && !math.IsNaN(rep.PrescribedClip) {
		fmt.Fprintf(w, "Prescribed C = %s (the theorem's choice at these parameters; the grid's top end by default).\n", n4(rep.PrescribedClip))
	}
	for _, b := range rep.Best {
		if math.IsNaN(b.Value) {
			continue
		}
		fmt.Fprintf(w, "Empirical best %s for %s: %s = %s, mean excess risk %s ± %s.\n", param, b.Solver, param, n4(b.Value), n4(b.Excess.Mean), seText(b.Excess.SE))
	}
	fmt.Fprintln(w, "NOISE OFF: the same T, C, steps and draws with the noise switched off (clipping, sampling and optimization error together); CLIP BIAS: the clipping bias itself, F(w_C) − F* of the clipped population fixed point (± its Monte Carlo error; — where not computed); CLIPPED: mean fraction of per-sample gradients clipped.")
	if m := clipBiasMethods(rep); m != "" {
		fmt.Fprintln(w, "CLIP BIAS here: "+m+".")
	}
	fmt.Fprintln(w, "N"+strings.TrimPrefix(NoSlopeWhy(rep.Sweep.Param), "n")+".")
}

// cappedMark follows a budget-capped run's certificate in a sweep table
// (CappedNotCovered).
const cappedMark = "‡"

// certCell is r's certificate's value in a sweep table: "*" marks a
// vacuous one, cappedMark one that does not cover its budget-capped run,
// "—" none (or a failed condition).
func certCell(r *engine.Report) string {
	c := r.Certified
	v := c.Value()
	if math.IsNaN(v) {
		return "—"
	}
	mark := ""
	if c.Vacuous(r.W0.Mean) {
		mark = "*"
	}
	if r.BudgetCapped {
		mark += cappedMark
	}
	return n4(v) + mark
}

// sweepCapped reports whether any run of the sweep is budget-capped.
func sweepCapped(rep *engine.SweepReport) bool {
	return slices.ContainsFunc(rep.Points, func(p engine.SweepPoint) bool {
		return slices.ContainsFunc(p.Reports, func(r *engine.Report) bool { return r != nil && r.Refused == "" && r.BudgetCapped })
	})
}

// certSummary says, for an n sweep, from which grid point on each solver's
// certificate promises something (is below F(w₀) − F*), leaving out the
// budget-capped points, whose certificates do not cover their runs, and
// the points whose private estimates are flagged, on which no certificate
// stands (both are named).
func certSummary(rep *engine.SweepReport) []string {
	if rep.Sweep.Param != spec.SweepN {
		return nil
	}
	var out []string
	for si, solver := range rep.Solvers {
		first := math.NaN()
		have := false
		var capped, flaggedAt []string
		for _, p := range rep.Points {
			r := p.Reports[si]
			if r.Refused != "" || r.Certified.Cert == nil || math.IsNaN(r.Certified.Value()) {
				continue
			}
			if r.BudgetCapped {
				capped = append(capped, n6(p.Value))
				continue
			}
			if EstimatesFlagged(r) {
				flaggedAt = append(flaggedAt, n6(p.Value))
				continue
			}
			have = true
			if !r.Certified.Vacuous(r.W0.Mean) && math.IsNaN(first) {
				first = p.Value
			}
		}
		if len(capped) > 0 {
			out = append(out, fmt.Sprintf("%s: %s at n = %s: the work budget cut the schedule, the certificate is the uncapped one's", solver, CappedNotCovered, strings.Join(capped, ", ")))
		}
		if len(flaggedAt) > 0 {
			out = append(out, fmt.Sprintf("%s: %s at n = %s", solver, FlaggedNoCert, strings.Join(flaggedAt, ", ")))
		}
		switch {
		case !have:
		case math.IsNaN(first):
			out = append(out, fmt.Sprintf("%s: the certificate is vacuous (not below F(w₀) − F*) at every n of the grid: the guarantee promises nothing here", solver))
		default:
			var asides []string
			if len(capped) > 0 {
				asides = append(asides, "the budget-capped points")
			}
			if len(flaggedAt) > 0 {
				asides = append(asides, "the flagged points")
			}
			aside := ""
			if len(asides) > 0 {
				aside = " (" + strings.Join(asides, " and ") + " aside)"
			}
			out = append(out, fmt.Sprintf("%s: the certificate promises something (falls below F(w₀) − F*) from n = %s on%s", solver, n6(first), aside))
		}
	}
	return out
}

// sweepDelta is the δ of the sweep's (ε', δ) column (every point's).
func sweepDelta(rep *engine.SweepReport) float64 {
	for _, p := range rep.Points {
		for _, r := range p.Reports {
			return r.Privacy.Delta
		}
	}
	return math.NaN()
}

// seText is a standard error, "—" when it does not exist (one trial).
// clipBiasCell is a clipping bias in a sweep table: its value, ± its Monte
// Carlo error when it has one, "—" when not computed.
func clipBiasCell(b scenarios.ClipBias) string {
	switch {
	case math.IsNaN(b.Excess):
		return "—"
	case b.SE > 0:
		return n4(b.Excess) + " ± " + n4(b.SE)
	}
	return n4(b.Excess)
}

// clipBiasMethods says how the sweep's clipping biases were computed (or
// why not), each way once with the grid values where it applied when that
// is not every point.
func clipBiasMethods(rep *engine.SweepReport) string {
	var order []string
	where := map[string][]string{}
	total := 0
	for _, p := range rep.Points {
		for si, r := range p.Reports {
			if r.Refused != "" || r.ClipBias.Method == "" {
				continue
			}
			total++
			m := r.ClipBias.Method
			if len(rep.Solvers) > 1 {
				m = rep.Solvers[si] + ": " + m
			}
			if _, ok := where[m]; !ok {
				order = append(order, m)
			}
			where[m] = append(where[m], n4(p.Value))
		}
	}
	var parts []string
	for _, m := range order {
		if len(where[m]) == total {
			parts = append(parts, m)
			continue
		}
		parts = append(parts, m+" (at "+rep.Sweep.Param+" = "+strings.Join(where[m], ", ")+")")
	}
	return strings.Join(parts, "; ")
}

func seText(se float64) string {
	if math.IsNaN(se) {
		return "—"
	}
	return n4(se)
}

// sweepNotes are the sweep's notes and its points' reports' notes, each
// once, with the grid values where it appeared when that is not every
// point; a note only some of a point's solvers have is prefixed with the
// solver's name, as comparisonNotes does.
func sweepNotes(rep *engine.SweepReport) []string {
	out := append([]string{}, rep.Notes...)
	var order []string
	at := map[string][]string{}
	for _, p := range rep.Points {
		seen := map[string]bool{}
		count := map[string]int{}
		for _, r := range p.Reports {
			for _, n := range slices.Compact(slices.Sorted(slices.Values(r.Notes))) {
				count[n]++
			}
		}
		for _, r := range p.Reports {
			for _, n := range r.Notes {
				if count[n] < len(p.Reports) && !strings.HasPrefix(n, r.Solver+": ") {
					n = r.Solver + ": " + n
				}
				if seen[n] {
					continue
				}
				seen[n] = true
				if _, ok := at[n]; !ok {
					order = append(order, n)
				}
				at[n] = append(at[n], n6(p.Value))
			}
		}
	}
	for _, n := range order {
		if len(at[n]) == len(rep.Points) {
			out = append(out, n)
		} else {
			out = append(out, fmt.Sprintf("at %s = %s: %s", rep.Sweep.Param, strings.Join(at[n], ", "), n))
		}
	}
	return out
}

// sweepRandText is the randomness in a sweep table's first line: "seed S"
// when seeded, the secure mode's label (no seed is read) when secure.
func sweepRandText(s spec.Spec) string {
	if s.Rand == solvers.Secure.String() {
		return solvers.Secure.Label()
	}
	return fmt.Sprintf("seed %d", s.Seed)
}

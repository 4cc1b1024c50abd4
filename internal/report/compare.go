package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// ComparisonJSON is the document of a comparison — `dpso run --solvers
// a,b,c --json` and the explorer's export of a comparison —: the problem
// once, every solver's `dpso run --json` document in order (all on the
// same draws: common random numbers; a solver that refuses or cannot run
// this configuration has its sentence in refused and no trials), and each
// solver's paired difference from the first. Null where a value is
// infinite or does not exist.
type ComparisonJSON struct {
	// Citation is what reproduces the document.
	Citation *CitationJSON `json:"citation,omitempty"`
	Scenario *string       `json:"scenario"`
	Data     string        `json:"data,omitempty"`
	Loss     string        `json:"loss,omitempty"`
	Class    string        `json:"class"`
	N        int           `json:"n"`
	D        int           `json:"d"`
	K        *float64      `json:"k"`
	Eps      *float64      `json:"eps"`
	Seed     *uint64       `json:"seed"` // null with secure randomness
	Trials   int           `json:"trials"`
	Rand     string        `json:"rand"`
	// Private: every solver's output is covered by its guarantee;
	// NotPrivate says why not (each reason once).
	Private    bool     `json:"private"`
	NotPrivate []string `json:"not_private,omitempty"`
	// Total is what the comparison's outputs cost together: every
	// solver's trials read the same data (see TotalJSON).
	Total   *TotalJSON `json:"total"`
	Solvers []string   `json:"solvers"`
	// Runs are the solvers' run documents, in the order of Solvers.
	Runs []RunJSON `json:"runs"`
	// PairedDifferences[i] is solver i's excess risk minus the first
	// solver's, mean ± standard error over the trials' differences
	// (pairing removes the data's variance); null where either refused.
	PairedDifferences []DiffJSON `json:"paired_differences"`
	// W0Excess is F(w₀) − F* at the solvers' common start w₀ = 0: doing
	// nothing (the same for every solver; each run's document repeats it
	// beside its own certificate).
	W0Excess *W0JSON `json:"w0_excess"`
}

// DiffJSON is a paired difference of excess risks. Private is false
// where either run's excess risk is not a private number (measured on
// user rows, or of a run that is not private): as every diagnostic, it
// says so where it appears.
type DiffJSON struct {
	Solver  string   `json:"solver"`
	Minus   string   `json:"minus"`
	Mean    *float64 `json:"mean"`
	Stderr  *float64 `json:"stderr"`
	Private bool     `json:"private"`
}

// Comparison is the document of a comparison (ComparisonJSON).
func Comparison(c *engine.Comparison, opt Options) ComparisonJSON {
	var j ComparisonJSON
	if len(c.Reports) == 0 {
		return ComparisonJSON{Solvers: []string{}, Runs: []RunJSON{}, PairedDifferences: []DiffJSON{}}
	}
	first := c.Reports[0]
	h := headerJSON(first.Spec, first.Theory, first.Solver, first.Oracle)
	j = ComparisonJSON{Scenario: h.Scenario, Data: h.Data, Loss: h.Loss, Class: string(h.Class), N: h.N, D: h.D, K: h.K, Eps: h.Eps,
		Seed: h.Seed, Trials: first.Spec.Trials, W0Excess: w0JSON(first.W0, first.Risk.Method, first.Spec.Data != ""),
		Rand: first.Spec.Rand, Total: totalJSON(c.Total, opt.convDelta()), NotPrivate: comparisonNotPrivate(c)}
	j.Private = len(j.NotPrivate) == 0
	j.Citation = opt.Citation.JSON()
	opt.Citation = nil // once, at the top
	for i, r := range c.Reports {
		j.Solvers = append(j.Solvers, r.Solver)
		rj := Run(r, opt)
		rj.Privacy.Total = nil // the comparison's total is j.Total
		j.Runs = append(j.Runs, rj)
		d := DiffJSON{Solver: r.Solver, Minus: first.Solver, Private: diagnosticPrivate(r) && diagnosticPrivate(first)}
		if i < len(c.Diff) {
			d.Mean, d.Stderr = theory.JSONNum(c.Diff[i].Mean), theory.JSONNum(c.Diff[i].SE)
		}
		j.PairedDifferences = append(j.PairedDifferences, d)
	}
	return j
}

// WriteComparisonTable writes the table of `dpso run --solvers`: the
// problem once, one row per solver (its excess risk, its paired difference
// from the first solver, its parameters and privacy, or its refusal), the
// class's bounds, and the notes — those of every solver once, a solver's
// own prefixed with its name.
func WriteComparisonTable(w io.Writer, c *engine.Comparison, opt Options) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	if len(c.Reports) == 0 {
		_, err := fmt.Fprintln(w, "No solver to compare.")
		return err
	}
	first := c.Reports[0]
	s := first.Spec
	all := problemRows(s, first.Theory, first.Solver, first.Describe, first.Oracle)
	// scenario, class, n and d, k and ε: the solvers and their oracles are
	// the rows below.
	rows := append(all[:2:2], all[4:]...)
	rows = append(rows, [2]string{"trials", fmt.Sprintf("%d (%s); every solver on the same draws", s.Trials, RandText(s.Rand, s.Seed))})
	method := first.Risk.Method
	for _, r := range c.Reports {
		if r.Refused == "" {
			method = r.Risk.Method
			break
		}
	}
	rows = append(rows, w0Row(first.W0, method, s.Data != ""))
	for _, r := range c.Reports {
		if row, ok := referenceRow(r); ok {
			rows = append(rows, row)
			break
		}
	}
	rows = append(rows, [2]string{"total", totalText(c.Total, opt.convDelta())})
	rows = append(rows, notPrivateRows(comparisonNotPrivate(c))...)
	if err := writeRows(w, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "SOLVER\tORACLE\tEXCESS RISK\t± S.E.\tMEDIAN [Q1, Q3]\t%s\tCERTIFIED ≤\tT\tC\tCLIPPED\tσ\tPRIVACY\tε' (δ = %s)\n", "− "+strings.ToUpper(first.Solver)+" (PAIRED)", n4(first.Privacy.Delta))
	var refusals []string
	for i, r := range c.Reports {
		if r.Refused != "" {
			fmt.Fprintf(tw, "%s\t%s\trefuses (below)\t\t\t\t\t\t\t\t\t\n", r.Solver, r.Oracle)
			refusals = append(refusals, r.Solver+" refuses: "+r.Refused)
			continue
		}
		diff := "—"
		if i > 0 && i < len(c.Diff) && !math.IsNaN(c.Diff[i].Mean) {
			diff = n4(c.Diff[i].Mean) + " ± " + n4(c.Diff[i].SE)
		}
		se := n6(r.Excess.SE)
		priv := "none"
		if r.Private() {
			sp := spentOf(r)
			priv = "spent ρ = " + n4(sp.rho)
			switch r.Privacy.Model {
			case spec.Shuffle:
				priv = "spent (ε, δ) = (" + n4(sp.eps) + ", " + n4(sp.delta) + ")"
			case spec.Accountant:
				priv = r.Privacy.AccountantName + " accountant"
			}
		}
		eps, _ := EpsDelta(r)
		par := r.Params
		quart := n4(r.Excess.Median) + " [" + n4(r.Excess.Q1) + ", " + n4(r.Excess.Q3) + "]"
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", r.Solver, r.Oracle, n6(r.Excess.Mean), se, quart, diff,
			certCell(r), par.Iters, n4(par.Clip), Percent(r.Clipped), n4(par.Sigma), priv, n6(eps))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range strings.SplitAfter(table.String(), "\n") {
		fmt.Fprint(w, strings.TrimRight(l, " \n")+strings.Repeat("\n", strings.Count(l, "\n")))
	}
	for _, r := range refusals {
		fmt.Fprintln(w, r)
	}
	for _, r := range c.Reports {
		if row, ok := constantsRow(r); ok {
			fmt.Fprintf(w, "%s, %s: %s\n", r.Solver, row[0], row[1])
		}
		if row, ok := holdoutRow(r); ok {
			fmt.Fprintf(w, "%s, %s: %s\n", r.Solver, row[0], row[1])
		}
	}
	risk := first.Risk
	for _, r := range c.Reports {
		if r.Refused == "" {
			risk = r.Risk
			break
		}
	}
	fmt.Fprintf(w, "Excess risk F(w) − F*: mean ± s.e. over %s (%s, %s); the paired column is each solver minus %s, trial by trial.\n",
		plural(s.Trials, "trial"), risk.Kind, risk.Method, first.Solver)
	if first.UserRows {
		fmt.Fprintf(w, "EXCESS RISK, its median and quartiles, the paired differences and CLIPPED are %s.\n", DiagnosticNote)
	}
	fmt.Fprintln(w, "CERTIFIED ≤: the paper's explicit-constant bound at each solver's own parameters (* = vacuous: not below the start point's F(w₀) − F*; — = none applies or a condition fails); CLIPPED: per-sample gradients clipped.")
	if slices.ContainsFunc(c.Reports, func(r *engine.Report) bool { return r != nil && r.Refused == "" && r.BudgetCapped }) {
		fmt.Fprintln(w, cappedMark+" = "+CappedNotCovered+": the work budget cut the solver's schedule and the theorem's guarantee assumes the full one, so its certificate does not cover the run (whatever its value).")
	}
	return writeTail(w, first.Bounds, comparisonNotes(c), s.Eps)
}

// Notes are the notes `dpso run` prints under its table for c (and its
// JSON's "notes"): for a single run its notes and its reference lines'
// (the certificate, a mean above F(w₀) − F*, a budget cap), for a
// comparison every solver's once (see comparisonNotes). The explorer shows
// the same list.
func Notes(c *engine.Comparison) []string { return comparisonNotes(c) }

// comparisonNotes lists every solver's notes once: a note every solver
// has as it is, a solver's own prefixed with its name (unless it already
// begins with it, as dp-sgd's "dp-sgd: T = …" does).
func comparisonNotes(c *engine.Comparison) []string {
	count := map[string]int{}
	for _, r := range c.Reports {
		seen := map[string]bool{}
		for _, n := range r.Notes {
			if !seen[n] {
				count[n]++
				seen[n] = true
			}
		}
	}
	var out []string
	done := map[string]bool{}
	for _, r := range c.Reports {
		for _, n := range append(append([]string{}, r.Notes...), r.RefNotes...) {
			key := n
			if count[n] < len(c.Reports) && !strings.HasPrefix(n, r.Solver+": ") {
				key = r.Solver + ": " + n
			}
			if !done[key] {
				out = append(out, key)
				done[key] = true
			}
		}
	}
	return out
}

// WriteComparisonTraceCSV writes every solver's trials' traces (`dpso run
// --solvers … --csv`): solver,trial,grad_evals,excess_risk; a solver that
// refused has no rows; the citation's columns last (cit nil: none).
func WriteComparisonTraceCSV(w io.Writer, c *engine.Comparison, cit *Citation) error {
	cw := csv.NewWriter(w)
	cw.Write(cit.csvHead([]string{"solver", "trial", "grad_evals", "excess_risk"}))
	for _, r := range c.Reports {
		for _, t := range r.Trials {
			for _, p := range t.Trace {
				cw.Write(cit.csvRow([]string{r.Solver, strconv.Itoa(t.Trial), strconv.FormatInt(p.GradEvals, 10), csvCell(p.Excess)}))
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

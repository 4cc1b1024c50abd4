package common

import (
	"strconv"
	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/tui/chart"
	"dpso/tui/runs"
)

// Previous is a screen's previous finished run, kept when a run of other
// parameters replaces it, so that the new run is drawn over its faint
// trace (chart.Trace) and a change of k, n or ε can be compared by eye;
// label names the parameters it had that the new one does not. A re-run
// of the same parameters keeps the trace it had; a run whose parameters
// are the trace's own drops it.
type Previous struct {
	cur, last *runs.Run
	label     string
}

// Follow takes the run the screen shows (nil: none).
func (p *Previous) Follow(r *runs.Run) {
	if r == nil {
		// The runs were forgotten (a preset loaded): so is the trace.
		*p = Previous{}
		return
	}
	if r == p.cur {
		return
	}
	if old := p.cur; old != nil && old.Phase == runs.Done && runs.RunKey(old.Spec) != runs.RunKey(r.Spec) {
		p.last = old
	}
	p.cur = r
	p.label = ""
	if p.last != nil {
		p.label = ChangedFrom(p.last.Spec.Spec, r.Spec.Spec)
		if p.label == "" {
			p.last = nil
		}
	}
}

// Series is the previous sweep's first solver's points over param, as a
// faint trace (false: none, or a sweep of another parameter).
func (p *Previous) Series(c Common, param string) (chart.Series, bool) {
	r := p.last
	if r == nil || r.Sweep == nil || r.Sweep.Sweep.Param != param || len(r.Sweep.Solvers) == 0 {
		return chart.Series{}, false
	}
	ser := chart.Series{Label: "before (" + p.label + ")", Kind: chart.Trace, Color: c.Styles.Trace, Note: "(the previous sweep)"}
	for _, pt := range r.Sweep.Points {
		if rep := pt.Reports[0]; rep.Refused == "" {
			ser.Points = append(ser.Points, chart.Point{X: pt.Value, Y: rep.Excess.Mean})
		}
	}
	return ser, len(ser.Points) > 0
}

// RunSeries is the previous run's first solver's curve (its mean over the
// trials), as a faint trace (false: none).
func (p *Previous) RunSeries(c Common) (chart.Series, bool) {
	r := p.last
	if r == nil || r.Comparison == nil || len(r.Comparison.Reports) == 0 || r.Comparison.Reports[0].Refused != "" {
		return chart.Series{}, false
	}
	rep := r.Comparison.Reports[0]
	ser := chart.Series{Label: rep.Solver + " before (" + p.label + ")", Kind: chart.Trace, Color: c.Styles.Trace}
	for _, pt := range rep.Trace {
		ser.Points = append(ser.Points, chart.Point{X: float64(pt.GradEvals), Y: pt.Excess})
	}
	if n := len(rep.Trace); n > 0 {
		ser.Note = FmtNum(rep.Trace[n-1].Excess)
	}
	return ser, len(ser.Points) > 0
}

// ChangedFrom names the parameters of the resolved Spec a that differ in
// b, with a's values ("k = 2", "n = 10⁴, ε = 1"; more than two end in
// "…"); "" when they are the same.
func ChangedFrom(a, b spec.Spec) string {
	var out []string
	for _, c := range Changes(a, b) {
		if c.Value == "" {
			out = append(out, c.Name)
		} else {
			out = append(out, c.Name+" = "+c.Value)
		}
	}
	if len(out) > 2 {
		out = append(out[:2:2], "…")
	}
	return strings.Join(out, ", ")
}

// Change is a field of the form whose value differs between two Specs:
// its label and the first Spec's value as the form writes it ("" for
// "other settings", a difference the form does not show).
type Change struct{ Name, Value string }

// Changes are the fields of the form that differ between the resolved
// Specs a and b, in the form's order, with a's values; a difference in
// any other field is one change, "other settings".
func Changes(a, b spec.Spec) []Change {
	var out []Change
	add := func(differ bool, label, value string) {
		if differ {
			out = append(out, Change{label, value})
		}
	}
	add(a.Class != b.Class, "class", string(a.Class))
	add(a.Scenario != b.Scenario, "scenario", a.Scenario)
	add(a.K != b.K, "k", FmtK(a.K))
	add(a.Eps != b.Eps, "ε", FmtNum(a.Eps))
	add(a.N != b.N, "n", FmtN(a.N))
	add(a.D != b.D, "d", strconv.Itoa(a.D))
	if a.Tail != b.Tail {
		sym := "tail"
		if info, ok := scenarios.Lookup(a.Scenario); ok && info.Tail != nil {
			sym = info.Tail.Symbol
		}
		add(true, sym, FmtNum(a.Tail))
	}
	add(a.Solver != b.Solver, "solver", a.Solver)
	add(a.Oracle != b.Oracle, "oracle", a.Oracle)
	add(a.Assumption != b.Assumption, "assume", a.Assumption)
	add(a.Seed != b.Seed || secure(a) != secure(b), "seed", seedText(a))
	add(a.Trials != b.Trials, "trials", strconv.Itoa(a.Trials))
	if len(out) == 0 {
		// The form's fields are the same: any other difference (a flag
		// given to dpso explore, dp-sgd's adaptive clipping) is one.
		if specKey(a) != specKey(b) {
			out = append(out, Change{"other settings", ""})
		}
	}
	return out
}

// secure is whether s draws its noise from secure randomness, which
// reads no seed.
func secure(s spec.Spec) bool { return s.Rand == solvers.Secure.String() }

// seedText is the seed row's value for s, as the form writes it: "none"
// under secure randomness, else the seed.
func seedText(s spec.Spec) string {
	if secure(s) {
		return "none"
	}
	return strconv.FormatUint(s.Seed, 10)
}

// specKey is runs.RunKey of a Spec that is already resolved.
func specKey(s spec.Spec) string { return runs.RunKey(spec.Resolved{Spec: s}) }

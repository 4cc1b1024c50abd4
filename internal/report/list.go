package report

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// ListJSON is the document of `dpso list --json`.
type ListJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation  *CitationJSON  `json:"citation,omitempty"`
	Scenarios []ScenarioJSON `json:"scenarios"`
	Classes   []ClassJSON    `json:"classes"`
	Solvers   []NamedJSON    `json:"solvers"`
	Oracles   []OracleJSON   `json:"oracles"`
}

// ScenarioJSON is one scenario of the catalogue.
type ScenarioJSON struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Loss        string      `json:"loss"`
	Classes     []string    `json:"classes"`
	Tail        *ParamJSON  `json:"tail"`
	Params      []ParamJSON `json:"params"`
	Lambda1     *ParamJSON  `json:"lambda1"`
	Lambda2     *ParamJSON  `json:"lambda2"`
	// N and K are what a run of the default class uses when it gives no
	// other flag; Defaults has them for every class (they differ for the
	// non-smooth classes, whose n fits the localized schedule to the work
	// budget).
	N         int                 `json:"n"`
	K         float64             `json:"k"`
	Defaults  []ClassDefaultsJSON `json:"defaults"`
	D         int                 `json:"d"`
	Diam      *float64            `json:"diam"`
	FixedD    bool                `json:"fixed_d"`
	FixedDiam bool                `json:"fixed_diam"`
	Risk      string              `json:"risk"`
}

// ClassDefaultsJSON is what a run of a scenario at one class uses when it
// gives no other flag: spec.Spec{Scenario, Class}.Resolve(), the one
// source of the defaults (a run resolves the same way). Why says, for each
// default that differs from the catalogue's, why (spec.Resolved's
// DefaultNotes).
type ClassDefaultsJSON struct {
	Class  string   `json:"class"`
	Solver string   `json:"solver"`
	N      int      `json:"n"`
	K      float64  `json:"k"`
	Why    []string `json:"why"`
	// Error is why the class does not run on its defaults alone (e.g.
	// affine-hard's smooth-convex class needs a β); N, K and Solver are
	// then zero.
	Error string `json:"error,omitempty"`
	// Flag is the flag that Error asks for.
	Flag string `json:"flag,omitempty"`
}

// classDefaults resolves the scenario at each of its classes.
func classDefaults(in scenarios.Info) []ClassDefaultsJSON {
	out := make([]ClassDefaultsJSON, 0, len(in.Classes))
	for _, c := range in.Classes {
		r, err := spec.Spec{Scenario: in.Name, Class: c}.Resolve()
		if err != nil {
			var se *spec.SpecError
			msg, flag := err.Error(), ""
			if errors.As(err, &se) {
				flag = spec.FlagName(se.Field)
				msg = flag + ": " + se.Msg
			}
			out = append(out, ClassDefaultsJSON{Class: string(c), Why: []string{}, Error: msg, Flag: flag})
			continue
		}
		out = append(out, ClassDefaultsJSON{Class: string(c), Solver: r.Solver.Name(), N: r.Spec.N, K: r.Spec.K, Why: nonNil(r.DefaultNotes)})
	}
	return out
}

// ParamJSON is an adjustable parameter with its default and range.
type ParamJSON struct {
	Name    string  `json:"name"`
	Symbol  string  `json:"symbol"`
	Meaning string  `json:"meaning"`
	Default float64 `json:"default"`
	Range   string  `json:"range"`
}

// ClassJSON is a loss class with the paper's algorithm for it.
type ClassJSON struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Solver string `json:"solver"`
}

// NamedJSON is a solver.
type NamedJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// OracleJSON is a mean oracle with its privacy model.
type OracleJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Privacy is "zcdp" (ρ = ε²/2) or "shuffle" ((ε, δ)-shuffle DP).
	Privacy string `json:"privacy"`
}

func paramOf(p *scenarios.Param) *ParamJSON {
	if p == nil {
		return nil
	}
	return &ParamJSON{Name: p.Name, Symbol: p.Symbol, Meaning: p.Meaning, Default: p.Default, Range: p.Range()}
}

// List is the catalogue: scenarios, classes, solvers, oracles.
func List() ListJSON {
	var l ListJSON
	for _, in := range scenarios.List() {
		s := ScenarioJSON{Name: in.Name, Description: in.Description, Loss: in.Loss, Tail: paramOf(in.Tail),
			Params: []ParamJSON{}, Lambda1: paramOf(in.Lambda1), Lambda2: paramOf(in.Lambda2),
			Defaults: classDefaults(in), D: in.D, FixedD: in.FixedD, FixedDiam: in.FixedDiam, Risk: in.Risk}
		if len(s.Defaults) > 0 {
			s.N, s.K = s.Defaults[0].N, s.Defaults[0].K
		}
		for _, c := range in.Classes {
			s.Classes = append(s.Classes, string(c))
		}
		for i := range in.Params {
			s.Params = append(s.Params, *paramOf(&in.Params[i]))
		}
		if in.Diam > 0 {
			d := in.Diam
			s.Diam = &d
		}
		l.Scenarios = append(l.Scenarios, s)
	}
	for _, c := range theory.Classes {
		d, _ := solvers.PaperSolver(c)
		l.Classes = append(l.Classes, ClassJSON{Name: string(c), Title: c.Title(), Solver: d.Name()})
	}
	for _, d := range solvers.Descriptors() {
		l.Solvers = append(l.Solvers, NamedJSON{Name: d.Name(), Description: d.Solver.Describe()})
	}
	for _, n := range oracle.Names() {
		model := "zcdp"
		if k, _ := oracle.KindOf(n); k == oracle.Shuffle {
			model = "shuffle"
		}
		l.Oracles = append(l.Oracles, OracleJSON{Name: n, Description: oracle.Describe(n), Privacy: model})
	}
	return l
}

// WriteList writes the text of `dpso list`.
func WriteList(w io.Writer, l ListJSON) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	fmt.Fprintln(w, "SCENARIOS (dpso run --scenario NAME; parameters are flags of the same name)")
	for _, s := range l.Scenarios {
		fmt.Fprintf(w, "\n%s — %s\n", s.Name, s.Description)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  loss\t%s\n", s.Loss)
		fmt.Fprintf(tw, "  classes\t%s (default %s)\n", strings.Join(s.Classes, ", "), s.Classes[0])
		d := fmt.Sprintf("%d", s.D)
		if s.FixedD {
			d += " (fixed)"
		}
		diam := "set by the lower-bound proof"
		if s.Diam != nil {
			diam = n6(*s.Diam)
			if s.FixedDiam {
				diam += " (fixed)"
			}
		}
		if nk := ClassNK(s); len(nk) == 1 {
			fmt.Fprintf(tw, "  defaults\t%s, d = %s, D = %s; F: %s\n", nk[0][1], d, diam, s.Risk)
		} else {
			fmt.Fprintf(tw, "  defaults\td = %s, D = %s; F: %s\n", d, diam, s.Risk)
			for _, l := range nk {
				fmt.Fprintf(tw, "  \t%s: %s\n", l[0], l[1])
			}
			if nMoved(s) {
				fmt.Fprintf(tw, "  \t%s\n", whyN(s))
			}
		}
		if s.Tail != nil {
			fmt.Fprintf(tw, "  --tail\t%s\n", paramText(*s.Tail))
		}
		for _, p := range s.Params {
			fmt.Fprintf(tw, "  --%s\t%s\n", p.Name, paramText(p))
		}
		for _, p := range []*ParamJSON{s.Lambda1, s.Lambda2} {
			if p != nil {
				fmt.Fprintf(tw, "  --%s\t%s\n", p.Name, paramText(*p))
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "\nCLASSES (--class) and the paper's algorithm for each (the default --solver)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range l.Classes {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Name, c.Title, c.Solver)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nSOLVERS (--solver)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range l.Solvers {
		fmt.Fprintf(tw, "  %s\t%s\n", s.Name, s.Description)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nORACLES (--oracle)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, o := range l.Oracles {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Name, o.Privacy, o.Description)
	}
	return tw.Flush()
}

// ClassNK is the default n and k of each class as "n = 1024, k = 4"
// texts: one entry (class "") when every class has the same, else one per
// class ("nonsmooth-sc (localized-sc)", "n = 2048, k = 4").
func ClassNK(s ScenarioJSON) [][2]string {
	nk := func(c ClassDefaultsJSON) string { return fmt.Sprintf("n = %d, k = %s", c.N, theory.Human.Format(c.K)) }
	same := true
	for _, c := range s.Defaults {
		same = same && c.N == s.N && c.K == s.K && c.Error == ""
	}
	if same {
		return [][2]string{{"", fmt.Sprintf("n = %d, k = %s", s.N, theory.Human.Format(s.K))}}
	}
	out := make([][2]string, len(s.Defaults))
	for i, c := range s.Defaults {
		if c.Error != "" {
			out[i] = [2]string{c.Class, "not on its defaults alone: " + c.Error}
			continue
		}
		out[i] = [2]string{c.Class + " (" + c.Solver + ")", nk(c)}
	}
	return out
}

// nMoved reports whether some class's default n was moved from the
// catalogue's (its Why says so).
func nMoved(s ScenarioJSON) bool {
	for _, c := range s.Defaults {
		for _, w := range c.Why {
			if strings.HasPrefix(w, "n = ") {
				return true
			}
		}
	}
	return false
}

// whyN says in one line why the non-smooth classes' default n is smaller
// than the catalogue's (the full reasons are in a run's notes).
func whyN(s ScenarioJSON) string {
	return fmt.Sprintf("(n: the largest whose full schedule of the class's solver at that k fits the work budget of %s gradient evaluations; a run's notes say so)",
		theory.Human.Format(float64(solvers.DefaultWorkBudget)))
}

func paramText(p ParamJSON) string {
	return fmt.Sprintf("%s = %s in %s: %s", p.Symbol, n6(p.Default), p.Range, p.Meaning)
}

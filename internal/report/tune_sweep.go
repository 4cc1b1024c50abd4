package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"dpso/internal/engine"
	"dpso/theory"
)

// TuneSweepJSON is the document of `dpso tune --vary n --json`.
type TuneSweepJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON `json:"citation,omitempty"`
	Command  string        `json:"command"`
	Vary     string        `json:"vary"`
	Points   []TuneJSON    `json:"points"`
	Total    TuneTotalJSON `json:"total"`
}

// TuneSweep is the document of `dpso tune --vary n --json`.
func TuneSweep(r *engine.TuneSweepReport) TuneSweepJSON {
	j := TuneSweepJSON{Command: "tune", Vary: "n"}
	for _, p := range r.Points {
		j.Points = append(j.Points, Tune(p))
	}
	t := r.Total
	scope := "per trial, per point: each point and trial draws fresh data from the scenario's public distribution"
	if len(r.Points) > 0 && r.Points[0].UserRows {
		scope = fmt.Sprintf("the user's rows: %d searches over all points read them; their Rényi curves add", t.Searches)
	}
	j.Total = TuneTotalJSON{Searches: t.Searches, Scope: scope, Eps: theory.JSONNum(t.Eps), Delta: theory.JSONNum(t.Delta),
		PrescribedRho: theory.JSONNum(t.PrescribedRho), Private: len(t.NotPrivate) == 0, NotPrivate: t.NotPrivate, WithPrescribed: withPrescribedJSON(t)}
	return j
}

// WriteTuneSweepTable writes the table of `dpso tune --vary n`: per n and
// solver, the prescribed, tuned and oracle-tuned excess risks.
func WriteTuneSweepTable(w io.Writer, r *engine.TuneSweepReport) error {
	if len(r.Points) == 0 {
		return nil
	}
	p0 := r.Points[0]
	s := p0.Spec
	name := s.Scenario
	if s.Data != "" {
		name = s.Data
	}
	fmt.Fprintf(w, "%s, class %s, d = %d, k = %s, zCDP ε = %s (each search's total, tuning included: ε' = %s at δ = %s), %d trials (%s)\n\n",
		name, s.Class, s.D, n6(s.K), n6(s.Eps), n6(p0.Privacy.Eps), n6(p0.Privacy.Target.Delta), s.Trials, RandText(s.Rand, s.Seed))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	oracleHead, oracleNote := "ORACLE-TUNED (NOT PRIVATE)", "oracle-tuned: "+OracleNote
	if OracleRan(p0) == engine.OracleCoarse {
		oracleHead, oracleNote = "COARSE ORACLE (NOT PRIVATE)", "coarse oracle: "+OracleCoarseNote
	}
	fmt.Fprintln(tw, "N\tSOLVER\tPRESCRIBED\tTUNED (PRIVATE)\t"+oracleHead+"\tTUNED/PRESCRIBED\tSTART POINT")
	for i, p := range r.Points {
		for _, ts := range p.Solvers {
			pre, orc, ratio := "—", "—", "—"
			if ts.Prescribed != nil && ts.Prescribed.Refused == "" {
				pre = estText(ts.Prescribed.Excess)
				ratio = n4(ts.Tuned.Excess.Mean / ts.Prescribed.Excess.Mean)
			}
			if ts.Oracle != nil && ts.Oracle.Best >= 0 {
				orc = estText(ts.Oracle.Excess)
			}
			tuned := estText(ts.Tuned.Excess) + FlagMark(tunedEstimates(ts.Tuned))
			if ts.Refused != "" {
				tuned = "refused: " + ts.Refused
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Ns[i], ts.Solver, pre, tuned, orc, ratio, n6(p.W0.Mean))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Notes:")
	fmt.Fprintln(w, "  - each cell is the mean ± s.e. over trials of the excess risk F(w) − F*; tuned: the private search's released candidate; TUNED/PRESCRIBED < 1: tuning pays")
	if p0.Tune.Oracle != engine.OracleNone {
		fmt.Fprintln(w, "  - "+oracleNote)
	}
	if p0.UserRows {
		t := r.Total
		if t.PrescribedRho == 0 {
			fmt.Fprintf(w, "  - your rows are the private data: %d searches over all points read them: ε' = %s at δ = %s in all\n", t.Searches, n6(t.Eps), n6(t.Delta))
		} else {
			whole := "in all"
			if p0.Tune.Oracle != engine.OracleNone {
				whole = "and the oracle-tuned references, NOT private: the whole is NOT PRIVATE"
			}
			fmt.Fprintf(w, "  - your rows are the private data: %d searches over all points read them: ε' = %s at δ = %s; with the prescribed runs (ρ = %s together) ε' = %s at δ = %s, %s\n",
				t.Searches, n6(t.Eps), n6(t.Delta), n6(t.PrescribedRho), n6(t.WithPrescribedEps), n6(t.WithPrescribedDelta), whole)
		}
	}
	return nil
}

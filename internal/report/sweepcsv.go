package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"dpso/internal/engine"
	"dpso/internal/spec"
)

// WriteSweepCSV writes `dpso sweep --csv` in long format, one row per
// (point, solver): the swept parameter's value, solver, mean, stderr,
// median, q1, q3, clipped, noise_off, clip_bias, w0_excess, reference (the
// non-private reference), certificate, eps_delta, every parameter the
// sweep held fixed (sweepFixedColumns: the problem, n, d, k, ε, δ, D,
// trials), each bound's value, and the citation's columns (cit nil: none).
// A cell is empty where a value does not exist (noise_off and clip_bias
// outside clip and k sweeps, clip_bias where it is not computed, clipped for a solver that does not clip, a certificate that
// does not apply or whose condition fails).
func WriteSweepCSV(w io.Writer, rep *engine.SweepReport, cit *Citation) error {
	return writeSweepCSV(w, "", nil, []*engine.SweepReport{rep}, cit)
}

// WriteGridCSV writes a two-parameter sweep (`dpso sweep --vary a,b
// --csv`) as one long-format CSV: WriteSweepCSV's columns with the outer
// parameter's column first.
func WriteGridCSV(w io.Writer, g *engine.GridReport, cit *Citation) error {
	return writeSweepCSV(w, g.Param, g.Outer, g.Inner, cit)
}

// sweepFixedColumns are the parameters a sweep CSV states on every row;
// the swept ones are left out (their columns come first).
var sweepFixedColumns = []string{"scenario", "data", "loss", "class", "n", "d", "k", "eps", "delta", "diam", "trials"}

// fixedCell is the value of a fixed column on the row of r.
func fixedCell(r *engine.Report, name string) string {
	s := r.Spec
	switch name {
	case "scenario":
		return s.Scenario
	case "data":
		return s.Data
	case "loss":
		return s.Loss
	case "class":
		return string(s.Class)
	case "n":
		return strconv.Itoa(r.Theory.N)
	case "d":
		return strconv.Itoa(r.Theory.D)
	case "k":
		return csvCell(s.K)
	case "eps":
		return csvCell(r.Privacy.Eps)
	case "delta":
		return csvCell(r.Privacy.Delta)
	case "diam":
		return csvCell(s.Diam)
	case "trials":
		return strconv.Itoa(s.Trials)
	}
	return ""
}

func writeSweepCSV(w io.Writer, outer string, outerValues []float64, reps []*engine.SweepReport, cit *Citation) error {
	cw := csv.NewWriter(w)
	if len(reps) == 0 {
		cw.Flush()
		return cw.Error()
	}
	param := reps[0].Sweep.Param
	var head []string
	if outer != "" {
		head = append(head, outer)
	}
	head = append(head, param, "solver", "mean", "stderr", "median", "q1", "q3", "clipped", "noise_off", "clip_bias", "w0_excess", "reference", "certificate", "eps_delta")
	var fixed []string
	for _, f := range sweepFixedColumns {
		if f != param && f != outer {
			fixed = append(fixed, f)
		}
	}
	head = append(head, fixed...)
	bounds := reps[0].Bounds
	for _, b := range bounds {
		head = append(head, b.ID)
	}
	cw.Write(cit.csvHead(head))
	for oi, rep := range reps {
		for _, p := range rep.Points {
			for si, r := range p.Reports {
				e, _ := EpsDelta(r)
				var row []string
				if outer != "" {
					row = append(row, csvCell(outerValues[oi]))
				}
				row = append(row, csvCell(p.Value), rep.Solvers[si], csvCell(r.Excess.Mean), csvCell(r.Excess.SE),
					csvCell(r.Excess.Median), csvCell(r.Excess.Q1), csvCell(r.Excess.Q3),
					csvCell(r.Clipped), csvCell(r.NoiseOff.Mean), csvCell(r.ClipBias.Excess), csvCell(r.W0.Mean), csvCell(sweepReference(p)), csvCell(r.Certified.Value()), csvCell(e))
				for _, f := range fixed {
					row = append(row, fixedCell(r, f))
				}
				for _, b := range bounds {
					v, _ := sweepBoundAt(p, b.ID)
					row = append(row, csvCell(v))
				}
				cw.Write(cit.csvRow(row))
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// GridJSON is the document of a two-parameter sweep (`dpso sweep --vary
// a,b --json`): the outer parameter and its grid, and at each of its
// values the inner sweep's document (SweepJSON), with the total of the
// whole grid.
type GridJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON `json:"citation,omitempty"`
	Sweep    string        `json:"sweep"`
	Outer    string        `json:"outer"`
	Grid     []float64     `json:"grid"`
	Total    *TotalJSON    `json:"total"`
	Sweeps   []SweepJSON   `json:"sweeps"`
}

// Grid is g's document.
func Grid(g *engine.GridReport) GridJSON {
	j := GridJSON{Outer: g.Param, Grid: g.Outer, Sweeps: []SweepJSON{}, Total: totalJSON(g.Total, spec.DefaultConversionDelta)}
	for _, in := range g.Inner {
		j.Sweeps = append(j.Sweeps, Sweep(in))
	}
	if len(g.Inner) > 0 {
		j.Sweep = g.Param + "," + g.Inner[0].Sweep.Param
	}
	return j
}

// WriteGridTable writes a two-parameter sweep as one sweep table per value
// of the outer parameter, each under its own heading.
func WriteGridTable(w io.Writer, g *engine.GridReport) error {
	for i, in := range g.Inner {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "── %s = %s ──\n", g.Param, n6(g.Outer[i]))
		if err := WriteSweepTable(w, in); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\nThe whole grid: %s.\n", totalText(g.Total, spec.DefaultConversionDelta))
	return err
}

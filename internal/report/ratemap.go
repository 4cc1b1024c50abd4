package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"dpso/theory"
)

// RateMapJSON is the document of `dpso bounds --map … --json`: the grid's
// axes and every cell (Cells[j][i] at (Xs[i], Ys[j])); null where a value
// is infinite or does not exist.
type RateMapJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON `json:"citation,omitempty"`
	Class    string        `json:"class"`
	X        string        `json:"x"`
	Y        string        `json:"y"`
	Xs       []float64     `json:"xs"`
	Ys       []float64     `json:"ys"`
	UpperID  string        `json:"upper_id"`
	LowerID  string        `json:"lower_id"`
	Fixed    string        `json:"fixed"`
	Cells    [][]CellJSON  `json:"cells"`
}

// CellJSON is one cell of a rate map (theory.MapCell).
type CellJSON struct {
	X          float64  `json:"x"`
	Y          float64  `json:"y"`
	Upper      *float64 `json:"upper"`
	Lower      *float64 `json:"lower"`
	Prior      *float64 `json:"prior"`
	PriorID    string   `json:"prior_id"`
	UpperHolds bool     `json:"upper_holds"`
	LowerHolds bool     `json:"lower_holds"`
	PriorHolds bool     `json:"prior_holds"`
	// Best is "upper" (the paper's bound is the smaller), "prior" or "".
	Best string   `json:"best"`
	Gap  *float64 `json:"gap"`
	// ACSAGap is the remark's suboptimality factor (smooth-convex only).
	ACSAGap *float64 `json:"acsa_gap"`
}

// RateMap is m's document; fixed says which inputs are held fixed.
func RateMap(m theory.RateMap, fixed string) RateMapJSON {
	j := RateMapJSON{Class: string(m.Spec.Class), X: string(m.Spec.X), Y: string(m.Spec.Y), Xs: m.Xs, Ys: m.Ys,
		UpperID: m.UpperID, LowerID: m.LowerID, Fixed: fixed, Cells: make([][]CellJSON, len(m.Cells))}
	for r, row := range m.Cells {
		j.Cells[r] = make([]CellJSON, len(row))
		for i, c := range row {
			j.Cells[r][i] = CellJSON{X: c.X, Y: c.Y, Upper: theory.JSONNum(c.Upper), Lower: theory.JSONNum(c.Lower), Prior: theory.JSONNum(c.Prior),
				PriorID: c.PriorID, UpperHolds: c.UpperHolds, LowerHolds: c.LowerHolds, PriorHolds: c.PriorHolds,
				Best: c.Best, Gap: theory.JSONNum(c.Gap), ACSAGap: theory.JSONNum(c.ACSAGap)}
		}
	}
	return j
}

// WriteRateMap draws the rate map's layers (theory.RateMap.Render), each
// under a sentence saying what it shades: which upper bound is smaller,
// how far the best one is above the lower bound, and (smooth-convex) the
// regimes of Remark "rem: affine optimal".
func WriteRateMap(w io.Writer, m theory.RateMap, layers []theory.MapLayer, fixed string) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	fmt.Fprintf(w, "Rate map of class %s over %s × %s (log grids, %d × %d): %s.\n",
		m.Spec.Class, m.Spec.X, m.Spec.Y, len(m.Xs), len(m.Ys), fixed)
	priors := theory.ForClass(m.Spec.Class)[2:]
	for _, l := range layers {
		fmt.Fprintln(w)
		switch l {
		case theory.LayerBest:
			fmt.Fprintf(w, "Which upper bound is smaller: the paper's %s, or prior work's (the smaller of %s):\n", m.UpperID, strings.Join(priors, ", "))
		case theory.LayerGap:
			fmt.Fprintf(w, "How far the smaller upper bound is above the lower bound %s (a ratio of rates, constants 1):\n", m.LowerID)
		case theory.LayerRegime:
			fmt.Fprintln(w, "Remark rem: affine optimal: smooth-convex-acsa is optimal where its smoothness term is below its privacy term")
			fmt.Fprintln(w, "(at k = 2, β = D = 1, r̃ = √d: where d ≳ n or d^(3/2) ≳ εn), otherwise suboptimal by the ratio of the two,")
			fmt.Fprintln(w, "min{(n/d)^(1/16), (εn/d^(3/2))^(1/18)} there:")
		}
		if _, err := io.WriteString(w, m.Render(l)); err != nil {
			return err
		}
	}
	counts := map[string]int{}
	for _, row := range m.Cells {
		for _, c := range row {
			counts[c.Best]++
			if !c.UpperHolds {
				counts["upper fails"]++
			}
			if !c.LowerHolds {
				counts["lower fails"]++
			}
		}
	}
	total := len(m.Xs) * len(m.Ys)
	fmt.Fprintf(w, "\nOf %d cells: the paper's bound is the smaller in %d, prior work's in %d; %s's conditions fail in %d, %s's in %d (a rate drawn where its theorem does not cover the parameters).\n",
		total, counts["upper"], counts["prior"], m.UpperID, counts["upper fails"], m.LowerID, counts["lower fails"])
	return nil
}

// MapAxisDefault is the default range of a rate map's axis: n from 10² to
// 10⁸, ε from 10⁻² to 10², d from 1 to 10⁴, k from 2 to 64.
func MapAxisDefault(a theory.MapAxis) (lo, hi float64) {
	switch a {
	case theory.AxisN:
		return 1e2, 1e8
	case theory.AxisEps:
		return 1e-2, 1e2
	case theory.AxisD:
		return 1, 1e4
	case theory.AxisK:
		return 2, 64
	}
	return math.NaN(), math.NaN()
}

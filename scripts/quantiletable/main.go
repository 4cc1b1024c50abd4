package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"dpso/solvers/estimate"
	"dpso/theory"
)

// Golden is the golden file the table reads, relative to the repository.
const Golden = "solvers/estimate/testdata/quantile_golden.json"

// rho is the budget of the table's releases.
const rho = 0.025

// names are the data sets' names in the table, in its order.
var names = []struct{ key, name string }{
	{"t2.5-loss", "t(2.5) losses"}, {"t2.5-norm", "t(2.5) norms"}, {"t3-loss", "t(3) losses"},
	{"counts", "counts"}, {"constant", "constant"},
}

// sig2 writes the table's numbers: two significant digits, Pretty.
var sig2 = theory.NumberFormat{Digits: 2, Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "—"}

// prob writes a probability in two significant digits, or, when those
// would round it to 1, as 1 − (its complement); below 10⁻²⁰, the law's
// own error (its sum over ν₀ is cut where the tail is 10⁻²⁰), as
// "< 10⁻²⁰".
func prob(p float64) string {
	if p < 1e-20 {
		return "< 10⁻²⁰"
	}
	if s := sig2.Format(p); s != "1" || p == 1 {
		return s
	}
	return "1 − " + sig2.Format(1-p)
}

func main() {
	if err := write(os.Stdout, Golden); err != nil {
		fmt.Fprintln(os.Stderr, "quantiletable:", err)
		os.Exit(1)
	}
}

// write prints the table and the bounds for the data sets in the golden
// file at path.
func write(w io.Writer, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var g struct{ Data map[string][]float64 }
	if err := json.Unmarshal(b, &g); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintln(w, "| data | q | n = 20 | n = 150 | n = 1500 |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, nm := range names {
		for _, q := range []float64{0.5, 0.9} {
			cells := []string{nm.name, theory.FormatNumber(q)}
			for _, n := range []int{20, 150, 1500} {
				xs, ok := g.Data[fmt.Sprintf("%s/%d", nm.key, n)]
				if !ok {
					return fmt.Errorf("%s: no data set %s/%d", path, nm.key, n)
				}
				law, err := estimate.QuantileLaw(xs, q, estimate.DefaultGrid, rho)
				if err != nil {
					return err
				}
				cells = append(cells, fmt.Sprintf("%s, %s (%s)", prob(law.Above(10*law.Q)), prob(law.Below(law.Q/10)), sig2.Format(law.Median()/law.Q)))
			}
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
		}
	}
	L := estimate.DefaultGrid.StepsIn(10)
	fmt.Fprintf(w, "\nHighFail(ρ = %s, L = %d) = %s\n", theory.FormatNumber(rho), L, theory.Sig4.Format(estimate.HighFail(rho, L)))
	for _, r := range []int{18, 36, 135} {
		fmt.Fprintf(w, "LowFail(ρ = %s, r = %d, %d) = %s\n", theory.FormatNumber(rho), r, estimate.EmptyStretch, theory.Sig4.Format(estimate.LowFail(rho, r, estimate.EmptyStretch)))
	}
	return nil
}

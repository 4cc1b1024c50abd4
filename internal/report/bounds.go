package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"dpso/theory"
)

// BoundsJSON is the document of `dpso bounds --json`.
type BoundsJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON  `json:"citation,omitempty"`
	Bounds   []theory.Bound `json:"bounds"`
}

// WriteBoundsTable prints one aligned line per bound (`dpso bounds`, and
// under every run). The dominant term, which contains combining
// characters (r̃), comes last so that it cannot misalign the columns. A
// failed condition explains itself on its own line under its bound: the
// theorem does not cover these parameters, and the value shown is only
// the formula's.
func WriteBoundsTable(w io.Writer, bounds []theory.Bound) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOUND\tKIND\tRATE (CONSTANTS = 1)\tRATE N\tCONDITIONS\tDOMINANT TERM")
	var failed []string
	for _, b := range bounds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.ID, b.Kind, n4(b.Value), rate(b.RateN), condSummary(b), b.Dominant)
		for _, c := range b.Conditions {
			if !c.Holds {
				failed = append(failed, "  "+b.ID+": "+FailedCondition(c))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, f := range failed {
		fmt.Fprintln(w, f)
	}
	_, err = fmt.Fprintln(w, "Rates, every constant set to 1 and logs as stated (natural log): a rate's value is not a level — it is not comparable with a measured excess risk or with F(w₀) − F*, and it is not a certificate; compare slopes (RATE N), not levels. CONDITIONS: whether the theorem's hypotheses are met at these parameters, not whether the rate's value bounds anything here.")
	return err
}

// condSummary is "met" or the number of the theorem's conditions not met
// (each is then explained on its own line) — never a mark that could read
// as "this bound holds here": the value beside it is a rate.
func condSummary(b theory.Bound) string {
	n := 0
	for _, c := range b.Conditions {
		if !c.Holds {
			n++
		}
	}
	switch n {
	case 0:
		return "met"
	case 1:
		return "1 not met (below)"
	}
	return fmt.Sprintf("%d not met (below)", n)
}

// FailedCondition explains a failed condition in words, with its numbers:
// "✗ d ≥ 40 (d = 10): the theorem does not cover these parameters; the
// value is the formula's".
func FailedCondition(c theory.Condition) string {
	if strings.HasPrefix(c.Text, theory.NotEvaluated) {
		return "✗ " + c.Text + " (no value is shown)"
	}
	return "✗ " + c.Text + ": the theorem does not cover these parameters; the value is the formula's, not the theorem's"
}

package screens

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/theory"
	"dpso/tui/chart"
	"dpso/tui/common"
)

// runningSeries makes ser a running comparison's curve of one solver,
// whose live curve (the mean of its trials so far, some part way) ser
// holds: once every trial asked for has finished (fin holds them all),
// the mean of those trials, its legend value their mean final excess
// risk, tagged as all of them; before, the live curve stays drawn but its
// legend shows no number, only that the solver is running and how many
// of its trials have finished ("running, 3/8 trials"), so that no
// partial mean reads as a result. The run's report replaces both when the
// comparison ends.
func runningSeries(ser *chart.Series, fin map[int]map[int64]float64, trials int) {
	if len(fin) >= trials && trials > 0 {
		ser.Points = meanTrace(fin)
		ser.Tag = fmt.Sprintf("all %d trials done", trials)
		if trials == 1 {
			ser.Tag = "its trial done"
		}
		return
	}
	ser.Note = fmt.Sprintf("running, %d/%d trials", len(fin), trials)
}

// largeReads is the row reads (drawn and read by the solvers, over every
// trial) from which a running comparison's chart names the solvers whose
// prescribed work makes many passes over the rows (readsNote): a measure
// of the work that no machine changes. Preset 1's comparison plans about
// 3·10⁸ (n = 2·10⁶, 8 trials: klz-gd's 10 passes, dp-sgd's 5 at random).
const largeReads = 1e8

// readsNote is what a running comparison's chart says of its plan's row
// reads where they reach largeReads: each solver that reads its rows two
// times or more per trial, with its reads, its passes, and whether at
// random (a cache miss a row), their share of the plan's reads, and that
// a smaller n reads fewer; "" otherwise.
func readsNote(pl *engine.Plan) string {
	if pl == nil {
		return ""
	}
	var total, drawn, heavy float64
	var parts []string
	for _, rd := range pl.Reads {
		total += rd.Rows
		drawn = max(drawn, rd.Drawn)
	}
	if total+drawn < largeReads {
		return ""
	}
	for _, rd := range pl.Reads {
		passes := rd.Rows / rd.Drawn
		if !(passes >= 2) {
			continue
		}
		how := ""
		if rd.Random {
			how = ", at random"
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s passes%s)", rd.Solver, sig2(rd.Rows), common.FmtNum(math.Round(passes*10)/10), how))
		heavy += rd.Rows
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("row reads: %s — %.0f%% of %s drawn and read; a smaller n reads fewer",
		strings.Join(parts, ", "), 100*heavy/(total+drawn), sig2(total+drawn))
}

// sig2 writes a count with two significant digits ("1.6·10⁸", "8·10⁷",
// 300), as dpso writes numbers (theory.NumberFormat, Pretty).
var sig2 = theory.NumberFormat{Digits: 2, Pretty: true}.Format

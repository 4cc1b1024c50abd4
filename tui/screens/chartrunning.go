package screens

import (
	"fmt"

	"dpso/tui/chart"
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

package cli

import (
	"fmt"
	"sync"
	"time"

	"dpso/internal/engine"
)

// longJob is the projected duration past which a counted job warns that
// it will take long (once, on stderr, terminal or not).
const longJob = time.Hour

// warnAfter is how long a counted job runs before its pace is trusted
// for that projection.
const warnAfter = 2 * time.Second

// countProgress shows, on a terminal, the progress line of a job that
// counts its finished units (an audit's runs: runs returns how many are
// done, of how many), polled at the line's ticks; and, terminal or not,
// warns once when the pace of the first units projects the whole job
// past longJob, with what shortens it (hint). stop ends both.
func (e *env) countProgress(label, unit, hint string, runs func() (done, total int)) (stop func()) {
	var mb *engine.Mailbox[engine.Progress]
	stopLine := func() {}
	if e.stderrIsTerminal() {
		mb = engine.NewMailbox[engine.Progress](4)
		stopLine = showProgressOf(e.stderr, label, unit, mb)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	start := time.Now()
	wg.Go(func() {
		ticks, stopTicks := progressTicker()
		defer stopTicks()
		warned := false
		for {
			select {
			case <-done:
				return
			case <-ticks:
			}
			d, t := runs()
			if t <= 0 {
				continue
			}
			if mb != nil {
				mb.Put(engine.Progress{TrialsDone: d, Total: t})
			}
			el := time.Since(start)
			if warned || el < warnAfter || d >= t {
				continue
			}
			// With no unit done yet the pace is at most 1 unit per el.
			left := el.Seconds() * float64(t-d) / float64(max(d, 1))
			if left > longJob.Seconds() {
				warned = true
				pace := fmt.Sprintf("the pace of its first %d %s", d, unit)
				if d == 0 {
					pace = fmt.Sprintf("no %s finished in %s", unit, fmtSeconds(el.Seconds()))
				}
				clear := ""
				if mb != nil {
					clear = "\r\x1b[K" // over the progress line
				}
				fmt.Fprintf(e.stderr, "%s%s: at %s, its %d %s take %s%s more (an estimate); Ctrl-C cancels; %s\n",
					clear, label, pace, t, unit, map[bool]string{true: "at least ", false: "about "}[d == 0], fmtHours(left), hint)
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		stopLine()
	}
}

// fmtHours writes a long duration as "3.2 h" or "4.1 days" (shorter ones
// as fmtSeconds does).
func fmtHours(x float64) string {
	switch {
	case x < 3600:
		return fmtSeconds(x)
	case x < 48*3600:
		return fmt.Sprintf("%.1f h", x/3600)
	}
	return fmt.Sprintf("%.0f days", x/86400)
}

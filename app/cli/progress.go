package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"

	"dpso/internal/engine"
	"dpso/theory"
)

// progressDelay is how long a run goes before its progress line appears.
var progressDelay = time.Second

// progressTicker is the progress line's clock: a tick every 200 ms, and
// the function that stops it (a variable so that a test sends the ticks
// itself instead of sleeping through them).
var progressTicker = func() (<-chan time.Time, func()) {
	t := time.NewTicker(200 * time.Millisecond)
	return t.C, t.Stop
}

// progress is the engine.Settings of a command labelled label, and ctx
// for it: on a terminal its progress — the noise calibrations of its
// prescriptions under the returned context (engine.ObserveCalibration),
// then its trials — goes to showProgress's line on stderr, elsewhere
// nowhere; terminal or not, a call whose planned work would take hours
// says so before it starts (warnLongWork). stop ends the line (a no-op
// off a terminal).
func (e *env) progress(ctx context.Context, label string) (_ context.Context, set *engine.Settings, stop func()) {
	set = &engine.Settings{Plan: e.planWarning(label, workHint(label))}
	if !e.stderrIsTerminal() {
		return ctx, set, func() {}
	}
	set.Progress = engine.NewMailbox[engine.Progress](256)
	return engine.ObserveCalibration(ctx, set.Progress), set, showProgress(e.stderr, label, set.Progress)
}

// workHint is what shortens the work of the command labelled label.
func workHint(label string) string {
	if strings.HasPrefix(label, "dpso sweep") {
		return "fewer --points or --trials, or a smaller --n or --d, shorten it"
	}
	return "a smaller --n or --d, or fewer --trials, shortens it"
}

// showProgress draws one self-overwriting line on w (a terminal) with the
// run's progress — percentage done, estimated time left, the latest
// checkpoint — from progressDelay after the start; the returned function
// stops it and erases the line (once: calling it again does nothing).
func showProgress(w io.Writer, label string, mb *engine.Mailbox[engine.Progress]) func() {
	return showProgressOf(w, label, "trials", mb)
}

// showProgressOf is showProgress counting unit ("trials", "runs").
func showProgressOf(w io.Writer, label, unit string, mb *engine.Mailbox[engine.Progress]) func() {
	width := termWidth(w)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	start := time.Now()
	go func() {
		defer wg.Done()
		ticks, stopTicks := progressTicker()
		defer stopTicks()
		st := newProgressState()
		st.unit = unit
		drawn := false
		for {
			select {
			case <-done:
				if drawn {
					fmt.Fprint(w, "\r\x1b[K")
				}
				return
			case <-ticks:
			}
			vals, _ := mb.Take()
			for _, v := range vals {
				st.add(v)
			}
			if !st.have && st.cal == nil || time.Since(start) < progressDelay {
				continue
			}
			fmt.Fprint(w, "\r\x1b[K"+st.line(label, time.Since(start), width))
			drawn = true
		}
	}()
	return sync.OnceFunc(func() {
		close(done)
		wg.Wait()
	})
}

// termWidth is the width of the terminal w writes to, 0 when unknown.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return cols
}

// progressKey is one running (sweep point, solver, trial).
type progressKey struct {
	point, trial int
	solver       string
}

// progressState accumulates a run's progress reports (the mailbox keeps
// the latest; a dropped one only delays the estimate) into the fraction
// of the work done: finished (solver, trial) runs, plus iter/iters of
// each one still running.
type progressState struct {
	last     engine.Progress
	have     bool
	done     int
	inflight map[progressKey]float64
	ended    map[progressKey]bool // runs whose Done report arrived
	unit     string               // what Total counts: "trials" (the default), "runs"
	// cal is the latest noise calibration report, shown until the first
	// trial reports (see calibrationLine).
	cal *engine.Calibration
}

func newProgressState() *progressState {
	return &progressState{inflight: map[progressKey]float64{}, ended: map[progressKey]bool{}, unit: "trials"}
}

func (s *progressState) add(p engine.Progress) {
	if p.Calibration != nil {
		s.cal = p.Calibration
		return
	}
	k := progressKey{p.Point, p.Trial, p.Solver}
	if p.Pulse {
		// From inside an iteration: the work done moves, the latest
		// checkpoint's iterate and excess risk stand.
		if p.Planned > 0 && !s.ended[k] {
			s.inflight[k] = max(s.inflight[k], min(1, float64(p.GradEvals)/float64(p.Planned)))
		}
		if !s.have {
			s.last, s.have = p, true
		} else if (progressKey{s.last.Point, s.last.Trial, s.last.Solver}) == k {
			s.last.GradEvals = max(s.last.GradEvals, p.GradEvals)
		}
		s.last.Total, s.last.Elapsed = p.Total, p.Elapsed
		return
	}
	s.last, s.have = p, true
	s.done = max(s.done, p.TrialsDone)
	switch {
	case p.Done:
		delete(s.inflight, k)
		s.ended[k] = true
	case p.Planned > 0:
		// The share of the planned gradient evaluations: the work, which
		// pulses measure between checkpoints too.
		s.inflight[k] = max(s.inflight[k], min(1, float64(p.GradEvals)/float64(p.Planned)))
	case p.Iters > 0:
		s.inflight[k] = min(1, float64(p.Iter)/float64(p.Iters))
	}
}

// fraction is the share of the work done, in [0, 1] (NaN before the
// total is known).
func (s *progressState) fraction() float64 {
	if s.last.Total <= 0 {
		return math.NaN()
	}
	f := float64(s.done)
	for _, x := range s.inflight {
		f += x
	}
	return min(1, f/float64(s.last.Total))
}

// eta is the time left at the rate so far, elapsed·(1 − f)/f; NaN until
// 0.1% is done (pulses move f smoothly inside a long iteration, so a
// run of hours has its estimate within seconds).
func eta(f float64, elapsed time.Duration) float64 {
	if !(f >= 0.001) {
		return math.NaN()
	}
	return elapsed.Seconds() * (1 - f) / f
}

// percent writes a share done, floored (forgiving rounding): "56%", and
// below 10% with a decimal, "0.4%", so that a run of hours is seen to move.
func percent(f float64) string {
	if f < 0.1 {
		return fmt.Sprintf("%.1f%%", math.Floor(1000*f+1e-9)/10)
	}
	return fmt.Sprintf("%d%%", int(100*f+1e-9))
}

// fmtSeconds writes a duration as "0.8 s", "12 s", "3 min 05 s".
func fmtSeconds(x float64) string {
	switch {
	case x < 10:
		return fmt.Sprintf("%.1f s", x)
	case x < 60:
		return fmt.Sprintf("%.0f s", x)
	}
	m := int(x) / 60
	return fmt.Sprintf("%d min %02d s", m, int(x)-60*m)
}

// line is the progress line: "label: 42% · ETA 12 s · 2/5 trials done ·
// acsa trial 2 iter 3/10 · 12345 grad evals · excess risk 0.0123 · 1.5 s
// (Ctrl-C cancels)". On a terminal of the given width (0: unknown) the
// parts that do not fit are left out, the least useful first, so the
// line never wraps and no word is cut.
func (s *progressState) line(label string, elapsed time.Duration, width int) string {
	if !s.have && s.cal != nil {
		return calibrationLine(label, *s.cal, elapsed, width)
	}
	p := s.last
	head := label + ":"
	if f := s.fraction(); !math.IsNaN(f) {
		head += " " + percent(f)
		if t := eta(f, elapsed); !math.IsNaN(t) {
			head += " · ETA " + fmtHours(t)
		}
	}
	where := fmt.Sprintf("%s trial %d", p.Solver, p.Trial)
	if p.Iters > 0 {
		where += fmt.Sprintf(" iter %d/%d", p.Iter, p.Iters)
	}
	evals, excess := theory.Sig4.Format(float64(p.GradEvals))+" grad evals", "excess risk "+theory.Sig4.Format(p.Excess)
	if p.Solver == "" {
		// A count of runs (an audit): no solver's iteration, evaluations
		// or excess risk to show.
		where, evals, excess = "", "", ""
	}
	parts := []struct {
		text string
		prio int // lower: kept longer
	}{
		{head, 0},
		{fmt.Sprintf("%d/%d %s done", s.done, p.Total, s.unit), 1},
		{where, 4},
		{evals, 5},
		{excess, 3},
		{fmtSeconds(elapsed.Seconds()) + " elapsed", 2},
		{"(Ctrl-C cancels)", 6},
	}
	keep := make([]bool, len(parts))
	used := -3
	for prio := 0; prio <= 6; prio++ {
		for i, q := range parts {
			if q.prio != prio {
				continue
			}
			n := utf8.RuneCountInString(q.text) + 3
			if width > 0 && used+n >= width && prio > 0 {
				continue
			}
			keep[i], used = true, used+n
		}
	}
	var out []string
	for i, q := range parts {
		if keep[i] && q.text != "" {
			out = append(out, q.text)
		}
	}
	return fitWidth(strings.Join(out, " · "), width)
}

// calibrationLine is the progress line of a noise calibration before the
// trials start: the accountant's evaluations so far and the bracket they
// put the noise multiplier in.
func calibrationLine(label string, c engine.Calibration, elapsed time.Duration, width int) string {
	num := theory.Sig6.Format
	var where string
	switch {
	case c.Lo > 0 && c.Lo < c.Hi && !math.IsInf(c.Hi, 1):
		where = "σ in (" + num(c.Lo) + ", " + num(c.Hi) + "]"
	case c.Lo > 0 && math.IsInf(c.Hi, 1):
		where = "σ above " + num(c.Lo)
	case c.Lo == 0 && !math.IsInf(c.Hi, 1):
		where = "σ at most " + num(c.Hi)
	default:
		where = "trying σ = " + num(c.Sigma)
	}
	line := fmt.Sprintf("%s: calibrating the noise multiplier · %d evaluations of the %s accountant · %s · %s elapsed · (Ctrl-C cancels)",
		label, c.Evals, strings.ToUpper(c.Accountant), where, fmtSeconds(elapsed.Seconds()))
	return fitWidth(line, width)
}

// fitWidth cuts s to fewer than width runes (no limit when width ≤ 0), at
// a space where there is one, so that the line never wraps and "\r"
// always returns to its start.
func fitWidth(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) < width {
		return s
	}
	r := []rune(s)
	cut := max(width-2, 0)
	if i := strings.LastIndex(string(r[:cut]), " "); i > 0 {
		return strings.TrimRight(string(r[:cut])[:i], " ·") + "…"
	}
	return string(r[:cut]) + "…"
}

// stderrIsTerminal reports whether progress may be drawn on stderr.
func (e *env) stderrIsTerminal() bool {
	f, ok := e.stderr.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

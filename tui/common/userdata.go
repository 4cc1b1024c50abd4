package common

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/runs"
)

// DataDims are the rows and columns of the user data file of s, read from
// the prescription p when it is the prescription of that file (ok false
// before the prescription has read it, or for a scenario).
func DataDims(s spec.Spec, p runs.PrescriptionMsg) (n, d int, ok bool) {
	if s.Data == "" || p.Prescription == nil || p.Spec.Spec.Data != s.Data {
		return 0, 0, false
	}
	return p.Prescription.Theory.N, p.Prescription.Theory.D, true
}

// DataName names the user data of s where the explorer names the problem
// (the header, the chart's title, the ready status line): the file's name
// and, once the prescription has read the file, its n and d —
// "linreg-t-d3.csv (user data, n = 1000, d = 3)"; "" for a scenario.
func DataName(s spec.Spec, p runs.PrescriptionMsg) string {
	if s.Data == "" {
		return ""
	}
	name := theory.Name(filepath.Base(s.Data))
	if n, d, ok := DataDims(s, p); ok {
		return fmt.Sprintf("%s (user data, n = %d, d = %d)", name, n, d)
	}
	return name + " (user data)"
}

// RunOrSeed is what decides a run's draws, for the status bar: its seed,
// or with secure randomness (on the user's rows by default, in every
// dpso serve session) that it is not reproducible.
func RunOrSeed(rs spec.Resolved) string {
	if rs.Rand == solvers.Secure {
		return "secure noise" // keyed from crypto/rand: the privacy panel says so
	}
	return "seed " + fmt.Sprint(rs.Spec.Seed)
}

// OnScreen tracks the run whose result the shown screen draws — the
// latest run of the shown screen's family (ScreenMsg.Draws: the chart's
// also under the moment profile, whose r runs on the chart) — and the
// latest run of any family, so that the status bar, the help and the
// privacy panel describe what is on screen, not merely the last job
// started.
type OnScreen struct {
	last map[runs.ScreenKind]*runs.Run
	cur  *runs.Run
	fam  runs.ScreenKind // the family of the screen shown ("" before the first ScreenMsg)
}

// Take applies a runs.Event or a ScreenMsg and reports whether it was one.
func (o *OnScreen) Take(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case runs.Event:
		if msg.Run == nil {
			o.last, o.cur = nil, nil
			return true
		}
		if o.last == nil {
			o.last = map[runs.ScreenKind]*runs.Run{}
		}
		o.cur = msg.Run
		o.last[msg.Run.Family] = msg.Run
	case ScreenMsg:
		o.fam = msg.Draws
	default:
		return false
	}
	return true
}

// Shown is the run whose result is on screen (nil: none); before the
// root has said which screen is shown, the latest run.
func (o *OnScreen) Shown() *runs.Run {
	if o.fam == "" {
		return o.cur
	}
	return o.last[o.fam]
}

// Elsewhere is the latest run when it is going on and another screen
// draws it (nil otherwise).
func (o *OnScreen) Elsewhere() *runs.Run {
	if r := o.cur; r != nil && r != o.Shown() && r.Active() {
		return r
	}
	return nil
}

// DiagnosticsNote says, on the user's rows, what is not covered by the
// privacy guarantee: every number the explorer draws from the rows.
const DiagnosticsNote = "excess risk, w₀ and clipped fractions are computed on your rows apart from the released output: non-private diagnostics"

// UserDataPrivacy are the privacy facts of a run on the user's rows that
// `dpso run --data` states: how the noise is keyed, that every release
// reading the rows composes, and which numbers are non-private
// diagnostics (empty for a scenario).
func UserDataPrivacy(rs spec.Resolved) []string {
	if !rs.UserRows() {
		return nil
	}
	var out []string
	if rs.Rand == solvers.Secure {
		out = append(out, "your rows are the private data; noise keyed from crypto/rand (secure, not reproducible)")
	}
	out = append(out, "trials × solvers × sweep points each read the rows: their budgets add", DiagnosticsNote)
	return out
}

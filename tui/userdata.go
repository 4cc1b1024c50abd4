package tui

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
)

// dataDims are the rows and columns of the user data file of s, read from
// the prescription p when it is the prescription of that file (ok false
// before the prescription has read it, or for a scenario).
func dataDims(s spec.Spec, p prescriptionMsg) (n, d int, ok bool) {
	if s.Data == "" || p.p == nil || p.spec.Spec.Data != s.Data {
		return 0, 0, false
	}
	return p.p.Theory.N, p.p.Theory.D, true
}

// dataName names the user data of s where the explorer names the problem
// (the header, the chart's title, the ready status line): the file's name
// and, once the prescription has read the file, its n and d —
// "linreg-t-d3.csv (user data, n = 1000, d = 3)"; "" for a scenario.
func dataName(s spec.Spec, p prescriptionMsg) string {
	if s.Data == "" {
		return ""
	}
	name := theory.Name(filepath.Base(s.Data))
	if n, d, ok := dataDims(s, p); ok {
		return fmt.Sprintf("%s (user data, n = %d, d = %d)", name, n, d)
	}
	return name + " (user data)"
}

// secureNoise reports whether rs runs on the user's rows with noise keyed
// from crypto/rand: the seed is then not used (and not shown as if it
// decided the result).
func secureNoise(rs spec.Resolved) bool {
	return rs.UserRows() && rs.Rand == solvers.Secure
}

// runOrSeed is what decides a run's draws, for the status bar: its seed,
// or with secure randomness (on the user's rows by default, in every
// dpso serve session) that it is not reproducible.
func runOrSeed(rs spec.Resolved) string {
	if rs.Rand == solvers.Secure {
		return "secure noise" // keyed from crypto/rand: the privacy panel says so
	}
	return "seed " + fmt.Sprint(rs.Spec.Seed)
}

// onScreen tracks the run whose result the shown screen draws — the
// latest run of the shown screen's family (screenMsg.draws: the chart's
// also under the moment profile, whose r runs on the chart) — and the
// latest run of any family, so that the status bar, the help and the
// privacy panel describe what is on screen, not merely the last job
// started.
type onScreen struct {
	last map[screenKind]*run
	cur  *run
	fam  screenKind // "" before the first screenMsg: the chart's
}

// take applies a runEvent or a screenMsg and reports whether it was one.
func (o *onScreen) take(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case runEvent:
		if msg.run == nil {
			o.last, o.cur = nil, nil
			return true
		}
		if o.last == nil {
			o.last = map[screenKind]*run{}
		}
		o.cur = msg.run
		o.last[msg.run.family] = msg.run
	case screenMsg:
		o.fam = msg.draws
	default:
		return false
	}
	return true
}

// shown is the run whose result is on screen (nil: none).
func (o *onScreen) shown() *run {
	if o.fam == "" {
		return o.last[chartKind]
	}
	return o.last[o.fam]
}

// elsewhere is the latest run when it is going on and another screen
// draws it (nil otherwise).
func (o *onScreen) elsewhere() *run {
	if r := o.cur; r != nil && r != o.shown() && r.active() {
		return r
	}
	return nil
}

// diagnosticsNote says, on the user's rows, what is not covered by the
// privacy guarantee: every number the explorer draws from the rows.
const diagnosticsNote = "excess risk, w₀ and clipped fractions are computed on your rows apart from the released output: non-private diagnostics"

// userDataPrivacy are the privacy facts of a run on the user's rows that
// `dpso run --data` states: how the noise is keyed, that every release
// reading the rows composes, and which numbers are non-private
// diagnostics (empty for a scenario).
func userDataPrivacy(rs spec.Resolved) []string {
	if !rs.UserRows() {
		return nil
	}
	var out []string
	if rs.Rand == solvers.Secure {
		out = append(out, "your rows are the private data; noise keyed from crypto/rand (secure, not reproducible)")
	}
	out = append(out, "trials × solvers × sweep points each read the rows: their budgets add", diagnosticsNote)
	return out
}

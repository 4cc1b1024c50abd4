package help

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model is the full key help with a few paragraphs on how to read the
// screen; what does not fit scrolls (a bubbles viewport: ↑ ↓ pgup pgdn).
// Above the keys it gives in full the sentences the status bar had to
// shorten: the latest status line, the run's facts it dropped for room
// and the latest run's outcome (a refusal, a failure, a run that ended
// above the start line). ? or esc
// closes it (its outcome: common.CloseMsg).
type Model struct {
	common.Common
	Viewport viewport.Model
	status   common.StatusMsg // the latest status line with a text
	runs     common.OnScreen  // the run on screen (its outcome), as the status bar's
	shown    []Message        // the messages laid out
	spec     spec.Resolved    // the form's, against which the run shown may be stale
	w, h     int
	// stale: what the help shows changed since it was laid out; it is
	// laid out again when it is drawn or scrolled, not while closed.
	stale bool
	// Repro is the status bar's reproduce line (its command, in full),
	// which the messages repeat: the bar cuts a long one and says so.
	Repro func() string
	// Field is the line under the form (its focused field's reason, a
	// refusal, a note), whole: the form cuts a long one and says so.
	Field func() string
	// Changed is the loaded preset's label naming the fields changed
	// since, where the title line has room only for "changed" ("": it
	// names them).
	Changed func() string
	// Facts is the status bar's run facts in full where the bar dropped
	// some for room ("" where it showed them all), which the bar marks.
	Facts func() string
}

// New returns the help screen.
func New(c common.Common) *Model { return &Model{Common: c, Viewport: viewport.New()} }

// helpText is the help's paragraphs after the keys; the screens'
// paragraphs (common.ScreenDef.Help) follow them.
var helpText = []string{
	"The chart plots the excess risk F(w) − F* (log scale, labelled with its values) against gradient evaluations, the mean over the trials, live. A line drawn at a height is a claim about that height, so the chart draws only what holds at the run's parameters: the runs, the start line w₀ (══, doing nothing) and the certificate (╍╍, the paper's explicit-constant bound at the run's own parameters); a line far off the chart is listed with an arrow. After a change of parameters, the run before stays as a faint trace. Without colour (NO_COLOR) the legend's marks are the glyphs each series is drawn with.",
	"The paper's bounds are rates with every hidden constant set to 1: their values say nothing, their shapes do. The theorem panel lists them as rates; the sweeps (s over n, v over ε, d over d, o over k) draw the upper and lower bounds' shapes through one measured point, the same for both, so that a lower bound's is never above an upper one's (╌╌ ┄┄, slope guides: only their slope is a claim), set the theory's slope beside the fitted one, and flag the points where the theory is not yet in force (the certificate or the upper rate at or above w₀; localized-sc's stages all at radius D).",
	"c runs the paper's algorithm and the baselines on the same draws: nonprivate-schedule (the same schedule without clipping or noise), lipschitz-dpsgd (noise calibrated to the worst-case L_f — it refuses when L_f = ∞), klz-gd (the prior state of the art), dp-sgd (DP-SGD with Poisson batches and several epochs, its noise calibrated by a PLD accountant to the same (ε', δ) under the same replace-one adjacency). A refusal is the run's outcome, shown as such.",
	"s sweeps n on a log grid and fits the log-log slope of the excess risk, next to each bound's slope; each measured point is a marker with its error bar (± s.e.), and the points appear as their trials finish. m shows the moment profile r̃_k of the data, up to r̃_∞ = L_f. e exports what is shown: the run or comparison on the chart, the sweep, the clipping sweep, or the audit (its JSON, the document dpso audit --json prints). esc returns to the screen you came from.",
	"After a comparison, each solver's (ε', δ) stands beside its result: in the legend's tags (on a small terminal, in the privacy tab), the zCDP solvers' the exact conversion of ρ = ε²/2, dp-sgd's its accountant's. With dp-sgd, the adapt. C field turns on adaptive clipping; the clipping panel then draws C over the steps beside the paper's prescribed C. The theorem panel ends with the run's notes, as dpso run prints them (pgdn).",
	"u audits the privacy claim of the form's oracle at its ε, black-box, as dpso audit does with the same seed: the oracle's outputs on two neighbouring batches, the threshold tests' error rates against the claim's Gaussian trade-off curve, μ̂ and a 95% lower bound on μ; n runs the negative control (the noise ÷ 1.5), which the audit must catch. A lower bound can refute a claim, never prove it.",
	"Type a number on a numeric field (k, ε, n, d, the tail parameter, seed, trials) to set it in place — 300000, 3e5 or 3·10⁵ —, checked as the CLI's flag is; ← → step through the grid. In live mode (a), a change re-runs the last run when it took under 2 s (dpso explore --live-max sets it); longer runs stay manual (r), and the status bar says why. On your rows (--data) live mode starts no run: each run on them is a new release of the rows, composing with every earlier one, so a change marks the run shown stale and r runs it; a scenario's public draws keep live re-runs. On the solver, ← → skip the paper's solvers of the other classes.",
	"Privacy is ρ-zCDP with ρ = ε²/2; the privacy panel converts it to (ε', δ)-DP and shows the ledger's spent budget, the maximum over samples. On a small terminal the theorem, privacy and clipping panels are tabs (t); j and k, pgup and pgdn, and the mouse wheel scroll them. T switches the colours: dark, light, high contrast (dpso explore --theme), every text at 4.5:1 contrast or more, for a projector.",
	"On your own rows (dpso explore --data) every run, comparison, sweep and search is a new release of the rows: its budget adds to every earlier one's — in this session (the privacy panel's total) and in every other process that read them (dpso run, another explorer, the one a state string came from), which this explorer cannot see or count. So a state string or --screen on your rows opens its screen and runs nothing: r runs it.",
	"A preset's caption stays under the header while it is loaded, with its next step, and the header says what you changed since (\"preset 4 · k changed\"); p lists the presets with their whole text.",
}

// SetSize sets the screen size.
func (v *Model) SetSize(w, h int) {
	v.w, v.h = w, h
	v.Viewport.SetWidth(w)
	v.stale = true
}

// layout puts the keys and the paragraphs in the viewport, leaving a line
// for the scroll hint when they do not fit, where they changed since.
func (v *Model) layout() {
	if !v.stale {
		return
	}
	v.stale = false
	lines := []string{""}
	v.shown = v.Messages()
	if msgs := v.shown; len(msgs) > 0 {
		lines = append(lines, v.Styles.Emph.Render("Latest messages, in full"))
		for _, m := range msgs {
			st := v.Styles.Good
			switch {
			case m.Err:
				st = v.Styles.Error
			case m.Warn:
				st = v.Styles.Warn
			}
			lines = append(lines, style.WrapLines(st, m.Text, v.w-2)...)
			if m.Token != "" && lipgloss.Width(m.Text) > v.w-2 {
				// Wrapped, a token's lines are its characters in order:
				// copied whole, the line breaks are dropped where it is
				// read (statestring.Parse).
				lines = append(lines, style.WrapLines(v.Styles.Muted, "(wrapped to the screen, with no space inserted: copy its lines whole; dpso explore --state reads them across the line breaks)", v.w-2)...)
			}
		}
		lines = append(lines, "")
	}
	lines = append(lines, keyColumns(v.Styles, v.KeyMap.FullHelp(), v.w)...)
	lines = append(lines, "")
	for _, t := range append(slices.Clone(helpText), v.KeyMap.Screens.Help()...) {
		lines = append(lines, style.Wrap(t, v.w-2)...)
		lines = append(lines, "")
	}
	v.Viewport.SetHeight(max(v.h-1, 1))
	if len(lines) > v.h-1 {
		v.Viewport.SetHeight(max(v.h-2, 1))
	}
	v.Viewport.SetContentLines(lines)
}

type Message struct {
	Text string
	// Token is the state string Text shows, on lines of its own.
	Token string
	Err   bool // the error style, else warn (outcomes) or good (status)
	Warn  bool
}

// Messages are the warning that the form changed since the run shown
// (the chart's, whole), the latest run's outcome (and each refusal of its
// solvers, which the legend may cut), the run's facts the status bar
// dropped, the latest status line, the reproduce line and the line under
// the form.
func (v *Model) Messages() []Message {
	var out []Message
	if r := v.runs.Shown(); r != nil {
		if w := common.Stale(r, v.spec); w != "" {
			// The chart's warning, whole (the chart keeps it whole too,
			// above its legend).
			out = append(out, Message{Text: w, Warn: true})
		}
		if o := common.OutcomeOf(r); o.Text != "" {
			out = append(out, Message{Text: fmt.Sprintf("run #%d: %s", r.ID, o.Text), Err: !o.Warn, Warn: o.Warn})
		}
		// Each solver of a comparison that refused, whole: the legend
		// cuts a long reason with "(? full)".
		if r.Comparison != nil && r.Phase == runs.Done {
			for _, rep := range r.Comparison.Reports {
				if rep.Refused != "" {
					out = append(out, Message{Text: fmt.Sprintf("run #%d: %s refused: %s", r.ID, rep.Solver, rep.Refused), Warn: true})
				}
			}
			// The flag on the private estimates, which the legend cuts.
			if reps := r.Comparison.Reports; len(reps) > 0 {
				if f := report.ReportFlags(reps[0]); f != "" {
					out = append(out, Message{Text: fmt.Sprintf("run #%d: %s certificate: %s — %s", r.ID, reps[0].Solver, report.FlaggedNoCert, f), Warn: true})
				}
			}
		}
	}
	if v.Facts != nil {
		if f := v.Facts(); f != "" {
			out = append(out, Message{Text: "run: " + f})
		}
	}
	t, repro := v.status.Text, v.status.Repro
	if repro != "" {
		// The status line's copy of the token: once, on its own lines
		// below, whole.
		t = strings.TrimSuffix(strings.TrimSuffix(t, repro), ": ")
	}
	if t != "" {
		out = append(out, Message{Text: "status: " + t, Err: v.status.Err})
	}
	if repro != "" {
		label := v.status.Label
		if label == "" {
			label = "state: "
		}
		m := Message{Text: label + repro}
		if label == "state: " {
			// Its own lines: the label, then the token alone.
			m = Message{Text: strings.TrimSpace(label) + "\n" + repro, Token: repro}
		}
		out = append(out, m)
	}
	if v.Repro != nil {
		if r := v.Repro(); r != "" {
			out = append(out, Message{Text: "reproduce: " + r})
		}
	}
	if v.Changed != nil {
		if c := v.Changed(); c != "" {
			out = append(out, Message{Text: "title: " + c})
		}
	}
	if v.Field != nil {
		if t := v.Field(); t != "" {
			out = append(out, Message{Text: "under the form: " + t})
		}
	}
	return out
}

// ShortHelp is the help's keys.
func (v *Model) ShortHelp() []key.Binding {
	return []key.Binding{v.KeyMap.Up, v.KeyMap.Down, v.KeyMap.PageUp, v.KeyMap.PageDown, v.KeyMap.Back}
}

// Update keeps the latest status line (until a preset or state is
// loaded) and run, and scrolls, or closes the help on ? or esc.
func (v *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.StatusMsg:
		if msg.Text != "" && msg.Text != "exporting…" || msg.Repro != "" {
			v.status = msg
			v.stale = true
		}
		return v, nil
	case common.SpecMsg:
		v.spec = msg.Spec
		if !v.stale && !slices.Equal(v.shown, v.Messages()) {
			v.stale = true
		}
		// A loaded preset (or state) replaces the configuration: the
		// status line said about the one before goes with it.
		if msg.Load && (v.status.Text != "" || v.status.Repro != "") {
			v.status = common.StatusMsg{}
			v.stale = true
		}
		return v, nil
	case runs.Event, common.ScreenMsg:
		if _, ok := msg.(common.ScreenMsg); ok && v.status.Repro != "" {
			// y's state string or link is of the screen shown before.
			v.status = common.StatusMsg{}
			v.stale = true
		}
		// Progress arrives many times a second: lay out again only when
		// the outcome shown changes.
		v.runs.Take(msg)
		if !v.stale && !slices.Equal(v.shown, v.Messages()) {
			v.stale = true
		}
		return v, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return v, common.EmitIf(v.Key(k))
	}
	return v, nil
}

// Key scrolls, or closes the help on ? or esc: its outcome (common.CloseMsg;
// nil: none).
func (v *Model) Key(k tea.KeyPressMsg) tea.Msg {
	v.layout()
	switch {
	case key.Matches(k, v.KeyMap.Help, v.KeyMap.Back):
		v.Viewport.SetYOffset(0)
		return common.CloseMsg{}
	case key.Matches(k, v.KeyMap.Up, v.KeyMap.LineUp):
		v.Viewport.ScrollUp(1)
	case key.Matches(k, v.KeyMap.Down, v.KeyMap.LineDown):
		v.Viewport.ScrollDown(1)
	case key.Matches(k, v.KeyMap.PageUp):
		v.Viewport.PageUp()
	case key.Matches(k, v.KeyMap.PageDown):
		v.Viewport.PageDown()
	}
	return nil
}

// View renders the help screen.
func (v *Model) View() string {
	v.layout()
	out := []string{style.Rule(*v.Styles, "Keys", "? or esc closes", v.w, true), v.Viewport.View()}
	if v.Viewport.TotalLineCount() > v.Viewport.Height() {
		out = append(out, common.ScrollHint(v.Styles, v.Viewport, v.KeyMap, v.w, 0))
	}
	return style.Block(strings.Join(out, "\n"), v.w, v.h)
}

// keyColumns lays out the key groups as columns of "key  description"
// that fit w, wrapping groups onto more rows when the screen is narrow.
func keyColumns(st *style.Styles, groups [][]key.Binding, w int) []string {
	type col struct {
		lines []string
		width int
	}
	var cols []col
	for _, g := range groups {
		kw := 0
		for _, b := range g {
			kw = max(kw, lipgloss.Width(b.Help().Key))
		}
		var c col
		for _, b := range g {
			// A description too long for the screen wraps under itself
			// (a hanging indent past the key), never cut.
			desc := []string{b.Help().Desc}
			if kw+2+lipgloss.Width(b.Help().Desc) > w {
				desc = style.Wrap(b.Help().Desc, max(w-kw-2, 8))
			}
			for i, d := range desc {
				k := style.Pad(b.Help().Key, kw)
				if i > 0 {
					k = strings.Repeat(" ", kw)
				}
				l := st.Key.Render(k) + "  " + st.KeyDesc.Render(d)
				c.lines = append(c.lines, l)
				c.width = max(c.width, lipgloss.Width(l))
			}
		}
		cols = append(cols, c)
	}
	var out []string
	for len(cols) > 0 {
		// As many columns as fit side by side, 4 spaces apart.
		n, used := 0, 0
		for n < len(cols) && (n == 0 || used+4+cols[n].width <= w) {
			if n > 0 {
				used += 4
			}
			used += cols[n].width
			n++
		}
		rows := 0
		for _, c := range cols[:n] {
			rows = max(rows, len(c.lines))
		}
		for r := 0; r < rows; r++ {
			line := ""
			for i, c := range cols[:n] {
				cell := ""
				if r < len(c.lines) {
					cell = c.lines[r]
				}
				if i < n-1 {
					cell = style.Pad(cell, c.width+4)
				}
				line += cell
			}
			out = append(out, style.Fit(line, w))
		}
		cols = cols[n:]
		if len(cols) > 0 {
			out = append(out, "")
		}
	}
	return out
}

package clip

import (
	"fmt"
	"math"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model shows the latest batch's per-sample gradient norms against
// the clip threshold: the fraction clipped and a log-scale histogram with
// C marked, so that clipping bias is visible, not just asserted. They are
// read from the private draw outside the mechanism, so once a run shows
// them the panel's rule says "non-private diagnostic". For a search it
// shows the tuned run's released candidate's batch (engine.TunedTrial's
// Clip) with the whole runs' fractions clipped, tuned and prescribed.
// Before a run it shows the prescribed threshold; for a multi-phase
// solver both name the phase they are about.
type Model struct {
	common.Common
	presc runs.PrescriptionMsg
	run   *runs.Run // the latest run (nil: none)
	w, h  int
	cache common.ViewCache
}

// New returns the panel.
func New(c common.Common) *Model { return &Model{Common: c} }

// SetSize sets the panel size.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h; p.cache.Invalidate() }

// Update takes the prescription and the latest run.
func (p *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case runs.PrescriptionMsg:
		p.presc = msg
	case runs.Event:
		p.run = msg.Run
	case tea.BackgroundColorMsg:
	default:
		return p, nil
	}
	p.cache.Invalidate()
	return p, nil
}

// coordOracle reports whether the run's oracle (the resolved one: the
// Spec's, or its solver's default) clips per coordinate.
func coordOracle(rs spec.Resolved) bool { return strings.Contains(rs.Oracle, "coordinate") }

// View renders the panel (cached until what it shows changes).
func (p *Model) View() string { return p.cache.View(p.render) }

func (p *Model) render() string {
	st := p.Styles
	w, h := p.w, p.h
	r := p.run
	tuned, haveTuned := tunedBatch(r)
	have := haveTuned || (r != nil && r.HaveHist)
	lines := []string{style.Rule(*st, "Clipping", "", w, false)}
	coord := coordOracle(p.presc.Spec)
	if have {
		coord = coordOracle(r.Spec)
	}
	sym := "C"
	if coord {
		sym = "τ"
	}
	if !have && r != nil && r.Kind == backend.Tune && r.Phase == runs.Done {
		// No trial's released candidate reported a batch (K = 0
		// everywhere, or a solver that does not clip), and on the
		// user's rows no prescribed run is made beside the search.
		lines = append(lines, style.WrapLines(st.Emph, fmt.Sprintf("run #%d, the search: no batch shown", r.ID), w)...)
		lines = append(lines, style.WrapLines(st.Muted, "no trial released a candidate that clips (K = 0, or a solver without clipping); esc, then r, runs the prescribed C and shows its batches", w)...)
		return style.Block(strings.Join(lines, "\n"), w, h)
	}
	if !have {
		var txt string
		switch pr := p.presc.Prescription; {
		case pr == nil && p.presc.Pending:
			txt = sym + ": computing…"
		case pr == nil:
			txt = sym + ": no prescription"
		case pr.Refused != "":
			txt = "no threshold: " + pr.Solver + " refuses to run"
		case math.IsInf(pr.Params.Clip, 1):
			txt = "no clipping (C = ∞)"
		case len(pr.Params.Phases) > 1:
			txt = sym + "₁ = " + common.FmtNum(pr.Params.Clip) + fmt.Sprintf(" (prescribed, phase 1 of %d)", len(pr.Params.Phases))
		default:
			txt = sym + " = " + common.FmtNum(pr.Params.Clip) + " (prescribed)"
		}
		lines = append(lines, style.WrapLines(st.Emph, txt, w)...)
		lines = append(lines, style.WrapLines(st.Muted, "run to see each batch's per-sample gradient norms against the threshold", w)...)
		return style.Block(strings.Join(lines, "\n"), w, h)
	}
	// The norms are read from the trial's private draw, outside the
	// mechanism: a diagnostic the privacy guarantee does not cover.
	lines[0] = style.Rule(*st, "Clipping", "non-private diagnostic", w, false)
	b, phase := r.Hist, r.HistPhase
	if haveTuned {
		b, phase = tuned.trial.Clip.Batch, tuned.trial.Clip.Phase
	}
	thr := b.Threshold
	frac := b.ClipFraction()
	// The batch size is the batch line's, so that the threshold and the
	// fraction clipped fit the small terminal's tab (they were cut
	// mid-phrase: "C = 3392 · batch 40k · 0.0%…").
	head := fmt.Sprintf("%s = %s · %s clipped", sym, common.FmtNum(thr), st.Emph.Render(fmt.Sprintf("%.1f%%", 100*frac)))
	if math.IsInf(thr, 1) {
		head = "no clipping"
	}
	if phase > 0 {
		head = fmt.Sprintf("phase %d: ", phase) + head
	}

	if b.NonFinite > 0 {
		head += st.Warn.Render(fmt.Sprintf(" · %d non-finite zeroed", b.NonFinite))
	}
	lines = append(lines, style.WrapStyled(head, w)...)
	who := fmt.Sprintf("batch of %s · %s", common.FmtInt(int64(b.Size)), r.HistWho)
	if r.HistAt != "" { // a sweep's batch: of which point
		who += " · at " + r.HistAt + " = " + common.FmtNum(r.HistAtValue)
	}
	if phase > 0 {
		who += fmt.Sprintf(" · phase %d", phase)
	}
	switch {
	case haveTuned:
		// The search's own batch: its released candidate's
		// (engine.TunedTrial.Clip), with the whole runs' fractions.
		who = tuned.who()
		if phase > 0 {
			who += fmt.Sprintf(" · phase %d", phase)
		}
	case r.Kind == backend.Tune:
		// No trial's released candidate reported a batch: the batch is
		// the prescribed reference's, not the tuned one's.
		who += " · prescribed run"
	default:
		who += fmt.Sprintf(" · run #%d", r.ID)
	}
	whoLines := style.WrapLines(st.Muted, who, w)
	var warn []string
	if p.presc.Key != "" && p.presc.Key != runs.PrescKey(r.Spec) {
		// The form moved on: these norms are the run's, not of what the
		// form now holds (the theorem panel's C is the new one).
		warn = style.WrapLines(st.Warn, fmt.Sprintf("run #%d's: parameters changed since (r runs them)", r.ID), w)
	}

	if r.Adaptive() {
		// The warning whole, and one row kept for the histogram or the
		// line that says it is not shown; the trajectory in the rest.
		avail := h - len(lines) - len(warn) - 1
		// The batch's line is the histogram's: without room for one
		// under the trajectory (the small terminal's tab), it goes.
		if avail-len(p.trail(r, w, avail)) >= 3+len(whoLines) {
			lines = append(lines, whoLines...)
			avail -= len(whoLines)
		}
		lines = append(lines, warn...)
		lines = append(lines, p.trail(r, w, avail)...)
	} else {
		// One row kept under the batch line for the histogram, or the
		// line that says it is not shown. A search's whole-run fractions
		// go under the batch line where they fit whole with two rows of
		// histogram and its axis below; else they are left out, not cut.
		if haveTuned {
			if more := style.WrapLines(st.Muted, tuned.means(), w); len(whoLines)+len(more)+len(warn)+3 <= h-len(lines)-1 {
				whoLines = append(whoLines, more...)
			}
		}
		lines = append(lines, keepRows(whoLines, warn, h-len(lines)-1, w)...)
	}
	lines = append(lines, p.histLines(b, thr, coord, w, h-len(lines))...)
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// keepRows fits the batch line's wrapped rows (who) and a warning's
// under them (warn) to rows rows: the warning kept first, the batch
// line's last rows giving way, the last one kept ending in "…"
// (style.FitWords) so that the cut is seen.
func keepRows(who, warn []string, rows, w int) []string {
	if rows <= 0 {
		return nil
	}
	if len(who)+len(warn) <= rows {
		return append(who, warn...)
	}
	if len(warn) >= rows {
		if who, warn = warn, nil; len(who) <= rows {
			return who
		}
	}
	n := rows - len(warn)
	out := append([]string(nil), who[:n]...)
	out[n-1] = style.FitWords(strings.Join(who[n-1:], " "), w)
	return append(out, warn...)
}

// histLines are the batch's histogram in the room rows left under the
// panel's head: its bars with their axis (a row of bars is unreadable
// without its decades and C), one row kept blank above the next panel
// where the histogram has rows to spare; where not even one row of bars
// and the axis fit, a line that says the histogram is not shown.
func (p *Model) histLines(b oracle.BatchStats, thr float64, coord bool, w, room int) []string {
	st := p.Styles
	var tau []string
	if coord {
		tau = style.WrapLines(st.Muted, "τ bounds each coordinate; the histogram shows ‖∇f‖", w)
	}
	histH := room - len(tau)
	if histH > 2 {
		histH-- // the blank row above the next panel
	}
	if histH < 2 {
		if room < 1 {
			return nil
		}
		out := style.WrapLines(st.Muted, "histogram: needs a taller terminal", w)
		if len(out) > room {
			out = style.WrapLines(st.Muted, "histogram: no room", w)
		}
		return out[:min(len(out), room)]
	}
	return append(tau, histogram(st, b, thr, !coord, w, histH)...)
}

// trail is the adaptive C trajectory in at most h lines: what it is, a
// sparkline of log10 C over the checkpoints (labelled with its largest
// and smallest C), and C₀ (dp-sgd's prescription) → the last C beside the
// paper solver's prescribed C.
func (p *Model) trail(r *runs.Run, w, h int) []string {
	st := p.Styles
	pts := r.ClipTrail
	if h < 3 || len(pts) == 0 {
		return nil
	}
	out := []string{st.Muted.Render(style.Shorten(fmt.Sprintf("adaptive C, %s steps, %s trial 0 (log scale)", common.FmtInt(int64(r.ClipIters)), r.ClipSolver), w))}
	ys := make([]float64, len(pts))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, q := range pts {
		ys[i] = math.Log10(q.C)
		lo, hi = math.Min(lo, q.C), math.Max(hi, q.C)
	}
	// Two rows when the panel has room for the histogram below them.
	rows := 1
	if h >= 8 {
		rows = 2
	}
	labelW := 6
	spark := chart.Sparkline(ys, math.Log10(lo), math.Log10(hi), w-labelW, rows)
	for i, l := range spark {
		label := ""
		switch {
		case i == 0:
			label = common.FmtNum(hi)
		case i == len(spark)-1:
			label = common.FmtNum(lo)
		}
		if rows == 1 {
			label = ""
		}
		out = append(out, style.Pad(st.Muted.Render(label), labelW)+st.FG(st.Clipped, l))
	}
	last := pts[len(pts)-1]
	txt := fmt.Sprintf("C %s → last C %s", common.FmtNum(pts[0].C), common.FmtNum(last.C))
	if c0, ok := p.startClip(r); ok {
		txt = fmt.Sprintf("prescribed C₀ %s → last C %s", common.FmtNum(c0), common.FmtNum(last.C))
	}
	paper := ""
	if name, c, ok := p.paperClip(r); ok {
		paper = "paper's C " + common.FmtNum(c) + " (" + name + ")"
	}
	switch {
	case paper == "":
		out = append(out, style.WrapLines(st.Emph, txt, w)...)
	case lipgloss.Width(txt)+3+lipgloss.Width(paper) <= w:
		out = append(out, st.Emph.Render(txt+" · "+paper))
	default: // the paper's C on its own line, whole
		out = append(out, style.WrapLines(st.Emph, txt, w)...)
		out = append(out, style.WrapLines(st.Emph, paper, w)...)
	}
	return out[:min(len(out), h)]
}

// startClip is dp-sgd's prescribed C₀ for run r: its report's, or the
// prescription's of the same Spec.
func (p *Model) startClip(r *runs.Run) (float64, bool) {
	if r.Comparison != nil {
		for _, rep := range r.Comparison.Reports {
			if runs.Adapts(rep.Solver) && rep.Refused == "" {
				return rep.Params.Clip, true
			}
		}
	}
	if pr := p.presc.Prescription; pr != nil && runs.Adapts(pr.Solver) && p.presc.Key == runs.PrescKey(r.Spec) && pr.Refused == "" {
		return pr.Params.Clip, true
	}
	return 0, false
}

// paperClip is the clip threshold the paper's solver for r's class is
// prescribed at the same Spec (its first phase's for a multi-phase
// solver): from the prescription beside dp-sgd's, or from the paper
// solver's report in a comparison.
func (p *Model) paperClip(r *runs.Run) (name string, c float64, ok bool) {
	named := func(solver string, par solvers.Params) string {
		if len(par.Phases) > 1 {
			return solver + ", phase 1"
		}
		return solver
	}
	if pr := p.presc.Paper; pr != nil && p.presc.Key == runs.PrescKey(r.Spec) && pr.Refused == "" {
		return named(pr.Solver, pr.Params), pr.Params.Clip, true
	}
	if r.Comparison != nil && len(r.Comparison.Reports) > 0 {
		if rep := r.Comparison.Reports[0]; rep.Solver == r.Spec.Schedule && rep.Refused == "" {
			return named(rep.Solver, rep.Params), rep.Params.Clip, true
		}
	}
	return "", 0, false
}

// rowsUnit ends the histogram's count: a bar counts the batch's rows.
const rowsUnit = " rows"

// histogram draws the batch's norm histogram (log10 bins) in w columns and
// h lines: h−1 rows of bars (eighth blocks; the top row labelled with the
// tallest bar's count of the batch's rows, "40 rows"), then an axis with
// decade labels and C marked; bins whose norms exceed the threshold are drawn in
// the "clipped" colour.
func histogram(st *style.Styles, b oracle.BatchStats, thr float64, mark bool, w, h int) []string {
	first, last := -1, -1
	for i, c := range b.Hist {
		if c > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return []string{st.Muted.Render("no finite norm in this batch")}
	}
	thrBin := -1
	if mark && thr > 0 && !math.IsInf(thr, 1) {
		thrBin = int(math.Floor((math.Log10(thr) - oracle.HistMinExp) * oracle.HistPerDecade))
		if thrBin >= 0 && thrBin < oracle.HistBins {
			first, last = min(first, thrBin), max(last, thrBin)
		} else {
			thrBin = -1
		}
	}
	first, last = max(first-1, 0), min(last+1, oracle.HistBins-1)
	nb := last - first + 1
	// The top row's label says what a bar counts: the batch's rows whose
	// ‖∇f‖ falls in its bin, the tallest's number ("40 rows"); its column
	// is as wide as the batch's count would need.
	total := 0
	for _, c := range b.Hist {
		total += c
	}
	labelW := max(5, lipgloss.Width(common.FmtInt(int64(total))+rowsUnit)+1)
	avail := w - labelW
	if avail < 4 {
		return nil
	}
	group := (nb + avail - 1) / avail // bins per column
	cw := 1                           // columns per group
	ng := (nb + group - 1) / group
	if group == 1 {
		cw = max(1, min(avail/ng, 3))
	}
	counts := make([]int, ng)
	clipped := make([]bool, ng)
	maxc := 0
	for i := first; i <= last; i++ {
		g := (i - first) / group
		counts[g] += b.Hist[i]
		lo, _ := oracle.BinEdges(i)
		if mark && lo >= thr {
			clipped[g] = true
		}
		maxc = max(maxc, counts[g])
	}
	rows := min(max(h-1, 1), 6)
	levels := []rune(" ▁▂▃▄▅▆▇█")
	var out []string
	for r := rows - 1; r >= 0; r-- {
		var sb strings.Builder
		if r == rows-1 {
			sb.WriteString(style.Pad(common.FmtInt(int64(maxc))+rowsUnit, labelW))
		} else {
			sb.WriteString(strings.Repeat(" ", labelW))
		}
		for g := 0; g < ng; g++ {
			v := float64(counts[g]) / float64(maxc) * float64(rows*8)
			fill := v - float64(r*8)
			var ch rune
			switch {
			case fill >= 8:
				ch = '█'
			case fill <= 0:
				ch = ' '
			default:
				ch = levels[int(math.Ceil(fill))]
			}
			cell := strings.Repeat(string(ch), cw)
			if clipped[g] && ch != ' ' {
				cell = st.FG(st.Clipped, cell)
			}
			sb.WriteString(cell)
		}
		out = append(out, style.FitWords(sb.String(), w))
	}
	if h >= 2 {
		// Axis: decade labels, the threshold marked.
		axis := []rune(strings.Repeat(" ", ng*cw))
		put := func(col int, s string) bool {
			rs := []rune(s)
			if col < 0 || col+len(rs) > len(axis) {
				return false
			}
			for i := max(col-1, 0); i < min(col+len(rs)+1, len(axis)); i++ { // keep a space between labels
				if axis[i] != ' ' {
					return false
				}
			}
			copy(axis[col:], rs)
			return true
		}
		if thrBin >= 0 {
			put((thrBin-first)/group*cw, "▲C")
		}
		for i := first; i <= last; i++ {
			if i%oracle.HistPerDecade == 0 {
				e := oracle.HistMinExp + i/oracle.HistPerDecade
				put((i-first)/group*cw, "10"+common.Sup(e))
			}
		}
		line := style.Pad("‖∇f‖", labelW) + string(axis)
		if thrBin >= 0 && !st.Plain {
			line = strings.Replace(line, "▲C", st.FG(st.Clipped, "▲C"), 1)
		}
		out = append(out, style.FitWords(line, w))
	}
	return out
}

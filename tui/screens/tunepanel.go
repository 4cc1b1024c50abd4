package screens

import (
	"fmt"
	"math"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/tui/common"
	"dpso/tui/style"
)

// TunePanel is the tuning screen's companion: each trial's released
// candidate (what the search releases), trial 0's search — every
// candidate drawn with its private score, and the grid point's
// full-budget excess risk from the oracle's runs — labelled as the
// non-private diagnostics they are, the grid, and how the search is
// accounted; it scrolls (pgup/pgdn).
type TunePanel struct {
	common.LaidOutPanel
	rep *engine.TuneReport
}

func (p *TunePanel) set(rep *engine.TuneReport) {
	if rep != p.rep {
		p.Viewport.SetYOffset(0)
	}
	p.rep = rep
	p.Invalidate()
}

// Update scrolls.
func (p *TunePanel) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	p.UpdateLaidOut(msg, p.layout)
	return p, nil
}

// View renders the panel (cached until what it shows changes).
func (p *TunePanel) View() string {
	return p.Cache.View(func() string { return p.RenderLaidOut(p.layout) })
}

// layout is the panel's title and lines.
func (p *TunePanel) layout() common.Layout {
	return common.Layout{Title: "The search: candidates and scores", Lines: p.Lines()}
}

// Lines are the panel's lines under its title.
func (p *TunePanel) Lines() []string {
	st := p.Styles
	w := p.W
	rep := p.rep
	if rep == nil {
		return style.WrapLines(st.Muted, "When the search ends: each trial's released candidate, trial 0's candidates with their private scores (non-private diagnostics), the grid and the accounting.", w)
	}
	ts := rep.Solvers[0]
	var out []string
	para := func(text string, muted bool) {
		for _, l := range style.Wrap(text, w) {
			if muted {
				l = st.Muted.Render(l)
			}
			out = append(out, l)
		}
	}
	widths := []int{6, 9, 8, 5} // the columns' least widths (a space after each)
	if w < 60 {
		widths = []int{2, 6, 6, 4}
	}
	// A table's rows, no cell ever cut (pointTable: wrapped by columns
	// where the panel is too narrow), the first cell its mark (none).
	table := func(header []string, rows [][]string) {
		out = append(out, pointTable(st, header, rows, widths, w)...)
	}

	// What the search released, trial by trial.
	risk := "excess risk"
	if rep.UserRows {
		risk = "excess risk (non-private diagnostic)"
	}
	heading := func(s lipgloss.Style, text string) {
		for _, l := range style.Wrap(text, w) {
			out = append(out, s.Render(l))
		}
	}
	heading(st.Emph, "Released: each trial's chosen candidate")
	trial := "trial"
	if w < 60 {
		trial = "#"
	}
	var released [][]string
	for _, tr := range ts.Tuned.Trials {
		if tr.Chosen < 0 {
			released = append(released, []string{"", fmt.Sprint(tr.Trial), "—", "—", "—", common.FmtNum(tr.Excess) + " (K = 0: w₀)"})
			continue
		}
		released = append(released, []string{"", fmt.Sprint(tr.Trial), common.FmtNum(tr.Params.Clip), common.FmtNum(tr.Params.Step), fmt.Sprint(tr.Params.Iters), common.FmtNum(tr.Excess)})
	}
	table([]string{trial, "C", "step", "T", risk}, released)
	out = append(out, "")

	// Trial 0's search: its diagnostics.
	if len(ts.Tuned.Trials) > 0 {
		tr := ts.Tuned.Trials[0]
		heading(st.Warn, "Trial 0's search: NOT private (diagnostics)")
		para(fmt.Sprintf("K = %d candidates drawn, K ~ %s. Score: the mean validation loss, each row's clipped to a window of width c_s = %s ([0, c_s], or [ℓ₀ − c_s, ℓ₀] where its loss ℓ₀ at w₀ is above c_s), plus Gaussian noise σ = %s; the lowest score is released.",
			tr.K, kLaw(rep), common.FmtNum(tr.ScoreClip), common.FmtNum(tr.ScoreSigma)), true)
		// The oracle's column where there is room (not the compact
		// layout's side tab) and every trial searched the same grid (with
		// private constants each trial's grid scales with its own
		// estimates, and a grid index means other values in each).
		oracle := ts.Oracle != nil && !ts.Oracle.Coarse && len(ts.Oracle.Points) == len(tr.Grid) && w >= 60 && rep.Privacy.ConstantsRho == 0
		last := "score"
		if oracle {
			last = "score · oracle's full-budget risk"
		}
		var tried [][]string
		for i, g := range tr.Tried {
			cd := tr.Grid[g]
			cell := common.FmtNum(tr.Scores[i])
			if oracle {
				cell += " · " + common.FmtNum(ts.Oracle.Points[g].Mean)
			}
			switch {
			case i == tr.Chosen && w < 60:
				cell += st.Good.Render(" ◀")
			case i == tr.Chosen:
				cell += st.Good.Render(" ◀ released")
			}
			tried = append(tried, []string{"", fmt.Sprint(i + 1), common.FmtNum(cd.Clip), common.FmtNum(cd.Step), itersText(cd), cell})
		}
		table([]string{"#", "C", "step", "T", last}, tried)
		para("◀ marks the released candidate: the search releases it only (its parameters, output and score); K and the other scores are not covered by its guarantee, and are shown for study.", true)
		if oracle {
			para("The oracle's risk is each grid point run at the full budget on all rows, mean over trials: NOT private (it reads the true excess risk).", true)
		}
		out = append(out, "")
		heading(st.Emph, fmt.Sprintf("The grid (trial 0's): %d points", len(tr.Grid)))
		para(gridText(tr.Grid, tr.Dropped), false)
		out = append(out, "")
	}

	// How it is accounted.
	pv := rep.Privacy
	heading(st.Emph, "The accounting")
	if sd := ts.DPSGD; sd != nil {
		zs := make([]string, len(sd.Mechanisms))
		for i, m := range sd.Mechanisms {
			zs[i] = fmt.Sprintf("z = %s at batch %d, T = %d", common.FmtNum(m.Z), m.Batch, m.Steps)
		}
		para(fmt.Sprintf("Each candidate is accounted by its own Rényi curve: T Poisson-subsampled Gaussian steps (replace-one) at its batch's rate, with its noise multiplier (%s), its score a Gaussian mechanism at ρ = %s. Papernot & Steinke's bound for the best of K ~ %s runs on their largest curve, plus the score clip's ρ_s = %s%s, in Rényi DP, converted at δ = %s: ε' = %s (order %s), at most the exact ε' of ρ = ε²/2 = %s, %s.",
			strings.Join(zs, "; "), common.FmtNum(sd.ScoreRho), kLaw(rep), common.FmtNum(pv.ScoreRho), constantsText(pv.ConstantsRho), common.FmtNum(pv.Target.Delta), common.FmtNum(sd.Eps), common.FmtNum(sd.Order),
			common.FmtNum(pv.Target.Rho), common.FmtNum(pv.Target.EpsDelta)), false)
	} else {
		para(fmt.Sprintf("Each candidate is ρ_Q = %s-zCDP (training and scoring on disjoint rows). Papernot & Steinke's bound for the best of K ~ %s runs, plus the score clip's ρ_s = %s%s, in Rényi DP, converted at δ = %s: ε' = %s (order %s), at most the exact ε' of ρ = ε²/2 = %s, %s. One candidate alone: ε' = %s; the tuning costs + %s.",
			common.FmtNum(pv.CandidateRho), kLaw(rep), common.FmtNum(pv.ScoreRho), constantsText(pv.ConstantsRho), common.FmtNum(pv.Target.Delta), common.FmtNum(pv.Eps), common.FmtNum(pv.Order),
			common.FmtNum(pv.Target.Rho), common.FmtNum(pv.Target.EpsDelta), common.FmtNum(pv.CandidateEps), common.FmtNum(pv.Overhead)), false)
	}
	para("Total: "+tuneTotalText(rep), false)
	switch o := ts.Oracle; {
	case o != nil && o.Coarse:
		para(fmt.Sprintf("coarse oracle: NOT private and not attainable: the coarse grid's %d of %d points (each axis's ends and about half its values) run at the full budget on all rows, the one with the smallest mean excess risk over the trials chosen by that excess risk (which no private procedure can read); the grid's other points are running, and the oracle-tuned reference over every point replaces it when they are done", len(o.Ran), len(o.Points)), true)
	case o != nil:
		para("oracle-tuned: "+report.OracleNote, true)
	}
	for _, n := range rep.Notes {
		para("note: "+n, true)
	}
	return out
}

// itersText is a candidate's T, or its epochs and batch (dp-sgd).
func itersText(c engine.Candidate) string {
	switch {
	case c.Iters > 0:
		return fmt.Sprint(c.Iters)
	case c.Epochs > 0:
		return common.FmtNum(c.Epochs) + " ep."
	}
	return "—"
}

// kLaw is K's law in words.
func kLaw(rep *engine.TuneReport) string {
	reps := rep.Tune.Repetitions
	if reps.Poisson() {
		return fmt.Sprintf("Poisson with mean %s (Theorem 6)", common.FmtNum(reps.Mean))
	}
	name := "truncated negative binomial, η = " + common.FmtNum(reps.Shape)
	switch reps.Shape {
	case 0:
		name = "logarithmic"
	case 1:
		name = "geometric"
	}
	return fmt.Sprintf("%s with mean %s, γ = %s (Theorem 2)", name, common.FmtNum(reps.Mean), common.FmtNum(rep.Privacy.Gamma))
}

// gridText is a grid's axes: each axis's distinct values.
func gridText(grid []engine.Candidate, dropped int) string {
	var cs, steps, ts []float64
	add := func(xs *[]float64, v float64) {
		if v > 0 && !slices.Contains(*xs, v) {
			*xs = append(*xs, v)
		}
	}
	for _, c := range grid {
		add(&cs, c.Clip)
		add(&steps, c.Step)
		add(&ts, float64(c.Iters))
	}
	list := func(xs []float64) string {
		slices.Sort(xs)
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = common.FmtNum(x)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	txt := "C ∈ " + list(cs) + "; step ∈ " + list(steps)
	if len(ts) > 0 {
		txt += "; T ∈ " + list(ts)
	}
	if dropped > 0 {
		txt += fmt.Sprintf(" (%d points the solver refuses dropped)", dropped)
	}
	return txt + ": the default axes scale with the constants the search reads, never with the rows (dpso tune --help)."
}

// tuneTotalText is what the call released, composed.
func tuneTotalText(rep *engine.TuneReport) string {
	t := rep.Total
	txt := fmt.Sprintf("per trial (fresh draws of the scenario), %d search%s: ε' = %s at δ = %s", t.Searches, esPlural(t.Searches), common.FmtNum(t.Eps), common.FmtNum(t.Delta))
	if rep.UserRows {
		txt = fmt.Sprintf("your rows, read by %d search%s (trials): ε' = %s at δ = %s, their Rényi curves added", t.Searches, esPlural(t.Searches), common.FmtNum(t.Eps), common.FmtNum(t.Delta))
	}
	if t.PrescribedRho > 0 {
		txt += fmt.Sprintf("; the prescribed runs read the same data with ρ = %s, and the oracle-tuned reference is not private", common.FmtNum(t.PrescribedRho))
	}
	if math.IsNaN(t.Eps) {
		txt = "no total: the search did not run"
	}
	return txt
}

func esPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

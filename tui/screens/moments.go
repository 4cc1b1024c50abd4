package screens

import (
	"context"
	"io"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// MomentsKind is the moment profile (m). It draws no run of its own: its
// r runs the chart's, and its reproduce line is the chart's.
const MomentsKind runs.ScreenKind = "moments"

// momentsKey shows the moment profile.
var momentsKey = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "moment profile r̃_k"))

var momentsScreenDef = common.ScreenDef{
	Kind: MomentsKind, Draws: ChartKind, Key: momentsKey,
	Short: "moments", Place: common.HelpAfterForm,
	Build: func(c common.Common, formula common.Component) common.Screen { return newMomentsScreen(c, formula) },
}

// MomentsScreen is the moment profile r̃_k against k, up to r̃_∞ = L_f, on
// a log scale, with moments that do not exist drawn as ∞ and the form's k
// marked; its companion panel is the theorem. Its own lines scroll as a
// side panel's do (common.ScrollScreen): where the profile, the
// contradicted constants and the note on reading it do not fit, the last
// row says how many lines are below, and t brings j, k, pgup, pgdn to
// them.
type MomentsScreen struct {
	common.LaidOutPanel
	formula common.Component
	presc   runs.PrescriptionMsg
	profile []scenarios.MomentEntry
	// contra are the given constants the scenario contradicts.
	contra []scenarios.Contradiction
	k      float64
	name   string
}

// newMomentsScreen returns the moments screen; formula is its panel.
func newMomentsScreen(c common.Common, formula common.Component) *MomentsScreen {
	return &MomentsScreen{LaidOutPanel: common.NewLaidOutPanel(c), formula: formula}
}

// Title names the screen in the status line that says where the scroll
// keys are.
func (v *MomentsScreen) Title() string { return "moment profile" }

// Panel is the theorem.
func (v *MomentsScreen) Panel() (string, common.Component) { return "Theorem", v.formula }

// Job is the chart's: the run of the form's solver.
func (v *MomentsScreen) Job(res spec.Resolved) (runs.Job, string) { return singleJob(res) }

// Reproduce is the chart's command (the run shown is the chart's).
func (v *MomentsScreen) Reproduce(user spec.Spec, res spec.Resolved, shown *runs.Run) string {
	return chartCommand(user, res, shown)
}

// ShortHelp is the keys that act on this screen.
func (v *MomentsScreen) ShortHelp() []key.Binding {
	return []key.Binding{momentsKey, v.KeyMap.Export, v.KeyMap.Back}
}

// Update takes the prescription (its profile) and the form's k, and
// scrolls on the scroll keys.
func (v *MomentsScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	v.UpdateLaidOut(msg, v.layout)
	switch msg := msg.(type) {
	case runs.PrescriptionMsg:
		v.presc = msg
		v.profile, v.contra, v.k, v.name = nil, nil, msg.Spec.Spec.K, msg.Spec.Spec.Scenario
		if msg.Prescription != nil {
			v.profile, v.contra = msg.Prescription.Profile, msg.Prescription.Contradictions
		}
	case common.SpecMsg:
		v.k, v.name = msg.Spec.Spec.K, msg.Spec.Spec.Scenario
	default:
		return v, nil
	}
	v.Invalidate()
	return v, nil
}

// View renders the profile (cached until what it shows changes).
func (v *MomentsScreen) View() string {
	return v.Cache.View(func() string { return v.RenderLaidOut(v.layout) })
}

// layout is the profile as horizontal bars on a log10 scale, the
// contradicted constants and the note on reading it.
func (v *MomentsScreen) layout() common.Layout {
	st := v.Styles
	w := v.W
	const title, def = "Moment profile r̃_k", "r̃_k = (E sup_w ‖∇f(w,x)‖^k)^{1/k}"
	out := common.Layout{Title: title + " = " + def[len("r̃_k = "):], Right: v.name}
	var lines []string
	if !strings.Contains(style.StripANSI(style.Rule(*st, out.Title, v.name, w, false)), def[len("r̃_k = "):]) { // the formula whole, on its own line
		out.Title = title
		lines = append(lines, style.WrapLines(st.Muted, def, w)...)
	}
	if len(v.profile) == 0 {
		msg := "computing…"
		if q := common.PrescQueued(v.presc, "the moment profile is computed once one frees ("+common.QueueCount+")"); q != "" {
			msg = q
		}
		if e := v.refusal(); e != "" {
			msg = "✗ " + e
		}
		out.Lines = append(lines, style.WrapLines(st.Muted, msg, w)...)
		return out
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range v.profile {
		if e.R > 0 && !math.IsInf(e.R, 1) {
			lo, hi = math.Min(lo, math.Log10(e.R)), math.Max(hi, math.Log10(e.R))
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	lo = math.Floor(lo) - 0.5
	if hi-lo < 1 {
		hi = lo + 1
	}
	const kW = 9
	vW := 10 // the values' column: as wide as its widest value and a space
	for _, e := range v.profile {
		vW = max(vW, lipgloss.Width(common.FmtNum(e.R)+" ⚠")+1)
	}
	methodW := 0
	for _, e := range v.profile {
		methodW = max(methodW, lipgloss.Width(shortMethod(e)))
	}
	methodW = min(methodW, 26)
	barW := w - kW - vW - methodW - 6
	if barW < 8 {
		methodW = 0
		barW = w - kW - vW - 4
	}
	// The bars' scale, whole: in the header where it fits, else on its
	// own line under it (a cut end of the scale would be a wrong number).
	ends := common.FmtNum(math.Pow(10, lo)) + " … " + common.FmtNum(math.Pow(10, hi))
	scale, under := "log scale: "+ends, ""
	room := barW + 2
	if methodW > 0 {
		room-- // a space before "how"
	}
	if lipgloss.Width(scale) > room {
		scale, under = "", "bars: log scale "+ends
	}
	head := "  " + style.Pad("k", kW) + style.Pad("r̃_k", vW) + style.Pad(scale, barW+2)
	if methodW > 0 {
		head += "how"
	}
	lines = append(lines, st.Muted.Render(strings.TrimRight(head, " ")))
	if under != "" {
		lines = append(lines, style.WrapLines(st.Muted, under, w)...)
	}
	for _, e := range v.profile {
		kl := "k = " + common.FmtK(e.K)
		if math.IsInf(e.K, 1) {
			kl = "∞ (L_f)"
		}
		val := common.FmtNum(e.R)
		if math.IsInf(e.K, 1) && v.contradicted("lf") {
			val += " ⚠"
		}
		var b string
		switch {
		case math.IsInf(e.R, 1):
			b = st.Warn.Render(strings.Repeat("━", max(barW-3, 1)) + "▶ ∞")
			val = "∞"
		case e.R > 0:
			f := (math.Log10(e.R) - lo) / (hi - lo)
			n := int(math.Round(math.Min(f, 1) * float64(barW)))
			if math.Log10(e.R) > hi { // L_f far above the finite moments
				b = st.FG(st.Runs[0], strings.Repeat("█", max(barW-3, 1))) + "▶▶"
			} else {
				b = st.FG(st.Runs[0], strings.Repeat("█", max(n, 1)))
			}
		default:
			b = ""
		}
		row := style.Pad(kl, kW) + style.Pad(val, vW) + style.Pad(b, barW+2)
		if methodW > 0 {
			row += st.Muted.Render(style.FitWords(shortMethod(e), methodW))
		}
		if e.K == v.k {
			row = st.FocusLabel.Render("▸ ") + style.FitWords(row, w-2)
		} else {
			row = "  " + style.FitWords(row, w-2)
		}
		lines = append(lines, row)
	}
	for _, c := range v.contra {
		lines = append(lines, style.WrapLines(st.Warn, "⚠ "+c.Text+".", w)...)
	}
	out.Lines = append(append(lines, ""), style.Wrap(momentsNote, w)...)
	return out
}

// momentsNote is the moment profile's note on reading it, under the
// profile where it fits.
const momentsNote = "r̃_k < ∞ for the orders the data's tails allow; ∞ means the moment does not exist. The paper's rates use r̃_k (and r̃_2k for non-smooth losses) instead of L_f = r̃_∞: that gap is what clipping buys."

func shortMethod(e scenarios.MomentEntry) string {
	m := e.Method
	if i := strings.Index(m, " ("); i > 0 && !strings.HasPrefix(m, "does not") {
		m = m[:i]
	}
	if e.SE > 0 && !math.IsInf(e.SE, 1) {
		m += " ± " + common.FmtNum(e.SE)
	}
	return m
}

// contradicted reports whether the given constant of field (a flag:
// "lf") contradicts the scenario.
func (v *MomentsScreen) contradicted(field string) bool {
	for _, c := range v.contra {
		if c.Field == field {
			return true
		}
	}
	return false
}

// privateMoments is why the moment profile is not shown on rows whose
// constants are private (--constants private): the profile is not a
// prescription, and no run makes it.
const privateMoments = "no moment profile on private constants (--constants private): the profile would read your rows without privacy; give the constants (--rk, …), or --estimate-constants (NOT private)"

// refusal is why the profile is not shown: on private constants
// privateMoments, else the prescription's refusal ("": none).
func (v *MomentsScreen) refusal() string {
	if v.presc.Err != "" && v.presc.Spec.PrivateConstants() {
		return privateMoments
	}
	return v.presc.Err
}

// Export is the moment profile of the form's problem: its figure (r̃_k and
// r_k against k, what `dpso moments --plot` draws) and as JSON the
// document `dpso moments --json` prints for it (report.Moments), computed
// when the export runs.
func (v *MomentsScreen) Export() (*common.ExportJob, string) {
	switch {
	case v.presc.Err != "":
		return nil, "nothing to export: " + v.refusal()
	case v.presc.Prescription == nil || len(v.profile) == 0:
		return nil, "nothing to export yet: the moment profile is being computed"
	}
	res := v.presc.Spec
	return &common.ExportJob{Base: "moments", Load: func() (any, common.DrawFunc, error) {
		m, err := momentsReport(res)
		if err != nil {
			return nil, nil, err
		}
		prof := plot.MomentProfile{Spec: m.Spec, D: m.D, Finite: m.Finite, Lf: m.Lf, Noncentral: m.Noncentral, Contradictions: m.Contradictions}
		return m.JSON(), func(w io.Writer, f plot.Format) error { return plot.WriteMoments(w, f, prof) }, nil
	}}, ""
}

// momentsReport is the moment profile of res's problem, as `dpso moments`
// computes it.
func momentsReport(res spec.Resolved) (report.Moments, error) {
	ctx := context.Background()
	in, err := scenarios.Build(ctx, res.Problem)
	if err != nil {
		return report.Moments{}, err
	}
	return report.NewMoments(ctx, res.Spec, in)
}

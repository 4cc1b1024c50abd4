package tui

import (
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/chart"
	"dpso/tui/style"
)

// shown is what a run screen follows: the form's Spec and the latest run
// of the kinds it draws (the chart screen: runs and comparisons; the sweep
// screens: their own sweep).
type shown struct {
	spec spec.Resolved // the form's
	run  *run          // the latest run of the screen's kinds (nil: none)
}

// take applies msg — the form's Spec, a run event, a background change —
// and reports whether the screen must be redrawn; family is the kind of
// the runs the screen draws.
func (s *shown) take(msg tea.Msg, family screenKind) bool {
	switch msg := msg.(type) {
	case specMsg:
		s.spec = msg.spec
	case runEvent:
		switch r := msg.run; {
		case r == nil:
			s.run = nil
		case r.family != family:
			return false
		default:
			s.run = r
		}
	case tea.BackgroundColorMsg:
	default:
		return false
	}
	return true
}

// sweepBase is what the sweep screens share (the sweeps over n and ε,
// the clipping trade-off over C): a chart of the latest sweep of their
// kind, a sweep asked for when shown without one of the current Spec, and
// its export. What differs — the grid, the series and the panel — is the
// screen's own.
type sweepBase struct {
	common
	shown
	kind  screenKind
	job   jobMaker // the sweep r runs
	noun  string   // "sweep", "clipping sweep": what the messages call it
	base  string   // the exported files' base name
	chart *chart.Chart
}

func newSweepBase(c common, kind screenKind, job jobMaker, noun, base string, axes chart.Axes) sweepBase {
	s := sweepBase{common: c, kind: kind, job: job, noun: noun, base: base, chart: chart.New(c.st, fmtNum)}
	s.chart.SetAxes(axes)
	return s
}

// Job is the screen's sweep.
func (s *sweepBase) Job(res spec.Resolved) (job, string) { return s.job(res) }

// SetSize sets the chart's size.
func (s *sweepBase) SetSize(w, h int) { s.chart.SetSize(w, h) }

// View renders the chart.
func (s *sweepBase) View() string { return s.chart.View() }

// ShortHelp is the keys that act on this screen.
func (s *sweepBase) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.Run, s.keys.Pause, s.keys.Export, s.keys.Back}
}

// take is shown.take for this screen's sweeps.
func (s *sweepBase) take(msg tea.Msg) bool { return s.shown.take(msg, s.kind) }

// report is the finished sweep shown (nil: none).
func (s *sweepBase) report() *engine.SweepReport {
	if r := s.run; r != nil && r.phase == phaseDone {
		return r.Sweep
	}
	return nil
}

// Activate asks for a sweep when there is none of the current Spec and
// none running, and the Spec has one (a sweep of ε needs a finite ε).
func (s *sweepBase) Activate() tea.Cmd {
	r := s.run
	if r != nil && (r.active() || runKey(r.Spec) == runKey(s.spec)) {
		return nil
	}
	if _, why := s.job(s.spec); why != "" {
		return nil
	}
	return emit(runRequestMsg{make: s.job})
}

// Export is the finished sweep: its figure, and as JSON the document
// `dpso sweep --json` prints for it (report.Sweep; `--vary clip` for the
// clipping sweep).
func (s *sweepBase) Export() (*exportJob, string) {
	rep := s.report()
	if rep == nil {
		if s.run != nil && s.run.phase == phaseRefused {
			return nil, "nothing to export: " + s.run.refusal
		}
		if _, why := s.job(s.spec); why != "" && (s.run == nil || !s.run.active()) {
			return nil, "nothing to export: " + why
		}
		return nil, "nothing to export yet: the " + s.noun + " has not finished"
	}
	return &exportJob{base: s.base, data: report.Sweep(rep), draw: func(w io.Writer, f plot.Format) error { return plot.WriteSweep(w, f, rep) }}, ""
}

// sweepPanel is what the sweep screens' panels share (slopesPanel,
// clipTable): the report the screen sets, or its state line while there
// is none, and the scrolling body (its viewport holds the lines under
// the title when they do not fit; its cache the rendered block).
type sweepPanel struct {
	common
	rep   *engine.SweepReport
	state string
	scrollBody
}

// newSweepPanel returns an empty panel.
func newSweepPanel(c common) sweepPanel { return sweepPanel{common: c, scrollBody: newScrollBody()} }

// set sets what the panel shows (the screen sets it on every change,
// a new background colour included).
func (p *sweepPanel) set(rep *engine.SweepReport, state string) {
	p.rep, p.state = rep, state
	p.cache.invalidate()
}

// ShortHelp is the panel's scroll keys.
func (p *sweepPanel) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.PageUp, p.keys.PageDown}
}

// frame renders lines, the title's rule first, as the panel: whole where
// they fit, else the title, the rest in the viewport and a line that says
// how to scroll it.
func (p *sweepPanel) frame(lines []string) string {
	if len(lines) <= p.h || p.h < 3 {
		p.vp.SetYOffset(0)
		return style.Block(strings.Join(lines, "\n"), p.w, p.h)
	}
	fillScrolled(&p.vp, lines[1:], p.h)
	return scrolledPanel(p.st, p.keys, p.vp, lines[0], p.w, p.h)
}

// waiting renders the panel without a report: its title, what the sweep
// will do (intro) and the sweep's state line.
func (p *sweepPanel) waiting(title, intro string) string {
	st, w := p.st, p.w
	lines := []string{style.Rule(*st, title, "", w, false)}
	lines = append(lines, style.WrapLines(st.Muted, intro, w)...)
	if p.state != "" {
		lines = append(lines, "", st.Warn.Render(style.FitWords(p.state, w)))
	}
	return style.Block(strings.Join(lines, "\n"), w, p.h)
}

// sweepCommand is a sweep's dpso sweep command: the form's Spec as set
// with the swept field cleared (clear: --vary sets it at every point, and
// the CLI refuses both), then the sweep's own flags.
func sweepCommand(user spec.Spec, clear func(*spec.Spec), flags ...string) string {
	s := user.Clone()
	clear(&s)
	words := []string{"dpso", "sweep"}
	for _, a := range s.Args() {
		words = append(words, spec.ShellQuote(a))
	}
	return strings.Join(append(words, flags...), " ")
}

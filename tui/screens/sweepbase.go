package screens

import (
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// sweepBase is what the sweep screens share (the sweeps over n and ε,
// the clipping trade-off over C): a chart of the latest sweep of their
// kind, a sweep asked for when shown without one of the current Spec, and
// its export. What differs — the grid, the series and the panel — is the
// screen's own.
type sweepBase struct {
	common.Common
	common.Shown
	kind  runs.ScreenKind
	job   runs.JobMaker // the sweep r runs
	noun  string        // "sweep", "clipping sweep": what the messages call it
	base  string        // the exported files' base name
	Chart *chart.Chart
}

func newSweepBase(c common.Common, kind runs.ScreenKind, job runs.JobMaker, noun, base string, axes chart.Axes) sweepBase {
	s := sweepBase{Common: c, kind: kind, job: job, noun: noun, base: base, Chart: chart.New(c.Styles, common.FmtNum)}
	s.Chart.SetAxes(axes)
	return s
}

// Job is the screen's sweep.
func (s *sweepBase) Job(res spec.Resolved) (runs.Job, string) { return s.job(res) }

// SetSize sets the chart's size.
func (s *sweepBase) SetSize(w, h int) { s.Chart.SetSize(w, h) }

// View renders the chart.
func (s *sweepBase) View() string { return s.Chart.View() }

// ShortHelp is the keys that act on this screen.
func (s *sweepBase) ShortHelp() []key.Binding {
	return []key.Binding{s.KeyMap.Run, s.KeyMap.Pause, s.KeyMap.Export, s.KeyMap.Back}
}

// take is shown.take for this screen's sweeps.
func (s *sweepBase) take(msg tea.Msg) bool { return s.Shown.Take(msg, s.kind) }

// report is the finished sweep shown (nil: none).
func (s *sweepBase) Report() *engine.SweepReport {
	if r := s.Run; r != nil && r.Phase == runs.Done {
		return r.Sweep
	}
	return nil
}

// Activate asks for a sweep when there is none of the current Spec and
// none running, and the Spec has one (a sweep of ε needs a finite ε).
func (s *sweepBase) Activate() tea.Cmd {
	r := s.Run
	if r != nil && (r.Active() || runs.RunKey(r.Spec) == runs.RunKey(s.Spec)) {
		return nil
	}
	if _, why := s.job(s.Spec); why != "" {
		return nil
	}
	return common.Emit(common.RunRequestMsg{Make: s.job})
}

// Export is the finished sweep: its figure, and as JSON the document
// `dpso sweep --json` prints for it (report.Sweep; `--vary clip` for the
// clipping sweep).
func (s *sweepBase) Export() (*common.ExportJob, string) {
	rep := s.Report()
	if rep == nil {
		if s.Run != nil && s.Run.Phase == runs.Refused {
			return nil, "nothing to export: " + s.Run.Refusal
		}
		if _, why := s.job(s.Spec); why != "" && (s.Run == nil || !s.Run.Active()) {
			return nil, "nothing to export: " + why
		}
		return nil, "nothing to export yet: the " + s.noun + " has not finished"
	}
	return &common.ExportJob{Base: s.base, Data: report.Sweep(rep), Draw: func(w io.Writer, f plot.Format) error { return plot.WriteSweep(w, f, rep) }}, ""
}

// sweepPanel is what the sweep screens' panels share (slopesPanel,
// clipTable): the report the screen sets, or its state line while there
// is none, and the scrolling body (its viewport holds the lines under
// the title when they do not fit; its cache the rendered block).
type sweepPanel struct {
	common.ScrollPanel
	rep   *engine.SweepReport
	state string
}

// newSweepPanel returns an empty panel.
func newSweepPanel(c common.Common) sweepPanel {
	return sweepPanel{ScrollPanel: common.NewScrollPanel(c)}
}

// set sets what the panel shows (the screen sets it on every change,
// a new background colour included).
func (p *sweepPanel) set(rep *engine.SweepReport, state string) {
	p.rep, p.state = rep, state
	p.Cache.Invalidate()
}

// frame renders lines, the title's rule first, as the panel: whole where
// they fit, else the title, the rest in the viewport and a line that says
// how to scroll it.
func (p *sweepPanel) frame(lines []string) string { return p.frameHead(lines, 1) }

// frameHead is frame with the first head lines (the title's rule, then
// a table's header) held above the scrolled lines, so that a paged-down
// table's columns keep their names; where the panel is too short for
// them, a row of the body and the scroll line beneath, only the title is
// held.
func (p *sweepPanel) frameHead(lines []string, head int) string {
	if len(lines) <= p.H || p.H < 3 {
		p.Viewport.SetYOffset(0)
		return style.Block(strings.Join(lines, "\n"), p.W, p.H)
	}
	if head < 1 || p.H < head+2 {
		head = 1
	}
	common.FillScrolled(&p.Viewport, lines[head:], p.H-head+1)
	return common.ScrolledPanel(p.Styles, p.KeyMap, p.Viewport, strings.Join(lines[:head], "\n"), p.W, p.H, p.Presses())
}

// waiting renders the panel without a report: its title, what the sweep
// will do (intro) and the sweep's state line, whole (wrapped; scrolling
// where they do not fit).
func (p *sweepPanel) waiting(title, intro string) string {
	st, w := p.Styles, p.W
	lines := []string{style.Rule(*st, title, "", w, false)}
	lines = append(lines, style.WrapLines(st.Muted, intro, w)...)
	if p.state != "" {
		lines = append(lines, "")
		lines = append(lines, style.WrapLines(st.Warn, p.state, w)...)
	}
	return p.frame(lines) // whole, or scrolling with its marker
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

// pointTable lays out a sweep's points as a table (lipgloss/v2/table,
// without borders): the header, then a row a point, each row's first cell
// its mark ("★ ", "◀ " or two spaces); every column but the last takes at
// least widths[i] cells and a space after it, a wider cell widening its
// column. A number cut is a wrong number, so no cell is ever cut: a table
// wider than w cells wraps by columns — the columns that fit, then under
// them the key column (the swept value) again with the columns that did
// not, each block under its own muted header. Only a key column and one
// more wider than w is cut, at a word ("…").
func pointTable(st *style.Styles, header []string, rows [][]string, widths []int, w int) []string {
	for i := range rows { // a refused row has fewer cells
		for len(rows[i]) < len(header)+1 {
			rows[i] = append(rows[i], "")
		}
	}
	all := make([]int, len(header))
	for i := range all {
		all[i] = i
	}
	lines := tableBlock(st, header, rows, widths, all)
	if tableWidth(lines) <= w || len(header) < 3 {
		return fitLines(lines, w)
	}
	// Wrap by columns: each block the key column and the next columns
	// that fit beside it (at least one).
	var out []string
	for next := 1; next < len(header); {
		cols := []int{0, next}
		for next++; next < len(header); next++ {
			if tableWidth(tableBlock(st, header, rows, widths, append(cols, next))) > w {
				break
			}
			cols = append(cols, next)
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, fitLines(tableBlock(st, header, rows, widths, cols), w)...)
	}
	return out
}

// tableBlock renders the columns cols of pointTable's table (the mark
// column first), the header muted, every line's trailing spaces dropped.
func tableBlock(st *style.Styles, header []string, rows [][]string, widths []int, cols []int) []string {
	head := []string{""}
	least := make([]int, len(cols))
	for j, c := range cols {
		h := header[c]
		if c < len(widths) && j < len(cols)-1 {
			h = style.Pad(h, widths[c])
			least[j] = widths[c]
		}
		head = append(head, h)
	}
	body := make([][]string, len(rows))
	for i, r := range rows {
		body[i] = []string{r[0]}
		for _, c := range cols {
			body[i] = append(body[i], r[c+1])
		}
	}
	tb := table.New().Headers(head...).Rows(body...).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).BorderRow(false).
		StyleFunc(func(_, col int) lipgloss.Style {
			if col > 0 && col < len(cols) {
				return lipgloss.NewStyle().PaddingRight(1)
			}
			return lipgloss.NewStyle()
		})
	lines := strings.Split(tb.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	lines[0] = st.Muted.Render(lines[0])
	return lines
}

// tableWidth is the widest line's width in cells.
func tableWidth(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, lipgloss.Width(l))
	}
	return n
}

// fitLines cuts every line to w cells at a word (style.FitWords).
func fitLines(lines []string, w int) []string {
	for i, l := range lines {
		lines[i] = style.FitWords(l, w)
	}
	return lines
}

package chart

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/guptarohit/asciigraph"

	"dpso/tui/style"
)

// Kind is what a series is; it orders the drawing: the previous run's
// trace first (faint), prior work's bounds, then the lower and upper
// bounds (rates, constants set to 1: drawn only as slope guides, curves
// anchored to measured points, on sweeps), the certificate, the start
// line, the fitted lines, the runs last (on top).
type Kind int

// The kinds of series.
const (
	Prior Kind = iota
	Lower
	Upper
	Run
	// Start is F(w₀) − F*, the excess risk of doing nothing.
	Start
	// Cert is a certificate: the paper's explicit-constant bound at the
	// run's own parameters, which the measured curve must stay under. Like
	// prior work's bounds it stays in the legend, off scale, when it is
	// far above the curves.
	Cert
	// Trace is the previous run's curve, drawn faint under the others so
	// that a change of a parameter can be compared by eye.
	Trace
	// Fit is a line fitted to a run's points (a sweep's log-log fit).
	Fit
)

// drawOrder is the order series are drawn in (the last on top);
// legendOrder the order the legend lists them in.
var (
	drawOrder   = []Kind{Trace, Prior, Lower, Upper, Cert, Start, Fit, Run}
	legendOrder = []Kind{Run, Fit, Start, Cert, Upper, Lower, Prior, Trace}
)

// Point is one point of a series: X (gradient evaluations, or the swept
// parameter) and Y, the excess risk on a linear scale (the chart takes
// log10).
type Point struct{ X, Y float64 }

// Series is one line of a chart: a run (Points), or a bound, drawn as a
// horizontal line at Value or, when it has Points, as a curve (sweeps).
type Series struct {
	Label string
	Kind  Kind
	Color int     // palette index (style.Styles)
	Value float64 // bounds without Points: the bound's value (may be +Inf)
	// Points in increasing X.
	Points []Point
	// SE is the standard error of each point's Y (a run's points on a
	// scatter chart: drawn as an error bar Y ± SE); nil: none.
	SE []float64
	// Note replaces the value in the legend (e.g. a fitted slope).
	Note string
	// Tag follows the value in the legend, muted (e.g. the (ε', δ) a
	// solver's release is private at, in a comparison; "non-private
	// diagnostic" on a level measured on the user's rows).
	Tag string
	// Refused is a solver's refusal sentence, shown in the legend instead
	// of a line.
	Refused string
	// Err is a failure to show in the legend instead of a line.
	Err string
}

// Axes are a chart's axis labels and scales.
type Axes struct {
	YLabel, XLabel string
	// LogX draws X as log10 X; ZeroStart (with LogX) draws the points at
	// X = 0 (the start w₀) in the first column, left of a one-column break
	// in the log axis, whose first tick reads "0".
	LogX, ZeroStart bool
	// Labels writes one axis's tick values (in the axis's own units, the
	// values, not their logs) in one number format for the whole set; nil
	// writes each with the chart's number format.
	Labels func([]float64) []string
}

// Chart is a log-scale chart of excess risk: asciigraph with explicit
// width and height and finite values only, bounds drawn first as
// horizontal lines (or curves), runs last (the first run on top), and a
// legend, in the series' order, whose marks are
// the plot's own glyphs (Mark). The rendered string is cached and
// re-plotted only when the data (SetData), the title, the axes, the size
// or the styles change.
type Chart struct {
	st           *style.Styles
	num          func(float64) string // the legend's number format
	title, right string
	axes         Axes
	series       []Series
	xmin, xmax   float64
	scatter      bool   // curves as straight segments, runs with markers and error bars
	empty        string // shown when there is nothing to draw
	note         string // the legend's last line (what the marks mean)
	warn         string // a warning over the whole chart, kept whole (SetWarn)
	version      int

	w, h     int
	cacheKey cacheKey
	cache    string
	plots    int // number of times the plot was rendered (tests, benchmarks)
}

type cacheKey struct {
	version, w, h int
	dark, plain   bool
	theme         style.Theme
}

// New returns an empty chart of excess risk against gradient evaluations
// (log X with the start column); num formats the legend's values.
func New(st *style.Styles, num func(float64) string) *Chart {
	return &Chart{st: st, num: num, cacheKey: cacheKey{version: -1},
		axes: Axes{YLabel: "excess risk (log)", XLabel: "gradient evaluations (log)", LogX: true, ZeroStart: true}}
}

// SetScatter draws the curves as straight segments between their points,
// each run's points with a marker (Marker) and an error bar (Series.SE),
// instead of asciigraph's continuous lines (a sweep's few points, not a
// run's many checkpoints).
func (c *Chart) SetScatter(on bool) {
	if on != c.scatter {
		c.scatter = on
		c.version++
	}
}

// SetAxes sets the axis labels and scales.
func (c *Chart) SetAxes(a Axes) {
	c.axes = a
	c.version++
}

// SetSize sets the chart's size, its title line included.
func (c *Chart) SetSize(w, h int) { c.w, c.h = w, h }

// Size is the chart's size.
func (c *Chart) Size() (w, h int) { return c.w, c.h }

// SetTitle sets the chart's title and its right-hand remark.
func (c *Chart) SetTitle(title, right string) {
	if title != c.title || right != c.right {
		c.title, c.right = title, right
		c.version++
	}
}

// Title is the chart's title and its right-hand remark.
func (c *Chart) Title() (title, right string) { return c.title, c.right }

// SetData replaces the series and the x range [xmin, xmax] (in X's own
// units, also with LogX); empty is the message shown when nothing can be
// drawn.
func (c *Chart) SetData(series []Series, xmin, xmax float64, empty string) {
	c.series, c.xmin, c.xmax, c.empty = series, xmin, xmax, empty
	c.version++
}

// SetNote sets the legend's last line, in muted text: what the kinds of
// line mean (e.g. that the bounds are rates with constants set to 1). It
// is the first line cut when the legend does not fit.
func (c *Chart) SetNote(note string) {
	if note != c.note {
		c.note = note
		c.version++
	}
}

// SetWarn sets a warning about the whole chart (e.g. common.StaleNote:
// what is drawn is not of the form's parameters), shown whole under the
// title in the warning colour: it outranks every legend line, which is
// cut before it is ("" removes it).
func (c *Chart) SetWarn(warn string) {
	if warn != c.warn {
		c.warn = warn
		c.version++
	}
}

// Series are the chart's series, in the order given to SetData.
func (c *Chart) Series() []Series { return c.series }

// Plots is the number of times the plot was rendered (the cache's misses).
func (c *Chart) Plots() int { return c.plots }

// View renders the chart, from the cache when nothing changed.
func (c *Chart) View() string {
	k := cacheKey{c.version, c.w, c.h, c.st.Dark, c.st.Plain, c.st.Theme}
	if k == c.cacheKey {
		return c.cache
	}
	c.cache = c.render()
	c.cacheKey = k
	return c.cache
}

// Glyphs is the character set series i of kind k is drawn with, where i
// counts the series of the same kind (runs: the paper's first): runs draw
// asciigraph's lines and, without colour, the second run and later ones
// draw • × ◦ +; the upper bound ╌, the lower bound ┄, prior work ┈ and
// then ·, the start line ═, a certificate ╍, a fitted line ─, the
// previous run's trace ∙. Legends show Mark, two of the same glyph.
func Glyphs(k Kind, i int, plain bool) asciigraph.CharSet {
	switch k {
	case Run:
		if plain && i > 0 {
			return asciigraph.CreateCharSet([]string{"•", "×", "◦", "+"}[(i-1)%4])
		}
		return asciigraph.DefaultCharSet
	case Upper:
		return asciigraph.CreateCharSet("╌")
	case Lower:
		return asciigraph.CreateCharSet("┄")
	case Start:
		return asciigraph.CreateCharSet("═")
	case Cert:
		return asciigraph.CreateCharSet("╍")
	case Fit:
		return asciigraph.CreateCharSet("─")
	case Trace:
		return asciigraph.CreateCharSet("∙")
	}
	return asciigraph.CreateCharSet([]string{"┈", "·"}[i%2])
}

// Mark is the legend's mark of series i of kind k: two of the horizontal
// glyph the plot draws it with (see Glyphs).
func Mark(k Kind, i int, plain bool) string {
	h := Glyphs(k, i, plain).Horizontal
	return h + h
}

// Marker is the glyph a scatter chart draws at each point of run i (the
// paper's solver ●, then ■ ▲ ◆ ▼); the previous run's points are ○.
func Marker(k Kind, i int) string {
	if k == Trace {
		return "○"
	}
	return []string{"●", "■", "▲", "◆", "▼"}[i%5]
}

// scatterMark is the legend's mark of series i of kind k on a scatter
// chart: a run's marker between two of its segments' dots, another
// series' Mark.
func scatterMark(k Kind, i int, plain bool) string {
	switch k {
	case Run:
		return "·" + Marker(k, i) + "·"
	case Trace:
		return Marker(k, i)
	}
	return Mark(k, i, plain)
}

// ansi is the asciigraph colour of palette index i (Default when plain, so
// the plot carries no escape codes).
func ansi(st *style.Styles, i int) asciigraph.AnsiColor {
	if st.Plain {
		return asciigraph.Default
	}
	return asciigraph.AnsiColor(i)
}

// scaled is a series prepared for the log plot.
type scaled struct {
	s       *Series
	glyph   int          // the index among the series of its kind (Glyphs)
	logv    float64      // horizontal bounds: log10 Value
	pts     []Point      // runs and curves: (X, log10 Y) of the drawable points
	bars    [][2]float64 // scatter runs: log10 (Y − SE, Y + SE) of each of pts (NaN: none)
	dropped int          // points ≤ 0 (the log scale cannot show them)
	bad     int          // points not finite (NaN, ±Inf)
	off     int          // bounds: +1 above, −1 below the plotted range
	last    float64      // runs: the last finite excess risk (linear)
	under   string       // bound lines: the mark of the line drawn over it on the same row
}

// errBar is the log10 ends of the error bar y ± se[j] (NaN where there
// is none; the lower end NaN when y − se ≤ 0, which the log scale cannot
// show: the bar then runs to the bottom of the plot).
func errBar(y float64, se []float64, j int) [2]float64 {
	bar := [2]float64{math.NaN(), math.NaN()}
	if j >= len(se) || !(se[j] > 0) || math.IsInf(se[j], 0) {
		return bar
	}
	if y-se[j] > 0 {
		bar[0] = math.Log10(y - se[j])
	} else {
		bar[0] = math.Inf(-1)
	}
	bar[1] = math.Log10(y + se[j])
	return bar
}

func (c *Chart) render() string {
	c.plots++
	w, h := c.w, c.h
	if w < 10 || h < 3 {
		return style.Block("", w, h)
	}
	st := c.st
	lines := []string{style.Rule(*st, c.title, c.right, w, false)}

	// Prepare the series: log10, finite, positive values only.
	sc := make([]scaled, len(c.series))
	count := map[Kind]int{}
	for i := range c.series {
		k := c.series[i].Kind
		sc[i].glyph = count[k]
		count[k]++
	}
	var core, prior []float64
	xmin, xmax := c.xmin, c.xmax
	if c.axes.LogX {
		xmin, xmax = math.Log10(xmin), math.Log10(xmax)
	}
	for i := range c.series {
		s := &c.series[i]
		x := &sc[i]
		x.s = s
		if s.Kind == Run || len(s.Points) > 0 {
			x.last = math.NaN()
			x.logv = math.NaN()
			for j, p := range s.Points {
				px := p.X
				if c.axes.LogX {
					px = math.Log10(px) // −Inf at X = 0: the start column (zeroStart)
				}
				okX := !math.IsNaN(px) && !math.IsInf(px, 1) && (!math.IsInf(px, -1) || c.axes.ZeroStart)
				if p.Y > 0 && !math.IsInf(p.Y, 0) && okX {
					x.pts = append(x.pts, Point{px, math.Log10(p.Y)})
					if s.Kind == Prior || s.Kind == Cert {
						prior = append(prior, math.Log10(p.Y))
					} else {
						core = append(core, math.Log10(p.Y))
					}
					if c.scatter && s.Kind == Run {
						bar := errBar(p.Y, s.SE, j)
						x.bars = append(x.bars, bar)
						if !math.IsNaN(bar[1]) {
							core = append(core, bar[1])
						}
					}
					x.last = p.Y
				} else if p.Y <= 0 && okX {
					x.dropped++
				} else {
					x.bad++
				}
			}
			continue
		}
		x.logv = math.NaN()
		if s.Value > 0 && !math.IsInf(s.Value, 0) {
			x.logv = math.Log10(s.Value)
			if s.Kind == Prior || s.Kind == Cert {
				prior = append(prior, x.logv)
			} else {
				core = append(core, x.logv)
			}
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range core {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if len(core) == 0 { // only prior bounds: they are the core
		for _, v := range prior {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	// Prior bounds far from the paper's (e.g. L_f·D/√n = 4·10¹⁸ against
	// 0.2) would flatten everything: they stay in the legend, off scale.
	const reach = 3 // decades
	if len(core) > 0 {
		clo, chi := lo, hi
		for i := range sc {
			x := &sc[i]
			if x.s.Kind != Prior && x.s.Kind != Cert {
				continue
			}
			vlo, vhi := x.logv, x.logv
			if len(x.pts) > 0 {
				vlo, vhi = x.pts[0].Y, x.pts[0].Y
				for _, p := range x.pts {
					vlo, vhi = math.Min(vlo, p.Y), math.Max(vhi, p.Y)
				}
			}
			switch {
			case math.IsNaN(vlo):
			case vhi > chi+reach:
				x.off = 1
			case vlo < clo-reach:
				x.off = -1
			default:
				lo, hi = math.Min(lo, vlo), math.Max(hi, vhi)
			}
		}
	}
	drawable := !math.IsInf(lo, 0) && !math.IsInf(hi, 0)
	if drawable {
		if hi-lo < 1 {
			mid := (hi + lo) / 2
			lo, hi = mid-0.5, mid+0.5
		}
		m := (hi - lo) * 0.04
		lo, hi = lo-m, hi+m
		for i := range sc {
			x := &sc[i]
			if x.s.Kind != Run && x.off == 0 && len(x.pts) == 0 && !math.IsNaN(x.logv) {
				switch {
				case x.logv > hi:
					x.off = 1
				case x.logv < lo:
					x.off = -1
				}
			}
		}
	}

	// Legend and notes first: they decide the plot's height. The plot
	// keeps at least 4 rows (plus its x axis) when the legend is long: the
	// legend is then cut, its last line saying so. A bound line drawn over
	// by another on the same row says so in the legend, which can change
	// the legend's height: twice is enough.
	axis := st.Muted.Render(c.axes.YLabel + " ↑")
	if xl := c.axes.XLabel + " →"; lipgloss.Width(c.axes.YLabel)+lipgloss.Width(xl)+4 <= w {
		axis = style.Pad(axis, w-lipgloss.Width(xl)) + st.Muted.Render(xl)
	}
	const minPlot = 4 + 2
	if c.warn != "" {
		lines = append(lines, style.WrapLines(st.Warn, c.warn, w)...)
	}
	var legend []string
	plotH := 0
	for pass := 0; pass < 3; pass++ {
		legend = c.legend(sc, w, longLines(w))
		plotH = h - len(lines) - 1 - len(legend)
		if plotH < minPlot && len(legend) > 1 {
			// Refusals on one line each first, then whole lines dropped
			// under a line that says so.
			legend = c.legend(sc, w, 1)
			plotH = h - len(lines) - 1 - len(legend)
			if plotH < minPlot {
				legend = cutLegend(st, legend, len(legend)-(minPlot-plotH), w)
			}
			plotH = h - len(lines) - 1 - len(legend)
		}
		if !drawable || pass == 2 {
			break
		}
		changed := false
		if c.scatter {
			changed = c.scatterCover(sc, lo, hi, xmin, xmax, w, plotH)
		} else {
			changed = overdrawn(sc, lo, hi, fitHeight(plotH-2))
			if plotH >= 3 && xmax > xmin {
				changed = c.hiddenLines(sc, lo, hi, xmin, xmax, w, plotH) || changed
			}
		}
		if !changed {
			break
		}
	}
	switch {
	case !drawable || !(xmax > xmin):
		msg := c.empty
		if msg == "" {
			msg = "nothing to draw: no finite positive value"
		}
		lines = append(lines, "")
		for _, l := range style.Wrap(msg, w-2) {
			lines = append(lines, "  "+st.Muted.Render(l))
		}
	case plotH < 3:
		lines = append(lines, st.Muted.Render("(enlarge the terminal to see the chart)"))
	default:
		lines = append(lines, axis)
		lines = append(lines, c.plot(sc, lo, hi, xmin, xmax, w, plotH)...)
	}
	lines = append(lines, legend...)
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// scatterCover draws a scatter chart's series on a blank canvas of the
// plot's size (as plot will) and records on each series hidden everywhere
// by later ones the mark of the one over it (canvas.cover); it reports
// whether that changed anything.
func (c *Chart) scatterCover(sc []scaled, lo, hi, xmin, xmax float64, w, plotH int) bool {
	rows := fitHeight(plotH - 2)
	pw := plotWidth(w, c.yAxis(lo, hi, rows).width)
	if pw < 4 || plotH < 3 {
		return false
	}
	cv := blankCanvas(rows, pw, lo, hi, c.axisMin(xmin, xmax, pw), xmax)
	cv.draw(sc, c.st)
	return cv.cover(sc, c.st)
}

// hiddenLines finds the horizontal lines that a run's curve draws over
// (a flat run on the certificate's row): it plots the chart as plot will,
// and a line of which less than a tenth shows is recorded as under the
// run whose columns lie on its row most often. It reports
// whether that changed anything.
func (c *Chart) hiddenLines(sc []scaled, lo, hi, xmin, xmax float64, w, plotH int) bool {
	out := c.plot(sc, lo, hi, xmin, xmax, w, plotH)
	if len(out) < 3 {
		return false
	}
	text := style.StripANSI(strings.Join(out[:len(out)-2], "\n"))
	height := fitHeight(plotH - 2)
	pw := plotWidth(w, c.yAxis(lo, hi, height).width)
	axMin := c.axisMin(xmin, xmax, pw)
	changed := false
	for i := range sc {
		x := &sc[i]
		if x.s.Kind == Run || len(x.pts) > 0 || x.off != 0 || math.IsNaN(x.logv) || x.under != "" {
			continue
		}
		if strings.Count(text, Glyphs(x.s.Kind, x.glyph, c.st.Plain).Horizontal)*10 >= pw {
			continue // a tenth of the line or more shows
		}
		best, most := -1, 0
		for j := range sc {
			run := &sc[j]
			if run.s.Kind != Run || len(run.pts) == 0 {
				continue
			}
			n := 0
			for _, v := range columns(run.pts, axMin, xmax, pw) {
				if !math.IsNaN(v) && rowOf(v, lo, hi, height) == rowOf(x.logv, lo, hi, height) {
					n++
				}
			}
			if n > most {
				best, most = j, n
			}
		}
		if best >= 0 {
			x.under = sc[best].s.Label
			changed = true
		}
	}
	return changed
}

package chart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/guptarohit/asciigraph"

	"dpso/tui/style"
)

// TestColumnsKeepSpikes: 1000 points on 10 columns; a spike (and a dip)
// inside one column is drawn, not averaged away; gaps between columns are
// interpolated linearly; columns beyond the data stay blank (NaN).
func TestColumnsKeepSpikes(t *testing.T) {
	var pts []Point
	for i := 0; i < 1000; i++ {
		y := -1.0
		switch i {
		case 333:
			y = 5 // a spike in column 3 (x = 333/999·9 ≈ 3.0)
		case 777:
			y = -7 // a dip in column 7
		}
		pts = append(pts, Point{float64(i), y})
	}
	col := columns(pts, 0, 999, 10)
	for j, v := range col {
		want := -1.0
		switch j {
		case 3:
			want = 5
		case 7:
			want = -7
		}
		if v != want {
			t.Errorf("column %d = %v, want %v", j, v, want)
		}
	}
	// Two points far apart: the columns between are a straight line.
	col = columns([]Point{{0, 0}, {4, 4}}, 0, 8, 9)
	for j := 0; j <= 4; j++ {
		if col[j] != float64(j) {
			t.Errorf("interpolated column %d = %v, want %d", j, col[j], j)
		}
	}
	for j := 5; j < 9; j++ {
		if !math.IsNaN(col[j]) {
			t.Errorf("column %d beyond the data = %v, want NaN", j, col[j])
		}
	}
	// The start (X = −Inf on the log axis) goes to the first column.
	col = columns([]Point{{math.Inf(-1), 2}, {1, 1}, {3, 0}}, 1, 3, 5)
	if col[0] != 2 || col[4] != 0 {
		t.Errorf("start column: %v", col)
	}
}

// TestChartLegendAndGuards: bounds are drawn first and listed with their
// values; an infinite bound is "∞ (not drawn)", a far one "off scale";
// points ≤ 0 or not finite are dropped and counted; a refusal is shown in
// full.
func TestChartLegendAndGuards(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetSize(90, 20)
	c.SetTitle("Excess risk", "")
	c.SetData([]Series{
		{Label: "upper bound", Kind: Upper, Value: 0.2},
		{Label: "lower bound", Kind: Lower, Value: 0.05},
		{Label: "Lipschitz L_f (prior)", Kind: Prior, Value: 4e18},
		{Label: "KLZ21 (prior)", Kind: Prior, Value: math.Inf(1)},
		{Label: "acsa", Kind: Run, Points: []Point{{0, 0}, {10, 0.3}, {20, math.NaN()}, {40, -1}, {80, 0.01}, {160, math.Inf(1)}}},
		{Label: "lipschitz-dpsgd", Kind: Run, Refused: "L_f = ∞: its noise would be infinite"},
	}, 10, 160, "")
	v := style.StripANSI(c.View())
	for _, want := range []string{
		"excess risk (log)", "gradient evaluations (log)",
		"── acsa 0.01", "╌╌ upper bound 0.2", "┄┄ lower bound 0.05",
		"↑ Lipschitz L_f (prior) 4e+18 (off scale)", "KLZ21 (prior) ∞ (not drawn)",
		"✗ lipschitz-dpsgd refused: L_f = ∞: its noise would be infinite",
		"2 points ≤ 0, 2 not finite not drawn (log scale)",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("chart lacks %q:\n%s", want, v)
		}
	}
	checkFits(t, v, 90, 20)
}

// TestChartCache: the plot is rendered once per data or size change.
func TestChartCache(t *testing.T) {
	st := style.NewTheme(style.Dark, true, false)
	c := New(&st, testNum)
	c.SetSize(80, 20)
	c.SetData([]Series{{Label: "upper bound", Kind: Upper, Value: 0.2}, {Label: "r", Kind: Run, Points: []Point{{1, 1}, {2, 0.5}}}}, 1, 2, "")
	for range 5 {
		c.View()
	}
	if c.Plots() != 1 {
		t.Errorf("5 views of the same data: %d plots", c.Plots())
	}
	c.SetSize(81, 20)
	c.View()
	c.SetData(c.series, 1, 2, "")
	c.View()
	c.View()
	if c.Plots() != 3 {
		t.Errorf("after a resize and new data: %d plots, want 3", c.Plots())
	}
}

// TestChartNeverPanics feeds random series — empty, one point, NaN, ±Inf,
// zeros, negatives, huge and tiny values, equal values, standard errors
// of every kind — at random sizes, as line and as scatter charts, and
// checks that the chart renders to exactly its size.
func TestChartNeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	specials := []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, 1e300, 1, 1}
	for iter := 0; iter < 400; iter++ {
		theme, dark := style.Light, iter%2 == 0
		if dark {
			theme = style.Dark
		}
		st := style.NewTheme(theme, dark, iter%3 == 0)
		c := New(&st, testNum)
		c.SetScatter(iter%4 == 1)
		w, h := 10+r.IntN(200), 3+r.IntN(60)
		c.SetSize(w, h)
		var series []Series
		for range r.IntN(6) {
			kind := Kind(r.IntN(4))
			s := Series{Label: "s", Kind: kind, Color: r.IntN(255)}
			if kind == Run || r.IntN(4) == 0 {
				for range r.IntN(300) {
					y := math.Pow(10, r.Float64()*20-10)
					if r.IntN(5) == 0 {
						y = specials[r.IntN(len(specials))]
					}
					x := r.Float64() * 1e6
					if r.IntN(10) == 0 {
						x = specials[r.IntN(len(specials))]
					}
					s.Points = append(s.Points, Point{x, y})
					s.SE = append(s.SE, []float64{0, y / 2, 2 * y, math.NaN(), math.Inf(1)}[r.IntN(5)])
				}
			} else {
				s.Value = specials[r.IntN(len(specials))]
				if r.IntN(2) == 0 {
					s.Value = math.Pow(10, r.Float64()*40-20)
				}
			}
			series = append(series, s)
		}
		xmin, xmax := r.Float64()*10, r.Float64()*1e6
		if r.IntN(10) == 0 {
			xmin, xmax = 5, 5
		}
		c.SetData(series, xmin, xmax, "")
		v := c.View()
		if strings.Contains(v, "could not be drawn") {
			t.Fatalf("iteration %d: asciigraph panicked: %s", iter, v)
		}
		lines := strings.Split(v, "\n")
		if len(lines) != h {
			t.Fatalf("iteration %d (%d×%d): %d lines", iter, w, h, len(lines))
		}
	}
}

// TestLogTicks: the ticks of a log axis are real values at decades when
// three or more fall inside (thinned to round exponents when there are
// too many), else at 1-2-5 steps, never 0, never more than asked for.
func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi float64 // log10
		most   int
		want   []float64
	}{
		{"decades", -4, -0.5, 6, []float64{1e-4, 1e-3, 1e-2, 0.1}},
		{"two decades: 1-2-5", -2.1, -0.9, 6, []float64{0.01, 0.02, 0.05, 0.1}},
		{"1-2-5 too many: the decades", -2.1, -0.9, 3, []float64{0.01, 0.1}},
		{"under a decade: 1-2-5", math.Log10(625), 4, 6, []float64{1000, 2000, 5000, 10000}},
		{"many decades thinned to even exponents", -12, 0, 7, []float64{1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1}},
		{"no decade nor 1-2-5 inside: 1…9", math.Log10(2.5), math.Log10(4.5), 4, []float64{3, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := LogTicks(c.lo, c.hi, c.most)
			if len(got) != len(c.want) {
				t.Fatalf("LogTicks(%v, %v, %d) = %v, want %v", c.lo, c.hi, c.most, got, c.want)
			}
			for i := range got {
				if math.Abs(got[i]/c.want[i]-1) > 1e-9 {
					t.Errorf("LogTicks(%v, %v, %d) = %v, want %v", c.lo, c.hi, c.most, got, c.want)
				}
			}
		})
	}
	if got := LogTicks(math.NaN(), 1, 4); got != nil {
		t.Errorf("LogTicks(NaN, 1) = %v", got)
	}
}

// TestYAxisReadsValues: the y axis labels a handful of rows with real
// values (1-2-5 steps or decades, never a log10 exponent, never 0), every
// other row blank, at most one label every second row.
func TestYAxisReadsValues(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	for _, h := range []int{12, 20, 31} {
		t.Run(fmt.Sprintf("height=%d", h), func(t *testing.T) {
			c := New(&st, testNum)
			c.SetSize(80, h)
			c.SetData([]Series{{Label: "run", Kind: Run, Points: []Point{{1, 0.5}, {10, 1.6e-6}, {100, 0.00238}}}}, 1, 100, "")
			var labels []string
			rows := 0
			for _, l := range plotLines(style.StripANSI(c.View())) {
				rows++
				if lab := strings.TrimSpace(l[:strings.IndexAny(l, "┤┼")]); lab != "" {
					labels = append(labels, lab)
				}
			}
			if len(labels) < 2 || len(labels) > 6 || len(labels) > (rows+1)/2 {
				t.Errorf("height %d: %d labels on %d rows: %q", h, len(labels), rows, labels)
			}
			for _, lab := range labels {
				v, err := strconv.ParseFloat(lab, 64)
				if err != nil || !(v > 0) {
					t.Errorf("height %d: label %q is not a positive value", h, lab)
					continue
				}
				if m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9)); math.Abs(m-1) > 1e-9 && math.Abs(m-2) > 1e-9 && math.Abs(m-5) > 1e-9 {
					t.Errorf("height %d: label %q is not 1, 2 or 5 times a power of ten", h, lab)
				}
			}
		})
	}
}

// testNum is the legend's number format in these tests.
func testNum(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// checkFits asserts that a rendered block has h lines of at most w cells.
func checkFits(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Errorf("%d×%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("%d×%d: line %d is %d cells: %q", w, h, i, lw, style.StripANSI(l))
		}
	}
}

// TestLegendMarksAreThePlotsGlyphs: without colour (NO_COLOR) the series
// are told apart by their glyphs only, so every legend mark must be the
// glyph its series is drawn with, and every run's glyph must be on the
// plot; the marks of the series differ from each other.
func TestLegendMarksAreThePlotsGlyphs(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetSize(100, 30)
	run := func(scale float64) []Point {
		var pts []Point
		for j := 1; j <= 40; j++ {
			pts = append(pts, Point{float64(j * 100), scale / float64(j)})
		}
		return pts
	}
	c.SetData([]Series{
		{Label: "upper bound", Kind: Upper, Value: 30},
		{Label: "lower bound", Kind: Lower, Value: 1e-4},
		{Label: "KLZ21 (prior)", Kind: Prior, Value: 10},
		{Label: "L_f (prior)", Kind: Prior, Value: 3},
		{Label: "acsa", Kind: Run, Points: run(1)},
		{Label: "nonprivate-schedule", Kind: Run, Points: run(0.1)},
		{Label: "klz-gd", Kind: Run, Points: run(0.01)},
	}, 100, 4000, "")
	v := style.StripANSI(c.View())
	lines := strings.Split(v, "\n")
	// The plot is the lines with a y axis; the legend comes after the
	// x axis's labels.
	var plot, legend []string
	inLegend := false
	for _, l := range lines[1:] {
		switch {
		case strings.Contains(l, "└"):
			inLegend = true
		case inLegend:
			legend = append(legend, l)
		case strings.ContainsAny(l, "┤┼"):
			plot = append(plot, l)
		}
	}
	plotText, legendText := strings.Join(plot, "\n"), strings.Join(legend, "\n")
	seen := map[string]string{}
	for _, c := range []struct {
		label string
		kind  Kind
		i     int
	}{{"upper bound", Upper, 0}, {"lower bound", Lower, 0}, {"KLZ21 (prior)", Prior, 0}, {"L_f (prior)", Prior, 1}, {"acsa", Run, 0}, {"nonprivate-schedule", Run, 1}, {"klz-gd", Run, 2}} {
		mark := Mark(c.kind, c.i, true)
		if !strings.Contains(legendText, mark+" "+c.label) {
			t.Errorf("legend lacks %q:\n%s", mark+" "+c.label, legendText)
		}
		if other, ok := seen[mark]; ok {
			t.Errorf("%s and %s share the mark %q", other, c.label, mark)
		}
		seen[mark] = c.label
		if c.kind == Run && !strings.Contains(plotText, Glyphs(c.kind, c.i, true).Horizontal) {
			t.Errorf("the plot has no %q for %s:\n%s", Glyphs(c.kind, c.i, true).Horizontal, c.label, plotText)
		}
	}
	if strings.Contains(v, "━━") {
		t.Errorf("a legend mark that no series is drawn with:\n%s", v)
	}
}

// TestFirstRunOnTop: where runs cross, the first run (the paper's) is the
// one drawn; the legend lists the runs in their given order.
func TestFirstRunOnTop(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetSize(60, 12)
	flat := []Point{{1, 0.1}, {1000, 0.1}}
	c.SetData([]Series{
		{Label: "paper", Kind: Run, Points: flat},
		{Label: "baseline", Kind: Run, Points: flat},
	}, 1, 1000, "")
	v := style.StripANSI(c.View())
	plot := v[:strings.Index(v, "└")]
	if strings.Contains(plot, Glyphs(Run, 1, true).Horizontal) {
		t.Errorf("the second run is drawn over the first:\n%s", v)
	}
	if i, j := strings.Index(v, "── paper"), strings.Index(v, "•• baseline"); i < 0 || j < i {
		t.Errorf("legend order:\n%s", v)
	}
}

// TestOverdrawnBoundSaysSo: a bound line that lands on the same plot row
// as one drawn after it is hidden by it; the legend says which (the rows
// follow asciigraph's rounding, see overdrawn), and lines on rows of
// their own say nothing.
func TestOverdrawnBoundSaysSo(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetSize(80, 14) // 8 rows for six decades: 0.058 and 0.0622 share one
	c.SetData([]Series{
		{Label: "upper bound", Kind: Upper, Value: 0.0622},
		{Label: "lower bound", Kind: Lower, Value: 0.058},
		{Label: "KLZ21 (prior)", Kind: Prior, Value: 1e-6},
		{Label: "acsa", Kind: Run, Points: []Point{{1, 0.5}, {1000, 1e-6}}},
	}, 1, 1000, "")
	v := style.StripANSI(c.View())
	if !strings.Contains(v, "┄┄ lower bound 0.058 (hidden by ╌╌ at this height)") {
		t.Errorf("the hidden lower bound does not say so:\n%s", v)
	}
	if strings.Contains(strings.Join(plotLines(v), "\n"), "┄") {
		t.Errorf("the lower bound is on the plot after all (the test's premise is wrong):\n%s", v)
	}
	if strings.Contains(v, "upper bound 0.0622 (under") || strings.Contains(v, "(prior) 1e-06 (under") {
		t.Errorf("a visible line says it is hidden:\n%s", v)
	}
}

// plotLines are the lines of a rendered chart with a y axis.
func plotLines(v string) []string {
	var out []string
	for _, l := range strings.Split(v, "\n") {
		if strings.ContainsAny(l, "┤┼") {
			out = append(out, l)
		}
	}
	return out
}

// TestSparkline: the lowest value shows one eighth, the highest fills the
// column, a constant series is flat at half height, and the width is the
// one asked for whatever the series' length.
func TestSparkline(t *testing.T) {
	for _, c := range []struct {
		name   string
		ys     []float64
		lo, hi float64
		w, h   int
		want   []string
	}{
		{"rising, stretched", []float64{0, 1}, 0, 1, 4, 1, []string{"▁▁██"}},
		{"two lines", []float64{0, 0.5, 1}, 0, 1, 3, 2, []string{"  █", "▁██"}},
		{"sampled", []float64{1, 0, 1, 0}, 0, 1, 2, 1, []string{"██"}},
		{"constant", []float64{3, 3}, 3, 3, 2, 2, []string{"  ", "██"}},
		{"not finite", []float64{math.NaN()}, 0, 1, 1, 1, []string{"▄"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Sparkline(c.ys, c.lo, c.hi, c.w, c.h)
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		})
	}
	if Sparkline(nil, 0, 1, 3, 1) != nil || Sparkline([]float64{1}, 0, 1, 0, 1) != nil {
		t.Error("an empty sparkline is not nil")
	}
}

// TestBoundRowMatchesLabel: a horizontal bound is drawn on the row its
// value falls on by the y labels: the rows are a linear log10 scale
// through the labelled rows (asciigraph rounds the value and the lower
// end separately, which once drew lines up to a row away from their
// value).
func TestBoundRowMatchesLabel(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	for _, h := range []int{16, 20, 24, 31} {
		for _, v := range []float64{0.219, 0.0622, 0.0354, 0.0162, 0.486, 0.281} {
			c := New(&st, testNum)
			c.SetSize(90, h)
			c.SetData([]Series{
				{Label: "bound", Kind: Upper, Value: v},
				{Label: "run", Kind: Run, Points: []Point{{1, 0.5}, {10, 1.6e-6}, {100, 0.00238}}},
			}, 1, 100, "")
			row := -1
			var labelRows []int
			var labelVals []float64
			for r, l := range plotLines(style.StripANSI(c.View())) {
				i := strings.IndexAny(l, "┤┼")
				if lab := strings.TrimSpace(l[:i]); lab != "" {
					y, err := strconv.ParseFloat(lab, 64)
					if err != nil {
						t.Fatalf("label %q", lab)
					}
					labelRows, labelVals = append(labelRows, r), append(labelVals, math.Log10(y))
				}
				if strings.Contains(l, "╌") {
					row = r
				}
			}
			if row < 0 || len(labelRows) < 2 {
				t.Fatalf("h %d, v %v: no bound row or fewer than 2 labels", h, v)
			}
			n := len(labelRows) - 1
			perRow := (labelVals[0] - labelVals[n]) / float64(labelRows[n]-labelRows[0])
			want := float64(labelRows[0]) + (labelVals[0]-math.Log10(v))/perRow
			// Each label is within half a row of its own value: allow that
			// twice over the interpolation.
			if math.Abs(float64(row)-want) > 1+1e-9 {
				t.Errorf("h %d: bound %v drawn on row %d, its value's row is %.2f", h, v, row, want)
			}
		}
	}
}

// TestScatterGuidesUnderMeasured: on a scatter chart the slope guides
// (shape only) are drawn under the start line and the fitted line, which
// stay visible where a guide crosses them, and the legend says the guide
// is the hidden one.
func TestScatterGuidesUnderMeasured(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetScatter(true)
	c.SetSize(80, 22)
	pts := []Point{{100, 0.1}, {1000, 0.03}, {10000, 0.01}}
	c.SetData([]Series{
		{Label: "upper", Kind: Upper, Points: pts, Note: "shape"},
		{Label: "w₀", Kind: Start, Points: []Point{{100, 0.1}, {10000, 0.1}}, Note: "start"},
		{Label: "fitted line", Kind: Fit, Points: pts, Note: "fit"},
		{Label: "paper", Kind: Run, Points: pts},
	}, 100, 10000, "")
	v := style.StripANSI(c.View())
	plot := strings.Join(plotLines(v), "\n")
	for _, g := range []string{"═", "─"} {
		if !strings.Contains(plot, g) {
			t.Errorf("no %s cell: a slope guide overdraws a measured line:\n%s", g, v)
		}
	}
	if !strings.Contains(v, "upper shape (hidden by") || strings.Contains(v, "fitted line fit (hidden by") {
		t.Errorf("the legend does not say the guide is the hidden one:\n%s", v)
	}
}

// TestScatterChart: a scatter chart marks each run's points (● for the
// first run, ■ for the second, drawn apart when they fall on one cell),
// draws each point's error bar (│ over Y ± SE) and straight segments
// between the points, and a curve hidden everywhere by a later one says
// under which in the legend.
func TestScatterChart(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetScatter(true)
	c.SetSize(80, 22)
	pts := []Point{{100, 0.1}, {1000, 0.03}, {10000, 0.01}}
	guide := []Point{{100, 0.2}, {1000, 0.06}, {10000, 0.02}}
	c.SetData([]Series{
		{Label: "lower", Kind: Lower, Points: guide, Note: "shape"},
		{Label: "upper", Kind: Upper, Points: guide, Note: "shape"},
		{Label: "paper", Kind: Run, Points: pts, SE: []float64{0.05, 0, 0}},
		{Label: "baseline", Kind: Run, Points: pts},
	}, 100, 10000, "")
	v := style.StripANSI(c.View())
	plot := strings.Join(plotLines(v), "\n")
	if strings.Count(plot, "●") != 3 || strings.Count(plot, "■") != 3 {
		t.Errorf("the markers are not all drawn (3 ● and 3 ■, apart):\n%s", v)
	}
	if !strings.Contains(plot, "│") || !strings.Contains(plot, "·") {
		t.Errorf("no error bar or no segment:\n%s", v)
	}
	if !strings.Contains(v, "┄┄ lower shape (hidden by ╌╌ at this height)") || strings.Contains(v, "upper shape (under") {
		t.Errorf("the hidden curve does not say where it is:\n%s", v)
	}
	if !strings.Contains(v, "·●· paper") || !strings.Contains(v, "·■· baseline") {
		t.Errorf("the legend's marks are not the markers:\n%s", v)
	}
	checkFits(t, v, 80, 22)
}

// TestLineUnderARunSaysSo: a horizontal line that a flat run draws over
// everywhere (the certificate on the row of a run that hardly moves) is
// said to be under that run in the legend; a line the plot shows is not.
func TestLineUnderARunSaysSo(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	c := New(&st, testNum)
	c.SetSize(80, 16)
	c.SetData([]Series{
		{Label: "certified ≤", Kind: Cert, Value: 0.129},
		{Label: "w₀", Kind: Start, Value: 0.5},
		{Label: "flat", Kind: Run, Points: []Point{{1, 0.13}, {1000, 0.128}}},
		{Label: "falling", Kind: Run, Points: []Point{{1, 0.5}, {1000, 1e-4}}},
	}, 1, 1000, "")
	v := style.StripANSI(c.View())
	if !strings.Contains(v, "╍╍ certified ≤ 0.129 (hidden by flat at this height)") {
		t.Errorf("the hidden certificate does not say so:\n%s", v)
	}
	if strings.Contains(v, "w₀ 0.5 (under") {
		t.Errorf("a visible line says it is hidden:\n%s", v)
	}
}

// TestRowOfIsAsciigraphs: rowOf places a value on the row asciigraph
// draws it on — values given from lo, LowerBound 0, UpperBound hi − lo, as
// plot gives them — over random ranges and heights (fixed seed) and on
// the rounding's ties, (v − lo)·ratio = k + ½.
func TestRowOfIsAsciigraphs(t *testing.T) {
	drawnRow := func(v, lo, hi float64, rows int) int {
		out := asciigraph.PlotMany([][]float64{{v - lo, v - lo}}, asciigraph.Width(2), asciigraph.Height(rows),
			asciigraph.LowerBound(0), asciigraph.UpperBound(hi-lo), asciigraph.SeriesChars(asciigraph.CreateCharSet("*")))
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if strings.Contains(l, "*") {
				return len(lines) - 1 - i
			}
		}
		return -1
	}
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(v, lo, hi float64, rows int) {
		t.Helper()
		if got, want := rowOf(v, lo, hi, rows), drawnRow(v, lo, hi, rows); got != want {
			t.Fatalf("v = %v on [%v, %v], %d rows: rowOf %d, asciigraph draws it on row %d", v, lo, hi, rows, got, want)
		}
	}
	for range 2000 {
		lo := -6 + 8*rng.Float64()
		hi := lo + 0.1 + 10*rng.Float64()
		rows := 1 + rng.IntN(40)
		check(lo+(hi-lo)*rng.Float64(), lo, hi, rows)
		k := rng.IntN(rows)
		check(lo+(float64(k)+0.5)*(hi-lo)/float64(rows), lo, hi, rows)
	}
}

// TestLegendLongRefusalMarked: a refusal longer than the legend's room
// (one line on a narrow chart, two on a wide one) is cut at a word with
// one "…" and the FullMark, never with a doubled "… …" and no way to the
// rest (the help gives it whole).
func TestLegendLongRefusalMarked(t *testing.T) {
	reason := "solver: klz-gd is gradient descent on the smooth problem; it needs the loss to be differentiable and the hinge loss is not"
	for _, w := range []int{46, 90} {
		t.Run(fmt.Sprintf("width %d", w), func(t *testing.T) {
			st := style.NewTheme(style.Dark, true, true)
			c := New(&st, testNum)
			c.SetSize(w, 20)
			c.SetTitle("Excess risk", "")
			c.SetData([]Series{
				{Label: "acsa", Kind: Run, Points: []Point{{10, 0.3}, {80, 0.01}}},
				{Label: "klz-gd", Kind: Run, Refused: reason + "; " + reason},
			}, 10, 160, "")
			v := style.StripANSI(c.View())
			var lines []string
			for _, l := range strings.Split(v, "\n") {
				if strings.Contains(l, "klz-gd refused") || len(lines) > 0 && len(lines) < 3 && !strings.Contains(l, "acsa") {
					lines = append(lines, strings.TrimRight(l, " "))
				}
			}
			if len(lines) == 0 {
				t.Fatalf("no refusal in the legend:\n%s", v)
			}
			text := strings.Join(lines, "\n")
			if strings.Contains(text, "… …") || strings.Count(text, "…") != 1 || !strings.Contains(text, "…"+FullMark) {
				t.Errorf("the cut refusal does not end in one \"…\" and %q:\n%s", FullMark, text)
			}
		})
	}
}

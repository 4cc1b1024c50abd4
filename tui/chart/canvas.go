package chart

import (
	"math"
	"strings"

	"dpso/tui/style"
)

// canvas is a scatter chart's plot area over asciigraph's frame (its y
// labels and axis, drawn from a series without values): asciigraph draws
// continuous lines between columns, not markers, error bars or straight
// segments between a few points, so those are drawn here, cell by cell,
// on the frame's grid and on the rows asciigraph draws values on (rowOf:
// the row its label names).
type canvas struct {
	cells        [][]cell
	left, pw     int
	rows         int
	lo, hi       float64
	axMin, xmax  float64
	drawn, shown []int         // per series: cells drawn, cells still its own
	over         []map[int]int // per series: how many of its cells each later series drew over
}

type cell struct {
	text   string
	color  int // palette index; −1: the frame's
	owner  int // series index; −1: the frame
	marker bool
}

// newCanvas reads asciigraph's frame (plain lines: no series colour) and
// makes room for pw data columns after column left.
func newCanvas(frame []string, left, pw int, lo, hi, axMin, xmax float64) *canvas {
	cv := &canvas{left: left, pw: pw, rows: len(frame) - 1, lo: lo, hi: hi, axMin: axMin, xmax: xmax}
	for _, l := range frame {
		rs := []rune(style.StripANSI(l))
		row := make([]cell, max(len(rs), left+pw))
		for i := range row {
			row[i] = cell{text: " ", color: -1, owner: -1}
			if i < len(rs) {
				row[i].text = string(rs[i])
			}
		}
		cv.cells = append(cv.cells, row)
	}
	return cv
}

// blankCanvas is a canvas without a frame (for the legend's coverage
// pass): rows+1 rows of pw columns.
func blankCanvas(rows, pw int, lo, hi, axMin, xmax float64) *canvas {
	frame := make([]string, rows+1)
	return newCanvas(frame, 0, pw, lo, hi, axMin, xmax)
}

// row is the canvas row (from the top) of the log10 value y, or −1 when
// y is outside the plot.
func (cv *canvas) row(y float64) int {
	if !(cv.hi > cv.lo) || math.IsNaN(y) {
		return -1
	}
	r := rowOf(y, cv.lo, cv.hi, cv.rows)
	if r < 0 || r > cv.rows {
		return -1
	}
	return cv.rows - r
}

// col is the data column of x (in the axis's units: log10 on a log axis),
// −Inf (X = 0 on a log axis) the start column.
func (cv *canvas) col(x float64) int {
	if math.IsInf(x, -1) {
		return 0
	}
	return int(math.Round((x - cv.axMin) / (cv.xmax - cv.axMin) * float64(cv.pw-1)))
}

// set draws text at (row, data column c) for series owner; a marker is
// not drawn over by a later series' segments.
func (cv *canvas) set(row, c int, text string, color, owner int, marker bool) bool {
	if row < 0 || row >= len(cv.cells) || c < 0 || c >= cv.pw {
		return false
	}
	at := &cv.cells[row][cv.left+c]
	if at.marker && !marker && at.owner != owner {
		return false
	}
	if at.owner >= 0 && at.owner != owner {
		cv.shown[at.owner]--
		if cv.over[at.owner] == nil {
			cv.over[at.owner] = map[int]int{}
		}
		cv.over[at.owner][owner]++
	} else if at.owner == owner {
		cv.shown[owner]--
	}
	*at = cell{text: text, color: color, owner: owner, marker: marker}
	cv.drawn[owner]++
	cv.shown[owner]++
	return true
}

// segment draws the straight segment from (c0, r0) to (c1, r1) with
// text: one cell per column, and per row where it is steeper than one
// row a column.
func (cv *canvas) segment(c0, r0, c1, r1 int, text string, color, owner int) {
	steps := max(abs(c1-c0), abs(r1-r0))
	for s := 0; s <= steps; s++ {
		t := 0.0
		if steps > 0 {
			t = float64(s) / float64(steps)
		}
		c := int(math.Round(float64(c0) + t*float64(c1-c0)))
		r := int(math.Round(float64(r0) + t*float64(r1-r0)))
		cv.set(r, c, text, color, owner, false)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// scatterOrder is the order a scatter chart draws its series' lines in
// (the last on top): the previous run's trace, the bounds' shapes (slope
// guides: only their slope is a claim, the lowest one on the chart), the
// certificate and the start line, the runs' segments, the fitted lines —
// what is measured or proved is drawn over what is shape only; the runs'
// error bars and markers come last, over everything.
var scatterOrder = []Kind{Trace, Prior, Lower, Upper, Cert, Start, Run, Fit}

// draw draws the series in scatterOrder (runs in reverse order, so that
// the first run is on top): a series without points as a line across the
// plot, a curve as straight segments between its points; then each run's
// error bars (│ over Y ± SE) and markers (Marker), the previous run's
// points as ○. Markers of two runs on one cell are drawn apart, one
// column aside.
func (cv *canvas) draw(sc []scaled, st *style.Styles) {
	cv.drawn, cv.shown, cv.over = make([]int, len(sc)), make([]int, len(sc)), make([]map[int]int, len(sc))
	color := func(x *scaled) int {
		if st.Plain {
			return -1
		}
		return x.s.Color
	}
	ordered := func(kind Kind, f func(i int, x *scaled)) {
		for j := range sc {
			i := j
			if kind == Run {
				i = len(sc) - 1 - j
			}
			if x := &sc[i]; x.s.Kind == kind && x.off == 0 {
				f(i, x)
			}
		}
	}
	for _, kind := range scatterOrder {
		ordered(kind, func(i int, x *scaled) {
			glyph := Glyphs(kind, x.glyph, st.Plain).Horizontal
			if kind == Run {
				glyph = "·"
			}
			if len(x.pts) == 0 {
				if r := cv.row(x.logv); r >= 0 {
					cv.segment(0, r, cv.pw-1, r, glyph, color(x), i)
				}
				return
			}
			for k := 1; k < len(x.pts); k++ {
				a, b := x.pts[k-1], x.pts[k]
				if ra, rb := cv.row(a.Y), cv.row(b.Y); ra >= 0 && rb >= 0 {
					cv.segment(cv.col(a.X), ra, cv.col(b.X), rb, glyph, color(x), i)
				}
			}
		})
	}
	for _, kind := range []Kind{Trace, Run} {
		ordered(kind, func(i int, x *scaled) {
			for k, p := range x.pts {
				c := cv.col(p.X)
				if k < len(x.bars) && !math.IsNaN(x.bars[k][1]) {
					top := cv.row(math.Min(x.bars[k][1], cv.hi))
					bottom := cv.rows
					if !math.IsInf(x.bars[k][0], -1) {
						bottom = cv.row(math.Max(x.bars[k][0], cv.lo))
					}
					for r := top; r >= 0 && r <= bottom; r++ {
						cv.set(r, c, "│", color(x), i, false)
					}
				}
				r := cv.row(p.Y)
				for _, dc := range []int{0, 1, -1} {
					if at := cv.at(r, c+dc); at != nil && (!at.marker || at.owner == i) {
						cv.set(r, c+dc, Marker(kind, x.glyph), color(x), i, true)
						break
					}
				}
			}
		})
	}
}

// at is the cell at (row, data column c), nil outside the plot.
func (cv *canvas) at(row, c int) *cell {
	if row < 0 || row >= len(cv.cells) || c < 0 || c >= cv.pw {
		return nil
	}
	return &cv.cells[row][cv.left+c]
}

// cover records on each series that was drawn but is hidden everywhere
// (every cell of it drawn over) the legend mark of the series that hid
// most of it, and reports whether that changed anything.
func (cv *canvas) cover(sc []scaled, st *style.Styles) bool {
	changed := false
	for i := range sc {
		under := ""
		if cv.drawn[i] > 0 && cv.shown[i] <= 0 {
			best, n := -1, 0
			for o, k := range cv.over[i] {
				if k > n || k == n && o < best {
					best, n = o, k
				}
			}
			if best >= 0 {
				under = scatterMark(sc[best].s.Kind, sc[best].glyph, st.Plain)
			}
		}
		changed = changed || under != sc[i].under
		sc[i].under = under
	}
	return changed
}

// lines renders the canvas, each run of cells of one colour styled once.
func (cv *canvas) lines(st *style.Styles) []string {
	out := make([]string, len(cv.cells))
	for r, row := range cv.cells {
		var b strings.Builder
		for i := 0; i < len(row); {
			j := i
			var run strings.Builder
			for j < len(row) && row[j].color == row[i].color {
				run.WriteString(row[j].text)
				j++
			}
			if row[i].color >= 0 {
				b.WriteString(st.FG(row[i].color, run.String()))
			} else {
				b.WriteString(run.String())
			}
			i = j
		}
		out[r] = strings.TrimRight(b.String(), " ")
	}
	return out
}

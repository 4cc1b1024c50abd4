package plot

import (
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LabelBox is a text label beside a data point as last drawn: its text,
// its box on the canvas, and whether it was drawn (false when no place
// beside its point was free).
type LabelBox struct {
	Text  string
	Box   vg.Rectangle
	Drawn bool
}

// pointLabels are texts beside data points (a clip sweep's clipped
// fractions), placed when the figure is drawn, where the data→canvas map
// is known: each takes the first of a list of places around its point
// (right or left, above or below, further and further out) whose box
// overlaps no label already placed, no line or point marker of any series
// (the curves, the w₀ line, the certificate, the vertical markers) and
// stays inside the axes; a label with no free place is not drawn. So no
// label can overprint another or a line, by construction.
type pointLabels struct {
	f      *Figure
	at     plotter.XYs
	texts  []string
	style  draw.TextStyle
	colors []color.Color // each label's colour (nil: the style's)
	// edges marks the labels of arrows: +1 at the top edge, −1 at the
	// bottom (nil or 0: a point's or a line's label). An arrow's label
	// goes only beside its arrow, along the edge, or one row further in;
	// where none of those places is free it is not drawn (the legend
	// says what the arrow is), never away from the edge, where it would
	// read as a level. The other labels keep arrowClear from the arrows.
	edges []int
	// arrows are the arrows' boxes as last drawn.
	arrows []vg.Rectangle
}

// lineLabel asks for a label at the right end (x, y) of a horizontal
// reference line (the start line, a certificate, a rate), in the line's
// colour; placeLineLabels places them all when the figure is drawn, so
// that two lines at nearly the same value get labels on either side of
// them, not one over the other.
func (f *Figure) lineLabel(text string, x, y float64, col color.Color) {
	f.edgeLabel(text, x, y, col, 0)
}

// edgeLabel is lineLabel for an arrow at the top (edge +1) or bottom
// (−1) edge of the axes (0: a line's label).
func (f *Figure) edgeLabel(text string, x, y float64, col color.Color, edge int) {
	f.lineAt = append(f.lineAt, plotter.XY{X: x, Y: y})
	f.lineTexts = append(f.lineTexts, text)
	f.lineColors = append(f.lineColors, col)
	f.lineEdges = append(f.lineEdges, edge)
}

// placeLineLabels adds the labels lineLabel asked for (once every line is
// in the figure): the arrows' first, which have only the places beside
// their arrows, then the lines', which find room elsewhere along their
// lines rather than take an arrow's place (where they would read as its
// label).
func (f *Figure) placeLineLabels() {
	if len(f.lineAt) == 0 {
		return
	}
	l := &pointLabels{f: f, style: textStyle(labelSize)}
	for _, arrows := range []bool{true, false} {
		for i, e := range f.lineEdges {
			if (e != 0) == arrows {
				l.at = append(l.at, f.lineAt[i])
				l.texts = append(l.texts, f.lineTexts[i])
				l.colors = append(l.colors, f.lineColors[i])
				l.edges = append(l.edges, e)
			}
		}
	}
	f.Plot.Add(l)
}

// labelPad is the clearance kept around a label's box.
var labelPad = vg.Points(1.5)

// markerHalf is half the side of the square kept free around a series'
// point marker.
var markerHalf = vg.Points(3.5)

// Plot places and draws the labels (gonum/plot's Plotter).
func (l *pointLabels) Plot(c draw.Canvas, plt *gplot.Plot) {
	trX, trY := plt.Transforms(&c)
	pt := func(p plotter.XY) vg.Point { return vg.Point{X: trX(p.X), Y: trY(p.Y)} }
	var segs [][2]vg.Point
	var marks []vg.Rectangle
	l.arrows = nil
	for _, s := range l.f.series {
		for i, p := range s.Points {
			q := pt(p)
			if i > 0 {
				segs = append(segs, [2]vg.Point{pt(s.Points[i-1]), q})
			}
			switch {
			case s.Arrow:
				// The arrow's triangle hangs inside the axes from its edge.
				r := vg.Rectangle{Min: vg.Point{X: q.X - arrowHalf, Y: min(q.Y, c.Max.Y-arrowDepth)}, Max: vg.Point{X: q.X + arrowHalf, Y: max(q.Y, c.Min.Y+arrowDepth)}}
				marks = append(marks, r)
				l.arrows = append(l.arrows, r)
			case s.Glyph != "" || len(s.Points) == 1:
				marks = append(marks, vg.Rectangle{Min: vg.Point{X: q.X - markerHalf, Y: q.Y - markerHalf}, Max: vg.Point{X: q.X + markerHalf, Y: q.Y + markerHalf}})
			}
		}
	}
	// Every set of labels keeps clear of the labels placed before it
	// (Write empties the list first).
	l.f.labelSegs, l.f.labelMarks = segs, marks
	sty := l.style
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	for i, t := range l.texts {
		sty := sty
		if i < len(l.colors) && l.colors[i] != nil {
			sty.Color = l.colors[i]
		}
		p := pt(l.at[i])
		rect := sty.Rectangle(t) // relative to the anchor
		w, h := rect.Max.X-rect.Min.X, rect.Max.Y-rect.Min.Y
		lb := LabelBox{Text: t}
		edge := 0
		if i < len(l.edges) {
			edge = l.edges[i]
		}
		for _, m := range labelPlaces(p, w, h, edge) {
			box := vg.Rectangle{Min: m, Max: vg.Point{X: m.X + w, Y: m.Y + h}}
			if l.free(c, box) && (edge != 0 || l.clearOfArrows(box)) {
				lb.Box, lb.Drawn = box, true
				c.FillText(sty, vg.Point{X: m.X - rect.Min.X, Y: m.Y - rect.Min.Y}, t)
				break
			}
		}
		l.f.labels = append(l.f.labels, lb)
	}
}

// labelPlaces are the lower-left corners a w×h label of the point p may
// take, in order of preference. A point's or a line's label (edge 0):
// diagonally away from it, then level with it, further and further out.
// An arrow's (edge +1 at the top, −1 at the bottom): level with its
// triangle, which hangs arrowDepth into the axes from the edge, to its
// left or right, then one row further in; nothing further away.
func labelPlaces(p vg.Point, w, h vg.Length, edge int) []vg.Point {
	var out []vg.Point
	if edge != 0 {
		rows := []vg.Length{p.Y - h - 2, p.Y - 2*h - 5} // below the top edge
		if edge < 0 {
			rows = []vg.Length{p.Y + 2, p.Y + h + 5} // above the bottom edge
		}
		half := arrowHalf + labelPad
		for _, y := range rows {
			for _, d := range []vg.Length{vg.Points(2), vg.Points(6), vg.Points(12)} {
				out = append(out, vg.Point{X: p.X - half - d - w, Y: y}, vg.Point{X: p.X + half + d, Y: y})
			}
		}
		return out
	}
	for _, d := range []vg.Length{vg.Points(4), vg.Points(9), vg.Points(16), vg.Points(26), vg.Points(40)} {
		out = append(out, vg.Point{X: p.X + d, Y: p.Y + d}, vg.Point{X: p.X + d, Y: p.Y - d - h}, vg.Point{X: p.X - d - w, Y: p.Y + d}, vg.Point{X: p.X - d - w, Y: p.Y - d - h},
			vg.Point{X: p.X - d - w - 6, Y: p.Y - h - 2}, vg.Point{X: p.X + d + 6, Y: p.Y - h - 2}, vg.Point{X: p.X - d - w - 6, Y: p.Y + 2}, vg.Point{X: p.X + d + 6, Y: p.Y + 2})
	}
	return out
}

// free reports whether box (with its clearance) lies inside the axes and
// clear of every label placed and every line and marker.
func (l *pointLabels) free(c draw.Canvas, box vg.Rectangle) bool {
	in := grow(box, labelPad)
	if in.Min.X < c.Min.X || in.Min.Y < c.Min.Y || in.Max.X > c.Max.X || in.Max.Y > c.Max.Y {
		return false
	}
	for _, lb := range l.f.labels {
		if lb.Drawn && rectsOverlap(in, lb.Box) {
			return false
		}
	}
	for _, m := range l.f.labelMarks {
		if rectsOverlap(in, m) {
			return false
		}
	}
	for _, s := range l.f.labelSegs {
		if segmentHitsRect(s[0], s[1], in) {
			return false
		}
	}
	return true
}

// arrowClear is how far a line's or a point's label keeps from an arrow,
// beside which it would read as the arrow's label.
var arrowClear = vg.Points(24)

// clearOfArrows reports whether box keeps arrowClear from every arrow.
func (l *pointLabels) clearOfArrows(box vg.Rectangle) bool {
	for _, a := range l.arrows {
		if rectsOverlap(box, grow(a, arrowClear)) {
			return false
		}
	}
	return true
}

// Labels are the figure's point labels as last drawn (Write), with the
// lines and markers they were kept clear of (canvas coordinates): the
// segments of every series and the squares around point markers.
func (f *Figure) Labels() (labels []LabelBox, segs [][2]vg.Point, marks []vg.Rectangle) {
	return f.labels, f.labelSegs, f.labelMarks
}

func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: r.Min.X - d, Y: r.Min.Y - d}, Max: vg.Point{X: r.Max.X + d, Y: r.Max.Y + d}}
}

func rectsOverlap(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// segmentHitsRect reports whether the segment ab meets the rectangle r
// (Liang–Barsky clipping).
func segmentHitsRect(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)}, {dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)}, {dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

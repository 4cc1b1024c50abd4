package plot

import (
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The marker shapes gonum/plot lacks: a diamond (filled or open), a
// triangle pointing down, an asterisk (the start line's) and an arrow
// (a reference beyond the axes), each within the glyph's radius.

// diamondGlyph is a square standing on a corner.
type diamondGlyph struct{ open bool }

// DrawGlyph implements draw.GlyphDrawer.
func (g diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.25
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	if g.open {
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
		c.Stroke(p)
		return
	}
	c.SetColor(sty.Color)
	c.Fill(p)
}

// downTriangle is a filled triangle pointing down.
type downTriangle struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (downTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	r := sty.Radius + (sty.Radius-sty.Radius*vg.Length(math.Sin(math.Pi/6)))/2
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r*vg.Length(math.Cos(math.Pi/6)), Y: pt.Y + r*vg.Length(math.Sin(math.Pi/6))})
	p.Line(vg.Point{X: pt.X + r*vg.Length(math.Cos(math.Pi/6)), Y: pt.Y + r*vg.Length(math.Sin(math.Pi/6))})
	p.Close()
	c.Fill(p)
}

// asteriskGlyph is six strokes from the centre: a plus and a cross.
type asteriskGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (asteriskGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.4)})
	r := sty.Radius * 1.2
	for i := range 3 {
		a := math.Pi/2 + float64(i)*math.Pi/3
		dx, dy := r*vg.Length(math.Cos(a)), r*vg.Length(math.Sin(a))
		var p vg.Path
		p.Move(vg.Point{X: pt.X - dx, Y: pt.Y - dy})
		p.Line(vg.Point{X: pt.X + dx, Y: pt.Y + dy})
		c.Stroke(p)
	}
}

// arrowGlyph is an arrow pointing up (or down): a shaft with a head, unlike
// every marker of a series, so that a reference beyond the axes never
// reads as a data point.
type arrowGlyph struct{ down bool }

// DrawGlyph implements draw.GlyphDrawer.
func (g arrowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	s := vg.Length(1)
	if g.down {
		s = -1
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)})
	var shaft vg.Path
	shaft.Move(vg.Point{X: pt.X, Y: pt.Y - s*r})
	shaft.Line(vg.Point{X: pt.X, Y: pt.Y + s*r*0.2})
	c.Stroke(shaft)
	var head vg.Path
	head.Move(vg.Point{X: pt.X, Y: pt.Y + s*r})
	head.Line(vg.Point{X: pt.X - r*0.6, Y: pt.Y + s*r*0.1})
	head.Line(vg.Point{X: pt.X + r*0.6, Y: pt.Y + s*r*0.1})
	head.Close()
	c.SetColor(sty.Color)
	c.Fill(head)
}
